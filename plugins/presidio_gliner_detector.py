"""Detector ``presidio-gliner``: the ``presidio`` detector with Presidio's own GLiNER
recognizer added and spaCy's NER recognizer taken out (the LeakageBench "Presidio-best"
set-up): Presidio's pattern recognizers find the well-formed identifiers, GLiNER with a
constrained label set (``mappings/gliner_presidio.yaml``) finds names, organisations,
addresses and the like. All options of ``presidio`` apply, plus the model's.
"""
from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

from redactor_plugins._local_model import resolve_model_dir, weights_reason
from redactor_plugins._options import as_bool, as_float
from redactor_plugins.gliner_detector import _installed, read_label_file
from redactor_plugins.presidio_detector import PresidioDetector, build_analyzer, presidio_labels
from redactor.plugin_api import forwarded_options, InputError, load_label_mapping


@lru_cache(maxsize=2)
def shared_gliner_analyzer(spacy_model: str, language: str, include_organizations: bool,
                           model_dir: str, threshold: float, entities: tuple[tuple[str, str], ...],
                           keep_spacy_ner: bool):
    """The process-wide AnalyzerEngine with a GLiNER recognizer, per configuration."""
    from presidio_analyzer.predefined_recognizers import GLiNERRecognizer
    recognizer = GLiNERRecognizer(entity_mapping=dict(entities), model_name=model_dir,
                                  threshold=threshold, supported_language=language,
                                  map_location="cpu")
    remove = () if keep_spacy_ner else ("SpacyRecognizer",)
    return build_analyzer(spacy_model, language, include_organizations,
                          extra_recognizers=[recognizer], remove=remove)


class PresidioGlinerDetector(PresidioDetector):
    name = "presidio-gliner"
    mapping_file = "gliner_presidio.yaml"
    default_model = "urchade/gliner_multi_pii-v1"
    model_env = "REDACTOR_PRESIDIO_GLINER_MODEL"

    @classmethod
    def unavailable_reason(cls, model: str | None = None) -> str | None:
        reason = PresidioDetector.unavailable_reason()
        if reason:
            return reason
        missing = _installed("torch", "transformers", "gliner")
        if missing:
            return f"python package {missing} is not installed (pip install 'redactor[gliner]')"
        return weights_reason(cls.name, str(model or os.environ.get(cls.model_env) or cls.default_model),
                              ("gliner_config.json",))

    @classmethod
    def emits(cls) -> frozenset[str]:
        return frozenset(cls.vendor_labels().values())

    @classmethod
    def vendor_labels(cls) -> dict[str, str]:
        labels = load_label_mapping("presidio.yaml")
        labels.update(load_label_mapping(cls.mapping_file))
        return labels

    @classmethod
    def known_labels(cls) -> tuple[str, ...]:
        return presidio_labels("presidio.yaml") + presidio_labels(cls.mapping_file)

    @classmethod
    def options_model(cls):
        # the GLiNER recognizer's options, and Presidio's passed on through ``**presidio_options``
        return forwarded_options(cls, PresidioDetector)

    def __init__(self, model: str | None = None, threshold: Any = 0.5, keep_spacy_ner: Any = False,
                 allow_download: Any = False, **presidio_options):
        self.gliner_threshold = as_float("threshold", threshold, 0.0, 1.0)
        self.keep_spacy_ner = as_bool("keep_spacy_ner", keep_spacy_ner)
        spec = read_label_file(self.mapping_file)
        self.gliner_entities = tuple((str(k), str(v)) for k, v in (spec.get("gliner_entities") or {}).items())
        unmapped = sorted({v for _, v in self.gliner_entities} - set(self.vendor_labels()))
        if unmapped:
            raise InputError(f"{self.name}: GLiNER entities {', '.join(unmapped)} have no type "
                             f"in mappings/{self.mapping_file} or mappings/presidio.yaml")
        self.model_id = str(model or os.environ.get(self.model_env) or self.default_model)
        self.model_dir = resolve_model_dir(self.model_id, plugin=self.name,
                                           required=("gliner_config.json",),
                                           allow_download=as_bool("allow_download", allow_download))
        super().__init__(**presidio_options)

    def _load_analyzer(self):
        return shared_gliner_analyzer(self.spacy_model, self.language, self.include_organizations,
                                      str(self.model_dir), self.gliner_threshold,
                                      self.gliner_entities, self.keep_spacy_ner)
