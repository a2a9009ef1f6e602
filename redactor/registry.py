"""Finds plugins through Python entry points, lazily: a plugin module (and its SDK) is
imported only when that plugin is listed or selected."""
from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import entry_points

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
    """Instantiate a plugin, or raise PluginUnavailable with the reason."""
    cls = plugin_class(kind, name)
    reason = cls.unavailable_reason()
    if reason:
        raise PluginUnavailable(f"{kind.replace('_', '-')} plugin {name!r} is unavailable: {reason}")
    return cls(**options)


def describe_all() -> list[PluginInfo]:
    out: list[PluginInfo] = []
    for kind in GROUPS:
        for name, ep in sorted(_entry_points(kind).items()):
            try:
                cls = ep.load()
                reason = cls.unavailable_reason()
                emits = tuple(sorted(cls.emits()))
            except Exception as exc:  # a broken third-party plugin must not hide the others
                reason, emits = f"cannot be loaded: {type(exc).__name__}: {exc}", ()
            out.append(PluginInfo(kind, name, reason is None, reason, emits, ep.value))
    return out


def emits_of(kind: str, name: str) -> frozenset[str]:
    return frozenset(plugin_class(kind, name).emits())
