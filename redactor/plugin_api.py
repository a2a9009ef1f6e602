"""What a plugin is: the base classes third-party OCR backends and detectors implement.

A plugin class is registered under an entry point (group ``redactor.ocr``,
``redactor.detectors``, ``redactor.ocr_free`` or ``redactor.visual``) and must offer:

- ``name``: the name users select it by;
- ``emits()``: the fine types it can emit (derived from its mapping file, for detectors);
- ``unavailable_reason(**options)``: ``None`` when it can run here now, otherwise why not
  (missing binary, package, model weights or credentials). It may take the options it needs
  to answer (e.g. ``model``; the registry passes those its signature names; a zero-argument
  one is called without). It must be cheap and must not import heavy SDKs eagerly;
- ``__init__(**options)``: loads models/clients (raise ``PluginUnavailable`` if it cannot).
  Its named parameters are the plugin's options: the registry refuses other names and
  values of the wrong type before the plugin is built (``option_names()`` says otherwise
  for a plugin that forwards ``**options``);
- the work method: ``read(image) -> OcrPage`` (OCR), ``detect(page) -> list[Span]``
  (detectors), ``redact_page(image) -> list[Redaction]`` (OCR-free systems),
  ``find(image, page) -> list[Redaction]`` (visual detectors: signatures, faces, codes).
Instances are stateless between pages except for loaded models and clients.
"""
from __future__ import annotations

import inspect
import typing
from pathlib import Path
from typing import Any, ClassVar

import yaml

from redactor.model import OcrPage, Redaction, Span
from redactor.paths import mapping_file
from redactor.taxonomy import is_known


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

    @classmethod
    def emits(cls) -> frozenset[str]:
        if cls.mapping_file:
            return frozenset(load_label_mapping(cls.mapping_file).values())
        return frozenset()

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return None

    @classmethod
    def option_names(cls) -> frozenset[str]:
        """The options ``__init__`` takes: its named parameters. Override when options
        reach the plugin through ``**options`` (forwarded to parts, or several spellings)."""
        return frozenset(option_parameters(cls.__init__))

    @classmethod
    def option_defaults(cls) -> dict[str, Any]:
        return {name: p.default for name, p in option_parameters(cls.__init__).items()
                if p.default is not inspect.Parameter.empty}

    @classmethod
    def option_types(cls) -> dict[str, Any]:
        """Declared types of the options, where ``__init__`` annotates them."""
        try:
            hints = typing.get_type_hints(cls.__init__)
        except Exception:   # an annotation that does not resolve: no type to check
            return {}
        return {k: v for k, v in hints.items() if k in option_parameters(cls.__init__)}

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
    def detect(self, page: OcrPage) -> list[Span]:
        raise NotImplementedError


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
