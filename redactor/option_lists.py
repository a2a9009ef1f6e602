"""A form's printed list of places to choose from: the names are the form's options.

Forms print the places one may tick ("STATES AND CITIES SELECTED TO RECEIVE PRODUCT:
Alabama __x__ Alaska ____ ...", a list of countries, of regions) as columns of names, each
alone in its cell beside a box or a fill-in line. They are the form's vocabulary, the same
on every copy; what the filer marked is a tick, not the name (the real set's GUIDE leaves
them out). Every place detector finds each name, so that a sheet of fifty states becomes
fifty redactions of no one's data. This module finds such lists from the layout: at least
MIN_LIST place spans that stand alone in their cell, MIN_COLUMN or more of them stacked in
one column (left edges within a text height, rows at most ROW_GAP text heights apart). The
pipeline drops the LOCATION spans of such a list; a place written in a field ("Place of
birth: Boston") or in prose has words beside it and stays.

Pure functions on the OCR page."""
from __future__ import annotations

from typing import Sequence

from redactor.model import OcrPage, Span
from redactor.page_view import page_view

MIN_LIST = 8
MIN_COLUMN = 4
ROW_GAP = 2.5      # text heights between the tops of two rows of one column
BESIDE = 3.0       # text heights: a word this close beside a name shares its cell


def _alone_in_cell(view, ids: list[int]) -> bool:
    """Whether the words ``ids`` have no word with two letters or digits beside them on
    their line (a box, a tick "x" or a fill-in line may stand there)."""
    line = view.line_of_word(ids[0])
    x0 = min(view.words[i].bbox[0] for i in ids)
    x1 = max(view.words[i].bbox[2] for i in ids)
    h = line.height
    for w in line.words:
        if w in ids:
            continue
        b = view.words[w].bbox
        near = x1 <= b[0] <= x1 + BESIDE * h or x0 - BESIDE * h <= b[2] <= x0
        if near and sum(c.isalnum() for c in view.words[w].text) >= 2:
            return False
    return True


def option_list_places(page: OcrPage, spans: Sequence[Span]) -> set[int]:
    """Indices into ``spans`` of the LOCATION spans that make up a printed option list."""
    view = page_view(page)
    alone: list[tuple[int, tuple[float, float, float, float], float]] = []
    for k, s in enumerate(spans):
        if s.type != "LOCATION":
            continue
        ids = view.words_in(s.start, s.end)
        if not ids or len({view.line_of_word(i).start_word for i in ids}) > 1 or not _alone_in_cell(view, ids):
            continue
        box = (min(view.words[i].bbox[0] for i in ids), min(view.words[i].bbox[1] for i in ids),
               max(view.words[i].bbox[2] for i in ids), max(view.words[i].bbox[3] for i in ids))
        alone.append((k, box, view.line_of_word(ids[0]).height))
    if len(alone) < MIN_LIST:
        return set()
    listed: set[int] = set()
    for k, box, h in alone:
        column = sorted((b for _, b, _ in alone if abs(b[0] - box[0]) <= h), key=lambda b: b[1])
        # the longest run of rows stacked without a gap wider than ROW_GAP lines
        run = best = 1
        for a, b in zip(column, column[1:]):
            run = run + 1 if b[1] - a[1] <= ROW_GAP * h else 1
            best = max(best, run)
        if best >= MIN_COLUMN:
            listed.add(k)
    return listed if len(listed) >= MIN_LIST else set()


def option_list_ranges(page: OcrPage, spans: Sequence[Span]) -> list[tuple[int, int]]:
    """Character ranges of the places of a printed option list among ``spans``."""
    return [(spans[k].start, spans[k].end) for k in sorted(option_list_places(page, spans))]


def drop_option_lists(page: OcrPage, spans: Sequence[Span],
                      ranges: Sequence[tuple[int, int]] | None = None) -> list[Span]:
    """``spans`` without the LOCATION spans inside an option list's places: those of
    ``ranges`` when given (the list found once, before later stages added repeats of a
    place written elsewhere), else the list found among ``spans``."""
    if ranges is None:
        ranges = option_list_ranges(page, spans)
    return [s for s in spans if not (s.type == "LOCATION" and any(a <= s.start and s.end <= b for a, b in ranges))]
