"""The peer system: presidio-image-redactor with Tesseract, through its own public API.

This is what a user picks instead of us, so every bench shows it beside our pipeline on the
same pages. It runs as presidio-image-redactor ships (its TesseractOCR, its bounding-box
logic), with two changes forced by this offline machine: the spaCy model is the small English
one (Presidio's default en_core_web_lg cannot be downloaded here) and the e-mail recognizer
validates domains against tldextract's bundled suffix list instead of downloading it.
"""
from __future__ import annotations

import importlib.util
import os
import shutil

from redactor.plugin_api import load_label_mapping, OcrFreeSystem, Redaction


class PeerPresidioImage(OcrFreeSystem):
    name = "peer-presidio-image"
    mapping_file = "presidio.yaml"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if importlib.util.find_spec("presidio_image_redactor") is None:
            return ("presidio-image-redactor is not installed "
                    "(pip install --no-deps presidio-image-redactor==0.0.62; `make` does this)")
        if shutil.which("tesseract") is None:
            return "tesseract not found on PATH: install Debian package tesseract-ocr"
        return None

    def __init__(self, spacy_model: str | None = None, min_score: float = 0.0):
        from presidio_image_redactor import ImageAnalyzerEngine, TesseractOCR

        from redactor_plugins.presidio_detector import resolve_spacy_model, shared_analyzer

        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        self.labels = load_label_mapping(self.mapping_file)
        self.min_score = float(min_score)
        analyzer = shared_analyzer(resolve_spacy_model(spacy_model))
        self.engine = ImageAnalyzerEngine(analyzer_engine=analyzer, ocr=TesseractOCR())

    def redact_page(self, image) -> list[Redaction]:
        out = []
        for r in self.engine.analyze(image):
            fine = self.labels.get(r.entity_type)
            if fine is None or r.score < self.min_score or r.width <= 0 or r.height <= 0:
                continue
            out.append(Redaction(bbox=(float(r.left), float(r.top), float(r.left + r.width),
                                       float(r.top + r.height)),
                                 type=fine, score=float(r.score), sources=(self.name,)))
        return out
