"""What the output folder publishes: the boxes files of `redact` and `batch` (and of
quarantined pages) hold boxes, types, sources and scores but not the hidden text, which goes
only to the `--audit` file (owner-only, refused inside the output folder); the files of one
input appear together or not at all, under short temporary names a later run sweeps; file
names cannot forge status lines. Real Tesseract and the default pipeline on rendered pages."""
from __future__ import annotations

import json
import os
import stat

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.audit import public_record
from redactor.cli import main

FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
VALUES = ["margaret.holloway@example.org", "555-0142"]


def _page(path):
    img = Image.new("RGB", (1100, 300), "white")
    d = ImageDraw.Draw(img)
    f = ImageFont.truetype(FONT, 30)
    d.text((40, 40), f"Contact: {VALUES[0]}", font=f, fill="black")
    d.text((40, 120), f"Phone: {VALUES[1]}", font=f, fill="black")
    img.save(path)
    return path


def _published_bytes(folder) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*.jsonl"))


def test_redact_boxes_hold_no_hidden_value_and_the_audit_holds_them(tmp_path):
    page = _page(tmp_path / "contact.png")
    out, audit = tmp_path / "out", tmp_path / "private" / "audit.jsonl"
    assert main(["redact", str(page), "--out", str(out), "--audit", str(audit)]) == 0
    published = _published_bytes(out)
    (rec,) = [json.loads(x) for x in (out / "contact.boxes.jsonl").read_text().splitlines()]
    assert {p["type"] for p in rec["predictions"]} >= {"EMAIL", "PHONE"}
    assert all("value" not in p and p["bbox"] and p["sources"] for p in rec["predictions"])
    for value in VALUES:
        assert value.encode() not in published and value.split("@")[0].encode() not in published
    (full,) = [json.loads(x) for x in audit.read_text().splitlines()]
    assert {p["value"] for p in full["predictions"]} >= set(VALUES)
    assert stat.S_IMODE(os.stat(audit).st_mode) == 0o600


def test_an_audit_file_inside_the_output_folder_is_refused_before_any_work(tmp_path, capsys):
    page = _page(tmp_path / "contact.png")
    out = tmp_path / "out"
    assert main(["redact", str(page), "--out", str(out), "--audit", str(out / "a.jsonl")]) == 2
    assert "published" in capsys.readouterr().err
    assert list(out.iterdir()) == []


def test_an_existing_audit_file_is_appended_and_made_owner_only(tmp_path):
    page = _page(tmp_path / "contact.png")
    audit = tmp_path / "audit.jsonl"
    audit.write_text('{"page_id": "earlier"}\n')
    os.chmod(audit, 0o644)
    assert main(["redact", str(page), "--out", str(tmp_path / "out"), "--audit", str(audit)]) == 0
    ids = [json.loads(x)["page_id"] for x in audit.read_text().splitlines()]
    assert ids == ["earlier", "contact"]
    assert stat.S_IMODE(os.stat(audit).st_mode) == 0o600


def test_batch_boxes_hold_no_hidden_value_and_the_audit_one_record_per_input(tmp_path):
    src = tmp_path / "src"
    (src / "a").mkdir(parents=True)
    _page(src / "one.png")
    _page(src / "a" / "two.png")
    out, audit = tmp_path / "out", tmp_path / "audit.jsonl"
    assert main(["batch", str(src), "--out", str(out), "--workers", "1", "--no-progress",
                 "--audit", str(audit)]) == 0
    published = _published_bytes(out)
    assert (out / "one.boxes.jsonl").is_file() and (out / "a" / "two.boxes.jsonl").is_file()
    for value in VALUES:
        assert value.encode() not in published
    records = [json.loads(x) for x in audit.read_text().splitlines()]
    assert sorted(r["page_id"] for r in records) == ["one", "two"]
    assert all(set(VALUES) <= {p["value"] for p in r["predictions"]} for r in records)


def test_verification_findings_lose_their_text_too():
    record = {"page_id": "p", "predictions": [{"bbox": [1, 2, 3, 4], "type": "PHONE",
                                               "value": "555-0142", "score": 0.9}],
              "verification": {"ok": False, "findings": [
                  {"reason": "recoverable", "type": "PHONE", "value": "555-0142", "bbox": [1, 2, 3, 4]}]}}
    public = public_record(record)
    assert "555" not in json.dumps(public)
    assert public["verification"]["findings"][0]["reason"] == "recoverable"
    assert record["predictions"][0]["value"] == "555-0142"      # the full record is untouched


# --- the outputs of one input appear together or not at all ---------------------------------

def test_a_page_that_cannot_be_written_takes_its_boxes_file_with_it(tmp_path, capsys):
    page = _page(tmp_path / "contact.png")
    out = tmp_path / "out"
    # the page's name is taken by a folder: its write fails after the boxes file's
    (out / "contact.redacted.png").mkdir(parents=True)
    assert main(["redact", str(page), "--out", str(out), "--overwrite"]) == 5
    assert "cannot write" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["contact.redacted.png"]


def test_a_write_failing_midway_leaves_no_output_and_no_temporary(tmp_path):
    import errno

    from redactor.errors import OutputError
    from redactor.render import atomic_outputs
    boxes, page = tmp_path / "x.boxes.jsonl", tmp_path / "x.redacted.png"
    boxes.write_text("from an earlier run")
    with pytest.raises(OutputError, match="No space left"):
        with atomic_outputs([boxes, page]) as (tmp_boxes, tmp_page):
            tmp_boxes.write_text("new boxes")
            tmp_page.write_bytes(b"half a page")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))   # the disk filled up here
    assert boxes.read_text() == "from an earlier run"      # nothing was renamed over it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.boxes.jsonl"]


def test_a_long_name_gets_short_temporary_names(tmp_path):
    stem = "r" * 236                      # <stem>.redacted.png fits in 255 bytes, more would not
    page = _page(tmp_path / f"{stem}.png")
    out = tmp_path / "out"
    assert main(["redact", str(page), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [f"{stem}.boxes.jsonl", f"{stem}.redacted.png"]


def test_what_a_killed_run_left_half_written_is_swept_by_the_next(tmp_path):
    page = _page(tmp_path / "contact.png")
    out = tmp_path / "out"
    (out / "quarantine").mkdir(parents=True)
    left = [out / ".rdx-k2j3.part", out / ".contact.redacted.png.abc.part", out / "quarantine" / ".rdx-x.part"]
    for p in left:
        p.write_bytes(b"half")
    keep = out / "notes.txt"
    keep.write_text("mine")
    assert main(["redact", str(page), "--out", str(out)]) == 0
    assert not any(p.exists() for p in left) and keep.read_text() == "mine"


def test_a_newline_in_a_file_name_cannot_forge_a_status_line(tmp_path, capsys):
    page = _page(tmp_path / "x.png")
    forged = tmp_path / "a\nredactor: all clean.png"
    page.rename(forged)
    assert main(["redact", str(forged), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) == 1 and "a\\nredactor: all clean" in out


def test_one_line_escapes_control_characters_only():
    from redactor.errors import one_line
    assert one_line("Müller scan 1.png") == "Müller scan 1.png"
    assert one_line("a\nb\x1b[2Jc\td") == "a\\nb\\x1b[2Jc\\td"


def test_a_failed_rerun_removes_the_outputs_of_the_earlier_run(tmp_path, capsys):
    page = _page(tmp_path / "contact.png")
    out = tmp_path / "out"
    assert main(["redact", str(page), "--out", str(out)]) == 0
    assert (out / "contact.redacted.png").is_file()
    # the input changes into something that cannot be read: the earlier redaction must not
    # pass for the redaction of what the input is now
    page.write_bytes(page.read_bytes()[:300])
    assert main(["redact", str(page), "--out", str(out), "--overwrite"]) == 2
    assert "removed the outputs of an earlier run" in capsys.readouterr().err
    assert list(out.iterdir()) == []


def test_an_existing_output_is_replaced_only_with_overwrite(tmp_path, capsys):
    page = _page(tmp_path / "contact.png")
    out = tmp_path / "out"
    out.mkdir()
    theirs = out / "contact.redacted.png"
    theirs.write_bytes(b"someone else's file")
    assert main(["redact", str(page), "--out", str(out)]) == 5
    assert "contact.redacted.png already exists" in capsys.readouterr().err
    assert theirs.read_bytes() == b"someone else's file"
    assert sorted(p.name for p in out.iterdir()) == ["contact.redacted.png"]
    assert main(["redact", str(page), "--out", str(out), "--overwrite"]) == 0
    assert theirs.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_batch_leaves_files_it_did_not_write_unless_told(tmp_path, capsys):
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    _page(src / "contact.png")
    out.mkdir()
    theirs = out / "contact.redacted.png"
    theirs.write_bytes(b"someone else's file")
    assert main(["batch", str(src), "--out", str(out), "--workers", "1", "--no-progress"]) == 7
    assert "already exists" in capsys.readouterr().err
    assert theirs.read_bytes() == b"someone else's file"
    assert not (out / "contact.boxes.jsonl").exists()
    assert main(["batch", str(src), "--out", str(out), "--workers", "1", "--no-progress",
                 "--overwrite"]) == 0
    assert theirs.read_bytes()[:4] == b"\x89PNG" and (out / "contact.boxes.jsonl").is_file()
    # the batch's own outputs are its to replace when the input changes: no --overwrite needed
    _page(src / "contact.png")
    (src / "contact.png").touch()
    with open(src / "contact.png", "ab") as fh:
        fh.write(b"\0")
    assert main(["batch", str(src), "--out", str(out), "--workers", "1", "--no-progress"]) == 0
