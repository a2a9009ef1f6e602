"""Encoding a page image for upload under a vendor's byte and side limits.

Lossless PNG first (the best input for the vendor's OCR), then JPEG, then smaller scales,
until the bytes fit. The result says the size actually sent, so boxes that come back in
the sent image's pixels are mapped to the original page by :meth:`EncodedImage.to_page`.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

from redactor.plugin_api import PluginFailed

_JPEG_QUALITIES = (90, 75)
_SCALES = (1.0, 0.85, 0.7, 0.6, 0.5, 0.42, 0.35, 0.3, 0.25)


@dataclass(frozen=True)
class EncodedImage:
    data: bytes
    format: str          # "PNG" or "JPEG"
    width: int           # size of the image sent
    height: int
    page_width: int      # size of the page as given to the plugin
    page_height: int

    @property
    def mime(self) -> str:
        return "image/png" if self.format == "PNG" else "image/jpeg"

    @property
    def rescaled(self) -> bool:
        return (self.width, self.height) != (self.page_width, self.page_height)

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """A point in the sent image's pixels -> the page's pixels."""
        return (x * self.page_width / self.width, y * self.page_height / self.height)


def _encode(image: Image.Image, fmt: str, quality: int = 90) -> bytes:
    buf = io.BytesIO()
    if fmt == "PNG":
        image.save(buf, format="PNG")
    else:
        image.convert("RGB").save(buf, format="JPEG", quality=quality, subsampling=0)
    return buf.getvalue()


def _upload_mode(image: Image.Image) -> Image.Image:
    if image.mode in ("L", "RGB"):
        return image
    if image.mode in ("1", "I;16", "I", "F"):
        return image.convert("L")
    return image.convert("RGB")


def encode_within(image: Image.Image, max_bytes: int, max_side: int | None = None,
                  allow_jpeg: bool = True) -> EncodedImage:
    """The first encoding of ``image`` that fits in ``max_bytes`` (and ``max_side`` pixels
    on the longer side). Raises PluginFailed when even a quarter-scale JPEG does not fit."""
    page_w, page_h = image.size
    base = _upload_mode(image)
    first_scale = 1.0
    if max_side and max(page_w, page_h) > max_side:
        first_scale = max_side / max(page_w, page_h)
    for factor in _SCALES:
        scale = first_scale * factor
        w, h = max(1, round(page_w * scale)), max(1, round(page_h * scale))
        scaled = base if (w, h) == (page_w, page_h) else base.resize((w, h), Image.LANCZOS)
        attempts = [("PNG", 0)] + ([("JPEG", q) for q in _JPEG_QUALITIES] if allow_jpeg else [])
        for fmt, quality in attempts:
            data = _encode(scaled, fmt, quality)
            if len(data) <= max_bytes:
                return EncodedImage(data, fmt, w, h, page_w, page_h)
    raise PluginFailed(f"page image ({page_w}x{page_h}) cannot be encoded under "
                       f"{max_bytes} bytes even at a quarter of its size")
