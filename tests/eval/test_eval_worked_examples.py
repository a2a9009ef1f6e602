"""The worked examples of docs/evaluation.md, number for number."""
from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from redactor_eval.api import evaluate
from redactor_eval.dataset import page_from_json
from redactor_eval.predictions import page_prediction_from_json
from redactor.model import WordBox


def gold(page_id, annotations, width=100, height=100, image=None, base_dir=None):
    record = {"page_id": page_id, "width": width, "height": height,
              "annotations": [dict(bbox=b, type=t, **({"value": v} if v is not None else {}))
                              for b, t, v in annotations]}
    if image is not None:
        record["image"] = image
    return page_from_json(record, base_dir)


def pred(page_id, boxes, error=None):
    return page_prediction_from_json({"page_id": page_id, "error": error,
                                      "predictions": [{"bbox": b, "type": t} for b, t in boxes]})


def test_eval_example1_tie_goes_to_the_first_gold_and_typed_differs():
    page = gold("p", [([10, 10, 50, 20], "PHONE", None), ([10, 10, 50, 20], "PERSON", None)])
    result = evaluate([page], [pred("p", [([10, 10, 50, 20], "PERSON")])])
    d = result.pages[0]
    assert d.matches.loc.tolist() == [0, -1]       # untyped: tie, gold 0 wins
    assert d.matches.typed.tolist() == [-1, 0]     # typed: only the PERSON gold may take it
    assert result.f1_loc == pytest.approx(2 / 3)
    assert result.docleak_all == 1.0 and result.docleak_crit == 1.0
    assert result.f1_type == pytest.approx(0.5)


def test_eval_example1_swapping_golds_changes_only_the_untyped_winner():
    page = gold("p", [([10, 10, 50, 20], "PERSON", None), ([10, 10, 50, 20], "PHONE", None)])
    result = evaluate([page], [pred("p", [([10, 10, 50, 20], "PERSON")])])
    assert result.pages[0].matches.loc.tolist() == [0, -1]
    assert result.pages[0].matches.typed.tolist() == [0, -1]
    assert result.f1_type == pytest.approx(0.5) and result.docleak_all == 1.0


def test_eval_example1_identical_predictions_first_one_wins():
    page = gold("p", [([10, 10, 50, 20], "PERSON", None)])
    result = evaluate([page], [pred("p", [([10, 10, 50, 20], "PERSON"),
                                          ([10, 10, 50, 20], "PERSON")])])
    assert result.pages[0].matches.typed.tolist() == [0]
    assert result.f1_loc == pytest.approx(2 / 3)   # TP 1, FP 1


def test_eval_example2_greedy_conflict_is_not_maximum_matching():
    page = gold("p", [([10, 0, 20, 10], "PHONE", None), ([11, 0, 21, 10], "PHONE", None)],
                width=100, height=20)
    prediction = pred("p", [([10, 0, 20, 10], "PHONE"), ([10, 0, 16, 10], "PHONE")])
    result = evaluate([page], [prediction], tau=0.5)
    d = result.pages[0]
    assert d.prepared.iou[1, 0] == pytest.approx(9 / 11)
    assert d.prepared.iou[0, 1] == pytest.approx(0.6)
    assert d.matches.typed.tolist() == [0, -1]
    assert result.f1_loc == pytest.approx(0.5)
    assert result.docleak_all == 1.0
    assert d.causes == {1: "conflict"}


def test_eval_example3_invalid_predictions_are_false_positives_never_matched():
    page = gold("p", [([10, 10, 60, 20], "EMAIL", None)])
    prediction = pred("p", [([10, 10, 60, 20], "E-MAIL"), ([10, 10, 101, 20], "EMAIL"),
                            ([60, 10, 10, 20], "PHONE"), ([12, 10, 60, 20], "EMAIL")])
    result = evaluate([page], [prediction])
    d = result.pages[0]
    assert d.prepared.invalid_reasons == ("unknown type", "box out of bounds", "malformed box", None)
    assert d.matches.loc.tolist() == [3] and d.matches.typed.tolist() == [3]
    assert result.f1_loc == pytest.approx(0.4)
    assert result.f1_type == pytest.approx(2 / 3)
    assert result.docleak_all == 0.0
    assert result.counts["invalid_predictions"] == 3


def test_eval_example3_out_of_bounds_by_a_fraction_is_invalid_and_touching_the_edge_is_not():
    page = gold("p", [([10, 10, 60, 20], "EMAIL", None)])
    inside = evaluate([page], [pred("p", [([10, 10, 60, 100], "EMAIL")])])
    assert inside.counts["invalid_predictions"] == 0
    outside = evaluate([page], [pred("p", [([-0.01, 10, 60, 20], "EMAIL")])])
    assert outside.counts["invalid_predictions"] == 1 and outside.docleak_all == 1.0


def test_eval_example4_pages_without_gold():
    pages = [gold("A", []), gold("B", []), gold("C", [([10, 10, 50, 30], "DATE", None)])]
    preds = [pred("A", []), pred("B", [([0, 0, 5, 5], "DATE")]),
             pred("C", [([10, 10, 50, 30], "DATE")])]
    result = evaluate(pages, preds)
    assert result.f1_loc == pytest.approx(2 / 3)
    assert result.f1_loc_gold_pages == 1.0
    assert result.docleak_all == 0.0
    assert result.docleak_crit is None
    assert result.to_json()["docleak_crit"] is None


def test_eval_example5_invalid_and_missing_pages():
    person = [([10, 10, 50, 30], "PERSON", None)]
    pages = [gold("A", person + [([10, 40, 50, 60], "PERSON", None)]), gold("B", []),
             gold("C", person)]
    preds = [pred("A", [([10, 10, 50, 30], "PERSON")], error="timeout"),
             pred("C", [([10, 10, 50, 30], "PERSON")])]
    result = evaluate(pages, preds)
    assert result.valid == pytest.approx(1 / 3)
    assert result.f1_loc == pytest.approx(2 / 3)
    assert result.docleak_all == 0.5 and result.docleak_crit == 0.5
    assert result.pages[0].prepared.n_pred == 0     # the error page's prediction is ignored
    assert result.counts["error_pages"] == 2 and result.counts["missing_pages"] == 1


def example6_page(error=None):
    page = gold("p", [([10, 10, 110, 30], "PERSON", "Maria Lopez"),
                      ([10, 40, 110, 60], "PHONE", "555 0100"),
                      ([10, 70, 110, 90], "EMAIL", "a@b.co"),
                      ([10, 72, 110, 92], "EMAIL", None),
                      ([10, 100, 110, 120], "ACCOUNT_NUMBER", "12345678"),
                      ([10, 130, 110, 150], "CARD_NUMBER", "4111 1111")], width=200, height=200)
    prediction = pred("p", [([10, 10, 110, 30], "ORGANIZATION"), ([10, 70, 110, 90], "EMAIL"),
                            ([10, 100, 110, 120], "REFERENCE_NUMBER"),
                            ([10, 130, 60, 150], "CARD_NUMBER")], error=error)
    words = [WordBox("Mar1a", (10, 10, 55, 30)), WordBox("Lopez", (60, 10, 110, 30)),
             WordBox("555", (10, 40, 50, 60)), WordBox("0100", (55, 40, 110, 60)),
             WordBox("a@b.co", (10, 70, 110, 90)), WordBox("12345678", (10, 100, 110, 120)),
             WordBox("4111", (10, 130, 55, 150)), WordBox("1111", (60, 130, 110, 150))]
    return page, prediction, words


def test_eval_example6_attribution_order_with_ocr_words():
    page, prediction, words = example6_page()
    result = evaluate([page], [prediction], ocr_words={"p": words})
    assert result.pages[0].causes == {0: "ocr_miss", 1: "detector_miss", 3: "conflict",
                                      4: "type_mismatch", 5: "box_alignment"}
    a = result.attribution
    assert a["mode"] == "ocr" and a["missed_critical"] == 5
    assert a["counts"] == {"ocr_miss": 1, "detector_miss": 1, "conflict": 1,
                           "type_mismatch": 1, "box_alignment": 1}
    assert result.missed_crit["mean"] == 5 and result.missed_crit["share"] == pytest.approx(5 / 6)
    r = result.ocr_recoverability
    assert (r["critical_with_value"], r["not_in_ocr"], r["missed_and_not_in_ocr"]) == (5, 1, 1)


def test_eval_example6_attribution_without_ocr_words():
    page, prediction, _ = example6_page()
    a = evaluate([page], [prediction]).attribution
    assert a["mode"] == "ocr_free"
    assert a["counts"] == {"interface_failure": 0, "detector_miss": 1, "conflict": 1,
                           "type_mismatch": 2, "box_alignment": 1}
    assert a["split"] == {"interface_failure": 0, "sub_threshold": 5}


def test_eval_example6_invalid_page_is_an_interface_failure_without_ocr_words():
    page, prediction, _ = example6_page(error="unparseable output")
    a = evaluate([page], [prediction]).attribution
    assert a["counts"]["interface_failure"] == 6 and a["split"]["sub_threshold"] == 0


def test_eval_example6_missing_words_page_counts_as_no_words():
    page, prediction, _ = example6_page()
    a = evaluate([page], [prediction], ocr_words={}).attribution
    # every missed critical gold with a value is now an OCR miss; g3 has no value
    assert a["counts"]["ocr_miss"] == 4 and a["counts"]["conflict"] == 1


def ink_page(tmp_path, name, golds, bars, width=200, height=60):
    img = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(img)
    for x0, y0, x1, y1 in bars:
        draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=0)   # PIL's rectangle is inclusive
    img.save(tmp_path / f"{name}.png")
    return gold(name, golds, width=width, height=height, image=f"{name}.png", base_dir=tmp_path)


@pytest.mark.parametrize("box, covered", [([23, 20, 120, 40], False), ([21, 20, 120, 40], True),
                                          ([22.5, 20, 120, 40], True)])
def test_eval_example7_ink_coverage_97_vs_99_percent(tmp_path, box, covered):
    page = ink_page(tmp_path, "bar", [([20, 20, 120, 40], "PHONE", None)], [(20, 20, 120, 40)])
    result = evaluate([page], [pred("bar", [(box, "PHONE")])], ink=True)
    assert result.docleak_all == 0.0            # IoU >= 0.97: IoU sees no leak
    assert result.ink["docleak_ink_all"] == (0.0 if covered else 1.0)
    assert result.ink["docleak_ink_crit"] == (0.0 if covered else 1.0)
    hidden = {23: 1940, 21: 1980, 22.5: 1960}[box[0]]
    assert result.ink["ink_recall_crit"] == pytest.approx(hidden / 2000)
    assert result.pages[0].ink_covered == (covered,)


@pytest.mark.parametrize("box, covered", [([150, 20, 158.5, 30], True), ([151, 20, 159, 30], False)])
def test_eval_example7_few_ink_pixels_fall_back_to_area(tmp_path, box, covered):
    page = ink_page(tmp_path, "dots", [([150, 20, 160, 30], "PHONE", None)],
                    [(20, 20, 120, 40), (152, 22, 155, 23)])
    result = evaluate([page], [pred("dots", [(box, "PHONE")])], ink=True)
    assert result.ink["docleak_ink_all"] == (0.0 if covered else 1.0)


def test_eval_example7_single_grey_page_has_no_ink(tmp_path):
    page = ink_page(tmp_path, "blank", [([10, 10, 20, 20], "PHONE", None)], [])
    half = evaluate([page], [pred("blank", [([10, 10, 18, 20], "PHONE")])], ink=True)
    assert half.ink["docleak_ink_all"] == 1.0      # 80 % of the area: not covered
    assert half.ink["ink_recall_crit"] is None and half.ink["collateral"] is None


def test_eval_example7_collateral(tmp_path):
    page = ink_page(tmp_path, "line", [([20, 20, 120, 40], "PHONE", None)],
                    [(20, 20, 120, 40), (0, 50, 200, 60)])
    result = evaluate([page], [pred("line", [([20, 20, 120, 40], "PHONE"), ([0, 50, 50, 60], "DATE")])],
                      ink=True)
    assert result.ink["collateral"] == pytest.approx(0.25)
    assert result.ink["docleak_ink_all"] == 0.0


def test_eval_example7_invalid_boxes_and_error_pages_hide_nothing(tmp_path):
    page = ink_page(tmp_path, "bar", [([20, 20, 120, 40], "PHONE", None)], [(20, 20, 120, 40)])
    oob = evaluate([page], [pred("bar", [([20, 20, 201, 40], "PHONE")])], ink=True)
    assert oob.ink["docleak_ink_all"] == 1.0
    err = evaluate([page], [pred("bar", [([20, 20, 120, 40], "PHONE")], error="crash")], ink=True)
    assert err.ink["docleak_ink_all"] == 1.0 and err.ink["ink_recall_crit"] == 0.0


def test_eval_example2_equal_iou_ties_go_to_the_first_prediction():
    # (g0,p0) and (g0,p1) tie at 0.8; p0 comes first, so g1 (0.75 only with p0) is left out
    page = gold("p", [([0, 0, 10, 10], "PHONE", None), ([0, 0, 6, 10], "PHONE", None)])
    result = evaluate([page], [pred("p", [([0, 0, 8, 10], "PHONE"), ([2, 0, 10, 10], "PHONE")])],
                      tau=0.5)
    assert result.pages[0].matches.typed.tolist() == [0, -1]
    assert result.pages[0].causes == {1: "conflict"}
    swapped = evaluate([page], [pred("p", [([2, 0, 10, 10], "PHONE"), ([0, 0, 8, 10], "PHONE")])],
                       tau=0.5)
    assert swapped.pages[0].matches.typed.tolist() == [0, 1]
    assert swapped.docleak_all == 0.0
