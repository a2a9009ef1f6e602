"""End to end with real Tesseract and real Presidio on pages rendered here: the PII pixels
are dark in the output and Tesseract can no longer read the values; the CLI fails closed."""
import json
import re

import numpy as np
import pytest
from PIL import Image

from contact_page import render_page
from redactor.cli import main

def _norm(s):
    return re.sub(r"[^0-9a-z]", "", s.lower())


def tesseract_text(path):
    import pytesseract
    return pytesseract.image_to_string(Image.open(path))


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    path = folder / "contact.png"
    return path, render_page(path)


def test_cli_redacts_page_and_writes_contract_boxes(page, tmp_path):
    path, boxes = page
    original = tesseract_text(path)
    for value in boxes:   # the test is only meaningful if Tesseract could read them before
        assert _norm(value) in _norm(original)
    assert main(["redact", str(path), "--out", str(tmp_path)]) == 0
    out = tmp_path / "contact.redacted.png"
    gray = np.asarray(Image.open(out).convert("L"))
    for value, (x0, y0, x1, y1) in boxes.items():
        region = gray[y0:y1, x0:x1]
        assert (region < 60).mean() > 0.97, f"{value} is not blacked out"
    after = _norm(tesseract_text(out))
    for value in boxes:
        assert _norm(value) not in after
    assert "budget" in after and "staffing" in after     # bystander text survives
    (line,) = (tmp_path / "contact.boxes.jsonl").read_text().splitlines()
    rec = json.loads(line)
    assert rec["page_id"] == "contact" and rec["error"] is None
    assert rec["system"] == "tesseract+rules+presidio"     # the default pipeline
    types = {p["type"] for p in rec["predictions"]}
    assert {"PERSON", "EMAIL", "PHONE"} <= types
    for p in rec["predictions"]:
        x0, y0, x1, y1 = p["bbox"]
        assert 0 <= x0 < x1 <= 1400 and 0 <= y0 < y1 <= 520


def test_python_api_redact(page):
    from redactor import Redactor
    path, boxes = page
    image, redactions = Redactor(ocr="tesseract", detectors=["presidio"], types=["EMAIL"]).redact(path)
    assert [r.type for r in redactions] == ["EMAIL"]
    gray = np.asarray(image.convert("L"))
    x0, y0, x1, y1 = boxes["john.smith@example.com"]
    assert (gray[y0:y1, x0:x1] < 60).mean() > 0.97
    x0, y0, x1, y1 = boxes["John Smith"]
    assert (gray[y0:y1, x0:x1] < 60).mean() < 0.5          # not asked for: left alone


def test_pdf_in_image_only_pdf_out(page, tmp_path):
    import img2pdf
    pypdf = pytest.importorskip("pypdf")
    path, _ = page
    pdf = tmp_path / "doc.pdf"
    pdf.write_bytes(img2pdf.convert([path.read_bytes(), path.read_bytes()],
                                    layout_fun=img2pdf.get_fixed_dpi_layout_fun((200, 200))))
    out = tmp_path / "out"
    assert main(["redact", str(pdf), "--out", str(out)]) == 0
    result = out / "doc.redacted.pdf"
    reader = pypdf.PdfReader(result)
    assert len(reader.pages) == 2
    assert all((p.extract_text() or "").strip() == "" for p in reader.pages)
    assert not reader.metadata
    lines = (out / "doc.boxes.jsonl").read_text().splitlines()
    assert [json.loads(x)["page_id"] for x in lines] == ["doc-p0001", "doc-p0002"]
    from redactor.imageio import read_pages
    import pytesseract
    for pg in read_pages(result):
        text = _norm(pytesseract.image_to_string(pg.image))
        assert "johnsmith" not in text and "5550132" not in text


def test_bad_inputs_fail_closed_and_good_ones_survive(page, tmp_path, capsys):
    path, _ = page
    bad = tmp_path / "broken.png"
    bad.write_bytes(path.read_bytes()[:2000])      # truncated PNG
    out = tmp_path / "out"
    code = main(["redact", str(path), str(bad), "--out", str(out)])
    assert code == 7                                # some inputs failed
    err = capsys.readouterr().err
    assert "broken.png" in err and "Traceback" not in err
    assert (out / "contact.redacted.png").exists()
    assert not list(out.glob("broken*")) and not list(out.glob("*.part"))
    assert main(["redact", str(bad), "--out", str(out)]) == 2


@pytest.mark.parametrize("args,code,needle", [
    (["--detector", "no-such-detector"], 2, "unknown detector plugin"),
    (["--types", "PERSON,NOT_A_TYPE"], 2, "unknown type"),
    (["--min-score", "3"], 2, "min_score"),
    (["--fill", "sparkly"], 2, "fill colour"),
])
def test_bad_options_are_one_line_errors(page, tmp_path, capsys, args, code, needle):
    path, _ = page
    assert main(["redact", str(path), "--out", str(tmp_path / "o"), *args]) == code
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0]
    assert not (tmp_path / "o").exists()       # refused before the output folder is made


def test_unwritable_output_folder(page, tmp_path, capsys):
    path, _ = page
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["redact", str(path), "--out", str(blocker / "sub")]) == 5
    assert "not writable" in capsys.readouterr().err


def test_missing_tesseract_binary_is_reported(page, tmp_path, monkeypatch, capsys):
    path, _ = page
    monkeypatch.setenv("PATH", str(tmp_path))          # nothing executable here
    assert main(["redact", str(path), "--out", str(tmp_path / "o")]) == 3
    assert "tesseract" in capsys.readouterr().err
    assert not (tmp_path / "o" / "contact.redacted.png").exists()


def test_verify_catches_a_redaction_that_hides_nothing(page, tmp_path, capsys):
    path, _ = page
    out = tmp_path / "o"
    # Only e-mails redacted: the name and phone number are still readable.
    assert main(["redact", str(path), "--out", str(out), "--types", "EMAIL", "--verify"]) == 6
    err = capsys.readouterr().err
    assert "failed verification" in err
    # what stayed readable is named by type and box, never by its value
    assert re.search(r"still readable: page \S+: [A-Z_]+ at \[\d+, \d+, \d+, \d+\]", err), err
    assert not any(_norm(value) in _norm(err) for value in page[1])
    assert not list(out.glob("contact.*"))
    assert main(["redact", str(path), "--out", str(out), "--types", "EMAIL", "--verify",
                 "--on-verify-fail", "quarantine"]) == 6
    assert (out / "quarantine" / "contact.redacted.png").exists()
    assert not (out / "contact.redacted.png").exists()
    assert main(["redact", str(path), "--out", str(out), "--verify"]) == 0
    rec = json.loads((out / "contact.boxes.jsonl").read_text())
    assert rec["verification"]["ok"] is True
