"""Handwritten signatures and initials, found in the page image beside the OCR words.

Principle: a signature is ink that is not print. Print is what OCR read confidently (its
word boxes are masked); printed rules (signature lines, table borders) are removed by a
morphological opening. What is left is joined into pieces (strokes within a letter gap);
a piece is a *seed* when it looks like handwriting: taller than the body text (1.5 h, or
1.1 h beside a label), with one connected pen stroke 1.5 h tall (print is letter by
letter), one writing line (not a paragraph), little fill (not a tint or a black bar), not
mostly straight hairlines (not a box or a checkbox), not rotated print. Pieces beside a
seed on its writing line join it (the initials and dots of "M. S. Forte"); the group is a
signature when it sits where documents put signatures:

- beside, above or below a signature label ("Signature", "Signed", "Sign here", "By:",
  "Approved by", "Authorized signature", "Notary" ...);
- on a signature line: a horizontal rule with the ink on it or just above it;
- under a letter closing ("Sincerely", "Yours faithfully", "Very truly yours" ...).

The box is the ink extent of the cluster's strokes (the contract's gold is ink-tight).
OCR garbage over cursive needs no rule of its own: a word read at low confidence is not
masked as print, so its strokes stay in the clusters.
"""
from __future__ import annotations


import numpy as np

from redactor.plugin_api import OcrPage, Redaction, VisualDetector
from redactor_plugins._options import as_bool
from redactor_plugins.visual_common import (CONFIDENT, alnum, gray_of, horizontal_rules, ink_of,
                                   rules_mask, text_height, words_of)

# Words that announce a signature on forms, affidavits and letters. Matched on the OCR
# word's letters, lower-cased, so "SIGNATURE(S)", "Signature:" and "Signat" (a word cut by
# a signature running over it) all count.
LABEL_PREFIXES = ("signat", "signed", "signer")
LABEL_WORDS = {"sign", "initial", "initials", "notary", "witness", "sworn",
               # letter closings: the signature goes between the closing and the typed name
               "sincerely", "faithfully", "truly", "cordially", "regards", "respectfully"}
# "By" alone is a signature line in contracts and forms ("By: ____", "Approved By:")
BY_VERBS = {"approved", "submitted", "prepared", "reviewed", "authorized", "authorised",
            "accepted", "certified", "checked", "verified", "agreed", "witnessed", "signed"}

# Geometry, in units of the body text height h (so it holds at any scan resolution).
RULE_MIN_LEN = 4.0        # a signature line is at least 4 text heights long
PIECE_X, PIECE_Y = 1.0, 0.25  # strokes this close are one piece: the gaps within a word
GROW_X, GROW_Y = 3.0, 0.3     # pieces this close join a signature: the gaps between its
                              # names and initials, on one writing line (their heights
                              # overlap by GROW_Y of the smaller)
ROTATED = 4.0                 # a piece over 4 h tall and twice as tall as wide is a line of
                              # print turned 90 degrees (archive numbers in the margin)
COMPANION_HEIGHT = 0.4        # smaller pieces (dots, specks) are left out
MIN_HEIGHT = 1.1          # a signature labelled as such is taller than the body text ...
TALL = 1.5                # ... and one found by a line or closing alone half as tall again:
                          # loops and flourishes (print that OCR read badly is text-high)
MIN_ASPECT = 0.6          # and not much narrower than tall (rotated print, margin marks)
MAX_FILL = 0.3            # pen strokes cover little of their box (real dev gold: median 16 %,
                          # print inside included); a filled or halftone block is not one
STRAIGHT_V, STRAIGHT_H = 1.2, 1.5   # straight ink runs this long (in h) vertically or
MAX_STRAIGHT = 0.5        # horizontally are ruling: box borders, checkboxes, table cells; a
                          # cluster made mostly of them is not handwriting (pen strokes curve
                          # and slant)
THICK = 0.3               # ... unless thick: a felt pen's upright strokes run straight for
                          # long, ruling is a hairline
PAD = 0.4                 # margin round the strokes: the pen's faint rim and the bit of
                          # line under them (hand-drawn gold boxes are a little loose)
STROKE = 1.5              # a signature has one pen stroke (connected ink) 1.5 text heights
                          # tall: cursive joins letters and loops over ascenders; print
                          # is letter by letter, none taller than a line (OCR-missed small
                          # print in a dense paragraph is many small components)
BAND = 0.5                # a writing line is at least half a text height tall
SNAP = 0.6                # an ink component 60 % inside a signature's box is part of it
LOW_CONF_PRINT = 60.0     # a word read at this confidence is print (cursive reads below it)
MAX_PRINT = 4.0           # up to 4 text heights tall (headings) when read at CONFIDENT or more;
MAX_UNSURE_PRINT = 1.5    # a less sure word taller than 1.5 h is cursive read by luck ("Wet")
LABEL_RIGHT = 25.0        # a label's signature lies up to 25 h to its right,
LABEL_ABOVE = 5.0         # up to 5 h above it (a label printed under the line),
LABEL_BELOW = 9.0         # up to 9 h below it (a heading over a cell, a letter closing)
LABEL_LEFT = 6.0
RULE_ABOVE = 4.0          # a signature sits on its line: its bottom within 4 h above the
RULE_BELOW = 1.0          # rule, or crossing it by up to 1 h
PRINT_SHARE = 0.5         # a cluster whose ink is mostly under confident words is print
SPECK = 0.04              # components smaller than 4 % of h*h are dust


def is_label(words, i: int) -> bool:
    t = alnum(words[i].text)
    if not t:
        return False
    if t.startswith(LABEL_PREFIXES) or t in LABEL_WORDS:
        return True
    if t == "by":
        if words[i].text.rstrip().endswith(":"):
            return True
        if i > 0 and words[i - 1].line == words[i].line and alnum(words[i - 1].text) in BY_VERBS:
            return True
    return False


def _print_mask(shape, words, h: float) -> np.ndarray:
    """Pixels of confidently read print: words read at CONFIDENT or more, of body-text
    height (a 'word' three text heights tall is cursive read by luck, not print)."""
    mask = np.zeros(shape, dtype=bool)
    H, W = shape
    for w in words:
        if w.conf < LOW_CONF_PRINT or not alnum(w.text):
            continue
        x0, y0, x1, y1 = w.bbox
        if y1 - y0 > (MAX_PRINT if w.conf >= CONFIDENT else MAX_UNSURE_PRINT) * h:
            continue
        mask[max(0, int(y0) - 1):min(H, int(np.ceil(y1)) + 1),
             max(0, int(x0) - 1):min(W, int(np.ceil(x1)) + 1)] = True
    return mask


def _bands(sub: np.ndarray, h: float) -> int:
    """Writing lines in a piece: bands of rows holding ink, separated by empty rows, at
    least half a text height tall. A signature is one line whose loops and strokes join
    top to bottom; a paragraph of print or a handwritten address is several. (The caller
    puts the removed rules back in, so a line the signature crosses does not split it.)"""
    rows = sub.any(axis=1)
    n, run = 0, 0
    for r in np.append(rows, False):
        if r:
            run += 1
        else:
            n += run >= BAND * h
            run = 0
    return n


class SignatureDetector(VisualDetector):
    name = "signatures"

    @classmethod
    def emits(cls) -> frozenset[str]:
        return frozenset({"SIGNATURE"})


    def __init__(self, require_anchor: bool = True):
        self.require_anchor = as_bool("require_anchor", require_anchor)

    def find(self, image, page: OcrPage | None) -> list[Redaction]:
        return [Redaction(box, "SIGNATURE", "", score, (self.name,))
                for box, score in self.clusters(image, page)]

    # -- the work -------------------------------------------------------------------------
    def clusters(self, image, page):
        import cv2

        gray = gray_of(image)
        ink = ink_of(gray)
        H, W = ink.shape
        words = words_of(page)
        h = text_height(words, H)
        rule_len = max(20, int(RULE_MIN_LEN * h))
        rules = horizontal_rules(ink, rule_len)
        printed = _print_mask(ink.shape, words, h)
        strokes = ink & ~rules_mask(ink, rule_len)
        hruled = rules_mask(ink, rule_len, vertical=False)
        loose = strokes & ~printed
        sv, sh = max(3, int(STRAIGHT_V * h)), max(3, int(STRAIGHT_H * h))
        u8 = strokes.astype(np.uint8)
        thick = max(3, int(THICK * h))
        straight = ((cv2.morphologyEx(u8, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, sv)))
                     | cv2.morphologyEx(u8, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (sh, 1))))
                    & ~cv2.morphologyEx(u8, cv2.MORPH_OPEN, np.ones((thick, thick), np.uint8))).astype(bool)

        # dust off, then strokes within the gaps of one written word joined into pieces
        n, lab, stats, _ = cv2.connectedComponentsWithStats(loose.astype(np.uint8), connectivity=8)
        keep = np.zeros(n, dtype=bool)
        keep[1:] = stats[1:, cv2.CC_STAT_AREA] >= max(4, SPECK * h * h)
        loose = keep[lab]
        kx, ky = max(3, int(PIECE_X * h)), max(3, int(PIECE_Y * h))
        joined = cv2.dilate(loose.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_RECT, (kx, ky)))
        n, clab, cstats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)

        # every ink component (print included, long rules excluded), to snap boxes to ink
        _, comp, cstat, _ = cv2.connectedComponentsWithStats(strokes.astype(np.uint8), connectivity=8)

        labels = [w for i, w in enumerate(words) if is_label(words, i)]
        pieces = []          # (box, ink pixels, is_seed)
        for c in range(1, n):
            x, y, cw, ch, _ = cstats[c]
            sub = (clab[y:y + ch, x:x + cw] == c) & loose[y:y + ch, x:x + cw]
            ys, xs = np.nonzero(sub)
            if xs.size == 0:
                continue
            box = (float(x + xs.min()), float(y + ys.min()), float(x + xs.max() + 1), float(y + ys.max() + 1))
            bw, bh = box[2] - box[0], box[3] - box[1]
            if bh < COMPANION_HEIGHT * h or (bh > ROTATED * h and bw < 0.5 * bh):
                continue
            if xs.size > MAX_FILL * bw * bh:
                continue
            if straight[y:y + ch, x:x + cw][sub].sum() > MAX_STRAIGHT * xs.size:
                continue
            # a piece mostly under confident words is print that OCR boxed loosely
            r0, r1, c0, c1 = int(box[1]), int(box[3]), int(box[0]), int(box[2])
            region_ink = strokes[r0:r1, c0:c1]
            if (region_ink & printed[r0:r1, c0:c1]).sum() > PRINT_SHARE * max(1, region_ink.sum()):
                continue
            ids = np.unique(lab[y:y + ch, x:x + cw][sub])
            stroke = int(stats[ids[ids > 0], cv2.CC_STAT_HEIGHT].max()) if (ids > 0).any() else 0
            seed = (bh >= TALL * h or (bh >= MIN_HEIGHT * h and self._near_label(box, labels, h))) \
                and stroke >= STROKE * h and _bands(sub | hruled[y:y + ch, x:x + cw], h) < 2

            pieces.append((box, int(xs.size), seed))

        # a signature grows from its handwriting-high pieces to the pieces beside them on
        # the same writing line (the small initials and dots of "M. S. Forte"); pieces of
        # text height join only a seed, never each other, so a line of badly read print
        # does not chain into it
        parent = list(range(len(pieces)))

        def root(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        gap_x = GROW_X * h
        for i, (a, _, sa) in enumerate(pieces):
            for j in range(i + 1, len(pieces)):
                b, _, sb = pieces[j]
                if not (sa or sb):
                    continue
                gx = max(a[0], b[0]) - min(a[2], b[2])
                overlap_y = min(a[3], b[3]) - max(a[1], b[1])
                if gx <= gap_x and overlap_y >= GROW_Y * min(a[3] - a[1], b[3] - b[1]):
                    parent[root(i)] = root(j)
        groups: dict[int, list[int]] = {}
        for i in range(len(pieces)):
            groups.setdefault(root(i), []).append(i)

        found = []
        for members in groups.values():
            if not any(pieces[i][2] for i in members):
                continue
            box = (min(pieces[i][0][0] for i in members), min(pieces[i][0][1] for i in members),
                   max(pieces[i][0][2] for i in members), max(pieces[i][0][3] for i in members))
            bw, bh = box[2] - box[0], box[3] - box[1]
            if bw < MIN_ASPECT * bh:
                continue
            r0, r1, c0, c1 = int(box[1]), int(np.ceil(box[3])), int(box[0]), int(np.ceil(box[2]))
            if _bands(loose[r0:r1, c0:c1] | hruled[r0:r1, c0:c1], h) >= 2:
                continue       # the pieces round a seed make up several lines: text
            region_ink = strokes[r0:r1, c0:c1]
            if (region_ink & printed[r0:r1, c0:c1]).sum() > PRINT_SHARE * max(1, region_ink.sum()):
                continue       # mostly print round a few strokes: a stamp or a form in text
            tall = bh >= TALL * h
            labelled = self._near_label(box, labels, h)
            anchored = labelled or (tall and self._on_rule(box, rules, h))
            if not anchored and (self.require_anchor or not tall):
                continue
            score = 0.9 if anchored and tall else 0.6 if anchored else 0.4
            x0, y0, x1, y1 = self._snap(box, comp, cstat)
            pad = PAD * h
            found.append(((max(0.0, x0 - pad), max(0.0, y0 - pad), min(float(W), x1 + pad),
                           min(float(H), y1 + pad)), score))
        return found

    @staticmethod
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

    @staticmethod
    def _near_label(box, labels, h: float) -> bool:
        for w in labels:
            x0, y0, x1, y1 = w.bbox
            if box[2] < x0 - LABEL_LEFT * h or box[0] > x1 + LABEL_RIGHT * h:
                continue
            if box[3] < y0 - LABEL_ABOVE * h or box[1] > y1 + LABEL_BELOW * h:
                continue
            return True
        return False

    @staticmethod
    def _on_rule(box, rules, h: float) -> bool:
        bw = box[2] - box[0]
        for x0, x1, y in rules:
            overlap = min(box[2], x1) - max(box[0], x0)
            if overlap < 0.3 * bw:
                continue
            if y - RULE_ABOVE * h <= box[3] <= y + RULE_BELOW * h + (box[3] - box[1]):
                if box[1] <= y + RULE_BELOW * h:
                    return True
        return False
