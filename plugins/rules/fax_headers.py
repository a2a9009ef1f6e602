"""The sender a fax machine names in the transmission line it prints across a page's top, as
ORGANIZATION.

A fax machine heads every page it sends with one line: the date and time, its own number
and the name it was set up with (its station identifier, almost always the company's:
"12/08/97 09:01 FAX 1 732 583 8977 LORILLARD TOB CO +++ NYO - SALES 002/003"), then the page
count. The name is in capitals, after the number, before the page count or the receiving
side's marks; OCR reads the line's digits poorly ("09/07/35 15:48 317 3450971 LORILLARD ;
@o01/002") but its order holds. Only a line that opens with a date and a clock time, or one
the page count closes (its date lost at the scan's edge), and has a number of seven digits or
more before the name is such a header.

Pure functions on the page's lines."""
from __future__ import annotations

import re

from redactor.plugin_api import PageView

from redactor_plugins.rules.hits import Hit

RULE = "fax_sender"
SCORE = 0.7
TOP_SHARE = 0.2          # the header runs across the top fifth of the page (or the foot, where
                         # some machines print it)
_DATE = re.compile(r"^\d{1,2}[/.\-]\d{1,2}[/.\-]\d{2,4}$|^[A-Z]{3}[-.]?\d{1,2}[-.]?\d{2,4}$")
_CLOCK = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?(?:[AP]M)?$")
# the page count a fax machine prints at the line's end: "@003/003", "001/002", "P.01/03"
_PAGE_COUNT = re.compile(r"^[@©]?(?:P\.?)?0\d{1,2}/0?\d{1,3}$")
_NAME_WORD = re.compile(r"^[A-Z][A-Z&.'\-]*$")
MAX_NAME_WORDS = 4


def _digits(text: str) -> int:
    return sum(c.isdigit() for c in text)


def fax_sender_hits(layout: PageView) -> list[Hit]:
    """The sending station's name in each fax transmission line of the page."""
    text, height = layout.page.text, layout.page.height
    out = []
    for line in layout.lines:
        if TOP_SHARE * height < line.y0 < (1 - TOP_SHARE) * height:
            continue
        toks = [layout.words[i].text.strip(",;") for i in line.words]
        if len(toks) < 4:
            continue
        if _DATE.match(toks[0]) and _CLOCK.match(toks[1]):
            k = 2
        elif _PAGE_COUNT.match(toks[-1]):
            # the date and time OCR lost at the scan's edge ("\ 17 S214 340 9308 LORILLARD ++
            # NYO SLS GEN @003/003"): the page count closing the line names it a fax's
            # header as well; the number starts after the first figures
            k = next((i for i, t in enumerate(toks) if _digits(t) >= 2), len(toks))
        else:
            continue
        # the station's number: digits up to the first word of letters (a "FAX" tag between)
        number = 0
        while k < len(toks) and (toks[k].upper() in ("FAX", "TEL", "FROM") or _digits(toks[k]) >= len(toks[k]) - 1):
            number += _digits(toks[k])
            k += 1
        if number < 7:
            continue
        first = k
        while k < len(toks) and k - first < MAX_NAME_WORDS and _NAME_WORD.match(toks[k]) and \
                sum(c.isalpha() for c in toks[k]) >= 2:
            k += 1
        if k == first or sum(c.isalpha() for t in toks[first:k] for c in t) < 3:
            continue
        start = layout.offsets[line.words[first]][0]
        end = layout.offsets[line.words[k - 1]][1]
        while end > start and text[end - 1] in ",;:.-":
            end -= 1
        out.append(Hit(RULE, start, end, SCORE))
    return out
