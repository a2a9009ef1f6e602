"""Phone numbers listed side by side, as PHONE: a letterhead or a directory prints its offices'
numbers in one row ("212-2048700   202-371-5760   312-588-5600   33-1-53-64-82-82"). Two
numbers there that the phone patterns know make the row a row of phones, and a token of
figure groups beside them is one too, however it is written: another country's way with
its country code and no "+" (France's "33-1-53-64-82-82"), or with a figure OCR read as a
look-alike ("$" for 5, "O" for 0). Alone, such a token is as likely a reference or a part
number, so the row must say phone. Pure functions on the page's lines."""
from __future__ import annotations

import re

from redactor.plugin_api import PageView
from redactor_plugins._stamp_grammar import DIGIT_LOOKALIKES
from redactor_plugins.rules.hits import Hit, trim

RULE = "phone_row"
SCORE = 0.6
MIN_PHONES = 2          # numbers the phone patterns found on the row
MIN_DIGITS, MAX_DIGITS = 9, 15   # a national number with its area code .. E.164's maximum
# figure groups joined by dashes, stops or slashes: three groups at least, so that a date
# ("12-10-84") falls short on figures and an amount ("1,234.56") on its separators
_GROUPED = re.compile(r"\+?\d{1,4}(?:[\-./]\d{1,4}){2,6}")
_EDGES = ".,;:()[]{}|_"
_SIGN_LOOKALIKES = str.maketrans({"$": "5", "§": "5"})


def _as_figures(token: str) -> str:
    """The token with the look-alikes of figures read as figures, when it is mostly figures."""
    t = token.strip(_EDGES).translate(_SIGN_LOOKALIKES)
    if sum(c.isdigit() for c in t) < len(t) / 2:
        return t
    return t.translate(DIGIT_LOOKALIKES)


def phone_row_hits(layout: PageView, phone_hits: list[Hit], taken: list[Hit]) -> list[Hit]:
    """PHONE hits for the grouped-figure tokens of rows holding MIN_PHONES of ``phone_hits``
    that no hit in ``taken`` covers yet."""
    out = []
    for line in layout.lines:
        start, end = layout.offsets[line.words[0]][0], layout.offsets[line.words[-1]][1]
        if sum(start <= h.start and h.end <= end for h in phone_hits) < MIN_PHONES:
            continue
        for w in line.words:
            s, e = layout.offsets[w]
            if any(h.start < e and s < h.end for h in taken):
                continue
            figures = _as_figures(layout.words[w].text)
            digits = sum(c.isdigit() for c in figures)
            if _GROUPED.fullmatch(figures) and MIN_DIGITS <= digits <= MAX_DIGITS:
                out.append(Hit(RULE, *trim(layout.page.text, s, e, _EDGES), SCORE))
    return out
