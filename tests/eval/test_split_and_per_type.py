"""Scoring one split of a dataset, and recall per gold type with its type confusion."""
from __future__ import annotations

import json

import pytest

from redactor_eval.api import evaluate
from redactor_eval.dataset import GoldBox, GoldPage, select_split
from redactor_eval.predictions import PagePrediction, Prediction
from redactor_eval.bench import per_type_markdown
from redactor.cli import main
from redactor.errors import InputError


def _page(pid, split=None, anns=()):
    return GoldPage(pid, 100, 100, tuple(anns), extra={"split": split} if split else {})


def test_select_split_keeps_one_split_and_refuses_nothing():
    pages = [_page("a", "dev"), _page("b", "heldout"), _page("c", "dev")]
    assert [p.page_id for p in select_split(pages, "dev")] == ["a", "c"]
    assert select_split(pages, None) == pages and select_split(pages, "all") == pages
    with pytest.raises(InputError, match="no page is in that split"):
        select_split(pages, "test")
    with pytest.raises(InputError, match="no 'split' field"):
        select_split([_page("a")], "dev")


def test_per_type_recall_and_confusion():
    gold = [GoldBox((10, 10, 50, 20), "ORGANIZATION"), GoldBox((10, 30, 50, 40), "PERSON"),
            GoldBox((10, 60, 50, 70), "PHONE")]
    page = _page("a", anns=gold)
    pred = PagePrediction("a", (Prediction((10, 10, 50, 20), "PERSON"),
                                Prediction((10, 30, 50, 40), "PERSON")), None, "s")
    rows = evaluate([page], [pred]).to_json()["per_type"]["0.5"]
    assert rows["ORGANIZATION"] == {"gold": 1, "found": 1, "typed": 0, "confusion": {"PERSON": 1},
                                    "recall_loc": 1.0, "recall_typed": 0.0}
    assert rows["PERSON"]["recall_typed"] == 1.0
    assert rows["PHONE"]["confusion"] == {"none": 1} and rows["PHONE"]["recall_loc"] == 0.0
    md = "\n".join(per_type_markdown([("sys", {"per_type": {"0.5": rows}})]))
    assert "| ORGANIZATION | 1 | 1.00 / 0.00 |" in md
    assert "| ORGANIZATION | PERSON 1 |" in md


def test_eval_cli_scores_one_split_of_a_whole_prediction_file(tmp_path, capsys):
    pages = [{"page_id": pid, "image": f"{pid}.png", "width": 100, "height": 100, "split": split,
              "annotations": [
        {"bbox": [10, 10, 50, 20], "type": "PERSON"}]} for pid, split in (("a", "dev"), ("b", "heldout"))]
    preds = [{"page_id": "a", "system": "s", "error": None,
              "predictions": [{"bbox": [10, 10, 50, 20], "type": "PERSON"}]},
             {"page_id": "b", "system": "s", "error": None, "predictions": []}]
    (tmp_path / "pages.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pages))
    (tmp_path / "preds.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))
    out = tmp_path / "out.json"
    args = ["eval", "--gold", str(tmp_path / "pages.jsonl"), "--pred", str(tmp_path / "preds.jsonl"),
            "--json", str(out)]
    assert main(args + ["--split", "dev"]) == 0
    assert json.loads(out.read_text())["docleak_all"] == 0.0
    assert main(args + ["--split", "heldout"]) == 0
    assert json.loads(out.read_text())["docleak_all"] == 1.0
    assert main(args + ["--split", "test"]) == 2
    assert "no page is in that split" in capsys.readouterr().err
