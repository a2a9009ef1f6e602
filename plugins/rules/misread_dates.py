"""Typed dates whose month name OCR misread, as DATE.

Letters, memos and forms type the date with its month written out ("October 9, 1968", "27
April 1982"). A typewriter's worn or clogged face and a photocopy's noise make OCR read the
month a letter off ("Ocotber", "Apri]"), glue a caption's tail or a mark to it ("*TEMay"
of "DATE: May", "OCt-"), and read a year's 9 as "¢", so the written-date patterns miss the
date. Its grammar survives: a day (1-31) and a four-figure year of this or the last
century stand beside the month in either order, and they make a word that merely looks
like a month into a date. Pure functions on the page's lines."""
from __future__ import annotations

import difflib
import re

from redactor.plugin_api import PageView

from redactor_plugins._stamp_grammar import DIGIT_LOOKALIKES
from redactor_plugins.rules.hits import Hit, trim

RULE = "misread_month_date"
SCORE = 0.75
MONTH_NAMES = ("JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST",
               "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER")
ABBREVIATIONS = tuple(m[:3] for m in MONTH_NAMES) + ("SEPT",)
LIKENESS = 0.8             # difflib ratio of a misread month name (5+ letters) to the name
WORD_GAP = 2.0             # the parts of one date stand within 2 line heights of each other
# marks OCR puts round a typed word (a caption's colon, a rule's end, a speck)
_EDGE_MARKS = ".,;:'\"`|!()[]{}_-~*^"
# a year's 9 read as a cent sign, its 1 as "l" or "I", its 0 as "O"
_YEAR_LOOKALIKES = str.maketrans({"¢": "9", "g": "9"})
_YEAR = re.compile(r"^(?:19|20)\d{2}$")
# the month's tail of a word whose head is a caption's end glued on ("TEMay" of "DATE: May"):
# the month starts at a capital letter inside the word
_GLUED_MONTH = re.compile(r"^[A-Z*:;.]{1,3}([A-Z][a-z]{2,8})$")


def _letters(token: str) -> str:
    return token.strip(_EDGE_MARKS)


def month_of(token: str) -> str | None:
    """The month a typed word reads as, through OCR damage: its letters exactly a month's
    name or abbreviation once the marks round it are off ("OCt-"), a month's name (5+
    letters) a letter or two off ("Ocotber", "Apri]" read as "Apri"), or a month's name
    after a caption's glued end ("TEMay"). Written in capitals or capitalised, as a date's
    month is typed; None for other words."""
    t = _letters(token)
    m = _GLUED_MONTH.match(t)
    if m and m.group(1).upper() in MONTH_NAMES:
        return m.group(1).upper()
    if len(t) < 3 or not t.isalpha() or not t[0].isupper():
        return None
    u = t.upper()
    if u in MONTH_NAMES or u in ABBREVIATIONS:
        return u
    if len(u) < 4:
        return None
    likeness, best = max((difflib.SequenceMatcher(None, u, name).ratio(), name) for name in MONTH_NAMES)
    return best if len(best) >= 5 and likeness >= LIKENESS else None


def _day(token: str) -> bool:
    t = token.strip(_EDGE_MARKS).removesuffix("st").removesuffix("nd").removesuffix("rd") \
        .removesuffix("th").translate(DIGIT_LOOKALIKES)
    return t.isdigit() and len(t) <= 2 and 1 <= int(t) <= 31


def _year(token: str) -> bool:
    t = token.strip(_EDGE_MARKS).translate(DIGIT_LOOKALIKES).translate(_YEAR_LOOKALIKES)
    return _YEAR.match(t) is not None


def misread_date_hits(layout: PageView) -> list[Hit]:
    """The typed dates of the page's lines, "Month D, YYYY" or "D Month YYYY", whose month
    word OCR misread."""
    words, text = layout.words, layout.page.text
    out = []
    for line in layout.lines:
        ids = list(line.words)
        gap = WORD_GAP * line.height

        def near(a: int, b: int) -> bool:
            return words[ids[b]].bbox[0] - words[ids[a]].bbox[2] <= gap

        for k in range(len(ids)):
            if month_of(words[ids[k]].text) is None:
                continue
            span = None
            if k + 2 < len(ids) and _day(words[ids[k + 1]].text) and _year(words[ids[k + 2]].text) \
                    and near(k, k + 1) and near(k + 1, k + 2):
                span = (k, k + 2)
            # a day before the month stands bare ("27 April 1982"); "No. 3., Sept. 1952"
            # is a journal's issue number
            elif k >= 1 and k + 1 < len(ids) and words[ids[k - 1]].text.isdigit() and \
                    _day(words[ids[k - 1]].text) and \
                    _year(words[ids[k + 1]].text) and near(k - 1, k) and near(k, k + 1):
                span = (k - 1, k + 1)
            if span is None:
                continue
            start, end = trim(text, layout.offsets[ids[span[0]]][0], layout.offsets[ids[span[1]]][1], _EDGE_MARKS)
            out.append(Hit(RULE, start, end, SCORE))
    return out
