"""``evaluate``: gold pages, predictions and optionally OCR words in, an ``EvalResult`` out.

The one entry point the CLI, reports, benchmarks and tests share.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Iterable, Mapping, Sequence

from redactor import taxonomy
from redactor.errors import InputError
from redactor.model import OcrPage, WordBox
from redactor_eval import attribution, ink as ink_measures
from redactor_eval.coverage import restrict, type_coverage
from redactor_eval.dataset import GoldPage, check_unique_ids
from redactor_eval.metrics import (MISSING_PAGE, docleak, headline, match_page, missed_critical,
                          per_group, per_type, prepare_page)
from redactor_eval.predictions import PagePrediction
from redactor_eval.result import TAU_KEYS, EvalResult, PageDetail

DEFAULT_TAU = 0.75


def _index_predictions(predictions, page_ids: set[str]) -> dict[str, PagePrediction]:
    if isinstance(predictions, Mapping):
        items = list(predictions.values())
    else:
        items = list(predictions)
    out: dict[str, PagePrediction] = {}
    for p in items:
        if p.page_id in out:
            raise InputError(f"predictions for page {p.page_id!r} are given twice")
        out[p.page_id] = p
    unknown = sorted(set(out) - page_ids)
    if unknown:
        more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
        raise InputError(f"predictions for pages not in the dataset: "
                         f"{', '.join(map(repr, unknown[:3]))}{more}")
    return out


def _index_words(ocr_words, page_ids: set[str]) -> dict[str, tuple[WordBox, ...]]:
    out = {pid: tuple(v.words if isinstance(v, OcrPage) else v) for pid, v in ocr_words.items()}
    unknown = sorted(set(out) - page_ids)
    if unknown:
        raise InputError(f"OCR words for pages not in the dataset: "
                         f"{', '.join(map(repr, unknown[:3]))}")
    return out


def check_tau(tau: float) -> float:
    if not (isinstance(tau, (int, float)) and math.isfinite(tau) and 0 < tau <= 1):
        raise InputError(f"tau must be in (0, 1], got {tau!r}")
    return float(tau)


def _counts(prepared) -> dict:
    reasons = Counter(r for pp in prepared for r in pp.invalid_reasons if r is not None)
    return {"pages": len(prepared),
            "pages_with_gold": sum(pp.n_gold > 0 for pp in prepared),
            "pages_with_critical": sum(bool(pp.gold_critical.any()) for pp in prepared),
            "gold": sum(pp.n_gold for pp in prepared),
            "critical_gold": sum(int(pp.gold_critical.sum()) for pp in prepared),
            "predictions": sum(pp.n_pred for pp in prepared),
            "invalid_predictions": sum(reasons.values()),
            "invalid_by_reason": dict(sorted(reasons.items())),
            "error_pages": sum(pp.error is not None for pp in prepared),
            "missing_pages": sum(pp.error == MISSING_PAGE for pp in prepared)}


def _ink(prepared) -> tuple[dict, list[tuple[bool, ...]]]:
    rows, covered = [], []
    for pp in prepared:
        page = pp.page
        if page.image is None:
            raise InputError(f"page {page.page_id!r} has no image; ink measures need the images")
        gray = ink_measures.load_gray(page.image, page.width, page.height)
        valid_boxes = pp.pred_boxes[pp.pred_valid].tolist()
        pi = ink_measures.page_ink(gray, pp.gold_boxes.tolist(), pp.gold_critical.tolist(),
                                   valid_boxes)
        rows.append((pi, pp.gold_critical))
        covered.append(pi.covered)
    return ink_measures.summarise(rows), covered


def _restricted(pages: list[GoldPage], preds: dict, tau: float, emits: frozenset[str]) -> dict:
    prepared = [prepare_page(p, preds.get(p.page_id)) for p in restrict(pages, emits)]
    matches = [match_page(pp, tau) for pp in prepared]
    leak_all = docleak(prepared, matches)
    leak_crit = docleak(prepared, matches, lambda pp: pp.gold_critical)
    return {"emits": sorted(emits),
            "docleak_all": leak_all[0] / leak_all[1] if leak_all[1] else None,
            "docleak_crit": leak_crit[0] / leak_crit[1] if leak_crit[1] else None,
            "per_group": per_group(prepared, matches)}


def evaluate(gold_pages: Iterable[GoldPage],
             predictions: Mapping[str, PagePrediction] | Iterable[PagePrediction],
             tau: float = DEFAULT_TAU,
             ocr_words: Mapping[str, Sequence[WordBox] | OcrPage] | None = None,
             ink: bool = False,
             emits: Iterable[str] | None = None) -> EvalResult:
    """Score predictions against gold as the contract defines it.

    A page without a prediction line counts as an error page. ``ocr_words`` (page id ->
    words the pipeline saw) switches failure attribution to the OCR causes; pages missing
    from it are taken to have had no words. ``ink`` loads every page image for the pixel
    measures. ``emits`` (fine types or group names) adds type coverage and restricted
    leakage."""
    tau = check_tau(tau)
    pages = list(gold_pages)
    if not pages:
        raise InputError("the dataset has no pages")
    check_unique_ids(pages)
    page_ids = {p.page_id for p in pages}
    preds = _index_predictions(predictions, page_ids)
    words = _index_words(ocr_words, page_ids) if ocr_words is not None else None

    prepared = [prepare_page(p, preds.get(p.page_id)) for p in pages]
    by_tau = {t: [match_page(pp, t) for pp in prepared]
              for t in sorted({0.5, 0.75, 0.95, tau})}
    main = by_tau[tau]

    with_ocr = words is not None
    details, critical_causes, recover_rows = [], [], []
    for pp, m in zip(prepared, main):
        page_words = words.get(pp.page.page_id, ()) if with_ocr else None
        causes, flags = attribution.page_causes(pp, m, page_words)
        critical_causes += [c for g, c in sorted(causes.items()) if pp.gold_critical[g]]
        if with_ocr:
            recover_rows += [(flags[g], bool(pp.gold_critical[g]), g in causes)
                             for g in range(pp.n_gold)]
        details.append(PageDetail(prepared=pp, matches=m, causes=causes, words=page_words))

    ink_summary = None
    if ink:
        ink_summary, covered = _ink(prepared)
        details = [PageDetail(d.prepared, d.matches, d.causes, d.words, c)
                   for d, c in zip(details, covered)]

    coverage = None
    if emits is not None:
        emit_set = taxonomy.parse_types(emits)
        coverage = {"type_coverage": type_coverage(pages, emit_set),
                    "restricted": _restricted(pages, preds, tau, emit_set)}

    systems = sorted({p.system for p in preds.values() if p.system})
    return EvalResult(
        tau=tau, system=", ".join(systems), counts=_counts(prepared),
        headline=headline(prepared, main),
        per_tau={k: headline(prepared, by_tau[float(k)]) for k in TAU_KEYS},
        per_group=per_group(prepared, main),
        per_type={"0.5": per_type(prepared, by_tau[0.5]), str(tau): per_type(prepared, main)},
        missed_crit=missed_critical(prepared, main),
        attribution=attribution.summarise(critical_causes, with_ocr),
        ocr_recoverability=attribution.recoverability(recover_rows) if with_ocr else None,
        ink=ink_summary, coverage=coverage, pages=details)
