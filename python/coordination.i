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
#include "CoordinationForce.h"
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
    for (const char* scope : {"CoordinationForce::", "CustomCVForce::", "Context::", "State::", "System::"}) {
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

/*
 * Python conventions, as OpenMM's own wrappers have them: lengths take numbers (nm) or Quantities of a
 * length (another dimension is a TypeError), getters of lengths return Quantities in nm, numpy scalars
 * work wherever numbers do, groups take iterables of ints or openmm.app Atom objects.
 */
%define LENGTH_ARGUMENT(method, argument)
%pythonprepend CoordinationPlugin::CoordinationForce::method %{
    argument = _arguments.length(argument, "method", "argument")
%}
%enddef
%define INTEGER_ARGUMENT(method, argument, allowed)
%pythonprepend CoordinationPlugin::CoordinationForce::method %{
    argument = _arguments.integer(argument, "method", "argument", allowed)
%}
%enddef
%define BOOLEAN_ARGUMENT(method, argument)
%pythonprepend CoordinationPlugin::CoordinationForce::method %{
    argument = _arguments.boolean(argument, "method", "argument")
%}
%enddef
%define ATOMS_ARGUMENT(method)
%pythonprepend CoordinationPlugin::CoordinationForce::method %{
    atoms = _arguments.atoms(atoms, "method")
%}
%enddef
%define LENGTH_RESULT(method)
%pythonappend CoordinationPlugin::CoordinationForce::method %{
    val = _unit.Quantity(val, _unit.nanometer)
%}
%enddef

LENGTH_ARGUMENT(setR0, r0)
LENGTH_ARGUMENT(setD0, d0)
LENGTH_ARGUMENT(setDMax, dmax)
INTEGER_ARGUMENT(setN, n, _arguments.EXPONENT_FROM_1)
INTEGER_ARGUMENT(setM, m, _arguments.EXPONENT_FROM_0)
INTEGER_ARGUMENT(setMode, mode, _arguments.MODE)
INTEGER_ARGUMENT(setSwitchingFunction, type, _arguments.SWITCHING_FUNCTION)
INTEGER_ARGUMENT(getGlobalParameterName, index, _arguments.GLOBAL_PARAMETER_INDEX)
INTEGER_ARGUMENT(getGlobalParameterDefaultValue, index, _arguments.GLOBAL_PARAMETER_INDEX)
INTEGER_ARGUMENT(getEnergyParameterDerivativeName, index, _arguments.DERIVATIVE_INDEX)
BOOLEAN_ARGUMENT(setStretch, stretch)
BOOLEAN_ARGUMENT(setUsesPeriodicBoundaryConditions, periodic)
ATOMS_ARGUMENT(setGroupA)
ATOMS_ARGUMENT(setGroupB)
LENGTH_RESULT(getR0)
LENGTH_RESULT(getD0)
LENGTH_RESULT(getDMax)
LENGTH_RESULT(getEffectiveDMax)
LENGTH_RESULT(getNativeQReference)
%pythonappend CoordinationPlugin::CoordinationForce::getNativeQBeta %{
    val = _unit.Quantity(val, _unit.nanometer**-1)
%}
%pythonprepend CoordinationPlugin::CoordinationForce::setSmapExponents %{
    a = _arguments.integer(a, "setSmapExponents", "a", _arguments.EXPONENT_FROM_1)
    b = _arguments.integer(b, "setSmapExponents", "b", _arguments.EXPONENT_FROM_1)
%}
%pythonprepend CoordinationPlugin::CoordinationForce::setNativeQParameters %{
    beta = _arguments.inverse_length(beta, "setNativeQParameters", "beta")
    _lambda = _arguments.number(_lambda, "setNativeQParameters", "lambda")
    reference = _arguments.length(reference, "setNativeQParameters", "reference")
%}
%pythonprepend CoordinationPlugin::CoordinationForce::addGlobalParameter %{
    defaultValue = _arguments.number(defaultValue, "addGlobalParameter", "defaultValue")
%}
%pythonprepend CoordinationPlugin::CoordinationForce::setGlobalParameterName %{
    index = _arguments.integer(index, "setGlobalParameterName", "index", _arguments.GLOBAL_PARAMETER_INDEX)
%}
%pythonprepend CoordinationPlugin::CoordinationForce::setGlobalParameterDefaultValue %{
    index = _arguments.integer(index, "setGlobalParameterDefaultValue", "index", _arguments.GLOBAL_PARAMETER_INDEX)
    defaultValue = _arguments.number(defaultValue, "setGlobalParameterDefaultValue", "defaultValue")
%}

%newobject CoordinationPlugin::CoordinationForce::fromPlumed;
/* Python's fromPlumedFile (below) returns the forces and the skipped actions as a named tuple. */
%ignore CoordinationPlugin::CoordinationForce::fromPlumedFile;
%ignore CoordinationPlugin::CoordinationForce::GlobalParameterInfo;

/*
 * The translator's new forces reach Python as their own class (a CoordinationForce, not a bare Force), owned
 * by the Python object (defined before the classes: both classes' fromPlumedFile use it).
 */
%{
static PyObject* coordinationNewForceObject(OpenMM::Force* force) {
    if (auto* coordination = dynamic_cast<CoordinationPlugin::CoordinationForce*>(force))
        return SWIG_NewPointerObj(SWIG_as_voidptr(coordination), SWIGTYPE_p_CoordinationPlugin__CoordinationForce,
                                  SWIG_POINTER_OWN);
    return SWIG_NewPointerObj(SWIG_as_voidptr(force), SWIG_TypeQuery("OpenMM::Force *"), SWIG_POINTER_OWN);
}
/* A C++ fromPlumedFile's result as ([forces], [skipped]); each force owned by its Python object. */
template <class ForceClass>
static PyObject* coordinationPlumedInput(const std::vector<ForceClass*>& forces, const std::vector<std::string>& skipped) {
    PyObject* forceList = PyList_New(0);
    for (ForceClass* force : forces) {
        PyObject* object = coordinationNewForceObject(force);
        PyList_Append(forceList, object);
        Py_DECREF(object);
    }
    PyObject* skippedList = PyList_New(0);
    for (const std::string& action : skipped) {
        PyObject* text = PyUnicode_FromString(action.c_str());
        PyList_Append(skippedList, text);
        Py_DECREF(text);
    }
    return Py_BuildValue("(NN)", forceList, skippedList);
}
%}

/* The classes, with their Doxygen comments as docstrings (swig -doxygen), whose :type: and :rtype: fields name
   the Python types. */
%typemap(doctype) std::string "str"
%typemap(doctype) bool "bool"
%typemap(doctype) std::vector<int> "list[int]"
%typemap(doctype) OpenMM::Context "openmm.Context"
%typemap(doctype) OpenMM::Force "openmm.Force"
#define OPENMM_EXPORT_COORDINATION
%include "CoordinationForce.h"

%typemap(out) OpenMM::Force* CoordinationPlugin::PlumedTranslator::fromPlumed {
    $result = coordinationNewForceObject($1);
}
%ignore CoordinationPlugin::PlumedTranslator::fromPlumedFile;
%include "PlumedTranslator.h"

%pythoncode %{
PlumedInput = _collections.namedtuple("PlumedInput", ["forces", "skipped"])
PlumedInput.__doc__ = """What fromPlumedFile() read: forces, a dict from each action's label to the force it became
(in the file's order), and skipped, the other actions ("label: NAME")."""


def _readPlumedFile(read, pathOrText):
    """The PlumedInput of a wrapped C++ fromPlumedFile (read: pathOrText -> ([forces], [skipped]))."""
    if isinstance(pathOrText, _os.PathLike):
        pathOrText = _os.fspath(pathOrText)
    forces, skipped = read(pathOrText)
    return PlumedInput({force.getName(): force for force in forces}, skipped)
%}

%extend CoordinationPlugin::PlumedTranslator {
    /* The C++ fromPlumedFile as ([forces], [skipped]). */
    static PyObject* _fromPlumedFile(const std::string& pathOrText) {
        std::vector<std::string> skipped;
        std::vector<OpenMM::Force*> forces = CoordinationPlugin::PlumedTranslator::fromPlumedFile(pathOrText, skipped);
        return coordinationPlumedInput(forces, skipped);
    }
    %pythoncode %{
    @staticmethod
    def fromPlumedFile(pathOrText):
        r"""
        Read every action of PLUMED input that becomes a force (COORDINATION: a CoordinationForce), with
        PLUMED's rules: '#' comments, multi-line actions ("..." continuations), ENDPLUMED, and a UNITS action
        (LENGTH) that applies to the lengths of the actions after it. Each force is named by its action's label
        (PLUMED's "@N" for an unlabelled action); the other actions (DISTANCE, PRINT, RESTRAINT, ...) are
        listed in skipped.

        :type pathOrText: str or os.PathLike
        :param pathOrText: the path of a PLUMED input file, or its text (any text with a line break is read as text)
        :rtype: PlumedInput
        :return: a named tuple: forces, a dict from label to force in the file's order, and skipped, the other
            actions as "label: NAME" (or "NAME"), e.g. ["d1: DISTANCE", "PRINT"]
        """
        return _readPlumedFile(PlumedTranslator._fromPlumedFile, pathOrText)
    %}
};

%pythoncode %{
def _keepsOwnerAlive(getter):
    """A getter of a reference into the object it is called on (System.getForce) whose result keeps that object
    alive, so that the reference (and CoordinationForce.cast's result from it) never outlives what it points into."""
    if getattr(getter, "_keepsOwnerAlive", False):
        return getter

    def get(self, *args):
        result = getter(self, *args)
        result._owner = self
        return result
    get.__name__, get.__qualname__, get.__doc__ = getter.__name__, getter.__qualname__, getter.__doc__
    get._keepsOwnerAlive = True
    return get


# OpenMM's own getForce and getCollectiveVariable return references that do not keep their System or CustomCVForce
# alive: cast(XmlSerializer.deserialize(xml).getForce(0)) would read freed memory. Their results now hold their owner.
_openmmPackage.System.getForce = _keepsOwnerAlive(_openmmPackage.System.getForce)
_openmmPackage.CustomCVForce.getCollectiveVariable = _keepsOwnerAlive(
    _openmmPackage.CustomCVForce.getCollectiveVariable)

fromPlumedFile = PlumedTranslator.fromPlumedFile
fromPlumed = PlumedTranslator.fromPlumed
toPlumed = PlumedTranslator.toPlumed
%}

/* cast's result is a reference into its argument's force: it keeps the argument (and what keeps that alive) alive. */
%pythonappend CoordinationPlugin::CoordinationForce::cast %{
    val._owner = force
%}
%extend CoordinationPlugin::CoordinationForce {
    /** Cast a Force (for example from System.getForce()) to a CoordinationForce. */
    static CoordinationPlugin::CoordinationForce& cast(OpenMM::Force& force) {
        CoordinationPlugin::CoordinationForce* result = dynamic_cast<CoordinationPlugin::CoordinationForce*>(&force);
        if (result == NULL)
            throw OpenMM::OpenMMException("CoordinationForce.cast(): the Force is not a CoordinationForce");
        return *result;
    }
    /** Whether a Force is a CoordinationForce. */
    static bool isinstance(OpenMM::Force& force) {
        return (dynamic_cast<CoordinationPlugin::CoordinationForce*>(&force) != NULL);
    }
    /* The C++ fromPlumedFile as ([forces], [skipped]). */
    static PyObject* _fromPlumedFile(const std::string& pathOrText) {
        std::vector<std::string> skipped;
        std::vector<CoordinationPlugin::CoordinationForce*> forces =
            CoordinationPlugin::CoordinationForce::fromPlumedFile(pathOrText, skipped);
        return coordinationPlumedInput(forces, skipped);
    }
    %pythoncode %{
    @staticmethod
    def fromPlumedFile(pathOrText):
        r"""
        Read every COORDINATION action of a PLUMED input file (a plumed.dat): the CoordinationForces that
        openmmcoordination.fromPlumedFile() reads (PLUMED's file rules, UNITS, labels as names: PLUMED's "@N"
        for an unlabelled action); every other action is listed in skipped.

        :type pathOrText: str or os.PathLike
        :param pathOrText: the path of a PLUMED input file, or its text (any text with a line break is read as text)
        :rtype: PlumedInput
        :return: a named tuple: forces, a dict from label to CoordinationForce in the file's order, and
            skipped, the other actions as "label: NAME" (or "NAME"), e.g. ["d1: DISTANCE", "PRINT"]
        """
        return _readPlumedFile(CoordinationForce._fromPlumedFile, pathOrText)
    %}
};
