"""Growing critical spans over the unsure words beside them.

On a bad scan OCR reads part of an identifier and garbles the rest: "+1 372 OLE aS 1G" for
"+1 372 611 4316", "Heather Thorsan" where only "Heather" is tagged. A detector finds the
part it can read; the garbled rest, right beside it on the same line and read with low
confidence, is most likely the same value misread. Leaving it visible leaves the value
readable to a person, who reads the scan better than the OCR did, so a critical span takes
in the adjacent words OCR was unsure of. Confident words are never taken: a word read well
is what it says, and the detectors have judged it.
"""
from __future__ import annotations

from typing import Sequence

from redactor.model import OcrPage, Span
from redactor.taxonomy import is_critical

UNSURE_CONF = 50.0     # OCR confidence (0-100) below which a word is unsure
MAX_GAP = 1.0          # neighbours farther than this many text heights are another field
MAX_WORDS = 3          # at most this many unsure words taken on each side


def _next_to(page: OcrPage, a: int, b: int) -> bool:
    """Whether word b sits right beside word a on the same line."""
    wa, wb = page.words[a], page.words[b]
    if wa.line != wb.line or wa.block != wb.block:
        return False
    h = max(wa.bbox[3] - wa.bbox[1], wb.bbox[3] - wb.bbox[1])
    gap = max(wb.bbox[0] - wa.bbox[2], wa.bbox[0] - wb.bbox[2])
    return gap <= MAX_GAP * h


def _unsure(page: OcrPage, i: int, taken: set[int]) -> bool:
    """An unsure word that may continue a value: not another span's (that value is hidden
    already and has its own box) and not a label ("Fax:")."""
    w = page.words[i]
    alnum = sum(c.isalnum() for c in w.text)
    # mostly letters or digits: a misread value, not specks read as "_—«" (which end the
    # run: what lies beyond noise is not known to continue the value)
    return 0 <= w.conf < UNSURE_CONF and alnum >= 2 and 2 * alnum >= len(w.text) and \
        i not in taken and not w.text.endswith(":")


def _word_at(page: OcrPage, char: int) -> int | None:
    for i, (s, e) in enumerate(page.offsets):
        if s <= char < e:
            return i
    return None


def grow_over_unsure_words(page: OcrPage, spans: Sequence[Span]) -> list[Span]:
    """``spans`` with every critical span grown over the unsure words beside it (at most
    MAX_WORDS each side, same line, no wider gap than MAX_GAP text heights)."""
    if not page.words:
        return list(spans)
    taken_by: dict[int, set[int]] = {}
    for k, sp in enumerate(spans):
        lo, hi = _word_at(page, sp.start), _word_at(page, max(sp.start, sp.end - 1))
        for i in range(lo if lo is not None else 0, (hi + 1) if hi is not None else 0):
            taken_by.setdefault(i, set()).add(k)
    out = []
    for k, sp in enumerate(spans):
        taken = {i for i, owners in taken_by.items() if owners - {k}}
        if not is_critical(sp.type):
            out.append(sp)
            continue
        first, last = _word_at(page, sp.start), _word_at(page, max(sp.start, sp.end - 1))
        if first is None or last is None:
            out.append(sp)
            continue
        lo, hi = first, last
        for _ in range(MAX_WORDS):
            if lo > 0 and _unsure(page, lo - 1, taken) and _next_to(page, lo, lo - 1):
                lo -= 1
            else:
                break
        for _ in range(MAX_WORDS):
            if hi + 1 < len(page.words) and _unsure(page, hi + 1, taken) and _next_to(page, hi, hi + 1):
                hi += 1
            else:
                break
        if lo == first and hi == last:
            out.append(sp)
            continue
        start = min(sp.start, page.offsets[lo][0])
        end = max(sp.end, page.offsets[hi][1])
        out.append(sp.with_(start=start, end=end, text=page.text[start:end]))
    return out
