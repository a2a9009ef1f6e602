"""Faulty plugins, installed the way a third party would install one (a distribution with
entry points on sys.path): crashes, hangs, segfaults, garbage spans and boxes. Each is
contained to its page, reported in one line, and never produces an output that looks
redacted."""
import json
import textwrap

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.cli import main

PLUGINS = textwrap.dedent('''
    import math, os, signal, time
    from redactor.model import Redaction, Span
    from redactor.plugin_api import Detector, OcrFreeSystem

    class Crash(Detector):
        name = "fi-crash"
        def detect(self, page):
            if "BOOM" in page.text:
                raise RuntimeError("detector exploded")
            i = page.text.find("Smith")
            return [Span(i, i + 5, "PERSON")] if i >= 0 else []

    class Hang(Detector):
        name = "fi-hang"
        def detect(self, page):
            time.sleep(3600)

    class Segfault(Detector):
        name = "fi-segfault"
        def detect(self, page):
            os.kill(os.getpid(), signal.SIGSEGV)

    class PastEnd(Detector):
        name = "fi-past-end"
        def detect(self, page):
            n = len(page.text)
            return [Span(n + 5, n + 50, "PERSON"), Span(page.text.find("Smith"), n + 999, "PERSON"),
                    Span(-20, -10, "PERSON")]

    class UnknownType(Detector):
        name = "fi-unknown-type"
        def detect(self, page):
            return [Span(0, 3, "FAVOURITE_COLOUR")]

    class NotSpans(Detector):
        name = "fi-not-spans"
        def detect(self, page):
            return [("0", "3", "PERSON")]

    class NanBoxes(OcrFreeSystem):
        name = "fi-nan-boxes"
        def redact_page(self, image):
            return [Redaction((math.nan, 0, 10, 10), "PERSON")]

    class OffPageBoxes(OcrFreeSystem):
        name = "fi-off-page"
        def redact_page(self, image):
            return [Redaction((image.width + 10, 5, image.width + 90, 40), "PERSON")]
''')

ENTRY_POINTS = textwrap.dedent('''
    [redactor.detectors]
    fi-crash = fi_plugins:Crash
    fi-hang = fi_plugins:Hang
    fi-segfault = fi_plugins:Segfault
    fi-past-end = fi_plugins:PastEnd
    fi-unknown-type = fi_plugins:UnknownType
    fi-not-spans = fi_plugins:NotSpans

    [redactor.ocr_free]
    fi-nan-boxes = fi_plugins:NanBoxes
    fi-off-page = fi_plugins:OffPageBoxes
''')


@pytest.fixture()
def installed(tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "fi_plugins-0.1.dist-info").mkdir(parents=True)
    (site / "fi_plugins.py").write_text(PLUGINS)
    (site / "fi_plugins-0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: fi-plugins\nVersion: 0.1\n")
    (site / "fi_plugins-0.1.dist-info" / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(site))
    import os
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    return site


def _page(path, text):
    img = Image.new("RGB", (1000, 200), "white")
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 30)
    ImageDraw.Draw(img).text((30, 60), text, font=font, fill="black")
    img.save(path)
    return path


def _outputs(folder):
    return sorted(p.name for p in folder.glob("*")) if folder.exists() else []


def test_third_party_plugins_are_listed(installed, capsys):
    assert main(["plugins"]) == 0
    assert "fi-crash" in capsys.readouterr().out


def test_crash_costs_only_its_page(installed, tmp_path, capsys):
    good = _page(tmp_path / "good.png", "Signed by John Smith")
    bad = _page(tmp_path / "bad.png", "BOOM says John Smith")
    out = tmp_path / "out"
    assert main(["redact", str(good), str(bad), "--out", str(out), "--detector", "fi-crash"]) == 7
    err = capsys.readouterr().err
    assert "bad.png" in err and "detector exploded" in err and "Traceback" not in err
    assert _outputs(out) == ["good.boxes.jsonl", "good.redacted.png"]


@pytest.mark.parametrize("detector,needle", [
    ("fi-unknown-type", "unknown type 'FAVOURITE_COLOUR'"),
    ("fi-not-spans", "not Span"),
])
def test_garbage_from_a_detector_fails_the_page(installed, tmp_path, capsys, detector, needle):
    page = _page(tmp_path / "p.png", "Signed by John Smith")
    assert main(["redact", str(page), "--out", str(tmp_path / "out"), "--detector", detector]) == 4
    assert needle in capsys.readouterr().err
    assert _outputs(tmp_path / "out") == []


def test_spans_past_the_end_are_clamped_not_trusted(installed, tmp_path):
    page = _page(tmp_path / "p.png", "Signed by John Smith today")
    out = tmp_path / "out"
    audit = tmp_path / "audit.jsonl"
    assert main(["redact", str(page), "--out", str(out), "--detector", "fi-past-end",
                 "--audit", str(audit)]) == 0
    rec = json.loads(audit.read_text())
    # The span running past the end is clamped: it still hides "Smith today".
    assert [p["value"] for p in rec["predictions"]] == ["Smith today"]


@pytest.mark.parametrize("system,needle", [("fi-nan-boxes", "unusable box"),
                                           ("fi-off-page", "unusable box")])
def test_garbage_boxes_from_an_ocr_free_system(installed, tmp_path, capsys, system, needle):
    page = _page(tmp_path / "p.png", "Signed by John Smith")
    assert main(["redact", str(page), "--out", str(tmp_path / "out"), "--ocr-free", system]) == 4
    assert needle in capsys.readouterr().err
    assert _outputs(tmp_path / "out") == []


def test_hanging_detector_times_out(installed, tmp_path, capsys):
    page = _page(tmp_path / "p.png", "Signed by John Smith")
    out = tmp_path / "out"
    code = main(["redact", str(page), "--out", str(out), "--detector", "fi-hang", "--page-timeout", "20"])
    assert code == 4
    assert "timed out after 20 s" in capsys.readouterr().err
    assert _outputs(out) == []


def test_segfaulting_detector_is_contained(installed, tmp_path, capsys):
    first = _page(tmp_path / "a.png", "Signed by John Smith")
    second = _page(tmp_path / "b.png", "Signed by Jane Smith")
    out = tmp_path / "out"
    code = main(["redact", str(first), str(second), "--out", str(out), "--detector", "fi-segfault",
                 "--page-timeout", "120"])
    assert code == 4
    err = capsys.readouterr().err
    assert err.count("worker died") == 2          # a fresh worker was started for the second page
    assert _outputs(out) == []


def test_batch_page_timeout_stops_a_hanging_detector(installed, tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    _page(src / "p.png", "Signed by John Smith")
    out = tmp_path / "out"
    code = main(["batch", str(src), "--out", str(out), "--detector", "fi-hang", "--page-timeout", "5",
                 "--workers", "1", "--no-progress"])
    assert code == 7
    captured = capsys.readouterr()
    assert "timed out after 5 s" in captured.out + captured.err
    assert not [p for p in out.rglob("*") if p.is_file() and p.suffix in (".png", ".jsonl")]


def test_predict_page_timeout_records_the_page_and_goes_on(installed, tmp_path):
    import json as _json
    root = tmp_path / "ds"
    (root / "images").mkdir(parents=True)
    _page(root / "images" / "a.png", "Signed by John Smith")
    _page(root / "images" / "b.png", "Signed by Jane Smith")
    with open(root / "pages.jsonl", "w") as fh:
        for pid in ("a", "b"):
            fh.write(_json.dumps({"page_id": pid, "image": f"images/{pid}.png", "width": 1000,
                                  "height": 200, "source": "synthetic", "page_type": "form",
                                  "annotations": []}) + "\n")
    preds = tmp_path / "preds.jsonl"
    (tmp_path / ".rdx-left-by-a-killed-run.part").write_text("half")
    code = main(["predict", "--pages", str(root / "pages.jsonl"), "--out", str(preds),
                 "--detector", "fi-hang", "--page-timeout", "5"])
    assert code == 7
    lines = [_json.loads(x) for x in preds.read_text().splitlines()]
    assert [x["page_id"] for x in lines] == ["a", "b"]
    assert all("timed out after 5 s" in x["error"] for x in lines)
    assert not list(tmp_path.glob(".*.part"))
