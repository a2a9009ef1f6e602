"""The rules and borders a redaction box touches, told from the glyphs it holds.

A component of ink far longer than any glyph is a rule line, a table border or an
underline; a value typed on a fill-in line has glyphs merged into that rule. These pure
functions on component masks say which components are structure, what glyph ink merged
into a rule belongs to the value, and which margins of a box hold nothing but rule, for
``ink_boxes.fit_box`` and the unread-ink finder. All sizes are relative to the text height
h of the box.
"""
from __future__ import annotations

import cv2
import numpy as np

MIN_INSIDE = 0.3         # share of a touched component that must lie inside the box ...
MIN_INSIDE_OFF_LINE = 0.6   # ... or, when its centre is above/below the box (a glyph of the
                            # next line caught in the corner of a skewed line's box), this much
MERGED_REACH = 0.2       # a glyph merged into a rule reaches this far into the box's text,
MERGED_MAX_H = 1.2       # is at most this tall ...
THIN = 0.2               # ... and not thinner than this either way
STEM_RUN = 1.4           # a stem and the rule it was typed onto run at most this tall
TAIL = 0.5               # a glyph's tail through its rule is at most this tall
LINE_RUN = 1.5           # a straight run of ink this long is a rule, not a glyph's stroke
RULE_PAST_W = 2.5         # a component this wide whose rule runs on past the box is a fill-in
                          # line with glyphs typed down onto it, however short the line (a
                          # date's blank between "FORWARDED ON" and "(Date)" is 4 h long)


def _across_runs(m: np.ndarray, h: float) -> np.ndarray:
    """The horizontal runs at least LINE_RUN text heights long in a 0/1 mask: rules, which
    no glyph's stroke is."""
    return cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((1, max(3, int(round(LINE_RUN * h)))), np.uint8))


def straight_runs(m: np.ndarray, upright_len: int, h: float):
    """The vertical runs at least ``upright_len`` pixels long and the horizontal rules
    (:func:`_across_runs`) in a 0/1 mask."""
    upright = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((max(3, upright_len), 1), np.uint8))
    return upright, _across_runs(m, h)


def held_structure_extent(part: np.ndarray, h: float):
    """Extent of the glyph ink merged into a rule or border that the box holds (boolean mask
    of the box): a descender crossing the rule under the text, a digit touching a cell
    border, with the rule's rows where such a glyph crosses it (their ink lies in the
    value's own box). The straight lines alone hold no value: a cell border between two
    parts of a value runs the box's full height, a skewed rule clips a corner, and neither
    may keep the box taller than its glyphs. None when only lines are held."""
    m = part.astype(np.uint8)
    rows, cols = m.shape
    upright, across = straight_runs(m, int(0.9 * rows), h)
    lines = cv2.dilate(upright | across, np.ones((3, 3), np.uint8))   # with their soft edges
    rest = m & (1 - lines)
    ys, xs = np.nonzero(rest)
    if ys.size == 0:
        return None
    x0, x1 = int(xs.min()), int(xs.max()) + 1
    y0, y1 = int(ys.min()), int(ys.max()) + 1
    crossed = np.nonzero(across[:, max(0, x0 - 2):min(cols, x1 + 2)].any(axis=1))[0]
    if crossed.size:
        y0, y1 = min(y0, int(crossed.min())), max(y1, int(crossed.max()) + 1)
    return (x0, y0, x1, y1)


def mostly_rule(comp: np.ndarray, h: float) -> bool:
    """Whether most of a wide component's ink is straight horizontal runs: an underline
    or border with a few glyphs written down onto it, not a word."""
    m = comp.astype(np.uint8)
    across = _across_runs(m, h)
    return int(across.sum()) >= 0.5 * int(m.sum())


def rule_past_box(comp: np.ndarray, h: float, bx0: int, bx1: int) -> bool:
    """Whether a wide component holds a rule that runs on past the box on a side: a fill-in
    line that the value's digits were typed down onto ("DATE____1/4/90______"), one ink
    component with them however little of it is rule. The glyphs are then found as ink
    merged into a structure, and the line's run beyond them is the form's."""
    cols = np.nonzero(_across_runs(comp.astype(np.uint8), h).any(axis=0))[0]
    return bool(cols.size) and (cols.min() < bx0 - 0.5 * h or cols.max() >= bx1 + 0.5 * h)


def merged_glyph_extent(comp: np.ndarray, inside: tuple[int, int], h: float,
                         inside_cols: tuple[int, int] | None = None):
    """Extent of the glyph ink merged into a rule that crosses the box's edge (boolean
    mask of one structure component over the box's columns, a band above and below it and
    beside it as far as a box may grow; ``inside`` = the box's rows in that window,
    ``inside_cols`` its columns, all of them when None): a descender that runs down into the
    underline of a fill-in line ("Amy Mitchell"), the foot of digits written down onto a
    cell's border ("TN 21157"). Only glyph pieces that reach into the box count, with the
    rule's rows under or over them: the next row's text touching the rule from the other
    side does not, and straight lines alone hold nothing. None when no piece does."""
    m = comp.astype(np.uint8)
    rows, cols = m.shape
    # an upright longer than a glyph with the rule under it is a border's; a stem is not
    upright, across = straight_runs(m, int(STEM_RUN * h), h)
    lines = cv2.dilate(upright | across, np.ones((3, 3), np.uint8))
    rest = m & (1 - lines)
    n, pieces, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    # a piece must reach the box's text, not only the rule's own rows where a box ends in
    # it (a dithered rule's ragged edge, the next cell's text hanging from it)
    on_rule = cv2.dilate(across.any(axis=1).astype(np.uint8)[:, None], np.ones((5, 1), np.uint8))[:, 0] > 0
    r0, r1 = max(inside[0], 0), inside[1]
    text_rows = np.zeros(rows, bool)
    text_rows[r0:r1] = True
    text_rows &= ~on_rule
    inner = pieces[text_rows]
    c0, c1 = inside_cols if inside_cols is not None else (0, cols)
    in_box = np.bincount(pieces[r0:r1, max(c0, 0):c1].ravel(), minlength=n)
    # ... far enough, and inside the box like any glyph the box cuts (a fair share when its
    # middle is on the box's rows, most of it otherwise): the caption above a skewed border
    # or a dotted rule's ragged edge hangs in from outside
    held = []
    for p in np.unique(inner[inner > 0]):
        pw, ph, area = stats[p, cv2.CC_STAT_WIDTH], stats[p, cv2.CC_STAT_HEIGHT], stats[p, cv2.CC_STAT_AREA]
        # what is left of a skewed or dashed border is a thin stroke or taller than text
        if ph > MERGED_MAX_H * h or pw < THIN * h or ph < THIN * h:
            continue
        middle = stats[p, cv2.CC_STAT_TOP] + ph / 2
        share = MIN_INSIDE if r0 <= middle <= r1 else MIN_INSIDE_OFF_LINE
        if np.count_nonzero((inner == p).any(axis=1)) >= MERGED_REACH * h and in_box[p] >= share * area:
            held.append(p)
    if not held:
        return None
    held += _tails_through_rule(pieces, stats, held, on_rule, h)
    ys, xs = np.nonzero(np.isin(pieces, held))
    x0, x1 = int(xs.min()), int(xs.max()) + 1
    y0, y1 = int(ys.min()), int(ys.max()) + 1
    # the rule rows a held piece runs into (the piece ends a dilation and a grey edge
    # short of them): their ink under the glyph is the glyph's own
    near = across[:, max(0, x0 - 2):min(cols, x1 + 2)].any(axis=1)
    below = _rule_run_end(near, y1, 1)
    above = _rule_run_end(near, y0 - 1, -1)
    return (x0, y0 if above is None else above, x1, y1 if below is None else below + 1)


def _tails_through_rule(pieces: np.ndarray, stats: np.ndarray, held: list, on_rule: np.ndarray,
                        h: float) -> list:
    """Pieces that carry a held glyph on through the rule it was typed onto: a "7"'s, a
    "9"'s or a "g"'s tail below the underline, short, under the glyph's own columns and
    touching the rule's rows (the next row's letters are taller than TAIL)."""
    spans = [(stats[p, cv2.CC_STAT_LEFT], stats[p, cv2.CC_STAT_LEFT] + stats[p, cv2.CC_STAT_WIDTH])
             for p in held]
    out = []
    for p in range(1, stats.shape[0]):
        if p in held or stats[p, cv2.CC_STAT_HEIGHT] > TAIL * h:
            continue
        px0 = stats[p, cv2.CC_STAT_LEFT]
        px1 = px0 + stats[p, cv2.CC_STAT_WIDTH]
        py0 = stats[p, cv2.CC_STAT_TOP]
        py1 = py0 + stats[p, cv2.CC_STAT_HEIGHT]
        touches = on_rule[max(0, py0 - 1):py1 + 1].any()
        if touches and any(px0 < sx1 and px1 > sx0 for sx0, sx1 in spans):
            out.append(p)
    return out


def _rule_run_end(near: np.ndarray, start: int, step: int, reach: int = 4) -> int | None:
    """The last row of the run of rule rows (``near``) that begins within ``reach`` rows of
    ``start`` going ``step`` (+1 down, -1 up); None when no rule row is that close."""
    for r in range(start, start + step * reach, step):
        if not 0 <= r < near.size:
            return None
        if near[r]:
            while 0 <= r + step < near.size and near[r + step]:
                r += step
            return r
    return None


def rule_only_margins(labels: np.ndarray, rules: set, box, own) -> tuple[bool, bool, bool, bool]:
    """For each side of ``box`` (left, top, right, bottom; crop pixels), whether the strip
    between the box's own ink ``own`` and that edge holds ink of ``rules`` (rule and border
    components) and nothing else: a strip with no ink at all is left to the bounded cut."""
    bx0, by0, bx1, by1 = (max(0, int(v)) for v in box)
    ox0, oy0 = int(np.floor(own[0])), int(np.floor(own[1]))
    ox1, oy1 = int(np.ceil(own[2])), int(np.ceil(own[3]))
    strips = (labels[by0:by1, bx0:max(bx0, ox0)], labels[by0:max(by0, oy0), bx0:bx1],
              labels[by0:by1, min(bx1, ox1):bx1], labels[min(by1, oy1):by1, bx0:bx1])
    out = []
    for strip in strips:
        found = set(np.unique(strip).tolist()) - {0}
        out.append(bool(found) and found <= rules)
    return tuple(out)


def is_structure(comp, stats_row, h: float, bx0: int, bx1: int) -> bool:
    """Whether a component the box touches is structure, not a glyph: a rule line, table
    border or underline, far longer than any glyph; a shaded cell, stamp or picture, far
    larger than text both ways; a field's border stroke; a fill-in line with glyphs typed
    onto it. ``comp()`` gives the component's own mask over its bounding box (computed
    only when the shape alone does not decide); ``bx0``/``bx1`` are the box's edges in the
    coordinates of ``stats_row``."""
    sx, sy, sw, sh, _ = stats_row
    if (sw > 4 * h and sh < 0.35 * h) or (sh > 4 * h and sw < 0.35 * h) or \
            (sw > 3 * h and sh > 2.5 * h) or (sh > 1.3 * h and sw < 0.12 * sh) or \
            (sw > 2.5 * h and sh < 0.15 * h):
        return True
    if sw > 4 * h and mostly_rule(comp(), h):
        return True
    return sw > RULE_PAST_W * h and rule_past_box(comp(), h, bx0 - sx, bx1 - sx)
