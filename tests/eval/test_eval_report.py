"""The report's pieces: heat-map binning (840 x 840, 14 x 14 blocks), worst-page order,
the overlay drawing, and the API's in-memory inputs (PageResult, OcrPage)."""
from __future__ import annotations

import numpy as np
from PIL import Image

from redactor_eval.api import evaluate
from redactor_eval.dataset import GoldBox, GoldPage
from redactor_eval.figures import heatmap_grids, page_overlay
from redactor_eval.predictions import PagePrediction, Prediction
from redactor_eval.report import format_table, worst_pages
from redactor.model import OcrPage, PageResult, Redaction, WordBox


def test_eval_heatmap_blocks_follow_the_840_px_resize():
    page = GoldPage("a", 1680, 840, (GoldBox((0, 0, 28, 14), "PHONE"),      # exactly block (0, 0)
                                     GoldBox((1652, 826, 1680, 840), "DATE")))
    grid_all, grid_crit = heatmap_grids([page, GoldPage("b", 100, 100)])
    assert grid_all.shape == (60, 60)
    assert grid_all[0, 0] == 0.5 and grid_all[59, 59] == 0.5 and grid_all.sum() == 1.0
    assert grid_crit[0, 0] == 0.5 and grid_crit.sum() == 0.5


def test_eval_worst_pages_put_missed_critical_first():
    pages = [GoldPage("few", 100, 100, (GoldBox((0, 0, 10, 10), "PERSON"),)),
             GoldPage("many", 100, 100,
                      tuple(GoldBox((0, 10 * i, 10, 10 * i + 5), "DATE") for i in range(5))),
             GoldPage("fine", 100, 100, (GoldBox((0, 0, 10, 10), "PERSON"),))]
    preds = [PagePrediction("fine", (Prediction((0, 0, 10, 10), "PERSON"),))]
    result = evaluate(pages, preds)
    assert [d.page_id for d in worst_pages(result)] == ["few", "many"]
    assert "DocLeak_all" in format_table(result)


def test_eval_overlay_draws_gold_predictions_and_words(tmp_path):
    Image.new("RGB", (300, 120), "white").save(tmp_path / "p.png")
    page = GoldPage("p", 300, 120, (GoldBox((20, 20, 140, 50), "PHONE", "555 0100"),
                                    GoldBox((20, 70, 140, 100), "PERSON", "Ann Lee")),
                    image=tmp_path / "p.png")
    result = PageResult("p", [Redaction((20, 20, 140, 50), "PHONE"), Redaction((20, 70, 60, 100), "PERSON")])
    ocr = OcrPage(300, 120, (WordBox("555", (20, 20, 70, 50)), WordBox("0100", (80, 20, 140, 50))), "fake")
    evaluated = evaluate([page], [PagePrediction.from_page_result(result, "unit")], ocr_words={"p": ocr})
    detail = evaluated.pages[0]
    assert detail.causes == {1: "ocr_miss"} and evaluated.system == "unit"
    page_overlay(detail, tmp_path / "o.png")
    pixels = np.asarray(Image.open(tmp_path / "o.png").convert("RGB")).reshape(-1, 3).astype(int)

    def has(colour):
        return bool((np.abs(pixels - colour).sum(axis=1) < 60).any())
    assert has((0x1a, 0x98, 0x50)) and has((0x21, 0x66, 0xac))      # gold green, matched blue
    assert has((0xf4, 0x6d, 0x43)) and has((0xb2, 0x18, 0x2b))      # sub-threshold, leak label
