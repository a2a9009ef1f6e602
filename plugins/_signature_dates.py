"""The date a hand writes beside its signature ("signed and dated": "J. Stone 5/19/81" on a
study report's signature line), told from the signature by its strokes: a numeric date's
slashes are separate straight strokes, leaning forward, taller than the figures round them,
and the figures are small separate marks; cursive is long joined strokes. So a signature's
box whose loose ink holds two such slashes a few figures apart, with figures beside them, is
cut in two: the date (DATE) and what is left (the signature), or is all date when nothing
else is there (a date written alone on a signature line, which the signature finder took
for initials).

Pure functions on the signature detector's stroke layers (``_signature_strokes.Strokes``);
lengths in body text heights h."""
from __future__ import annotations

import numpy as np

SLASH_TALL = 1.8       # a slash stands at least 1.8 h tall (handwritten figures: 1-1.7 h) ...
SLASH_MAX = 5.0        # ... and at most 5 h (a capital's long downstroke in cursive is taller)
SLASH_LEAN = 0.9       # ... its pixels on one straight forward-leaning line (|correlation| of
                       # x and y over 0.9; a digit's strokes curve: "1" and "7" below 0.8)
SLASH_NARROW = 0.9     # ... no wider than 0.9 of its height
BAR_TALL = 1.5         # a date's figures parted by upright bars ("10|13|87", the way many
BAR_NARROW = 0.25      # hands write a date on a form): a straight stroke 1.5 h tall at least
BAR_OVER = 1.3         # and a quarter as wide as tall, 1.3 times as tall as the figures round
                       # it (a handwritten "1" is figure-high; the stem of a capital "I" in
                       # large print is as tall as the capitals beside it)
SLASH_GAP = 4.5        # a date's two slashes stand at most 4.5 h apart (one or two figures)
BEFORE = 3.0           # figures up to 3 h before the first slash (the month) ...
AFTER = 4.5            # ... and up to 4.5 h after the last (a year of two or four figures)
FIGURE_WIDE = 2.5      # a figure is at most 2.5 h wide ...
FIGURE_TALL = 0.6      # ... and at least 0.6 h tall (specks and a rule's flat bits are none)
MIN_FIGURES = 2        # figures besides the slashes at least (d/d/yy has four)
REST_STROKE = 2.0      # what is left is a signature when a pen stroke of it is 2 h wide
REST_SHARE = 0.3       # ... or it holds this share of the box's ink


def _components(s, box) -> list[tuple]:
    """Loose pen strokes inside ``box``: (x0, y0, x1, y1, area, lean) with lean the
    correlation of the stroke's pixels' x and y (negative: leaning forward, y down)."""
    x0, y0, x1, y1 = (int(v) for v in box)
    x0, y0 = max(0, x0), max(0, y0)
    labels = np.unique(s.lab[y0:int(np.ceil(y1)), x0:int(np.ceil(x1))])
    out = []
    for lab in labels[labels > 0]:
        cx, cy, cw, ch, area = (int(v) for v in s.lstat[lab][:5])
        ys, xs = np.nonzero(s.lab[cy:cy + ch, cx:cx + cw] == lab)
        lean = 0.0
        if len(xs) > 2 and xs.std() > 0 and ys.std() > 0:
            lean = float(np.corrcoef(xs, ys)[0, 1])
        out.append((cx, cy, cx + cw, cy + ch, area, lean))
    return out


def _is_slash(c, h: float) -> bool:
    """A date's separator: a forward slash, or an upright bar (``_is_bar``)."""
    return _leaning_slash(c, h) or _is_bar(c, h)


def _leaning_slash(c, h: float) -> bool:
    tall = c[3] - c[1]
    return SLASH_TALL * h <= tall <= SLASH_MAX * h and c[2] - c[0] <= SLASH_NARROW * tall and c[5] <= -SLASH_LEAN


def _is_bar(c, h: float) -> bool:
    tall = c[3] - c[1]
    return BAR_TALL * h <= tall <= SLASH_MAX * h and c[2] - c[0] <= BAR_NARROW * tall


def date_run(comps: list[tuple], h: float) -> list[tuple] | None:
    """The strokes of a handwritten numeric date among ``comps``: two slashes close together
    and the small figures round them in their band; None when there is none."""
    slashes = sorted((c for c in comps if _is_slash(c, h)), key=lambda c: c[0])
    for a, b in zip(slashes, slashes[1:]):
        if b[0] - a[2] > SLASH_GAP * h or min(a[3], b[3]) <= max(a[1], b[1]):
            continue          # too far apart, or not on one line
        top, bottom = min(a[1], b[1]), max(a[3], b[3])
        left, right = a[0] - BEFORE * h, b[2] + AFTER * h
        figures = [c for c in comps if c not in (a, b) and c[2] - c[0] <= FIGURE_WIDE * h
                   and FIGURE_TALL * h <= c[3] - c[1] <= bottom - top
                   and top - 0.5 * h <= (c[1] + c[3]) / 2 <= bottom + 0.5 * h and left <= c[0] and c[2] <= right]
        # (slanted slashes overlap across: between them means between their centres)
        between = [c for c in figures if a[0] + a[2] < c[0] + c[2] < b[0] + b[2]]
        bars = [c[3] - c[1] for c in (a, b) if not _leaning_slash(c, h)]
        if bars and figures and min(bars) < BAR_OVER * max(c[3] - c[1] for c in figures):
            continue          # strokes of print as tall as the letters beside them
        if len(figures) >= MIN_FIGURES and between:
            return [a, b] + figures
    return None


def _union(comps) -> tuple[float, float, float, float]:
    return (float(min(c[0] for c in comps)), float(min(c[1] for c in comps)),
            float(max(c[2] for c in comps)), float(max(c[3] for c in comps)))


def split_date(s, box) -> tuple[tuple | None, tuple | None]:
    """(the date's ink box, the signature's ink box) in a signature's ``box``; (None, None)
    when it holds no date; the signature None when the date is all it holds."""
    h = s.h
    comps = _components(s, box)
    run = date_run(comps, h)
    if run is None:
        return None, None
    # (flat bits a removed rule leaves under the writing are no stroke of it)
    # the signature is what stands beside the date: strokes under or over it (a label's
    # bits, the line's) are neither
    date = _union(run)
    rest = [c for c in comps if c not in run and c[3] - c[1] >= 0.5 * h
            and min(c[2], date[2]) - max(c[0], date[0]) <= 0.5 * (c[2] - c[0])]
    total = sum(c[4] for c in comps) or 1
    signature = None
    if rest and (max(c[2] - c[0] for c in rest) >= REST_STROKE * h or
                 sum(c[4] for c in rest) >= REST_SHARE * total):
        signature = _union(rest)
    return date, signature
