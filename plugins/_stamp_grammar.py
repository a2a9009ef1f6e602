"""The grammar of a date and time as a time clock or a fax machine prints it ("98 JUN 19 AM
10:16", "MAR-24-1999 14:39"), read through OCR's misreadings: a month's abbreviation (in
capitals also one letter off), AM/PM as worn faces read them, a clock time, numbers with
their digit look-alikes. Shared by the time-stamp detector (stamps turned up a margin) and
the rules' worn dates (``plugins/rules/worn_dates.py``: the same dates read upright)."""
from __future__ import annotations

import re

MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
# AM / PM as a worn stamp face reads them, in its capitals: the M's middle lost (PN, PH) or
# its strokes split (Pil, Pit); "An", "am", "Ah" are words
MERIDIEM = re.compile(r"^(?:AM|P(?:M|N|H|il|it|Il|IL|II))$")
CLOCK = re.compile(r"^\d{1,2}[:.;]\d{2}$")
# a clock that prints the meridiem as one capital before the time ("'92 MAR 23 P2:06", "MAR -5
# P1:33", "'92 MAY 14 A7:48": the registry's stamps of the early 1990s); OCR reads the colon
# as a stop, drops it or makes a 3 of it ("P2306")
LETTER_CLOCK = re.compile(r"^[AP][0-2]?\d[:.;3]?[0-5]\d$")
NUMBER = re.compile(r"^\d{1,4}$")
# the marks a stamp's or an OCR reading's tokens carry round them ("(NOV", "16:16,", "PH!")
PUNCTUATION = ".,;'\"`|!()[]{}_-~"
# letters a stamp's digits are read as, in a token otherwise of digits ("lO:" is "10:")
DIGIT_LOOKALIKES = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "i": "1", "|": "1",
                                  "Z": "2", "z": "2", "S": "5", "$": "5", "B": "8"})


def near_month(token: str) -> bool:
    """A month's abbreviation ("Jun", "AUG"); in capitals, as a stamp prints it, also with one
    letter misread ("JEN") or with letters the stamp's edge added, in five letters at most
    ("SIAUG"). A lower-case word one letter off a month ("see", "sar") is a word."""
    t = token.upper()
    if not t.isalpha() or len(t) < 3:
        return False
    if t in MONTHS:
        return True
    if token != t:
        return False
    if len(t) <= 5 and any(m in t for m in MONTHS):
        return True
    return len(t) == 3 and any(sum(a != b for a, b in zip(t, m)) == 1 for m in MONTHS)


def as_digits(token: str) -> str:
    """A token that is mostly digits with its digit look-alikes read as digits ("lO" -> "10");
    other tokens unchanged."""
    digits = sum(ch.isdigit() for ch in token)
    if digits and digits >= len(token) / 2:
        return token.translate(DIGIT_LOOKALIKES)
    return token


def stamp_marks(text: str) -> set[str]:
    """The marks of a time stamp a line's reading holds: ``month``, ``meridiem``, ``clock``
    (a time, also split as "10:" + "16") and ``numbers`` (two numbers or more)."""
    tokens = [t.strip(PUNCTUATION) for t in text.split()]
    tokens = [t for t in tokens if t]
    marks = set()
    numbers = 0
    for i, raw in enumerate(tokens):
        t = as_digits(raw)
        if near_month(t):
            marks.add("month")
        elif MERIDIEM.match(t):
            marks.add("meridiem")
        elif LETTER_CLOCK.match(raw):
            # without its colon, "A218" may be a code: ``letter_clock``, a meridiem only
            # beside the other marks of its own reading (``SINGLE_READING``)
            marks |= {"meridiem", "clock"} if re.search(r"[:.;]", raw) else {"letter_clock"}
            continue
        # an hour before its colon is read as letters as often as not ("lO:" for "10:")
        hour = raw[:-1].translate(DIGIT_LOOKALIKES) if raw.endswith(":") else ""
        if CLOCK.match(t) or (hour.isdigit() and len(hour) <= 2 and i + 1 < len(tokens)
                              and NUMBER.match(as_digits(tokens[i + 1]))):
            marks.add("clock")
        elif NUMBER.match(t):
            numbers += 1
            # the year a clock prints in full beside the month ("2009 SEP 25"; its figures
            # worn: "2809 SEP")
            if len(t) == 4 and any(near_month(as_digits(tokens[j])) for j in (i - 1, i + 1)
                                   if 0 <= j < len(tokens)):
                marks.add("year")
    if numbers >= 2:
        marks.add("numbers")
    return marks


# marks believed only within one reading, not gathered from a line's several readings
SINGLE_READING = frozenset({"letter_clock"})


def marks_score(marks: set[str]) -> int:
    """How many marks of a time stamp there are; 0 unless a month or AM/PM is among them with
    a second mark beside it."""
    if "letter_clock" in marks:
        marks = (marks - SINGLE_READING) | {"meridiem"}
    return len(marks) if marks & {"month", "meridiem"} and len(marks) >= 2 else 0


def stamp_score(text: str) -> int:
    """How many marks of a time stamp a reading holds (``marks_score``)."""
    return marks_score(stamp_marks(text))
