"""Dates written by hand where a form asks for one, as DATE: read through OCR's garbage, the
printed words around them say what they are.

- **An oath's formula** (``jurat_date_hits``): US and Commonwealth jurats and
  acknowledgments print "Subscribed and sworn to before me this ____ day of __________,
  19__" and leave the day, the month and the year's last digits to the pen. OCR reads the
  printed words ("this", "day of", the century "19") and turns the handwriting between them
  into garbage ("this Z day of WOVE 14 fe 27m 19 £7"), so no date pattern matches; the
  formula itself says that what fills it is a date. The value runs from the day's fill-in
  after "this" to the year's last digits, as a reader sees the written date. A form left
  blank ("this day of , 19") has no fill-in and gives nothing.
- **A date caption's fill-in** (``captioned_date_hits``): "Date ____" beside a signature or
  an authorisation is filled in by hand; OCR reads the pen's "10/9/87" as "tala" or
  "T26198", which no date pattern (or a number's) matches, and a number read so would be
  typed as a reference. Handwriting stands out from the print around it by its height (pen
  figures are taller than the typed caption) or by OCR's doubt; the words right of the
  caption that look so, up to the next printed word, are the date.

Pure functions on the page's lines."""
from __future__ import annotations

import re

from redactor.plugin_api import PageView

from redactor_plugins.rules.hits import Hit, trim
from redactor_plugins.rules.values import is_common_word

RULE = "jurat_date"
SCORE = 0.8
CAPTION_RULE = "date_fill"
CAPTION_SCORE = 0.85       # a caption names its value, as a label does (labels: 0.9)
# a caption is capitalised ("Date", "DATE:"); "to date" in a sentence is no caption
_DATE_CAPTION = re.compile(r"^(?:Date[ds]?|DATE[DS]?)[:.;]?$")
# ... as OCR reads a worn or small "D" ("pate:", "Oate:", "0ATE:"): with its colon, as a
# caption stands ("Rate:" and "Late" keep their own letters)
_MISREAD_DATE_CAPTION = re.compile(r"^(?:[pPoO0b]ate|[PO0]ATE)[:;]$")
CAPTION_REACH = 20.0       # a date caption's blank reaches up to 20 text heights right of it
                           # (a form's value column: "Authorization Date ...... 2/26/98")
_JOINING_WORDS = frozenset({"and", "or", "of", "to", "the", "for", "from", "by", "with", "per"})
PHRASE_WORDS = 5           # a caption phrase "Date ... :" is at most five more words
CAPTION_CONF = 60.0        # ... each read as print
CAPTION_WORDS = 4          # a written date is read as at most four pieces
PEN_HEIGHT = 1.5           # a word this many times the caption's height is written by hand ...
PEN_CONF = 50.0            # ... and so is one with figures OCR read below this confidence
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


def handwritten_date_hits(layout: PageView) -> list[Hit]:
    return jurat_date_hits(layout) + captioned_date_hits(layout)


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
            start, end = trim(text, layout.offsets[ids[first]][0], layout.offsets[ids[last]][1], "_-,.() ")
            out.append(Hit(RULE, start, end, SCORE))
    return out


def _handwritten(layout: PageView, i: int, caption_h: float) -> bool:
    w = layout.words[i]
    tall = w.bbox[3] - w.bbox[1] >= PEN_HEIGHT * caption_h
    unsure = 0 <= w.conf < PEN_CONF
    if any(ch.isdigit() for ch in w.text):
        # a figure or two of the pen's date OCR cut off ("2/" of "6/27/89")
        return tall or unsure
    if sum(c.isalpha() for c in w.text) < 2:
        return False
    # letters: a tall word OCR made of a pen's figures ("tala"), not a printed word, or one
    # it could hardly read ("uf»", "-a/as" at 0-16 %: a short word's letters by chance)
    return tall and (unsure or not is_common_word(w.text.lower()))


def _to_date(layout: PageView, c: int) -> bool:
    """"Committed To Date:", "Spent to Date", "Year-to-Date": a budget's amount so far, not
    a date field."""
    before = layout.words[c - 1].text.strip().lower() if c else ""
    return (before in ("to", "-to-") or before.endswith("-to")) and layout.word_line[c - 1] == layout.word_line[c]


def _caption_end(layout: PageView, c: int) -> int:
    """The last word of the caption "Date" begins: a form's date field is often named by a
    phrase that opens with the word and closes with a colon ("DATE POSTING COMPLETED:",
    "Date forwarded to Promotion Services:", "Date of birth:"); its blank is after the
    colon. Printed words only, on the caption's line; the caption itself when no colon
    closes a phrase within PHRASE_WORDS."""
    words = layout.words
    if words[c].text.strip().endswith((":", ";")):
        return c
    for i in range(c + 1, min(len(words), c + 1 + PHRASE_WORDS)):
        w = words[i]
        t = w.text.strip()
        if layout.word_line[i] != layout.word_line[c] or w.conf < CAPTION_CONF or not t.rstrip(":;").isalpha():
            return c
        if t.endswith(":"):
            # a phrase closes on a noun or a participle ("RECEIVED:"); a colon OCR read
            # after "and" ("Date and: Place of Birth") closes none
            return i if len(t) > 4 and t[:-1].lower() not in _JOINING_WORDS else c
    return c


def _beside(layout: PageView, c: int) -> list[int]:
    """Words right of caption ``c`` on its row, left to right: on its line, or on a line of
    their own that OCR made of pen figures taller than the print ("Date" ... "T26198")."""
    cb = layout.words[c].bbox
    h = cb[3] - cb[1]
    out = []
    for i, w in enumerate(layout.words):
        b = w.bbox
        if i == c or b[0] < cb[2] - 0.5 * h:      # left of it, or boxed inside the caption
            continue
        if min(b[3], cb[3]) - max(b[1], cb[1]) >= 0.5 * h:
            out.append(i)
    return sorted(out, key=lambda i: layout.words[i].bbox[0])


def captioned_date_hits(layout: PageView) -> list[Hit]:
    """The handwritten fill-ins of the page's date captions ("Date  tala a" -> "tala")."""
    words, text = layout.words, layout.page.text
    out = []
    for first, word in enumerate(words):
        if not (_DATE_CAPTION.match(word.text.strip()) or _MISREAD_DATE_CAPTION.match(word.text.strip())):
            continue
        if _to_date(layout, first):
            continue
        c = _caption_end(layout, first)
        caption_h = max(word.bbox[3] - word.bbox[1], 1.0)
        reach = words[c].bbox[2] + CAPTION_REACH * max(caption_h, layout.text_height)
        picked = []
        for i in _beside(layout, c)[:CAPTION_WORDS]:
            x0, y0, x1, y1 = words[i].bbox
            # an archive number stamped up the margin is print turned 90 degrees
            if x0 > reach or y1 - y0 > 2 * (x1 - x0) or not _handwritten(layout, i, caption_h):
                break
            picked.append(i)
        # one span per run of the page's text: pieces OCR put on a line of their own are
        # spans of their own (their boxes still lie side by side)
        runs: list[list[int]] = []
        for i in picked:
            if runs and layout.word_line[i] == layout.word_line[runs[-1][-1]] and i == runs[-1][-1] + 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        for run in runs:
            start, end = trim(text, layout.offsets[run[0]][0], layout.offsets[run[-1]][1], "_-,.:;() ")
            if start < end:
                out.append(Hit(CAPTION_RULE, start, end, CAPTION_SCORE))
    return out
