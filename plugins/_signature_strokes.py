"""Pixels of the signatures detector: the page's ink split into print, ruling and the loose
pen strokes left over, and those strokes joined into pieces with the measures that tell
handwriting from print (see visual_signatures.py for the whole method).

All lengths are in units of the body text height h (median height of the confidently read
words), so they hold at any scan resolution.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from redactor_plugins.visual_common import CONFIDENT, alnum, horizontal_rules, rules_mask

RULE_MIN_LEN = 4.0        # a signature line (or a table border) is at least 4 text heights long
PIECE_X, PIECE_Y = 1.0, 0.25  # strokes this close are one piece: the gaps within a written word
SPECK = 0.04              # components smaller than 4 % of h*h are dust
LOW_CONF_PRINT = 60.0     # a word read at this confidence is print (cursive reads below it)
MAX_PRINT = 4.0           # up to 4 text heights tall (headings) when read at CONFIDENT or more;
MAX_UNSURE_PRINT = 1.5    # a less sure word taller than 1.5 h is cursive read by luck ("Wet")
INSIDE_PRINT = 0.5        # print lies inside its word box: a connected stroke with more than
                          # half of its ink outside the boxes OCR drew is a pen stroke running
                          # through them; a 'word' made mostly of such strokes is cursive read by
                          # luck (a capital read as "M." beside the rest of the name)
STRAIGHT_V, STRAIGHT_H = 1.2, 1.5   # straight ink runs this long (in h) vertically or
                          # horizontally are ruling: box borders, checkboxes, table cells
CELL = 1.5                # a thin straight run 1.5 h long (as tall as a pen stroke must be)
                          # is a table's cell border, not what makes a piece handwriting
THICK = 0.3               # ... unless thick: a felt pen's upright strokes run straight for
                          # long, ruling is a hairline
CIRCLED_W = 1.5           # a ring round a circled word is at least 1.5 h wide inside
RING = 4.0                # a hole 4 h across both ways filling RING_SHARE of its ring's
RING_SHARE = 0.5          # extent is inside a stamp's or seal's border (a pen's loops are
                          # smaller, or part of a longer stroke)
BAND = 0.5                # a writing line is at least half a text height tall


@dataclass
class Strokes:
    """The page's ink in the layers the detector reasons on (all boolean masks, page size)."""
    h: float
    ink: np.ndarray           # the contract's Otsu dark class
    strokes: np.ndarray       # ink without long rules (print included)
    hruled: np.ndarray        # the horizontal rules removed
    rules: list               # (x0, x1, y) of each horizontal rule
    printed: np.ndarray       # ink of confidently read print
    loose: np.ndarray         # strokes that are not print, dust off
    straight: np.ndarray      # thin straight runs (box borders, checkboxes)
    cells: np.ndarray         # longer thin straight runs (a table's cell borders)
    comp: np.ndarray          # component labels of ``strokes`` (to snap boxes to ink)
    cstat: np.ndarray
    lab: np.ndarray           # component labels of ``loose`` (connected pen strokes)
    lstat: np.ndarray


def _word_boxes(words, h: float, shape) -> list:
    """Pixel boxes (r0, r1, c0, c1) of confidently read print: words read at CONFIDENT or
    more up to 4 h thick (headings), at LOW_CONF_PRINT or more up to 1.5 h (a thicker unsure
    'word' is cursive read by luck)."""
    H, W = shape
    out = []
    for w in words:
        if w.conf < LOW_CONF_PRINT or not alnum(w.text):
            continue
        x0, y0, x1, y1 = w.bbox
        # a line of print is as thick as its type is high, upright or turned 90 degrees
        # (archive numbers up a margin)
        if min(y1 - y0, x1 - x0) > (MAX_PRINT if w.conf >= CONFIDENT else MAX_UNSURE_PRINT) * h:
            continue
        out.append((max(0, int(y0) - 1), min(H, int(np.ceil(y1)) + 1),
                    max(0, int(x0) - 1), min(W, int(np.ceil(x1)) + 1)))
    return out


def _print_mask(boxes: list, comp: np.ndarray, n: int) -> np.ndarray:
    """Ink of print: the word boxes, but for a 'word' whose ink is mostly connected strokes
    running on out of the boxes (INSIDE_PRINT). Typed letters lie inside the box OCR drew
    round their word; cursive that OCR boxed by luck runs on into the rest of the signature,
    and is kept as handwriting (so is print a signature is written over)."""
    mask = np.zeros(comp.shape, dtype=bool)
    for r0, r1, c0, c1 in boxes:
        mask[r0:r1, c0:c1] = True
    total = np.bincount(comp.ravel(), minlength=n)
    inside = np.bincount(comp[mask], minlength=n)
    runs_on = inside < INSIDE_PRINT * np.maximum(total, 1)
    runs_on[0] = False
    out = np.zeros(comp.shape, dtype=bool)
    for r0, r1, c0, c1 in boxes:
        ids = comp[r0:r1, c0:c1]
        n_ink = int((ids > 0).sum())
        if n_ink and runs_on[ids].sum() >= INSIDE_PRINT * n_ink:
            continue
        out[r0:r1, c0:c1] = True
    return out


def _straight_mask(strokes: np.ndarray, h: float, lv: float, lh: float) -> np.ndarray:
    """Thin straight runs of ink at least lv h long vertically or lh h horizontally."""
    import cv2

    sv, sh = max(3, int(lv * h)), max(3, int(lh * h))
    u8 = strokes.astype(np.uint8)
    thick = max(3, int(THICK * h))
    lines = (cv2.morphologyEx(u8, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, sv)))
             | cv2.morphologyEx(u8, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (sh, 1))))
    return (lines & ~cv2.morphologyEx(u8, cv2.MORPH_OPEN, np.ones((thick, thick), np.uint8))).astype(bool)


def strokes_of(ink: np.ndarray, words, h: float) -> Strokes:
    """The page's ink in layers, h the body text height."""
    import cv2

    rule_len = max(20, int(RULE_MIN_LEN * h))
    strokes = ink & ~rules_mask(ink, rule_len)
    n, comp, cstat, _ = cv2.connectedComponentsWithStats(strokes.astype(np.uint8), connectivity=8)
    printed = _print_mask(_word_boxes(words, h, ink.shape), comp, n)
    loose = strokes & ~printed
    n, lab, lstat, _ = cv2.connectedComponentsWithStats(loose.astype(np.uint8), connectivity=8)
    keep = np.zeros(n, dtype=bool)
    keep[1:] = lstat[1:, cv2.CC_STAT_AREA] >= max(4, SPECK * h * h)
    loose = keep[lab]
    return Strokes(h, ink, strokes, rules_mask(ink, rule_len, vertical=False), horizontal_rules(ink, rule_len),
                   printed, loose, _straight_mask(strokes, h, STRAIGHT_V, STRAIGHT_H),
                   _straight_mask(strokes, h, CELL, CELL), comp, cstat, lab * keep[lab], lstat)


def bands(sub: np.ndarray, h: float) -> int:
    """Writing lines in a region: bands of rows holding ink, separated by empty rows, at
    least half a text height tall. A signature is one line whose loops and strokes join
    top to bottom; a paragraph of print or a handwritten address is several. (Callers put
    the removed rules back in, so a line the signature crosses does not split it.)"""
    rows = sub.any(axis=1)
    n, run = 0, 0
    for r in np.append(rows, False):
        if r:
            run += 1
        else:
            n += run >= BAND * h
            run = 0
    return n


def pieces_of(s: Strokes):
    """The loose strokes joined across the gaps within a written word: yields (box, mask of
    the piece in its box, box origin (x, y))."""
    import cv2

    h = s.h
    kx, ky = max(3, int(PIECE_X * h)), max(3, int(PIECE_Y * h))
    joined = cv2.dilate(s.loose.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_RECT, (kx, ky)))
    n, clab, cstats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    for c in range(1, n):
        x, y, cw, ch, _ = cstats[c]
        sub = (clab[y:y + ch, x:x + cw] == c) & s.loose[y:y + ch, x:x + cw]
        ys, xs = np.nonzero(sub)
        if xs.size == 0:
            continue
        box = (float(x + xs.min()), float(y + ys.min()), float(x + xs.max() + 1), float(y + ys.max() + 1))
        yield box, sub, (int(x), int(y))


def pen_strokes(s: Strokes, sub: np.ndarray, origin) -> tuple[int, int]:
    """(height of the tallest, width of the widest) connected pen stroke in a piece, its
    straight hairlines left out: a table's short cell borders are no pen stroke (with the
    halftone dots of a shaded header row round them they make up a tall, sparse piece)."""
    import cv2

    x, y = origin
    curved = sub & ~s.cells[y:y + sub.shape[0], x:x + sub.shape[1]]
    n, _, stats, _ = cv2.connectedComponentsWithStats(curved.astype(np.uint8), connectivity=8)
    if n < 2:
        return 0, 0
    return int(stats[1:, cv2.CC_STAT_HEIGHT].max()), int(stats[1:, cv2.CC_STAT_WIDTH].max())


def print_share(s: Strokes, box) -> float:
    """Share of the ink in a box that is print."""
    r0, r1, c0, c1 = int(box[1]), int(np.ceil(box[3])), int(box[0]), int(np.ceil(box[2]))
    region = s.strokes[r0:r1, c0:c1]
    return float((region & s.printed[r0:r1, c0:c1]).sum()) / max(1, int(region.sum()))



def circles_print(sub: np.ndarray, origin, h: float, printed=()) -> bool:
    """Whether a piece is a ring drawn round other ink: a hole at least CIRCLED_W h wide and
    1 h tall, filling half the piece's extent, with unread ink or a read word (``printed``:
    page boxes) inside it (an option of a form circled by hand: "Yes", "Organic"). A
    signature's loops are its letters' and hold none."""
    import cv2

    contours, hierarchy = cv2.findContours(sub.astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return False
    outer = [cv2.boundingRect(c) for c, hr in zip(contours, hierarchy[0]) if hr[3] < 0]
    H, W = sub.shape
    for c, (_, _, _, parent) in zip(contours, hierarchy[0]):
        if parent < 0:
            continue
        x, y, w, hh = cv2.boundingRect(c)
        if w < CIRCLED_W * h or hh < h or w * hh < RING_SHARE * W * H:
            continue
        if any(x <= ox and oy >= y and ox + ow <= x + w and oy + oh <= y + hh for ox, oy, ow, oh in outer):
            return True
        X, Y = origin[0] + x, origin[1] + y
        if any(X <= (b[0] + b[2]) / 2 <= X + w and Y <= (b[1] + b[3]) / 2 <= Y + hh for b in printed):
            return True
    return False


def ring_holes(sub: np.ndarray, origin, h: float) -> list:
    """Page boxes of the holes of closed rings of ink in a piece, RING h across both ways and
    filling half the ring's extent: a stamp's or a seal's border (an oval "ORIGINAL", a round
    "RECEIVED", a framed "COPY"). A pen's loops enclose letters, and belong to a longer
    stroke."""
    import cv2

    k = max(3, int(PIECE_Y * h) | 1)      # close the gap a removed rule leaves in the ring
    closed = cv2.dilate(sub.astype(np.uint8), np.ones((k, k), np.uint8))
    contours, hierarchy = cv2.findContours(closed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    out = []
    for c, (_, _, _, parent) in zip(contours, hierarchy[0]):
        if parent < 0:
            continue        # an outer contour; holes have a parent
        x, y, w, hh = cv2.boundingRect(c)
        _, _, pw, ph = cv2.boundingRect(contours[parent])
        if w >= RING * h and hh >= RING * h and w * hh >= RING_SHARE * pw * ph:
            out.append((origin[0] + x, origin[1] + y, origin[0] + x + w, origin[1] + y + hh))
    return out
