"""Dates a text states, in common formats, with every reading an ambiguous one allows.

"March 5, 2024", "5 March 2024", "5th of March, 2024", "Mar. 5, 2024", "2024-03-05",
"03/05/2024" and "05.03.2024" (US and day-first readings), "March 2024" and "03/2024"
(month precision). A bare year is read by the digit grammar (values.py), not here.
"""
from __future__ import annotations

import calendar
import re
from datetime import date

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTHS["sept"] = 9

_MON = "|".join(sorted(MONTHS, key=len, reverse=True))
_MON_CAP = "|".join(m.capitalize() for m in sorted(MONTHS, key=len, reverse=True))
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:18|19|20|21)\d\d)"
_DATE_PATTERNS = [
    re.compile(rf"(?<![\w/.-]){_YEAR}-(?P<m>[01]?\d)-(?P<d>[0-3]?\d)(?![\w/-])"),
    re.compile(r"(?<![\w/.-])(?P<a>[0-3]?\d)[/.-](?P<b>[0-3]?\d)[/.-](?P<y>(?:\d\d)?\d\d)(?![\w/-]|\.\d)"),
    re.compile(rf"(?<!\w)(?P<mon>{_MON})\.?\s+{_DAY},?\s+{_YEAR}(?!\w)", re.IGNORECASE),
    re.compile(rf"(?<!\w)(?:the\s+)?{_DAY}(?:\s+of)?\s+(?P<mon>{_MON})\.?,?\s+{_YEAR}(?!\w)", re.IGNORECASE),
    re.compile(rf"(?<!\w)(?P<mon>{_MON})\.?,?\s+{_YEAR}(?!\w)", re.IGNORECASE),
    # "03/2024": a month and a four-digit year (never a share: the year keeps it out)
    re.compile(rf"(?<![\w/.-])(?P<nm>0?[1-9]|1[0-2])[/.-]{_YEAR}(?![\w/-]|\.\d)"),
    # a day without a year, "17 March", "the 5th of May", "March 17th": a date of an
    # unknown year; it states no amount ("17 March" is not 17 employees). Month-first
    # needs the ordinal suffix, since "In March 17 people joined" counts people.
    # Month names are capitalised here, so "these 5 may change" keeps its 5.
    re.compile(rf"(?<![\w/.-])(?P<pd>[0-3]?\d)(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{_MON_CAP})\b"
               rf"(?!\.?,?\s+\d)"),
    re.compile(rf"(?<!\w)(?:{_MON_CAP})\.?\s+(?P<pd>[0-3]?\d)(?:st|nd|rd|th)\b"),
]
_PARTIAL = (6, 7)


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def dates_in(text: str) -> list[tuple[int, int, tuple[date, ...], str]]:
    """(start, end, readings, precision day|month) of every date in ``text``; a date
    without a year has no readings (precision "partial"): it matches nothing."""
    found = []
    taken: list[tuple[int, int]] = []
    for i, pat in enumerate(_DATE_PATTERNS):
        for m in pat.finditer(text):
            s, e = m.span()
            if any(s < te and ts < e for ts, te in taken):
                continue
            g = m.groupdict()
            precision = "day"
            if i in _PARTIAL:
                if 1 <= int(g["pd"]) <= 31:
                    taken.append((s, e))
                    found.append((s, e, (), "partial"))
                continue
            if i == 0:
                readings = [_safe_date(int(g["year"]), int(g["m"]), int(g["d"]))]
            elif i == 1:
                y = int(g["y"])
                if len(g["y"]) == 2:
                    y += 2000 if y < 70 else 1900
                a, b = int(g["a"]), int(g["b"])
                readings = [_safe_date(y, a, b), _safe_date(y, b, a)]   # US and day-first
            elif i in (2, 3):
                readings = [_safe_date(int(g["year"]), MONTHS[g["mon"].lower()], int(g["day"]))]
            elif i == 4:
                readings = [_safe_date(int(g["year"]), MONTHS[g["mon"].lower()], 1)]
                precision = "month"
            else:
                readings = [_safe_date(int(g["year"]), int(g["nm"]), 1)]
                precision = "month"
            dates = tuple(dict.fromkeys(d for d in readings if d))
            if not dates:
                continue
            taken.append((s, e))
            found.append((s, e, dates, precision))
    return found
