"""A person named in full is named by surname alone elsewhere on the page.

Memos, minutes and reports introduce a person once ("Written By W. E. Routh") and then
write the surname alone: a responsibility table ("Shipping ... Routh"), a later sentence
("Routh will ship the samples"), a slash-joined pair ("Brown/Routh"). That bare surname is
the same personal data as the full name. ``propagate_repeats`` only finds repeats of the
whole value; this finds the surname's.

A surname is taken from a PERSON span of two words or more: its last word ("W. E. Routh"),
or its first when the name is inverted ("Routh, W. E."). It must be a name and not an
everyday word that a reader would take in another sense: four letters or more, capitalised,
and rarer in English than wordfreq's ``EVERYDAY_ZIPF`` (so "Routh" and "Kremer" repeat,
"White", "Harper", "Lopez" and "Roller" do not: a table's "White" is a colour, and a
model's PERSON on "Delivery Roller" would spread to every roller). A repeat must stand
alone: not inside any span found already (an organisation named after its founder keeps
its type), and not beside another capitalised word on its line (then it is part of another
name: "Routh Industries", "John Routh" is someone else's or a detector's to find). It may
be set in the other case a typed page writes names in ("TO: W. E. ROUTH" over "Routh will
ship").
Pure function of the page (its text and word boxes) and the spans.
"""
from __future__ import annotations

import re
from typing import Sequence

from redactor.form_vocabulary import personal_titles
from redactor.model import OcrPage, Span
from redactor.page_view import PageView, page_view

EVERYDAY_ZIPF = 3.5      # wordfreq Zipf, the bound the name filters use ("roller" 4.0, "lopez" 3.8,
                         # "routh" 2.1): a surname that is also an everyday word is not repeated
MIN_LETTERS = 4          # shorter surnames ("Li", "Ng", "Roe") are too often other words' parts
_NAME_WORD = re.compile(r"[A-Z][A-Za-z'\-]*[a-z][A-Za-z'\-]*|[A-Z][A-Z'\-]+")
_EDGE = ".,;:()[]\"'“”‘’"


def _surname(value: str) -> str | None:
    """The surname of a full name as written, or None."""
    words = value.split()
    if len(words) < 2:
        return None
    # "Routh, W. E.": the comma after the first word inverts the name
    word = words[0] if words[0].endswith(",") else words[-1]
    word = word.strip(_EDGE)
    if len(word) < MIN_LETTERS or not _NAME_WORD.fullmatch(word):
        return None
    from wordfreq import zipf_frequency   # on first use: importing the core stays light

    if zipf_frequency(word.lower(), "en") >= EVERYDAY_ZIPF:
        return None
    return word


CELL_GAP = 1.5           # text heights: a wider gap parts two cells of a table's row


def _name_like(word: str) -> bool:
    bare = word.strip(_EDGE)
    # titles a surname is written after: "Mr. Routh" is the repeat, not part of another name
    return bool(bare) and bare[0].isupper() and bare.lower().rstrip(".") not in personal_titles() and \
        not word.endswith((",", ";", ":"))


def _stands_alone(view: PageView, start: int, end: int) -> bool:
    """No capitalised word right before or after the occurrence in its cell (a word of
    the same line closer than a cell gap), but for a title before it."""
    words = view.words_in(start, end)
    if len(words) != 1:
        return False
    w = words[0]
    line = view.line_of_word(w)
    pos = line.words.index(w)
    gap = CELL_GAP * line.height
    text = view.page.text
    # a word that holds more than the surname ("Brown/Routh") is parted at the slash
    ws, we = view.offsets[w]
    if (ws < start and text[start - 1] not in "/([") or (end < we and text[end] not in "/)],;:."):
        return False
    if pos > 0:
        prev = line.words[pos - 1]
        if ws == start and view.words[w].bbox[0] - view.words[prev].bbox[2] <= gap and \
                _name_like(view.words[prev].text):
            return False
    if pos + 1 < len(line.words):
        nxt = line.words[pos + 1]
        if we == end and view.words[nxt].bbox[0] - view.words[w].bbox[2] <= gap and \
                _name_like(view.words[nxt].text) and not text[ws:we].endswith((",", ";", ":")):
            return False
    return True


def _same_name(found: str, surname: str) -> bool:
    """``found`` is ``surname`` as written or in the other case a page sets names in: a
    typed memo's header and copy list in capitals ("TO: W. E. ROUTH"), its body in mixed case
    ("Routh will ship"). Other casings ("rOUTH") are no name."""
    return found == surname or found == surname.upper() or found == surname.capitalize()


def propagate_surnames(page: OcrPage, spans: Sequence[Span]) -> list[Span]:
    """``spans`` and a PERSON span for each bare repeat of a found person's surname."""
    text = page.text
    view = page_view(page)
    out = list(spans)
    seen: set[str] = set()
    for span in spans:
        if span.type != "PERSON":
            continue
        surname = _surname(text[span.start:span.end])
        if surname is None or surname in seen:
            continue
        seen.add(surname)
        for m in re.finditer(r"(?<![\w'’\-])" + re.escape(surname) + r"(?![\w'’\-])", text, re.IGNORECASE):
            if not _same_name(m.group(0), surname) or any(s.start < m.end() and m.start() < s.end for s in out):
                continue
            if not _stands_alone(view, m.start(), m.end()):
                continue
            out.append(span.with_(start=m.start(), end=m.end(), text=m.group(0),
                                  detector=span.detector or "repeat"))
    return out
