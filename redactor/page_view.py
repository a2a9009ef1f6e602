"""The typed view of one OCR page: its words grouped into lines (and a line into cells), the
words a character range covers, the line below a given one and horizontal gaps, in pixels.

Built once per page (:func:`page_view` keeps it on the page) and used by every stage that
needs lines: the rules, the aligner's per-line boxes, unsure-word runs, verification and
OCR fusion. Before, four places regrouped the words by their OCR line ids, each a little
differently (by line id alone, which repeats across Tesseract's blocks, or by block and
line, which a backend without line ids puts all in one)."""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from statistics import median

from redactor.model import OcrPage


@dataclass(frozen=True)
class Line:
    index: int
    words: tuple[int, ...]     # indices into page.words, left to right
    x0: float
    y0: float
    x1: float
    y1: float
    height: float              # median word height: the text height of the line

    @property
    def start_word(self) -> int:
        return self.words[0]

    @property
    def yc(self) -> float:
        return (self.y0 + self.y1) / 2


def _split_rows(page: OcrPage, ids: list[int]) -> list[list[int]]:
    """OCR line ids are not always lines (a backend without them puts every word in line 0):
    words of one id whose vertical centres lie apart by more than 0.6 text heights are
    separate rows."""
    if len(ids) < 2:
        return [ids]
    boxes = {i: page.words[i].bbox for i in ids}
    h = median(b[3] - b[1] for b in boxes.values()) or 1.0
    by_y = sorted(ids, key=lambda i: (boxes[i][1] + boxes[i][3]) / 2)
    rows = [[by_y[0]]]
    for i in by_y[1:]:
        prev = rows[-1][-1]
        if (boxes[i][1] + boxes[i][3]) / 2 - (boxes[prev][1] + boxes[prev][3]) / 2 > 0.6 * h:
            rows.append([])
        rows[-1].append(i)
    return rows if len(rows) > 1 else [ids]


class PageView:
    """Lines, word lookup by character offset and neighbourhood queries on one page."""

    def __init__(self, page: OcrPage):
        self.page = page
        self.words = page.words
        self.offsets = page.offsets
        self._starts = [s for s, _ in page.offsets]
        groups: list[list[int]] = []
        prev = None
        for i, w in enumerate(page.words):
            key = (w.block, w.line)
            if key != prev:
                groups.append([])
                prev = key
            groups[-1].append(i)
        groups = [sub for g in groups for sub in _split_rows(page, g)]
        lines = []
        self.word_line: list[int] = [0] * len(page.words)
        for li, ids in enumerate(groups):
            ids.sort(key=lambda i: page.words[i].bbox[0])
            boxes = [page.words[i].bbox for i in ids]
            h = median(b[3] - b[1] for b in boxes) or 1.0
            lines.append(Line(li, tuple(ids), min(b[0] for b in boxes), min(b[1] for b in boxes),
                              max(b[2] for b in boxes), max(b[3] for b in boxes), max(h, 1.0)))
            for i in ids:
                self.word_line[i] = li
        self.lines: tuple[Line, ...] = tuple(lines)
        heights = [ln.height for ln in lines]
        self.text_height = median(heights) if heights else 10.0

    # --- characters and words ------------------------------------------------------------
    def word_at(self, char: int) -> int | None:
        """The word whose characters include ``char`` (None for a separator)."""
        i = bisect.bisect_right(self._starts, char) - 1
        if i >= 0 and self.offsets[i][0] <= char < self.offsets[i][1]:
            return i
        return None

    def words_in(self, start: int, end: int) -> list[int]:
        """Words that share at least one character with [start, end)."""
        i = max(bisect.bisect_right(self._starts, start) - 1, 0)
        out = []
        while i < len(self.offsets) and self.offsets[i][0] < end:
            if self.offsets[i][1] > start:
                out.append(i)
            i += 1
        return out

    def line_of_char(self, char: int) -> Line | None:
        w = self.word_at(char)
        return None if w is None else self.lines[self.word_line[w]]

    def line_of_word(self, word: int) -> Line:
        return self.lines[self.word_line[word]]

    def bbox(self, word: int) -> tuple[float, float, float, float]:
        return self.words[word].bbox

    def gap_before(self, word: int) -> float | None:
        """Horizontal gap to the previous word of the same line, in pixels."""
        line = self.line_of_word(word)
        pos = line.words.index(word)
        if pos == 0:
            return None
        return self.words[word].bbox[0] - self.words[line.words[pos - 1]].bbox[2]

    def next_in_line(self, word: int) -> int | None:
        line = self.line_of_word(word)
        pos = line.words.index(word)
        return line.words[pos + 1] if pos + 1 < len(line.words) else None

    # --- neighbourhood -------------------------------------------------------------------
    def lines_below(self, x0: float, x1: float, y_bottom: float, height: float,
                    max_gap: float, slack: float = 0.0) -> list[Line]:
        """Lines whose top lies below ``y_bottom`` by at most ``max_gap`` pixels and that
        have a word overlapping [x0 - slack, x1 + slack], nearest first."""
        out = []
        for ln in self.lines:
            if ln.yc <= y_bottom or ln.y0 - y_bottom > max_gap:
                continue
            if any(self.words[i].bbox[0] < x1 + slack and self.words[i].bbox[2] > x0 - slack
                   for i in ln.words):
                out.append(ln)
        out.sort(key=lambda ln: ln.y0)
        return out

    def line_below(self, line: Line, max_gap_factor: float = 1.2, slack_factor: float = 1.5,
                   x0: float | None = None, x1: float | None = None) -> Line | None:
        """The nearest line under ``line`` (or under the x range given) within
        ``max_gap_factor`` text heights, overlapping it horizontally."""
        h = line.height
        xa = line.x0 if x0 is None else x0
        xb = line.x1 if x1 is None else x1
        cands = self.lines_below(xa, xb, line.y1, h, max_gap_factor * h, slack_factor * h)
        return cands[0] if cands else None

    def same_line(self, a: int, b: int) -> bool:
        return self.word_line[a] == self.word_line[b]

    def row_of(self, word: int) -> list[int]:
        """The other words on ``word``'s row, whatever OCR line they were read in (a form's
        cells are often lines of their own): their middles within half its line's text
        height of its middle."""
        x0, y0, x1, y1 = self.words[word].bbox
        yc, h = (y0 + y1) / 2, self.line_of_word(word).height
        return [i for i, b in enumerate(self.words)
                if i != word and abs((b.bbox[1] + b.bbox[3]) / 2 - yc) < h / 2]

    def cells(self, line: Line, max_gap: float, separator=None) -> list[list[int]]:
        """The line's words in cells: runs apart by more than ``max_gap`` text heights (a
        form's columns, a table's cells), or on either side of a word ``separator(word)``
        says is a border read as text (left out)."""
        cells: list[list[int]] = []
        prev = None
        for w in line.words:
            if separator is not None and separator(w):
                prev = None
                continue
            if prev is None or self.words[w].bbox[0] - self.words[prev].bbox[2] > max_gap * line.height:
                cells.append([])
            cells[-1].append(w)
            prev = w
        return cells

    def words_of_line_in(self, line: Line, x0: float, x1: float) -> list[int]:
        """Words of ``line`` that overlap [x0, x1] horizontally."""
        return [i for i in line.words if self.words[i].bbox[0] < x1 and self.words[i].bbox[2] > x0]

    def span_of_words(self, ids: list[int]) -> tuple[int, int]:
        return self.offsets[min(ids)][0], self.offsets[max(ids)][1]

    def contiguous(self, a_end: int, b_start: int) -> bool:
        """True when only whitespace lies between two character positions."""
        return not self.page.text[a_end:b_start].strip()


def page_view(page: OcrPage) -> PageView:
    """The page's view, built on first use and kept on the page (pages are immutable, so it
    never goes stale; it is not pickled with the page)."""
    view = page.__dict__.get("_view")
    if view is None:
        view = PageView(page)
        object.__setattr__(page, "_view", view)
    return view
