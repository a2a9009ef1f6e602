"""Handwritten signatures and initials, found in the page image beside the OCR words.

Principle: a signature is cursive ink that is not print, where documents put signatures.
Print is what OCR read confidently (its word boxes, unless the strokes in a box run on out
of it: cursive boxed by luck); printed rules (signature lines, table borders) are removed
by a morphological opening. What is left is joined into pieces (strokes within a letter
gap). A piece is a *seed* when it looks like handwriting: taller than the body text (1.5 h,
or 1.1 h beside a label), with one connected pen stroke 1.5 h tall that is no straight
hairline (print is letter by letter; a table's cell border is straight), one writing line,
little fill, not mostly hairlines, not rotated print, not a stamp's ring or the text in
it, and with a stroke running over several letters (cursive) unless it is as short as
initials or beside a label. Pieces beside a seed on its writing line join it (the initials
and dots of "M. S. Forte"), and the narrow loops it drops through its own line; a group
stays within one signature's length, and is cut into its writing lines when it holds
several (two signatures stacked, a signature and the typed name it touches), and between
the signature labels stacked left of it (each form line's one signer). A group is
a signature where documents put signatures:

- beside, above or below a signature label ("Signature", "Signed", "By:", "Approved by",
  "Per", "Initials", "Notary", letter closings "Sincerely", "Yours faithfully" ...);
- cursive on a signature line (a horizontal rule under or through it), or over a typed
  name (the signer's name under a memo's signature);
- initials in the page margin, outside the text area (pages initialled one by one).

Those places are ``_signature_anchors``'. A "By" label's own letters are print however
unsure OCR was of them: a piece over them is cut at their end (the hand writes after it).

The box is the ink extent of the group's strokes (the contract's gold is ink-tight), padded.
A date the hand wrote beside the signature ("J. Stone 5/19/81": signed and dated) is cut
out of it as a DATE by its slashes (``_signature_dates``); a box that is only such a date
is one.
OCR garbage over cursive needs no rule of its own: a word read at low confidence is not
masked as print, so its strokes stay in the groups.

The short title-case line typed just under a found signature is its signer's name, reported
as a PERSON (``_signature_anchors.signer_names``, score NAME_SCORE: by place alone), however
foreign or misread for the text detectors; ``redactor.visual`` drops it where a text
detector's PERSON box overlaps it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from redactor.plugin_api import OcrPage, Redaction, VisualDetector, inside, union_box
from redactor_plugins._options import as_bool
from redactor_plugins._signature_anchors import (INITIALS, Anchors, after_date_caption, at_edge, initials_in_margin,
                                                 is_label, letters_box, near_label, on_rule, opens_blank,
                                                 signer_names,
                                                 over_date_caption, over_typed_name, print_extent, typed_names)
from redactor_plugins._signature_dates import split_date
from redactor_plugins._signature_strokes import (Strokes, bands, circles_print, pen_strokes, pieces_of, print_share,
                                                 ring_holes, strokes_of)
from redactor_plugins.visual_common import CONFIDENT, alnum, gray_of, ink_of, text_height, words_of

# Geometry, in units of the body text height h (so it holds at any scan resolution).
GROW_X, GROW_Y = 3.0, 0.3     # pieces this close join a signature: the gaps between its
                              # names and initials, on one writing line (their heights
                              # overlap by GROW_Y of the smaller)
ONE_SIGNER = frozenset({"signature", "sign", "signed"})   # captions asking for one signature
LINE_GAP = 6.0            # ... or up to 6 h apart on one line in a one-signer blank
MAX_WIDTH = 34.0          # a signature is at most ~30 text heights long (real dev gold: up to
                          # 31 h); a longer group is two signatures side by side, or one and
                          # the handwriting beside it
SIGNATURE_ASPECT = 8.0    # ... or up to 8 times as long as it is tall, when written large (real
                          # dev gold: 0.6-8.5 times; a notary's 6.6 h tall flourish on a page
                          # of small print runs 37 h), its tallest stroke at least 0.4 of
                          # its height (the notary's: 0.47; a stamp over a table's rules: 0.21)
LARGE_STROKE = 0.4
STACK_LEFT = 6.0          # labels of stacked signature lines end up to 6 h left of the ink,
STACK_ROW = 1.5           # ... their rows at least 1.5 h apart
LINE_H, LINE_W = 1.0, 3.0  # a line of writing is at least 1 h tall and 3 h long
MAX_CROSSINGS = 1         # ... and at most one stroke crosses between two lines (a capital's tail)
THROUGH = 0.5             # a rule up to half a text height thick is crossed by a stroke through it
DROP_W = 3.0              # a piece under a rule narrower than 3 h joins the writing above it:
                          # the loops a signature drops through its own line
ROTATED = 4.0                 # a piece over 4 h tall and twice as tall as wide is a line of
                              # print turned 90 degrees (archive numbers in the margin)
COMPANION_HEIGHT = 0.4        # smaller pieces (dots, specks) are left out
MIN_HEIGHT = 1.1          # a signature labelled as such is taller than the body text ...
TALL = 1.5                # ... and one found by a line or closing alone half as tall again:
                          # loops and flourishes (print that OCR read badly is text-high)
MIN_ASPECT = 0.6          # and not much narrower than tall (rotated print, margin marks)
MAX_FILL = 0.3            # pen strokes cover little of their box (real dev gold: median 16 %,
                          # print inside included); a filled or halftone block is not one
MAX_STRAIGHT = 0.5        # a piece made mostly of straight hairlines is ruling: box borders,
                          # checkboxes, table cells (pen strokes curve and slant)
PAD = 0.3                 # margin round the strokes: the pen's faint rim and the bit of
                          # line under them (hand-drawn gold boxes are a little loose); no
                          # more, or a small signature's box fails IoU 0.75 on its margin
                          # alone (real dev: 0.4 h matched 18 of 55 at 0.75, 0.3 h 22, with
                          # the same ink covered; 0.2 h left three signatures' rims readable)
BELOW_PRINT_SHARE = 0.15  # a typed line under a signature is cut off when at most this share
                          # of the box's unread ink lies at or below it (a bracket's stroke)
DATE_PAD = 0.15           # margin round a date written beside a signature: its figures' rim
STROKE = 1.5              # a signature has one pen stroke (connected ink) 1.5 text heights
                          # tall: cursive joins letters and loops over ascenders; print
                          # is letter by letter, none taller than a line (OCR-missed small
                          # print in a dense paragraph is many small components)
JOINED = 2.0              # cursive joins letters: a pen stroke 2 h long runs over several of
                          # them (block capitals and figures are letter by letter); a piece
                          # without one is a seed beside a label, or as short as initials
SNAP = 0.6                # an ink component 60 % inside a signature's box is part of it
PRINT_SHARE = 0.5         # a cluster whose ink is mostly under confident words is print
NAME_SCORE = 0.6          # the typed line under a signature as its signer's name: by place alone


@dataclass
class Piece:
    box: tuple
    seed: bool
    joined: bool      # holds a pen stroke running over several letters (JOINED h long)


class SignatureDetector(VisualDetector):
    name = "signatures"

    @classmethod
    def emits(cls) -> frozenset[str]:
        return frozenset({"SIGNATURE", "DATE", "PERSON"})

    def __init__(self, require_anchor: bool = True):
        self.require_anchor = as_bool("require_anchor", require_anchor)

    def find(self, image, page: OcrPage | None) -> list[Redaction]:
        words = words_of(page)
        h = text_height(words, image.size[1])
        found = [Redaction(box, "DATE" if kind == "DATE" or after_date_caption(box, words, h) or
                           over_date_caption(box, words, h) else "SIGNATURE",
                           "", score, (self.name,))
                 for box, score, kind in self.clusters(image, page)]
        # the signer's typed name under a signature is a PERSON, however foreign or misread
        # ("Hiromic] Eguchi") for the text detectors to know it
        signed = [r.bbox for r in found if r.type == "SIGNATURE"]
        return found + [Redaction(box, "PERSON", text, NAME_SCORE, (self.name,))
                        for box, text in signer_names(signed, words, h)]

    # -- the work -------------------------------------------------------------------------
    def clusters(self, image, page):
        words = words_of(page)
        ink = ink_of(gray_of(image))
        h = text_height(words, ink.shape[0])
        anchors = Anchors([w for i, w in enumerate(words) if is_label(words, i, h)], print_extent(words),
                          typed_names(words))
        s = strokes_of(ink, words, h)
        pieces, holes = [], []
        blanks = [letters_box(w) for w in anchors.labels if opens_blank(w)]
        printed = [w.bbox for w in words if w.conf >= CONFIDENT and alnum(w.text)]
        for box, sub, origin in pieces_of(s):
            piece = _in_blank(self._piece(s, box, sub, origin, anchors.labels), blanks)
            ring = ring_holes(sub, origin, s.h) if piece is not None else []
            holes += ring
            if piece is not None and not ring and not circles_print(sub, origin, s.h, printed):
                pieces.append(piece)
        # the text inside a stamp's border is the stamp's
        pieces = [p for p in pieces if not any(inside(p.box, hole) for hole in holes)]
        found = []
        # (a caption the pen crossed may be read in pieces: "Sign" "ture")
        one_signer = [w for w in anchors.labels if alnum(w.text) in ONE_SIGNER]
        for members in group_pieces(pieces, s, one_signer):
            if not any(pieces[i].seed for i in members):
                continue
            joined = any(pieces[i].joined for i in members)
            for cell in stacked_cells(s, union_box([pieces[i].box for i in members]), anchors.labels):
                found += self._lines_of(s, cell, anchors, joined)
        return [part for box, score in found for part in _dated(s, above_print(s, box, words), score)]

    def _piece(self, s: Strokes, box, sub, origin, labels):
        """A piece of loose strokes as a Piece (seed or companion), or None when it is not
        handwriting: a speck, rotated print, a filled block, ruling, or print boxed loosely."""
        h = s.h
        bw, bh = box[2] - box[0], box[3] - box[1]
        n_ink = int(sub.sum())
        if bh < COMPANION_HEIGHT * h or (bh > ROTATED * h and bw < 0.5 * bh):
            return None
        if n_ink > MAX_FILL * bw * bh:
            return None
        x, y = origin
        if s.straight[y:y + sub.shape[0], x:x + sub.shape[1]][sub].sum() > MAX_STRAIGHT * n_ink:
            return None
        if print_share(s, box) > PRINT_SHARE:
            return None
        tallest, widest = pen_strokes(s, sub, origin)
        labelled = near_label(box, labels, h)
        # written large, its own height sets its length, when its tallest pen stroke spans
        # much of it (one line of writing, not a table's frame and the print in it)
        long_ok = SIGNATURE_ASPECT * bh if tallest >= LARGE_STROKE * bh else 0.0
        seed = bw <= max(MAX_WIDTH * h, long_ok) and (bh >= TALL * h or (bh >= MIN_HEIGHT * h and labelled)) \
            and tallest >= STROKE * h and (widest >= JOINED * h or labelled or bw <= INITIALS * h) \
            and bands(sub | s.hruled[y:y + sub.shape[0], x:x + sub.shape[1]], h) < 2
        return Piece(box, seed, widest >= JOINED * h)

    def _lines_of(self, s: Strokes, box, anchors: Anchors, joined: bool) -> list:
        """The signatures in a group: one per writing line when each line is one (stacked
        signatures), the typed lines touching them left out; else the lines together (a
        signature and the loops it drops below its line)."""
        parts = [p for p in writing_lines(s, box) if print_share(s, p) <= PRINT_SHARE]
        if not parts:
            return []
        hits = [self._signature(s, p, anchors, joined) for p in parts]
        if len(parts) > 1 and None in hits:
            hits = [self._signature(s, union_box(parts), anchors, joined)]
        return [hit for hit in hits if hit is not None]

    def _signature(self, s: Strokes, box, anchors: Anchors, joined: bool):
        """(padded box, score) of a group that is a signature where documents put one. A
        line or a typed name under handwriting anchors cursive (joined strokes) only: block
        capitals and figures there are the values a form asks for."""
        h = s.h
        bw, bh = box[2] - box[0], box[3] - box[1]
        if bw < MIN_ASPECT * bh or at_edge(box, s.ink.shape, h):
            return None
        r0, r1, c0, c1 = int(box[1]), int(np.ceil(box[3])), int(box[0]), int(np.ceil(box[2]))
        if bands(s.loose[r0:r1, c0:c1] | s.hruled[r0:r1, c0:c1], h) >= 2:
            return None        # the pieces round a seed make up several lines: text
        if print_share(s, box) > PRINT_SHARE:
            return None        # mostly print round a few strokes: a stamp or a form in text
        tall = bh >= TALL * h
        labelled = near_label(box, anchors.labels, h)
        anchored = labelled or (tall and (initials_in_margin(box, anchors.extent, h, s.ink.shape)
                                          or (joined and (on_rule(box, s.rules, h)
                                                          or over_typed_name(box, anchors.names, h)))))
        if not anchored and (self.require_anchor or not tall):
            return None
        score = 0.9 if anchored and tall else 0.6 if anchored else 0.4
        return _padded(_snap(box, s.comp, s.cstat), PAD * h, s.ink.shape), score


def _in_blank(piece, blanks):
    """``piece`` without the part of it over a "By" label's letters on the label's line: a
    label printed large and read unsure is print, and the hand writes after it (the piece
    holding it, and the print left of it, is cut at its end or left out)."""
    if piece is None:
        return None
    x0, y0, x1, y1 = piece.box
    for bx0, by0, bx1, by1 in blanks:
        if min(y1, by1) - max(y0, by0) < 0.5 * min(y1 - y0, by1 - by0) or not (x0 < bx1 and x1 > bx0):
            continue
        if x1 <= bx1:
            return None
        x0 = bx1
    return piece if x0 == piece.box[0] else Piece((x0, y0, x1, y1), piece.seed, piece.joined)


def _padded(box, pad: float, shape) -> tuple[float, float, float, float]:
    """``box`` grown by ``pad`` on every side, kept on the page (``shape``: its height, width)."""
    H, W = shape
    return (max(0.0, box[0] - pad), max(0.0, box[1] - pad), min(float(W), box[2] + pad), min(float(H), box[3] + pad))


def above_print(s: Strokes, box, words):
    """The box cut above the typed line in its lower half ("(Notary Public)", the signer's
    title under the line): the typed words are the form's, the signature the hand's ink above
    them, refitted to its loose strokes (a stroke's tail over the print's top edge stays)."""
    x0, y0, x1, y1 = box
    typed = [w.bbox[1] for w in words if w.conf >= CONFIDENT and len(alnum(w.text)) >= 2
             and x0 <= (w.bbox[0] + w.bbox[2]) / 2 <= x1 and y0 <= (w.bbox[1] + w.bbox[3]) / 2 <= y1
             and w.bbox[1] >= (y0 + y1) / 2]
    if not typed:
        return box
    top = int(min(typed))
    sub = s.loose[int(y0):top, int(x0):int(np.ceil(x1))]
    below = int(s.loose[top:int(np.ceil(y1)), int(x0):int(np.ceil(x1))].sum())
    if below > BELOW_PRINT_SHARE * (below + int(sub.sum())):
        return box     # unread ink round the print too (a notary's stamp): it stays hidden
    cols = np.nonzero(sub.sum(axis=0) >= 2)[0]
    rows = np.nonzero(sub.any(axis=1))[0]
    if not len(cols):
        return box
    # a pen stroke mostly above the print keeps the tail it drops beside the typed words
    # (a notary's flourish running down past "(Notary Public)")
    above = _snap((x0 + cols[0], int(y0) + rows[0], x0 + cols[-1] + 1, int(y0) + rows[-1] + 1), s.lab, s.lstat)
    return _padded(above, PAD * s.h, s.ink.shape)


def _dated(s: Strokes, box, score: float) -> list:
    """A signature's box as (box, score, kind) parts: the date its hand wrote beside it apart
    (``_signature_dates``), each part padded like a signature."""
    date, rest = split_date(s, box)
    if date is None:
        return [(box, score, "SIGNATURE")]
    # figures are boxed as OCR boxes a word, over their ink's rim only
    return [(_padded(date, DATE_PAD * s.h, s.ink.shape), score, "DATE")] + \
        ([(_padded(rest, PAD * s.h, s.ink.shape), score, "SIGNATURE")] if rest else [])


def _tight(sub: np.ndarray, box, r0: int, r1: int):
    """The box of the ink in rows r0..r1 of ``sub`` (``sub`` spans ``box``), or None."""
    ys, xs = np.nonzero(sub[r0:r1])
    if ys.size == 0:
        return None
    return (box[0] + xs.min(), box[1] + r0 + ys.min(), box[0] + xs.max() + 1, box[1] + r0 + ys.max() + 1)


def _through_rules(s: Strokes, r0: int, r1: int, c0: int, c1: int) -> np.ndarray:
    """Loose ink of a region with the removed rules put back where a stroke runs on through
    them (ink above and below in the same column): a signature's loops through its line
    hold it together, a line between two entries parts them."""
    import cv2

    loose = s.loose[r0:r1, c0:c1].astype(np.uint8)
    k = max(3, int(THROUGH * s.h))
    closed = cv2.morphologyEx(loose, cv2.MORPH_CLOSE, np.ones((k, 1), np.uint8)).astype(bool)
    return loose.astype(bool) | (closed & s.hruled[r0:r1, c0:c1])


def writing_lines(s: Strokes, box, depth: int = 0) -> list:
    """A group cut into its writing lines: at a row that at most one stroke crosses, with a
    line of writing (LINE_H tall, LINE_W long) on each side: two signatures stacked on
    adjacent lines (a capital's tail dropping into the next), a signature and the typed name
    or title it touches. A signature's own loops and flourishes below it are no line."""
    h = s.h
    box = tuple(float(v) for v in box)
    r0, r1, c0, c1 = int(box[1]), int(np.ceil(box[3])), int(box[0]), int(np.ceil(box[2]))
    sub = _through_rules(s, r0, r1, c0, c1)
    line_h, line_w = int(np.ceil(LINE_H * h)), LINE_W * h
    if depth >= 3 or sub.shape[0] < 2 * line_h + 1:
        return [box]
    crossings = (np.diff(sub.astype(np.int8), axis=1) == 1).sum(axis=1) + sub[:, 0]
    best = None
    for r in range(line_h, sub.shape[0] - line_h):
        if crossings[r] > MAX_CROSSINGS or (best is not None and sub[r].sum() >= best[0]):
            continue
        parts = _tight(sub, (c0, r0), 0, r), _tight(sub, (c0, r0), r + 1, sub.shape[0])
        if all(p is not None and p[3] - p[1] >= LINE_H * h and p[2] - p[0] >= line_w for p in parts):
            best = (sub[r].sum(), parts)
    if best is None:
        return [box]
    return [q for p in best[1] for q in writing_lines(s, p, depth + 1)]


def stacked_cells(s: Strokes, box, labels) -> list:
    """A group cut between the signature labels stacked left of it ("Submitted By:" over
    "Approved By:"): a form's signature lines hold one signer each, written on the line
    beside its label, and a large hand runs its capitals and loops into the line above or
    below. The cut is the row with the least loose ink from the upper label's foot (its
    line) to 2 h below it; each part is refitted to its ink, and one under a signature's
    height (a dot, a loop's tail) stays with its neighbour above."""
    h = s.h
    rows = []
    for w in sorted((w for w in labels if box[0] - STACK_LEFT * h <= w.bbox[2] <= box[0] + h
                     and box[1] <= (w.bbox[1] + w.bbox[3]) / 2 <= box[3]), key=lambda w: w.bbox[3]):
        if not rows or w.bbox[3] - rows[-1].bbox[3] >= STACK_ROW * h:
            rows.append(w)
    if len(rows) < 2:
        return [box]
    r0, r1, c0, c1 = int(box[1]), int(np.ceil(box[3])), int(box[0]), int(np.ceil(box[2]))
    sub = s.loose[r0:r1, c0:c1]
    ink = sub.sum(axis=1)
    cuts = []
    for upper, lower in zip(rows, rows[1:]):
        a = max(0, int(upper.bbox[3] - 0.5 * h) - r0)
        b = max(a + 1, min(int(upper.bbox[3] + 2 * h), int((lower.bbox[1] + lower.bbox[3]) / 2)) - r0)
        cuts.append(a + int(np.argmin(ink[a:b])))
    parts = []
    for a, b in zip([0] + cuts, cuts + [sub.shape[0]]):
        part = _tight(sub, (c0, r0), a, b)
        if part is None:
            continue
        if parts and min(part[3] - part[1], parts[-1][3] - parts[-1][1]) < MIN_HEIGHT * h:
            parts[-1] = union_box([parts[-1], part])
        else:
            parts.append(part)
    return parts if len(parts) > 1 else [box]


def _one_line_one_signer(a: Piece, b: Piece, s: Strokes, captions) -> bool:
    """Seeds on one writing line in the blank of a caption asking for one signature are one
    signer's names, however far the hand spaced them ("Lawrence  A.  Schneider", the initial
    between read as print)."""
    if not (a.seed and b.seed) or not captions:
        return False
    gx, one_line = _side_by_side(a.box, b.box)
    return one_line and gx <= LINE_GAP * s.h and _one_signers_cell(a.box, b.box, captions, s.h)


def _side_by_side(a, b) -> tuple[float, bool]:
    """The horizontal gap between two boxes, and whether they stand on one writing line
    (their heights overlapping by GROW_Y of the smaller)."""
    gx = max(a[0], b[0]) - min(a[2], b[2])
    return gx, min(a[3], b[3]) - max(a[1], b[1]) >= GROW_Y * min(a[3] - a[1], b[3] - b[1])


def _joinable(a: Piece, b: Piece, s: Strokes) -> bool:
    """Two pieces on one writing line (beside each other, their heights overlapping), or a
    narrow piece just under a rule another stands on: a loop dropped through the
    signature's own line."""
    if not (a.seed or b.seed):
        return False          # text-high pieces join a seed only, so badly read print does not chain
    h = s.h
    (ax0, ay0, ax1, _), (bx0, by0, bx1, _) = a.box, b.box
    gx, one_line = _side_by_side(a.box, b.box)
    if gx <= GROW_X * h and one_line:
        return True
    upper, lower = (a, b) if ay0 <= by0 else (b, a)
    gap = lower.box[1] - upper.box[3]
    if gx >= 0 or not 0 <= gap <= 0.5 * h or lower.box[2] - lower.box[0] >= DROP_W * h:
        return False
    c0, c1 = int(max(ax0, bx0)), int(np.ceil(min(ax1, bx1)))
    return bool(s.hruled[int(upper.box[3]) - 1:int(np.ceil(lower.box[1])) + 1, c0:c1].any())


def _one_signers_cell(a, b, captions, h: float) -> bool:
    """Both boxes lie in the blank of one caption word that asks for one signature
    ("Signature", not "Signature(s)"): right of it or under it, the caption their nearest."""
    def nearest(box):
        near = [c for c in captions if near_label(box, [c], h)]
        return min(near, key=lambda c: abs(c.bbox[1] - box[1]) + abs(c.bbox[0] - box[0])) if near else None
    ca = nearest(a)
    return ca is not None and ca is nearest(b)


def group_pieces(pieces: list[Piece], s: Strokes, one_signer=()) -> list[list[int]]:
    """Pieces joined into signatures, the closest first; a join is refused when the group
    would be longer than one signature (MAX_WIDTH): two signatures side by side, or one
    and the handwritten value beside it (a piece written large in one run may be longer,
    ``SIGNATURE_ASPECT``; pieces joined may not: measured on the real dev split, joining
    pieces by their height lost two signatures to the handwriting beside them)."""
    h = s.h
    pairs = []
    for i, a in enumerate(pieces):
        for j in range(i + 1, len(pieces)):
            if _joinable(a, pieces[j], s) or _one_line_one_signer(a, pieces[j], s, one_signer):
                pairs.append((_side_by_side(a.box, pieces[j].box)[0], i, j))
    parent = list(range(len(pieces)))
    boxes = [p.box for p in pieces]

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for _, i, j in sorted(pairs):
        ri, rj = root(i), root(j)
        if ri == rj:
            continue
        box = union_box([boxes[ri], boxes[rj]])
        if box[2] - box[0] > MAX_WIDTH * h:
            continue
        parent[ri] = rj
        boxes[rj] = box
    groups: dict[int, list[int]] = {}
    for i in range(len(pieces)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _snap(box, comp, cstat):
    """The box grown over the ink components lying mostly inside it: the strokes OCR
    masked as print (a letter of the signature read by luck), the dots and the tails
    cut at the box edge, so the whole signature is hidden."""
    x0, y0, x1, y1 = (int(v) for v in box)
    ids, counts = np.unique(comp[y0:y1, x0:x1], return_counts=True)
    bx0, by0, bx1, by1 = box
    for i, n_in in zip(ids.tolist(), counts.tolist()):
        if i == 0:
            continue
        x, y, w, h, area = cstat[i]
        if n_in >= SNAP * area:
            bx0, by0 = min(bx0, float(x)), min(by0, float(y))
            bx1, by1 = max(bx1, float(x + w)), max(by1, float(y + h))
    return (bx0, by0, bx1, by1)


