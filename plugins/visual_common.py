"""Shared pixel helpers of the visual detectors: the page's ink (the contract's Otsu dark
class), the text height of the OCR words, printed rules, and word look-ups."""
from __future__ import annotations

import re

import numpy as np

from redactor.plugin_api import OcrPage, WordBox


def gray_of(image) -> np.ndarray:
    return np.asarray(image.convert("L"), dtype=np.uint8)


def ink_of(gray: np.ndarray) -> np.ndarray:
    """Otsu's dark class of the whole page, as the evaluation contract counts ink (a page of
    one grey level has none)."""
    import cv2

    if gray.size == 0 or int(gray.min()) == int(gray.max()):
        return np.zeros(gray.shape, dtype=bool)
    t = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
    return gray <= t


def words_of(page: OcrPage | None) -> tuple[WordBox, ...]:
    return tuple(page.words) if page is not None else ()


def alnum(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


CONFIDENT = 80.0   # an OCR word read this surely is print (Tesseract reads cursive at < 60)


def text_height(words, page_height: int) -> float:
    """Median height of confidently read words of three letters or more (x-height plus
    ascenders: the body text size); 1.2 % of the page height when there are none (10-12 pt
    type on a letter page scanned at any resolution)."""
    hs = [w.bbox[3] - w.bbox[1] for w in words
          if w.conf >= CONFIDENT and len(alnum(w.text)) >= 3]
    if len(hs) >= 5:
        return float(np.median(hs))
    return max(8.0, 0.012 * page_height)


def rules_mask(ink: np.ndarray, min_len: int, vertical: bool = True) -> np.ndarray:
    """Printed rules: runs of ink at least ``min_len`` long (horizontal, and vertical when
    asked), found by a morphological opening with a line-shaped kernel."""
    import cv2

    u8 = ink.astype(np.uint8)
    out = cv2.morphologyEx(u8, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (min_len, 1)))
    if vertical:
        out |= cv2.morphologyEx(u8, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, min_len)))
    return out.astype(bool)


def horizontal_rules(ink: np.ndarray, min_len: int) -> list[tuple[int, int, int]]:
    """(x0, x1, y) of each horizontal rule at least ``min_len`` long: the signature lines,
    underscores and table borders of forms."""
    import cv2

    u8 = ink.astype(np.uint8)
    hm = cv2.morphologyEx(u8, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (min_len, 1)))
    n, _, stats, _ = cv2.connectedComponentsWithStats(hm, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        if w >= min_len and h <= max(6, min_len // 8):
            out.append((int(x), int(x + w), int(y + h // 2)))
    return out


def words_in(words, box, share: float = 0.5):
    """Words lying at least ``share`` of their area inside ``box``."""
    x0, y0, x1, y1 = box
    out = []
    for w in words:
        a, b, c, d = w.bbox
        area = max(1e-6, (c - a) * (d - b))
        iw = max(0.0, min(c, x1) - max(a, x0))
        ih = max(0.0, min(d, y1) - max(b, y0))
        if iw * ih >= share * area:
            out.append(w)
    return out
