"""Argument conversion for the SWIG wrapper, as OpenMM's own Python layer does it.

Lengths accept a number (nm) or an ``openmm.unit`` Quantity of a length; a Quantity of another dimension
raises TypeError. numpy scalars are accepted wherever Python numbers are, and atom groups take any
iterable of integers (lists, ranges, numpy arrays) or ``openmm.app.topology.Atom`` objects. Unitless
numbers (CoordinationNumberForce.setRPower) take a number or a dimensionless Quantity only.

Messages name the method as ``Class.method``: cls is the class that defines it (CoordinationForce unless said).
"""
import numbers
import operator

from openmm import OpenMMException, unit

_NANOMETER = unit.nanometer
_PER_NANOMETER = unit.nanometer**-1
#: The range of a C++ int, which every integer argument is passed as.
_INT_MIN, _INT_MAX = -2**31, 2**31 - 1
#: What the integer arguments allow, for the message of a value beyond a C++ int (the C++ setter checks the rest).
EXPONENT_FROM_1 = "1 to 16777216 (SwitchingSettings.MaxExponent)"
EXPONENT_FROM_0 = "0 to 16777216 (SwitchingSettings.MaxExponent)"
GLOBAL_PARAMETER_INDEX = "an index from 0 to getNumGlobalParameters() - 1"
DERIVATIVE_INDEX = "an index from 0 to getNumEnergyParameterDerivatives() - 1"
MODE = "CoordinationForce.Self, Dual or Pair"
SWITCHING_FUNCTION = "one of the SwitchingFunction values (CoordinationForce.Rational to Custom: 0 to 8)"
CV_INDEX = "an index from 0 to getNumCollectiveVariables() - 1"
REDUCTION_INDEX = "an index from 0 to getNumReductions() - 1"
REDUCTION_TYPE = "one of the PerAtomForce.ReductionType values (Sum to VectorSum: 0 to 12)"
LOCAL_STEP = "PerAtomForce.NoLocalStep, LocalAverage or LocalDotProduct"
DEGREE = "an integer from 1 to SteinhardtForce.MaxDegree (12)"
SHELL_FUNCTION = "ShellFunctionForce.SimpleCubic, Tetrahedral, FCCubic or Custom"
CONTACT_INDEX = "an index from 0 to getNumContacts() - 1"
CENTER_INDEX = "an index from 0 to getNumCenters() - 1"
CONTACT_MAP_REDUCTION = "ContactMapForce.Sum, Distance or Components"
CENTER_WEIGHTING = "CoordinationForce.GeometricCenter, CenterOfMass or WeightedCenter"
MEMBER = "a particle index or a centre's id (-1 - its index)"


def _quantity(value, target, method, name, expected, cls="CoordinationForce"):
    if unit.is_quantity(value):
        try:
            value = value.value_in_unit(target)
        except TypeError as error:
            raise TypeError("%s.%s: %s must be %s; %s" % (cls, method, name, expected, error)) from None
    return number(value, method, name, expected, cls=cls)


def length(value, method, name, cls="CoordinationForce"):
    """A length in nm: a number or a length Quantity."""
    return _quantity(value, _NANOMETER, method, name, "a length (a number of nm, or a Quantity such as 0.3*unit.nanometer)",
                     cls=cls)


def inverse_length(value, method, name, cls="CoordinationForce"):
    """An inverse length in 1/nm: a number or a Quantity of 1/length."""
    return _quantity(value, _PER_NANOMETER, method, name,
                     "an inverse length (a number of 1/nm, or a Quantity such as 50/unit.nanometer)", cls=cls)


def native_q(beta, lambda_, reference, method, cls="CoordinationForce"):
    """NativeQ's (beta, lambda, reference): 1/nm, a number, nm."""
    return (inverse_length(beta, method, "beta", cls), number(lambda_, method, "lambda", cls=cls),
            length(reference, method, "reference", cls))


def number(value, method, name, expected="a number", cls="CoordinationForce"):
    """A float from a Python or numpy number (a Quantity is converted to OpenMM's units: nm, kJ/mol, ps)."""
    if unit.is_quantity(value):
        value = value.value_in_unit_system(unit.md_unit_system)
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    raise TypeError("%s.%s: %s must be %s, not %s" % (cls, method, name, expected, type(value).__name__))


def plain_number(value, method, name, cls="CoordinationForce"):
    """A float from a Python or numpy number, or a dimensionless Quantity; a Quantity with a unit is a TypeError."""
    expected = "a plain number (no unit)"
    if unit.is_quantity(value):
        if not value.unit.is_dimensionless():
            raise TypeError("%s.%s: %s must be %s, not a Quantity in %s" % (cls, method, name, expected, value.unit))
        value = value.value_in_unit(unit.dimensionless)
    return number(value, method, name, expected, cls=cls)


def text(value, method, name, cls="CoordinationForce"):
    """A str (a numpy str too)."""
    if isinstance(value, str):
        return str(value)
    raise TypeError("%s.%s: %s must be a str, not %s" % (cls, method, name, type(value).__name__))


def integer(value, method, name, allowed, cls="CoordinationForce"):
    """An int from a Python or numpy integer (floats are refused, as in OpenMM's integer arguments); one beyond a
    C++ int is an OpenMMException naming the value and what is allowed, as the C++ setter's for a value it refuses."""
    if isinstance(value, bool):
        return int(value)
    try:
        result = operator.index(value)
    except TypeError:
        raise TypeError("%s.%s: %s must be an integer, not %s" % (cls, method, name, type(value).__name__)) from None
    if not _INT_MIN <= result <= _INT_MAX:
        raise OpenMMException("%s.%s: %s = %d is out of range; use %s" % (cls, method, name, result, allowed))
    return result


def boolean(value, method, name, cls="CoordinationForce"):
    """A bool from a Python or numpy bool (or the integers 0 and 1)."""
    if type(value).__name__ in ("bool", "bool_") or (isinstance(value, numbers.Integral) and value in (0, 1)):
        return bool(value)
    raise TypeError("%s.%s: %s must be True or False, not %r" % (cls, method, name, value))


def atoms(values, method, cls="CoordinationForce"):
    """0-based particle indices from an iterable of integers or of openmm.app Atom objects (their .index)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError("%s.%s: pass a list of particle indices (ints, a range, a numpy integer array) "
                        "or of openmm.app Atom objects, not %s" % (cls, method, type(values).__name__))
    result = []
    for position, atom in enumerate(values):
        if hasattr(atom, "index") and hasattr(atom, "residue"):
            atom = atom.index  # an openmm.app.topology.Atom
        try:
            index = operator.index(atom)
        except TypeError:
            raise TypeError("%s.%s: entry %d is %s (%s); pass particle indices (ints, numpy integers) "
                            "or openmm.app Atom objects" % (cls, method, position, atom, type(atom).__name__)) from None
        if not _INT_MIN <= index <= _INT_MAX:
            raise OpenMMException("%s.%s: entry %d is particle index %d, which is out of range; use "
                                  "indices 0 to the System's number of particles - 1" % (cls, method, position, index))
        result.append(index)
    return result


def reduction(args, method, cls="CoordinationNumberForce"):
    """The positional arguments (type[, parameters[, name]]) of addReduction: an integer type, str texts (a wrong
    number of arguments is left to the wrapper's own TypeError)."""
    names = ("type", "parameters", "name")
    if not args or len(args) > len(names):
        return args
    return (integer(args[0], method, "type", REDUCTION_TYPE, cls=cls),) + tuple(
        text(value, method, name, cls=cls) for name, value in zip(names[1:], args[1:]))


def member(value, method, name, cls="ContactMapForce"):
    """A contact's member: a particle index, an openmm.app Atom (its .index), or a centre's id (negative)."""
    if hasattr(value, "index") and hasattr(value, "residue"):
        value = value.index  # an openmm.app.topology.Atom
    return integer(value, method, name, MEMBER, cls=cls)


def numbers_list(values, method, name, cls="ContactMapForce"):
    """A list of floats from an iterable of numbers (Python, numpy, or Quantities in OpenMM's units)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError("%s.%s: %s must be a list of numbers (or a numpy array), not %s"
                        % (cls, method, name, type(values).__name__))
    return [number(value, method, "%s entry %d" % (name, i), cls=cls) for i, value in enumerate(values)]


def _is_switching_settings(value):
    """Whether a value is a SwitchingSettings (the wrapper's class, which this module cannot import)."""
    return type(value).__name__ == "SwitchingSettings"


def contact(args, method, cls="ContactMapForce"):
    """The positional arguments of ContactMapForce.addContact: (particle1, particle2, r0 or switching[, reference[,
    weight]]) or (particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight); lengths in nm or
    Quantities of a length (another count of arguments is left to the wrapper's own TypeError)."""
    args = tuple(args)
    if 3 <= len(args) <= 5:
        third = args[2] if _is_switching_settings(args[2]) else length(args[2], method, "r0", cls)
        converted = [member(args[0], method, "particle1", cls), member(args[1], method, "particle2", cls), third]
        converted += [number(value, method, name, cls=cls) for name, value in zip(("reference", "weight"), args[3:])]
        return tuple(converted)
    if len(args) == 10:
        particle1, particle2, type_, r0, d0, dmax, stretch, shape, reference, weight = args
        return (member(particle1, method, "particle1", cls), member(particle2, method, "particle2", cls),
                integer(type_, method, "type", SWITCHING_FUNCTION, cls=cls), length(r0, method, "r0", cls),
                length(d0, method, "d0", cls), length(dmax, method, "dmax", cls),
                boolean(stretch, method, "stretch", cls), numbers_list(shape, method, "shape", cls),
                number(reference, method, "reference", cls=cls), number(weight, method, "weight", cls=cls))
    return args


def contact_map(args):
    """The positional arguments (energy[, reduction]) of the ContactMapForce constructor."""
    args = tuple(args)
    if len(args) > 0:
        args = (text(args[0], "ContactMapForce", "energy", cls="ContactMapForce"),) + args[1:]
    if len(args) > 1:
        args = args[:1] + (integer(args[1], "ContactMapForce", "reduction", CONTACT_MAP_REDUCTION,
                                   cls="ContactMapForce"),) + args[2:]
    return args


def steinhardt(args):
    """The positional arguments (degree[, energy]) of the SteinhardtForce constructor."""
    args = tuple(args)
    if len(args) > 0:
        args = (integer(args[0], "SteinhardtForce", "degree", DEGREE, cls="SteinhardtForce"),) + args[1:]
    if len(args) > 1:
        args = args[:1] + (text(args[1], "SteinhardtForce", "energy", cls="SteinhardtForce"),) + args[2:]
    return args


def shell_function(args):
    """The positional arguments (function[, energy]) of the ShellFunctionForce constructor."""
    args = tuple(args)
    if len(args) > 0:
        args = (integer(args[0], "ShellFunctionForce", "function", SHELL_FUNCTION, cls="ShellFunctionForce"),) + args[1:]
    if len(args) > 1:
        args = args[:1] + (text(args[1], "ShellFunctionForce", "energy", cls="ShellFunctionForce"),) + args[2:]
    return args


def switching_settings(args):
    """The positional arguments (type[, r0[, d0[, dmax[, stretch]]]]) of the SwitchingSettings constructor."""
    args = tuple(args)
    if not 1 <= len(args) <= 5:
        return args
    method, cls = "SwitchingSettings", "SwitchingSettings"
    converted = [integer(args[0], method, "type", SWITCHING_FUNCTION, cls=cls)]
    converted += [length(value, method, name, cls) for name, value in zip(("r0", "d0", "dmax"), args[1:4])]
    if len(args) > 4:
        converted.append(boolean(args[4], method, "stretch", cls))
    return tuple(converted)


#: How each argument of SwitchingSettings' factories (rational, smap, nativeQ, custom) is converted.
_FACTORY_ARGUMENTS = {"r0": length, "d0": length, "dmax": length, "reference": length, "beta": inverse_length,
                      "lambda": lambda value, method, name, cls: number(value, method, name, cls=cls),
                      "expression": lambda value, method, name, cls: text(value, method, name, cls=cls),
                      "n": lambda value, method, name, cls: integer(value, method, name, EXPONENT_FROM_1, cls=cls),
                      "m": lambda value, method, name, cls: integer(value, method, name, EXPONENT_FROM_0, cls=cls),
                      "a": lambda value, method, name, cls: integer(value, method, name, EXPONENT_FROM_1, cls=cls),
                      "b": lambda value, method, name, cls: integer(value, method, name, EXPONENT_FROM_1, cls=cls)}


def switching_factory(args, names, method):
    """The positional arguments of a SwitchingSettings factory, named names (a wrong count is the wrapper's error)."""
    args = tuple(args)
    if len(args) > len(names):
        return args
    return tuple(_FACTORY_ARGUMENTS[name](value, method, name, "SwitchingSettings") for name, value in zip(names, args))


def center(args, method, cls="ContactMapForce"):
    """The positional arguments of addCenter: (particles[, weighting[, weights[, makeWhole]]])."""
    args = tuple(args)
    if not 1 <= len(args) <= 4:
        return args
    converted = [atoms(args[0], method, cls)]
    if len(args) > 1:
        converted.append(integer(args[1], method, "weighting", CENTER_WEIGHTING, cls=cls))
    if len(args) > 2:
        converted.append(numbers_list(args[2], method, "weights", cls))
    if len(args) > 3:
        converted.append(boolean(args[3], method, "makeWhole", cls))
    return tuple(converted)
