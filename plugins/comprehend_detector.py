"""Detector ``comprehend``: Amazon Comprehend ``detect_pii_entities`` on the OCR page text.

The page text is cut into chunks under the documented 100 KB UTF-8 limit, on line
boundaries; each entity's BeginOffset/EndOffset (character offsets in its chunk) is re-based
on the page text. Entity types map through ``mappings/comprehend.yaml``; entities under the
score threshold are dropped. Throttling and transient errors are retried with exponential
backoff (botocore's own retries are off so attempts do not multiply). Raw responses are
cached per chunk text and language.

Leaves the machine: the page's OCR text (not the image), to Comprehend in the configured
AWS region.
"""
from __future__ import annotations

from typing import Any

from redactor_plugins import _aws
from redactor_plugins._options import as_bool, as_choice, as_float, as_int
from redactor_plugins._response_cache import ResponseCache, text_content_hash
from redactor_plugins._retry import call_with_retries
from redactor_plugins._text_chunks import Chunk, chunk_text
from redactor.plugin_api import (Detector, InputError, load_label_mapping, ner_or_pattern, OcrPage,
                                PluginFailed, PluginUnavailable, Span)

API_MAX_TEXT_BYTES = 100_000       # documented: "The maximum string size is 100 KB"
DEFAULT_CHUNK_BYTES = 99_000       # a margin under it, whichever KB the service means
LANGUAGES = ("en", "es")           # documented valid values for DetectPiiEntities
_CREDENTIAL_CODES = frozenset({"AccessDeniedException", "UnrecognizedClientException",
                               "InvalidSignatureException", "ExpiredTokenException"})


def spans_from_entities(entities: list[dict], chunk: Chunk, mapping: dict[str, str],
                        min_score: float, detector: str = "comprehend") -> list[Span]:
    """Comprehend entities of one chunk -> spans in page-text offsets."""
    spans: list[Span] = []
    for entity in entities:
        fine = mapping.get(str(entity.get("Type")))
        score = float(entity.get("Score", 0.0))
        if fine is None or score < min_score:
            continue
        begin, end = int(entity["BeginOffset"]), int(entity["EndOffset"])
        begin, end = max(0, begin), min(len(chunk.text), end)
        if end <= begin:
            continue
        spans.append(Span(start=chunk.start + begin, end=chunk.start + end, type=fine,
                          score=score, detector=detector, text=chunk.text[begin:end]))
    return spans


class ComprehendDetector(Detector):
    """Amazon Comprehend PII entity detection on the page text."""

    name = "comprehend"
    mapping_file = "comprehend.yaml"

    @classmethod
    def evidence_of(cls, span: Span) -> int:
        return ner_or_pattern(span)

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return _aws.credentials_reason()

    def __init__(self, language="en", min_score=0.5, region: str | None = None,
                 profile: str | None = None, cache=True, cache_dir: str | None = None,
                 max_retries=6, retry_base_delay=0.5, max_chunk_bytes=DEFAULT_CHUNK_BYTES,
                 **unknown):
        if unknown:
            raise InputError(f"comprehend: unknown option(s) {', '.join(sorted(unknown))}")
        self.language = as_choice("language", language, LANGUAGES)
        self.min_score = as_float("min_score", min_score, 0.0, 1.0)
        self.max_retries = as_int("max_retries", max_retries, 0, 20)
        self.retry_base_delay = as_float("retry_base_delay", retry_base_delay, 0.0, 60.0)
        self.max_chunk_bytes = as_int("max_chunk_bytes", max_chunk_bytes, 4, API_MAX_TEXT_BYTES)
        self.mapping = load_label_mapping(self.mapping_file)
        self.cache = ResponseCache(cache_dir, enabled=as_bool("cache", cache))
        self.client = _aws.client_or_unavailable("comprehend", region=region, profile=profile)

    def _call(self, text: str) -> dict[str, Any]:
        try:
            response = call_with_retries(
                lambda: self.client.detect_pii_entities(Text=text, LanguageCode=self.language),
                _aws.is_retryable, self.max_retries, self.retry_base_delay,
                what="comprehend detect_pii_entities")
        except Exception as exc:
            if _aws.error_code(exc) in _CREDENTIAL_CODES or type(exc).__name__ == "NoCredentialsError":
                raise PluginUnavailable(f"comprehend: {_aws.describe_error(exc)}") from exc
            raise PluginFailed(f"comprehend detect_pii_entities failed: {_aws.describe_error(exc)}") from exc
        response = dict(response)
        response.pop("ResponseMetadata", None)
        return response

    def detect(self, page: OcrPage) -> list[Span]:
        spans: list[Span] = []
        for chunk in chunk_text(page.text, self.max_chunk_bytes):
            response = self.cache.fetch("comprehend", "detect_pii_entities",
                                        {"LanguageCode": self.language},
                                        text_content_hash(chunk.text),
                                        lambda: self._call(chunk.text))
            entities = response.get("Entities")
            if not isinstance(entities, list):
                raise PluginFailed("comprehend response has no Entities list")
            try:
                spans.extend(spans_from_entities(entities, chunk, self.mapping, self.min_score,
                                                 self.name))
            except (KeyError, TypeError, ValueError) as exc:
                raise PluginFailed(f"comprehend response is malformed: {type(exc).__name__}: {exc}") from exc
        return spans
