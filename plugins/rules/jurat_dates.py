"""The date a notary or a witness writes by hand into an oath's formula, as DATE.

US and Commonwealth jurats and acknowledgments print "Subscribed and sworn to before me this
____ day of __________, 19__" and leave the day, the month and the year's last digits to the
pen. OCR reads the printed words ("this", "day of", the century "19") and turns the
handwriting between them into garbage ("this Z day of WOVE 14 fe 27m 19 £7"), so no date
pattern matches; the formula itself says that what fills it is a date. The value runs from
the day's fill-in after "this" to the year's last digits, as a reader sees the written date.
A form left blank ("this day of , 19") has no fill-in and gives nothing. Pure functions on
the page's lines."""
from __future__ import annotations

import re

from redactor.plugin_api import PageView

from redactor_plugins.rules.hits import Hit

RULE = "jurat_date"
SCORE = 0.8
_THIS = re.compile(r"^[Tt]h[il1]s[.,]?$")
_DAY = re.compile(r"^d[ae]y$")              # "dey": OCR reads a typewriter's worn "a" as "e"
_OF = re.compile(r"^of$")
# the year the form prints ("19", ",19_86", "1988"), or a handwritten year OCR ran into the
# printed century ("107 3" for "1973")
_YEAR = re.compile(r"^[,.]?(?:19|20)[\w_]*$|^1\d{2}$")
MAX_DAY_WORDS = 3       # "this" stands at most three words (the handwritten day) before "day"
MAX_MONTH_WORDS = 6     # a handwritten month OCR split into pieces ("WOVE 14 fe 27m")
MAX_GAP = 5.0           # handwriting between printed words spans at most 5 line heights
                        # (a handwritten line is taller than print: its own height counts)
YEAR_TAIL = 3           # the year's written digits after the century: a short word


def _text(layout: PageView, i: int) -> str:
    return layout.words[i].text.strip()


def _has_fill(layout: PageView, ids: list[int]) -> bool:
    return any(any(c.isalnum() for c in _text(layout, i)) for i in ids)


def jurat_date_hits(layout: PageView) -> list[Hit]:
    """The dates written into the page's oath formulas."""
    words, text = layout.words, layout.page.text
    out = []
    for line in layout.lines:
        ids = list(line.words)
        gap = MAX_GAP * max(line.height, layout.text_height)
        for k in range(1, len(ids) - 1):
            if not (_DAY.match(_text(layout, ids[k])) and _OF.match(_text(layout, ids[k + 1]))):
                continue
            this = next((j for j in range(k - 1, max(-1, k - 2 - MAX_DAY_WORDS), -1)
                         if _THIS.match(_text(layout, ids[j]))), None)
            if this is None:
                continue
            year = None
            for j in range(k + 2, min(len(ids), k + 3 + MAX_MONTH_WORDS)):
                if words[ids[j]].bbox[0] - words[ids[j - 1]].bbox[2] > gap:
                    break
                if j > k + 2 and _YEAR.match(_text(layout, ids[j])):
                    year = j
                    break
            if year is None or not _has_fill(layout, ids[k + 2:year]):
                continue
            last = year
            if last + 1 < len(ids) and len(_text(layout, ids[last + 1])) <= YEAR_TAIL \
                    and words[ids[last + 1]].bbox[0] - words[ids[last]].bbox[2] <= layout.text_height * 2:
                last += 1
            first = this + 1
            start, end = layout.offsets[ids[first]][0], layout.offsets[ids[last]][1]
            while start < end and text[start] in "_-,.( ":
                start += 1
            while end > start and text[end - 1] in "_-,.) ":
                end -= 1
            out.append(Hit(RULE, start, end, SCORE))
    return out
