"""Pure image geometry for reading scans: the 2x3 affine matrices that take a box read on a
transformed image back to the image as given, scaling, and the page's angle (small skew
measured and straightened, quarter turns, and what the ink says about which way its text
lines run).

Every function that moves pixels returns, with the new image, the affine that maps a point
of its input to the same point of its output, in *pixel-edge* coordinates (a box
``(x0, y0, x1, y1)`` with ``x1`` exclusive, as OCR engines report them); the clean-up that
leaves pixels in place is ``_scan_cleanup``.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

import cv2
import numpy as np

from redactor_plugins._scan_cleanup import Box, long_runs, merged_ink_mask

Affine = np.ndarray   # shape (2, 3), float64


def identity() -> Affine:
    return np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def compose(*steps: Affine) -> Affine:
    """The affine of applying ``steps`` in order (first step first)."""
    total = np.eye(3)
    for m in steps:
        total = np.vstack([m, [0.0, 0.0, 1.0]]) @ total
    return total[:2]


def invert(m: Affine) -> Affine:
    return np.linalg.inv(np.vstack([m, [0.0, 0.0, 1.0]]))[:2]


def map_box(box: Sequence[float], m: Affine, width: float, height: float) -> Box:
    """Transform a box's four corners by ``m``, take their axis-aligned hull and clip it to a
    ``width`` x ``height`` page. A rotated box grows to cover everything it covered."""
    x0, y0, x1, y1 = (float(v) for v in box)
    corners = np.array([[x0, y0, 1.0], [x1, y0, 1.0], [x1, y1, 1.0], [x0, y1, 1.0]])
    pts = corners @ np.asarray(m, dtype=float).T
    xs, ys = pts[:, 0], pts[:, 1]
    nx0 = min(max(float(xs.min()), 0.0), float(width))
    ny0 = min(max(float(ys.min()), 0.0), float(height))
    nx1 = min(max(float(xs.max()), 0.0), float(width))
    ny1 = min(max(float(ys.max()), 0.0), float(height))
    return (nx0, ny0, nx1, ny1)


def map_boxes_back(boxes: Iterable[Sequence[float]], forward: Affine, width: float,
                   height: float) -> list[Box]:
    """Boxes read on a transformed image, taken back through ``forward`` (original ->
    transformed) to an original image of ``width`` x ``height``."""
    back = invert(forward)
    return [map_box(b, back, width, height) for b in boxes]


def resize(image: np.ndarray, fx: float, fy: float | None = None) -> tuple[np.ndarray, Affine]:
    """Scale by ``fx`` across and ``fy`` (default ``fx``) down, cubic when enlarging, area
    when shrinking; the matrix uses the exact ratios of the rounded output size so boxes
    map back without drift."""
    fy = fx if fy is None else fy
    h, w = image.shape[:2]
    nw, nh = max(1, int(round(w * fx))), max(1, int(round(h * fy)))
    if (nw, nh) == (w, h):
        return image.copy(), identity()
    interp = cv2.INTER_CUBIC if fx * fy > 1 else cv2.INTER_AREA
    out = cv2.resize(image, (nw, nh), interpolation=interp)
    return out, np.array([[nw / w, 0.0, 0.0], [0.0, nh / h, 0.0]])


def estimate_skew(gray: np.ndarray, max_angle: float = 5.0) -> float:
    """The angle in degrees that straightens the page's text lines when passed to
    ``rotate`` (within +-``max_angle``): the rotation whose horizontal projection of the ink
    is sharpest (text lines become narrow peaks). 0.0 when there is too little ink to tell.

    The projection is a histogram of the ink pixels' rotated row coordinates, computed
    from their positions (on a copy of at most 1200 px), not by warping the image for
    every candidate angle: the same peaks for a small fraction of the cost."""
    mask = merged_ink_mask(gray)
    h, w = mask.shape
    count = cv2.countNonZero(mask)
    if count < 200 or count > 0.5 * h * w:
        return 0.0
    scale = min(1.0, 1200.0 / max(h, w))
    if scale < 1.0:
        mask = cv2.resize(mask, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ys, xs = np.nonzero(mask)
    weights = mask[ys, xs].astype(np.float64)
    mh, mw = mask.shape
    xs = xs.astype(np.float64) - mw / 2.0
    ys = ys.astype(np.float64) - mh / 2.0
    nbins = int(math.ceil(math.hypot(mh, mw))) + 2

    def sharpness(angle: float) -> float:
        # Row of each ink pixel after cv2.getRotationMatrix2D(centre, angle) is applied.
        rad = math.radians(angle)
        rows = -math.sin(rad) * xs + math.cos(rad) * ys + nbins / 2.0
        hist = np.bincount(rows.astype(np.intp), weights=weights, minlength=nbins)
        return float(np.sum(np.diff(hist) ** 2))

    coarse = np.arange(-max_angle, max_angle + 1e-9, 0.5)
    best = max(coarse, key=sharpness)
    fine = np.arange(best - 0.5, best + 0.5 + 1e-9, 0.05)
    best = max(fine, key=sharpness)
    return float(round(best, 2))


def rotate(image: np.ndarray, angle: float, fill: int | tuple = 255) -> tuple[np.ndarray, Affine]:
    """Rotate counter-clockwise by ``angle`` degrees (OpenCV's sense) on an enlarged canvas
    so no corner is cut off; the uncovered area is filled with ``fill`` (paper)."""
    h, w = image.shape[:2]
    if abs(angle) < 1e-6:
        return image.copy(), identity()
    rad = math.radians(angle)
    cos, sin = abs(math.cos(rad)), abs(math.sin(rad))
    nw = int(math.ceil(w * cos + h * sin))
    nh = int(math.ceil(w * sin + h * cos))
    # Matrix in pixel-edge coordinates: rotate about the page centre, then centre on canvas.
    rot = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), angle, 1.0)
    rot[0, 2] += nw / 2.0 - w / 2.0
    rot[1, 2] += nh / 2.0 - h / 2.0
    # warpAffine samples at pixel centres (index coordinates = edge coordinates - 0.5).
    shift = np.array([[1.0, 0.0, -0.5], [0.0, 1.0, -0.5]])
    unshift = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.5]])
    index_m = compose(unshift, rot, shift)
    border = fill if image.ndim == 2 or isinstance(fill, tuple) else (fill,) * image.shape[2]
    out = cv2.warpAffine(image, index_m, (nw, nh), flags=cv2.INTER_CUBIC,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    return out, rot


def rotate_quarters(image: np.ndarray, turns: int) -> tuple[np.ndarray, Affine]:
    """Rotate counter-clockwise by ``turns`` x 90 degrees, exactly (no resampling)."""
    turns %= 4
    h, w = image.shape[:2]
    out = np.ascontiguousarray(np.rot90(image, turns))
    if turns == 0:
        return out, identity()
    if turns == 1:     # (x, y) -> (y, w - x)
        return out, np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, float(w)]])
    if turns == 2:     # (x, y) -> (w - x, h - y)
        return out, np.array([[-1.0, 0.0, float(w)], [0.0, -1.0, float(h)]])
    return out, np.array([[0.0, -1.0, float(h)], [1.0, 0.0, 0.0]])   # (x, y) -> (h - y, x)


def upright_text_evidence(gray: np.ndarray, text_height: float) -> tuple[int, int, float]:
    """How the page's ink says it stands, without OCR: ``(across, down, rise)``.

    ``across`` and ``down`` count word-like shapes (letters joined along a line by a
    closing a bit over half a text height long, at least twice as long as thick and two
    text heights long) when
    letters are joined along rows and along columns: upright or upside-down text makes
    words across, a page turned by 90 degrees makes them down. ``rise`` is, over the
    words across, the ink above their x-height band (ascenders, capitals, digits) over
    the ink below it (descenders): Latin script rises above its core far more than it
    hangs below, so ``rise`` is well over 1 upright and under 1 upside down. Measured on a
    copy with text about 16 px tall, rules taken out first."""
    f = min(1.0, 16.0 / max(float(text_height), 1.0))
    small = cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1.0 else gray
    th = max(float(text_height) * f, 4.0)
    mask = merged_ink_mask(small)
    if cv2.countNonZero(mask) > 0.5 * mask.size:
        return 0, 0, 1.0
    horizontal, vertical = long_runs(mask, th)
    mask = cv2.subtract(mask, cv2.dilate(horizontal | vertical, np.ones((3, 3), np.uint8)))
    run = max(3, int(round(th * 0.6)))
    counts = []
    above = below = 0.0
    for kernel in ((1, run), (run, 1)):
        joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones(kernel, np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
        length = stats[1:, cv2.CC_STAT_WIDTH if kernel[0] == 1 else cv2.CC_STAT_HEIGHT]
        thick = stats[1:, cv2.CC_STAT_HEIGHT if kernel[0] == 1 else cv2.CC_STAT_WIDTH]
        # Longer than any one letter is tall: a tall single digit is no word down.
        words = np.nonzero((thick >= 0.6 * th) & (thick <= 2.2 * th) & (length >= 2 * thick)
                           & (length >= 2 * th))[0] + 1
        counts.append(len(words))
        if kernel[0] != 1:
            continue
        for i in words[:600]:
            x, y, bw, bh = (int(v) for v in stats[i, :4])
            rows = np.count_nonzero((labels[y:y + bh, x:x + bw] == i) & (mask[y:y + bh, x:x + bw] > 0),
                                    axis=1)
            core = np.nonzero(rows >= 0.5 * rows.max())[0]
            above += float(rows[:core[0]].sum())
            below += float(rows[core[-1] + 1:].sum())
    return counts[0], counts[1], above / max(below, 1.0)


def looks_upright(evidence: tuple[int, int, float], min_words: int = 20) -> bool:
    """True when ``upright_text_evidence`` says plainly that the page stands upright:
    enough words across, three times as many as down, and ink rising above the x-height
    band at least 1.3 times as much as it hangs below (measured: 1.4-4 on upright pages,
    also 75 dpi, faxed, dotted; at most 0.8 upside down). Anything less is not a no, only
    not sure."""
    across, down, rise = evidence
    return across >= min_words and across >= 3 * down and rise >= 1.3


def looks_turned(evidence: tuple[int, int, float], min_words: int = 20) -> bool:
    """True when ``upright_text_evidence`` says plainly that the page is turned: words
    run down three times as often as across (sideways), or enough words across hang
    below their x-height band more than they rise above it (``rise`` under 0.9: upside
    down; measured at most 0.81 upside down, at least 0.91 upright)."""
    across, down, rise = evidence
    return (down >= min_words and down >= 3 * across) or (across >= min_words and rise < 0.9)
