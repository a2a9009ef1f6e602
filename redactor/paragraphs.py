"""Paragraphs of running text: where a line break inside one stands for a word space.

A contract, a letter or a memo sets its paragraphs justified or ragged-right, and a value
falls where the line ends ("... offices at 400 / Technology Square, Cambridge", "the State of
New / York", "Peregrine / Therapeutics Limited"). Read line by line, each half is too little
to be a value; read as the writer wrote it, the break is a space. ``flowed_text`` is the
page text with those breaks as spaces (char for char, so every offset holds), for the
detectors that read text: the rules' shapes and the language model's names and places.

Two lines are one paragraph's when the second follows close under the first (at most one
text height of leading, a like text height), starts at or left of the first's start (the
paragraph's margin; the first line may be indented), the first is a line of prose (long,
several words, most of them words of letters, set with word spaces only: a table's rows of
figures and a form's row of cells are no paragraph) and the second can carry its sentence on
(one cell, opening with a word), and the first does not end a caption (":") nor
the second open one ("Subject-matter: to ...").
"""
from __future__ import annotations

from redactor.page_view import Line, PageView

PROSE_WIDTH = 20.0   # text heights: a line of running text is at least this long ...
PROSE_WORDS = 5      # ... and holds at least this many words ...
WORD_SHARE = 0.6     # ... most of them words of letters ...
CELL_GAP = 3.0       # ... no two this many text heights apart (a row's cells; a typed justified
                     # line spaces its words up to two heights apart)
LEADING = 1.0        # text heights of space at most between a paragraph's lines
CAPTION_WORDS = 3    # a line whose first words end in ':' opens a field, no continuation
MARGIN = 1.0         # the next line starts at most this far right of the line's start


def _one_cell(view: PageView, line: Line) -> bool:
    boxes = [view.words[w].bbox for w in line.words]
    return all(b[0] - a[2] <= CELL_GAP * line.height for a, b in zip(boxes, boxes[1:]))


def _prose(view: PageView, line: Line) -> bool:
    words = [view.words[w].text.strip(".,;:()\"'“”‘’") for w in line.words]
    return sum(len(w) >= 2 and w.isalpha() for w in words) >= WORD_SHARE * len(words) and _one_cell(view, line)


def _goes_on(view: PageView, line: Line) -> bool:
    """Whether a line can carry on a sentence: a line of prose (opening with the value the
    line before named: "account no." / "50100234567891 with HDFC Bank, ..."), or one cell
    opening with a word of letters (a paragraph's short last line: "Pembroke on +44 ...")."""
    first = view.words[line.words[0]].text.strip(".,;:()\"'“”‘’")
    return _prose(view, line) or (_one_cell(view, line) and any(c.isalpha() for c in first))


def paragraph_breaks(view: PageView) -> list[int]:
    """Offsets of the line breaks ("\\n") inside the page's paragraphs of prose (found once
    a page: kept on its view, which the rules and the language model share)."""
    cached = view.__dict__.get("_paragraph_breaks")
    if cached is None:
        cached = tuple(_breaks(view))
        view.__dict__["_paragraph_breaks"] = cached
    return list(cached)


def _breaks(view: PageView) -> list[int]:
    text = view.page.text
    out = []
    lines = sorted(view.lines, key=lambda ln: view.offsets[ln.words[0]][0])
    for a, b in zip(lines, lines[1:]):
        h = a.height
        end, start = view.offsets[a.words[-1]][1], view.offsets[b.words[0]][0]
        if text[end:start] != "\n" or len(a.words) < PROSE_WORDS or a.x1 - a.x0 < PROSE_WIDTH * h:
            continue
        if not 0 <= b.y0 - a.y1 <= LEADING * h or b.x0 > a.x0 + MARGIN * h or \
                not 0.7 <= b.height / max(h, 1e-6) <= 1.4:
            continue
        if view.words[a.words[-1]].text.endswith(":") or not (_prose(view, a) and _goes_on(view, b)):
            continue
        if any(view.words[w].text.endswith(":") for w in b.words[:CAPTION_WORDS]):
            continue     # the next line opens a field of its own ("Subject-matter: to present")
        out.append(end)
    return out


def flowed_text(view: PageView, breaks: list[int] | None = None) -> str:
    """The page text with its paragraphs' line breaks read as spaces (offsets unchanged)."""
    breaks = paragraph_breaks(view) if breaks is None else breaks
    if not breaks:
        return view.page.text
    chars = list(view.page.text)
    for b in breaks:
        chars[b] = " "
    return "".join(chars)
