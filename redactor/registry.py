"""Finds plugins through Python entry points, lazily: a plugin module (and its SDK) is
imported only when that plugin is listed or selected."""
from __future__ import annotations

import difflib
import inspect
import types
import typing
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from redactor.errors import InputError, PluginUnavailable

GROUPS = {"ocr": "redactor.ocr", "detector": "redactor.detectors", "ocr_free": "redactor.ocr_free",
          "visual": "redactor.visual"}


@dataclass(frozen=True)
class PluginInfo:
    kind: str
    name: str
    available: bool
    reason: str | None
    emits: tuple[str, ...]
    target: str
    options: dict[str, str] = None   # option -> default, as text

    def __post_init__(self):
        if self.options is None:
            object.__setattr__(self, "options", {})


def _entry_points(kind: str) -> dict:
    eps = {}
    for ep in entry_points(group=GROUPS[kind]):
        eps.setdefault(ep.name, ep)   # first registration wins; duplicates are ignored
    return eps


def names(kind: str) -> list[str]:
    return sorted(_entry_points(kind))


def plugin_class(kind: str, name: str):
    eps = _entry_points(kind)
    if name not in eps:
        known = ", ".join(sorted(eps)) or "none installed"
        raise InputError(f"unknown {kind.replace('_', '-')} plugin {name!r} (known: {known})")
    try:
        return eps[name].load()
    except ImportError as exc:
        raise PluginUnavailable(f"{kind} plugin {name!r} cannot be imported: {exc}") from exc


def create(kind: str, name: str, **options):
    """Instantiate a plugin, or raise InputError (an unknown option, a wrong type) or
    PluginUnavailable with the reason."""
    cls = plugin_class(kind, name)
    check_options(kind, name, options, cls)
    reason = unavailable_reason(cls, options)
    if reason:
        raise PluginUnavailable(f"{kind.replace('_', '-')} plugin {name!r} is unavailable: {reason}")
    return cls(**options)


def check_options(kind: str, name: str, options: dict[str, Any], cls=None) -> None:
    """Refuse an option the plugin does not have (naming the close one) or a value that is
    not of its declared type, before the plugin (and its models) is loaded: a typo must
    not pass for a setting that took effect."""
    cls = cls or plugin_class(kind, name)
    label = f"{kind.replace('_', '-')} plugin {name!r}"
    known = set(_option_names(cls))
    for key in options:
        if key not in known:
            close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InputError(f"{label} has no option {key!r}{hint} "
                             f"(options: {', '.join(sorted(known)) or 'none'})")
    expected = _expected_types(cls)
    for key, value in options.items():
        if key in expected:
            _check_type(label, key, value, expected[key])


def _option_names(cls) -> frozenset[str]:
    method = getattr(cls, "option_names", None)
    if method is not None:
        return frozenset(method())
    from redactor.plugin_api import option_parameters   # a class not built on Plugin
    return frozenset(option_parameters(cls.__init__))


_SCALARS = (bool, int, float, str)


def _expected_types(cls) -> dict[str, Any]:
    """The type each option must have: its annotation when that is a plain scalar (or one
    with None), else the type of its scalar default; options with neither are the plugin's
    to check."""
    declared = getattr(cls, "option_types", lambda: {})()
    defaults = getattr(cls, "option_defaults", lambda: {})()
    out: dict[str, Any] = {}
    for key in set(declared) | set(defaults):
        hint = declared.get(key)
        if hint is not None and _is_scalar_type(hint):
            out[key] = hint
        elif isinstance(defaults.get(key), _SCALARS):
            out[key] = type(defaults[key])
    return out


def _is_scalar_type(hint) -> bool:
    if hint in _SCALARS:
        return True
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        return all(a in _SCALARS or a is type(None) for a in args)
    return False


def _check_type(label: str, key: str, value: Any, expected) -> None:
    import pydantic

    if value is None:
        return     # "not set": the plugin's default
    try:
        pydantic.TypeAdapter(expected).validate_python(value)
    except pydantic.ValidationError as exc:
        msg = exc.errors()[0]["msg"]
        raise InputError(f"{label}: option {key}: {msg[:1].lower()}{msg[1:]} (got {value!r})") from None


def unavailable_reason(cls, options: dict[str, Any] | None = None) -> str | None:
    """``cls.unavailable_reason`` given the options its signature names (third-party
    plugins with the original zero-argument form are called without)."""
    method = cls.unavailable_reason
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return method()
    options = options or {}
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return method(**options)
    return method(**{k: v for k, v in options.items() if k in params})


def options_text(cls) -> dict[str, str]:
    defaults = getattr(cls, "option_defaults", lambda: {})()
    return {name: ("" if name not in defaults else repr(defaults[name]))
            for name in sorted(_option_names(cls))}


def describe_all() -> list[PluginInfo]:
    out: list[PluginInfo] = []
    for kind in GROUPS:
        for name, ep in sorted(_entry_points(kind).items()):
            options: dict[str, str] = {}
            try:
                cls = ep.load()
                reason = unavailable_reason(cls)
                emits = tuple(sorted(cls.emits()))
                options = options_text(cls)
            except Exception as exc:  # a broken third-party plugin must not hide the others
                reason, emits = f"cannot be loaded: {type(exc).__name__}: {exc}", ()
            out.append(PluginInfo(kind, name, reason is None, reason, emits, ep.value, options))
    return out


def emits_of(kind: str, name: str) -> frozenset[str]:
    return frozenset(plugin_class(kind, name).emits())
