"""Fitting redaction boxes to the ink they are meant to hide.

OCR word boxes cut glyphs: descenders, accents, a digit half outside the box, a box drawn
from a slightly skewed line. Per box this module binarises a neighbourhood crop (Otsu),
finds the connected ink components the box touches and grows the box over them, within
bounds relative to the text height so that a neighbouring word (its own components, not
touched by the box) is never swallowed and a long rule line or table border is ignored.
It can shrink empty margins, then pads by a share of the text height, clipped to the page.
Pure functions on numpy arrays; the Redaction-level wrapper keeps everything but the box.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import cv2
import numpy as np

from redactor.errors import InputError
from redactor.model import BBox, Redaction

# Defaults, all relative to the text height h of the box.
PAD_FRAC = 0.0           # padding on every side (callers may ask for some): OCR word boxes
                         # are already tight to the ink, and every pixel of padding costs IoU
                         # against a tight gold box (measured: docs/detection.md)
MIN_INSIDE = 0.3         # share of a touched component that must lie inside the box ...
MIN_INSIDE_OFF_LINE = 0.6   # ... or, when its centre is above/below the box (a glyph of the
                            # next line caught in the corner of a skewed line's box), this much
MAX_GROW_X = 0.8         # a cut glyph may pull an edge out by at most this much horizontally
MAX_GROW_Y = 0.6         # ... and vertically (descenders, accents, a line cut in half)
CONTEXT = 1.5            # the neighbourhood crop reaches this far around the box
TALL = 1.6               # components taller than this many box heights span two lines
MIN_CONTRAST = 40        # grey levels between ink and paper below which a crop has no ink


def to_gray(image) -> np.ndarray:
    """A uint8 2-D grey image from a PIL image or a 2-D/3-D numpy array."""
    if hasattr(image, "mode") and hasattr(image, "convert"):
        arr = np.asarray(image.convert("L"))
    else:
        arr = np.asarray(image)
        if arr.ndim == 3 and arr.shape[2] in (3, 4):
            arr = cv2.cvtColor(np.ascontiguousarray(arr[:, :, :3]), cv2.COLOR_RGB2GRAY)
    if arr.ndim != 2 or arr.size == 0:
        raise InputError(f"ink fitting needs a 2-D grey image, got shape {arr.shape}")
    if arr.dtype != np.uint8:
        raise InputError(f"ink fitting needs a uint8 image, got {arr.dtype}")
    return arr


def _check_box(box: Sequence[float], width: int, height: int) -> BBox:
    if len(box) != 4:
        raise InputError(f"a box needs 4 numbers (x0, y0, x1, y1), got {box!r}")
    x0, y0, x1, y1 = (float(v) for v in box)
    if not (x0 < x1 and y0 < y1) or any(np.isnan([x0, y0, x1, y1])):
        raise InputError(f"box {box!r} is empty or reversed")
    if x1 <= 0 or y1 <= 0 or x0 >= width or y0 >= height:
        raise InputError(f"box {box!r} lies outside the {width}x{height} page")
    return x0, y0, x1, y1


def _ink_mask(crop: np.ndarray, threshold: float | None) -> np.ndarray:
    """Dark pixels of the crop: Otsu's dark class (or ``threshold`` when given)."""
    lo, hi = int(crop.min()), int(crop.max())
    if threshold is None:
        if hi - lo < MIN_CONTRAST:
            return np.zeros(crop.shape, dtype=np.uint8)
        threshold, _ = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return (crop <= threshold).astype(np.uint8)


def fit_box(gray: np.ndarray, box: Sequence[float], *, pad_frac: float = PAD_FRAC,
            max_grow_x: float = MAX_GROW_X, max_grow_y: float = MAX_GROW_Y, shrink: bool = False,
            threshold: float | None = None) -> BBox:
    """One box fitted to the ink it touches (see the module docstring). ``threshold``
    overrides the local Otsu threshold (e.g. the page's own, as the ink metric uses)."""
    H, W = gray.shape
    x0, y0, x1, y1 = _check_box(box, W, H)
    h = y1 - y0
    # neighbourhood crop (integer pixel grid, clipped to the page)
    cx0 = int(max(0, np.floor(x0 - CONTEXT * h)))
    cy0 = int(max(0, np.floor(y0 - CONTEXT * h)))
    cx1 = int(min(W, np.ceil(x1 + CONTEXT * h)))
    cy1 = int(min(H, np.ceil(y1 + CONTEXT * h)))
    crop = gray[cy0:cy1, cx0:cx1]
    mask = _ink_mask(crop, threshold)
    # the box in crop pixels: pixels [bx0, bx1) x [by0, by1)
    bx0, by0 = int(np.floor(x0)) - cx0, int(np.floor(y0)) - cy0
    bx1, by1 = int(np.ceil(x1)) - cx0, int(np.ceil(y1)) - cy0
    nx0, ny0, nx1, ny1 = x0, y0, x1, y1
    if mask.any():
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        in_box = np.bincount(labels[max(by0, 0):by1, max(bx0, 0):bx1].ravel(), minlength=n)
        glyphs = []
        for lab in np.nonzero(in_box)[0]:
            if lab == 0:
                continue
            sx, sy, sw, sh, area = stats[lab]
            # a rule line, table border or underline: far longer than any glyph; a shaded
            # cell, stamp or picture: far larger than text both ways
            if (sw > 4 * h and sh < 0.35 * h) or (sh > 4 * h and sw < 0.35 * h) or \
                    (sw > 3 * h and sh > 2.5 * h) or (sh > 1.3 * h and sw < 0.12 * sh) or \
                    (sw > 2.5 * h and sh < 0.15 * h):
                continue   # ... or a field's border stroke ("|") or an underline piece
            # a glyph the box cuts belongs to the value when a fair share of it is inside;
            # the first letter of the next word, the tail of a descender from the line above
            # or a glyph of the next line in the corner of a skewed box does not
            centre_in = y0 <= sy + cy0 + sh / 2 <= y1
            if in_box[lab] < (MIN_INSIDE if centre_in else MIN_INSIDE_OFF_LINE) * area:
                continue
            glyphs.append((sx + cx0, sy + cy0, sx + sw + cx0, sy + sh + cy0))
        if glyphs:
            # a component far taller than the box is two lines' glyphs touching (dense
            # scans): it may widen the box but not pull it onto the other line
            glyphs = [g if g[3] - g[1] <= TALL * h else (g[0], max(g[1], y0), g[2], min(g[3], y1))
                      for g in glyphs]
            # text height: the box, or its glyphs when the box cut them (at most doubled)
            gh = float(np.median([g[3] - g[1] for g in glyphs]))
            href = min(max(h, gh), 2 * h)
            gx, gy = max_grow_x * href, max_grow_y * href
            ink_x0 = min(g[0] for g in glyphs)
            ink_y0 = min(g[1] for g in glyphs)
            ink_x1 = max(g[2] for g in glyphs)
            ink_y1 = max(g[3] for g in glyphs)
            nx0 = max(min(x0, ink_x0), x0 - gx)
            ny0 = max(min(y0, ink_y0), y0 - gy)
            nx1 = min(max(x1, ink_x1), x1 + gx)
            ny1 = min(max(y1, ink_y1), y1 + gy)
            if shrink:
                nx0, ny0 = max(nx0, ink_x0), max(ny0, ink_y0)
                nx1, ny1 = min(nx1, ink_x1), min(ny1, ink_y1)
            h = href
    pad = pad_frac * h
    return (float(max(0.0, nx0 - pad)), float(max(0.0, ny0 - pad)),
            float(min(float(W), nx1 + pad)), float(min(float(H), ny1 + pad)))


def fit_boxes_to_ink(gray, boxes: Sequence[Sequence[float]], **options) -> list[BBox]:
    """Each box fitted to its ink by :func:`fit_box` (same options), in the same order."""
    g = to_gray(gray)
    return [fit_box(g, b, **options) for b in boxes]


def fit_redactions_to_ink(image, redactions: Sequence[Redaction], **options) -> list[Redaction]:
    """The redactions with their boxes fitted to the ink of ``image`` (PIL image or array);
    a box never gets smaller than it was unless ``shrink=True``."""
    g = to_gray(image)
    return [replace(r, bbox=fit_box(g, r.bbox, **options)) for r in redactions]
