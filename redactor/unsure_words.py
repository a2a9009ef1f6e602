"""Growing critical spans over the unsure words beside them.

On a bad scan OCR reads part of an identifier and garbles the rest: "+1 372 OLE aS 1G" for
"+1 372 611 4316", "Heather Thorsan" where only "Heather" is tagged. A detector finds the
part it can read; the garbled rest, right beside it on the same line and read with low
confidence, is most likely the same value misread. Leaving it visible leaves the value
readable to a person, who reads the scan better than the OCR did, so a critical span takes
in the words OCR was unsure of that follow it on its line and can be the rest of such a
value; before it, only words that cannot be its label: labels ("Fax", "Acct") stand there,
and bold or small print often makes them unsure too. Confident words are never taken: a word read well is
what it says, and the detectors have judged it.
"""
from __future__ import annotations

import re
from typing import Sequence

from redactor.aligner import words_in_span
from redactor.form_vocabulary import is_address_caption
from redactor.model import UNSURE_CONF, OcrPage, Span
from redactor.page_view import page_view
from redactor.taxonomy import is_critical

MAX_GAP = 1.0          # neighbours farther than this many text heights are another field ...
MAX_OWN_GAP = 2.0      # ... unless the value's own words lie as far apart (up to this)
MAX_WORDS = 3          # at most this many unsure words taken on each side


def _next_to(page: OcrPage, a: int, b: int, spacing: float = 0.0) -> bool:
    """Whether word b sits right beside word a on the same line: at most MAX_GAP text
    heights apart, or as far as the value's own words are (``spacing``, px)."""
    wa, wb = page.words[a], page.words[b]
    if not page_view(page).same_line(a, b):
        return False
    h = max(wa.bbox[3] - wa.bbox[1], wb.bbox[3] - wb.bbox[1])
    gap = max(wb.bbox[0] - wa.bbox[2], wa.bbox[0] - wb.bbox[2])
    return gap <= max(MAX_GAP * h, min(spacing, MAX_OWN_GAP * h))


def _own_spacing(page: OcrPage, ids: Sequence[int]) -> float:
    """The widest gap between consecutive words of a value on one line (px): a typewriter
    face or a spaced-out number ("981   317   5947") sets its groups wider than MAX_GAP,
    and its misread last group lies as far off."""
    view = page_view(page)
    gaps = [page.words[b].bbox[0] - page.words[a].bbox[2] for a, b in zip(ids, ids[1:])
            if view.same_line(a, b)]
    return max(gaps, default=0.0)


def _unsure(page: OcrPage, i: int, taken: set[int]) -> bool:
    """An unsure word that may continue a value: not another span's (that value is hidden
    already and has its own box) and not a label ("Fax:")."""
    w = page.words[i]
    alnum = sum(c.isalnum() for c in w.text)
    # mostly letters or digits: a misread value, not specks read as "_—«" (which end the
    # run: what lies beyond noise is not known to continue the value)
    return 0 <= w.conf < UNSURE_CONF and alnum >= 2 and 2 * alnum >= len(w.text) and \
        i not in taken and not w.text.endswith(":")


def can_continue(span_type: str, text: str) -> bool:
    """Whether a garbled word can be the rest of a value of this type: a name goes on with
    a capitalised word, a number with a digit or a short run of misread ones ("OLE aS 1G")."""
    if span_type == "PERSON":
        return text[:1].isupper()
    if span_type in _FREE_FORM:
        return True
    return any(c.isdigit() for c in text) or len(text) <= 4


def can_begin(span_type: str, text: str) -> bool:
    """Whether a garbled word before a value can be its misread start rather than its label
    ("Fax", "ACCT", "Invoice" are often unsure too): a digit for numbers and addresses, a
    capitalised word (not a capitals-only label) for names, a digit or an address sign for
    e-mail and web addresses."""
    if span_type == "PERSON":
        title = _TITLE_END.search(text)
        return text[:1].isupper() and any(c.islower() for c in text[1:]) and \
            (title is None or title.group(1) in _GIVEN_NAME_ABBREVIATIONS)
    if span_type in ("EMAIL", "ONLINE_ID"):
        return any(c.isdigit() or c in "@./" for c in text)
    if span_type == "ADDRESS" and is_address_caption(text):
        return False    # the field's caption misread with a figure ("“4dress."), no house number
    return any(c.isdigit() for c in text)


_FREE_FORM = frozenset({"EMAIL", "ONLINE_ID", "ADDRESS"})
# A title before a name, however OCR read it ("Dr." as "Dx." or "De.", run into its caption:
# "Spesker_De."): a capital, one to three small letters and a full stop. Honorifics stay out
# of a name's box (they say nothing about who it is), so a name does not grow over one.
_TITLE_END = re.compile(r"(?:^|[_\-—–])([A-Z][a-z]{1,3})\.$")
# Initials before a name, however sure OCR was of them: a typed capital read as a symbol
# ("N. #. Kremer", "$.P, ZOLOT", "€. Mann") breaks the chain a detector follows, and the
# initials left out name the person as much as the surname does.
_INITIALS = re.compile(r"^(?:[A-Z#$€£&*@%][.,]){1,3}$")
# ... but for the given names old letters and lists abbreviate so ("Wm. Smith", "Chas. Lee")
_GIVEN_NAME_ABBREVIATIONS = frozenset({"Wm", "Chas", "Thos", "Geo", "Jas", "Jos", "Robt", "Edw",
                                       "Benj", "Saml", "Danl", "Jno", "Alex", "Fred"})


def grow_over_unsure_words(page: OcrPage, spans: Sequence[Span]) -> list[Span]:
    """``spans`` with every critical span grown over the unsure words beside it (at most
    MAX_WORDS each side, same line, no wider gap than MAX_GAP text heights)."""
    if not page.words:
        return list(spans)
    words_of = [words_in_span(page, sp.start, sp.end) for sp in spans]
    owners: dict[int, set[int]] = {}
    for k, ids in enumerate(words_of):
        for i in ids:
            owners.setdefault(i, set()).add(k)
    out = []
    for k, sp in enumerate(spans):
        if not is_critical(sp.type) or not words_of[k]:
            out.append(sp)
            continue
        taken = {i for i, ks in owners.items() if ks - {k}}
        first, last = words_of[k][0], words_of[k][-1]
        spacing = _own_spacing(page, words_of[k])
        hi = last
        for _ in range(MAX_WORDS):
            nxt = hi + 1
            if nxt < len(page.words) and _unsure(page, nxt, taken) and _next_to(page, hi, nxt, spacing) \
                    and can_continue(sp.type, page.words[nxt].text):
                hi = nxt
            else:
                break
        lo = first
        for _ in range(MAX_WORDS):
            prv = lo - 1
            if prv >= 0 and _next_to(page, lo, prv, spacing) and \
                    ((_unsure(page, prv, taken) and can_begin(sp.type, page.words[prv].text)) or
                     (sp.type == "PERSON" and prv not in taken and _INITIALS.match(page.words[prv].text))):
                lo = prv
            else:
                break
        if lo == first and hi == last:
            out.append(sp)
            continue
        start = min(sp.start, page.offsets[lo][0])
        end = max(sp.end, page.offsets[hi][1])
        out.append(sp.with_(start=start, end=end, text=page.text[start:end]))
    return out
