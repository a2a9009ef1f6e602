"""The definitions a government form quotes from its statute are the form's own print.

A form prints the law's definition of its terms on every copy ("Footnote: "Political
activity," as defined in Section 1(o) of the Act, means any activity which ... influence
any agency or official of the Government of the United States or any section of the public
within the United States ..." on every FARA registration's signature page). The country and
the state's government named there are the law's words, not data about anyone who filed:
every place and organisation detector finds them, and no annotator boxes them. So a
LOCATION or ORGANIZATION span inside such a sentence is dropped: the sentence that says its
term is "as defined in" a section (or article, rule, paragraph) of an act and what it
"means", or that a footnote prints. A question that uses the term ("Do your services
include political activity as defined in Section 1(o) of the Act?") is the form's question,
and its answer may follow. A person or an identifier there is kept (a definition names
none; what a detector found there is left to its own evidence).

Pure functions on the page text."""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import Sequence

from redactor.model import Span

# "as defined in Section 1(o) of the Act", "as defined in § 611", "as defined in Article 4"
_DEFINED = re.compile(r"\bas\s+defined\s+(?:in|by|under)\s+(?:Section|section|SECTION|Sec\.|sec\.|§|Article|"
                      r"article|Rule|rule|Paragraph|paragraph|the\s+Act|the\s+act)")
# A sentence ends after a word of three or more small letters and its stop, before a capital
# or the text's end ("... a foreign political party.\nReceived by"): the stops of "U.S." and
# "1(o)" end nothing.
_SENTENCE_END = re.compile(r"[a-z]{3,}[.!?][\"”’)]?(?=\s+[A-Z\"“(]|\s*$)")
# ... and that goes on to say what it means ("..., means any activity which ...")
_MEANS = re.compile(r"\b(?:means|shall\s+mean|includes|shall\s+include)\b")
MEANS_WITHIN = 120        # characters after the section's reference
# ... or that a footnote prints (OCR may garble its "means")
_FOOTNOTE = re.compile(r"\b(?:Footnote|FOOTNOTE|footnote)\b")
FOOTNOTE_WITHIN = 80
# The sentence opens at most one line before the line of "as defined" (its term may wrap)
# and runs at most this many lines after it: OCR may lose a stop, and a page's text is longer
LINES_BEFORE, LINES_AFTER = 1, 6
DEFINITION_TYPES = frozenset({"LOCATION", "ORGANIZATION"})


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer(r"\n", text)]


def definition_sentences(text: str) -> list[tuple[int, int]]:
    """Character ranges of the sentences that quote a statute's definition."""
    out = []
    starts = _line_starts(text)
    for m in _DEFINED.finditer(text):
        if not (_MEANS.search(text, m.end(), m.end() + MEANS_WITHIN) or
                _FOOTNOTE.search(text, max(0, m.start() - FOOTNOTE_WITHIN), m.start())):
            continue      # a question that uses the term ("... political activity as defined in ...?")
        k = bisect_right(starts, m.start()) - 1
        lo = starts[max(0, k - LINES_BEFORE)]
        hi = starts[k + LINES_AFTER + 1] if k + LINES_AFTER + 1 < len(starts) else len(text)
        ends = [e.end() for e in _SENTENCE_END.finditer(text, lo, m.start())]
        end = _SENTENCE_END.search(text, m.end(), hi)
        out.append((ends[-1] if ends else lo, end.end() if end else hi))
    return out


def drop_in_printed_definitions(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` without the places and organisations inside a quoted statutory definition."""
    ranges = definition_sentences(text)
    if not ranges:
        return list(spans)
    return [s for s in spans if not (s.type in DEFINITION_TYPES and
                                     any(a <= s.start and s.end <= b for a, b in ranges))]
