"""The document as a model sees it: page images as base64 PNG image parts (the paper's
image condition) or text read by one of our OCR plugins (its OCR condition), or the text a
record carries (transcripts)."""
from __future__ import annotations

import base64
import io
from functools import lru_cache
from pathlib import Path

from redactor.errors import InputError

DOC_MODES = ("image", "ocr", "text")


def _png_b64(path: str, max_side: int) -> str:
    from PIL import Image
    try:
        img = Image.open(path)
        img.load()
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read page image {path}: {exc}") from None
    img = img.convert("RGB")
    if max(img.size) > max_side:
        img.thumbnail((max_side, max_side))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode("ascii")


@lru_cache(maxsize=256)
def ocr_text(path: str, engine: str = "tesseract") -> str:
    from PIL import Image
    from redactor import registry
    ocr = registry.create("ocr", engine)
    with Image.open(path) as img:
        return ocr.read(img.convert("RGB")).text


class DocumentRenderer:
    """Builds the content parts that carry a record's document."""

    def __init__(self, mode: str = "image", ocr_engine: str = "tesseract", max_side: int = 1600):
        if mode not in DOC_MODES:
            raise InputError(f"document mode must be one of {', '.join(DOC_MODES)}, not {mode!r}")
        self.mode, self.ocr_engine, self.max_side = mode, ocr_engine, max_side

    def parts(self, record) -> list[dict]:
        if self.mode == "text" or not record.pages:
            if record.text is None:
                raise InputError(f"record {record.id}: no document text (and no pages) for mode {self.mode}")
            return [{"type": "text", "text": f"Document:\n{record.text}"}]
        for p in record.pages:
            if not Path(p).is_file():
                raise InputError(f"record {record.id}: page image {p} not found")
        if self.mode == "image":
            return [{"type": "image_url",
                     "image_url": {"url": f"data:image/png;base64,{_png_b64(p, self.max_side)}"}}
                    for p in record.pages]
        text = "\n\n".join(f"[page {i + 1}]\n{ocr_text(p, self.ocr_engine)}"
                           for i, p in enumerate(record.pages))
        return [{"type": "text", "text": f"Document (OCR text):\n{text}"}]
