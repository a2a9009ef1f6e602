"""Tests of the synthetic challenge-set generator: determinism, the contract's schema, gold
boxes on real ink that Tesseract can read, boxes that follow a rotated page, and the mix of
page and value types."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from redactor_eval.synth import degrade
from redactor_eval.synth.dataset import PAGE_TYPE_WEIGHTS, SynthOptions, generate_page, page_type_plan, write_dataset
from redactor_eval.synth.fonts import Font
from redactor_eval.synth.render import Canvas
from redactor import taxonomy
from redactor.cli import main as cli_main

REPO = Path(__file__).resolve().parents[2]
CHALLENGE = REPO / "eval" / "data" / "challenge"
SAMPLE = REPO / "eval" / "data" / "sample"


def _tree_digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _records(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "pages.jsonl").read_text().splitlines()]


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


# -- determinism ---------------------------------------------------------------------------
def test_same_seed_gives_identical_bytes_also_across_worker_counts(tmp_path):
    # every page degraded, so JPEG encoding, noise and rotation are covered too
    opts = SynthOptions(seed=3, dpi_range=(100, 100), degrade_scale=10.0)
    write_dataset(tmp_path / "a", 2, opts, workers=1)
    write_dataset(tmp_path / "b", 2, opts, workers=2)
    a, b = _tree_digest(tmp_path / "a"), _tree_digest(tmp_path / "b")
    assert len(a) == 3 and a == b
    assert any(name.endswith(".jpg") for name in a)


def test_another_seed_gives_other_pages(tmp_path):
    write_dataset(tmp_path / "a", 1, SynthOptions(seed=1, dpi_range=(72, 72), degrade_scale=0))
    write_dataset(tmp_path / "b", 1, SynthOptions(seed=2, dpi_range=(72, 72), degrade_scale=0))
    assert (tmp_path / "a" / "pages.jsonl").read_text() != (tmp_path / "b" / "pages.jsonl").read_text()


# -- schema of the committed sets ----------------------------------------------------------
@pytest.mark.parametrize("folder", [CHALLENGE, SAMPLE], ids=["challenge", "sample"])
def test_committed_sets_follow_the_contract(folder):
    records = _records(folder)
    assert len({r["page_id"] for r in records}) == len(records)
    for r in records:
        assert r["page_type"] in PAGE_TYPE_WEIGHTS
        assert r["source"] == "synthetic"
        img = cv2.imread(str(folder / r["image"]), cv2.IMREAD_GRAYSCALE)
        assert img is not None and img.shape == (r["height"], r["width"])
        assert r["annotations"], r["page_id"]
        for a in r["annotations"]:
            x0, y0, x1, y1 = a["bbox"]
            assert taxonomy.is_known(a["type"])
            assert 0 <= x0 < x1 <= r["width"] and 0 <= y0 < y1 <= r["height"]
            assert isinstance(a["value"], str) and a["value"].strip()


@pytest.mark.parametrize("folder", [CHALLENGE, SAMPLE], ids=["challenge", "sample"])
def test_every_gold_box_holds_ink(folder):
    # ink as the contract's ink measure defines it: Otsu's dark class of the whole page
    for r in _records(folder):
        gray = cv2.imread(str(folder / r["image"]), cv2.IMREAD_GRAYSCALE)
        t = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
        for a in r["annotations"]:
            x0, y0, x1, y1 = a["bbox"]
            crop = gray[math.floor(y0) : math.ceil(y1), math.floor(x0) : math.ceil(x1)]
            assert (crop <= t).sum() >= 5, (r["page_id"], a)


def test_challenge_set_is_small_and_covers_the_taxonomy():
    size = sum(p.stat().st_size for p in CHALLENGE.rglob("*") if p.is_file())
    assert size < 8 * 1024 * 1024
    types = Counter(a["type"] for r in _records(CHALLENGE) for a in r["annotations"])
    assert set(types) == set(taxonomy.fine_types())


# -- gold boxes are tight and readable -----------------------------------------------------
def test_clean_page_values_are_read_by_tesseract_inside_their_boxes():
    pytesseract = pytest.importorskip("pytesseract")
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    from PIL import Image
    import io

    opts = SynthOptions(seed=11, dpi_range=(300, 300), degrade_scale=0)
    # the first printed ("digital") invoice: typed values, no handwriting but signatures
    data, ext, rec = next(
        p for p in (generate_page(i, "invoice", opts) for i in range(20)) if p[2]["style"] == "digital"
    )
    assert ext == "png" and not rec["degraded"]
    img = Image.open(io.BytesIO(data)).convert("L")
    wanted = ("REFERENCE_NUMBER", "PHONE", "DATE", "ACCOUNT_NUMBER", "EMAIL", "BUSINESS_ID")
    checks = [a for a in rec["annotations"] if a["type"] in wanted and len(_norm(a["value"])) >= 6][:8]
    assert len(checks) >= 5
    read = 0
    for a in checks:
        x0, y0, x1, y1 = a["bbox"]
        # the box itself (plus a white margin for Tesseract): the value must be legible in it
        crop = img.crop((int(x0), int(y0), math.ceil(x1), math.ceil(y1)))
        framed = Image.new("L", (crop.width + 40, crop.height + 40), 255)
        framed.paste(crop, (20, 20))
        text = pytesseract.image_to_string(framed, config="--psm 7")
        read += _norm(a["value"]) in _norm(text)
    assert read >= len(checks) - 1, (read, len(checks))


def test_box_is_tight_around_the_ink():
    c = Canvas(200)
    run = c.text(100, 100, "Acct 4417-220019", Font("liberation-serif", 12), kind="ACCOUNT_NUMBER")
    (ann,) = c.annotations
    x0, y0, x1, y1 = ann.bbox()
    gray = np.asarray(c.image.convert("L"))
    t = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
    ys, xs = np.nonzero(gray <= t)
    ink_box = (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
    # holds all of the ink and at most one pixel of anti-aliased fringe on each side
    assert x0 <= ink_box[0] and y0 <= ink_box[1] and x1 >= ink_box[2] and y1 >= ink_box[3]
    assert max(abs(a - b) for a, b in zip((x0, y0, x1, y1), ink_box)) <= 1
    assert run.piece is not None


def test_rotation_moves_the_box_with_the_ink():
    c = Canvas(200)
    c.text(150, 300, "Policy No. P204-551-3390", Font("nimbus-mono", 11), kind="ACCOUNT_NUMBER")
    (ann,) = c.annotations
    before = ann.bbox()
    gray = np.asarray(c.image.convert("L"))
    rotated = degrade.rotate_page(gray, c.annotations, angle=2.0, fill=255)
    x0, y0, x1, y1 = ann.bbox()
    assert (x0, y0, x1, y1) != before
    # a line tilted by 2 degrees is taller than the level one by about width * sin(2 deg)
    width = before[2] - before[0]
    assert (y1 - y0) - (before[3] - before[1]) > 0.6 * width * math.sin(math.radians(2))
    ys, xs = np.nonzero(rotated < 128)
    inside = (xs >= x0 - 1) & (xs < x1 + 1) & (ys >= y0 - 1) & (ys < y1 + 1)
    assert inside.mean() > 0.995
    # tight: ink reaches every side of the box
    assert xs.min() <= x0 + 2 and xs.max() >= x1 - 3 and ys.min() <= y0 + 2 and ys.max() >= y1 - 3


# -- page and value mix --------------------------------------------------------------------
def test_page_type_plan_has_the_paper_proportions():
    counts = Counter(page_type_plan(500, 0))
    assert counts == Counter(PAGE_TYPE_WEIGHTS)
    assert Counter(page_type_plan(20, 0)) == Counter(
        invoice=9, email=4, form=2, letter=2, document=2, other=1
    )


def test_type_mix_over_thirty_pages():
    opts = SynthOptions(seed=0, dpi_range=(60, 60))
    plan = page_type_plan(30, opts.seed)
    records = [generate_page(i, t, opts)[2] for i, t in enumerate(plan)]
    anns = [a for r in records for a in r["annotations"]]
    types = Counter(a["type"] for a in anns)
    assert set(types) == set(taxonomy.fine_types())
    per_page = len(anns) / len(records)
    critical = sum(taxonomy.is_critical(a["type"]) for a in anns) / len(records)
    assert 18 <= per_page <= 35 and 6 <= critical < per_page
    # multi-line addresses, identifiers repeated on one page, some pages degraded
    assert any(a["type"] == "ADDRESS" and "\n" in a["value"] for a in anns)
    assert any(
        max(
            Counter(
                a["value"] for a in r["annotations"] if a["type"] not in ("DATE", "ORGANIZATION")
            ).values(),
            default=0,
        )
        >= 2
        for r in records
    )
    assert 0.2 <= sum(r["degraded"] for r in records) / len(records) <= 0.8


# -- command line --------------------------------------------------------------------------
def test_cli_writes_a_dataset_and_rejects_bad_input(tmp_path, capsys):
    out = tmp_path / "set"
    assert (
        cli_main(
            [
                "synth",
                "--out",
                str(out),
                "--n",
                "1",
                "--seed",
                "4",
                "--dpi-range",
                "72",
                "72",
                "--workers",
                "1",
                "--no-progress",
            ]
        )
        == 0
    )
    (rec,) = _records(out)
    assert (out / rec["image"]).is_file()
    assert cli_main(["synth", "--out", str(out), "--n", "1", "--no-progress"]) == 5  # not empty
    assert cli_main(["synth", "--out", str(tmp_path / "x"), "--dpi-range", "300", "100"]) == 2
    assert cli_main(["synth", "--out", str(tmp_path / "y"), "--page-types", "receipt"]) == 2
    err = capsys.readouterr().err
    assert "dpi-range" in err and "receipt" in err
    assert not (tmp_path / "x").exists() and not (tmp_path / "x.partial").exists()
