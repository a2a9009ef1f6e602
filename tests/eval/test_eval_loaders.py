"""Loading and validating datasets, prediction files and OCR-word files: every bad line is
refused with a one-line error naming the file and the line."""
from __future__ import annotations

import json

import pytest
from PIL import Image

from redactor_eval.api import evaluate
from redactor_eval.dataset import load_dataset
from redactor_eval.predictions import load_ocr_words, load_predictions
from redactor.errors import InputError


def page(pid="a", **changes):
    d = {"page_id": pid, "image": f"{pid}.png", "width": 40, "height": 30, "source": "synthetic",
         "page_type": "invoice",
         "annotations": [{"bbox": [1, 2, 20, 10], "type": "PERSON", "value": "Ann", "group": "direct"}]}
    d.update(changes)
    return d


def write(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


@pytest.fixture
def folder(tmp_path):
    for pid in "abc":
        Image.new("RGB", (40, 30), "white").save(tmp_path / f"{pid}.png")
    return tmp_path


def test_eval_loads_a_good_dataset(folder):
    pages = load_dataset(write(folder / "pages.jsonl", [page("a"), "", page("b", annotations=[])]))
    assert [p.page_id for p in pages] == ["a", "b"]
    assert pages[0].annotations[0].bbox == (1.0, 2.0, 20.0, 10.0)
    assert pages[0].annotations[0].value == "Ann" and pages[0].image == (folder / "a.png").resolve()


@pytest.mark.parametrize("bad, message", [
    ('{"page_id": "b", ', "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    (page("b", page_id=""), "'page_id' must be a non-empty string"),
    (page("b", width=0), "'width' must be a positive integer"),
    (page("b", height=30.5), "'height' must be a positive integer"),
    (page("b", page_type="receipt"), "page_type 'receipt'"),
    (page("b", annotations={"bbox": []}), "'annotations' must be a list"),
    (page("b", annotations=[{"bbox": [1, 2, 20], "type": "PERSON"}]), "annotation 0: bbox"),
    (page("b", annotations=[{"bbox": [5, 2, 5, 10], "type": "PERSON"}]), "annotation 0: bbox"),
    (page("b", annotations=[{"bbox": [1, 2, 41, 10], "type": "PERSON"}]), "outside the 40x30 page"),
    (page("b", annotations=[{"bbox": [1, 2, 4, 10], "type": "person"}]), "unknown type 'person'"),
    (page("b", annotations=[{"bbox": [1, 2, 4, 10], "type": "DATE", "group": "direct"}]),
     "disagrees with type DATE"),
    (page("b", annotations=[{"bbox": [1, 2, 4, 10], "type": "DATE", "value": 5}]), "value must be a string"),
    (page("a"), "page_id 'a' repeats line 1"),
    (page("b", image="../a.png"), "leaves the dataset folder"),
    (page("b", image="/etc/passwd"), "leaves the dataset folder"),
    (page("b", image="zzz.png"), "not found"),
])
def test_eval_bad_dataset_line_names_file_and_line(folder, bad, message):
    path = write(folder / "pages.jsonl", [page("a"), bad])
    with pytest.raises(InputError) as info:
        load_dataset(path)
    assert "pages.jsonl:2: " in str(info.value) and message in str(info.value)
    assert "\n" not in str(info.value)


def test_eval_image_of_the_wrong_size_is_refused(folder):
    Image.new("RGB", (41, 30), "white").save(folder / "c.png")
    with pytest.raises(InputError, match=r"pages.jsonl:1: image c.png is 41x30, the line says 40x30"):
        load_dataset(write(folder / "pages.jsonl", [page("c")]))
    assert load_dataset(folder / "pages.jsonl", check_images=False)[0].page_id == "c"


def test_eval_empty_or_missing_dataset_is_refused(folder):
    with pytest.raises(InputError, match="has no pages"):
        load_dataset(write(folder / "pages.jsonl", ["", "  "]))
    with pytest.raises(InputError, match="file not found"):
        load_dataset(folder / "nope.jsonl")
    (folder / "bin.jsonl").write_bytes(json.dumps(page("a")).encode() + b'\n\xff\xfe\n')
    with pytest.raises(InputError, match=r"bin.jsonl:2: not UTF-8"):
        load_dataset(folder / "bin.jsonl")


def test_eval_prediction_file_keeps_bad_predictions_as_invalid(tmp_path):
    path = write(tmp_path / "p.jsonl", [
        {"page_id": "a", "predictions": [{"bbox": [1, 2, 3, 4], "type": "PERSON", "score": 0.5},
                                         {"bbox": [1, 2, "x", 4], "type": "PERSON"}, "junk",
                                         {"bbox": [1, 2, 3, 4]},
                                         {"bbox": [1, 2, 3, float("nan")], "type": "DATE"}],
         "error": None},
        {"page_id": "b", "predictions": None, "error": "timeout"}])
    preds = load_predictions(path)
    reasons = [p.invalid_reason(40, 30) for p in preds["a"].predictions]
    assert reasons == [None, "malformed box", "malformed box", "unknown type", "malformed box"]
    assert preds["b"].error == "timeout" and preds["b"].predictions == ()


@pytest.mark.parametrize("bad, message", [
    ({"predictions": []}, "'page_id' must be a non-empty string"),
    ({"page_id": "a", "predictions": {}}, "'predictions' must be a list"),
    ({"page_id": "a", "predictions": [], "error": ""}, "'error' must be null or a non-empty string"),
    ({"page_id": "a", "predictions": [], "error": 3}, "'error' must be null"),
    ({"page_id": "x", "predictions": []}, "page_id 'x' repeats line 1"),
])
def test_eval_bad_prediction_line_names_file_and_line(tmp_path, bad, message):
    path = write(tmp_path / "preds.jsonl", [{"page_id": "x", "predictions": []}, bad])
    with pytest.raises(InputError) as info:
        load_predictions(path)
    assert str(info.value).startswith(f"{path}:2: ") and message in str(info.value)


def test_eval_predictions_for_unknown_pages_are_refused(folder):
    pages = load_dataset(write(folder / "pages.jsonl", [page("a")]))
    preds = load_predictions(write(folder / "p.jsonl", [{"page_id": "zz", "predictions": []}]))
    with pytest.raises(InputError, match="pages not in the dataset: 'zz'"):
        evaluate(pages, preds)
    with pytest.raises(InputError, match="tau must be in"):
        evaluate(pages, {}, tau=0)


@pytest.mark.parametrize("bad, message", [
    ({"page_id": "a", "words": "x"}, "'words' must be a list"),
    ({"page_id": "a", "words": [{"text": 1, "bbox": [0, 0, 1, 1]}]}, "word 0: 'text' must be a string"),
    ({"page_id": "a", "words": [{"text": "x", "bbox": [0, 0, 1]}]}, "word 0: bbox must be four numbers"),
    ({"page_id": "a", "words": [{"text": "x", "bbox": [0, 0, 1, 1], "conf": "hi"}]},
     "'conf' must be a number"),
    ({"page_id": "a", "words": [{"text": "x", "bbox": [0, 0, 1, 1], "line": "2"}]},
     "word 0: 'line' must be a whole number"),
    ({"page_id": "a", "words": [{"text": "x", "bbox": [0, 0, 1, 1], "block": -1}]},
     "word 0: 'block' must be a whole number"),
])
def test_eval_bad_ocr_words_line_names_file_and_line(tmp_path, bad, message):
    path = write(tmp_path / "w.jsonl", [bad])
    with pytest.raises(InputError) as info:
        load_ocr_words(path)
    assert str(info.value).startswith(f"{path}:1: ") and message in str(info.value)


def test_eval_ocr_words_load_in_file_order(tmp_path):
    path = write(tmp_path / "w.jsonl", [{"page_id": "a", "engine": "tesseract 5.3.0",
                                         "words": [{"text": "Maria", "bbox": [1, 2, 3, 4], "conf": 96.0},
                                                   {"text": "Lopez", "bbox": [4, 2, 6, 4], "conf": 90}]}])
    words = load_ocr_words(path)["a"]
    assert [w.text for w in words] == ["Maria", "Lopez"] and words[0].conf == 96.0


def test_eval_ocr_words_keep_the_lines_and_blocks_the_pipeline_read():
    # a pipeline's words file carries each word's line and block (the page text its
    # detectors read is built from them); words without them stay on line 0
    from redactor.model import build_page_text
    from redactor_eval.predictions import ocr_words_from_json
    _, words = ocr_words_from_json({"page_id": "a", "words": [
        {"text": "Maria", "bbox": [1, 2, 3, 4], "line": 1, "block": 1},
        {"text": "Lopez", "bbox": [4, 2, 6, 4], "line": 2, "block": 1},
        {"text": "x", "bbox": [4, 8, 6, 9]}]})
    assert [(w.line, w.block) for w in words] == [(1, 1), (2, 1), (0, 0)]
    assert build_page_text(words[:2])[0] == "Maria\nLopez"


def test_a_dataset_whose_images_folder_is_a_link_loads(tmp_path):
    # images kept on another disk and linked in: nothing leaves the folder the user named
    elsewhere = tmp_path / "big-disk" / "scans"
    elsewhere.mkdir(parents=True)
    Image.new("RGB", (40, 30), "white").save(elsewhere / "a.png")
    ds = tmp_path / "ds"
    ds.mkdir()
    (ds / "images").symlink_to(elsewhere, target_is_directory=True)
    pages = load_dataset(write(ds / "pages.jsonl", [page("a", image="images/a.png")]))
    assert pages[0].image.read_bytes() == (elsewhere / "a.png").read_bytes()
    # written paths that leave the folder are still refused, link or not
    with pytest.raises(InputError, match="leaves the dataset folder"):
        load_dataset(write(ds / "pages.jsonl", [page("a", image="images/../../big-disk/scans/a.png")]))
