"""Kind checks of the arguments that do not go through the library's registry (pcst_fast's
integers, the estimators' own parameters): TypeError before the range is checked.
Registry parameters are checked by the extension, per their type (python/src/spec.c)."""
import numbers


INT32_MIN, INT32_MAX = -2 ** 31, 2 ** 31 - 1


def integral(name, value):
    """value as an int: Python and numpy integers pass; bool, float and str raise
    TypeError (True is not a count and 4.5 or '4' are not silently rounded or parsed).
    The range is the library's to check (a ValueError naming it)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("%s must be an integer, got %s %r" % (name, type(value).__name__, value))
    return int(value)


def int32(name, value):
    """value as an int for an int argument of the extension (a size, a count, threads):
    TypeError naming the argument for another kind (3.0, '3', True), ValueError beyond
    the int32 range (not the extension's unnamed OverflowError); the rest of the range
    is the library's to check."""
    value = integral(name, value)
    if not INT32_MIN <= value <= INT32_MAX:
        raise ValueError("%s must be in the int32 range (%d..%d), got %d"
                         % (name, INT32_MIN, INT32_MAX, value))
    return value


def integer(name, value):
    """integral(), and an integer outside the int32 range raises TypeError too: the
    library's int cannot hold it, and pcst_fast's binding raises TypeError there (its
    drop-in raises the same exceptions; elsewhere int32() raises ValueError)."""
    value = integral(name, value)
    if not INT32_MIN <= value <= INT32_MAX:
        raise TypeError("%s must be an integer in the int32 range (%d..%d), got %d"
                        % (name, INT32_MIN, INT32_MAX, value))
    return value


def integral_or_none(name, value):
    return None if value is None else integral(name, value)


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
    """value, a str: TypeError for another kind, ValueError naming the argument for a NUL
    character (the extension reads a C string, which would end there)."""
    if not isinstance(value, str):
        raise TypeError("%s must be a string, got %s %r" % (name, type(value).__name__, value))
    if "\0" in value:
        raise ValueError("%s must not contain a NUL character, got %r" % (name, value))
    return value
