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
#include "CoordinationNumberForce.h"
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
    for (const char* scope : {"CoordinationNumberForce::", "ContactMapForce::", "CoordinationForce::", "CustomCVForce::", "Context::", "State::", "System::"}) {
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

/* Centres: particles as groups take them, the weighting an int of CenterWeighting, weights any iterable of numbers. */
%pythonprepend CoordinationPlugin::CoordinationForce::addCenter %{
    args = _arguments.center_arguments(args, "addCenter")
%}
%pythonprepend CoordinationPlugin::CoordinationForce::setCenterParameters %{
    index = _arguments.integer(index, "setCenterParameters", "index", _arguments.CENTER_INDEX)
    particles = _arguments.atoms(particles, "setCenterParameters")
    weighting = _arguments.integer(weighting, "setCenterParameters", "weighting", _arguments.CENTER_WEIGHTING)
    weights = _arguments.numbers_list(weights, "setCenterParameters", "weights")
    makeWhole = _arguments.boolean(makeWhole, "setCenterParameters", "makeWhole")
%}

%pythonprepend CoordinationPlugin::CoordinationForce::getCollectiveVariableName %{
    index = _arguments.integer(index, "getCollectiveVariableName", "index", _arguments.CV_INDEX)
%}

/* CoordinationNumberForce: its inherited setters keep CoordinationForce's conversions (the Python class inherits
   them); its own methods convert their arguments here. */
%pythonprepend CoordinationPlugin::CoordinationNumberForce::setRPower %{
    power = _arguments.plain_number(power, "setRPower", "power", cls="CoordinationNumberForce")
%}
%pythonprepend CoordinationPlugin::CoordinationNumberForce::addReduction %{
    args = _arguments.reduction(args, "addReduction", cls="CoordinationNumberForce")
%}
%pythonprepend CoordinationPlugin::CoordinationNumberForce::setReductionParameters %{
    index = _arguments.integer(index, "setReductionParameters", "index", _arguments.REDUCTION_INDEX,
                               cls="CoordinationNumberForce")
    type = _arguments.integer(type, "setReductionParameters", "type", _arguments.REDUCTION_TYPE,
                              cls="CoordinationNumberForce")
    parameters = _arguments.text(parameters, "setReductionParameters", "parameters", cls="CoordinationNumberForce")
    name = _arguments.text(name, "setReductionParameters", "name", cls="CoordinationNumberForce")
%}
%pythonprepend CoordinationPlugin::CoordinationNumberForce::getReductionParameters %{
    index = _arguments.integer(index, "getReductionParameters", "index", _arguments.REDUCTION_INDEX,
                               cls="CoordinationNumberForce")
%}
%pythonprepend CoordinationPlugin::CoordinationNumberForce::getCollectiveVariableName %{
    index = _arguments.integer(index, "getCollectiveVariableName", "index", _arguments.CV_INDEX,
                               cls="CoordinationNumberForce")
%}
%pythonprepend CoordinationPlugin::CoordinationNumberForce::getDefaultReductionName %{
    type = _arguments.integer(type, "getDefaultReductionName", "type", _arguments.REDUCTION_TYPE,
                              cls="CoordinationNumberForce")
    parameters = _arguments.text(parameters, "getDefaultReductionName", "parameters", cls="CoordinationNumberForce")
%}
%ignore CoordinationPlugin::CoordinationNumberForce::ReductionInfo;

%newobject CoordinationPlugin::CoordinationForce::fromPlumed;
/* Python's fromPlumedFile (below) returns the forces and the skipped actions as a named tuple. */
%ignore CoordinationPlugin::CoordinationForce::fromPlumedFile;
%ignore CoordinationPlugin::CoordinationForce::GlobalParameterInfo;

/*
 * The translator's new forces reach Python as their own class (a CoordinationForce or CoordinationNumberForce, not a
 * bare Force), owned
 * by the Python object (defined before the classes: both classes' fromPlumedFile use it).
 */
%{
static PyObject* coordinationForceObject(OpenMM::Force* force, int flags) {
    if (auto* contactMap = dynamic_cast<CoordinationPlugin::ContactMapForce*>(force))
        return SWIG_NewPointerObj(SWIG_as_voidptr(contactMap), SWIGTYPE_p_CoordinationPlugin__ContactMapForce, flags);
    if (auto* numbers = dynamic_cast<CoordinationPlugin::CoordinationNumberForce*>(force))
        return SWIG_NewPointerObj(SWIG_as_voidptr(numbers), SWIGTYPE_p_CoordinationPlugin__CoordinationNumberForce, flags);
    if (auto* coordination = dynamic_cast<CoordinationPlugin::CoordinationForce*>(force))
        return SWIG_NewPointerObj(SWIG_as_voidptr(coordination), SWIGTYPE_p_CoordinationPlugin__CoordinationForce, flags);
    return SWIG_NewPointerObj(SWIG_as_voidptr(force), SWIG_TypeQuery("OpenMM::Force *"), flags);
}
static PyObject* coordinationNewForceObject(OpenMM::Force* force) {
    return coordinationForceObject(force, SWIG_POINTER_OWN);
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
%typemap(doctype) std::vector<double> "list[float]"
%typemap(doctype) CoordinationPlugin::CoordinationNumberForce::ReductionType "int"
%typemap(doctype) CoordinationPlugin::CoordinationForce::CenterWeighting "int"

/* Values computed into a vector (getCollectiveVariableValues, getCoordinationNumbers) are returned as a list of
   floats, as OpenMM's CustomCVForce.getCollectiveVariableValues returns them. */
%typemap(in, numinputs=0) std::vector<double>& values (std::vector<double> temp) {
    $1 = &temp;
}
%typemap(argout) std::vector<double>& values {
    PyObject* list = PyList_New($1->size());
    for (size_t i = 0; i < $1->size(); i++)
        PyList_SET_ITEM(list, i, PyFloat_FromDouble((*$1)[i]));
    %append_output(list);
}
/* getReductionParameters(index) returns the tuple (type, parameters, name) (a typemap of the three arguments
   together, so that other methods' parameters and name arguments stay inputs). */
%typemap(in, numinputs=0) (CoordinationPlugin::CoordinationNumberForce::ReductionType& type, std::string& parameters,
                           std::string& name)
    (CoordinationPlugin::CoordinationNumberForce::ReductionType temp1, std::string temp2, std::string temp3) {
    $1 = &temp1;
    $2 = &temp2;
    $3 = &temp3;
}
%typemap(argout) (CoordinationPlugin::CoordinationNumberForce::ReductionType& type, std::string& parameters,
                  std::string& name) {
    %append_output(Py_BuildValue("(iNN)", static_cast<int>(*$1),
                                 PyUnicode_FromStringAndSize($2->data(), $2->size()),
                                 PyUnicode_FromStringAndSize($3->data(), $3->size())));
}

/* A centre's weights: a sequence of floats (the Python layer converts numpy arrays and numbers first); OpenMM's own
   typemap for a vector of doubles needs its numpy helpers, which live in OpenMM's module. */
%typemap(in) const std::vector<double>& weights (std::vector<double> temp) {
    PyObject* sequence = PySequence_Fast($input, "weights must be a sequence of numbers");
    if (sequence == NULL)
        SWIG_fail;
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence);
    for (Py_ssize_t i = 0; i < size; i++) {
        const double value = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(sequence, i));
        if (value == -1.0 && PyErr_Occurred()) {
            Py_DECREF(sequence);
            SWIG_fail;
        }
        temp.push_back(value);
    }
    Py_DECREF(sequence);
    $1 = &temp;
}
%typemap(typecheck, precedence=SWIG_TYPECHECK_DOUBLE_ARRAY) const std::vector<double>& weights {
    $1 = (PySequence_Check($input) && !PyUnicode_Check($input)) ? 1 : 0;
}

/* getCenterParameters(index) returns the tuple (particles, weighting, weights, makeWhole): written in Python below. */
%ignore CoordinationPlugin::CoordinationForce::getCenterParameters;
%ignore CoordinationPlugin::CoordinationForce::CenterInfo;

/* CoordinationForce.fromPlumed gives the force of the action as its own class (COORDINATIONNUMBER: a
   CoordinationNumberForce). */
%typemap(out) CoordinationPlugin::CoordinationForce* CoordinationPlugin::CoordinationForce::fromPlumed {
    $result = coordinationNewForceObject($1);
}

/* A contact's shape and a centre's weights (CoordinationForce's and ContactMapForce's): a sequence of floats
   (_arguments converts numbers and Quantities first). OpenMM's own
   typemap of a const std::vector<double>& needs its module's numpy set-up, which this module does not have. */
%{
static int coordinationSequenceToDoubles(PyObject* input, std::vector<double>& out) {
    PyObject* sequence = PySequence_Fast(input, "expected a sequence of numbers");
    if (sequence == NULL)
        return 0;
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence);
    out.resize(size);
    for (Py_ssize_t i = 0; i < size; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(sequence, i));
        if (PyErr_Occurred()) {
            Py_DECREF(sequence);
            return 0;
        }
    }
    Py_DECREF(sequence);
    return 1;
}
%}
%typemap(in) const std::vector<double>& shape (std::vector<double> temp), const std::vector<double>& weights (std::vector<double> temp) {
    if (!coordinationSequenceToDoubles($input, temp))
        SWIG_fail;
    $1 = &temp;
}
%typemap(typecheck, precedence=SWIG_TYPECHECK_DOUBLE_ARRAY) const std::vector<double>& shape, const std::vector<double>& weights {
    $1 = (PySequence_Check($input) && !PyUnicode_Check($input)) ? 1 : 0;
}
#define OPENMM_EXPORT_COORDINATION
%include "CoordinationForce.h"
%include "CoordinationNumberForce.h"

/* ContactMapForce: lengths in nm or Quantities of a length, numpy scalars, openmm.app Atom objects as particles;
   getContactParameters and getCenterParameters give tuples, the context methods lists. */
%pythonprepend CoordinationPlugin::ContactMapForce::ContactMapForce %{
    args = tuple(args)
    if len(args) > 0:
        args = (_arguments.text(args[0], "ContactMapForce", "energy", cls="ContactMapForce"),) + args[1:]
    if len(args) > 1:
        args = args[:1] + (_arguments.integer(args[1], "ContactMapForce", "reduction", _arguments.CONTACT_MAP_REDUCTION,
                                              cls="ContactMapForce"),) + args[2:]
%}
%pythonprepend CoordinationPlugin::ContactMapForce::setReduction %{
    reduction = _arguments.integer(reduction, "setReduction", "reduction", _arguments.CONTACT_MAP_REDUCTION,
                                   cls="ContactMapForce")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::addContact %{
    args = _arguments.contact(args, "addContact")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::setContactParameters %{
    index = _arguments.integer(index, "setContactParameters", "index", _arguments.CONTACT_INDEX, cls="ContactMapForce")
    (particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight) = _arguments.contact(
        (particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight), "setContactParameters")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::addCenter %{
    args = _arguments.center(args, "addCenter")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::setCenterParameters %{
    index = _arguments.integer(index, "setCenterParameters", "index", _arguments.CENTER_INDEX, cls="ContactMapForce")
    (particles, weighting, weights, makeWhole) = _arguments.center((particles, weighting, weights, makeWhole),
                                                                   "setCenterParameters")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::setCustomSwitchingFunction %{
    expression = _arguments.text(expression, "setCustomSwitchingFunction", "expression", cls="ContactMapForce")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::setEnergyFunction %{
    energy = _arguments.text(energy, "setEnergyFunction", "energy", cls="ContactMapForce")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::setUsesPeriodicBoundaryConditions %{
    periodic = _arguments.boolean(periodic, "setUsesPeriodicBoundaryConditions", "periodic", cls="ContactMapForce")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::addGlobalParameter %{
    defaultValue = _arguments.number(defaultValue, "addGlobalParameter", "defaultValue", cls="ContactMapForce")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::getGlobalParameterName %{
    index = _arguments.integer(index, "getGlobalParameterName", "index", _arguments.GLOBAL_PARAMETER_INDEX,
                               cls="ContactMapForce")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::setGlobalParameterName %{
    index = _arguments.integer(index, "setGlobalParameterName", "index", _arguments.GLOBAL_PARAMETER_INDEX,
                               cls="ContactMapForce")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::getGlobalParameterDefaultValue %{
    index = _arguments.integer(index, "getGlobalParameterDefaultValue", "index", _arguments.GLOBAL_PARAMETER_INDEX,
                               cls="ContactMapForce")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::setGlobalParameterDefaultValue %{
    index = _arguments.integer(index, "setGlobalParameterDefaultValue", "index", _arguments.GLOBAL_PARAMETER_INDEX,
                               cls="ContactMapForce")
    defaultValue = _arguments.number(defaultValue, "setGlobalParameterDefaultValue", "defaultValue", cls="ContactMapForce")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::getEnergyParameterDerivativeName %{
    index = _arguments.integer(index, "getEnergyParameterDerivativeName", "index", _arguments.DERIVATIVE_INDEX,
                               cls="ContactMapForce")
%}
%pythonprepend CoordinationPlugin::ContactMapForce::getCollectiveVariableName %{
    index = _arguments.integer(index, "getCollectiveVariableName", "index", _arguments.CV_INDEX, cls="ContactMapForce")
%}
%ignore CoordinationPlugin::ContactMapForce::ContactInfo;
%ignore CoordinationPlugin::ContactMapForce::CenterInfo;
%newobject CoordinationPlugin::ContactMapForce::fromPlumed;
%typemap(doctype) CoordinationPlugin::ContactMapForce::Reduction "int"

/* getContactParameters and getCenterParameters return tuples (below). */
%ignore CoordinationPlugin::ContactMapForce::getContactParameters;
%ignore CoordinationPlugin::ContactMapForce::getCenterParameters;
%include "ContactMapForce.h"

%typemap(out) OpenMM::Force* CoordinationPlugin::PlumedTranslator::fromPlumed {
    $result = coordinationNewForceObject($1);
}
%ignore CoordinationPlugin::PlumedTranslator::fromPlumedFile;
%include "PlumedTranslator.h"

%pythoncode %{
PlumedInput = _collections.namedtuple("PlumedInput", ["forces", "skipped"])
PlumedInput.__doc__ = """What fromPlumedFile() read: forces, a dict from each action's label to the force it became
(in the file's order), and skipped, the other actions ("label: NAME")."""


def _asOwnClass(force):
    """A Force from XmlSerializer (a new openmm.Force that owns its C++ object) as an object of its own class
    (CoordinationForce, CoordinationNumberForce or ContactMapForce) that owns it instead."""
    result = ContactMapForce.cast(force) if ContactMapForce.isinstance(force) else CoordinationForce.cast(force)
    del result._owner
    if force.thisown:
        force.thisown = False
        result.thisown = True
    return result


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
        Read every action of PLUMED input that becomes a force (COORDINATION: a CoordinationForce;
        COORDINATIONNUMBER and COORDINATION_MOMENTS: a CoordinationNumberForce, with the separate SUM, MEAN,
        MORE_THAN, ... actions on its vector folded in), with PLUMED's rules: '#' comments, multi-line actions
        ("..." continuations), ENDPLUMED, GROUP labels in atom lists, and a UNITS action (LENGTH) that applies to
        the lengths of the actions after it. Each force is named by its action's label
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

/* cast's result is a reference into its argument's force: it keeps the argument (and what keeps that alive) alive.
   It has the force's own class (CoordinationForce.cast of a CoordinationNumberForce is a CoordinationNumberForce). */
%pythonappend CoordinationPlugin::CoordinationForce::cast %{
    if CoordinationNumberForce.isinstance(force):
        val = CoordinationNumberForce.cast(force)
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
    /* A centre's settings as (particles, weighting, weights, makeWhole). */
    PyObject* _getCenterParameters(int index) const {
        std::vector<int> particles;
        CoordinationPlugin::CoordinationForce::CenterWeighting weighting;
        std::vector<double> weights;
        bool makeWhole;
        self->getCenterParameters(index, particles, weighting, weights, makeWhole);
        PyObject* particleList = PyList_New(particles.size());
        for (size_t i = 0; i < particles.size(); i++)
            PyList_SET_ITEM(particleList, i, PyLong_FromLong(particles[i]));
        PyObject* weightList = PyList_New(weights.size());
        for (size_t i = 0; i < weights.size(); i++)
            PyList_SET_ITEM(weightList, i, PyFloat_FromDouble(weights[i]));
        return Py_BuildValue("(NiNN)", particleList, static_cast<int>(weighting), weightList, PyBool_FromLong(makeWhole));
    }
    %pythoncode %{
    def getCenterParameters(self, index):
        r"""
        Get a centre's settings.

        :type index: int
        :param index: 0 .. getNumCenters() - 1: the centre whose id is -1 - index
        :rtype: tuple
        :return: (particles, weighting, weights, makeWhole): its particle indices (list[int]), its weighting (int: a
            CoordinationForce.CenterWeighting value), its weights (list[float]: WeightedCenter; empty otherwise) and
            whether the group is made whole under periodic boundary conditions (bool)
        """
        index = _arguments.integer(index, "getCenterParameters", "index", _arguments.CENTER_INDEX)
        return self._getCenterParameters(index)

    # copy.copy, copy.deepcopy and pickle go through XmlSerializer, as for OpenMM's own forces, and give an object
    # of the force's own class (OpenMM's Force methods would give a bare openmm.Force).
    def __getstate__(self):
        return _openmmPackage.XmlSerializer.serialize(self)

    def __setstate__(self, state):
        self.this = _asOwnClass(_openmmPackage.XmlSerializer.deserialize(state)).this

    def __copy__(self):
        import copy
        duplicate = _asOwnClass(_openmmPackage.XmlSerializer.clone(self))
        attributes = {key: value for key, value in self.__dict__.items() if key not in ("this", "_owner")}
        duplicate.__dict__.update(copy.deepcopy(attributes))
        return duplicate

    def __deepcopy__(self, memo):
        return self.__copy__()

    @staticmethod
    def fromPlumedFile(pathOrText):
        r"""
        Read every COORDINATION, COORDINATIONNUMBER and COORDINATION_MOMENTS action of a PLUMED input file (a
        plumed.dat): the CoordinationForces and CoordinationNumberForces that openmmcoordination.fromPlumedFile() reads (PLUMED's file rules, UNITS, labels as names: PLUMED's "@N"
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

/* CoordinationNumberForce.cast and .isinstance, as CoordinationForce's (which they hide). */
%pythonappend CoordinationPlugin::CoordinationNumberForce::cast %{
    val._owner = force
%}
%extend CoordinationPlugin::CoordinationNumberForce {
    /** Cast a Force (for example from System.getForce()) to a CoordinationNumberForce. */
    static CoordinationPlugin::CoordinationNumberForce& cast(OpenMM::Force& force) {
        CoordinationPlugin::CoordinationNumberForce* result = dynamic_cast<CoordinationPlugin::CoordinationNumberForce*>(&force);
        if (result == NULL)
            throw OpenMM::OpenMMException("CoordinationNumberForce.cast(): the Force is not a CoordinationNumberForce");
        return *result;
    }
    /** Whether a Force is a CoordinationNumberForce. */
    static bool isinstance(OpenMM::Force& force) {
        return (dynamic_cast<CoordinationPlugin::CoordinationNumberForce*>(&force) != NULL);
    }
};

/* ContactMapForce.cast and .isinstance; copy, deepcopy and pickle through XmlSerializer, as CoordinationForce's. */
%pythonappend CoordinationPlugin::ContactMapForce::cast %{
    val._owner = force
%}
%extend CoordinationPlugin::ContactMapForce {
    /** Cast a Force (for example from System.getForce()) to a ContactMapForce. */
    static CoordinationPlugin::ContactMapForce& cast(OpenMM::Force& force) {
        CoordinationPlugin::ContactMapForce* result = dynamic_cast<CoordinationPlugin::ContactMapForce*>(&force);
        if (result == NULL)
            throw OpenMM::OpenMMException("ContactMapForce.cast(): the Force is not a ContactMapForce");
        return *result;
    }
    /** Whether a Force is a ContactMapForce. */
    static bool isinstance(OpenMM::Force& force) {
        return (dynamic_cast<CoordinationPlugin::ContactMapForce*>(&force) != NULL);
    }
    /* The C++ getContactParameters as a tuple (lengths as plain numbers). */
    PyObject* _getContactParameters(int index) const {
        int particle1, particle2;
        CoordinationPlugin::CoordinationForce::SwitchingFunction type;
        double r0, d0, dmax, reference, weight;
        bool stretch;
        std::vector<double> shape;
        self->getContactParameters(index, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight);
        PyObject* shapeList = PyList_New(shape.size());
        for (size_t i = 0; i < shape.size(); i++)
            PyList_SET_ITEM(shapeList, i, PyFloat_FromDouble(shape[i]));
        return Py_BuildValue("(iiidddNNdd)", particle1, particle2, static_cast<int>(type), r0, d0, dmax,
                             PyBool_FromLong(stretch), shapeList, reference, weight);
    }
    /* The C++ getCenterParameters as a tuple. */
    PyObject* _getCenterParameters(int index) const {
        std::vector<int> particles;
        CoordinationPlugin::CoordinationForce::CenterWeighting weighting;
        std::vector<double> weights;
        bool makeWhole;
        self->getCenterParameters(index, particles, weighting, weights, makeWhole);
        PyObject* particleList = PyList_New(particles.size());
        for (size_t i = 0; i < particles.size(); i++)
            PyList_SET_ITEM(particleList, i, PyLong_FromLong(particles[i]));
        PyObject* weightList = PyList_New(weights.size());
        for (size_t i = 0; i < weights.size(); i++)
            PyList_SET_ITEM(weightList, i, PyFloat_FromDouble(weights[i]));
        return Py_BuildValue("(NiNN)", particleList, static_cast<int>(weighting), weightList, PyBool_FromLong(makeWhole));
    }
    %pythoncode %{
    def getContactParameters(self, index):
        r"""
        Get a contact's settings (the long form of addContact()).

        :type index: int
        :param index: 0 .. getNumContacts() - 1 (another index raises an OpenMMException)
        :rtype: tuple
        :return: (particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight): the particles (or
            centre ids), the switching function's type (a CoordinationForce.SwitchingFunction), r0, d0 and dmax as
            Quantities in nm (dmax 0: the type's automatic cutoff, infinity: none), stretch, the type's own
            parameters (a list: [n, m] for Rational, [a, b] for Smap, [beta (1/nm), lambda, reference (nm)] for
            NativeQ, empty otherwise), ref_n and w_n
        """
        index = _arguments.integer(index, "getContactParameters", "index", _arguments.CONTACT_INDEX,
                                   cls="ContactMapForce")
        values = self._getContactParameters(index)
        return values[:3] + tuple(_unit.Quantity(value, _unit.nanometer) for value in values[3:6]) + values[6:]

    def getCenterParameters(self, index):
        r"""
        Get a centre's settings.

        :type index: int
        :param index: 0 .. getNumCenters() - 1 (the centre with id -1 - index)
        :rtype: tuple
        :return: (particles, weighting, weights, makeWhole), as addCenter() takes them
        """
        index = _arguments.integer(index, "getCenterParameters", "index", _arguments.CENTER_INDEX, cls="ContactMapForce")
        return self._getCenterParameters(index)

    def __getstate__(self):
        return _openmmPackage.XmlSerializer.serialize(self)

    def __setstate__(self, state):
        self.this = _asOwnClass(_openmmPackage.XmlSerializer.deserialize(state)).this

    def __copy__(self):
        import copy
        duplicate = _asOwnClass(_openmmPackage.XmlSerializer.clone(self))
        attributes = {key: value for key, value in self.__dict__.items() if key not in ("this", "_owner")}
        duplicate.__dict__.update(copy.deepcopy(attributes))
        return duplicate

    def __deepcopy__(self, memo):
        return self.__copy__()
    %}
};
