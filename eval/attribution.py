"""Why a gold identifier leaked: the first cause that applies, in the contract's order.

With the OCR words a pipeline saw: ``ocr_miss`` (the normalised value is not in the
normalised text of the words lying >= 50 % inside the gold box), ``detector_miss`` (no valid
prediction intersects the gold), ``conflict`` (a same-type prediction with IoU >= tau was
taken by another gold), ``type_mismatch`` (a prediction of another type has IoU >= tau),
``box_alignment`` (the rest: overlap below tau).

Without OCR words (OCR-free systems) ``ocr_miss`` cannot be judged; the first cause is then
``interface_failure`` (the page is invalid: error or missing), and the later ones are the
same. Their two-way split (interface failures vs sub-threshold boxes on valid pages) is the
paper's Table 5.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from redactor.model import WordBox
from redactor_eval.matching import EPS, as_boxes, intersection_areas
from redactor_eval.metrics import PageMatches, PreparedPage

OCR_CAUSES = ("ocr_miss", "detector_miss", "conflict", "type_mismatch", "box_alignment")
OCR_FREE_CAUSES = ("interface_failure", "detector_miss", "conflict", "type_mismatch",
                   "box_alignment")

# Share of a word's area that must lie inside a gold box for the word to count as read there.
WORD_INSIDE = 0.5


def normalise(text: str) -> str:
    """Lower-case, alphanumerics only (Unicode letters and digits)."""
    return "".join(c for c in text.lower() if c.isalnum())


def words_inside(gold_boxes: np.ndarray, words: Sequence[WordBox]) -> np.ndarray:
    """(G, W) mask: word w lies >= 50 % (by its area) inside gold g. Words of zero area
    lie nowhere."""
    boxes = as_boxes([w.bbox for w in words])
    inter = intersection_areas(gold_boxes, boxes)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = inter / area[None, :]
    return (area[None, :] > 0) & (ratio >= WORD_INSIDE - EPS)


def recoverable_flags(pp: PreparedPage, words: Sequence[WordBox]) -> list[bool | None]:
    """For each gold: is its normalised value contained in the normalised text of the OCR
    words inside its box? None when the gold has no value."""
    inside = words_inside(pp.gold_boxes, words)
    texts = [normalise(w.text) for w in words]
    out: list[bool | None] = []
    for g, gold in enumerate(pp.page.annotations):
        if gold.value is None:
            out.append(None)
            continue
        seen = "".join(t for t, ok in zip(texts, inside[g]) if ok)
        out.append(normalise(gold.value) in seen)
    return out


def cause_of_miss(pp: PreparedPage, m: PageMatches, g: int,
                  recoverable: bool | None, with_ocr: bool) -> str:
    """The first cause that applies to the unmatched gold ``g`` (typed matching at m.tau)."""
    if with_ocr:
        if recoverable is False:
            return "ocr_miss"
    elif pp.error is not None:
        return "interface_failure"
    if not (pp.inter[g] > 0).any():
        return "detector_miss"
    close = pp.pred_valid & (pp.iou[g] >= m.tau - EPS)
    same = pp.pred_types == pp.gold_types[g]
    if (close & same).any():
        # a free same-type prediction at IoU >= tau would have been matched by greedy, so any
        # such prediction belongs to another gold
        return "conflict"
    if (close & ~same).any():
        return "type_mismatch"
    return "box_alignment"


def page_causes(pp: PreparedPage, m: PageMatches,
                words: Sequence[WordBox] | None) -> tuple[dict[int, str], list[bool | None]]:
    """Causes for every missed gold of the page (critical or not), and the per-gold OCR
    recoverability flags (empty without OCR words)."""
    with_ocr = words is not None
    flags = recoverable_flags(pp, words) if with_ocr else []
    causes = {}
    for g in np.nonzero(m.typed < 0)[0].tolist():
        causes[g] = cause_of_miss(pp, m, g, flags[g] if with_ocr else None, with_ocr)
    return causes, flags


def summarise(critical_causes: list[str], with_ocr: bool) -> dict:
    """Counts and shares of the causes of missed critical golds."""
    names = OCR_CAUSES if with_ocr else OCR_FREE_CAUSES
    counts = Counter(critical_causes)
    total = len(critical_causes)
    out = {"mode": "ocr" if with_ocr else "ocr_free", "missed_critical": total,
           "counts": {c: counts.get(c, 0) for c in names},
           "shares": {c: (counts.get(c, 0) / total if total else None) for c in names}}
    if not with_ocr:
        interface = counts.get("interface_failure", 0)
        out["split"] = {"interface_failure": interface, "sub_threshold": total - interface}
    return out


def recoverability(flags_and_critical: list[tuple[bool | None, bool, bool]]) -> dict:
    """OCR recoverability of critical golds (Table 15): over critical golds with a value,
    how many the OCR text inside their box does not contain. Input rows are
    (recoverable flag, is critical, was missed)."""
    rows = [(ok, missed) for ok, critical, missed in flags_and_critical
            if critical and ok is not None]
    lost = sum(1 for ok, _ in rows if not ok)
    return {"critical_with_value": len(rows), "not_in_ocr": lost,
            "share_not_in_ocr": lost / len(rows) if rows else None,
            "missed_and_not_in_ocr": sum(1 for ok, missed in rows if not ok and missed)}
