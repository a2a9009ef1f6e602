"""Rows dated by month and day alone, as DATE: a bank or card statement's transactions, a
ledger's or a time sheet's entries ("11/03  ACH DEPOSIT ...", "11/07  CHECK #1042"). The
statement's period gives the year once, in its header, and each row opens with its month
and day. "11/03" alone is as often a fraction or a ratio, so a row's month and day is a date
only in a column of them: at least MIN_ROWS rows, each opening with one, their left edges
aligned, down the page in date order within a statement's period (two months at most; a
parts list's "1/4", "1/2", "5/8" is none). Pure functions on the page's lines."""
from __future__ import annotations

import re

from redactor.plugin_api import PageView
from redactor_plugins.rules.hits import Hit

RULE = "dated_row"
SCORE = 0.8
MIN_ROWS = 3         # a column of dated rows: three at least
ALIGN = 1.0          # their left edges within a text height of each other
_MONTH_DAY = re.compile(r"(?:0?[1-9]|1[0-2])[/\-](?:0?[1-9]|[12]\d|3[01])")


def dated_row_hits(layout: PageView) -> list[Hit]:
    """The month and day opening each row of a column of such rows."""
    opening = []
    for line in layout.lines:
        w = line.words[0]
        if _MONTH_DAY.fullmatch(layout.words[w].text.strip()) and _row_goes_on(layout, w):
            opening.append((layout.words[w].bbox[0], line.height, w))
    out = []
    for x0, h, w in opening:
        column = [v for x, _, v in opening if abs(x - x0) <= ALIGN * h]
        if len(column) >= MIN_ROWS and _in_date_order(layout, column):
            start, end = layout.offsets[w]
            out.append(Hit(RULE, start, start + len(layout.words[w].text.strip()), SCORE))
    return out


def _row_goes_on(layout: PageView, w: int) -> bool:
    """Words follow word w on its row (its OCR line, or cells OCR read as lines of their
    own), and none stands before it: w opens an entry."""
    x0, _, x1, _ = layout.words[w].bbox
    row = [layout.words[b].bbox for b in layout.row_of(w)]
    return any(b[0] >= x1 for b in row) and not any(b[2] <= x0 for b in row)


def _in_date_order(layout: PageView, column: list[int]) -> bool:
    """The months and days of a column, top to bottom, never go back and span two months at
    most (a period running over a year's end: December, then January)."""
    rows = sorted(column, key=lambda v: layout.words[v].bbox[1])
    dates = [tuple(int(p) for p in re.split(r"[/\-]", layout.words[v].text.strip())) for v in rows]
    months = [(m - dates[0][0]) % 12 for m, _ in dates]
    return max(months) <= 1 and all((a, b[1]) <= (c, d[1]) for a, b, c, d in
                                    zip(months, dates, months[1:], dates[1:]))
