"""Finds plugins through Python entry points, lazily: a plugin module (and its SDK) is
imported only when that plugin is listed or selected."""
from __future__ import annotations

import difflib
import inspect
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from redactor.errors import InputError, PluginUnavailable
from redactor.plugin_api import options_of, type_text

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
    options: dict[str, dict] = None   # option -> {type, default, required}

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
    check_available(kind, name, options, cls)
    return cls(**options)


def check_options(kind: str, name: str, options: dict[str, Any], cls=None) -> None:
    """Refuse an option the plugin does not have (naming the close one) or a value its
    options model does not take, in one line, before the plugin (and its models) is
    loaded: a typo must not pass for a setting that took effect. ``None`` is "not set"."""
    import pydantic

    cls = cls or plugin_class(kind, name)
    label = f"{kind.replace('_', '-')} plugin {name!r}"
    model = options_of(cls)
    known = sorted(model.model_fields)
    for key in options:
        if key not in model.model_fields:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InputError(f"{label} has no option {key!r}{hint} "
                             f"(options: {', '.join(known) or 'none'})")
    try:
        model.model_validate({k: v for k, v in options.items() if v is not None})
    except pydantic.ValidationError as exc:
        error = exc.errors()[0]
        key = str(error["loc"][0]) if error["loc"] else "?"
        msg = error["msg"][:1].lower() + error["msg"][1:]
        got = f" (got {options[key]!r})" if key in options else ""
        raise InputError(f"{label}: option {key}: {msg}{got}") from None


def check_available(kind: str, name: str, options: dict[str, Any] | None = None, cls=None) -> None:
    """Raise PluginUnavailable unless the plugin can run here with these options (a model
    folder given as an option counts): cheap, nothing is loaded."""
    reason = unavailable_reason(cls or plugin_class(kind, name), options)
    if reason:
        raise PluginUnavailable(f"{kind.replace('_', '-')} plugin {name!r} is unavailable: {reason}")


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


def options_table(cls) -> dict[str, dict[str, Any]]:
    """``option -> {type, default, required}`` for ``redactor plugins`` (defaults that are
    not plain values as their repr, so the table is JSON)."""
    out = {}
    for key, info in sorted(options_of(cls).model_fields.items()):
        required = info.is_required()
        default = None if required else info.default
        if not isinstance(default, (bool, int, float, str, type(None))):
            default = repr(default)
        out[key] = {"type": type_text(info.annotation), "default": default, "required": required}
    return out


def describe_all(given: dict[tuple[str, str], dict[str, Any]] | None = None) -> list[PluginInfo]:
    """Every installed plugin; ``given``: options per ``(kind, name)`` that availability is
    judged with (a model folder makes a local-model detector available)."""
    out: list[PluginInfo] = []
    for kind in GROUPS:
        for name, ep in sorted(_entry_points(kind).items()):
            options: dict[str, dict] = {}
            try:
                cls = ep.load()
                reason = unavailable_reason(cls, (given or {}).get((kind, name)))
                emits = tuple(sorted(cls.emits()))
                options = options_table(cls)
            except Exception as exc:  # a broken third-party plugin must not hide the others
                reason, emits = f"cannot be loaded: {type(exc).__name__}: {exc}", ()
            out.append(PluginInfo(kind, name, reason is None, reason, emits, ep.value, options))
    return out


def emits_of(kind: str, name: str) -> frozenset[str]:
    return frozenset(plugin_class(kind, name).emits())
