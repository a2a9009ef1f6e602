"""What a plugin is: the base classes third-party OCR backends and detectors implement.

A plugin class is registered under an entry point (group ``redactor.ocr``,
``redactor.detectors``, ``redactor.ocr_free`` or ``redactor.visual``) and must offer:

- ``name``: the name users select it by;
- ``emits()``: the fine types it can emit (derived from its mapping file, for detectors);
- ``unavailable_reason(...)``: ``None`` when it can run here now, otherwise why not
  (missing binary, package, model weights or credentials). It may name options it needs to
  answer as keyword parameters (e.g. ``model``); the registry passes those it has (all of
  them to a ``**options`` one), and a zero-argument one (the first contract) is called
  without. It must be cheap and must not import heavy SDKs or model libraries;
- ``__init__(**options)``: loads models/clients (raise ``PluginUnavailable`` if it cannot).
  Its options are a pydantic model, ``options_model()``: by default derived from the named
  parameters of ``__init__`` (type: the annotation when it is a plain scalar, else that of
  the default); a plugin whose options reach it through ``**options`` declares them, as an
  ``Options`` model (``extra="forbid"``) or with ``forwarded_options``. The registry refuses
  any other name, and a value of the wrong type, before the plugin is built; values reach
  ``__init__`` as given (strings from the command line), for the plugin to coerce;
- the work method: ``read(image) -> OcrPage`` (OCR), ``detect(page) -> list[Span]``
  (detectors), ``redact_page(image) -> list[Redaction]`` (OCR-free systems),
  ``find(image, page) -> list[Redaction]`` (visual detectors: signatures, faces, codes).
Instances are stateless between pages except for loaded models and clients.
"""
from __future__ import annotations

import functools
import inspect
import types
import typing
from pathlib import Path
from typing import Any, ClassVar

import yaml

# What plugins may use of the core. A plugin imports from ``redactor`` only this module (a
# test holds ours to it), so the core can be reorganised without breaking installed plugins.
from redactor.aligner import union_box
from redactor.box_geometry import area as box_area
from redactor.box_geometry import inside, intersection, iou, overlap_share, overlaps
from redactor.census_names import MAX_WORDS as NAME_MAX_WORDS
from redactor.census_names import RETAGGED_LABELS as CENSUS_RETAGGED_LABELS
from redactor.census_names import SCORE as CENSUS_NAME_SCORE
from redactor.census_names import (given_name_rank, given_names, is_census_name, reads_as_name, reads_as_rare_name,
                                   surname_rank, surnames, veto_words)
from redactor.ensemble import WEB_ADDRESS_START, merge_spans
from redactor.errors import InputError, PluginFailed, PluginUnavailable
from redactor.form_vocabulary import (ADDRESS_FIELD_CAPTIONS, MONTHS, brand_words, form_words, is_address_caption,
                                      is_lone_caption,
                                      is_title, only_form_words, personal_titles, product_variants)
from redactor.gray import to_gray
from redactor.ink_boxes import FRAGMENT_AREA
from redactor.model import (PATTERN, STATISTICAL, STRUCTURAL, UNSURE_CONF, BBox, OcrPage, Redaction, Span,
                            WordBox)
from redactor.page_view import Line, PageView, page_view
from redactor.paragraphs import flowed_text, paragraph_breaks
from redactor.paths import mapping_file
from redactor.taxonomy import fine_types, group_of, is_known, parse_types
from redactor.unread_ink import page_ink_threshold

__all__ = [
    # the base classes and their helpers
    "Plugin", "OcrBackend", "Detector", "OcrFreeSystem", "VisualDetector", "load_label_mapping",
    "options_of", "forwarded_options", "ner_or_pattern", "NER_TYPES",
    # the data model, evidence tiers and errors
    "OcrPage", "WordBox", "Span", "Redaction", "BBox", "STRUCTURAL", "PATTERN", "STATISTICAL",
    "UNSURE_CONF", "InputError", "PluginFailed", "PluginUnavailable",
    # the page's lines and cells, geometry and images
    "PageView", "Line", "page_view", "flowed_text", "paragraph_breaks", "union_box", "to_gray", "FRAGMENT_AREA",
    "page_ink_threshold", "box_area", "intersection", "overlaps", "overlap_share", "iou", "inside",
    # types, label maps, spans
    "mapping_file", "is_known", "parse_types", "fine_types", "group_of", "merge_spans",
    "WEB_ADDRESS_START",
    # names and a form's printed vocabulary
    "reads_as_name", "reads_as_rare_name", "given_names", "given_name_rank", "surnames", "surname_rank",
    "is_census_name",
    "veto_words", "NAME_MAX_WORDS",
    "CENSUS_RETAGGED_LABELS", "CENSUS_NAME_SCORE", "only_form_words", "is_lone_caption", "form_words",
    "personal_titles", "is_title",
    "MONTHS", "brand_words", "product_variants", "ADDRESS_FIELD_CAPTIONS", "is_address_caption",
]

# Policies pull in their parser and checker, which most runs never use.
_LAZY = {"load_policies": ("redactor.policy.model", "load_policies"),
         "as_policy_set": ("redactor.policy.model", "as_policy_set"),
         "Policy": ("redactor.policy.model", "Policy"),
         "PolicySet": ("redactor.policy.model", "PolicySet"),
         "check_policies": ("redactor.policy.checker", "check")}
__all__ += list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_label_mapping(filename: str | Path) -> dict[str, str]:
    """Read ``mappings/<vendor>.yaml``: ``labels: {VENDOR_LABEL: FINE_TYPE or null}``.
    A null maps a vendor label to nothing (ignored). Every target must be a known type."""
    path = Path(filename)
    if not path.is_absolute():
        path = mapping_file(str(filename))
    data = yaml.safe_load(path.read_text()) or {}
    labels = data.get("labels", {})
    out: dict[str, str] = {}
    for vendor, fine in labels.items():
        if fine is None:
            continue
        if not is_known(str(fine)):
            raise ValueError(f"{path.name}: label {vendor!r} maps to unknown type {fine!r}")
        out[str(vendor)] = str(fine)
    return out


class Plugin:
    name: ClassVar[str] = ""
    mapping_file: ClassVar[str | None] = None   # mappings/<file>.yaml when the plugin has vendor labels
    # A pydantic model of the options, for a plugin whose ``__init__`` takes ``**options``
    # (None: derived from the signature, see ``options_model``)
    Options: ClassVar[type | None] = None

    @classmethod
    def emits(cls) -> frozenset[str]:
        if cls.mapping_file:
            return frozenset(load_label_mapping(cls.mapping_file).values())
        return frozenset()

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return None

    @classmethod
    def options_model(cls):
        """The plugin's options as a pydantic model (``extra="forbid"``): ``Options`` when
        the class declares one, else derived from ``__init__``. Override (e.g. with
        ``forwarded_options``) when options are passed on to parts."""
        return declared_or_derived(cls)

    @classmethod
    def option_names(cls) -> frozenset[str]:
        return frozenset(cls.options_model().model_fields)

    def describe(self) -> str:
        return self.name


class OcrBackend(Plugin):
    def read(self, image) -> OcrPage:  # image: PIL.Image.Image, RGB, upright
        raise NotImplementedError

    def fingerprint(self) -> str:
        """Engine, version and every option that changes the words: the OCR cache key
        (with the image's content hash). Override when options matter."""
        return self.name


class Detector(Plugin):
    """``evidence_of(span)`` declares how strong the evidence behind each span is
    (STRUCTURAL: a label or a checksum; PATTERN: the value's shape; STATISTICAL: a model's
    guess). The ensemble ranks overlapping findings of several detectors by it before their
    scores, which are not comparable across detectors; a span may also carry its own
    ``evidence``. The default is STATISTICAL."""
    evidence: ClassVar[int] = STATISTICAL

    def detect(self, page: OcrPage) -> list[Span]:
        raise NotImplementedError

    @classmethod
    def evidence_of(cls, span: Span) -> int:
        return cls.evidence


# Types a NER model finds from the meaning of words; detectors that combine NER with pattern
# recognizers (Presidio, Google DLP, Comprehend) find the other types by their shape.
NER_TYPES = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "ADDRESS", "DATE", "OTHER"})


def ner_or_pattern(span: Span) -> int:
    """The evidence of a NER-plus-patterns detector's span: a model's guess for the types
    NER finds, a pattern for the others."""
    return STATISTICAL if span.type in NER_TYPES else PATTERN


class OcrFreeSystem(Plugin):
    def redact_page(self, image) -> list[Redaction]:
        raise NotImplementedError


class VisualDetector(Plugin):
    """Finds personal data that is a picture rather than text (a signature, a face or ID
    photo, a QR code or barcode, a stamp) on the page image. ``page`` is the OCR of the same
    page (``None`` when there is none): a detector may use its words, e.g. a "Signature:"
    label or the words a code sits beside. Returns redactions in pixel coordinates of
    ``image`` with their fine type; ``sources`` should name the plugin."""
    def find(self, image, page: OcrPage | None) -> list[Redaction]:  # image: PIL RGB, upright
        raise NotImplementedError


def option_parameters(function) -> dict[str, inspect.Parameter]:
    """Named parameters of a plugin's ``__init__`` (not ``self``, ``*args`` or ``**kwargs``)."""
    try:
        params = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return {}
    return {name: p for i, (name, p) in enumerate(params.items())
            if i > 0 and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


# Options arrive as strings from the command line: a number given where the plugin means a
# name (a project id, a language code) is still that name.
# (``model_*`` names are options too: no protected namespace.)
_MODEL_CONFIG = {"extra": "forbid", "coerce_numbers_to_str": True, "arbitrary_types_allowed": True,
                 "protected_namespaces": ()}
_SCALARS = (bool, int, float, str, Path)


def options_of(cls):
    """The options model of any plugin class: ``options_model()`` of a ``Plugin``; for a
    class not built on ``Plugin``, its ``Options`` or one derived from its ``__init__``."""
    method = getattr(cls, "options_model", None)
    return method() if callable(method) else declared_or_derived(cls)


@functools.lru_cache(maxsize=None)
def declared_or_derived(cls):
    for klass in cls.__mro__:
        # the nearest class that declares Options or defines __init__ says what the options are
        declared = vars(klass).get("Options")
        if declared is not None:
            return declared
        if "__init__" in vars(klass):
            break
    return _model_of(f"{cls.__name__}Options", signature_fields(cls.__init__))


@functools.lru_cache(maxsize=None)
def forwarded_options(cls, *parts):
    """The options of a plugin whose ``**options`` are passed on: its own named parameters
    and each part's. A part is a function (its named parameters), a plugin class (its
    options) or ``(prefix, plugin class)`` for options passed on without that prefix."""
    fields = dict(signature_fields(cls.__init__))
    for part in parts:
        prefix, part = part if isinstance(part, tuple) else ("", part)
        if inspect.isclass(part):
            for key, info in options_of(part).model_fields.items():
                fields.setdefault(prefix + key, (info.annotation,
                                                 ... if info.is_required() else info.default))
        else:
            for key, spec in signature_fields(part).items():
                fields.setdefault(prefix + key, spec)
    return _model_of(f"{cls.__name__}Options", fields)


def signature_fields(function) -> dict[str, tuple[Any, Any]]:
    """``name -> (type, default)`` of a function's named parameters; ``...``: required."""
    try:
        hints = typing.get_type_hints(function)
    except Exception:   # an annotation that does not resolve: the default says the type
        hints = {}
    out = {}
    for name, p in option_parameters(function).items():
        default = ... if p.default is p.empty else p.default
        out[name] = (_field_type(hints.get(name), default), default)
    return out


def _field_type(hint, default):
    """The type to check a value against: a plain scalar annotation (or a union of them,
    None allowed), else the type of a scalar default, else anything (the plugin's own
    parsing decides: lists, paths or strings it splits)."""
    if hint is not None and _is_scalar_type(hint):
        return hint
    if isinstance(default, bool):
        return bool
    if isinstance(default, int):
        # an unannotated whole default still means a number: ``timeout=60`` takes 2.5
        # (float first: a bad value is then "not a valid number")
        return float | int
    if isinstance(default, (float, str)):
        return type(default)
    return Any


def _is_scalar_type(hint) -> bool:
    """A type the schema checks: a scalar, a Literal, a list of scalars (``list[str]``), or a
    union of those and None."""
    if hint in _SCALARS or _is_scalar_list(hint):
        return True
    if typing.get_origin(hint) is typing.Literal:
        return True
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return all(a in _SCALARS or a is type(None) or _is_scalar_list(a) for a in typing.get_args(hint))
    return False


def _is_scalar_list(hint) -> bool:
    args = typing.get_args(hint)
    return typing.get_origin(hint) is list and len(args) == 1 and args[0] in _SCALARS


def _model_of(name: str, fields: dict[str, tuple[Any, Any]]):
    import warnings

    import pydantic   # here: importing a plugin module need not import pydantic

    with warnings.catch_warnings():
        # an option may be called what a pydantic method is (``json``, ``copy``): the model
        # only validates, so the shadowing is harmless and not the user's to hear about
        warnings.filterwarnings("ignore", message="Field name .* shadows an attribute")
        return pydantic.create_model(name, __config__=pydantic.ConfigDict(**_MODEL_CONFIG),
                                     **dict(sorted(fields.items())))


def type_text(hint) -> str:
    """How ``redactor plugins --options`` shows an option's type."""
    if hint is Any or hint is None:
        return "any"
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) is typing.Literal:
        return " | ".join(repr(a) for a in typing.get_args(hint))
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        if set(args) == {int, float}:
            return "number"
        return " | ".join(type_text(a) for a in args)
    if _is_scalar_list(hint):
        return f"list[{type_text(typing.get_args(hint)[0])}]"
    return {Path: "path"}.get(hint, getattr(hint, "__name__", str(hint)))
