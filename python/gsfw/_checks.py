"""Argument checks shared by the public functions: the kind of a value (TypeError) before
its range (ValueError, checked by the library with its own message)."""
import numbers


def integer(name, value):
    """value as an int. Python and numpy integers pass; bool, float and str raise TypeError
    (True is not a count and 4.5 or '4' are not silently rounded or parsed)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("%s must be an integer, got %s %r" % (name, type(value).__name__, value))
    return int(value)


def integer_or_none(name, value):
    return None if value is None else integer(name, value)


def real(name, value):
    """value as a float. Python and numpy numbers pass; bool and str raise TypeError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError("%s must be a number, got %s %r" % (name, type(value).__name__, value))
    return float(value)


def real_or_none(name, value):
    return None if value is None else real(name, value)


def text(name, value):
    if not isinstance(value, str):
        raise TypeError("%s must be a string, got %s %r" % (name, type(value).__name__, value))
    return value


def flag(name, value):
    """A yes/no value: bool or numpy bool (0/1 integers too); anything else is TypeError."""
    if isinstance(value, bool) or (isinstance(value, numbers.Integral) and value in (0, 1)):
        return bool(value)
    if type(value).__name__ == "bool_":  # numpy.bool_, without importing numpy here
        return bool(value)
    raise TypeError("%s must be True or False, got %s %r" % (name, type(value).__name__, value))
