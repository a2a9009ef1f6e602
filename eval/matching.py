"""Greedy one-to-one IoU matching of one page's gold boxes and predicted boxes.

The contract's exact choices: a pair is eligible when IoU >= tau - 1e-9; eligible pairs are
taken from the highest IoU down, ties broken by gold index and then prediction index (file
order); each gold and each prediction is used at most once. Greedy, not maximum matching.
"""
from __future__ import annotations

import numpy as np

# Slack on every threshold comparison, so that an IoU that is mathematically equal to tau
# but lands one ulp below it in floating point still matches.
EPS = 1e-9


def as_boxes(boxes) -> np.ndarray:
    """An (n, 4) float64 array of [x0, y0, x1, y1] rows (n may be 0)."""
    arr = np.asarray(boxes, dtype=np.float64)
    return arr.reshape(-1, 4)


def intersection_areas(gold: np.ndarray, pred: np.ndarray) -> np.ndarray:
    """(G, P) areas of the pairwise intersections (0 when disjoint)."""
    w = np.minimum(gold[:, None, 2], pred[None, :, 2]) - np.maximum(gold[:, None, 0], pred[None, :, 0])
    h = np.minimum(gold[:, None, 3], pred[None, :, 3]) - np.maximum(gold[:, None, 1], pred[None, :, 1])
    return np.clip(w, 0.0, None) * np.clip(h, 0.0, None)


def areas(boxes: np.ndarray) -> np.ndarray:
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def iou_matrix(gold: np.ndarray, pred: np.ndarray, inter: np.ndarray | None = None) -> np.ndarray:
    """(G, P) IoU of every gold with every prediction. Boxes must have positive area
    (callers mask malformed predictions out before matching)."""
    if inter is None:
        inter = intersection_areas(gold, pred)
    union = areas(gold)[:, None] + areas(pred)[None, :] - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        iou = inter / union
    return np.where(union > 0, iou, 0.0)


def greedy_match(iou: np.ndarray, eligible: np.ndarray, tau: float) -> np.ndarray:
    """Match greedily; returns for each gold the index of its prediction or -1.

    ``eligible`` is a (G, P) boolean mask of pairs allowed to match at all (valid
    prediction; equal type for typed matching)."""
    n_gold = iou.shape[0]
    match = np.full(n_gold, -1, dtype=np.int64)
    if iou.size == 0:
        return match
    gi, pi = np.nonzero(eligible & (iou >= tau - EPS))
    if gi.size == 0:
        return match
    order = np.lexsort((pi, gi, -iou[gi, pi]))
    taken = [-1] * n_gold
    pred_used: set[int] = set()
    remaining = n_gold
    for g, p in zip(gi[order].tolist(), pi[order].tolist()):
        if taken[g] < 0 and p not in pred_used:
            taken[g] = p
            pred_used.add(p)
            remaining -= 1
            if remaining == 0:
                break
    match[:] = taken
    return match


def owner_of_predictions(match: np.ndarray, n_pred: int) -> np.ndarray:
    """Inverse of a gold->prediction match: for each prediction its gold or -1."""
    owner = np.full(n_pred, -1, dtype=np.int64)
    hit = match >= 0
    owner[match[hit]] = np.nonzero(hit)[0]
    return owner
