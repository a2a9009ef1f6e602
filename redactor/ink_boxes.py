"""Fitting redaction boxes to the ink they are meant to hide.

OCR word boxes cut glyphs: descenders, accents, a digit half outside the box, a box drawn
from a slightly skewed line. Per box this module binarises a neighbourhood crop (Otsu),
finds the connected ink components the box touches and grows the box over them, within
bounds relative to the text height so that a neighbouring word (its own components, not
touched by the box) is never swallowed and a long rule line or table border is ignored,
but for the glyph ink written down onto it (a descender merged into its underline).
Margins are tightened to the box's own ink, generously counted (faint strokes too, never
another line's glyphs): OCR boxes from a cleaned, upscaled page are looser than the ink
and some reach into the line above. ``shrink`` cuts harder (to the glyph components
only); then it pads by a share of the text height, clipped to the page.
Pure functions on numpy arrays; the Redaction-level wrapper keeps everything but the box.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

import cv2
import numpy as np

from redactor.box_geometry import overlaps
from redactor.errors import InputError
from redactor.gray import to_gray
from redactor.ink_rules import (MIN_INSIDE, MIN_INSIDE_OFF_LINE, held_structure_extent, is_structure,
                                merged_glyph_extent, rule_only_margins)
from redactor.model import BBox, Redaction, WordBox

# A speck of at most this many pixels is a dot of a dithered, faxed or worn stroke, not a
# glyph (one dot of a 200-300 dpi halftone is 1-4 pixels)
FRAGMENT_AREA = 4

# Defaults, all relative to the text height h of the box.
PAD_FRAC = 0.0           # padding on every side (callers may ask for some): OCR word boxes
                         # are already tight to the ink, and every pixel of padding costs IoU
                         # against a tight gold box (measured: docs/detection.md)
MAX_GROW_X = 0.8         # a cut glyph may pull an edge out by at most this much horizontally
MAX_GROW_Y = 0.6         # ... and vertically (descenders, accents, a line cut in half)
TIGHTEN_MAX = 0.5        # tightening cuts at most this much from any side
SPECK = 0.2             # a component within this share of h both ways may be dust ...
SPECK_GAP = 0.15        # ... when this far off the band of the other glyphs
FAINT_SHARE = 0.25       # a pixel this far from the paper towards the ink is faint ink
CONTEXT = 1.5            # the neighbourhood crop reaches this far around the box
TALL = 1.6               # components taller than this many box heights span two lines
MIN_CONTRAST = 40        # grey levels between ink and paper below which a crop has no ink
DOTTED_SHARE = 0.3       # a crop whose ink components are this often specks of at most
                         # FRAGMENT_AREA pixels has strokes broken into dots (dithered, faxed)
DOTTED_INK_SHARE = 0.1   # ... and those specks hold this share of its ink (strokes, not dust)
DOT_GLYPH = 0.35         # dots together this tall or wide make a glyph, not a pinch of dust
DOT_GAP = 0.12           # ... whose dots lie at most this far apart inside one glyph
JOINED_MAX_W = 1.5       # joined dots this wide and less than JOINED_MIN_H tall are a rule,
JOINED_MIN_H = 0.35      # ... and joined dots taller than JOINED_MAX_H span two lines
JOINED_MAX_H = 1.3
ROW_APART = 0.6          # word centres this many word heights apart lie on different rows
PRINT_CONF = 80.0        # an OCR word read this surely is print whose line is where its box is
LEVEL_TOP = 0.25         # words whose tops lie this many heights apart stand level ...
LEVEL_SHARE = 2 / 3      # ... and a line is level when this share of its words do


def _check_box(box: Sequence[float], width: int, height: int) -> BBox:
    if len(box) != 4:
        raise InputError(f"a box needs 4 numbers (x0, y0, x1, y1), got {box!r}")
    x0, y0, x1, y1 = (float(v) for v in box)
    if not (x0 < x1 and y0 < y1) or any(np.isnan([x0, y0, x1, y1])):
        raise InputError(f"box {box!r} is empty or reversed")
    if x1 <= 0 or y1 <= 0 or x0 >= width or y0 >= height:
        raise InputError(f"box {box!r} lies outside the {width}x{height} page")
    return x0, y0, x1, y1


def crop_ink_mask(crop: np.ndarray, threshold: float | None) -> np.ndarray:
    """Dark pixels of the crop (1, else 0): Otsu's dark class of the crop itself (or
    ``threshold`` when given), none in a crop of one grey. Thresholded per box because a
    box's own neighbourhood sets its ink level (a faint stamp beside black print); the OCR
    backends' whole-page mask blurs first (``_scan_cleanup.merged_ink_mask``) and the
    evaluator keeps the contract's own (``redactor_eval.ink``)."""
    lo, hi = int(crop.min()), int(crop.max())
    if threshold is None:
        if hi - lo < MIN_CONTRAST:
            return np.zeros(crop.shape, dtype=np.uint8)
        threshold, _ = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return (crop <= threshold).astype(np.uint8)


def ink_components(mask: np.ndarray, h: float, join_dots: bool = False):
    """Connected ink components of the crop (``cv2.connectedComponentsWithStats``: count,
    labels, stats), with the dots of broken strokes joined into the glyphs they make when
    the crop's strokes broke into dots (a dithered copy, a fax, faint toner): each dot is
    then no speck of dust to leave out, and a glyph whose end a box cut is one component the
    box touches. Dots at most DOT_GAP text heights apart join (never across a word space);
    labels and stats stay those of the ink pixels themselves. Solid print is labelled as it
    is. ``join_dots`` joins the dots whatever the crop looks like."""
    n_dots, dots, dot_stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    areas = dot_stats[1:, cv2.CC_STAT_AREA]
    # (specks strewn over the paper round solid print are many but hold little of the ink:
    # a speckled copy's glyphs are whole, and joined to its specks they swell)
    if n_dots <= 1 or (not join_dots and
                       ((areas <= FRAGMENT_AREA).mean() < DOTTED_SHARE or
                        areas[areas <= FRAGMENT_AREA].sum() < DOTTED_INK_SHARE * areas.sum())):
        return n_dots, dots, dot_stats
    r = max(1, int(round(DOT_GAP * h / 2)))
    grown = cv2.dilate(mask, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    labels = labels * (mask > 0)
    rows, cols = mask.shape
    # a dilated component's box is its ink's box grown by r on every side (less at the edges)
    x0 = np.minimum(stats[:, 0] + r, cols - 1)
    y0 = np.minimum(stats[:, 1] + r, rows - 1)
    x1 = np.maximum(stats[:, 0] + stats[:, 2] - r, x0 + 1)
    y1 = np.maximum(stats[:, 1] + stats[:, 3] - r, y0 + 1)
    x0 = np.where(stats[:, 0] == 0, 0, x0)
    y0 = np.where(stats[:, 1] == 0, 0, y0)
    x1 = np.where(stats[:, 0] + stats[:, 2] == cols, cols, x1)
    y1 = np.where(stats[:, 1] + stats[:, 3] == rows, rows, y1)
    area = np.bincount(labels.ravel(), minlength=n)
    joined = np.stack([x0, y0, x1 - x0, y1 - y0, area], axis=1).astype(dot_stats.dtype)
    # dots that joined into what no run of glyphs is (a dotted rule or border, two lines of
    # a dense scan) stay the dots they were
    big = ((joined[:, 2] > JOINED_MAX_W * h) & (joined[:, 3] < JOINED_MIN_H * h)) | \
        (joined[:, 3] > JOINED_MAX_H * h)
    big[0] = False
    if big.any():
        undo = big[labels]
        labels = np.where(undo, dots + n, labels)
        joined = np.concatenate([joined, dot_stats])
        n += len(dot_stats)
    return n, labels, joined


def _faint_extent(crop: np.ndarray, mask: np.ndarray, labels: np.ndarray, neighbours,
                  box: tuple[int, int, int, int]):
    """Extent (crop pixels) of what lies inside ``box`` and is clearly darker than the paper,
    leaving out the glyphs of ``neighbours`` (component labels) and lone noise pixels."""
    paper = float(np.percentile(crop, 90))
    ink_level = float(crop[mask.astype(bool)].mean()) if mask.any() else float(crop.min())
    if paper - ink_level < MIN_CONTRAST:
        return None
    dark = (crop <= paper - FAINT_SHARE * (paper - ink_level)).astype(np.uint8)
    if neighbours:
        other = np.isin(labels, neighbours).astype(np.uint8)
        dark[cv2.dilate(other, np.ones((5, 5), np.uint8)) > 0] = 0
    dark = cv2.medianBlur(dark * 255, 3)
    bx0, by0, bx1, by1 = (max(0, v) for v in box)
    ys, xs = np.nonzero(dark[by0:by1, bx0:bx1])
    if ys.size == 0:
        return None
    return (xs.min() + bx0, ys.min() + by0, xs.max() + 1 + bx0, ys.max() + 1 + by0)


def _stray_specks(glyphs, glyph_labels, h: float) -> set:
    """Labels of dust specks among a box's glyphs: tiny components clearly apart from the
    band the other glyphs fill (above or below the text, or apart from it along the line).
    A full stop, a hyphen or a broken glyph's fragment lies in or against the band and
    stays; so do dots that together make a glyph-sized shape (a dotted or dithered glyph
    the body's test left out: dust lies alone or in a pinch)."""
    def tiny(g):
        return g[2] - g[0] <= SPECK * h and g[3] - g[1] <= SPECK * h

    body = [g for g in glyphs if not tiny(g)]
    if not body:
        return set()
    y0, y1 = min(g[1] for g in body), max(g[3] for g in body)
    x0, x1 = min(g[0] for g in body), max(g[2] for g in body)
    dots = [(g, lab) for g, lab in zip(glyphs, glyph_labels) if tiny(g)]
    out = set()
    for (g, lab), shape in zip(dots, _dot_shapes([g for g, _ in dots], h)):
        # apart by a clear gap: a fragment of a broken glyph sits right against the band
        apart = g[3] < y0 - SPECK_GAP * h or g[1] > y1 + SPECK_GAP * h or \
            g[2] < x0 - 0.5 * h or g[0] > x1 + 0.5 * h
        if apart and shape[2] - shape[0] < DOT_GLYPH * h and shape[3] - shape[1] < DOT_GLYPH * h:
            out.add(lab)
    return out


def _dot_shapes(dots, h: float) -> list:
    """For each dot, the extent of the group of dots it belongs to (dots at most DOT_GAP
    text heights apart, transitively)."""
    near = max(2.0, DOT_GAP * h)
    parent = list(range(len(dots)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    boxes = np.asarray(dots, dtype=float).reshape(-1, 4)
    for i, g in enumerate(dots):
        dx = np.maximum(0, np.maximum(boxes[:, 0] - g[2], g[0] - boxes[:, 2]))
        dy = np.maximum(0, np.maximum(boxes[:, 1] - g[3], g[1] - boxes[:, 3]))
        for j in np.nonzero((dx <= near) & (dy <= near))[0]:
            if j > i:
                parent[root(int(j))] = root(i)
    shapes: dict[int, list] = {}
    for i, g in enumerate(dots):
        r = root(i)
        s = shapes.setdefault(r, [g[0], g[1], g[2], g[3]])
        s[0], s[1], s[2], s[3] = min(s[0], g[0]), min(s[1], g[1]), max(s[2], g[2]), max(s[3], g[3])
    return [shapes[root(i)] for i in range(len(dots))]


@dataclass
class _TouchedInk:
    """The ink components a box touches, sorted (positions in page pixels)."""
    glyphs: list = field(default_factory=list)           # glyph extents the box holds
    glyph_labels: list = field(default_factory=list)
    anchors: list = field(default_factory=list)          # glyph ink merged into structures: kept inside
    merged: list = field(default_factory=list)           # glyph ink merged into a rule that crosses the box's edge
    neighbour_labels: list = field(default_factory=list)  # other lines' or words' glyphs
    structure_labels: list = field(default_factory=list)  # rules and borders: their in-box ink counts only as anchors


def _touched_ink(labels, stats, in_box, h: float, band, box_px, origin, tighten: bool,
                 max_grow: tuple[float, float], own=(float("-inf"), float("inf"))) -> _TouchedInk:
    """Sort the components the box touches (``in_box``: each label's pixels inside it) into
    glyphs of the value, other lines' glyphs, and structures with the glyph ink merged
    into them. ``band`` is the box's top and bottom on the page, ``own`` the rows the
    value's glyphs are centred in."""
    (y0, y1), (bx0, by0, bx1, by1), (cx0, cy0) = band, box_px, origin
    out = _TouchedInk()
    for lab in np.nonzero(in_box)[0]:
        if lab == 0:
            continue
        sx, sy, sw, sh, area = stats[lab]
        if is_structure(lambda: labels[sy:sy + sh, sx:sx + sw] == lab, stats[lab], h, bx0, bx1):
            if tighten:
                # a glyph touching a border is part of this component: what the box
                # holds of it stays inside
                ext = held_structure_extent(labels[max(by0, 0):by1, max(bx0, 0):bx1] == lab, h)
                if ext is not None:
                    ox, oy = max(bx0, 0) + cx0, max(by0, 0) + cy0
                    out.anchors.append((ext[0] + ox, ext[1] + oy, ext[2] + ox, ext[3] + oy))
                out.structure_labels.append(lab)
            # ... and what of the glyph lies outside the box, down to the rule it ran into,
            # the box grows over like any glyph it cuts; sideways too, a glyph the box's
            # edge cuts ("1978" typed on a line)
            wy0 = max(0, by0 - int(np.ceil(max_grow[1] * h)))
            wy1 = min(labels.shape[0], by1 + int(np.ceil(max_grow[1] * h)))
            wx0 = max(0, bx0 - int(np.ceil(max_grow[0] * h)))
            wx1 = min(labels.shape[1], bx1 + int(np.ceil(max_grow[0] * h)))
            ext = merged_glyph_extent(labels[wy0:wy1, wx0:wx1] == lab,
                                      (by0 - wy0, by1 - wy0), h, (bx0 - wx0, bx1 - wx0))
            if ext is not None:
                out.merged.append((ext[0] + wx0 + cx0, ext[1] + wy0 + cy0,
                                   ext[2] + wx0 + cx0, ext[3] + wy0 + cy0))
            continue   # ... or a field's border stroke ("|") or an underline piece
        # a glyph the box cuts belongs to the value when a fair share of it is inside; the
        # first letter of the next word, the tail of a descender from the line above or a
        # glyph of the next line in the corner of a skewed box does not
        centre_in = y0 <= sy + cy0 + sh / 2 <= y1
        if in_box[lab] < (MIN_INSIDE if centre_in else MIN_INSIDE_OFF_LINE) * area or \
                not own[0] <= sy + cy0 + sh / 2 <= own[1]:
            out.neighbour_labels.append(lab)
            continue
        out.glyphs.append((sx + cx0, sy + cy0, sx + sw + cx0, sy + sh + cy0))
        out.glyph_labels.append(lab)
    return out


def _tightened(edges, crop, mask, labels, ink: _TouchedInk, h: float, box, box_px, origin):
    """The grown box ``edges`` with its margins cut to the box's own ink, by at most
    TIGHTEN_MAX of the height: OCR boxes measured on a cleaned, upscaled page are looser
    than the ink, and some reach into the line above. What counts as the box's own ink is
    generous: its glyphs, structures it holds, and any pixel inside it clearly darker than
    the paper (faint pencil Otsu put with the paper) that is not part of another line's or
    word's glyphs."""
    (nx0, ny0, nx1, ny1), (x0, y0, x1, y1), (cx0, cy0) = edges, box, origin
    specks = _stray_specks(ink.glyphs, ink.glyph_labels, h)
    keep = [g for g, lab in zip(ink.glyphs, ink.glyph_labels) if lab not in specks]
    keep += ink.anchors + ink.merged
    faint = _faint_extent(crop, mask, labels,
                          ink.neighbour_labels + sorted(specks) + ink.structure_labels, box_px)
    if faint is not None:
        keep.append((faint[0] + cx0, faint[1] + cy0, faint[2] + cx0, faint[3] + cy0))
    lim = TIGHTEN_MAX * h
    kx0, ky0 = min(g[0] for g in keep), min(g[1] for g in keep)
    kx1, ky1 = max(g[2] for g in keep), max(g[3] for g in keep)
    # ... and without that bound where all the box holds beyond its own ink is rule: a value
    # typed on a fill-in line whose OCR box ran along the line to its end ("Assay No.
    # 6692______"); the rule is the form's, not the value
    rule_only = rule_only_margins(labels, set(ink.structure_labels), box_px,
                                  (kx0 - cx0, ky0 - cy0, kx1 - cx0, ky1 - cy0))
    return (max(nx0, kx0 if rule_only[0] else min(kx0, x0 + lim)),
            max(ny0, ky0 if rule_only[1] else min(ky0, y0 + lim)),
            min(nx1, kx1 if rule_only[2] else max(kx1, x1 - lim)),
            min(ny1, ky1 if rule_only[3] else max(ky1, y1 - lim)))


def fit_box(gray: np.ndarray, box: Sequence[float], *, pad_frac: float = PAD_FRAC,
            max_grow_x: float = MAX_GROW_X, max_grow_y: float = MAX_GROW_Y, shrink: bool = False,
            tighten: bool = True, threshold: float | None = None, lines: int = 1,
            own_rows: tuple[float, float] = (float("-inf"), float("inf"))) -> BBox:
    """One box fitted to the ink it touches (see the module docstring). ``tighten`` cuts
    margins down to the box's own ink, generously counted (by at most TIGHTEN_MAX of the
    height); ``shrink`` cuts every margin
    outside the glyphs (also where a glyph merged into a border). ``threshold`` overrides
    the local Otsu threshold (e.g. the page's own, as the ink metric uses). ``lines``: the
    rows of text the box holds (a postal block's), whose height is the text height every
    bound above is measured in. A glyph centred outside ``own_rows`` (page rows, as
    ``own_band`` gives them) is another line's, as one the box barely touches is."""
    H, W = gray.shape
    x0, y0, x1, y1 = _check_box(box, W, H)
    # a block's height is no text height: measured by it, a three-line address joined the
    # dots of a speckled scan across a caption's row and grew over it
    h = (y1 - y0) / max(1, lines)
    # neighbourhood crop (integer pixel grid, clipped to the page)
    cx0 = int(max(0, np.floor(x0 - CONTEXT * h)))
    cy0 = int(max(0, np.floor(y0 - CONTEXT * h)))
    cx1 = int(min(W, np.ceil(x1 + CONTEXT * h)))
    cy1 = int(min(H, np.ceil(y1 + CONTEXT * h)))
    crop = gray[cy0:cy1, cx0:cx1]
    mask = crop_ink_mask(crop, threshold)
    # the box in crop pixels: pixels [bx0, bx1) x [by0, by1)
    bx0, by0 = int(np.floor(x0)) - cx0, int(np.floor(y0)) - cy0
    bx1, by1 = int(np.ceil(x1)) - cx0, int(np.ceil(y1)) - cy0
    nx0, ny0, nx1, ny1 = x0, y0, x1, y1
    if mask.any():
        n, labels, stats = ink_components(mask, h)
        in_box = np.bincount(labels[max(by0, 0):by1, max(bx0, 0):bx1].ravel(), minlength=n)
        ink = _touched_ink(labels, stats, in_box, h, (y0, y1), (bx0, by0, bx1, by1),
                           (cx0, cy0), tighten, (max_grow_x, max_grow_y), own_rows)
        if ink.glyphs or ink.merged:
            # a component far taller than the box is two lines' glyphs touching (dense
            # scans): it may widen the box but not pull it onto the other line
            ink.glyphs = [g if g[3] - g[1] <= TALL * h else (g[0], max(g[1], y0), g[2], min(g[3], y1))
                          for g in ink.glyphs]
            # text height: the box, or its glyphs when the box cut them (at most doubled)
            gh = float(np.median([g[3] - g[1] for g in ink.glyphs])) if ink.glyphs else h
            href = min(max(h, gh), 2 * h)
            gx, gy = max_grow_x * href, max_grow_y * href
            every = ink.glyphs + ink.merged
            ink_x0, ink_y0 = min(g[0] for g in every), min(g[1] for g in every)
            ink_x1, ink_y1 = max(g[2] for g in every), max(g[3] for g in every)
            nx0 = max(min(x0, ink_x0), x0 - gx)
            ny0 = max(min(y0, ink_y0), y0 - gy)
            nx1 = min(max(x1, ink_x1), x1 + gx)
            ny1 = min(max(y1, ink_y1), y1 + gy)
            if shrink:
                nx0, ny0 = max(nx0, ink_x0), max(ny0, ink_y0)
                nx1, ny1 = min(nx1, ink_x1), min(ny1, ink_y1)
            elif tighten:
                nx0, ny0, nx1, ny1 = _tightened((nx0, ny0, nx1, ny1), crop, mask, labels, ink, h,
                                                (x0, y0, x1, y1), (bx0, by0, bx1, by1), (cx0, cy0))
            h = href
    pad = pad_frac * h
    return (float(max(0.0, nx0 - pad)), float(max(0.0, ny0 - pad)),
            float(min(float(W), nx1 + pad)), float(min(float(H), ny1 + pad)))


def fit_boxes_to_ink(gray, boxes: Sequence[Sequence[float]], **options) -> list[BBox]:
    """Each box fitted to its ink by :func:`fit_box` (same options), in the same order."""
    g = to_gray(gray)
    return [fit_box(g, b, **options) for b in boxes]


def fit_redactions_to_ink(image, redactions: Sequence[Redaction], words: Sequence[WordBox] = (),
                          **options) -> list[Redaction]:
    """The redactions with their boxes fitted to the ink of ``image`` (PIL image or array),
    as ``fit_box`` fits one: grown over the value's ink, margins without ink trimmed
    (``tighten``, by at most TIGHTEN_MAX of the box height; every margin with
    ``shrink=True``). With the page's OCR ``words``, a box over several rows of them is
    fitted by the height of one row."""
    g = to_gray(image)
    return [replace(r, bbox=fit_box(g, r.bbox, lines=rows_in(r.bbox, words),
                                    own_rows=own_band(r.bbox, r.value, words), **options))
            for r in redactions]


def own_band(box: Sequence[float], value: str, words: Sequence[WordBox]) -> tuple[float, float]:
    """The rows whose glyphs are the value's: from halfway to the centre of another OCR
    line whose words ``box`` reaches into above, to halfway to one below. On a noisy scan
    OCR's word boxes swell with the specks round them until a value's box takes in the
    bottom of the caption printed right over it ("3. Residence Address(es)" over a FARA
    filing's typed address), and the caption's glyphs would count as the value's; a line
    owns the glyphs centred nearer to it. The value's own words are those of its text, the
    others the confidently read words of other lines."""
    tokens = set(value.split())
    own = [w for w in words if w.text in tokens and overlaps(w.bbox, box)]
    lo, hi = float("-inf"), float("inf")
    if not _level(own):
        return lo, hi   # lines at an angle (a stamp turned 30 degrees) overlap every way
    lines = {w.line for w in own}
    top = min((w.bbox[1] + w.bbox[3]) / 2 for w in own)
    bottom = max((w.bbox[1] + w.bbox[3]) / 2 for w in own)
    for w in words:
        if w.line in lines or w.text in tokens or not overlaps(w.bbox, box) or \
                not any(c.isalnum() for c in w.text) or w.conf < PRINT_CONF:
            continue   # (only print OCR is sure of marks a line: a hand's strokes cross lines)
        c = (w.bbox[1] + w.bbox[3]) / 2
        if c < top:
            lo = max(lo, (c + top) / 2)
        elif c > bottom:
            hi = min(hi, (c + bottom) / 2)
    return lo, hi


def _level(words: Sequence[WordBox]) -> bool:
    """Whether the words stand level, as one upright line's do: two or more, and at least
    LEVEL_SHARE of them with their tops within LEVEL_TOP of their median height of the
    median top (a turned line's words step down or up one after another)."""
    if len(words) < 2:
        return False
    height = float(np.median([w.bbox[3] - w.bbox[1] for w in words]))
    top = float(np.median([w.bbox[1] for w in words]))
    return sum(abs(w.bbox[1] - top) <= LEVEL_TOP * height for w in words) >= LEVEL_SHARE * len(words)


def rows_in(box: Sequence[float], words: Sequence[WordBox]) -> int:
    """How many rows of text the words centred in ``box`` make (1 when none is): centres
    more than ROW_APART of the words' median height apart start a new row."""
    inside = [w.bbox for w in words
              if box[0] <= (w.bbox[0] + w.bbox[2]) / 2 <= box[2] and box[1] <= (w.bbox[1] + w.bbox[3]) / 2 <= box[3]]
    if len(inside) < 2:
        return 1
    height = float(np.median([b[3] - b[1] for b in inside]))
    centres = sorted((b[1] + b[3]) / 2 for b in inside)
    return 1 + sum(1 for a, b in zip(centres, centres[1:]) if b - a > ROW_APART * height)
