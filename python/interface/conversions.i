/* Argument conversions of the wrapped classes (included by coordination.i before the classes). */

/*
 * Python conventions, as OpenMM's own wrappers have them: lengths take numbers (nm) or Quantities of a length
 * (another dimension is a TypeError), getters of lengths return Quantities in nm, numpy scalars work wherever numbers
 * do, groups take iterables of ints or openmm.app Atom objects. A method defined by a base class names the class of
 * the object it is called on in its messages (CoordinationNumberForce.setR0).
 */
%define CONVERT(Class, method, argument, how)
%pythonprepend CoordinationPlugin::Class::method %{
    argument = _arguments.how
%}
%enddef
%define LENGTH_ARGUMENT(Class, method, argument)
CONVERT(Class, method, argument, length(argument, "method", "argument", cls=self.__class__.__name__))
%enddef
%define INTEGER_ARGUMENT(Class, method, argument, allowed)
CONVERT(Class, method, argument, integer(argument, "method", "argument", allowed, cls=self.__class__.__name__))
%enddef
%define BOOLEAN_ARGUMENT(Class, method, argument)
CONVERT(Class, method, argument, boolean(argument, "method", "argument", cls=self.__class__.__name__))
%enddef
%define TEXT_ARGUMENT(Class, method, argument)
CONVERT(Class, method, argument, text(argument, "method", "argument", cls=self.__class__.__name__))
%enddef
%define INDEX_ARGUMENT(Class, method, allowed)
INTEGER_ARGUMENT(Class, method, index, allowed)
%enddef
%define LENGTH_RESULT(Class, method)
%pythonappend CoordinationPlugin::Class::method %{
    val = _unit.Quantity(val, _unit.nanometer)
%}
%enddef
%define INVERSE_LENGTH_RESULT(Class, method)
%pythonappend CoordinationPlugin::Class::method %{
    val = _unit.Quantity(val, _unit.nanometer**-1)
%}
%enddef

/* The switching settings, on SwitchingSettings and on the forces that have one (PairSwitchingForce's setters). */
%define SWITCHING_CONVERSIONS(Class)
LENGTH_ARGUMENT(Class, setR0, r0)
LENGTH_ARGUMENT(Class, setD0, d0)
LENGTH_ARGUMENT(Class, setDMax, dmax)
INTEGER_ARGUMENT(Class, setN, n, _arguments.EXPONENT_FROM_1)
INTEGER_ARGUMENT(Class, setM, m, _arguments.EXPONENT_FROM_0)
BOOLEAN_ARGUMENT(Class, setStretch, stretch)
LENGTH_RESULT(Class, getR0)
LENGTH_RESULT(Class, getD0)
LENGTH_RESULT(Class, getDMax)
LENGTH_RESULT(Class, getEffectiveDMax)
LENGTH_RESULT(Class, getNativeQReference)
INVERSE_LENGTH_RESULT(Class, getNativeQBeta)
%pythonprepend CoordinationPlugin::Class::setSmapExponents %{
    a = _arguments.integer(a, "setSmapExponents", "a", _arguments.EXPONENT_FROM_1, cls=self.__class__.__name__)
    b = _arguments.integer(b, "setSmapExponents", "b", _arguments.EXPONENT_FROM_1, cls=self.__class__.__name__)
%}
%pythonprepend CoordinationPlugin::Class::setNativeQParameters %{
    beta, _lambda, reference = _arguments.native_q(beta, _lambda, reference, "setNativeQParameters", cls=self.__class__.__name__)
%}
%enddef

/* CoordinationBiasForce: what every force has. */
TEXT_ARGUMENT(CoordinationBiasForce, setEnergyFunction, energy)
BOOLEAN_ARGUMENT(CoordinationBiasForce, setUsesPeriodicBoundaryConditions, periodic)
CONVERT(CoordinationBiasForce, addGlobalParameter, defaultValue,
        number(defaultValue, "addGlobalParameter", "defaultValue", cls=self.__class__.__name__))
INDEX_ARGUMENT(CoordinationBiasForce, getGlobalParameterName, _arguments.GLOBAL_PARAMETER_INDEX)
INDEX_ARGUMENT(CoordinationBiasForce, setGlobalParameterName, _arguments.GLOBAL_PARAMETER_INDEX)
INDEX_ARGUMENT(CoordinationBiasForce, getGlobalParameterDefaultValue, _arguments.GLOBAL_PARAMETER_INDEX)
INDEX_ARGUMENT(CoordinationBiasForce, getEnergyParameterDerivativeName, _arguments.DERIVATIVE_INDEX)
%pythonprepend CoordinationPlugin::CoordinationBiasForce::setGlobalParameterDefaultValue %{
    index = _arguments.integer(index, "setGlobalParameterDefaultValue", "index", _arguments.GLOBAL_PARAMETER_INDEX,
                               cls=self.__class__.__name__)
    defaultValue = _arguments.number(defaultValue, "setGlobalParameterDefaultValue", "defaultValue", cls=self.__class__.__name__)
%}
CONVERT(CoordinationBiasForce, addCenter, args, center(args, "addCenter", cls=self.__class__.__name__))
%pythonprepend CoordinationPlugin::CoordinationBiasForce::setCenterParameters %{
    index = _arguments.integer(index, "setCenterParameters", "index", _arguments.CENTER_INDEX, cls=self.__class__.__name__)
    (particles, weighting, weights, makeWhole) = _arguments.center((particles, weighting, weights, makeWhole),
                                                                   "setCenterParameters", cls=self.__class__.__name__)
%}
/* getCenterParameters(index) returns the tuple (particles, weighting, weights, makeWhole): written in Python below. */
%ignore CoordinationPlugin::CoordinationBiasForce::getCenterParameters;
%ignore CoordinationPlugin::CoordinationBiasForce::CenterInfo;
%ignore CoordinationPlugin::CoordinationBiasForce::assign;
INDEX_ARGUMENT(CoordinationBiasForce, getCollectiveVariableName, _arguments.CV_INDEX)

/* SwitchingSettings and PairSwitchingForce (CoordinationForce, CoordinationNumberForce). */
SWITCHING_CONVERSIONS(SwitchingSettings)
SWITCHING_CONVERSIONS(PairSwitchingForce)
INTEGER_ARGUMENT(SwitchingSettings, setType, type, _arguments.SWITCHING_FUNCTION)
TEXT_ARGUMENT(SwitchingSettings, setCustomExpression, expression)
CONVERT(SwitchingSettings, SwitchingSettings, args, switching_settings(args))
%pythonprepend CoordinationPlugin::SwitchingSettings::rational %{
    r0, n, m, d0, dmax = _arguments.switching_factory((r0, n, m, d0, dmax), ("r0", "n", "m", "d0", "dmax"), "rational")
%}
%pythonprepend CoordinationPlugin::SwitchingSettings::smap %{
    r0, a, b, d0, dmax = _arguments.switching_factory((r0, a, b, d0, dmax), ("r0", "a", "b", "d0", "dmax"), "smap")
%}
%pythonprepend CoordinationPlugin::SwitchingSettings::nativeQ %{
    beta, _lambda, reference, d0, dmax = _arguments.switching_factory(
        (beta, _lambda, reference, d0, dmax), ("beta", "lambda", "reference", "d0", "dmax"), "nativeQ")
%}
%pythonprepend CoordinationPlugin::SwitchingSettings::custom %{
    expression, r0, d0, dmax = _arguments.switching_factory((expression, r0, d0, dmax), ("expression", "r0", "d0", "dmax"),
                                                            "custom")
%}
%rename(__eq__) CoordinationPlugin::SwitchingSettings::operator==;
%rename(__ne__) CoordinationPlugin::SwitchingSettings::operator!=;
%ignore CoordinationPlugin::SwitchingSettings::checkExponent;
INTEGER_ARGUMENT(PairSwitchingForce, setMode, mode, _arguments.MODE)
INTEGER_ARGUMENT(PairSwitchingForce, setSwitchingFunction, type, _arguments.SWITCHING_FUNCTION)
TEXT_ARGUMENT(PairSwitchingForce, setCustomSwitchingFunction, expression)
CONVERT(PairSwitchingForce, setGroupA, atoms, atoms(atoms, "setGroupA", cls=self.__class__.__name__))
CONVERT(PairSwitchingForce, setGroupB, atoms, atoms(atoms, "setGroupB", cls=self.__class__.__name__))

/* PerAtomForce (CoordinationNumberForce, SteinhardtForce, ShellFunctionForce). */
CONVERT(PerAtomForce, addReduction, args, reduction(args, "addReduction", cls=self.__class__.__name__))
%pythonprepend CoordinationPlugin::PerAtomForce::setReductionParameters %{
    index = _arguments.integer(index, "setReductionParameters", "index", _arguments.REDUCTION_INDEX,
                               cls=self.__class__.__name__)
    (type, parameters, name) = _arguments.reduction((type, parameters, name), "setReductionParameters",
                                                    cls=self.__class__.__name__)
%}
INDEX_ARGUMENT(PerAtomForce, getReductionParameters, _arguments.REDUCTION_INDEX)
%pythonprepend CoordinationPlugin::PerAtomForce::getDefaultReductionName %{
    (type, parameters) = _arguments.reduction((type, parameters), "getDefaultReductionName", cls="PerAtomForce")
%}
INTEGER_ARGUMENT(PerAtomForce, setLocalStep, step, _arguments.LOCAL_STEP)
CONVERT(PerAtomForce, setLocalNeighbors, atoms, atoms(atoms, "setLocalNeighbors", cls=self.__class__.__name__))
CONVERT(PerAtomForce, setLocalNeighborPartners, atoms,
        atoms(atoms, "setLocalNeighborPartners", cls=self.__class__.__name__))
%ignore CoordinationPlugin::PerAtomForce::ReductionInfo;
%ignore CoordinationPlugin::PerAtomForce::perAtomValues;

/* CoordinationNumberForce. */
CONVERT(CoordinationNumberForce, setRPower, power,
        plain_number(power, "setRPower", "power", cls="CoordinationNumberForce"))

/* SteinhardtForce. */
%pythonprepend CoordinationPlugin::SteinhardtForce::SteinhardtForce %{
    args = _arguments.steinhardt(args)
%}
INTEGER_ARGUMENT(SteinhardtForce, setDegree, degree, _arguments.DEGREE)

/* ShellFunctionForce. */
%pythonprepend CoordinationPlugin::ShellFunctionForce::ShellFunctionForce %{
    args = _arguments.shell_function(args)
%}
INTEGER_ARGUMENT(ShellFunctionForce, setShellFunction, function, _arguments.SHELL_FUNCTION)
TEXT_ARGUMENT(ShellFunctionForce, setCustomFunction, expression)
BOOLEAN_ARGUMENT(ShellFunctionForce, setNormalizeCustomFunction, normalize)
CONVERT(ShellFunctionForce, setAlpha, alpha, plain_number(alpha, "setAlpha", "alpha", cls="ShellFunctionForce"))

/* ContactMapForce. */
%pythonprepend CoordinationPlugin::ContactMapForce::ContactMapForce %{
    args = _arguments.contact_map(args)
%}
INTEGER_ARGUMENT(ContactMapForce, setReduction, reduction, _arguments.CONTACT_MAP_REDUCTION)
CONVERT(ContactMapForce, addContact, args, contact(args, "addContact"))
%pythonprepend CoordinationPlugin::ContactMapForce::setContactParameters %{
    args = (_arguments.integer(args[0], "setContactParameters", "index", _arguments.CONTACT_INDEX, cls="ContactMapForce"),
            ) + _arguments.contact(args[1:], "setContactParameters") if args else args
%}
TEXT_ARGUMENT(ContactMapForce, setCustomSwitchingFunction, expression)
%ignore CoordinationPlugin::ContactMapForce::ContactInfo;
/* getContactParameters returns a tuple (below). */
%ignore CoordinationPlugin::ContactMapForce::getContactParameters;

