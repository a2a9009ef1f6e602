"""Tests of the generator's page kinds modelled on real archive pages (``faxmemo``,
``registration``, ``intl``), the non-US value formats, typewriter text and old-scan
degradations: gold on ink and inside the page, documented value shapes, determinism."""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
from collections import Counter

import cv2
import numpy as np
import pytest
from PIL import Image

from redactor_eval.synth import degrade, intl
from redactor_eval.synth.dataset import (
    EXTRA_KINDS,
    PAGE_TYPE_WEIGHTS,
    SynthOptions,
    generate_page,
    page_type_plan,
    write_dataset,
)
from redactor_eval.synth.fonts import Font
from redactor_eval.synth.render import Canvas
from redactor_eval.synth.typewriter import typewrite
from redactor_eval.synth.values import ValueMaker
from faker import Faker
from redactor import taxonomy
from redactor.cli import main as cli_main

KINDS = tuple(EXTRA_KINDS)


def _gray(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("L"))


def _check_gold(data: bytes, rec: dict) -> None:
    gray = _gray(data)
    assert gray.shape == (rec["height"], rec["width"])
    assert rec["page_type"] in PAGE_TYPE_WEIGHTS and rec["source"] == "synthetic"
    t = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
    assert rec["annotations"]
    for a in rec["annotations"]:
        x0, y0, x1, y1 = a["bbox"]
        assert taxonomy.is_known(a["type"]), a
        assert 0 <= x0 < x1 <= rec["width"] and 0 <= y0 < y1 <= rec["height"], a
        assert isinstance(a["value"], str) and a["value"].strip()
        crop = gray[math.floor(y0) : math.ceil(y1), math.floor(x0) : math.ceil(x1)]
        assert (crop <= t).sum() >= 5, (rec["page_id"], a)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("degrade_scale", [0.0, 10.0], ids=["clean", "degraded"])
def test_new_kinds_put_gold_on_ink_inside_the_page(kind, degrade_scale):
    opts = SynthOptions(seed=5, dpi_range=(100, 100), degrade_scale=degrade_scale)
    for i in range(2):
        data, ext, rec = generate_page(i, kind, opts)
        assert rec["layout"] == kind and rec["degraded"] == (degrade_scale > 0)
        _check_gold(data, rec)


def test_registration_form_has_numbered_fields_ids_and_signatures():
    opts = SynthOptions(seed=2, dpi_range=(100, 100), degrade_scale=0)
    types = Counter()
    for i in range(3):
        _, _, rec = generate_page(i, "registration", opts)
        assert rec["page_type"] == "form" and rec["page_id"].startswith("reg-")
        types.update(a["type"] for a in rec["annotations"])
        sigs = [a for a in rec["annotations"] if a["type"] == "SIGNATURE"]
        names = {a["value"] for a in rec["annotations"] if a["type"] == "PERSON"}
        assert sigs and all(s["value"] in names for s in sigs)  # typed name under each signature
        # the registry's receipt line: date and time as one DATE near the top
        assert any(
            a["type"] == "DATE" and re.fullmatch(r"\d\d/\d\d/\d{4} \d+:\d\d:\d\d [AP]M", a["value"])
            for a in rec["annotations"]
        )
    for t in ("BUSINESS_ID", "ADDRESS", "DATE", "ORGANIZATION", "PHONE", "PERSON"):
        assert types[t] >= 1, t


def test_fax_memo_has_transmission_header_and_several_people():
    opts = SynthOptions(seed=3, dpi_range=(100, 100), degrade_scale=0)
    for i in range(3):
        _, _, rec = generate_page(i, "faxmemo", opts)
        assert rec["page_type"] == "other" and rec["page_id"].startswith("fax-")
        anns = rec["annotations"]
        top = [a for a in anns if a["bbox"][3] < rec["height"] * 0.05]
        assert {"DATE", "PHONE"} <= {a["type"] for a in top}, top  # the fax header line
        assert sum(a["type"] == "PERSON" for a in anns) >= 3
        assert sum(a["type"] == "PHONE" for a in anns) >= 2


def test_intl_pages_name_their_country_and_use_its_formats():
    opts = SynthOptions(seed=4, dpi_range=(72, 72), degrade_scale=0)
    for i in range(4):
        _, _, rec = generate_page(i, "intl", opts)
        assert rec["country"] in intl.COUNTRIES and rec["page_type"] in ("letter", "email", "other")


# -- value formats ---------------------------------------------------------------------------
PHONE_SHAPES = {
    "GB": r"(\+44 (\(0\))?|\(?0)\d[\d ()]+",
    "CA": r"(\+1 |1-)?\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}",
    "AU": r"(\+61 (\(0\))?|\(?0)\d[\d ()]+",
    "IN": r"(\+91[ -]|\(?0?)\d[\d -]+\)?[\d ]*",
    "MY": r"(\+60 ?|\+603 |0)\d[\d -]+",
    "SG": r"(\+65[ -]|\(65\) )?[69]\d{3}[ -]?\d{4}",
    "DE": r"(\+49 (\(0\))?|0)\d+[ /]\d[\d -]+",
    "FR": r"(\+33 (\(0\) ?)?|0)\d([ .]\d\d){4}",
}


def _maker(country: str, seed: int) -> intl.IntlValueMaker:
    return intl.IntlValueMaker(Faker("en_US"), np.random.default_rng(seed), country)


@pytest.mark.parametrize("country", intl.COUNTRIES)
def test_non_us_values_have_the_documented_shapes(country):
    for seed in range(12):
        v = _maker(country, seed)
        addr = "\n".join(v.address().lines())
        assert re.search(intl.POSTCODE_SHAPES[country], addr), addr
        for style in range(6):
            phone = v.phone(style)
            assert re.fullmatch(PHONE_SHAPES[country], phone), phone
            assert 8 <= len(re.sub(r"\D", "", phone)) <= 13, phone
        label, bid = v.business_id_labeled()
        assert any(re.fullmatch(s, bid) for s in intl.BUSINESS_ID_SHAPES[country]), bid
        name = v.org_name()
        assert any(name.endswith(" " + f) for f in intl.LEGAL_FORMS[country]), name
        assert isinstance(v.date(), str) and v.person().last


def test_country_conventions_of_addresses():
    gb = "\n".join(_maker("GB", 1).address().lines())
    assert re.search(r"(^|\n)[A-Z' -]+( [A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2})?(\n|$)", gb)  # post town in capitals
    ca = _maker("CA", 1).address().lines()[1]
    assert re.fullmatch(r".+ [A-Z]{2}  [A-Z]\d[A-Z] \d[A-Z]\d", ca)  # province, two spaces, postal code
    for c in ("MY", "DE", "FR"):  # postcode before the town
        assert any(re.match(r"\d{5} \S", ln) for ln in _maker(c, 2).address().lines())
    assert _maker("SG", 3).address().lines()[2].startswith("Singapore ")


def test_check_digits_of_abn_acn_and_gstin():
    seen = Counter()
    for seed in range(60):
        for country in ("AU", "IN"):
            label, bid = _maker(country, seed).business_id_labeled()
            if label.startswith(("ABN", "A.B.N")):
                assert intl.abn_valid(bid), bid
                seen["abn"] += 1
            elif label.startswith(("ACN", "A.C.N")):
                d = bid.replace(" ", "")
                assert int(d[-1]) == intl.acn_check(d[:8]), bid
                seen["acn"] += 1
            elif label.startswith("GST"):
                assert len(bid) == 15 and bid[-1] == intl.gstin_check(bid[:14]), bid
                seen["gstin"] += 1
    assert intl.abn_valid("51 824 753 556")  # the ATO's published example
    assert min(seen.values()) > 0 and len(seen) == 3


def test_org_names_carry_a_legal_form_also_for_us_makers():
    us = ValueMaker(Faker("en_US"), np.random.default_rng(1))
    assert any(intl.org_name(us).endswith(" " + f) for f in intl.LEGAL_FORMS["US"])
    assert any(intl.org_name(_maker("MY", 1)).endswith(" " + f) for f in intl.LEGAL_FORMS["MY"])


def test_many_new_pages_render_at_a_tiny_resolution():
    # every branch of the layouts (US and foreign senders, lists and tables, typed and
    # handwritten blanks) at 36 dpi, where a page takes a few milliseconds
    opts = SynthOptions(seed=0, dpi_range=(36, 36), degrade_scale=0)
    for kind in KINDS:
        for i in range(25):
            assert generate_page(i, kind, opts)[2]["annotations"]


def test_us_value_maker_is_untouched_by_the_intl_module():
    a = ValueMaker(Faker("en_US"), np.random.default_rng(0))
    b = intl.value_maker(Faker("en_US"), np.random.default_rng(0), "US")
    assert type(b) is ValueMaker and a.phone() == b.phone()


# -- typewriter and old scans -----------------------------------------------------------------
def test_typewritten_value_box_is_tight_around_its_ink():
    c = Canvas(150)
    typewrite(
        c, 100, 100, "Reg. No. 4417", Font("nimbus-mono", 11), np.random.default_rng(0), kind="BUSINESS_ID"
    )
    (ann,) = c.annotations
    gray = np.asarray(c.image.convert("L"))
    ys, xs = np.nonzero(gray < 200)
    x0, y0, x1, y1 = ann.bbox()
    assert x0 <= xs.min() and y0 <= ys.min() and x1 >= xs.max() + 1 and y1 >= ys.max() + 1
    assert (
        max(abs(a - b) for a, b in zip((x0, y0, x1, y1), (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)))
        <= 2
    )


def test_old_scan_fax_is_bilevel_and_keeps_the_page_size():
    c = Canvas(150)
    c.text(100, 200, "Tel. +44 20 7946 0123", Font("liberation-serif", 11), kind="PHONE")
    prof = degrade.OldScanProfile(0.0, 80, 0.3, 230, 20, "fax", 190.0, 0.05, 4, 0.0, None)
    out = degrade.apply_old_scan(c.image, c.annotations, prof, 150, np.random.default_rng(0))
    arr = np.asarray(out)
    assert arr.shape == (c.height, c.width) and len(np.unique(arr)) == 2
    x0, y0, x1, y1 = (int(v) for v in c.annotations[0].bbox())
    assert (arr[y0:y1, x0:x1] < 128).sum() > 50


# -- determinism and the command line ---------------------------------------------------------
def _digest(folder) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_new_kinds_are_deterministic_per_seed(tmp_path):
    opts = SynthOptions(seed=9, dpi_range=(72, 72), degrade_scale=3.0, page_types=KINDS)
    write_dataset(tmp_path / "a", 3, opts)
    write_dataset(tmp_path / "b", 3, opts)
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")
    other = SynthOptions(seed=10, dpi_range=(72, 72), degrade_scale=3.0, page_types=KINDS)
    write_dataset(tmp_path / "c", 3, other)
    assert _digest(tmp_path / "a") != _digest(tmp_path / "c")


def test_default_mix_is_unchanged_and_new_kinds_are_opt_in():
    assert Counter(page_type_plan(500, 0)) == Counter(PAGE_TYPE_WEIGHTS)
    plan = page_type_plan(10, 0, ("faxmemo", "registration", "intl"))
    assert Counter(plan) == Counter(faxmemo=4, registration=4, intl=2)
    assert set(page_type_plan(20, 0, ("letter", "faxmemo"))) == {"letter", "faxmemo"}


def test_cli_selects_the_new_kinds(tmp_path):
    out = tmp_path / "set"
    args = ["synth", "--out", str(out), "--n", "3", "--seed", "1", "--dpi-range", "72", "72"]
    assert cli_main(args + ["--page-types", "faxmemo,registration,intl", "--workers", "1", "--no-progress"]) == 0
    recs = [json.loads(line) for line in (out / "pages.jsonl").read_text().splitlines()]
    assert {r["layout"] for r in recs} == {"faxmemo", "registration", "intl"}
    assert all(r["page_type"] in PAGE_TYPE_WEIGHTS for r in recs)
