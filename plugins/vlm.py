"""OCR-free system ``vlm``: a vision-language model behind any OpenAI-compatible
chat-completions endpoint looks at the page image and answers with JSON boxes.

The request carries the page image (a base64 ``data:`` URL image part) and, in the prompt,
the full schema of the answer and of our taxonomy. Boxes come back normalised to 0-999
(0 = left/top edge, 999 = right/bottom edge of the image sent) or, when the answer says
``"coords": "pixels"``, in pixels of the image sent; either way they are mapped to pixels of
the page. An answer that is not valid JSON, is truncated, misses a field or has a box out of
range makes the page invalid (``PluginFailed``, recorded as the page's error), never a crash.

With ``refine=True`` (the tool-assisted configuration) a first pass proposes regions, each
region is cropped from the full-resolution page and zoomed, and the model's answer on each
crop is the final prediction for that region.

HTTP goes through ``plugins._openai_chat`` (urllib, no SDK), the client the Doc-PP harness
uses too. The API key is read from ``$REDACTOR_VLM_API_KEY``, else ``$OPENAI_API_KEY`` (or the
variable named by ``api_key_env``); a loopback endpoint (a local llama.cpp or vLLM server)
needs none.

Leaves the machine: the page image (and crops of it), to ``base_url``.
"""
from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import logging
import math
import os
import re
import urllib.parse
from dataclasses import dataclass
from typing import Any

import yaml
from PIL import Image

from redactor_plugins._image_payload import EncodedImage, encode_within
from redactor_plugins._openai_chat import (ChatEndpoint, EndpointError, api_key_from_env, first_choice,
                                  is_http_url)
from redactor_plugins._options import as_bool, as_choice, as_float, as_int
from redactor_plugins._regions import crop_regions
from redactor_plugins._response_cache import ResponseCache
from redactor.plugin_api import (fine_types, group_of, InputError, load_label_mapping, mapping_file,
                                OcrFreeSystem, PluginFailed, PluginUnavailable, Redaction)

log = logging.getLogger(__name__)

KEY_ENVS = ("REDACTOR_VLM_API_KEY", "OPENAI_API_KEY")
BASE_URL_ENV = "REDACTOR_VLM_BASE_URL"
MODEL_ENV = "REDACTOR_VLM_MODEL"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
NORMALISED_MAX = 999
NORMALISED_NAMES = {"normalized_0_999", "normalised_0_999", "normalized", "normalised", "0-999"}
PIXEL_NAMES = {"pixels", "pixel", "px"}
RESPONSE_FORMATS = ("json_schema", "json_object", "json_object_schema", "none")


class AnswerInvalid(PluginFailed):
    """The model answered, but not with what the schema asks for."""


class RequestFailed(PluginFailed):
    """The endpoint could not be reached or refused the request."""


# --- schema and prompt -------------------------------------------------------------------

def answer_schema(types: list[str]) -> dict[str, Any]:
    """JSON schema of the answer the model must give."""
    return {
        "type": "object",
        "properties": {
            "coords": {"type": "string", "enum": ["normalized_0_999", "pixels"]},
            "redactions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string", "enum": list(types)},
                        "bbox": {"type": "array", "items": {"type": "number"},
                                 "minItems": 4, "maxItems": 4},
                        "value": {"type": "string"},
                    },
                    "required": ["type", "bbox"],
                },
            },
        },
        "required": ["coords", "redactions"],
    }


def taxonomy_descriptions() -> dict[str, str]:
    data = yaml.safe_load(mapping_file("vlm.yaml").read_text()) or {}
    return {str(k): str(v) for k, v in (data.get("descriptions") or {}).items()}


_TASKS = {
    "detect": ("Find every piece of personal data visible on this document page image and "
               "give one box per item, tight around its text (a multi-line address is one box)."),
    "propose": ("First pass of two: mark every region of this document page that may contain "
                "personal data. Generous boxes are fine: each region will be cropped and zoomed "
                "for a closer look."),
    "refine": ("This image is a zoomed crop of a document page. Find every piece of personal "
               "data visible in this crop and give one box per item, tight around its text, in "
               "coordinates of this crop image."),
}


def build_prompt(stage: str, width: int, height: int, schema: dict[str, Any],
                 descriptions: dict[str, str]) -> tuple[str, str]:
    """(system prompt, user text) for one request on an image of ``width`` x ``height``."""
    rows = "\n".join(f"- {t} ({group_of(t)}): {descriptions.get(t, t.lower())}" for t in fine_types())
    system = (
        "You are a document redaction assistant. You locate personal data on page images and "
        "answer with JSON only, no prose, no code fences.\n\n"
        f"Types (type (risk group): meaning):\n{rows}\n\n"
        "Answer with one JSON object that follows this JSON schema exactly:\n"
        f"{json.dumps(schema, indent=1)}\n\n"
        "bbox is [x0, y0, x1, y1] with x0 < x1 and y0 < y1. With \"coords\": \"normalized_0_999\" "
        "each coordinate is an integer from 0 to 999, where 0 is the left/top edge and 999 the "
        "right/bottom edge of the image. With \"coords\": \"pixels\" coordinates are pixels of "
        f"the image, which is {width} x {height} pixels. \"value\" is the text inside the box. "
        "If there is no personal data, answer {\"coords\": \"normalized_0_999\", \"redactions\": []}.")
    user = f"{_TASKS[stage]} The image is {width} x {height} pixels."
    return system, user


# --- answer parsing ----------------------------------------------------------------------

@dataclass(frozen=True)
class Box:
    bbox: tuple[float, float, float, float]     # pixels of the image sent
    type: str
    value: str


_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def _number(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise AnswerInvalid(f"vlm answer invalid: {where} is not a finite number: {value!r}")
    return float(value)


def parse_answer(content: str | None, width: int, height: int,
                 mapping: dict[str, str]) -> list[Box]:
    """The model's answer -> boxes in pixels of the ``width`` x ``height`` image it saw.
    Raises AnswerInvalid on anything the schema does not allow."""
    if content is None or not str(content).strip():
        raise AnswerInvalid("vlm answer invalid: empty answer")
    text = str(content).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AnswerInvalid(f"vlm answer invalid: not JSON ({exc.msg} at char {exc.pos}): "
                            f"{text[:80]!r}") from None
    if not isinstance(data, dict):
        raise AnswerInvalid(f"vlm answer invalid: expected a JSON object, got {type(data).__name__}")
    if "redactions" not in data:
        raise AnswerInvalid("vlm answer invalid: missing field 'redactions'")
    items = data["redactions"]
    if not isinstance(items, list):
        raise AnswerInvalid("vlm answer invalid: 'redactions' is not a list")
    coords = str(data.get("coords", "normalized_0_999")).strip().lower()
    if coords in NORMALISED_NAMES:
        limit_x = limit_y = float(NORMALISED_MAX)
        scale_x, scale_y = width / NORMALISED_MAX, height / NORMALISED_MAX
    elif coords in PIXEL_NAMES:
        limit_x, limit_y, scale_x, scale_y = float(width), float(height), 1.0, 1.0
    else:
        raise AnswerInvalid(f"vlm answer invalid: unknown coords {data.get('coords')!r}")
    boxes = []
    for i, item in enumerate(items):
        where = f"redactions[{i}]"
        if not isinstance(item, dict):
            raise AnswerInvalid(f"vlm answer invalid: {where} is not an object")
        for key in ("type", "bbox"):
            if key not in item:
                raise AnswerInvalid(f"vlm answer invalid: {where} misses field {key!r}")
        bbox = item["bbox"]
        if not isinstance(bbox, list) or len(bbox) != 4:
            raise AnswerInvalid(f"vlm answer invalid: {where}.bbox is not 4 numbers: {bbox!r}")
        x0, y0, x1, y1 = (_number(v, f"{where}.bbox") for v in bbox)
        if not (0 <= x0 < x1 <= limit_x and 0 <= y0 < y1 <= limit_y):
            raise AnswerInvalid(f"vlm answer invalid: {where}.bbox {bbox} out of range for "
                                f"coords {coords} (0..{limit_x:g} x 0..{limit_y:g})")
        label = str(item["type"]).strip()
        fine = mapping.get(label) or mapping.get(label.upper()) or "OTHER"
        value = item.get("value", "")
        boxes.append(Box((x0 * scale_x, y0 * scale_y, x1 * scale_x, y1 * scale_y), fine,
                         value if isinstance(value, str) else str(value)))
    return boxes


# --- regions for the second pass ---------------------------------------------------------



# --- the endpoint ------------------------------------------------------------------------

def _is_loopback(url: str) -> bool:
    host = urllib.parse.urlparse(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class VlmSystem(OcrFreeSystem):
    """A vision-language model on an OpenAI-compatible chat-completions endpoint."""

    name = "vlm"
    mapping_file = "vlm.yaml"

    def __init__(self, base_url: str | None = None, model: str | None = None,
                 api_key_env: str | None = None, response_format="json_schema", max_side=1568,
                 max_tokens=4096, temperature=0.0, timeout=180, refine=False, max_crops=8,
                 crop_side=1024, crop_margin=0.02, max_retries=2, retry_base_delay=1.0,
                 max_image_bytes=15_000_000, cache=True, cache_dir: str | None = None, **unknown):
        if unknown:
            raise InputError(f"vlm: unknown option(s) {', '.join(sorted(unknown))}")
        self.base_url = (base_url or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")
        if not is_http_url(self.base_url):
            raise InputError(f"vlm: base_url must be an http(s) URL, got {self.base_url!r}")
        self.model = model or os.environ.get(MODEL_ENV)
        if not self.model:
            raise InputError(f"vlm: no model given (option model or ${MODEL_ENV})")
        envs = (api_key_env,) if api_key_env else KEY_ENVS
        self.api_key = api_key_from_env(envs)
        if not self.api_key and not _is_loopback(self.base_url):
            raise PluginUnavailable(f"vlm: no API key for {self.base_url} (set {' or '.join(envs)})")
        self.response_format = as_choice("response_format", response_format, RESPONSE_FORMATS)
        self.max_side = as_int("max_side", max_side, 64, 10000)
        self.max_tokens = as_int("max_tokens", max_tokens, 16, 1_000_000)
        self.temperature = as_float("temperature", temperature, 0.0, 2.0)
        self.timeout = as_float("timeout", timeout, 1.0, 3600.0)
        self.refine = as_bool("refine", refine)
        self.max_crops = as_int("max_crops", max_crops, 1, 100)
        self.crop_side = as_int("crop_side", crop_side, 64, 10000)
        self.crop_margin = as_float("crop_margin", crop_margin, 0.0, 0.5)
        self.max_retries = as_int("max_retries", max_retries, 0, 20)
        self.retry_base_delay = as_float("retry_base_delay", retry_base_delay, 0.0, 60.0)
        self.max_image_bytes = as_int("max_image_bytes", max_image_bytes, 10_000, 100_000_000)
        self.cache = ResponseCache(cache_dir, enabled=as_bool("cache", cache))
        self.endpoint = ChatEndpoint(self.base_url, self.api_key, self.timeout, self.max_retries,
                                     self.retry_base_delay, name=self.base_url)
        self.mapping = load_label_mapping(self.mapping_file)
        self.types = list(fine_types())
        self.schema = answer_schema(self.types)
        self.descriptions = taxonomy_descriptions()

    def describe(self) -> str:
        return f"vlm {self.model} at {self.base_url}{' (refine)' if self.refine else ''}"

    # one request

    def _body(self, stage: str, encoded: EncodedImage) -> dict[str, Any]:
        system, user = build_prompt(stage, encoded.width, encoded.height, self.schema, self.descriptions)
        url = f"data:{encoded.mime};base64,{base64.b64encode(encoded.data).decode('ascii')}"
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": system},
                         {"role": "user", "content": [{"type": "text", "text": user},
                                                      {"type": "image_url", "image_url": {"url": url}}]}],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if self.response_format == "json_schema":
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "redactions", "schema": self.schema}}
        elif self.response_format == "json_object":
            body["response_format"] = {"type": "json_object"}
        elif self.response_format == "json_object_schema":   # llama-cpp-python's form
            body["response_format"] = {"type": "json_object", "schema": self.schema}
        return body

    def _post(self, payload: bytes) -> dict[str, Any]:
        try:
            return self.endpoint.post(payload)
        except EndpointError as exc:
            if exc.status in (401, 403):    # no retry can help: the page cannot run here
                raise PluginUnavailable(f"vlm: {self.base_url} refused the credentials "
                                        f"(HTTP {exc.status}): {exc.detail}") from exc
            raise RequestFailed(f"vlm request failed: {exc}") from exc

    def ask(self, stage: str, image) -> list[Box]:
        """One request on ``image`` (the page or a crop); boxes in pixels of ``image``."""
        encoded = encode_within(image, self.max_image_bytes, self.max_side)
        body = self._body(stage, encoded)
        payload = json.dumps(body).encode("utf-8")
        digest = hashlib.sha256(payload).hexdigest()
        response = self.cache.fetch("vlm", "chat.completions", {"base_url": self.base_url}, digest,
                                    lambda: self._post(payload))
        try:
            content, finish = first_choice(response)
        except ValueError as exc:
            raise AnswerInvalid(f"vlm answer invalid: {exc}: {json.dumps(response)[:120]}") from None
        if finish == "length":
            raise AnswerInvalid(f"vlm answer invalid: truncated at max_tokens={self.max_tokens}")
        boxes = parse_answer(content, encoded.width, encoded.height, self.mapping)
        sx, sy = image.size[0] / encoded.width, image.size[1] / encoded.height
        return [Box((b.bbox[0] * sx, b.bbox[1] * sy, b.bbox[2] * sx, b.bbox[3] * sy), b.type, b.value)
                for b in boxes]

    # the page

    def redact_page(self, image) -> list[Redaction]:
        if image.mode != "RGB":
            image = image.convert("RGB")
        first = self.ask("propose" if self.refine else "detect", image)
        if not self.refine:
            return [self._redaction(b.bbox, b, image.size) for b in first]
        width, height = image.size
        margin = self.crop_margin * max(width, height)
        regions = crop_regions([b.bbox for b in first], width, height, margin)
        out: list[Redaction] = []
        for region in regions[:self.max_crops]:
            x0, y0, x1, y1 = region
            crop = image.crop(region)
            zoom = self.crop_side / max(crop.size)
            zoomed = crop.resize((max(1, round(crop.size[0] * zoom)), max(1, round(crop.size[1] * zoom))),
                                 resample=Image.BICUBIC)
            fx, fy = crop.size[0] / zoomed.size[0], crop.size[1] / zoomed.size[1]
            for b in self.ask("refine", zoomed):
                bx0, by0, bx1, by1 = b.bbox
                out.append(self._redaction((x0 + bx0 * fx, y0 + by0 * fy, x0 + bx1 * fx, y0 + by1 * fy),
                                           b, image.size))
        # Regions beyond max_crops keep the first pass's boxes: redacted, just not refined.
        for region in regions[self.max_crops:]:
            for b in first:
                if (region[0] <= b.bbox[0] and region[1] <= b.bbox[1]
                        and b.bbox[2] <= region[2] and b.bbox[3] <= region[3]):
                    out.append(self._redaction(b.bbox, b, image.size))
        return out

    def _redaction(self, bbox, box: Box, size: tuple[int, int]) -> Redaction:
        # Clip away float noise of the scaling: the contract rejects a box past the page.
        x0, y0, x1, y1 = (float(v) for v in bbox)
        w, h = size
        clipped = (min(max(x0, 0.0), w), min(max(y0, 0.0), h), min(max(x1, 0.0), w), min(max(y1, 0.0), h))
        return Redaction(bbox=clipped, type=box.type, value=box.value, score=1.0, sources=(self.name,))
