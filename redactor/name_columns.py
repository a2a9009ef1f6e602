"""A table's column of names: the cells stacked under (or over) a found person's name are
people too, when they are written the way names are.

Real documents list people in columns: a memo's responsibility table ("Tobacco Blend ...
Ammons / Filter Production ... Wicker / Shipping ... Routh"), a contact sheet, a program's
staff list typed in capitals ("MURIEL KAMNIT / HOPE MARTINEZ"). A column holds values of one
kind, so when a detector found one of its cells as a PERSON, its neighbours in the column
are read as names too, where a model sees a bare surname ("Wicker") as an everyday word.

A neighbour joins only when it looks like a name on its own: one to three capitalised words
of letters (initials allowed), at least one of them a census given name or surname, written
in the found name's case (capitals beside capitals), and not inside any span found already.
The column runs cell by cell: left edges aligned, each cell close under the last (a list's
line spacing), and ends at the first cell that is not a name (a heading, a role, a date) —
so a place or a company in the next column or under the list is never reached.
A roster writes the surname first ("LAVALLEY, ROBERT CLINTON"): a name found from the cell's
second word to its end grows over the surname before its comma, and seeds its column so.
Pure function of the page (its text and word boxes) and the spans.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from redactor.census_names import given_names, surname_rank
from redactor.form_vocabulary import is_title
from redactor.model import OcrPage, Span
from redactor.page_view import PageView, page_view

CELL_GAP = 1.5        # text heights: a wider gap parts two cells of a row
ALIGN = 0.6           # text heights: left edges this close are one column's
LINE_GAP = 1.2        # text heights: a list's next line starts this close under the last
FREQUENT_SURNAME = 2000   # surnames this frequent are names even when everyday words ("Brown")
EVERYDAY_ZIPF = 3.5       # wordfreq Zipf of an everyday word ("file" 4.8, "wicker" 3.0)
MAX_WORDS = 3         # a name in a cell: "J. P. Smith", "HOPE MARTINEZ"
_WORD = re.compile(r"[A-Z][A-Za-z'\-]*\.?|[A-Z]\.")
_INITIAL = re.compile(r"[A-Z]\.?")
_EDGE = ".,;:()[]\"'“”‘’_—-|"


@dataclass(frozen=True)
class Cell:
    start: int        # character range of its words on the page
    end: int
    box: tuple
    words: tuple      # its words' texts, form rules and punctuation-only tokens left out
    height: float
    parts: tuple      # (x0, x1, start, end) of each word


def _cells(view: PageView) -> list[Cell]:
    out = []
    for line in view.lines:
        for ids in view.cells(line, CELL_GAP):
            ids = [w for w in ids if any(c.isalnum() for c in view.words[w].text)]
            if not ids:
                continue
            boxes = [view.words[w].bbox for w in ids]
            out.append(Cell(view.offsets[ids[0]][0], view.offsets[ids[-1]][1],
                            (min(b[0] for b in boxes), min(b[1] for b in boxes),
                             max(b[2] for b in boxes), max(b[3] for b in boxes)),
                            tuple(view.words[w].text.strip(_EDGE) for w in ids), line.height,
                            tuple((b[0], b[2]) + tuple(view.offsets[w]) for w, b in zip(ids, boxes))))
    return out


def _name_word(word: str) -> bool:
    """A census name that a reader takes as a name: a given name, a frequent surname, or a
    surname that is no everyday word ("Ammons", "Wicker"; not "File", rank 19,702)."""
    from wordfreq import zipf_frequency   # on first use: importing the core stays light

    up = word.upper()
    if up in given_names():
        return True
    rank = surname_rank(word)
    return rank is not None and (rank < FREQUENT_SURNAME or zipf_frequency(word.lower(), "en") < EVERYDAY_ZIPF)


def _reads_as_name(cell: Cell, capitals: bool) -> bool:
    """One to three capitalised words in the column's case, one of them a census name."""
    words = [w for w in cell.words if w]
    if not 1 <= len(words) <= MAX_WORDS or not all(_WORD.fullmatch(w) for w in words):
        return False
    full = [w.rstrip(".") for w in words if not _INITIAL.fullmatch(w)]
    if not full or any(w.isupper() != capitals for w in full if len(w) > 1):
        return False
    return any(_name_word(w) for w in full)


def _named(cell: Cell, spans: Sequence[Span], text: str) -> bool:
    """Whether found PERSON spans cover the cell's letters."""
    chars = [i for i in range(cell.start, cell.end) if text[i].isalnum()]
    people = [s for s in spans if s.type == "PERSON"]
    return bool(chars) and all(any(s.start <= i < s.end for s in people) for i in chars)


def _named_at(cell: Cell, x: float, spans: Sequence[Span]) -> bool:
    """Whether the cell's word at the column's left edge ``x`` is in a found PERSON span
    (OCR joined the name to the cell's caption: "Making & Packing__Brown/Routh")."""
    return any(x0 - 1 <= x <= x1 and any(s.type == "PERSON" and s.start < e and st < s.end for s in spans)
               for x0, x1, st, e in cell.parts)


def _from_edge(cell: Cell, x: float) -> Cell | None:
    """The cell's words from the column's left edge ``x`` on, or None when none starts
    there: a row's caption cell OCR ran into the name's is left out of it."""
    keep = [k for k, part in enumerate(cell.parts) if part[0] >= x - ALIGN * cell.height]
    if not keep or abs(cell.parts[keep[0]][0] - x) > ALIGN * cell.height:
        return None
    parts = tuple(cell.parts[k] for k in keep)
    return Cell(parts[0][2], parts[-1][3], (parts[0][0],) + cell.box[1:3] + (cell.box[3],),
                tuple(cell.words[k] for k in keep), cell.height, parts)


def _touches(cell: Cell, spans: Sequence[Span]) -> bool:
    return any(s.start < cell.end and cell.start < s.end for s in spans)


def _next_in_column(cells: list[Cell], cell: Cell, x: float, down: bool) -> Cell | None:
    """The cell stacked right under (``down``) or over ``cell`` in the column whose left
    edge is ``x``: its left edge aligned, or (a found name OCR joined to the word before it)
    its box across the edge."""
    h = cell.height
    best = None
    for c in cells:
        gap = c.box[1] - cell.box[3] if down else cell.box[1] - c.box[3]
        if not -0.3 * h <= gap <= LINE_GAP * h or c is cell:
            continue
        if not (abs(c.box[0] - x) <= ALIGN * h or c.box[0] <= x <= c.box[2]):
            continue
        if best is None or gap < (best.box[1] - cell.box[3] if down else cell.box[1] - best.box[3]):
            best = c
    return best


def propagate_name_columns(page: OcrPage, spans: Sequence[Span]) -> list[Span]:
    """``spans`` and a PERSON span for each name stacked in a column with a found one."""
    text = page.text
    view = page_view(page)
    cells = _cells(view)
    out = list(spans)
    for cell in cells:
        found = next((s for s in spans if s.type == "PERSON" and s.start < cell.end and cell.start < s.end), None)
        if found is None:
            continue
        words = [w.rstrip(".") for w in cell.words if w and not _INITIAL.fullmatch(w)]
        if not words or not all(_WORD.fullmatch(w) for w in cell.words if w):
            continue     # a found name that is not written as the column's names are
        capitals = all(w.isupper() for w in words if len(w) > 1)
        if not _named(cell, spans, text):
            # a roster writes the surname first ("LAVALLEY, ROBERT CLINTON"; OCR may read
            # the comma as a stop) and the model finds the given names only: the cell is
            # the name when the found name runs from its second word to its end and the
            # first word, closed by the comma, is no title
            first = text[cell.parts[0][2]:cell.parts[0][3]]
            if len(cell.parts) < 2 or not first.endswith((",", ".")) or is_title(first) or \
                    not cell.parts[1][2] <= found.start < cell.parts[1][3] or found.end < cell.end or \
                    not _reads_as_name(cell, capitals):
                continue
            grown = found.with_(start=cell.start, end=cell.end, text=text[cell.start:cell.end])
            out = [grown if s is found else s for s in out]
            found = grown
        for down in (True, False):
            at = cell
            while True:
                nxt = _next_in_column(cells, at, cell.box[0], down)
                if nxt is None:
                    break
                if _named(nxt, spans, text) or _named_at(nxt, cell.box[0], spans):
                    at = nxt
                    continue
                name = _from_edge(nxt, cell.box[0])
                if name is None or _touches(name, out) or not _reads_as_name(name, capitals):
                    break
                out.append(found.with_(start=name.start, end=name.end, text=text[name.start:name.end],
                                       detector=found.detector or "column"))
                at = nxt
    return out
