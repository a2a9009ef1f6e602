"""Hand-built OCR pages laid out like a memo's lines and table rows, for the tests of the
pipeline steps that read a page's words (surname repeats, name columns, a form's own print)."""
from redactor.model import OcrPage, Span, WordBox


def page_of(lines, gap=60):
    """lines: list of [(text, x0, x1)]; words 40 px high, lines ``gap`` px apart."""
    words = []
    for li, line in enumerate(lines):
        y0 = 100 + gap * li
        for text, x0, x1 in line:
            words.append(WordBox(text, (x0, y0, x1, y0 + 40), 95.0, line=li, block=0))
    return OcrPage(3000, 2000, tuple(words), "test")


def person(page, value):
    """A PERSON span over the first occurrence of ``value``."""
    start = page.text.index(value)
    return Span(start, start + len(value), "PERSON", 0.9, "rules", value)


def page_of_lines(lines: list[str]) -> OcrPage:
    """One OCR line per string, its words 11 px a character, lines 30 px apart."""
    words = []
    for n, line in enumerate(lines):
        x = 20
        for w in line.split():
            words.append(WordBox(w, (x, 20 + 30 * n, x + 11 * len(w), 40 + 30 * n), 95.0, n, 0))
            x += 11 * len(w) + 11
    return OcrPage(1400, 40 + 30 * len(lines), tuple(words), "test")
