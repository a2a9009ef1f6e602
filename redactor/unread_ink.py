"""Growing critical boxes along their line over ink that OCR did not read.

On a faint or broken scan OCR often drops the end or the start of a value: the ZIP of an
address line, the last group of a phone number, a "+1" before it. No word box covers that
ink, so no detector can tag it, yet a reader sees it right beside the black box and reads
the value's missing part. A box of a critical type therefore grows sideways, on its own
line band, over the glyph-like ink that follows it at word spacing and that no OCR word
claims. It stops at the first OCR word (that text was read and judged; a word read unsure
that can be the value's misread rest or start, as redactor.unsure_words judges it, is
garbled ink like any other, while a label before a value is often read unsure too), at
another redaction's box (that ink is hidden already), at a gap wider than a word space, at
a rule or cell border, and after a bounded length. Pure functions on numpy arrays; the
Redaction-level wrapper keeps everything but the box.
"""
from __future__ import annotations

from dataclasses import replace
from statistics import median
from typing import Callable, Sequence

import cv2
import numpy as np

from redactor.ink_boxes import ink_components
from redactor.ink_rules import mostly_rule, straight_runs
from redactor.model import UNSURE_CONF, BBox, Redaction, WordBox
from redactor.taxonomy import is_critical
from redactor.unsure_words import can_begin, can_continue

# All relative to the text height h of the box's line.
GAP = 0.9           # unread ink must start within this of the box edge, and its glyphs
                    # lie at most this far apart (a word space is about 0.3-0.6 h)
MAX_OWN_GAP = 2.0   # the box's own word spacing (see _own_word_gap) widens GAP up to this
DOUBLE_READ = 0.1   # an OCR word overlapping the box by this much read the same ink ...
MAX_DOUBLE_READ = 3.0   # ... when it is at most this wide (a fragment, not a line's words)
MAX_GROW = 6.0      # at most this much added on a side (a ZIP, a phone group, a surname)
MIN_GLYPH_H = 0.3   # components shorter than this are dots, dashes or dust ...
MAX_GLYPH_H = 1.6   # ... taller than this, a border or a line of another size
MAX_GLYPH_W = 4.0   # wider than this, a rule or a smear, not letters
BAND_INSET = 0.15   # the band is the box's rows less this share top and bottom (neighbours'
                    # descenders and ascenders reach into it)


def page_ink_threshold(gray: np.ndarray) -> float:
    """The page's Otsu threshold: ink is what is at most this dark (as the evaluator counts it)."""
    return float(cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0])


def _line_height(box: BBox, words: Sequence[WordBox]) -> float:
    """Median height of the words whose centre lies in the box; the box's height without."""
    hs = [w.bbox[3] - w.bbox[1] for w in words
          if box[0] <= (w.bbox[0] + w.bbox[2]) / 2 <= box[2] and box[1] <= (w.bbox[1] + w.bbox[3]) / 2 <= box[3]]
    return float(median(hs)) if hs else box[3] - box[1]


def _glyph_sized(width: float, height: float, h: float) -> bool:
    """Whether an ink component has a glyph's size on a line of text height ``h``."""
    return MIN_GLYPH_H * h <= height <= MAX_GLYPH_H * h and width <= MAX_GLYPH_W * h


def _glyphs_and_stops(gray: np.ndarray, threshold: float, x0: int, x1: int, y0: float, y1: float,
                      h: float, words: Sequence[WordBox], hidden: Sequence[BBox] = (),
                      passable: Callable[[str], bool] | None = None
                      ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Between x0 and x1 (page x): the column spans of glyph-like ink components centred in
    rows y0..y1 outside every OCR word box, and the spans that stop growth (OCR words,
    boxes of other redactions (``hidden``: that ink is hidden already), borders or rules
    crossing the band); both sorted left to right. ``passable``: which words OCR read
    unsure (but a label's "...:") are ink like any other, not stops."""
    H, W = gray.shape
    cy0, cy1 = max(0, int(y0 - h)), min(H, int(y1 + h))
    x0, x1 = max(0, x0), min(W, x1)
    if x1 - x0 < 2 or cy1 - cy0 < 2:
        return [], []
    mask = (gray[cy0:cy1, x0:x1] <= threshold).astype(np.uint8)
    stops = []
    for bx0, by0, bx1, by1 in hidden:
        if bx1 > x0 and bx0 < x1 and by1 > y0 and by0 < y1:
            stops.append((int(bx0), int(np.ceil(bx1))))
    for w in words:
        bx0, by0, bx1, by1 = w.bbox
        if w.is_speck(h):
            continue   # a speck OCR read as a word ("¢1" over a corner of "+1"): unread ink
        if passable is not None and 0 <= w.conf < UNSURE_CONF and not w.text.endswith(":") \
                and passable(w.text):
            continue   # garbled ("Of 8" for "OK 9297"): misread, not judged; its ink is glyphs
        if bx1 > x0 and bx0 < x1 and by1 > cy0 and by0 < cy1:
            mask[max(0, int(by0) - cy0):max(0, int(np.ceil(by1)) - cy0),
                 max(0, int(bx0) - x0):max(0, int(np.ceil(bx1)) - x0)] = 0
            if by1 > y0 and by0 < y1:
                stops.append((int(bx0), int(np.ceil(bx1))))
    n, labels, stats = ink_components(mask, h)
    # a dotted or broken print (dot matrix, fax, dithered copy) is dots, each below a glyph's
    # height: the dots are judged as the glyphs they make, also where solid print outnumbers
    # them (so that ink_components leaves them apart); solid glyphs are not joined to each
    # other or to a rule, and lone specks stay too small to count as glyphs
    small = {k for k in range(1, n) if max(stats[k][2], stats[k][3]) < MIN_GLYPH_H * h}
    parts = [(s, k) for k, s in enumerate(stats) if k and k not in small]
    if small:
        dots = np.isin(labels, sorted(small)).astype(np.uint8)
        nd, _, dot_stats = ink_components(dots, h, join_dots=True)
        parts += [(s, None) for s in dot_stats[1:nd]]
    glyphs = []
    for (sx, sy, sw, sh, _), k in parts:
        top, bottom = cy0 + sy, cy0 + sy + sh
        span = (x0 + int(sx), x0 + int(sx + sw))
        if sh > MAX_GLYPH_H * h or sw > MAX_GLYPH_W * h:
            if top < y1 and bottom > y0:
                comp = None if k is None else labels[sy:sy + sh, sx:sx + sw] == k
                if comp is not None and mostly_rule(comp, h):
                    # a rule along the line (a stamp's frame, a skewed table rule) that
                    # runs through a glyph ("2" struck through): the glyph's pieces are
                    # ink to grow over; only the borders standing across the line stop
                    g, st = _crossed_glyphs(comp, h, cy0 + sy, y0, y1)
                    glyphs += [(x0 + int(sx) + a, x0 + int(sx) + b) for a, b in g]
                    stops += [(x0 + int(sx) + a, x0 + int(sx) + b) for a, b in st]
                else:
                    stops.append(span)     # a border or rule across the line ends the value
            continue
        if _glyph_sized(sw, sh, h) and y0 <= (top + bottom) / 2 <= y1:
            glyphs.append(span)
    return sorted(glyphs), sorted(stops)


def _crossed_glyphs(comp: np.ndarray, h: float, top: int, y0: float, y1: float
                    ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Glyph pieces and upright borders of a component that is mostly a rule (boolean
    mask, its first row at page row ``top``): column spans, relative to the mask, of the
    glyph-like pieces left when its straight runs are taken out, and of its upright runs
    that reach into the band y0..y1."""
    m = comp.astype(np.uint8)
    # a border of a skewed scan drifts a pixel or two sideways along its length: it is
    # found on the ink widened by that much
    widened = cv2.dilate(m, np.ones((1, 5), np.uint8))
    upright, across = straight_runs(widened, int(np.ceil(MAX_GLYPH_H * h)), h)
    upright, across = upright & m, across & m
    rest = m & (1 - cv2.dilate(upright | across, np.ones((3, 3), np.uint8)))
    glyphs, stops = [], []
    n, _, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    for sx, sy, sw, sh, _ in stats[1:]:
        if _glyph_sized(sw, sh, h) and y0 <= top + sy + sh / 2 <= y1:
            glyphs.append((int(sx), int(sx + sw)))
    n, _, stats, _ = cv2.connectedComponentsWithStats(upright, connectivity=8)
    for sx, sy, sw, sh, _ in stats[1:]:
        if top + sy < y1 and top + sy + sh > y0:
            stops.append((int(sx), int(sx + sw)))
    return glyphs, stops


def _own_word_gap(gray: np.ndarray, threshold: float, box: BBox, y0: float, y1: float,
                  h: float) -> float:
    """The widest gap between the glyphs inside the box (its own word spacing), at most
    MAX_OWN_GAP: a monospaced or widely spaced print sets a word space well over GAP, and a
    "+1" or a ZIP left unread beside such a value lies that far from it."""
    H, W = gray.shape
    bx0, bx1 = max(0, int(np.floor(box[0]))), min(W, int(np.ceil(box[2])))
    ry0, ry1 = max(0, int(y0)), min(H, int(np.ceil(y1)))
    if bx1 - bx0 < 2 or ry1 - ry0 < 2:
        return 0.0
    n, _, stats = ink_components((gray[ry0:ry1, bx0:bx1] <= threshold).astype(np.uint8), h)
    spans = sorted((int(sx), int(sx + sw)) for sx, _, sw, sh, _ in stats[1:]
                   if sh >= MIN_GLYPH_H * (ry1 - ry0) and sw <= MAX_GLYPH_W * h)
    widest, reach = 0, None
    for c0, c1 in spans:
        if reach is not None and c0 > reach:
            widest = max(widest, c0 - reach)
        reach = c1 if reach is None else max(reach, c1)
    return min(float(widest), MAX_OWN_GAP * h)


def _over_double_reads(box: BBox, y0: float, y1: float, h: float,
                       words: Sequence[WordBox]) -> BBox:
    """The box widened over the short OCR words of its line that overlap its x edges: two
    words never share ink, so such a word is OCR reading the value's edge twice ("~Je"
    over the "J" of "Joshua"), and what it read (a descender too) belongs to the value."""
    x0, by0, x1, by1 = box
    least = max(2.0, DOUBLE_READ * h)
    for w in words:
        wx0, wy0, wx1, wy1 = w.bbox
        if not y0 <= (wy0 + wy1) / 2 <= y1 or wx1 - wx0 > MAX_DOUBLE_READ * h or \
                wy1 - wy0 > MAX_GLYPH_H * h:
            continue
        # overlapping, and mostly outside: the value's own words lie inside (one whose
        # trailing comma the aligner cut off reaches out a little)
        if box[0] - wx0 >= max(least, wx1 - box[0]) and wx1 - box[0] >= least:
            x0 = min(x0, wx0)
        elif wx1 - box[2] >= max(least, box[2] - wx0) and box[2] - wx0 >= least:
            x1 = max(x1, wx1)
        else:
            continue
        by0, by1 = min(by0, wy0), max(by1, wy1)
    return (x0, by0, x1, by1)


def _grow_right(glyphs: list[tuple[int, int]], stops: list[tuple[int, int]], edge: float,
                gap: float, limit: float) -> float:
    reach = edge
    for c0, c1 in glyphs:
        if c1 <= reach:
            continue
        if c0 - reach > gap or c1 > limit or any(reach <= s0 < c1 for s0, _ in stops):
            break
        reach = c1
    return reach


def _mirror(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return sorted((-c1, -c0) for c0, c1 in spans)


def grow_box_over_unread_ink(gray: np.ndarray, box: BBox, words: Sequence[WordBox],
                             threshold: float, hidden: Sequence[BBox] = (),
                             span_type: str | None = None) -> BBox:
    """``box`` grown left and right over unread glyph ink on its line band (see module doc);
    ``hidden``: the other redactions' boxes, which stop it. With ``span_type``, the words
    OCR read unsure that can continue (after the box) or begin (before it) a value of that
    type are grown over like unread ink (redactor.unsure_words' judgement)."""
    x0, y0, x1, y1 = box
    h = _line_height(box, words)
    if h < 4:
        return box
    inset = BAND_INSET * min(h, y1 - y0)
    by0, by1 = y0 + inset, y1 - inset
    gap, most = max(GAP * h, _own_word_gap(gray, threshold, box, by0, by1, h)), MAX_GROW * h
    x0, y0, x1, y1 = _over_double_reads(box, by0, by1, h, words)
    after = (lambda t: can_continue(span_type, t)) if span_type else None
    before = (lambda t: can_begin(span_type, t)) if span_type else None
    glyphs, stops = _glyphs_and_stops(gray, threshold, int(np.ceil(x1)), int(x1 + most + 1),
                                      by0, by1, h, words, hidden, after)
    new_x1 = _grow_right(glyphs, stops, x1, gap, x1 + most)
    glyphs, stops = _glyphs_and_stops(gray, threshold, int(x0 - most), int(np.floor(x0)),
                                      by0, by1, h, words, hidden, before)
    new_x0 = -_grow_right(_mirror(glyphs), _mirror(stops), -x0, gap, -x0 + most)
    return (float(new_x0), y0, float(new_x1), y1)


def grow_redactions_over_unread_ink(gray: np.ndarray, redactions: Sequence[Redaction],
                                    words: Sequence[WordBox]) -> list[Redaction]:
    """Critical redactions grown over the unread ink beside them; others unchanged."""
    if not any(is_critical(r.type) for r in redactions):
        return list(redactions)
    threshold = page_ink_threshold(gray)
    boxes = [r.bbox for r in redactions]
    return [replace(r, bbox=grow_box_over_unread_ink(gray, r.bbox, words, threshold,
                                                     boxes[:i] + boxes[i + 1:], r.type))
            if is_critical(r.type) else r for i, r in enumerate(redactions)]
