"""``redactor eval`` end to end on a tiny dataset: exit codes, the JSON keys of the issue,
the console table, the report folder, and nothing written when the input is bad."""
from __future__ import annotations

import json

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.cli import main

HEADLINE = {"f1_loc", "f1_loc_gold_pages", "f1_type", "docleak_all", "docleak_crit", "valid"}
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


@pytest.fixture
def dataset(tmp_path):
    """Two rendered pages: page a fully redacted, page b leaks its phone number (the
    prediction covers half of it) and its date is retyped; page c is missing."""
    font = ImageFont.truetype(FONT, 24)
    (tmp_path / "images").mkdir()
    pages, words = [], []
    for pid, items in (("a", [("PERSON", "Maria Lopez")]),
                       ("b", [("PHONE", "555 201 3344"), ("DATE", "2024-03-01")]),
                       ("c", [("EMAIL", "x@y.org")])):
        img = Image.new("RGB", (400, 200), "white")
        draw = ImageDraw.Draw(img)
        anns, ws = [], []
        for i, (fine, value) in enumerate(items):
            bbox = draw.textbbox((20, 30 + 60 * i), value, font=font)
            draw.text((20, 30 + 60 * i), value, font=font, fill="black")
            anns.append({"bbox": list(bbox), "type": fine, "value": value})
            ws.append({"text": value.replace(" ", ""), "bbox": list(bbox), "conf": 95.0})
        img.save(tmp_path / "images" / f"{pid}.png")
        pages.append({"page_id": pid, "image": f"images/{pid}.png", "width": 400, "height": 200,
                      "source": "synthetic", "page_type": "letter", "annotations": anns})
        words.append({"page_id": pid, "engine": "test", "words": ws})
    a, b = pages[0]["annotations"], pages[1]["annotations"]
    phone = b[0]["bbox"]
    preds = [{"page_id": "a", "system": "unit", "predictions": [dict(a[0], score=0.9)], "error": None},
             {"page_id": "b", "system": "unit", "error": None, "predictions": [
                 {"bbox": [phone[0], phone[1], (phone[0] + phone[2]) / 2, phone[3]], "type": "PHONE"},
                 {"bbox": b[1]["bbox"], "type": "PERSON"}]}]
    for name, rows in (("pages.jsonl", pages), ("preds.jsonl", preds), ("words.jsonl", words)):
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return tmp_path


def run(tmp_path, *extra):
    return main(["eval", "--gold", str(tmp_path / "pages.jsonl"), "--pred", str(tmp_path / "preds.jsonl"),
                 *extra])


def test_eval_cli_writes_the_issue_json_keys(dataset, capsys):
    out = dataset / "out.json"
    assert run(dataset, "--ocr-words", str(dataset / "words.jsonl"), "--ink", "--json", str(out)) == 0
    data = json.loads(out.read_text())
    assert HEADLINE | {"per_group", "per_tau", "missed_crit", "attribution", "docleak_ink_all",
                       "docleak_ink_crit", "ink_recall_crit", "collateral"} <= set(data)
    assert set(data["per_tau"]) == {"0.5", "0.75", "0.95"}
    assert all(set(v) == HEADLINE for v in data["per_tau"].values())
    assert data["valid"] == pytest.approx(2 / 3)
    assert data["docleak_all"] == pytest.approx(2 / 3)        # b leaks, c is missing
    assert data["per_group"]["contextual"]["docleak"] == 1.0   # the retyped date
    assert data["attribution"]["counts"]["box_alignment"] == 1
    assert data["attribution"]["counts"]["detector_miss"] == 1  # page c: read, but no prediction line
    assert data["attribution"]["counts"]["ocr_miss"] == 0
    assert data["docleak_ink_crit"] == pytest.approx(2 / 3)
    table = capsys.readouterr().out
    assert "DocLeak_crit" in table and "tau=0.95" in table and "box_alignment" in table


def test_eval_cli_without_ink_has_no_ink_keys(dataset):
    out = dataset / "out.json"
    assert run(dataset, "--json", str(out), "--tau", "0.6") == 0
    data = json.loads(out.read_text())
    assert "docleak_ink_all" not in data and data["tau"] == 0.6
    assert data["attribution"]["mode"] == "ocr_free"
    assert data["attribution"]["split"] == {"interface_failure": 1, "sub_threshold": 1}


def test_eval_cli_report_folder(dataset):
    report = dataset / "report"
    assert run(dataset, "--ocr-words", str(dataset / "words.jsonl"), "--report", str(report),
               "--emits", "direct") == 0
    text = (report / "report.md").read_text()
    names = sorted(p.name for p in report.iterdir())
    assert {"pii_per_page.png", "pii_heatmap.png", "attribution.png"} <= set(names)
    overlays = [n for n in names if n.startswith("page_")]
    assert [n.split("_", 2)[2] for n in overlays] == ["b.png", "c.png"]   # both leak 1 critical
    for name in names:
        if name.endswith(".png"):
            assert f"]({name})" in text
            with Image.open(report / name) as img:
                assert img.size[0] > 300
    assert "## Worst pages" in text and "| b |" in text and "Type coverage" in text
    assert not [p for p in report.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("line, message", [
    ('{"page_id": "a", "predictions": 5}', "preds.jsonl:2: 'predictions' must be a list"),
    ("not json", "preds.jsonl:2: not valid JSON"),
])
def test_eval_cli_malformed_predictions_exit_2_and_write_nothing(dataset, capsys, line, message):
    path = dataset / "preds.jsonl"
    path.write_text(path.read_text().splitlines()[0] + "\n" + line + "\n")
    out = dataset / "out.json"
    assert run(dataset, "--json", str(out)) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_eval_cli_bad_inputs_exit_2(dataset, capsys):
    assert main(["eval", "--gold", str(dataset / "nope.jsonl"), "--pred", str(dataset / "preds.jsonl")]) == 2
    assert run(dataset, "--tau", "1.5") == 2
    assert "tau must be in (0, 1]" in capsys.readouterr().err
    (dataset / "words.jsonl").write_text('{"page_id": "a", "words": [{"text": "x"}]}\n')
    assert run(dataset, "--ocr-words", str(dataset / "words.jsonl")) == 2
    assert "words.jsonl:1: word 0: bbox" in capsys.readouterr().err
    assert run(dataset, "--emits", "PERSON,NOPE") == 2
    (dataset / "images" / "a.png").unlink()
    assert run(dataset, "--ink") == 2
    assert "pages.jsonl:1: image" in capsys.readouterr().err


def test_eval_cli_unwritable_output_exits_5(dataset):
    blocker = dataset / "file"
    blocker.write_text("x")
    assert run(dataset, "--json", str(blocker / "out.json")) == 5
    assert run(dataset, "--report", str(blocker)) == 5
