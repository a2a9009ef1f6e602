"""Review before burning (issue 33) and pipeline-level allow/deny lists (issue 36), with real
Tesseract and the default pipeline (rules + Presidio) on pages rendered here:
``redact --preview`` outlines the proposed boxes and burns nothing, ``apply`` burns exactly the
boxes of a (edited) boxes file without OCR, and allow/deny lists hold whatever the detectors
find."""
import json
import stat

import numpy as np
import pytest
from PIL import Image

from contact_page import render_page
from redactor.cli import main
from redactor.review import GROUP_COLOURS, OUTLINE
from redactor.taxonomy import group_of

DARK = 60


def gray(path):
    return np.asarray(Image.open(path).convert("L"))


def rgb(path):
    return np.asarray(Image.open(path).convert("RGB"))


def dark_share(arr, box):
    x0, y0, x1, y1 = box
    return (arr[y0:y1, x0:x1] < DARK).mean()


def one_record(path):
    (line,) = path.read_text().splitlines()
    return json.loads(line)


def int_box(bbox):
    x0, y0, x1, y1 = bbox
    return int(np.floor(x0)), int(np.floor(y0)), int(np.ceil(x1)), int(np.ceil(y1))


def only_error_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("redactor: error:"), err
    return err[0]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    path = folder / "contact.png"
    return path, render_page(path)


@pytest.fixture(scope="module")
def preview(page, tmp_path_factory):
    path, boxes = page
    out = tmp_path_factory.mktemp("preview")
    assert main(["redact", str(path), "--out", str(out), "--preview"]) == 0
    return out


def test_preview_outlines_boxes_and_burns_nothing(page, preview):
    path, values = page
    shot = preview / "contact.preview.png"
    assert shot.is_file()
    assert stat.S_IMODE(shot.stat().st_mode) == 0o600        # shows the unredacted page
    assert sorted(p.name for p in preview.iterdir()) == ["contact.boxes.jsonl", "contact.preview.png"]
    rec = one_record(preview / "contact.boxes.jsonl")
    assert rec["page_id"] == "contact" and rec["system"] == "tesseract+rules+presidio"
    assert all("value" not in p for p in rec["predictions"])  # no hidden values, as always
    types = {p["type"] for p in rec["predictions"]}
    assert {"PERSON", "EMAIL", "PHONE"} <= types
    before, after = rgb(path), rgb(shot)
    for p in rec["predictions"]:
        x0, y0, x1, y1 = int_box(p["bbox"])
        colour = GROUP_COLOURS[group_of(p["type"])]
        ymid = (y0 + y1) // 2
        # the outline sits just outside the box, in the group's colour, on both sides
        assert tuple(after[ymid, x0 - OUTLINE + 1]) == colour
        assert tuple(after[ymid, x1 + OUTLINE - 2]) == colour
        # the value itself is untouched: nothing burned
        assert np.array_equal(after[y0:y1, x0:x1], before[y0:y1, x0:x1])
    for value, box in values.items():
        assert dark_share(gray(shot), box) < 0.5, f"{value} looks burned in the preview"


def test_apply_burns_exactly_the_boxes_of_the_file(page, preview, tmp_path):
    path, values = page
    out = tmp_path / "out"
    assert main(["apply", str(path), "--boxes", str(preview / "contact.boxes.jsonl"),
                 "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["contact.boxes.jsonl", "contact.redacted.png"]
    burned, before = gray(out / "contact.redacted.png"), gray(path)
    preds = one_record(preview / "contact.boxes.jsonl")["predictions"]
    mask = np.zeros(burned.shape, bool)
    for p in preds:
        x0, y0, x1, y1 = int_box(p["bbox"])
        assert (burned[y0:y1, x0:x1] == 0).all()
        mask[y0:y1, x0:x1] = True
    assert np.array_equal(burned[~mask], before[~mask])       # nothing else changed
    for value, box in values.items():
        assert dark_share(burned, box) > 0.97, value
    assert one_record(out / "contact.boxes.jsonl")["predictions"] == preds


def test_edited_boxes_file_removed_box_stays_visible_added_box_is_burned(page, preview, tmp_path):
    path, values = page
    rec = one_record(preview / "contact.boxes.jsonl")
    rec["predictions"] = [p for p in rec["predictions"] if p["type"] != "PERSON"]
    added = [50, 370, 200, 410]     # "The" of the bystander line, by hand
    rec["predictions"].append({"bbox": added, "type": "OTHER"})
    edited = tmp_path / "edited.boxes.jsonl"
    edited.write_text(json.dumps(rec) + "\n")
    out = tmp_path / "out"
    assert main(["apply", str(path), "--boxes", str(edited), "--out", str(out)]) == 0
    burned, before = gray(out / "contact.redacted.png"), gray(path)
    x0, y0, x1, y1 = values["John Smith"]
    assert np.array_equal(burned[y0:y1, x0:x1], before[y0:y1, x0:x1])   # left visible
    assert dark_share(burned, values["john.smith@example.com"]) > 0.97
    assert (burned[370:410, 50:200] == 0).all()
    written = one_record(out / "contact.boxes.jsonl")["predictions"]
    assert written[-1]["sources"] == ["manual"] and "PERSON" not in {p["type"] for p in written}


def test_apply_refuses_a_boxes_file_that_does_not_fit(page, preview, tmp_path, capsys):
    path, _ = page
    good = one_record(preview / "contact.boxes.jsonl")
    cases = {
        "other page": {**good, "page_id": "invoice"},
        "off the page": {**good, "predictions": [{"bbox": [1300, 400, 1450, 430], "type": "OTHER"}]},
        "other size": {**good, "width": 2800, "height": 1040},
        "unknown type": {**good, "predictions": [{"bbox": [10, 10, 20, 20], "type": "SECRET"}]},
    }
    files = {}
    for name, rec in cases.items():
        files[name] = tmp_path / f"{name.replace(' ', '_')}.jsonl"
        files[name].write_text(json.dumps(rec) + "\n")
    files["bad json"] = tmp_path / "bad.jsonl"
    files["bad json"].write_text('{"page_id": "contact", "predictions": [\n')
    files["two pages"] = tmp_path / "two.jsonl"
    files["two pages"].write_text("".join(json.dumps({**good, "page_id": f"contact-p000{i}"}) + "\n"
                                          for i in (1, 2)))
    out = tmp_path / "out"
    for name, boxes in files.items():
        capsys.readouterr()
        assert main(["apply", str(path), "--boxes", str(boxes), "--out", str(out)]) == 2, name
        only_error_line(capsys)
        assert not [p for p in out.iterdir()] if out.exists() else True, name


def test_apply_refuses_to_replace_outputs_without_overwrite(page, preview, tmp_path, capsys):
    path, _ = page
    boxes = str(preview / "contact.boxes.jsonl")
    out = tmp_path / "out"
    assert main(["apply", str(path), "--boxes", boxes, "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["apply", str(path), "--boxes", boxes, "--out", str(out)]) == 5
    assert "--overwrite" in only_error_line(capsys)
    assert main(["apply", str(path), "--boxes", boxes, "--out", str(out), "--overwrite"]) == 0


def test_multi_page_preview_and_apply(page, tmp_path):
    path, values = page
    tiff = tmp_path / "doc.tiff"
    im = Image.open(path)
    im.save(tiff, save_all=True, append_images=[im.copy()])
    out, final = tmp_path / "review", tmp_path / "final"
    assert main(["redact", str(tiff), "--out", str(out), "--preview"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "doc-p0001.preview.png", "doc-p0002.preview.png", "doc.boxes.jsonl"]
    lines = [json.loads(x) for x in (out / "doc.boxes.jsonl").read_text().splitlines()]
    assert [r["page_id"] for r in lines] == ["doc-p0001", "doc-p0002"]
    lines[1]["predictions"] = []     # the reviewer keeps page 2 as it is
    (out / "doc.boxes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    assert main(["apply", str(tiff), "--boxes", str(out / "doc.boxes.jsonl"), "--out", str(final)]) == 0
    from redactor.imageio import read_pages
    p1, p2 = (np.asarray(p.image.convert("L")) for p in read_pages(final / "doc.redacted.tif"))
    assert dark_share(p1, values["John Smith"]) > 0.97
    assert dark_share(p2, values["John Smith"]) < 0.5


# -- allow and deny lists ----------------------------------------------------------------
@pytest.fixture(scope="module")
def listed(page, tmp_path_factory):
    """A normal run with an allow list in the config file and a deny term on the command line."""
    path, _ = page
    folder = tmp_path_factory.mktemp("lists")
    config = folder / "lists.toml"
    config.write_text('allow = ["JOHN SMITH"]\n'
                      'deny = [{term = "budget review", type = "ORGANIZATION"}]\n')
    out = folder / "out"
    assert main(["redact", str(path), "--out", str(out), "--config", str(config),
                 "--deny", "staffing"]) == 0
    return out


def test_allow_list_keeps_a_value_two_detectors_find(page, preview, listed):
    path, values = page
    # both detectors of the default pipeline find the name ...
    person = [p for p in one_record(preview / "contact.boxes.jsonl")["predictions"]
              if p["type"] == "PERSON"]
    assert person and {"presidio", "rules"} <= set(person[0]["sources"])
    # ... and the allow list keeps it anyway; the rest is still redacted
    burned = gray(listed / "contact.redacted.png")
    x0, y0, x1, y1 = values["John Smith"]
    assert np.array_equal(burned[y0:y1, x0:x1], gray(path)[y0:y1, x0:x1])
    assert dark_share(burned, values["john.smith@example.com"]) > 0.97
    assert "PERSON" not in {p["type"] for p in one_record(listed / "contact.boxes.jsonl")["predictions"]}


def test_deny_list_redacts_what_no_detector_finds(page, preview, listed):
    found = one_record(preview / "contact.boxes.jsonl")["predictions"]
    assert not [p for p in found if p["bbox"][1] > 350]      # no detector finds the last line
    preds = one_record(listed / "contact.boxes.jsonl")["predictions"]
    denied = [p for p in preds if "deny" in p.get("sources", [])]
    assert sorted(p["type"] for p in denied) == ["ORGANIZATION", "OTHER"]
    burned = gray(listed / "contact.redacted.png")
    for p in denied:
        assert dark_share(burned, int_box(p["bbox"])) > 0.99
        assert 360 < p["bbox"][1] < 420                      # on the bystander line


@pytest.mark.parametrize("argv, key", [
    (["--allow-pattern", "("], "--allow-pattern"),
    (["--deny-pattern", "[a-"], "--deny-pattern"),
])
def test_bad_regex_on_the_command_line_exits_2(page, tmp_path, capsys, argv, key):
    path, _ = page
    assert main(["redact", str(path), "--out", str(tmp_path / "out"), *argv]) == 2
    assert key in only_error_line(capsys)
    assert not (tmp_path / "out" / "contact.redacted.png").exists()


@pytest.mark.parametrize("toml, key", [
    ('allow_patterns = ["[0-9"]\n', "allow_patterns[0]"),
    ('deny_patterns = ["ok", {pattern = "(?P<x"}]\n', "deny_patterns[1]"),
    ('deny = [{term = "x", type = "SECRET"}]\n', "deny[0].type"),
])
def test_bad_list_in_the_config_file_exits_2(page, tmp_path, capsys, toml, key):
    path, _ = page
    config = tmp_path / "bad.toml"
    config.write_text(toml)
    assert main(["redact", str(path), "--out", str(tmp_path / "out"), "--config", str(config)]) == 2
    assert key in only_error_line(capsys)
