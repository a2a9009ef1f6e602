"""OcrPages built from rows of text for the rules detector's tests: word boxes of a fixed
character width, so tests can spell out layouts and OCR damage exactly."""
from __future__ import annotations

from redactor.model import OcrPage, WordBox

CHAR_W = 11
LINE_H = 20
LINE_STEP = 30


def _words_of(x: float, y: float, text: str, line: int) -> list[WordBox]:
    out = []
    for tok in text.split(" "):
        if tok:
            out.append(WordBox(tok, (x, y, x + len(tok) * CHAR_W, y + LINE_H), 95.0, line, 0))
        x += (len(tok) + 1) * CHAR_W
    return out


def page_from_rows(rows, step=LINE_STEP) -> OcrPage:
    """A row is a string (starting at x=20), a list of (x, text) cells, or None (vertical
    space); each cell is its own OCR line, words are CHAR_W px per character."""
    words = []
    line_id = 0
    y = 20
    for row in rows:
        if row is None:
            y += step
            continue
        cells = [(20, row)] if isinstance(row, str) else row
        for x, text in cells:
            words += _words_of(x, y, text, line_id)
            line_id += 1
        y += step
    return OcrPage(2000, max(y + 40, 100), tuple(words), "test")


def one_line_rows(rows, step=LINE_STEP) -> OcrPage:
    """Like page_from_rows, but the cells of a row are one OCR line (as Tesseract reads a
    form row whose cells are not too far apart)."""
    words = []
    y = 20
    for lid, row in enumerate(rows):
        for x, text in row:
            words += _words_of(x, y, text, lid)
        y += step
    words.sort(key=lambda w: (w.line, w.bbox[0]))
    return OcrPage(2000, y + 40, tuple(words), "test")
