"""OCR backend ``textract``: Amazon Textract's synchronous text detection.

The page image is sent as bytes (PNG, or JPEG/downscaled when over the 10 MB synchronous
limit) to ``detect_document_text``, or to ``analyze_document`` with the LAYOUT feature when
``layout=True``. WORD blocks become words: their normalised geometry (the polygon's
envelope, which stays right on rotated pages, else the bounding box) times the page size
gives pixels of the page as given, whatever size was sent. LINE blocks give line ids and the
reading order; LAYOUT_* blocks give block ids. Raw responses are cached by pixel hash and
operation, so a page is never paid for twice.

Leaves the machine: the page image, to Textract in the configured AWS region.
"""
from __future__ import annotations

import logging
from typing import Any, Iterable

from redactor_plugins import _aws
from redactor_plugins._image_payload import encode_within
from redactor_plugins._options import as_bool, as_float, as_int
from redactor_plugins._response_cache import ResponseCache, image_content_hash
from redactor_plugins._retry import call_with_retries
from redactor.plugin_api import InputError, OcrBackend, OcrPage, PluginFailed, PluginUnavailable, WordBox

log = logging.getLogger(__name__)

SYNC_MAX_BYTES = 10 * 1000 * 1000   # documented synchronous limit: 10 MB (kept under 10^7)
MAX_SIDE = 10000                    # documented maximum image dimension
_CREDENTIAL_CODES = frozenset({"AccessDeniedException", "UnrecognizedClientException",
                               "InvalidSignatureException", "ExpiredTokenException",
                               "InvalidClientTokenId", "AuthFailure"})


def _relationship_ids(block: dict, kind: str = "CHILD") -> list[str]:
    ids: list[str] = []
    for rel in block.get("Relationships") or ():
        if rel.get("Type") == kind:
            ids.extend(rel.get("Ids") or ())
    return ids


def geometry_to_pixels(geometry: dict, width: int, height: int) -> tuple[float, float, float, float] | None:
    """Textract's normalised geometry -> a pixel box ``[x0, y0, x1, y1]`` clipped to the
    page. The polygon's envelope is used when present (on a rotated or skewed page it is
    the tight cover of the word's corners), else the BoundingBox. None for an empty box."""
    points = geometry.get("Polygon") or []
    if len(points) >= 3:
        xs = [float(p["X"]) for p in points]
        ys = [float(p["Y"]) for p in points]
        nx0, nx1, ny0, ny1 = min(xs), max(xs), min(ys), max(ys)
    else:
        box = geometry.get("BoundingBox")
        if not box:
            return None
        nx0, ny0 = float(box["Left"]), float(box["Top"])
        nx1, ny1 = nx0 + float(box["Width"]), ny0 + float(box["Height"])
    x0 = min(max(nx0 * width, 0.0), float(width))
    x1 = min(max(nx1 * width, 0.0), float(width))
    y0 = min(max(ny0 * height, 0.0), float(height))
    y1 = min(max(ny1 * height, 0.0), float(height))
    if x1 <= x0 or y1 <= y0:
        return None
    return (x0, y0, x1, y1)


def _line_order(blocks: list[dict], by_id: dict[str, dict], layout: bool) -> list[tuple[str, int]]:
    """(LINE id, block id) in reading order. With layout, lines follow the LAYOUT_* blocks
    (listed in reading order; a list's items are layout blocks of their own); lines that no
    layout block claims come last, in one block."""
    lines = [b["Id"] for b in blocks if b.get("BlockType") == "LINE"]
    if not layout:
        return [(line_id, 0) for line_id in lines]
    ordered: list[tuple[str, int]] = []
    seen: set[str] = set()
    block_no = 0
    for b in blocks:
        if not str(b.get("BlockType", "")).startswith("LAYOUT_"):
            continue
        children = [i for i in _relationship_ids(b)
                    if by_id.get(i, {}).get("BlockType") == "LINE" and i not in seen]
        if not children:
            continue
        block_no += 1
        for line_id in children:
            seen.add(line_id)
            ordered.append((line_id, block_no))
    rest = [line_id for line_id in lines if line_id not in seen]
    if rest:
        block_no += 1
        ordered.extend((line_id, block_no) for line_id in rest)
    return ordered


def words_from_blocks(blocks: Iterable[dict], width: int, height: int,
                      layout: bool = False) -> list[WordBox]:
    """Textract blocks -> words in reading order with pixel boxes, line and block ids."""
    blocks = list(blocks)
    by_id = {b["Id"]: b for b in blocks if "Id" in b}
    words: list[WordBox] = []
    used: set[str] = set()
    line_no = 0

    def add(word: dict, line: int, block: int) -> None:
        bbox = geometry_to_pixels(word.get("Geometry") or {}, width, height)
        text = str(word.get("Text") or "")
        if bbox is None or not text.strip():
            return
        words.append(WordBox(text=text, bbox=bbox, conf=float(word.get("Confidence", -1.0)),
                             line=line, block=block))

    for line_id, block in _line_order(blocks, by_id, layout):
        line_no += 1
        for word_id in _relationship_ids(by_id[line_id]):
            word = by_id.get(word_id)
            if word is None or word.get("BlockType") != "WORD" or word_id in used:
                continue
            used.add(word_id)
            add(word, line_no, block)
    # Words no line claims (not seen in practice) still count: each is a line of its own.
    for b in blocks:
        if b.get("BlockType") == "WORD" and b.get("Id") not in used:
            line_no += 1
            add(b, line_no, 0)
    return words


class TextractOcr(OcrBackend):
    """Amazon Textract (detect_document_text, or analyze_document with LAYOUT)."""

    name = "textract"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return _aws.credentials_reason()

    def __init__(self, layout=False, region: str | None = None, profile: str | None = None,
                 cache=True, cache_dir: str | None = None, max_retries=5,
                 retry_base_delay=0.5, max_bytes=SYNC_MAX_BYTES, **unknown):
        if unknown:
            raise InputError(f"textract: unknown option(s) {', '.join(sorted(unknown))}")
        self.layout = as_bool("layout", layout)
        self.max_retries = as_int("max_retries", max_retries, 0, 20)
        self.retry_base_delay = as_float("retry_base_delay", retry_base_delay, 0.0, 60.0)
        self.max_bytes = as_int("max_bytes", max_bytes, 1, SYNC_MAX_BYTES)
        self.cache = ResponseCache(cache_dir, enabled=as_bool("cache", cache))
        self.client = _aws.client_or_unavailable("textract", region=region, profile=profile)

    @property
    def operation(self) -> str:
        return "analyze_document" if self.layout else "detect_document_text"

    def fingerprint(self) -> str:
        return f"textract {self.operation}{' LAYOUT' if self.layout else ''}"

    def _call(self, image) -> dict[str, Any]:
        encoded = encode_within(image, self.max_bytes, MAX_SIDE)
        if encoded.rescaled:
            log.info("textract: page %dx%d sent as %dx%d %s to fit %d bytes",
                     encoded.page_width, encoded.page_height, encoded.width, encoded.height,
                     encoded.format, self.max_bytes)
        kwargs: dict[str, Any] = {"Document": {"Bytes": encoded.data}}
        if self.layout:
            kwargs["FeatureTypes"] = ["LAYOUT"]
        method = getattr(self.client, self.operation)
        try:
            response = call_with_retries(lambda: method(**kwargs), _aws.is_retryable,
                                         self.max_retries, self.retry_base_delay,
                                         what=f"textract {self.operation}")
        except Exception as exc:
            if _aws.error_code(exc) in _CREDENTIAL_CODES or type(exc).__name__ == "NoCredentialsError":
                raise PluginUnavailable(f"textract: {_aws.describe_error(exc)}") from exc
            raise PluginFailed(f"textract {self.operation} failed: {_aws.describe_error(exc)}") from exc
        response = dict(response)
        response.pop("ResponseMetadata", None)
        return response

    def read(self, image) -> OcrPage:
        width, height = image.size
        params = {"features": ["LAYOUT"] if self.layout else []}
        response = self.cache.fetch("textract", self.operation, params, image_content_hash(image),
                                    lambda: self._call(image))
        blocks = response.get("Blocks")
        if not isinstance(blocks, list):
            raise PluginFailed("textract response has no Blocks list")
        try:
            words = words_from_blocks(blocks, width, height, self.layout)
        except (KeyError, TypeError, ValueError) as exc:
            raise PluginFailed(f"textract response is malformed: {type(exc).__name__}: {exc}") from exc
        version = (response.get("AnalyzeDocumentModelVersion")
                   or response.get("DetectDocumentTextModelVersion") or "")
        return OcrPage(width=width, height=height, words=tuple(words), engine="textract",
                       version=str(version))
