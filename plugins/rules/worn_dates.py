"""Dates that machines print, read through OCR's damage: a time clock's or a fax machine's
date and time ("JUL 29 3 02 PM 1964" pressed on a filing as it is received, "MAR 24 1999
16:16" along a fax's transmission line), as DATE.

Such dates are printed in capitals by worn stamp faces and dot-matrix heads, and OCR reads
their letters one off ("MPR 24 1999 16:16") and their AM/PM as "PH", so the date patterns
for written dates miss them. Their grammar survives: a month's abbreviation (exact, or in
capitals one letter off) beside a day, then more numbers, a clock time or AM/PM
(``plugins._stamp_grammar``). A month word alone, or beside a single number ("JUNE 2",
"MAY 12" in a schedule), is left to the written-date patterns: a worn month needs two more
marks to be a date. Pure functions on the page's lines."""
from __future__ import annotations

import re

from redactor.plugin_api import PageView

from redactor_plugins._stamp_grammar import (CLOCK, MERIDIEM, MONTHS, NUMBER, PUNCTUATION, as_digits, near_month,
                                             stamp_marks)
from redactor_plugins.rules.hits import Hit

RULE = "worn_date"
SCORE = 0.8
MAX_AFTER = 6        # a stamp's date and time is at most day, year, hour, minute, AM/PM, seconds
MAX_BEFORE = 2       # a year or a day before the month ("98 JUN 19", "24 MAR 1999")
WORD_GAP = 2.0       # the parts of one printed date stand within 2 line heights of each other
MONTH_NAMES = frozenset({"JANUARY", "FEBRUARY", "MARCH", "APRIL", "JUNE", "JULY", "AUGUST", "SEPT",
                         "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"})
_CLOCK_MERIDIEM = re.compile(r"^\d{1,2}[:.;]\d{2}[AP]M$")     # "05:49PM", a fax header's time
# a clock time OCR garbled, its AM/PM still read at its end ("AGPM"); unsure words only
_MERIDIEM_END = re.compile(r"[^\W_]{1,6}[AP]M$")
TAIL_WORDS = 2
TAIL_CONF = 60.0
_APOSTROPHE_YEAR = re.compile(r"^['’`]\d{2}$")       # "'80", the year as stamps abbreviate it


def _token(text: str) -> str:
    return as_digits(text.strip(PUNCTUATION))


def _datish(text: str) -> bool:
    """A part of a printed date or time: a number, a clock time, AM/PM or a year with its
    apostrophe, as OCR reads them."""
    if _APOSTROPHE_YEAR.match(text.strip(".,;")):
        return True
    t = _token(text)
    if not t:
        return False
    hour = t[:-1] if t.endswith(":") else ""
    return bool(NUMBER.match(t) or CLOCK.match(t) or MERIDIEM.match(t) or (hour.isdigit() and len(hour) <= 2)
                or _CLOCK_MERIDIEM.match(t))


def _is_day(text: str) -> bool:
    t = _token(text)
    return t.isdigit() and 1 <= int(t) <= 31


def _month_word(text: str) -> str | None:
    """The word as a month when it reads as one: exact ("Jun", "MAR"), or in capitals one
    letter off or with a stray mark beside it (``near_month``). Printed dates capitalise
    their month."""
    t = text.strip(PUNCTUATION)
    if not t[:1].isupper() or not near_month(t):      # "we may 2 6 go": a verb
        return None
    return "exact" if t.upper() in MONTHS or t.upper() in MONTH_NAMES else "worn"


def _time_tail(layout: PageView, ids: list[int], last: int, gap: float) -> int:
    """The date's run grown over a clock time OCR turned into unsure garbage that still ends
    in AM or PM ("NOV 12 796 BS! AGPM" for "NOV 12 '96 05:49PM", a fax header's stamp): at
    most TAIL_WORDS unsure words, the last one ending so."""
    words = layout.words
    for n in range(1, TAIL_WORDS + 1):
        j = last + n
        if j >= len(ids) or not 0 <= words[ids[j]].conf < TAIL_CONF or \
                words[ids[j]].bbox[0] - words[ids[j - 1]].bbox[2] > gap:
            return last
        if _MERIDIEM_END.search(words[ids[j]].text.rstrip(").,;]")):
            return j
    return last


def worn_date_hits(layout: PageView) -> list[Hit]:
    """The printed dates of the page's lines whose month OCR may have read one off."""
    words, text = layout.words, layout.page.text
    out = []
    for line in layout.lines:
        ids = list(line.words)
        gap = WORD_GAP * line.height
        for k, w in enumerate(ids):
            kind = _month_word(words[w].text)
            if kind is None:
                continue
            first, last = k, k
            while last + 1 < len(ids) and last + 1 - k <= MAX_AFTER and _datish(words[ids[last + 1]].text) \
                    and words[ids[last + 1]].bbox[0] - words[ids[last]].bbox[2] <= gap:
                last += 1
            while first - 1 >= 0 and k - first < MAX_BEFORE and _datish(words[ids[first - 1]].text) \
                    and words[ids[first]].bbox[0] - words[ids[first - 1]].bbox[2] <= gap:
                first -= 1
            last = _time_tail(layout, ids, last, gap)
            # the day stands right beside the month, before or after it
            beside = [ids[i] for i in (k - 1, k + 1) if first <= i <= last]
            if not any(_is_day(words[b].text) for b in beside):
                continue
            run = " ".join(words[ids[i]].text for i in range(first, last + 1))
            marks = stamp_marks(run) - {"month"}
            if len(marks) < (1 if kind == "exact" else 2):
                continue
            start, end = layout.offsets[ids[first]][0], layout.offsets[ids[last]][1]
            while start < end and text[start] in PUNCTUATION:
                start += 1
            while end > start and text[end - 1] in ".,;|!([{_-~":
                end -= 1
            out.append(Hit(RULE, start, end, SCORE))
    return out
