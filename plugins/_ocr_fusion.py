"""Fusion of two OCR engines' words into one ``OcrPage`` (pure geometry and text).

The first engine's reading is the page's main text. A line of the second engine that lies
where the first read nothing is added to the page: into the first engine's line on its row
when there is one (so a label read by one engine and its value read by the other stay one
line of text), else as a line of its own. A line of the second engine that lies over words of
the first but reads differently is kept whole as an *alternative reading*, in a block of its
own after the main text: a detector can fire on either reading, and every span still maps to
real pixel boxes (each engine's own word boxes). Lines the two engines read alike add
nothing.

Also finds where the second engine should look when it does not read the whole page:
``weak_regions`` (lines with unsure words, inked places where the first engine read nothing).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Sequence

import cv2
import numpy as np

from redactor_plugins._regions import crop_regions
from redactor.plugin_api import OcrPage, WordBox, box_area, intersection, overlaps, page_view, union_box

# A second-engine word overlaps a first-engine word when their intersection covers this much of
# the smaller of the two boxes.
OVERLAP = 0.3
# Same row: vertical overlap of at least this share of the smaller height.
ROW_OVERLAP = 0.5
# Words of the first engine below this confidence (0-100) make their line worth a second read.
WEAK_CONF = 60.0
# An unsure word is read again with this many text heights of the page on either side: the
# neighbours a value's own words may have been (run together with it or missed beside it).
WORD_REACH = 1.5
# Ink left unread: a region at least this share of a text height tall and wide.
MIN_REGION = 0.6
MAX_REGION_HEIGHTS = 4.0


def normalise(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _overlaps(a, b, share: float = OVERLAP) -> bool:
    """Whether the boxes overlap by at least ``share`` of the smaller one."""
    small = min(box_area(a), box_area(b))
    return small > 0 and overlaps(a, b) and intersection(a, b) >= share * small


def _same_row(a, b) -> bool:
    shared = min(a[3], b[3]) - max(a[1], b[1])
    return shared >= ROW_OVERLAP * min(a[3] - a[1], b[3] - b[1])


def _box_of(words: Sequence[WordBox]):
    return union_box(w.bbox for w in words)


def fuse_pages(first: OcrPage, second: Sequence[WordBox], engine: str, version: str = "") -> OcrPage:
    """One page from ``first`` and the ``second`` engine's words (their ``line`` ids group
    them into lines). See the module docstring for the rule."""
    words = list(first.words)
    next_line = max((w.line for w in words), default=0) + 1
    next_block = max((w.block for w in words), default=0) + 1
    first_lines = {line.index: list(line.words) for line in page_view(first).lines}
    first_line_boxes = {k: _box_of([words[i] for i in ids]) for k, ids in first_lines.items()}
    inserted: dict[int, list[WordBox]] = defaultdict(list)
    own_lines: list[list[WordBox]] = []
    alternatives: list[list[WordBox]] = []
    by_line: dict[int, list[WordBox]] = defaultdict(list)
    for w in second:
        by_line[w.line].append(w)
    for line_words in by_line.values():
        line_words.sort(key=lambda w: w.bbox[0])
        covered = [[i for i, fw in enumerate(words) if _overlaps(w.bbox, fw.bbox)] for w in line_words]
        if not any(covered):
            box = _box_of(line_words)
            rows = [k for k, b in first_line_boxes.items() if _same_row(box, b)]
            if rows:
                key = min(rows, key=lambda k: abs((first_line_boxes[k][1] + first_line_boxes[k][3])
                                                  - (box[1] + box[3])))
                inserted[key].extend(line_words)
            else:
                own_lines.append(line_words)
            continue
        under = sorted({i for ids in covered for i in ids}, key=lambda i: (words[i].bbox[0], i))
        if normalise("".join(w.text for w in line_words)) == normalise("".join(words[i].text for i in under)):
            continue
        # Confidence decides a disagreement: where the first engine was sure of every word
        # under the line, its reading stands (a second reading of clean print only adds the
        # second engine's run-together words); where it was unsure of one, both readings stay.
        if any(0 <= words[i].conf < WEAK_CONF for i in under):
            alternatives.append(line_words)
    out: list[WordBox] = []
    for key, ids in first_lines.items():
        line = [words[i] for i in ids]
        if key in inserted:
            ids_of = line[0]    # the inserted words take the OCR line and block ids of the line
            line = sorted(line + [WordBox(w.text, w.bbox, w.conf, ids_of.line, ids_of.block) for w in inserted[key]],
                          key=lambda w: w.bbox[0])
        out.extend(line)
    for block, group in ((next_block, own_lines), (next_block + 1, alternatives)):
        for line_words in sorted(group, key=lambda lw: (_box_of(lw)[1], _box_of(lw)[0])):
            out.extend(WordBox(w.text, w.bbox, w.conf, next_line, block) for w in line_words)
            next_line += 1
    return OcrPage(width=first.width, height=first.height, words=tuple(out),
                   engine=engine, version=version)


def text_height(words: Sequence[WordBox]) -> float:
    hs = [w.bbox[3] - w.bbox[1] for w in words if w.conf >= WEAK_CONF]
    if not hs:
        hs = [w.bbox[3] - w.bbox[1] for w in words]
    return float(np.median(hs)) if hs else 0.0


def weak_regions(gray: np.ndarray, page: OcrPage, ink_threshold: float,
                 whole_lines: bool = True) -> list[tuple[int, int, int, int]]:
    """Boxes worth a second engine's read: the lines of ``page`` holding a word under
    WEAK_CONF (or, with ``whole_lines`` false, only such words and WORD_REACH text heights
    beside them), and inked places no word covers (glyph-sized ink joined along a row:
    faint, broken or handwritten values that the first engine did not return at all)."""
    h_img, w_img = gray.shape[:2]
    th = text_height(page.words) or 20.0
    regions: list[tuple[float, float, float, float]] = []
    if whole_lines:
        for view_line in page_view(page).lines:
            line = [page.words[i] for i in view_line.words]
            if any(0 <= w.conf < WEAK_CONF for w in line):
                regions.append(_box_of(line))
    else:
        for w in page.words:
            if 0 <= w.conf < WEAK_CONF:
                x0, y0, x1, y1 = w.bbox
                regions.append((x0 - WORD_REACH * th, y0, x1 + WORD_REACH * th, y1))
    ink = (gray <= ink_threshold).astype(np.uint8)
    pad = int(round(th * 0.25))
    for w in page.words:
        x0, y0, x1, y1 = (int(v) for v in w.bbox)
        ink[max(y0 - pad, 0):y1 + pad, max(x0 - pad, 0):x1 + pad] = 0
    join = cv2.getStructuringElement(cv2.MORPH_RECT, (max(int(th), 3), max(int(th * 0.3), 1)))
    joined = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, join)
    n, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    for x, y, w, h, area in stats[1:n].tolist():
        if MIN_REGION * th <= h <= MAX_REGION_HEIGHTS * th and w >= MIN_REGION * th and \
                area >= 0.1 * w * h:
            regions.append((x, y, x + w, y + h))
    return crop_regions(regions, w_img, h_img, th * 0.5)
