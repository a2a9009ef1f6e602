"""The places a form's question asks to be listed, as LOCATION: "10. List states and
territories of the United States to which material was transmitted:" (the US Foreign Agents
Registration Act's supplemental statement), "Countries visited:", "States and cities
selected:". The question says that its answer is a list of places, so each item of it is one,
however OCR read it: such lists are written by hand as often as typed, and OCR turns a
hand's "PENNSYLVANIA, GEORGIA" into "PEM NSEL VANIA, G G0K", which no gazetteer knows.

The answer stands under the question, in its column, as items parted by commas (or
semicolons), a line's end ending an item too. It runs down to the form's next numbered item,
to a wide blank or to MAX_LINES lines. An item made only of words that name no place in
particular ("All U.S. States", "None") is no identifier and is left alone.

Pure functions on the page's lines."""
from __future__ import annotations

import re

from redactor.plugin_api import PageView

from redactor_plugins.rules.hits import Hit, trim

RULE = "place_list"
SCORE = 0.8
# the question: a plural that asks for places, ended by a colon on its line or the next
# (a long question wraps: "... to which / material was transmitted:")
_QUESTION = re.compile(r"(?i)\b(?:states|territories|countries|cities|provinces|places visited)\b")
_END = re.compile(r":\W{0,2}$")
_ITEM_NUMBER = re.compile(r"^\(?\d{1,2}[.)]$|^\(?[a-h]\)$")
_GENERIC = frozenset("""all u.s. us u.s usa states state territories territory the united of
and none n/a na various nationwide throughout see attached entire country countries cities
other others world worldwide""".split())
MAX_LINES = 8          # a question's answer area: at most eight written lines
MAX_GAP = 3.0          # ... with no blank over three text heights between them
CELL_GAP = 2.5          # text heights: a wider gap between a line's words starts another cell
COLUMN_SLACK = 2.0       # a hand starts up to two text heights left of the printed question
MAX_QUESTION_WORDS = 12  # a question's words from the places it asks for to its colon


def _words_of(layout: PageView, line, x0: float, x1: float) -> list[int]:
    return [i for i in line.words if layout.words[i].bbox[2] > x0 and layout.words[i].bbox[0] < x1]


def _question(layout: PageView, k: int) -> tuple[int, float, float] | None:
    """(index of the line the question ends on, its column's left and right edge) when line
    ``k`` holds a question asking for places."""
    line = layout.lines[k]
    text = layout.page.text
    for j, i in enumerate(line.words):
        if not _QUESTION.search(layout.words[i].text) or \
                (j and layout.words[line.words[j - 1]].text.lower() == "united"):
            continue      # "the United States" names a country, asks for none
        # the question's cell: from its item number or first word after a wide gap, rightwards
        first = j
        while first > 0 and not _ITEM_NUMBER.match(layout.words[line.words[first]].text) and \
                (layout.gap_before(line.words[first]) or 0.0) < CELL_GAP * layout.text_height:
            first -= 1
        # ... to its end: the next column's item number or a wide gap starts another cell,
        # whose left edge bounds this column (the answer may run to the page's edge)
        last = j
        while last + 1 < len(line.words) and \
                not _ITEM_NUMBER.match(layout.words[line.words[last + 1]].text) and \
                (layout.gap_before(line.words[last + 1]) or 0.0) < CELL_GAP * layout.text_height:
            last += 1
        x0 = layout.words[line.words[first]].bbox[0]
        x1 = layout.words[line.words[last + 1]].bbox[0] if last + 1 < len(line.words) else float(layout.page.width)
        cell = text[layout.offsets[line.words[j]][0]:layout.offsets[line.words[last]][1]]
        if _END.search(cell.strip()):
            return k, x0, x1
        if last - j >= MAX_QUESTION_WORDS:
            return None
        # the question's next line: the first below it with words in its column
        below = sorted((ln for ln in layout.lines if ln.y0 + ln.y1 > line.y0 + line.y1 + line.height
                        and _words_of(layout, ln, x0 - COLUMN_SLACK * layout.text_height, x1)),
                       key=lambda ln: ln.y0)
        if below and below[0].y0 - line.y1 <= MAX_GAP * layout.text_height:
            nxt = _words_of(layout, below[0], x0 - COLUMN_SLACK * layout.text_height, x1)
            if len(nxt) <= MAX_QUESTION_WORDS and _END.search(layout.words[nxt[-1]].text.strip()):
                return below[0].index, x0, x1
        return None
    return None


def _items(layout: PageView, ids: list[int]) -> list[list[int]]:
    """The line's words parted into list items at commas and semicolons."""
    items, current = [], []
    for i in ids:
        current.append(i)
        if layout.words[i].text.rstrip().endswith((",", ";")):
            items.append(current)
            current = []
    if current:
        items.append(current)
    return items


def _names_a_place(layout: PageView, item: list[int]) -> bool:
    words = [layout.words[i].text.strip(" ,;:.()-_~").lower() for i in item]
    words = [w for w in words if any(c.isalnum() for c in w)]
    return bool(words) and not all(w in _GENERIC or w.rstrip(".") in _GENERIC for w in words)


def _runs(item: list[int]) -> list[list[int]]:
    """An item's words in runs of the page's text order (a span covers one run's characters)."""
    runs: list[list[int]] = []
    for i in sorted(item):
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def place_list_hits(layout: PageView) -> list[Hit]:
    """Each item of the answers to the page's questions asking for places."""
    text, th = layout.page.text, layout.text_height
    out = []
    by_top = sorted(layout.lines, key=lambda ln: ln.y0)
    for k in range(len(layout.lines)):
        found = _question(layout, k)
        if found is None:
            continue
        last, x0, x1 = found
        bottom = layout.lines[last].y1
        below = [ln for ln in by_top if ln.y0 + ln.y1 > 2 * bottom and ln.index != last]
        answer: list[list[int]] = []
        for line in below:
            ids = _words_of(layout, line, x0 - COLUMN_SLACK * th, x1)
            if not ids:
                continue
            if line.y0 - bottom > MAX_GAP * max(th, line.height) or len(answer) == MAX_LINES or \
                    _ITEM_NUMBER.match(layout.words[ids[0]].text.strip()):
                break
            answer.append(ids)
            bottom = max(bottom, line.y1)
        items = [item for ids in answer for item in _items(layout, ids)]
        # a written list parts its items by commas; a form's printed options (a column of
        # states with boxes to tick) do not, and are the form's words, not an answer
        if sum(len(_items(layout, ids)) - 1 for ids in answer) < 1:
            continue
        for item in items:
            if not _names_a_place(layout, item):
                continue
            for run in _runs(item):
                start, end = trim(text, layout.offsets[run[0]][0], layout.offsets[run[-1]][1],
                                  "_-,.:;()[]{}|'\"“”‘’ ")
                if start < end:
                    out.append(Hit(RULE, start, end, SCORE))
    return out
