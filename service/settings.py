"""Reading ``ANNALES_*`` environment variables: each value checked, and a bad one refused
with a sentence that names the variable (never a bare ``int()`` error, never silently
replaced by the default).

Every reader of a setting goes through :func:`integer`, :func:`number` or :func:`flag`;
``annales serve`` reads them all before it starts (:func:`check_all` in its start-up), so
a misspelt value stops the start instead of failing a later call.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping

#: spellings :func:`flag` takes for on and off
ON = ("1", "true", "yes", "on")
OFF = ("0", "false", "no", "off")


class SettingError(ValueError):
    """An ``ANNALES_*`` variable holds a value it cannot take."""


def _raw(name: str, environ: Mapping[str, str] | None) -> str:
    return (os.environ if environ is None else environ).get(name, "").strip()


def integer(
    name: str, default: int, minimum: int = 0, environ: Mapping[str, str] | None = None
) -> int:
    """The integer in ``name`` (``default`` when unset or empty); at least ``minimum``."""
    raw = _raw(name, environ)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingError(f"{name}={raw!r}: must be a whole number ≥ {minimum}") from None
    if value < minimum:
        raise SettingError(f"{name}={raw!r}: must be a whole number ≥ {minimum}")
    return value


def number(
    name: str, default: float, minimum: float = 0.0, environ: Mapping[str, str] | None = None
) -> float:
    """The finite number in ``name`` (``default`` when unset or empty); at least ``minimum``."""
    raw = _raw(name, environ)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingError(f"{name}={raw!r}: must be a number ≥ {minimum:g}") from None
    if not math.isfinite(value) or value < minimum:
        raise SettingError(f"{name}={raw!r}: must be a number ≥ {minimum:g}")
    return value


def flag(name: str, environ: Mapping[str, str] | None = None) -> bool | None:
    """On, off, or ``None`` when unset or empty (the caller's default)."""
    raw = _raw(name, environ).lower()
    if not raw:
        return None
    if raw in ON:
        return True
    if raw in OFF:
        return False
    raise SettingError(f"{name}={raw!r}: must be 1 or 0 (also {'/'.join(ON[1:])}, "
                       f"{'/'.join(OFF[1:])})")  # fmt: skip
