/* The wrapped classes, with their Doxygen comments as docstrings, and what Python adds to them. */

/*
 * A force the translator (or XmlSerializer) made reaches Python as its own class, owned by the Python object: the
 * class dispatch of the interface (defined before the classes: their fromPlumed and fromPlumedFile use it).
 */
%{
static PyObject* coordinationForceObject(OpenMM::Force* force, int flags) {
    if (auto* contactMap = dynamic_cast<CoordinationPlugin::ContactMapForce*>(force))
        return SWIG_NewPointerObj(SWIG_as_voidptr(contactMap), SWIGTYPE_p_CoordinationPlugin__ContactMapForce, flags);
    if (auto* numbers = dynamic_cast<CoordinationPlugin::CoordinationNumberForce*>(force))
        return SWIG_NewPointerObj(SWIG_as_voidptr(numbers), SWIGTYPE_p_CoordinationPlugin__CoordinationNumberForce, flags);
    if (auto* steinhardt = dynamic_cast<CoordinationPlugin::SteinhardtForce*>(force))
        return SWIG_NewPointerObj(SWIG_as_voidptr(steinhardt), SWIGTYPE_p_CoordinationPlugin__SteinhardtForce, flags);
    if (auto* shell = dynamic_cast<CoordinationPlugin::ShellFunctionForce*>(force))
        return SWIG_NewPointerObj(SWIG_as_voidptr(shell), SWIGTYPE_p_CoordinationPlugin__ShellFunctionForce, flags);
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

%pythoncode %{
PlumedInput = _collections.namedtuple("PlumedInput", ["forces", "skipped"])
PlumedInput.__doc__ = """What fromPlumedFile() read: forces, a dict from each action's label to the force it became
(in the file's order), and skipped, the other actions ("label: NAME")."""


def _asOwnClass(force):
    """A Force from XmlSerializer (a new openmm.Force that owns its C++ object) as an object of its own class
    (CoordinationForce, CoordinationNumberForce, SteinhardtForce, ShellFunctionForce or ContactMapForce) that owns it
    instead."""
    for forceClass in (CoordinationForce, CoordinationNumberForce, SteinhardtForce, ShellFunctionForce, ContactMapForce):
        if forceClass.isinstance(force):
            result = forceClass.cast(force)
            break
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

/*
 * One macro per class: cast and isinstance (as OpenMM's wrappers have them; cast's result is a reference into its
 * argument, which it keeps alive) and, for the forces made by the translator or XmlSerializer, copy.copy,
 * copy.deepcopy and pickle through XmlSerializer, giving an object of the force's own class.
 */
%define CAST_AND_ISINSTANCE(Class)
%pythonappend CoordinationPlugin::Class::cast %{
    val._owner = force
%}
%extend CoordinationPlugin::Class {
    /** Cast a Force (for example from System.getForce()) to this class; an OpenMMException if it is not one. */
    static CoordinationPlugin::Class& cast(OpenMM::Force& force) {
        CoordinationPlugin::Class* result = dynamic_cast<CoordinationPlugin::Class*>(&force);
        if (result == NULL)
            throw OpenMM::OpenMMException(#Class ".cast(): the Force is not a " #Class);
        return *result;
    }
    /** Whether a Force is of this class (or a subclass of it). */
    static bool isinstance(OpenMM::Force& force) {
        return (dynamic_cast<CoordinationPlugin::Class*>(&force) != NULL);
    }
}
%enddef
%define FORCE_CLASS(Class)
CAST_AND_ISINSTANCE(Class)
%extend CoordinationPlugin::Class {
    %pythoncode %{
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
}
%enddef

#define OPENMM_EXPORT_COORDINATION
%include "CoordinationBiasForce.h"
%include "SwitchingSettings.h"
%include "PairSwitchingForce.h"
%newobject CoordinationPlugin::CoordinationForce::fromPlumed;
%typemap(out) CoordinationPlugin::CoordinationForce* CoordinationPlugin::CoordinationForce::fromPlumed {
    $result = coordinationNewForceObject($1);
}
/* Python's fromPlumedFile (below) returns the forces and the skipped actions as a named tuple. */
%ignore CoordinationPlugin::CoordinationForce::fromPlumedFile;
%include "CoordinationForce.h"
%include "PerAtomForce.h"
%include "CoordinationNumberForce.h"
%include "SteinhardtForce.h"
%include "ShellFunctionForce.h"
%newobject CoordinationPlugin::ContactMapForce::fromPlumed;
%include "ContactMapForce.h"
%typemap(out) OpenMM::Force* CoordinationPlugin::PlumedTranslator::fromPlumed {
    $result = coordinationNewForceObject($1);
}
%ignore CoordinationPlugin::PlumedTranslator::fromPlumedFile;
%include "PlumedTranslator.h"

CAST_AND_ISINSTANCE(CoordinationBiasForce)
CAST_AND_ISINSTANCE(PairSwitchingForce)
CAST_AND_ISINSTANCE(PerAtomForce)
FORCE_CLASS(CoordinationForce)
FORCE_CLASS(CoordinationNumberForce)
FORCE_CLASS(SteinhardtForce)
FORCE_CLASS(ShellFunctionForce)
FORCE_CLASS(ContactMapForce)

%extend CoordinationPlugin::CoordinationBiasForce {
    /* A centre's settings as (particles, weighting, weights, makeWhole). */
    PyObject* _getCenterParameters(int index) const {
        std::vector<int> particles;
        CoordinationPlugin::CoordinationBiasForce::CenterWeighting weighting;
        std::vector<double> weights;
        bool makeWhole;
        self->getCenterParameters(index, particles, weighting, weights, makeWhole);
        return Py_BuildValue("(NiNN)", coordinationIntList(particles), static_cast<int>(weighting),
                             coordinationFloatList(weights), PyBool_FromLong(makeWhole));
    }
    %pythoncode %{
    def getCenterParameters(self, index):
        r"""
        Get a centre's settings.

        :type index: int
        :param index: 0 .. getNumCenters() - 1: the centre whose id is -1 - index
        :rtype: tuple
        :return: (particles, weighting, weights, makeWhole): its particle indices (list[int]), its weighting (int: a
            CenterWeighting value), its weights (list[float]: WeightedCenter; empty otherwise) and whether the group
            is made whole under periodic boundary conditions (bool)
        """
        index = _arguments.integer(index, "getCenterParameters", "index", _arguments.CENTER_INDEX, cls=self.__class__.__name__)
        return self._getCenterParameters(index)
    %}
}

%extend CoordinationPlugin::SwitchingSettings {
    %pythoncode %{
    def __repr__(self):
        names = ("Rational", "Exponential", "Gaussian", "Smap", "Cubic", "Tanh", "Cosinus", "NativeQ", "Custom")
        return "SwitchingSettings(%s, r0=%s, d0=%s, dmax=%s, stretch=%s)" % (
            names[self.getType()], self.getR0(), self.getD0(), self.getDMax(), self.getStretch())

    def __getstate__(self):
        return (self.getType(), self.getR0()._value, self.getD0()._value, self.getDMax()._value, self.getStretch(),
                self.getN(), self.getM(), self.getSmapA(), self.getSmapB(), self.getNativeQBeta()._value,
                self.getNativeQLambda(), self.getNativeQReference()._value, self.getCustomExpression())

    def __setstate__(self, state):
        self.__init__(*state[:5])
        self.setN(state[5])
        self.setM(state[6])
        self.setSmapExponents(state[7], state[8])
        self.setNativeQParameters(*state[9:12])
        if state[12]:
            self.setCustomExpression(state[12])
        self.setType(state[0])
    %}
}

%extend CoordinationPlugin::CoordinationForce {
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
        Read every COORDINATION action of a PLUMED input file (a plumed.dat) into a CoordinationForce, with PLUMED's
        file rules, UNITS, and labels as names (PLUMED's "@N" for an unlabelled action); every other action is listed
        in skipped, the forces of other classes that openmmcoordination.fromPlumedFile() reads (COORDINATIONNUMBER,
        CONTACTMAP, ...) after the actions it does not read.

        :type pathOrText: str or os.PathLike
        :param pathOrText: the path of a PLUMED input file, or its text (any text with a line break is read as text)
        :rtype: PlumedInput
        :return: a named tuple: forces, a dict from label to CoordinationForce in the file's order, and skipped, the
            other actions as "label: NAME" (or "NAME"), e.g. ["d1: DISTANCE", "PRINT", "cn: COORDINATIONNUMBER"]
        """
        return _readPlumedFile(CoordinationForce._fromPlumedFile, pathOrText)
    %}
}

%extend CoordinationPlugin::ContactMapForce {
    /* The C++ getContactParameters as a tuple (lengths as plain numbers), and as its SwitchingSettings. */
    PyObject* _getContactParameters(int index) const {
        int particle1, particle2;
        CoordinationPlugin::CoordinationBiasForce::SwitchingFunction type;
        double r0, d0, dmax, reference, weight;
        bool stretch;
        std::vector<double> shape;
        self->getContactParameters(index, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight);
        return Py_BuildValue("(iiidddNNdd)", particle1, particle2, static_cast<int>(type), r0, d0, dmax,
                             PyBool_FromLong(stretch), coordinationFloatList(shape), reference, weight);
    }
    CoordinationPlugin::SwitchingSettings _getContactSwitchingSettings(int index) const {
        int particle1, particle2;
        CoordinationPlugin::SwitchingSettings switching;
        double reference, weight;
        self->getContactParameters(index, particle1, particle2, switching, reference, weight);
        return switching;
    }
    %pythoncode %{
    def getContactParameters(self, index):
        r"""
        Get a contact's settings (the long form of addContact()).

        :type index: int
        :param index: 0 .. getNumContacts() - 1 (another index raises an OpenMMException)
        :rtype: tuple
        :return: (particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight): the particles (or
            centre ids), the switching function's type (a SwitchingFunction value), r0, d0 and dmax as Quantities in nm
            (dmax 0: the type's automatic cutoff, infinity: none), stretch, the type's own parameters (a list: [n, m]
            for Rational, [a, b] for Smap, [beta (1/nm), lambda, reference (nm)] for NativeQ, empty otherwise), ref_n
            and w_n
        """
        index = _arguments.integer(index, "getContactParameters", "index", _arguments.CONTACT_INDEX,
                                   cls="ContactMapForce")
        values = self._getContactParameters(index)
        return values[:3] + tuple(_unit.Quantity(value, _unit.nanometer) for value in values[3:6]) + values[6:]

    def getContactSwitchingSettings(self, index):
        r"""
        Get a contact's switching function.

        :type index: int
        :param index: 0 .. getNumContacts() - 1 (another index raises an OpenMMException)
        :rtype: SwitchingSettings
        :return: its settings (a copy)
        """
        index = _arguments.integer(index, "getContactSwitchingSettings", "index", _arguments.CONTACT_INDEX,
                                   cls="ContactMapForce")
        return self._getContactSwitchingSettings(index)
    %}
}

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
        MORE_THAN, ... actions on its vector folded in; CONTACTMAP: a ContactMapForce), with PLUMED's rules: '#'
        comments, multi-line actions ("..." continuations), ENDPLUMED, GROUP, COM and CENTER labels in atom lists, and
        a UNITS action (LENGTH) that applies to the lengths of the actions after it. Each force is named by its
        action's label (PLUMED's "@N" for an unlabelled action); the other actions (DISTANCE, PRINT, RESTRAINT, ...)
        are listed in skipped.

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
    alive, so that the reference (and a cast's result from it) never outlives what it points into."""
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
