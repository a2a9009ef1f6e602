"""The second look: where Tesseract's page-wide read went wrong in one place, that place
read again on its own, and the new reading taken in only when it is better.

One read of the whole page fails locally: lines of small print beside larger type run
together into one unsure "word", a plain word is misread in the context of its neighbours,
faint or broken rows are not read at all, ink at an angle of its own comes back as
fragments. The first three are found here as regions (``_merged_regions``,
``_unsure_regions``, ``_unread_regions``) and read in one Tesseract run on a canvas of
enlarged crops; the turned blocks are found and turned by ``plugins._rotated_text``
(``_Rereads`` runs both). Kept apart from the backend's order of steps because the finding
and the taking-in are where the care is (a crop cuts its neighbours in half, a
better-looking reading can lose a digit, a new word must land on the right line), and
they are judged on words and boxes alone.
"""
from __future__ import annotations

import re

import numpy as np

from redactor_plugins import _scan_cleanup as sc
from redactor.plugin_api import UNSURE_CONF, overlap_share, overlaps

from redactor_plugins import _rotated_text as rotated
from redactor_plugins._tesseract_words import _Word, _digits, _is_text, _mean_conf, _quality

# Re-reading: crops are enlarged by this factor (a second look at another scale), a line's
# new reading must beat the old mean confidence by this margin, words found where nothing
# was read must reach this confidence, and at most this many regions are re-read per page.
REREAD_SCALE = 1.5
REREAD_LINE_HEIGHT = 1.3 * sc.BODY_TEXT_HEIGHT_300DPI * REREAD_SCALE   # a word box spans ascenders too
REREAD_MARGIN = 5.0
MAX_REREAD_REGIONS = 80
# A word taller than this many lines of confident words, and unsure, is lines run together.
MERGED_LINES = 1.8
MERGED_MAX_CONF = 60.0
MAX_MERGED_REGIONS = 12
MERGED_JOIN = 1.5   # gap, in lines, to the words beside such a word taken with it
# A word of line height read below UNSURE_CONF is read again on its own crop
# (``reread_unsure``): at most this many per page, in reading order.
MAX_UNSURE_REGIONS = 40
# ... and so is one read as a single character over a box two line heights wide and at
# least 0.6 of one tall: a misread word (a letterhead's bold italic "401-277-2390" read as
# '“7”?' at 0), not a speck; a flatter one is a rule or a fill-in line
WIDE_WORD, TEXT_HIGH = 2.0, 0.6
# Inked regions where nothing was read, read with them (``read_unread``).
MAX_UNREAD_REGIONS = 30
# ... where an unsure word of 3+ letters beside a sure one on its line is kept from this
LINE_WORD_CONF = 20.0
_LETTER_WORD = re.compile(r"[A-Z][A-Za-z'’]{2,}[.,\-]?")
# ... and a number of 5+ digits there ("TELEPHONE: 32-2-512-7890", the number at 42 beside
# its caption at 93); a number of 7+ digits is kept alone from LONE_NUMBER_CONF (a small-print
# letterhead's "TELEFAX:(202)662-6291" read at 44): what dirt is read as has few digits and
# reads far less sure
LINE_NUMBER_DIGITS, LONE_NUMBER_DIGITS, LONE_NUMBER_CONF = 5, 7, 40.0


class _Rereads:
    """Regions of a page read again on enlarged or turned crops, and their words taken in.
    Mixed into ``TesseractOcr``: uses its ``_read_words`` and ``reread_conf``."""

    def _read_rotated(self, work: np.ndarray, words: list[_Word], th: float, dpi: int,
                      deadline: float) -> list[_Word]:
        """Blocks of ink at an angle of their own read upright (``plugins._rotated_text``),
        all in one Tesseract run; a block's confident reading replaces the unsure words
        centred in it and goes in a block of its own."""
        seen = [(w.text, w.box, w.conf) for w in words]
        blocks = rotated.find_blocks(work, seen, th)
        tried = rotated.variants(work, blocks, th, seen) if blocks else []
        if not tried:
            return words
        canvas, placed = rotated.stack([v.image for v in tried], th)
        found = self._read_words(canvas, rotated.PSM, dpi, deadline)
        per = rotated.split([(w.text, w.box, w.conf, w.line_key) for w in found], placed)
        h, w = work.shape[:2]
        readings = rotated.best_reading(per, tried, w, h)
        if not readings:
            return words
        out = [wd for wd in words if rotated.is_confident(wd.text, wd.conf)
               or not any(rotated.inside(wd.box, blocks[b]) for b in readings)]
        for b, new in sorted(readings.items()):
            out.extend(_Word(t, box, conf, ("rotated", b) + tuple(key), ("rotated", b))
                       for t, box, conf, key in new)
        return out

    def _read_regions_again(self, work: np.ndarray, words: list[_Word],
                            regions: list[tuple[list[float], str]], line_h: float, text_h,
                            dpi: int, deadline: float) -> list[_Word]:
        """``regions`` read again, cropped and enlarged, in one Tesseract run: the new words
        of a region replace every word centred in it when they read better, are no less
        sure and lose no digit. A new word goes on the line of the unchanged word beside
        it: first the line of the word it replaces, else that of the unchanged word on its row
        (a value re-read beside its label stays on the label's line)."""
        if not regions:
            return words
        th = text_h or line_h
        new_by_region = self._read_crops(work, [tuple(r) for r, _ in regions], th, dpi, deadline)

        def centred_in(w: _Word, r) -> bool:
            cx, cy = (w.box[0] + w.box[2]) / 2, (w.box[1] + w.box[3]) / 2
            return r[0] <= cx <= r[2] and r[1] <= cy <= r[3]

        out = list(words)
        changed: set[tuple] = set()
        for n, ((r, tag), new) in enumerate(zip(regions, new_by_region)):
            old = [w for w in out if centred_in(w, r)]
            kept = [w for w in out if not centred_in(w, r)]
            # Halves of the neighbours the crop cut through are no new words.
            new = [w for w in new if _is_text(w)
                   and not any(overlap_share(w.box, k.box) > 0.5 for k in kept)]
            if not old:
                new = kept_where_unread(new)
            # Digits are what the values are made of: a read that loses some is no better.
            if not new or _quality(new) <= _quality(old) or _mean_conf(new) < _mean_conf(old) \
                    or _digits(new) < _digits(old):
                continue
            # a block read down had no lines across: the new words keep the crop's lines
            new = [_Word(w.text, w.box, w.conf, *(((tag, n) + tuple(w.line_key), (tag, n)) if tag == "vertical"
                                                   else _line_for(w, old, line_h) or
                                                   _line_for(w, kept, line_h) or
                                                   ((tag, n) + tuple(w.line_key), (tag, n))))
                   for w in new]
            at = min(i for i, w in enumerate(out) if centred_in(w, r)) if old else len(out)
            out = [w for w in out[:at] if not centred_in(w, r)] + new + \
                [w for w in out[at:] if not centred_in(w, r)]
            changed.update(w.line_key for w in new)
        if not changed:
            return out
        # A line that took re-read words is read left to right, in one run, where it began.
        lines: dict[tuple, list[_Word]] = {}
        for w in out:
            lines.setdefault(w.line_key if w.line_key in changed else ("word", id(w)), []).append(w)
        return [w for key, ws in lines.items()
                for w in (sorted(ws, key=lambda w: w.box[0]) if key in changed else ws)]

    def _reread(self, work: np.ndarray, words: list[_Word], text_h, dpi: int,
                deadline: float) -> list[_Word]:
        """Read again, on enlarged crops stacked into one image (one Tesseract run), the
        lines holding a word below ``reread_conf`` and the inked regions where nothing was
        read. A line's new reading replaces the old one when it is clearly more confident;
        words found where nothing was read are added when Tesseract is fairly sure of them."""
        th = text_h or sc.estimate_text_height(work)
        if not th:
            return words
        lines: dict[tuple, list[int]] = {}
        for i, w in enumerate(words):
            lines.setdefault(w.line_key, []).append(i)
        pad = th / 3.0
        regions: list[tuple[tuple, tuple | None]] = []
        for key, idx in lines.items():
            if min(words[i].conf for i in idx) < self.reread_conf:
                x0 = min(words[i].box[0] for i in idx) - pad
                y0 = min(words[i].box[1] for i in idx) - pad
                x1 = max(words[i].box[2] for i in idx) + pad
                y1 = max(words[i].box[3] for i in idx) + pad
                regions.append(((x0, y0, x1, y1), key))
        for box in sc.unread_ink_regions(work, [w.box for w in words], th):
            regions.append((box, None))
        regions = regions[:MAX_REREAD_REGIONS]
        if not regions:
            return words
        new_by_region = self._read_crops(work, [r[0] for r in regions], th, dpi, deadline)
        replaced: dict[tuple, list[_Word]] = {}
        added: list[tuple[float, list[_Word]]] = []
        for n, ((box, key), new) in enumerate(zip(regions, new_by_region)):
            new = [w for w in new if _is_text(w)]
            if not new:
                continue
            if key is not None:
                old = [words[i] for i in lines[key]]
                if _mean_conf(new) >= _mean_conf(old) + REREAD_MARGIN:
                    replaced[key] = [_Word(w.text, w.box, w.conf, key, old[0].block_key) for w in new]
            else:
                keep = [w for w in new if w.conf >= UNSURE_CONF]
                if keep:
                    tag = ("reread", n)
                    added.append(((box[1] + box[3]) / 2,
                                  [_Word(w.text, w.box, w.conf, tag, tag) for w in keep]))
        out: list[_Word] = []
        done: set[tuple] = set()
        for w in words:
            if w.line_key in replaced:
                if w.line_key not in done:
                    out.extend(replaced[w.line_key])
                    done.add(w.line_key)
            else:
                out.append(w)
        for cy, new in sorted(added, key=lambda a: a[0]):
            # After the last word already above the region, as a reader would meet it.
            pos = 0
            for i, w in enumerate(out):
                if (w.box[1] + w.box[3]) / 2 <= cy:
                    pos = i + 1
            out[pos:pos] = new
        return out

    def _read_crops(self, work: np.ndarray, boxes, th: float, dpi: int,
                    deadline: float) -> list[list[_Word]]:
        """OCR crops of ``work`` enlarged by ``REREAD_SCALE``, stacked on one white canvas
        with blank bands between them; words come back per crop in ``work`` coordinates."""
        import cv2
        h, w = work.shape[:2]
        gap = int(th * REREAD_SCALE)
        crops, placed = [], []
        y = gap
        width = 0
        pad = th / 3.0
        for x0, y0, x1, y1 in boxes:
            ix0, iy0 = max(0, int(x0)), max(0, int(y0))
            ix1, iy1 = min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1)))
            if ix1 - ix0 < 2 or iy1 - iy0 < 2:
                crops.append(None)
                placed.append(None)
                continue
            # Each crop is enlarged for its own text: fine print on a page of normal text
            # was left too small by the page-wide scale.
            line_h = max(1.0, (y1 - y0) - 2 * pad)
            s = float(np.clip(REREAD_LINE_HEIGHT / line_h, REREAD_SCALE, 4.0))
            # ... but no crop wider than the page at REREAD_SCALE: a long line read as fine
            # print made a canvas of 18000 px across (185 Mpx on a 42 Mpx page)
            s = max(REREAD_SCALE, min(s, REREAD_SCALE * w / (ix1 - ix0)))
            crop = cv2.resize(work[iy0:iy1, ix0:ix1], None, fx=s, fy=s, interpolation=cv2.INTER_CUBIC)
            crops.append(crop)
            placed.append((gap, y, ix0, iy0, crop.shape[1], crop.shape[0], s))
            y += crop.shape[0] + gap
            width = max(width, crop.shape[1])
        canvas = np.full((y, width + 2 * gap), 255, np.uint8)
        for crop, p in zip(crops, placed):
            if crop is not None:
                canvas[p[1]:p[1] + p[5], p[0]:p[0] + p[4]] = crop
        found = self._read_words(canvas, 6, int(dpi * REREAD_SCALE), deadline)
        per: list[list[_Word]] = [[] for _ in boxes]
        for wd in found:
            cy = (wd.box[1] + wd.box[3]) / 2
            for k, p in enumerate(placed):
                if p is not None and p[1] <= cy < p[1] + p[5]:
                    cx, top, s = p[0], p[1], p[6]
                    bx = ((wd.box[0] - cx) / s + p[2], (wd.box[1] - top) / s + p[3],
                          (wd.box[2] - cx) / s + p[2], (wd.box[3] - top) / s + p[3])
                    bx = (max(bx[0], p[2]), max(bx[1], p[3]),
                          min(bx[2], p[2] + p[4] / s), min(bx[3], p[3] + p[5] / s))
                    if bx[2] > bx[0] and bx[3] > bx[1]:
                        per[k].append(_Word(wd.text, bx, wd.conf, wd.line_key, wd.block_key))
                    break
        return per


def kept_where_unread(new: list[_Word]) -> list[_Word]:
    """The words of a region where nothing was read that are taken in: only words Tesseract
    is fairly sure of (the rest is a logo, a stamp or dirt read as letters), and a word of
    letters or a number on the line of a sure one, which is that line's text read worse ("ART
    ERICKSEN-": the surname at 27 beside its given name at 72, a copy list under a rule),
    and a long number on its own."""
    sure_lines = {w.line_key for w in new if w.conf >= UNSURE_CONF}

    def digits(w: _Word) -> int:
        return sum(c.isdigit() for c in w.text)
    return [w for w in new if w.conf >= UNSURE_CONF or
            (w.conf >= LONE_NUMBER_CONF and digits(w) >= LONE_NUMBER_DIGITS) or
            (w.line_key in sure_lines and w.conf >= LINE_WORD_CONF and
             (_LETTER_WORD.fullmatch(w.text) or digits(w) >= LINE_NUMBER_DIGITS))]


def _merged_regions(words: list[_Word], line_h: float) -> list[list[float]]:
    """Where Tesseract's line finder ran several text lines together.

    A column of small print beside a column of larger type (an invoice's bank details
    beside its totals) can be taken for one line; the words then come back as one unsure
    "word" as tall as two or three lines, and the values in it are lost. The region is
    that word with the words beside it on the lines it spans: the merge often cuts a value
    in two, its first digits in the tall word and the rest beside it."""
    pad = line_h / 3.0
    regions: list[list[float]] = []
    for w in words:
        wh, ww = w.box[3] - w.box[1], w.box[2] - w.box[0]
        # Not a bracket or a rule: those are tall and thin.
        if w.conf < MERGED_MAX_CONF and wh > MERGED_LINES * line_h and ww > 0.6 * line_h:
            box = list(w.box)
            grown = True
            while grown:
                grown = False
                for o in words:
                    cy = (o.box[1] + o.box[3]) / 2
                    gap = max(o.box[0] - box[2], box[0] - o.box[2])
                    if box[1] <= cy <= box[3] and gap < MERGED_JOIN * line_h and \
                            not (box[0] <= o.box[0] and o.box[2] <= box[2]):
                        box = [min(box[0], o.box[0]), box[1], max(box[2], o.box[2]), box[3]]
                        grown = True
            _add_region(regions, [box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad])
    return regions[:MAX_MERGED_REGIONS]


# A block whose words come back mostly taller than wide and unsure was read as vertical
# text: Tesseract's layout analysis took a column of typed initials ("R. / A. / P." down a
# copy list) for lines running down, and read the names beside them as fragments or not
# at all. The block is read again as a block of lines across, with the ink left unread
# beside it.
VERTICAL_MIN_WORDS = 4
VERTICAL_TALL = 1.2          # a word of 2+ letters this many times taller than wide runs down
VERTICAL_SHARE = 0.5
VERTICAL_MAX_CONF = 50.0
VERTICAL_MAX_LINES = 30      # a region no taller than this many lines (not a whole column)
MAX_VERTICAL_REGIONS = 4


def _vertical_regions(words: list[_Word], line_h: float) -> list[list[float]]:
    """Blocks read as vertical text on an upright page, each with a margin."""
    blocks: dict[tuple, list[_Word]] = {}
    for w in words:
        blocks.setdefault(w.block_key, []).append(w)
    pad = line_h / 3.0
    regions: list[list[float]] = []
    for ws in blocks.values():
        lettered = [w for w in ws if sum(ch.isalnum() for ch in w.text) >= 2]
        if len(ws) < VERTICAL_MIN_WORDS or len(lettered) < 3 or _mean_conf(ws) >= VERTICAL_MAX_CONF:
            continue
        down = [w for w in lettered if w.box[3] - w.box[1] > VERTICAL_TALL * (w.box[2] - w.box[0])]
        if len(down) < VERTICAL_SHARE * len(lettered):
            continue
        box = [min(w.box[0] for w in ws) - pad, min(w.box[1] for w in ws) - pad,
               max(w.box[2] for w in ws) + pad, max(w.box[3] for w in ws) + pad]
        if box[3] - box[1] > VERTICAL_MAX_LINES * line_h:
            continue
        _add_region(regions, box)
    return regions[:MAX_VERTICAL_REGIONS]


def with_unread_beside(vertical: list[list[float]], unread: list[list[float]]) -> list[list[float]]:
    """``unread`` without the regions that touch a vertical block's, which grow over them
    (the names the block's initials stand before are read with them)."""
    rest = []
    for b in unread:
        for r in vertical:
            if overlaps(b, r):
                r[:] = [min(r[0], b[0]), min(r[1], b[1]), max(r[2], b[2]), max(r[3], b[3])]
                break
        else:
            rest.append(b)
    return rest


def _unsure_regions(words: list[_Word], line_h: float,
                    taken: list[list[float]] = ()) -> list[list[float]]:
    """Words of line height that Tesseract was unsure of, each with a margin.

    In context, Tesseract sometimes misreads plain print badly ("Inv. #  INV-82465" under a
    big title came back as "Una  Ded" at 29 and 16): its line model was fitted to its
    neighbours. On its own crop, enlarged, the same word usually reads right and sure.
    Words as tall as several lines are the merged-lines case, and words in the ``taken``
    regions are read again with those; one-character words are mostly specks, unless
    their box is as wide as a word (WIDE_WORD)."""
    pad = line_h / 3.0
    regions: list[list[float]] = []
    for w in words:
        box = [w.box[0] - pad, w.box[1] - pad, w.box[2] + pad, w.box[3] + pad]
        wordlike = sum(ch.isalnum() for ch in w.text) >= 2 or \
            (w.box[2] - w.box[0] >= WIDE_WORD * line_h and w.box[3] - w.box[1] >= TEXT_HIGH * line_h)
        if 0 <= w.conf < UNSURE_CONF and wordlike and \
                w.box[3] - w.box[1] <= MERGED_LINES * line_h and \
                not any(overlaps(box, r) for r in taken):
            _add_region(regions, box)
            if len(regions) >= MAX_UNSURE_REGIONS:
                break
    return regions


def _unread_regions(work: np.ndarray, words: list[_Word], th: float,
                    taken: list[list[float]]) -> list[list[float]]:
    """Text-like ink where nothing was read (``scan_cleanup.unread_ink_regions``: faint
    or broken rows, values in table cells), outside the ``taken`` regions, at most
    MAX_UNREAD_REGIONS, in reading order."""
    out = []
    for box in sc.unread_ink_regions(work, [w.box for w in words], th):
        b = list(box)
        # narrower than two letters and their margins: a speck or a stroke between words,
        # whose "word" would split the value beside it ("269 it 703-9835")
        if b[2] - b[0] < 2.0 * th:
            continue
        if not any(overlaps(b, r) for r in taken):
            out.append(b)
    return sorted(out, key=lambda b: (b[1], b[0]))[:MAX_UNREAD_REGIONS]


def _add_region(regions: list[list[float]], box: list[float]) -> None:
    """Add ``box``, joined with the first region it overlaps (a crop read twice would give
    its words twice)."""
    for r in regions:
        if overlaps(box, r):
            r[:] = [min(r[0], box[0]), min(r[1], box[1]), max(r[2], box[2]), max(r[3], box[3])]
            return
    regions.append(box)


def _line_for(word: _Word, others: list[_Word], line_h: float) -> tuple[tuple, tuple] | None:
    """Line and block keys of the line ``word`` sits on among ``others`` (words of line
    height centred within half a line of it), or None."""
    cy = (word.box[1] + word.box[3]) / 2
    best, dist = None, 0.5 * line_h
    for o in others:
        d = abs((o.box[1] + o.box[3]) / 2 - cy)
        if d < dist and o.box[3] - o.box[1] < MERGED_LINES * line_h:
            best, dist = o, d
    return (best.line_key, best.block_key) if best is not None else None
