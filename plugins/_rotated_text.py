"""Text at any angle: blocks of ink printed at an angle of their own (a stamp turned 30
degrees, a margin note, a vertical label, an upside-down stamp) found after a page is read,
turned upright and read again, their words mapped back to the page.

Tesseract reads a page along one direction. Ink at another angle comes back as unsure
fragments ("o_o'", "ay", "Rie"), or upside down as mirrored letters ("6829-SV-ECT") that are
sometimes sure of themselves ("NSS" at 96): the values in it are neither detected nor boxed.

The principle, in pure functions here (``TesseractOcr`` runs the one Tesseract read):

1. ``find_blocks``: the page's ink (rules taken out) minus the ink under confidently read
   words; what is left is grouped by a dilation about a line tall into blocks. A block
   needs several glyph-sized components (a logo, a photo or a speck is no block).
2. Its line direction, from the ink alone: the projection profile of its pixels across
   candidate directions is sharpest along the lines (``line_angle``).
3. ``variants``: the block is cut out (its convex hull, nothing of the page beside it),
   turned so its lines run across, both ways up; a block whose direction is itself unsure
   (a short word) also a quarter turn off. A block that runs across is tried upside down
   only (upright, it is what the page read already saw), and only when the page read got
   nothing but very unsure words there and its ink does not plainly stand upright
   (``upside_down_candidate``): faint upright print is far more common.
4. All variants are read in one Tesseract run, stacked on one canvas (``stack``/``split``);
   per block the best reading is kept when it is confident (``best_reading``), its word
   boxes mapped back as the axis-aligned hull of each rotated box (``quad_hull``): a little
   more than the word, never less.

Cost: a page whose ink is all under confident words pays one ink mask and a component
labelling and keeps its words unchanged; on the 78 real dev pages (scans and born-digital)
the whole step adds 0.08 s a page on average (1.40 -> 1.47 s), one small Tesseract run on
the 51 pages with a block worth a read. Measured with ``eval/benchmarks/bench_rotated_text``
(a stamp turned 0-345 degrees in steps of 15 on a letter: every value hidden).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from redactor_plugins import _scan_cleanup as sc
from redactor_plugins import _scan_geometry as geo

# A word whose ink counts as read: at least this confident, with two letters or digits.
# Upside-down text has sure-looking short words ("NSS" at 96): a block keeps its other ink,
# and the hull cut for reading takes the hole such a word leaves back in.
CONFIDENT = 80.0
# Ink is joined into blocks by a square this many text heights wide: letters, words and
# the lines of a stamp (line gap about half a text height) join, separate paragraphs don't.
JOIN_HEIGHTS = 0.9
# A glyph: a component of ink this many text heights on its longer side at most (letters
# at any angle), and at least GLYPH_MIN on it (not a speck, a dot or a comma).
GLYPH_MAX = 2.5
GLYPH_MIN = 0.35
# A block needs this many glyphs (two short words), and its ink this share in glyphs (a
# logo or a picture is one big component).
MIN_GLYPHS = 8
MIN_GLYPH_SHARE = 0.6
# Blocks whose lines run within MERGE_ANGLE degrees of each other and whose hulls are
# within MERGE_GAP join-kernel widths are one block: a sure-looking word read across (a
# "So" at 85 over a stamp) took its ink out and cut the stamp in two.
MERGE_ANGLE = 5.0
MERGE_GAP = 2.0
# At most MAX_CANDIDATES blocks per page are looked at (most glyphs first), and at most
# MAX_BLOCKS read (tilted ones first): the cost bound.
MAX_CANDIDATES = 16
MAX_BLOCKS = 8
# Blocks are found on a copy of the page with text at most this many pixels tall (pages of
# big text are shrunk for it; the working image's text is mostly 16-20 px already). At 10
# the thin digits of the vertical file numbers on the real dev pages were lost, at 14 some.
FIND_HEIGHT = 20.0
# Line direction: candidate angles every ANGLE_STEP degrees, refined to ANGLE_FINE; the
# profile's bins are PROFILE_BIN text heights; at most SAMPLE_PIXELS ink pixels are used.
ANGLE_STEP = 3.0
ANGLE_FINE = 0.5
PROFILE_BIN = 0.25
SAMPLE_PIXELS = 6000
# Direction unsure (a single short word): the best angle's sharpness under this many times
# that of the angle a quarter turn off; then both are tried.
DIRECTION_SURE = 1.4
# A block whose lines run within this many degrees of across is read as the page was, unless
# it is upside down: Tesseract reads a few degrees of tilt.
MIN_TILT = 6.0
# A reading is kept when its words (two letters or digits) reach this char-weighted mean
# confidence and hold this many characters: logos, handwriting and dirt read as letters
# fall below it.
MIN_MEAN_CONF = 70.0
MIN_CHARS = 6
# A block across is read upside down only when the page read's unsure words over it have
# a mean confidence under UPSIDE_DOWN_CONF (upside-down print read 0-36, mean 17; faint
# upright print mostly 40-80) and its ink is not plainly upright: rise (ink above the
# x-height band over ink below, ``scan_cleanup.upright_text_evidence``) under RISE_UP
# (pages: 1.4-4 upright, at most 0.8 upside down). On the real dev pages this leaves 16 of
# 147 blocks across.
UPSIDE_DOWN_CONF = 40.0
RISE_UP = 1.3
# Crops are read enlarged so their text is about this many pixels tall (at least x1).
READ_HEIGHT = 24.0
# Crops sit on the canvas this many text heights apart.
GAP_HEIGHTS = 1.5
# Tesseract's page segmentation for the canvas: one uniform block of lines.
PSM = 6


@dataclass
class Block:
    """Ink at an angle of its own: its bounding box, its hull (polygon, work coordinates),
    its line direction in degrees (counter-clockwise from across, in (-90, 90]) and whether
    that direction is sure."""
    box: tuple[int, int, int, int]
    hull: np.ndarray
    angle: float
    sure: bool
    glyphs: int


@dataclass
class Variant:
    """A block cut out and turned: ``image`` to read, ``back`` the affine from its pixels to
    the working image's."""
    block: int
    turn: float
    image: np.ndarray
    back: np.ndarray


def is_confident(text: str, conf: float) -> bool:
    return conf >= CONFIDENT and sum(ch.isalnum() for ch in text) >= 2


def find_blocks(work: np.ndarray, words, th: float) -> list[Block]:
    """Blocks of ink that no confident word covers, with their line direction, tilted ones
    first. ``words`` are (text, box, conf) in ``work`` coordinates. The ink is looked at on
    a copy with text at most FIND_HEIGHT pixels tall."""
    th = float(max(th, 6.0))
    f = min(1.0, FIND_HEIGHT / th)
    small = cv2.resize(work, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1.0 else work
    ts = th * f
    mask = sc.merged_ink_mask(small)
    if cv2.countNonZero(mask) > 0.5 * mask.size:
        return []          # a dark page or a photo: no ink on paper to speak of
    # Table rules and frames are no text and would join everything near them.
    horizontal, vertical = sc.long_runs(mask, ts)
    mask = cv2.subtract(mask, cv2.dilate(horizontal | vertical, np.ones((3, 3), np.uint8)))
    grow = th * 0.15
    for text, box, conf in words:
        if is_confident(text, conf):
            x0, y0, x1, y1 = box
            mask[max(0, int((y0 - grow) * f)):int(math.ceil((y1 + grow) * f)),
                 max(0, int((x0 - grow) * f)):int(math.ceil((x1 + grow) * f))] = 0
    n, stats = sc.component_stats(mask)
    if n <= 1:
        return []
    side = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT])
    glyph = (side >= GLYPH_MIN * ts) & (side <= GLYPH_MAX * ts)
    if int(glyph.sum()) < MIN_GLYPHS:
        return []          # the ordinary page: nothing left to group (no dilation paid)
    # Text at an angle may be bigger than the page's (a stamp): its lines join at its size.
    k = max(3, int(round(JOIN_HEIGHTS * max(ts, float(np.median(side[glyph]))))))
    joined = cv2.dilate(mask, np.ones((k, k), np.uint8))
    nb, labels, bstats = _labelled(joined)
    # each piece of ink belongs to the block under its first inked pixel of its top row
    # (inside the dilated ink by construction)
    top = stats[1:, cv2.CC_STAT_TOP]
    left = stats[1:, cv2.CC_STAT_LEFT]
    owner = labels[top + stats[1:, cv2.CC_STAT_HEIGHT] // 2, left + stats[1:, cv2.CC_STAT_WIDTH] // 2]
    # a centre off the ink (an "O") may still lie outside the dilation: then its corner
    owner = np.where(owner > 0, owner, labels[top, left])
    area = stats[1:, cv2.CC_STAT_AREA]
    glyphs = np.bincount(owner[glyph], minlength=nb)
    glyph_ink = np.bincount(owner[glyph], weights=area[glyph], minlength=nb)
    all_ink = np.bincount(owner, weights=area, minlength=nb)
    candidates = [b for b in range(1, nb) if glyphs[b] >= MIN_GLYPHS
                  and glyph_ink[b] >= MIN_GLYPH_SHARE * max(all_ink[b], 1)]
    candidates.sort(key=lambda b: -glyphs[b])
    out: list[Block] = []
    for b in candidates[:MAX_CANDIDATES]:
        x, y, bw, bh = (int(v) for v in bstats[b, :4])
        region = labels[y:y + bh, x:x + bw] == b
        ys, xs = np.nonzero(region & (mask[y:y + bh, x:x + bw] > 0))
        if len(xs) == 0:
            continue
        angle, sure = line_angle(xs.astype(float), ys.astype(float), ts)
        contours, _ = cv2.findContours(region.astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        hull = (cv2.convexHull(np.vstack(contours)) + np.array([x, y])) / f
        box = (int(x / f), int(y / f), int(math.ceil((x + bw) / f)), int(math.ceil((y + bh) / f)))
        out.append(Block(box, hull.astype(np.int32), angle, sure, int(glyphs[b])))
    out = merge_blocks(out, MERGE_GAP * k / f)
    out.sort(key=lambda b: (abs(b.angle) < MIN_TILT, -b.glyphs))
    return out[:MAX_BLOCKS]


def _labelled(mask: np.ndarray):
    """Component count, labels and stats of ``mask``, labelled in 16 bits when they fit
    (2.5-3x faster than 32, as ``scan_cleanup.component_stats``)."""
    try:
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_16U)
    except cv2.error:
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return n, labels, stats


def _angle_apart(a: float, b: float) -> float:
    """Degrees between two line directions (lines: modulo 180)."""
    d = abs(a - b) % 180.0
    return min(d, 180.0 - d)


def _hull_gap(a: np.ndarray, b: np.ndarray) -> float:
    """Distance between two convex hulls (0 when they overlap): for convex polygons it is
    reached at a corner of one of them."""
    pa, pb = a.reshape(-1, 1, 2).astype(np.float32), b.reshape(-1, 1, 2).astype(np.float32)
    d = min(min(-cv2.pointPolygonTest(pb, (float(x), float(y)), True) for x, y in a.reshape(-1, 2)),
            min(-cv2.pointPolygonTest(pa, (float(x), float(y)), True) for x, y in b.reshape(-1, 2)))
    return max(0.0, d)


def merge_blocks(blocks: list[Block], gap: float) -> list[Block]:
    """Blocks whose lines run alike and lie within ``gap`` pixels of each other made one
    (direction: that of the one with most glyphs)."""
    blocks = list(blocks)
    merged = True
    while merged and len(blocks) > 1:
        merged = False
        for i in range(len(blocks)):
            for j in range(i + 1, len(blocks)):
                a, b = blocks[i], blocks[j]
                if _angle_apart(a.angle, b.angle) > MERGE_ANGLE or _hull_gap(a.hull, b.hull) > gap:
                    continue
                main = a if a.glyphs >= b.glyphs else b
                hull = cv2.convexHull(np.vstack([a.hull.reshape(-1, 2), b.hull.reshape(-1, 2)]))
                box = (min(a.box[0], b.box[0]), min(a.box[1], b.box[1]),
                       max(a.box[2], b.box[2]), max(a.box[3], b.box[3]))
                blocks[i] = Block(box, hull, main.angle, a.sure or b.sure, a.glyphs + b.glyphs)
                del blocks[j]
                merged = True
                break
            if merged:
                break
    return blocks


def _sharpness(xs: np.ndarray, ys: np.ndarray, angles: np.ndarray, bin_px: float) -> np.ndarray:
    """Per angle (degrees, counter-clockwise from across as seen): the sum of squares of the
    projection profile of the points onto the lines' normal, normalised."""
    rad = np.radians(angles)[:, None]
    # a line at angle a runs along (cos a, -sin a) in image coordinates (y down); its
    # normal is (sin a, cos a)
    proj = xs[None, :] * np.sin(rad) + ys[None, :] * np.cos(rad)
    proj = np.floor((proj - proj.min(axis=1, keepdims=True)) / bin_px).astype(np.int64)
    out = np.empty(len(angles))
    for i, row in enumerate(proj):
        counts = np.bincount(row)
        out[i] = float((counts.astype(np.float64) ** 2).sum())
    return out / float(len(xs)) ** 2


def line_angle(xs: np.ndarray, ys: np.ndarray, th: float) -> tuple[float, bool]:
    """The direction of the text lines the ink points (xs, ys) lie on, in degrees
    counter-clockwise from across, in (-90, 90]; and whether it is sure (the sharpness along
    the lines well above that a quarter turn off: not so for a single short word)."""
    if len(xs) > SAMPLE_PIXELS:
        pick = np.random.default_rng(0).choice(len(xs), SAMPLE_PIXELS, replace=False)
        xs, ys = xs[pick], ys[pick]
    bin_px = max(1.0, PROFILE_BIN * th)
    coarse = np.arange(-90.0 + ANGLE_STEP, 90.0 + 1e-9, ANGLE_STEP)
    s = _sharpness(xs, ys, coarse, bin_px)
    best = float(coarse[int(np.argmax(s))])
    fine = np.arange(best - ANGLE_STEP, best + ANGLE_STEP + 1e-9, ANGLE_FINE)
    sf = _sharpness(xs, ys, fine, bin_px)
    best = float(fine[int(np.argmax(sf))])
    best = (best + 90.0) % 180.0 - 90.0
    if best <= -90.0:
        best += 180.0
    across = float(_sharpness(xs, ys, np.array([best + 90.0]), bin_px)[0])
    return best, float(sf.max()) >= DIRECTION_SURE * max(across, 1e-12)


def _cut(work: np.ndarray, block: Block, th: float) -> tuple[np.ndarray, int, int]:
    """The block's hull cut out of ``work`` on white paper, with a margin; and its origin."""
    h, w = work.shape[:2]
    pad = int(round(th * 0.5))
    x0, y0 = max(0, block.box[0] - pad), max(0, block.box[1] - pad)
    x1, y1 = min(w, block.box[2] + pad), min(h, block.box[3] + pad)
    keep = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(keep, [block.hull.reshape(-1, 2) - np.array([x0, y0])], 255)
    keep = cv2.dilate(keep, np.ones((3, 3), np.uint8), iterations=max(1, pad // 2))
    crop = np.where(keep > 0, work[y0:y1, x0:x1], 255).astype(np.uint8)
    return crop, x0, y0


def upside_down_candidate(work: np.ndarray, block: Block, words, th: float) -> bool:
    """Whether a block whose lines run across may be upside down, worth a read turned: the
    page read got only unsure words there (mean under UPSIDE_DOWN_CONF: faint or broken
    upright print reads better), and its ink does not plainly stand upright (rise under
    RISE_UP; capitals and digits rise little either way, so only "upright" is trusted)."""
    unsure = [conf for text, box, conf in words
              if not is_confident(text, conf) and inside(box, block)]
    if not unsure or float(np.mean(unsure)) >= UPSIDE_DOWN_CONF:
        return False
    crop, _, _ = _cut(work, block, th)
    upright, _ = geo.rotate(crop, -block.angle)
    across, _down, rise = geo.upright_text_evidence(upright, th)
    return not (across and rise >= RISE_UP)


def variants(work: np.ndarray, blocks: list[Block], th: float, words=()) -> list[Variant]:
    """Each block cut out, enlarged for reading and turned every way worth reading it.
    ``words``: the page read's (text, box, conf), for blocks across (see
    ``upside_down_candidate``)."""
    out: list[Variant] = []
    scale = max(1.0, READ_HEIGHT / max(th, 1.0))
    for i, block in enumerate(blocks):
        if abs(block.angle) < MIN_TILT and block.sure and \
                not upside_down_candidate(work, block, words, th):
            continue
        crop, x0, y0 = _cut(work, block, th)
        if scale > 1.0:
            crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        to_crop = np.array([[scale, 0.0, -x0 * scale], [0.0, scale, -y0 * scale]])
        # geo.rotate turns counter-clockwise: lines at ``angle`` come out across
        base = -block.angle
        turns = [base, base + 180.0]
        # a block across (|base| < MIN_TILT) is read upside down only (the turn of about 0
        # is skipped below): upright, it is what the page read saw
        if not block.sure:
            turns += [base + 90.0, base + 270.0]
        for turn in turns:
            turn = (turn + 180.0) % 360.0 - 180.0
            if abs(turn) < MIN_TILT:
                continue   # read across and upright: what the page read saw
            image, m = geo.rotate(crop, turn)
            out.append(Variant(i, turn, image, geo.invert(geo.compose(to_crop, m))))
    return out


def stack(images: list[np.ndarray], th: float) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """The images on one white canvas, one below the other with blank bands between them;
    each one's (left, top, width, height) on it."""
    gap = max(8, int(round(GAP_HEIGHTS * th)))
    width = max(im.shape[1] for im in images) + 2 * gap
    height = sum(im.shape[0] for im in images) + gap * (len(images) + 1)
    canvas = np.full((height, width), 255, np.uint8)
    placed = []
    y = gap
    for im in images:
        canvas[y:y + im.shape[0], gap:gap + im.shape[1]] = im
        placed.append((gap, y, im.shape[1], im.shape[0]))
        y += im.shape[0] + gap
    return canvas, placed


def split(found, placed) -> list[list]:
    """Words read on the canvas ((text, box, conf, line_key) items), per placed image, their
    boxes in that image's pixels."""
    per: list[list] = [[] for _ in placed]
    for text, box, conf, line_key in found:
        cy = (box[1] + box[3]) / 2
        for k, (left, top, pw, ph) in enumerate(placed):
            if top <= cy < top + ph:
                b = (box[0] - left, box[1] - top, box[2] - left, box[3] - top)
                per[k].append((text, b, conf, line_key))
                break
    return per


def quad_hull(box, back: np.ndarray, width: int, height: int) -> tuple[float, float, float, float]:
    """The axis-aligned hull of ``box``'s four corners taken through the affine ``back``,
    clipped to a ``width`` x ``height`` image: a word read at an angle, boxed on the page."""
    return geo.map_box(box, back, width, height)


def _score(words) -> float:
    """Confidence-weighted count of characters read as real words (as the page read's)."""
    return sum(len(t) * max(c, 0.0) / 100.0 for t, _, c, _ in words
               if sum(ch.isalnum() for ch in t) >= 2)


def reads_confidently(words) -> bool:
    """A reading worth keeping: enough characters in real words, read with confidence."""
    real = [(t, c) for t, _, c, _ in words if sum(ch.isalnum() for ch in t) >= 2]
    chars = sum(len(t) for t, _ in real)
    if chars < MIN_CHARS:
        return False
    return sum(len(t) * c for t, c in real) / chars >= MIN_MEAN_CONF


def best_reading(found_per_variant, variant_list: list[Variant], width: int, height: int) -> dict[int, list]:
    """Per block, the words of its best confident reading (text, box in work coordinates,
    conf, line_key); blocks with none are left out."""
    best: dict[int, tuple[float, int]] = {}
    for k, (v, words) in enumerate(zip(variant_list, found_per_variant)):
        if not reads_confidently(words):
            continue
        s = _score(words)
        if v.block not in best or s > best[v.block][0]:
            best[v.block] = (s, k)
    out: dict[int, list] = {}
    for b, (_, k) in best.items():
        v = variant_list[k]
        mapped = []
        for text, box, conf, line_key in found_per_variant[k]:
            if not (any(ch.isalnum() for ch in text) or len(text) > 1):
                continue
            hull = quad_hull(box, v.back, width, height)
            if hull[2] > hull[0] and hull[3] > hull[1]:
                mapped.append((text, hull, conf, line_key))
        if mapped:
            out[b] = mapped
    return out


def inside(box, block: Block) -> bool:
    """Whether ``box``'s centre lies in the block's hull."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return cv2.pointPolygonTest(block.hull.reshape(-1, 1, 2).astype(np.float32),
                                (float(cx), float(cy)), False) >= 0
