"""Pixel measures on the original page image: which gold identifiers are still visible
(ink-covered or not) and how much other ink the predicted boxes destroyed (collateral).

Ink is Otsu's dark class of the grayscale page: pixels <= the threshold OpenCV returns for
the whole page. A page of a single grey level has no ink. A box covers the pixels
floor(x0)..ceil(x1)-1 by floor(y0)..ceil(y1)-1 (pixel i spans [i, i+1)), clipped to the page.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from redactor.errors import InputError

# A gold is ink-covered when this share of its ink lies under predicted boxes ...
INK_SHARE = (98, 100)
# ... and a gold with fewer ink pixels than this is judged by area instead, at this share.
MIN_INK_PIXELS = 10
AREA_SHARE = (90, 100)


def load_gray(path: Path, width: int, height: int) -> np.ndarray:
    """The page as 8-bit grayscale, as stored on disk (EXIF orientation is not applied:
    the contract's coordinates are those of the stored image)."""
    import cv2

    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as exc:
        raise InputError(f"image {path} cannot be read: {exc.strerror or exc}") from None
    gray = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE | cv2.IMREAD_IGNORE_ORIENTATION)
    if gray is None:
        raise InputError(f"image {path} cannot be decoded")
    if gray.shape != (height, width):
        raise InputError(f"image {path.name} is {gray.shape[1]}x{gray.shape[0]}, "
                         f"the dataset says {width}x{height}")
    return gray


def ink_mask(gray: np.ndarray) -> np.ndarray:
    """Otsu's dark class; empty for a page of one grey level. This is the contract's ink
    (docs/leakage-format.md), kept here and not shared with the engine's ink fitting: the
    measure must not move when the engine changes."""
    import cv2

    if gray.size == 0 or int(gray.min()) == int(gray.max()):
        return np.zeros(gray.shape, dtype=bool)
    threshold = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
    return gray <= threshold


def box_slices(bbox: Sequence[float], width: int, height: int) -> tuple[slice, slice]:
    """(rows, cols) of the pixels a box covers, clipped to the page."""
    x0, y0, x1, y1 = bbox
    c0 = min(max(math.floor(x0), 0), width)
    c1 = min(max(math.ceil(x1), 0), width)
    r0 = min(max(math.floor(y0), 0), height)
    r1 = min(max(math.ceil(y1), 0), height)
    return slice(r0, max(r0, r1)), slice(c0, max(c0, c1))


def union_mask(boxes: Sequence[Sequence[float]], width: int, height: int) -> np.ndarray:
    mask = np.zeros((height, width), dtype=bool)
    for box in boxes:
        mask[box_slices(box, width, height)] = True
    return mask


def gold_covered(ink: np.ndarray, hidden: np.ndarray, bbox: Sequence[float]) -> bool:
    """Whether a reader can no longer see this gold: >= 98 % of its ink pixels hidden, or,
    with fewer than 10 ink pixels, >= 90 % of its pixels hidden; a box covering no pixel
    counts as covered."""
    rows, cols = box_slices(bbox, ink.shape[1], ink.shape[0])
    ink_box = ink[rows, cols]
    hidden_box = hidden[rows, cols]
    if ink_box.size == 0:
        return True
    n_ink = int(ink_box.sum())
    if n_ink >= MIN_INK_PIXELS:
        return INK_SHARE[1] * int((ink_box & hidden_box).sum()) >= INK_SHARE[0] * n_ink
    return AREA_SHARE[1] * int(hidden_box.sum()) >= AREA_SHARE[0] * ink_box.size


@dataclass(frozen=True)
class PageInk:
    """Ink measures of one page (pixel counts are kept so they can be pooled)."""
    covered: tuple[bool, ...]       # per gold, in file order
    crit_ink: int                   # ink pixels under critical gold boxes (union)
    crit_ink_hidden: int            # ... of them under predicted boxes
    other_ink: int                  # ink pixels outside every gold box
    other_ink_hidden: int           # ... of them under predicted boxes (collateral)


def page_ink(gray: np.ndarray, gold_boxes: Sequence[Sequence[float]],
             gold_critical: Sequence[bool], pred_boxes: Sequence[Sequence[float]]) -> PageInk:
    """Ink measures for one page; ``pred_boxes`` are the valid predicted boxes (any type)."""
    height, width = gray.shape
    ink = ink_mask(gray)
    hidden = union_mask(pred_boxes, width, height)
    covered = tuple(gold_covered(ink, hidden, b) for b in gold_boxes)
    gold_area = union_mask(gold_boxes, width, height)
    crit_area = union_mask([b for b, c in zip(gold_boxes, gold_critical) if c], width, height)
    crit_ink = ink & crit_area
    other_ink = ink & ~gold_area
    return PageInk(covered=covered, crit_ink=int(crit_ink.sum()),
                   crit_ink_hidden=int((crit_ink & hidden).sum()),
                   other_ink=int(other_ink.sum()), other_ink_hidden=int((other_ink & hidden).sum()))


def summarise(pages: list[tuple[PageInk, np.ndarray]]) -> dict:
    """Pool page measures: rows are (PageInk, critical mask of the page's golds)."""
    def leak_share(scope_of) -> float | None:
        total = leaking = 0
        for pi, crit in pages:
            scope = scope_of(crit)
            if scope.any():
                total += 1
                leaking += bool((~np.array(pi.covered, dtype=bool) & scope).any())
        return leaking / total if total else None

    crit_ink = sum(pi.crit_ink for pi, _ in pages)
    other_ink = sum(pi.other_ink for pi, _ in pages)
    return {
        "docleak_ink_all": leak_share(lambda crit: np.ones(len(crit), dtype=bool)),
        "docleak_ink_crit": leak_share(lambda crit: crit),
        "ink_recall_crit": (sum(pi.crit_ink_hidden for pi, _ in pages) / crit_ink
                            if crit_ink else None),
        "collateral": (sum(pi.other_ink_hidden for pi, _ in pages) / other_ink
                       if other_ink else None),
    }
