"""OCR results cached by page content and engine fingerprint, never by file name, so a
second detector on the same pages runs no OCR (the LeakageBench protocol: OCR once, many
detectors on the same word boxes)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from PIL import Image

from redactor.model import OcrPage
from redactor.render import atomic_output


def image_hash(image: Image.Image) -> str:
    """Hash of the decoded pixels: the same page re-encoded (PNG vs TIFF) hits the cache."""
    h = hashlib.sha256()
    h.update(f"{image.mode}:{image.width}x{image.height}:".encode())
    h.update(image.tobytes())
    return h.hexdigest()


class OcrCache:
    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    def _path(self, fingerprint: str, content_hash: str) -> Path:
        fp = hashlib.sha256(fingerprint.encode()).hexdigest()[:16]
        return self.folder / fp / content_hash[:2] / f"{content_hash}.json"

    def get(self, fingerprint: str, content_hash: str) -> tuple[OcrPage, float] | None:
        path = self._path(fingerprint, content_hash)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("fingerprint") != fingerprint:
                return None
            return OcrPage.from_json(data["page"]), float(data.get("seconds", 0.0))
        except (OSError, ValueError, KeyError, TypeError):
            return None     # a missing or damaged entry is just a miss

    def put(self, fingerprint: str, content_hash: str, page: OcrPage, seconds: float) -> None:
        path = self._path(fingerprint, content_hash)
        data = {"fingerprint": fingerprint, "seconds": seconds, "page": page.to_json("")}
        with atomic_output(path) as tmp:
            tmp.write_text(json.dumps(data), encoding="utf-8")
