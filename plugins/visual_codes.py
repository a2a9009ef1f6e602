"""QR codes and barcodes: located and decoded with OpenCV, redacted whole.

A code encodes names, account and order numbers, links to a person's profile: whatever it
holds, anyone with a phone reads it, so the whole symbol is burnt (its finder patterns and
quiet zone carry no data, but a partial symbol can still decode thanks to error correction).
The decoded text goes into the redaction's value (hidden in published files) and decides
the type:
- a URL (scheme or www.) -> ONLINE_ID; an e-mail address (or mailto:) -> EMAIL; a tel:
  link -> PHONE;
- otherwise by the label printed beside the code, as forms and shipping labels print it
  ("Account No.", "Customer ID" -> ACCOUNT_NUMBER; "Order", "Invoice", "Tracking", "Ref."
  -> REFERENCE_NUMBER);
- otherwise OTHER (a code that was located but could not be decoded is OTHER too); a
  label decides only for an identifier (one short line with digits), not for a contact
  card or prose, which the run's text detectors type instead (``redactor.visual``: a
  vCard's name makes it PERSON).

QR codes: ``cv2.QRCodeDetectorAruco`` (robust finder-pattern search, several codes per
page), with the classic ``cv2.QRCodeDetector`` as a second opinion. Barcodes (EAN-8/13,
UPC-A/E and the other 1-D symbologies OpenCV reads): ``cv2.barcode.BarcodeDetector``;
its box is grown to the bars' ink.
"""
from __future__ import annotations

import re

import numpy as np

from redactor.plugin_api import OcrPage, Redaction, VisualDetector, iou
from redactor_plugins._options import as_bool
from redactor_plugins.visual_common import alnum, gray_of, words_of

URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|www\.)\S+", re.I)
EMAIL = re.compile(r"^(?:mailto:)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+", re.I)
PHONE = re.compile(r"^tel:", re.I)
# what a printed label can name: one short line of letters, digits and separators, with digits
IDENTIFIER = re.compile(r"^(?=.*\d)[A-Z0-9][A-Z0-9 #:/.\-]{0,39}$", re.I)
ACCOUNT_LABELS = {"account", "acct", "acc", "customer", "member", "policy", "iban", "client"}
REFERENCE_LABELS = {"order", "invoice", "inv", "ref", "reference", "tracking", "shipment",
                    "case", "ticket", "po", "booking", "confirmation", "receipt", "parcel"}
LABEL_REACH = 3.0      # a label counts within 3 code sizes to the left of or above the code
PAD = 2.0              # pixels round the symbol (anti-aliased module edges)


def type_of(text: str, label_words: list[str]) -> str:
    """``label_words``: the words round the code, nearest first."""
    t = text.strip()
    if URL.match(t):
        return "ONLINE_ID"
    if EMAIL.match(t):
        return "EMAIL"
    if PHONE.match(t):
        return "PHONE"
    if not IDENTIFIER.match(t):
        return "OTHER"           # a label names a number; a contact card or prose is typed by its text
    for w in label_words:        # the nearest label decides
        a = alnum(w)
        if a in ACCOUNT_LABELS:
            return "ACCOUNT_NUMBER"
        if a in REFERENCE_LABELS:
            return "REFERENCE_NUMBER"
    return "OTHER"


def _box(points) -> tuple[float, float, float, float]:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))


def _grow_to_ink(gray: np.ndarray, box, reach: float):
    """The extent of the bars the detector's box touches, looked for within ``reach`` of it
    (the detector's box is not ink-tight: it can stop short of the outer bars or run past
    them into the quiet zone)."""
    import cv2

    H, W = gray.shape
    x0, y0, x1, y1 = box
    m = int(reach)
    c0, r0 = max(0, int(x0) - m), max(0, int(y0) - m)
    c1, r1 = min(W, int(np.ceil(x1)) + m), min(H, int(np.ceil(y1)) + m)
    sub = gray[r0:r1, c0:c1]
    if sub.size == 0 or int(sub.min()) == int(sub.max()):
        return box
    t = cv2.threshold(sub, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
    ink = (sub <= t).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    bx0 = by0 = float("inf")
    bx1 = by1 = float("-inf")
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        gx0, gy0, gx1, gy1 = c0 + x, r0 + y, c0 + x + w, r0 + y + h
        # a bar: overlaps the detected box and is no wider than a third of it
        if gx1 > x0 and gx0 < x1 and gy1 > y0 and gy0 < y1 and w <= (x1 - x0) / 3 + 2:
            bx0, by0, bx1, by1 = min(bx0, gx0), min(by0, gy0), max(bx1, gx1), max(by1, gy1)
    if bx1 <= bx0 or by1 <= by0:
        return box
    return (float(bx0), float(by0), float(bx1), float(by1))


class CodeDetector(VisualDetector):
    name = "codes"

    @classmethod
    def emits(cls) -> frozenset[str]:
        return frozenset({"ONLINE_ID", "EMAIL", "PHONE", "ACCOUNT_NUMBER", "REFERENCE_NUMBER", "OTHER"})

    @classmethod
    def unavailable_reason(cls) -> str | None:
        try:
            import cv2
        except ImportError:
            return "opencv-python-headless is not installed"
        if not hasattr(cv2, "QRCodeDetector"):
            return "this OpenCV build has no QR code detector"
        return None

    def __init__(self, barcodes: bool = True):
        self.barcodes = as_bool("barcodes", barcodes)

    def find(self, image, page: OcrPage | None) -> list[Redaction]:
        gray = gray_of(image)
        found: list[tuple[tuple, str]] = []   # (box, decoded text)
        for box, text in self._qr(gray) + (self._bars(gray) if self.barcodes else []):
            same = [i for i, (b, _) in enumerate(found) if iou(b, box) > 0.5]
            if same:
                i = same[0]
                if text and not found[i][1]:
                    found[i] = (found[i][0], text)
                continue
            found.append((box, text))
        words = words_of(page)
        out = []
        H, W = gray.shape
        for (x0, y0, x1, y1), text in found:
            box = (max(0.0, x0 - PAD), max(0.0, y0 - PAD), min(float(W), x1 + PAD), min(float(H), y1 + PAD))
            size = max(x1 - x0, y1 - y0)
            near = [w for w in words
                    if w.bbox[2] >= x0 - LABEL_REACH * size and w.bbox[0] <= x1
                    and w.bbox[3] >= y0 - LABEL_REACH * size and w.bbox[1] <= y1
                    and not (w.bbox[0] >= x0 and w.bbox[2] <= x1 and w.bbox[1] >= y0 and w.bbox[3] <= y1)]
            near.sort(key=lambda w: (max(0.0, x0 - w.bbox[2], w.bbox[0] - x1) ** 2
                                     + max(0.0, y0 - w.bbox[3], w.bbox[1] - y1) ** 2))
            near = [w.text for w in near]
            kind = type_of(text, near) if text else "OTHER"
            out.append(Redaction(box, kind, text, 0.95 if text else 0.7, (self.name,)))
        return out

    @staticmethod
    def _qr(gray):
        import cv2

        out = []
        detectors = []
        if hasattr(cv2, "QRCodeDetectorAruco"):
            detectors.append(cv2.QRCodeDetectorAruco())
        detectors.append(cv2.QRCodeDetector())
        for det in detectors:
            try:
                ok, texts, points, _ = det.detectAndDecodeMulti(gray)
            except cv2.error:
                continue
            if not ok or points is None:
                continue
            for text, pts in zip(texts, points):
                box = _box(pts)
                if box[2] - box[0] < 8 or box[3] - box[1] < 8:
                    continue
                if any(iou(b, box) > 0.5 for b, _ in out):
                    continue
                out.append((box, text or ""))
            if out and all(t for _, t in out):
                break
        return out

    @staticmethod
    def _bars(gray):
        import cv2

        if not hasattr(cv2, "barcode"):
            return []
        try:
            ok, texts, _types, points = cv2.barcode.BarcodeDetector().detectAndDecodeWithType(gray)
        except cv2.error:
            return []
        if not ok or points is None:
            return []
        out = []
        for text, pts in zip(texts, points):
            box = _box(pts)
            if box[2] - box[0] < 8 or box[3] - box[1] < 4:
                continue
            out.append((_grow_to_ink(gray, box, reach=0.1 * (box[2] - box[0])), text or ""))
        return out
