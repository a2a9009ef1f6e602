"""Checks a redacted page by reading it again: OCR the output, run the same detectors, and
look for any critical identifier still found or any redacted value still recoverable.

A redaction tool is trusted only if its outputs are clean when read the way an attacker
would read them; this is that reading.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from PIL import Image

from redactor.model import PageResult
from redactor.taxonomy import is_critical

_MIN_VALUE_CHARS = 4     # shorter normalised values ("CA", "12") occur by chance
BURNED_SHARE = 0.9       # a finding this much under the burned-in boxes is a reading of them


def normalise(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


@dataclass
class Verification:
    ok: bool
    findings: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)


def _covered_share(box, boxes) -> float:
    """Share of ``box``'s area lying under the union of ``boxes`` (shapely does the union)."""
    from shapely.geometry import box as rect
    from shapely.ops import unary_union

    area = rect(*box).area
    if area <= 0 or not boxes:
        return 0.0
    return rect(*box).intersection(unary_union([rect(*b) for b in boxes])).area / area


def verify_page(redactor, redacted: Image.Image, result: PageResult) -> Verification:
    """Read ``redacted`` with the redactor's own OCR and detectors."""
    if redactor.ocr is None:   # OCR-free systems: nothing of ours to read the page with
        return Verification(ok=True, findings=[{"note": "no OCR backend to verify with"}])
    page = redactor.read(redacted)
    findings: list[dict] = []
    pad = float(redactor.config.pad or 0.0)
    burned = [(x0 - pad, y0 - pad, x1 + pad, y1 + pad) for x0, y0, x1, y1 in
              (r.bbox for r in result.redactions)]
    # Unfiltered: a critical identifier the run was told to leave (--types) is still a
    # critical identifier on a page about to be published.
    for span in redactor.detect(page, apply_filters=False):
        if not is_critical(span.type):
            continue
        al = redactor.locate(page, [span])
        for r in al.redactions:
            if _covered_share(r.bbox, burned) >= BURNED_SHARE:
                continue   # OCR's reading of a black box ("iy" after "Contact:"): nothing shows
            findings.append({"reason": "detected", "type": span.type, "value": span.text,
                             "bbox": [round(v, 1) for v in r.bbox]})
    text = normalise(page.text)
    for r in result.redactions:
        value = normalise(r.value)
        if is_critical(r.type) and len(value) >= _MIN_VALUE_CHARS and value in text:
            findings.append({"reason": "recoverable", "type": r.type, "value": r.value,
                             "bbox": [round(v, 1) for v in r.bbox]})
    return Verification(ok=not findings, findings=findings)
