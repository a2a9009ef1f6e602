"""Google Cloud DLP (Sensitive Data Protection) ``content:inspect``, two ways:

- ``google-dlp`` (OCR-free system): the page image goes to DLP, which runs its own OCR;
  each finding's ``location.content_locations[].image_location.bounding_boxes`` (pixels of
  the image sent, origin top-left) become redaction boxes on the page.
- ``google-dlp-text`` (detector): our OCR page text goes to DLP; each finding's
  ``codepoint_range`` (characters, what Python indexes) or else ``byte_range`` (UTF-8 bytes,
  converted) becomes a span of the page text.

Info types are requested by name and mapped through ``mappings/google_dlp.yaml``; findings
under ``min_likelihood`` are dropped. Credentials are Google's Application Default
Credentials; the project comes from the option, ``GOOGLE_CLOUD_PROJECT`` or the
credentials. Raw responses are cached (DLP's own JSON) by content hash and request.

Leaves the machine: the page image (``google-dlp``) or the page's OCR text
(``google-dlp-text``), to the DLP API endpoint (dlp.googleapis.com unless ``api_endpoint``).
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
from pathlib import Path
from typing import Any, Callable

from redactor_plugins._image_payload import encode_within
from redactor_plugins._options import as_bool, as_choice, as_float, as_int
from redactor_plugins._response_cache import ResponseCache, image_content_hash, text_content_hash
from redactor_plugins._retry import call_with_retries
from redactor_plugins._text_chunks import Chunk, chunk_text
from redactor.plugin_api import (Detector, forwarded_options, InputError, load_label_mapping, ner_or_pattern,
                                OcrFreeSystem, OcrPage, PluginFailed, PluginUnavailable, Redaction, Span)

log = logging.getLogger(__name__)

LIKELIHOODS = ("VERY_UNLIKELY", "UNLIKELY", "POSSIBLE", "LIKELY", "VERY_LIKELY")
LIKELIHOOD_SCORE = {"VERY_UNLIKELY": 0.1, "UNLIKELY": 0.3, "POSSIBLE": 0.5, "LIKELY": 0.7,
                    "VERY_LIKELY": 0.9}
REQUEST_MAX_BYTES = 500_000          # documented default request size limit: 0.5 MB
_REQUEST_OVERHEAD = 16_000           # inspect config, JSON framing
_SCOPES = ["https://www.googleapis.com/auth/cloud-platform"]
_SIGNS_OF_GOOGLE_CLOUD = ("K_SERVICE", "GAE_ENV", "GAE_RUNTIME", "FUNCTION_TARGET",
                          "GCE_METADATA_HOST", "CLOUD_RUN_JOB")


def _on_google_cloud() -> bool:
    if any(os.environ.get(v) for v in _SIGNS_OF_GOOGLE_CLOUD):
        return True
    try:
        return Path("/sys/class/dmi/id/product_name").read_text().strip().startswith("Google")
    except OSError:
        return False


def _gcloud_adc_file() -> str | None:
    try:
        from google.auth import _cloud_sdk
        return _cloud_sdk.get_application_default_credentials_path()
    except Exception:
        return None


def credentials_reason() -> str | None:
    """None when the DLP client library and Application Default Credentials are present.
    Off Google Cloud, with no credentials file named or made by gcloud, ADC would only probe
    the metadata server over the network; we answer without that probe."""
    if importlib.util.find_spec("google.cloud.dlp_v2") is None:
        return "the Google Cloud DLP library is not installed (pip install 'redactor[cloud]')"
    explicit = os.environ.get("GOOGLE_APPLICATION_CREDENTIALS")
    gcloud_file = _gcloud_adc_file()
    if not explicit and not (gcloud_file and os.path.exists(gcloud_file)) and not _on_google_cloud():
        return ("no Google Application Default Credentials (set GOOGLE_APPLICATION_CREDENTIALS "
                "or run `gcloud auth application-default login`)")
    import google.auth
    from google.auth.exceptions import DefaultCredentialsError
    try:
        google.auth.default(scopes=_SCOPES)
    except DefaultCredentialsError as exc:
        return f"Google Application Default Credentials unusable: {str(exc).splitlines()[0]}"
    except Exception as exc:
        return f"Google Application Default Credentials unusable: {type(exc).__name__}: {exc}"
    return None


def byte_to_char_offset(text: str, byte_offset: int, round_up: bool = False) -> int:
    """A UTF-8 byte offset of ``text`` -> its character offset; an offset inside a
    character goes to that character's start (or past it with ``round_up``)."""
    if byte_offset <= 0:
        return 0
    pos = 0
    for i, ch in enumerate(text):
        n = len(ch.encode("utf-8"))
        if byte_offset < pos + n:
            return i + 1 if (round_up and byte_offset > pos) else i
        pos += n
    return len(text)


def _int(value, default: int = 0) -> int:
    # proto JSON writes int64 as strings and omits zeros.
    return int(value) if value not in (None, "") else default


def finding_char_range(finding: dict, text: str) -> tuple[int, int] | None:
    location = finding.get("location") or {}
    cp = location.get("codepointRange")
    if cp is not None:
        return _int(cp.get("start")), _int(cp.get("end"))
    br = location.get("byteRange")
    if br is not None:
        return (byte_to_char_offset(text, _int(br.get("start"))),
                byte_to_char_offset(text, _int(br.get("end")), round_up=True))
    return None


def finding_boxes(finding: dict) -> list[tuple[float, float, float, float]]:
    """Pixel boxes (of the image sent) of an image finding: ``[left, top, left+w, top+h]``."""
    boxes = []
    for content in (finding.get("location") or {}).get("contentLocations") or ():
        for box in (content.get("imageLocation") or {}).get("boundingBoxes") or ():
            left, top = _int(box.get("left")), _int(box.get("top"))
            width, height = _int(box.get("width")), _int(box.get("height"))
            if width > 0 and height > 0:
                boxes.append((float(left), float(top), float(left + width), float(top + height)))
    return boxes


class _DlpClient:
    """Options, client and cached ``inspect_content`` shared by both DLP plugins."""

    mapping_file = "google_dlp.yaml"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return credentials_reason()

    @classmethod
    def options_model(cls):
        # the client's options reach ``_setup`` through ``**options``
        return forwarded_options(cls, _DlpClient._setup)

    def _setup(self, project=None, location="global", api_endpoint=None, transport="rest",
               credentials=None, info_types=None, min_likelihood="POSSIBLE", timeout=60,
               max_retries=5, retry_base_delay=0.5, cache=True, cache_dir=None,
               max_request_bytes=REQUEST_MAX_BYTES, **unknown) -> None:
        if unknown:
            raise InputError(f"{self.name}: unknown option(s) {', '.join(sorted(unknown))}")
        self.mapping = load_label_mapping(self.mapping_file)
        if info_types is None:
            self.info_types = sorted(self.mapping)
        else:
            names = info_types.split(",") if isinstance(info_types, str) else list(info_types)
            self.info_types = sorted({str(n).strip() for n in names if str(n).strip()})
            unmapped = [n for n in self.info_types if n not in self.mapping]
            if unmapped:
                raise InputError(f"{self.name}: info types without a mapping in "
                                 f"{self.mapping_file}: {', '.join(unmapped)}")
        self.min_likelihood = as_choice("min_likelihood", str(min_likelihood).upper(), LIKELIHOODS)
        self.location = str(location)
        self.timeout = as_float("timeout", timeout, 1.0, 3600.0)
        self.max_retries = as_int("max_retries", max_retries, 0, 20)
        self.retry_base_delay = as_float("retry_base_delay", retry_base_delay, 0.0, 60.0)
        self.max_request_bytes = as_int("max_request_bytes", max_request_bytes,
                                        _REQUEST_OVERHEAD + 1024, 100_000_000)
        self.cache = ResponseCache(cache_dir, enabled=as_bool("cache", cache))
        transport = as_choice("transport", transport, ("rest", "grpc"))
        try:
            from google.cloud import dlp_v2
        except ImportError as exc:
            raise PluginUnavailable(f"{self.name}: google-cloud-dlp is not installed: {exc}") from exc
        self._dlp = dlp_v2
        project = project or os.environ.get("GOOGLE_CLOUD_PROJECT") or os.environ.get("GCLOUD_PROJECT")
        if credentials is None:
            import google.auth
            from google.auth.exceptions import DefaultCredentialsError
            try:
                credentials, adc_project = google.auth.default(scopes=_SCOPES)
            except DefaultCredentialsError as exc:
                raise PluginUnavailable(f"{self.name}: {str(exc).splitlines()[0]}") from exc
            project = project or adc_project
        if not project:
            raise PluginUnavailable(f"{self.name}: no Google Cloud project (pass project= or set "
                                    "GOOGLE_CLOUD_PROJECT)")
        self.project = str(project)
        client_options = {"api_endpoint": api_endpoint} if api_endpoint else None
        self.client = dlp_v2.DlpServiceClient(credentials=credentials, transport=transport,
                                              client_options=client_options)

    @property
    def parent(self) -> str:
        return f"projects/{self.project}/locations/{self.location}"

    def _inspect_config(self) -> dict[str, Any]:
        return {"info_types": [{"name": n} for n in self.info_types],
                "min_likelihood": self.min_likelihood, "include_quote": True}

    def _is_retryable(self, exc: BaseException) -> bool:
        from google.api_core import exceptions as gexc
        return isinstance(exc, (gexc.TooManyRequests, gexc.ResourceExhausted, gexc.ServiceUnavailable,
                                gexc.InternalServerError, gexc.DeadlineExceeded, gexc.BadGateway,
                                gexc.GatewayTimeout))

    def _call(self, item: dict[str, Any]) -> dict[str, Any]:
        from google.api_core import exceptions as gexc
        request = {"parent": self.parent, "inspect_config": self._inspect_config(), "item": item}
        try:
            response = call_with_retries(
                lambda: self.client.inspect_content(request=request, retry=None, timeout=self.timeout),
                self._is_retryable, self.max_retries, self.retry_base_delay, what=f"{self.name} inspect")
        except (gexc.Unauthenticated, gexc.PermissionDenied) as exc:
            raise PluginUnavailable(f"{self.name}: {type(exc).__name__}: {exc.message}") from exc
        except gexc.GoogleAPICallError as exc:
            raise PluginFailed(f"{self.name} inspect failed: {type(exc).__name__}: {exc.message}") from exc
        except Exception as exc:   # transport errors (connection refused, TLS, timeouts)
            raise PluginFailed(f"{self.name} inspect failed: {type(exc).__name__}: {exc}") from exc
        return json.loads(type(response).to_json(response, use_integers_for_enums=False, indent=None))

    def _inspect(self, make_item: Callable[[], tuple[dict[str, Any], dict[str, Any]]],
                 content_hash: str, extra: dict[str, Any]) -> tuple[list[dict], dict[str, Any]]:
        """Kept findings of one inspect request, and what was noted about the request sent
        (e.g. the image size). ``make_item`` builds the content item and that note; it runs
        only on a cache miss, so a cached page is not even encoded again."""
        params = {"location": self.location, "info_types": self.info_types,
                  "min_likelihood": self.min_likelihood, **extra}

        def call() -> dict[str, Any]:
            item, sent = make_item()
            return {"sent": sent, "response": self._call(item)}

        cached = self.cache.fetch("google-dlp", "content:inspect", params, content_hash, call)
        response, sent = cached.get("response") or {}, cached.get("sent") or {}
        result = response.get("result") or {}
        if result.get("findingsTruncated"):
            log.warning("%s: DLP truncated the findings of a page", self.name)
        findings = result.get("findings") or []
        if not isinstance(findings, list):
            raise PluginFailed(f"{self.name}: DLP response findings are not a list")
        floor = LIKELIHOODS.index(self.min_likelihood)
        kept = []
        for finding in findings:
            likelihood = str(finding.get("likelihood", "LIKELIHOOD_UNSPECIFIED"))
            if likelihood in LIKELIHOODS and LIKELIHOODS.index(likelihood) < floor:
                continue
            name = str((finding.get("infoType") or {}).get("name", ""))
            if name not in self.mapping:
                log.info("%s: ignoring finding of unmapped info type %r", self.name, name)
                continue
            kept.append(finding)
        return kept, sent

    def _score(self, finding: dict) -> float:
        return LIKELIHOOD_SCORE.get(str(finding.get("likelihood")), 0.5)


class GoogleDlpTextDetector(_DlpClient, Detector):
    """DLP on our OCR page text."""

    name = "google-dlp-text"

    @classmethod
    def evidence_of(cls, span: Span) -> int:
        return ner_or_pattern(span)

    def __init__(self, **options):
        self._setup(**options)

    def detect(self, page: OcrPage) -> list[Span]:
        spans: list[Span] = []
        for chunk in chunk_text(page.text, self.max_request_bytes - _REQUEST_OVERHEAD):
            findings, _ = self._inspect(lambda: ({"value": chunk.text}, {}),
                                        text_content_hash(chunk.text), {"mode": "text"})
            spans.extend(self._spans(findings, chunk))
        return spans

    def _spans(self, findings: list[dict], chunk: Chunk) -> list[Span]:
        spans = []
        for finding in findings:
            rng = finding_char_range(finding, chunk.text)
            if rng is None:
                raise PluginFailed(f"{self.name}: a text finding has no byte or codepoint range")
            start, end = max(0, rng[0]), min(len(chunk.text), rng[1])
            if end <= start:
                continue
            spans.append(Span(start=chunk.start + start, end=chunk.start + end,
                              type=self.mapping[finding["infoType"]["name"]],
                              score=self._score(finding), detector=self.name,
                              text=chunk.text[start:end]))
        return spans


class GoogleDlpImageSystem(_DlpClient, OcrFreeSystem):
    """DLP on the page image (its own OCR): image in, boxes out."""

    name = "google-dlp"

    def __init__(self, box_per_line=False, **options):
        self.box_per_line = as_bool("box_per_line", box_per_line)
        self._setup(**options)

    def redact_page(self, image) -> list[Redaction]:
        page_w, page_h = image.size
        budget = (self.max_request_bytes - _REQUEST_OVERHEAD) * 3 // 4     # base64 in JSON
        cache_params = {"mode": "image", "max_request_bytes": self.max_request_bytes}

        def item() -> tuple[dict[str, Any], dict[str, Any]]:
            enc = encode_within(image, budget)
            byte_type = "IMAGE_PNG" if enc.format == "PNG" else "IMAGE_JPEG"
            return {"byte_item": {"type": byte_type, "data": enc.data}}, {"size": [enc.width, enc.height]}

        findings, sent = self._inspect(item, image_content_hash(image), cache_params)
        sent_w, sent_h = sent.get("size") or (page_w, page_h)
        sx, sy = page_w / sent_w, page_h / sent_h
        redactions = []
        for finding in findings:
            boxes = []
            for x0, y0, x1, y1 in finding_boxes(finding):
                px0, py0, px1, py1 = x0 * sx, y0 * sy, x1 * sx, y1 * sy
                box = (max(0.0, px0), max(0.0, py0), min(float(page_w), px1), min(float(page_h), py1))
                if box[2] > box[0] and box[3] > box[1]:
                    boxes.append(box)
            if not boxes:
                continue
            if not self.box_per_line:
                boxes = [(min(b[0] for b in boxes), min(b[1] for b in boxes),
                          max(b[2] for b in boxes), max(b[3] for b in boxes))]
            fine = self.mapping[finding["infoType"]["name"]]
            for box in boxes:
                redactions.append(Redaction(bbox=box, type=fine, value=str(finding.get("quote", "")),
                                            score=self._score(finding), sources=(self.name,)))
        return redactions
