%module(package="openmmcoordination") coordination

%pythonbegin %{
import collections as _collections
import os as _os

import openmm as _openmmPackage

from openmm import unit as _unit

from . import _arguments
%}

%import(module="openmm") "swig/OpenMMSwigHeaders.i"
%include "swig/typemaps.i"
%include <std_string.i>
%include <std_vector.i>

%{
#include "CoordinationBiasForce.h"
#include "SwitchingSettings.h"
#include "PairSwitchingForce.h"
#include "CoordinationForce.h"
#include "PerAtomForce.h"
#include "CoordinationNumberForce.h"
#include "SteinhardtForce.h"
#include "ShellFunctionForce.h"
#include "ContactMapForce.h"
#include "PlumedTranslator.h"
#include "OpenMM.h"
#include "OpenMMAmoeba.h"
#include "OpenMMDrude.h"
#include "openmm/RPMDIntegrator.h"
#include "openmm/RPMDMonteCarloBarostat.h"
%}

namespace std {
    %template(vectori) vector<int>;
}

%{
/* Messages in Python's spelling: CoordinationForce::Dual -> CoordinationForce.Dual. */
static std::string pythonSpelling(std::string message) {
    for (const char* scope : {"CoordinationNumberForce::", "SteinhardtForce::", "ShellFunctionForce::", "PerAtomForce::", "ContactMapForce::", "CoordinationForce::", "PairSwitchingForce::",
                              "CoordinationBiasForce::", "SwitchingSettings::", "PlumedTranslator::", "CustomCVForce::", "Context::", "State::",
                              "System::"}) {
        const std::string from(scope), to = from.substr(0, from.size() - 2) + ".";
        for (size_t at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size()))
            message.replace(at, from.size(), to);
    }
    return message;
}
%}

/* C++ exceptions (OpenMMException) become Python's OpenMMException, as in OpenMM's own module. */
%exception {
    try {
        $action
    } catch (std::exception& error) {
        static PyObject* openmmException = NULL;
        if (openmmException == NULL) {
            PyObject* module = PyImport_ImportModule("openmm");
            if (module != NULL) {
                openmmException = PyObject_GetAttrString(module, "OpenMMException");
                Py_DECREF(module);
            }
            if (openmmException == NULL) {
                PyErr_Clear();
                openmmException = PyExc_Exception;
            }
        }
        PyErr_SetString(openmmException, pythonSpelling(error.what()).c_str());
        return NULL;
    }
}

/* The arguments' conversions, the typemaps, then the classes and their Python additions. */
%include "interface/conversions.i"
%include "interface/values.i"
%include "interface/classes.i"
