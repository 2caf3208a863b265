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
EXPONENT_FROM_1 = "1 to 16777216 (CoordinationForce.MaxExponent)"
EXPONENT_FROM_0 = "0 to 16777216 (CoordinationForce.MaxExponent)"
GLOBAL_PARAMETER_INDEX = "an index from 0 to getNumGlobalParameters() - 1"
DERIVATIVE_INDEX = "an index from 0 to getNumEnergyParameterDerivatives() - 1"
MODE = "CoordinationForce.Self, Dual or Pair"
SWITCHING_FUNCTION = "one of the CoordinationForce.SwitchingFunction values (Rational to Custom: 0 to 8)"
CV_INDEX = "an index from 0 to getNumCollectiveVariables() - 1"
REDUCTION_INDEX = "an index from 0 to getNumReductions() - 1"
REDUCTION_TYPE = "one of the CoordinationNumberForce.ReductionType values (Sum to Moment: 0 to 10)"
CENTER_INDEX = "an index from 0 to getNumCenters() - 1"
CENTER_WEIGHTING = "one of the CoordinationForce.CenterWeighting values (GeometricCenter to WeightedCenter: 0 to 2)"


def _quantity(value, target, method, name, expected, cls="CoordinationForce"):
    if unit.is_quantity(value):
        try:
            value = value.value_in_unit(target)
        except TypeError as error:
            raise TypeError("%s.%s: %s must be %s; %s" % (cls, method, name, expected, error)) from None
    return number(value, method, name, expected, cls=cls)


def length(value, method, name):
    """A length in nm: a number or a length Quantity."""
    return _quantity(value, _NANOMETER, method, name, "a length (a number of nm, or a Quantity such as 0.3*unit.nanometer)")


def inverse_length(value, method, name):
    """An inverse length in 1/nm: a number or a Quantity of 1/length."""
    return _quantity(value, _PER_NANOMETER, method, name,
                     "an inverse length (a number of 1/nm, or a Quantity such as 50/unit.nanometer)")


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


def boolean(value, method, name):
    """A bool from a Python or numpy bool (or the integers 0 and 1)."""
    if type(value).__name__ in ("bool", "bool_") or (isinstance(value, numbers.Integral) and value in (0, 1)):
        return bool(value)
    raise TypeError("CoordinationForce.%s: %s must be True or False, not %r" % (method, name, value))


def atoms(values, method):
    """0-based particle indices from an iterable of integers or of openmm.app Atom objects (their .index)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError("CoordinationForce.%s: pass a list of particle indices (ints, a range, a numpy integer array) "
                        "or of openmm.app Atom objects, not %s" % (method, type(values).__name__))
    result = []
    for position, atom in enumerate(values):
        if hasattr(atom, "index") and hasattr(atom, "residue"):
            atom = atom.index  # an openmm.app.topology.Atom
        try:
            index = operator.index(atom)
        except TypeError:
            raise TypeError("CoordinationForce.%s: entry %d is %s (%s); pass particle indices (ints, numpy integers) "
                            "or openmm.app Atom objects" % (method, position, atom, type(atom).__name__)) from None
        if not _INT_MIN <= index <= _INT_MAX:
            raise OpenMMException("CoordinationForce.%s: entry %d is particle index %d, which is out of range; use "
                                  "indices 0 to the System's number of particles - 1" % (method, position, index))
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


def numbers_list(values, method, name, cls="CoordinationForce"):
    """A list of floats from an iterable of Python or numpy numbers (a numpy array too)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError("%s.%s: %s must be a list of numbers (or a numpy array), not %s"
                        % (cls, method, name, type(values).__name__))
    return [number(value, method, "%s entry %d" % (name, position), cls=cls) for position, value in enumerate(values)]


def center_arguments(args, method):
    """The positional arguments (particles[, weighting[, weights[, makeWhole]]]) of addCenter, converted (a wrong
    number of arguments is left to the wrapper's own TypeError)."""
    convert = (lambda value: atoms(value, method),
               lambda value: integer(value, method, "weighting", CENTER_WEIGHTING),
               lambda value: numbers_list(value, method, "weights"),
               lambda value: boolean(value, method, "makeWhole"))
    if not args or len(args) > len(convert):
        return args
    return tuple(conversion(value) for conversion, value in zip(convert, args))
