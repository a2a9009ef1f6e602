"""The contract's metrics: per-page matching at a threshold and the aggregates over a
dataset (F1_loc, F1_type, DocLeak_all/crit, Valid, per-group leakage, missed critical
identifiers on leaking pages).

A page is first *prepared* once (boxes as arrays, validity of every prediction, the IoU
matrix), then matched at any number of thresholds cheaply.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from redactor import taxonomy
from redactor_eval.dataset import GoldPage
from redactor_eval.matching import greedy_match, intersection_areas, iou_matrix
from redactor_eval.predictions import PagePrediction, Prediction

MISSING_PAGE = "page missing from the prediction file"


def _type_codes() -> dict[str, int]:
    return {t: i for i, t in enumerate(taxonomy.fine_types())}


@dataclass(frozen=True)
class PreparedPage:
    """One page's gold and predictions as arrays, ready to be matched at any tau."""
    page: GoldPage
    predictions: tuple[Prediction, ...]   # empty when the page is invalid (error)
    error: str | None
    gold_boxes: np.ndarray                # (G, 4)
    gold_types: np.ndarray                # (G,) codes into taxonomy.fine_types()
    gold_critical: np.ndarray             # (G,) bool
    gold_groups: np.ndarray               # (G,) codes into taxonomy.groups()
    pred_boxes: np.ndarray                # (P, 4); zeros where the box is malformed
    pred_types: np.ndarray                # (P,) codes, -1 for unknown types
    pred_valid: np.ndarray                # (P,) bool
    invalid_reasons: tuple[str | None, ...]
    inter: np.ndarray                     # (G, P) intersection areas (0 for invalid)
    iou: np.ndarray                       # (G, P) IoU (0 for invalid)

    @property
    def n_gold(self) -> int:
        return len(self.page.annotations)

    @property
    def n_pred(self) -> int:
        return len(self.predictions)

    @property
    def valid_pairs(self) -> np.ndarray:
        return np.broadcast_to(self.pred_valid[None, :], self.iou.shape)

    @property
    def same_type(self) -> np.ndarray:
        return self.gold_types[:, None] == self.pred_types[None, :]


def prepare_page(page: GoldPage, prediction: PagePrediction | None) -> PreparedPage:
    codes = _type_codes()
    if prediction is None:
        error, preds = MISSING_PAGE, ()
    elif prediction.error is not None:
        error, preds = prediction.error, ()
    else:
        error, preds = None, prediction.predictions
    reasons = tuple(p.invalid_reason(page.width, page.height) for p in preds)
    valid = np.array([r is None for r in reasons], dtype=bool)
    pred_boxes = np.array([p.bbox if p.bbox is not None else (0.0, 0.0, 0.0, 0.0) for p in preds],
                          dtype=np.float64).reshape(-1, 4)
    pred_types = np.array([codes.get(p.type, -1) for p in preds], dtype=np.int64)
    gold_boxes = np.array([a.bbox for a in page.annotations], dtype=np.float64).reshape(-1, 4)
    gold_types = np.array([codes[a.type] for a in page.annotations], dtype=np.int64)
    gold_critical = np.array([taxonomy.is_critical(a.type) for a in page.annotations], dtype=bool)
    group_codes = {g: i for i, g in enumerate(taxonomy.groups())}
    gold_groups = np.array([group_codes[taxonomy.group_of(a.type)] for a in page.annotations],
                           dtype=np.int64)
    inter = intersection_areas(gold_boxes, pred_boxes)
    iou = iou_matrix(gold_boxes, pred_boxes, inter)
    inter = np.where(valid[None, :], inter, 0.0)
    iou = np.where(valid[None, :], iou, 0.0)
    return PreparedPage(page=page, predictions=preds, error=error, gold_boxes=gold_boxes,
                        gold_types=gold_types, gold_critical=gold_critical,
                        gold_groups=gold_groups, pred_boxes=pred_boxes,
                        pred_types=pred_types, pred_valid=valid, invalid_reasons=reasons,
                        inter=inter, iou=iou)


@dataclass(frozen=True)
class PageMatches:
    """One page matched at one tau: for each gold its prediction index or -1."""
    tau: float
    loc: np.ndarray
    typed: np.ndarray


def match_page(pp: PreparedPage, tau: float) -> PageMatches:
    valid = pp.valid_pairs
    return PageMatches(tau=tau, loc=greedy_match(pp.iou, valid, tau),
                       typed=greedy_match(pp.iou, valid & pp.same_type, tau))


def f1(tp: int, fp: int, fn: int) -> float:
    """2TP / (2TP + FP + FN); nothing to find and nothing predicted scores 1."""
    denominator = 2 * tp + fp + fn
    return 1.0 if denominator == 0 else 2.0 * tp / denominator


def page_f1_loc(pp: PreparedPage, m: PageMatches) -> float:
    tp = int((m.loc >= 0).sum())
    return f1(tp, pp.n_pred - tp, pp.n_gold - tp)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _share(count: int, total: int) -> float | None:
    return count / total if total else None


@dataclass(frozen=True)
class Headline:
    """The six headline numbers at one tau (None where the denominator is empty)."""
    f1_loc: float | None
    f1_loc_gold_pages: float | None
    f1_type: float | None
    docleak_all: float | None
    docleak_crit: float | None
    valid: float | None

    def to_json(self) -> dict:
        return {"f1_loc": self.f1_loc, "f1_loc_gold_pages": self.f1_loc_gold_pages,
                "f1_type": self.f1_type, "docleak_all": self.docleak_all,
                "docleak_crit": self.docleak_crit, "valid": self.valid}


def f1_type(pages: list[PreparedPage], matches: list[PageMatches]) -> float | None:
    """Pool TP/FP/FN per type over the set, average per-type F1 over the gold types."""
    n_types = len(taxonomy.fine_types())
    tp = np.zeros(n_types, dtype=np.int64)
    gold_n = np.zeros(n_types, dtype=np.int64)
    pred_n = np.zeros(n_types, dtype=np.int64)
    for pp, m in zip(pages, matches):
        tp += np.bincount(pp.gold_types[m.typed >= 0], minlength=n_types)
        gold_n += np.bincount(pp.gold_types, minlength=n_types)
        pred_n += np.bincount(pp.pred_types[pp.pred_types >= 0], minlength=n_types)
    scores = [f1(int(tp[t]), int(pred_n[t] - tp[t]), int(gold_n[t] - tp[t]))
              for t in range(n_types) if gold_n[t] > 0]
    return _mean(scores)


def leaks(pp: PreparedPage, m: PageMatches, scope: np.ndarray | None = None) -> bool:
    """Whether at least one in-scope gold stays unmatched (typed matching)."""
    missed = m.typed < 0
    if scope is not None:
        missed = missed & scope
    return bool(missed.any())


def docleak(pages: list[PreparedPage], matches: list[PageMatches],
            scope_of=None) -> tuple[int, int]:
    """(leaking pages, pages with an in-scope gold); ``scope_of(pp)`` gives the gold mask."""
    total = leaking = 0
    for pp, m in zip(pages, matches):
        scope = scope_of(pp) if scope_of else np.ones(pp.n_gold, dtype=bool)
        if scope.any():
            total += 1
            leaking += leaks(pp, m, scope)
    return leaking, total


def headline(pages: list[PreparedPage], matches: list[PageMatches]) -> Headline:
    f1_all = [page_f1_loc(pp, m) for pp, m in zip(pages, matches)]
    f1_gold = [v for v, pp in zip(f1_all, pages) if pp.n_gold > 0]
    leak_all = docleak(pages, matches)
    leak_crit = docleak(pages, matches, lambda pp: pp.gold_critical)
    valid = sum(pp.error is None for pp in pages)
    return Headline(f1_loc=_mean(f1_all), f1_loc_gold_pages=_mean(f1_gold),
                    f1_type=f1_type(pages, matches), docleak_all=_share(*leak_all),
                    docleak_crit=_share(*leak_crit), valid=_share(valid, len(pages)))


def per_group(pages: list[PreparedPage], matches: list[PageMatches]) -> dict[str, dict]:
    """Page leakage per risk group: over pages with a gold of the group, the share with
    at least one such gold unmatched (typed)."""
    out = {}
    for code, group in enumerate(taxonomy.groups()):
        leaking, total = docleak(pages, matches, lambda pp: pp.gold_groups == code)
        out[group] = {"pages": total, "leaking": leaking, "docleak": _share(leaking, total)}
    return out


def missed_critical(pages: list[PreparedPage], matches: list[PageMatches]) -> dict:
    """On pages leaking a critical identifier: how many critical golds are missed (mean,
    median, P90 with numpy's linear interpolation) and which share of the page's critical
    golds that is (mean of the per-page shares)."""
    counts, shares = [], []
    for pp, m in zip(pages, matches):
        missed = int(((m.typed < 0) & pp.gold_critical).sum())
        if missed:
            counts.append(missed)
            shares.append(missed / int(pp.gold_critical.sum()))
    if not counts:
        return {"leaking_pages": 0, "mean": None, "median": None, "p90": None, "share": None}
    arr = np.array(counts, dtype=np.float64)
    return {"leaking_pages": len(counts), "mean": float(arr.mean()),
            "median": float(np.median(arr)), "p90": float(np.percentile(arr, 90)),
            "share": float(np.mean(shares))}


def per_type(pages: list[PreparedPage], matches: list[PageMatches]) -> dict[str, dict]:
    """Per gold type: how many golds, the share found by location (type ignored) and with
    the right type, and what the location match was typed as (the confusion row: gold type
    -> predicted type, ``none`` for a gold no prediction matched)."""
    names = taxonomy.fine_types()
    out: dict[str, dict] = {}
    for pp, m in zip(pages, matches):
        for g in range(pp.n_gold):
            row = out.setdefault(names[pp.gold_types[g]],
                                 {"gold": 0, "found": 0, "typed": 0, "confusion": {}})
            row["gold"] += 1
            row["typed"] += int(m.typed[g] >= 0)
            p = int(m.loc[g])
            if p >= 0:
                row["found"] += 1
                code = int(pp.pred_types[p])
                got = names[code] if code >= 0 else "unknown"
            else:
                got = "none"
            row["confusion"][got] = row["confusion"].get(got, 0) + 1
    for row in out.values():
        row["recall_loc"] = _share(row["found"], row["gold"])
        row["recall_typed"] = _share(row["typed"], row["gold"])
        row["confusion"] = dict(sorted(row["confusion"].items(), key=lambda kv: -kv[1]))
    return dict(sorted(out.items()))
