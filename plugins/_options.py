"""Coercion of plugin options, which arrive typed from the Python API and as strings from the
command line or a config file. A bad value is the user's input error, said in one line."""
from __future__ import annotations

from redactor.plugin_api import InputError

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def as_bool(name: str, value) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(f"option {name}: expected true or false, got {value!r}")


def as_float(name: str, value, low: float | None = None, high: float | None = None) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"option {name}: expected a number, got {value!r}") from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise InputError(f"option {name}: {number} is outside [{low}, {high}]")
    return number


def as_int(name: str, value, low: int | None = None, high: int | None = None) -> int:
    number = as_float(name, value, low, high)
    if number != int(number):
        raise InputError(f"option {name}: expected a whole number, got {value!r}")
    return int(number)


def as_choice(name: str, value, choices) -> str:
    text = str(value).strip()
    if text not in choices:
        raise InputError(f"option {name}: {text!r} is not one of {', '.join(sorted(choices))}")
    return text
