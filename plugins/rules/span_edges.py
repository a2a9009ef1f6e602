"""The edges of word-valued spans: a person's or a company's name ends at a column gap (two
people side by side that OCR read as one line), no value keeps the dashes or underscores of
the fill-in line it was typed on, and an address does not open with the name of the company
whose office it is."""
from __future__ import annotations

import re

from redactor.plugin_api import PageView, Span

from redactor_plugins.rules.names import COLUMN_GAP
from redactor_plugins.rules.people import INITIAL_WORD, INITIALS_GAP

# Types whose value is a run of words that never crosses a column gap (two people side by
# side in "Sold To" / "Ship To" columns that OCR read as one line)
COLUMN_BOUND_TYPES = frozenset({"PERSON", "ORGANIZATION"})


def split_at_column_gaps(layout: PageView, spans: list[Span]) -> list[Span]:
    """Cut PERSON and ORGANIZATION spans where two neighbouring words of one line lie
    further apart than a column gap (names.COLUMN_GAP text heights)."""
    out = []
    text = layout.page.text
    for sp in spans:
        words = layout.words_in(sp.start, sp.end)
        if sp.type not in COLUMN_BOUND_TYPES or len(words) < 2:
            out.append(sp)
            continue
        start = sp.start
        for k, (a, b) in enumerate(zip(words, words[1:])):
            gap = layout.words[b].bbox[0] - layout.words[a].bbox[2]
            height = layout.line_of_word(a).height
            # a typewriter sets two spaces after a full stop: the initials that open a
            # name ("C.  M.  WIECHMANN") stand wider apart than its words, not a column
            opening_initials = all(INITIAL_WORD.fullmatch(layout.words[w].text) for w in words[:k + 1])
            if layout.word_line[a] == layout.word_line[b] and \
                    gap > (INITIALS_GAP if opening_initials else COLUMN_GAP) * height:
                end = min(sp.end, layout.offsets[a][1])
                out.append(sp.with_(start=start, end=end, text=text[start:end]))
                start = max(sp.start, layout.offsets[b][0])
        out.append(sp.with_(start=start, end=sp.end, text=text[start:sp.end]))
    return out


# Types whose value is words: a token of dashes or underscores at its edge is the form's
# fill-in line the value was typed on ("Edwin --", "-_-. Garcia"), not part of the name.
_NAME_TYPES = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "ADDRESS"})
# (A symbol OCR read for an initial, "€. Mann", is no such mark and stays.)
_FILL_IN_EDGE = re.compile(r"^[\-_—–=~.·]+(?:\s+|$)|(?:^|\s+)[\-_—–=~.·]+$")


def past_fill_in_marks(text: str, span: Span) -> Span | None:
    """A word-valued ``span`` without the tokens of fill-in marks at its edges; None when
    nothing else is left (a row of dashes a name rule read across a table)."""
    if span.type not in _NAME_TYPES:
        return span
    start, end = span.start, span.end
    while start < end:
        m = _FILL_IN_EDGE.search(text[start:end])
        if m is None:
            break
        if m.start() == 0:
            start += m.end()
        else:
            end = start + m.start()
    if end <= start:
        return None
    return span if (start, end) == (span.start, span.end) else \
        span.with_(start=start, end=end, text=text[start:end])


def address_past_firm(text: str, spans: list[Span]) -> list[Span]:
    """An ADDRESS opening with an organisation's name and its comma starts after them: a
    company's footer names it before its registered office ("Regd. office: WS Retail
    Services Private Limited, Ozone Manay Tech Park, ..."); the name is the organisation's
    value, the rest the address."""
    firms = [s for s in spans if s.type == "ORGANIZATION"]
    out = []
    for sp in spans:
        if sp.type == "ADDRESS":
            for f in firms:
                rest = text[f.end:sp.end]
                if f.start == sp.start and f.end < sp.end and rest.startswith(","):
                    start = f.end + len(rest) - len(rest[1:].lstrip())
                    sp = sp.with_(start=start, text=text[start:sp.end])
                    break
        out.append(sp)
    return out
