"""Properties every correct evaluator has (hypothesis): gold fed back as predictions is
perfect at every tau; the order of predictions does not matter when no IoU ties; an extra
prediction never makes a page leak."""
from __future__ import annotations

import itertools

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from redactor_eval.api import evaluate
from redactor_eval.dataset import GoldBox, GoldPage
from redactor_eval.matching import iou_matrix
from redactor_eval.predictions import PagePrediction, Prediction

import numpy as np

TYPES = ["PERSON", "PHONE", "ACCOUNT_NUMBER", "DATE", "SIGNATURE"]
W, H = 60, 40
TAUS = ("0.5", "0.75", "0.95")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def boxes(draw, scale=1):
    x0 = draw(st.integers(0, W * scale - 2))
    y0 = draw(st.integers(0, H * scale - 2))
    x1 = draw(st.integers(x0 + 1, min(W * scale, x0 + 20 * scale)))
    y1 = draw(st.integers(y0 + 1, min(H * scale, y0 + 12 * scale)))
    return tuple(v / scale for v in (x0, y0, x1, y1))


@st.composite
def gold_pages(draw, scale=1):
    n = draw(st.integers(1, 5))
    pages = []
    for i in range(n):
        golds = draw(st.lists(st.tuples(boxes(scale), st.sampled_from(TYPES)), max_size=6))
        pages.append(GoldPage(f"p{i}", W, H, tuple(GoldBox(b, t) for b, t in golds)))
    return pages


@st.composite
def predictions_for(draw, pages, scale=1):
    out = []
    for page in pages:
        preds = [Prediction(b, t) for b, t in
                 draw(st.lists(st.tuples(boxes(scale), st.sampled_from(TYPES + ["BOGUS"])), max_size=6))]
        for g in page.annotations:
            if draw(st.booleans()):
                dx = draw(st.integers(-2, 2)) / scale
                x0, y0, x1, y1 = g.bbox
                preds.append(Prediction((x0, y0, min(W, max(x0 + 0.5, x1 + dx)), y1), g.type))
        error = "crash" if draw(st.integers(0, 9)) == 0 else None
        out.append(PagePrediction(page.page_id, tuple(preds), error=error))
    return out


@SETTINGS
@given(gold_pages())
def test_eval_gold_fed_back_is_perfect_at_every_tau(pages):
    preds = [PagePrediction(p.page_id, tuple(Prediction(a.bbox, a.type) for a in p.annotations))
             for p in pages]
    got = evaluate(pages, preds).to_json()
    for key in TAUS:
        h = got["per_tau"][key]
        assert h["f1_loc"] == 1.0 and h["valid"] == 1.0
        assert h["docleak_all"] in (0.0, None) and h["docleak_crit"] in (0.0, None)
        assert h["f1_type"] in (1.0, None)
    assert got["attribution"]["missed_critical"] == 0


def _no_ties(pages, preds) -> bool:
    for page, pp in zip(pages, preds):
        gold = np.array([a.bbox for a in page.annotations], dtype=float).reshape(-1, 4)
        box = np.array([p.bbox for p in pp.predictions], dtype=float).reshape(-1, 4)
        values = iou_matrix(gold, box).ravel()
        values = values[values > 0]
        if len(np.unique(values)) != len(values):
            return False
    return True


@SETTINGS
@given(st.data())
def test_eval_shuffling_predictions_without_ties_changes_nothing(data):
    pages = data.draw(gold_pages(scale=7))
    preds = data.draw(predictions_for(pages, scale=7))
    assume(_no_ties(pages, preds))
    shuffled = [PagePrediction(p.page_id, tuple(data.draw(st.permutations(p.predictions))), p.error)
                for p in preds]
    a = evaluate(pages, preds).to_json()
    b = evaluate(pages, shuffled).to_json()
    assert a == b


@SETTINGS
@given(st.data())
def test_eval_adding_a_prediction_never_raises_docleak(data):
    pages = data.draw(gold_pages())
    preds = data.draw(predictions_for(pages))
    target = data.draw(st.integers(0, len(pages) - 1))
    extra = Prediction(data.draw(boxes()), data.draw(st.sampled_from(TYPES + ["BOGUS"])))
    if data.draw(st.booleans()) and pages[target].annotations:   # a copy of a gold, sometimes
        g = data.draw(st.sampled_from(pages[target].annotations))
        extra = Prediction(g.bbox, g.type)
    old = preds[target].predictions
    at = data.draw(st.integers(0, len(old)))
    more = list(preds)
    more[target] = PagePrediction(preds[target].page_id, old[:at] + (extra,) + old[at:],
                                  preds[target].error)
    before = evaluate(pages, preds).to_json()
    after = evaluate(pages, more).to_json()
    for key, metric in itertools.product(TAUS, ("docleak_all", "docleak_crit")):
        if before["per_tau"][key][metric] is not None:
            assert after["per_tau"][key][metric] <= before["per_tau"][key][metric]
    for group, g in before["per_group"].items():
        if g["docleak"] is not None:
            assert after["per_group"][group]["docleak"] <= g["docleak"]
