"""Visual PII (issue 32): QR codes and barcodes, signatures and photos found on rendered
pages with real OpenCV (and real Tesseract for the labels), and the plugins listed."""
import json

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from box_checks import contains, iou
from redactor_eval.benchmarks.visual_pages import (FONT, PAGE, draw_ean13, draw_photo, draw_qr,
                                          draw_signature, generated_pages)
from redactor import registry
from redactor.model import OcrPage, Redaction, WordBox

pytest.importorskip("cv2")


def blank():
    return np.full((PAGE[1], PAGE[0]), 255, np.uint8)


def words(*items):
    """An OcrPage of (text, box, conf) words, one line each."""
    return OcrPage(PAGE[0], PAGE[1], tuple(WordBox(t, b, c, line=i) for i, (t, b, c) in enumerate(items)),
                   "test")


def test_visual_plugins_registered_and_listed(capsys):
    assert {"codes", "faces", "signatures"} <= set(registry.names("visual"))
    assert registry.emits_of("visual", "signatures") == {"SIGNATURE", "DATE"}   # a date written in by hand
    from redactor.cli import main
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "Visual detectors" in out
    for name in ("codes", "faces", "signatures"):
        assert f"  {name} " in out
    assert main(["plugins", "--json"]) == 0
    kinds = {(p["kind"], p["name"]) for p in json.loads(capsys.readouterr().out)}
    assert ("visual", "signatures") in kinds


@pytest.mark.parametrize("payload,kind", [("https://example.org/people/maria-gonzalez", "ONLINE_ID"),
                                          ("maria.gonzalez@example.com", "EMAIL")])
def test_qr_code_found_decoded_and_boxed_whole(payload, kind):
    arr = blank()
    gold = draw_qr(arr, 400, 480, payload)
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "codes").find(image, None)
    assert len(found) == 1
    r = found[0]
    assert r.type == kind and r.value == payload
    assert contains(r.bbox, gold) and iou(r.bbox, gold) > 0.9


def test_code_typed_by_the_label_beside_it():
    arr = blank()
    gold = draw_qr(arr, 400, 480, "4471-2209-88")
    image = Image.fromarray(arr).convert("RGB")
    page = words(("Thank", (110, 140, 180, 160), 96), ("order", (190, 140, 250, 160), 96),
                 ("Account", (200, 520, 290, 542), 95), ("No.", (296, 520, 330, 542), 95))
    [r] = registry.create("visual", "codes").find(image, page)
    assert r.type == "ACCOUNT_NUMBER" and r.value == "4471-2209-88"
    assert contains(r.bbox, gold)


def test_barcode_found_and_boxed_by_its_bars():
    arr = blank()
    gold, digits = draw_ean13(arr, 300, 520, "400638133393")
    image = Image.fromarray(arr).convert("RGB")
    page = words(("Order", (110, 560, 180, 582), 96), ("No.", (186, 560, 220, 582), 96))
    found = registry.create("visual", "codes").find(image, page)
    assert [(r.type, r.value) for r in found] == [("REFERENCE_NUMBER", digits)]
    assert contains(found[0].bbox, gold) and iou(found[0].bbox, gold) > 0.85


def test_signature_beside_label_is_boxed(ocr):
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    d.text((110, 140), "I confirm that the details given above are true and complete.", font=font, fill=0)
    d.text((110, 700), "Signature:", font=font, fill=0)
    d.line((240, 722, 700, 722), fill=0, width=2)
    arr = np.array(img)
    gold = draw_signature(arr, 270, 715, 300, 46, seed=0)
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    sigs = [r for r in found if r.type == "SIGNATURE"]
    assert len(sigs) == 1
    assert iou(sigs[0].bbox, gold) >= 0.75


def test_signatures_on_generated_pages(ocr):
    det = registry.create("visual", "signatures")
    for name, image, golds in generated_pages():
        if not name.startswith("signature"):
            continue
        found = det.find(image, ocr.read(image))
        assert any(iou(r.bbox, golds[0][0]) >= 0.5 for r in found), name


def test_print_only_page_gives_no_signature(ocr):
    [(name, image, golds)] = [p for p in generated_pages() if p[0] == "print-only"]
    page = ocr.read(image)
    assert not registry.create("visual", "signatures").find(image, page)
    assert not registry.create("visual", "faces").find(image, page)
    assert not registry.create("visual", "codes").find(image, page)


def test_photo_block_found_whole_and_print_is_not():
    arr = blank()
    gold = draw_photo(arr, 110, 560, 220, 280, seed=3)
    image = Image.fromarray(arr).convert("RGB")
    [r] = registry.create("visual", "faces").find(image, None)
    assert r.type == "OTHER" and iou(r.bbox, gold) > 0.9
    # a flat grey tint (a shaded table cell) is not a photo
    arr = blank()
    arr[300:600, 200:700] = 200
    assert not registry.create("visual", "faces").find(Image.fromarray(arr).convert("RGB"), None)


def test_find_visual_sanitizes_and_drops_boxes_inside_existing_of_their_type():
    from redactor.errors import PluginFailed
    from redactor.visual import find_visual

    class Fake:
        name = "fake"

        def __init__(self, out):
            self.out = out

        def find(self, image, page):
            return self.out

    image = Image.new("RGB", (200, 100), "white")
    existing = [Redaction((10, 10, 90, 50), "PERSON"), Redaction((100, 10, 140, 50), "SIGNATURE")]
    got = find_visual([Fake([Redaction((20, 20, 80, 40), "SIGNATURE"),          # in a name's box: kept
                             Redaction((110, 20, 130, 40), "SIGNATURE"),        # in a signature's: dropped
                             Redaction((150, 60, 260, 140), "SIGNATURE"),        # clipped
                             Redaction((300, 300, 400, 400), "SIGNATURE")])],    # off page
                      image, None, existing)
    assert [(r.bbox, r.sources) for r in got] == [((20.0, 20.0, 80.0, 40.0), ("fake",)),
                                                  ((150.0, 60.0, 200.0, 100.0), ("fake",))]
    with pytest.raises(PluginFailed):
        find_visual([Fake([Redaction((1, 1, 5, 5), "SQUIGGLE")])], image, None)


def test_redact_hides_a_qr_code_by_default_and_not_with_visual_none(tmp_path):
    """The default pipeline runs the codes and photo detectors beside the text detectors:
    a QR code holding a customer URL comes out black; `--visual none` leaves it."""
    from redactor.cli import main

    arr = np.full((1100, 850), 255, np.uint8)
    draw_qr(arr, 500, 700, "https://example.org/customer/8842-1177", module=5)
    img = Image.fromarray(arr).convert("RGB")
    ImageDraw.Draw(img).text((60, 80), "Scan to see your order", fill=(0, 0, 0),
                             font=ImageFont.truetype(FONT, 28))
    src = tmp_path / "card.png"
    img.save(src)
    # the code's square (its light modules too): a code is hidden whole, not by its dark modules
    code = np.asarray(img.convert("L"))[710:855, 510:655]
    assert (code < 128).sum() > 1000 and (code > 200).sum() > 1000
    assert main(["redact", str(src), "--out", str(tmp_path / "a"), "--no-verify"]) == 0
    out = np.asarray(Image.open(tmp_path / "a" / "card.redacted.png").convert("L"))[710:855, 510:655]
    assert (out < 60).all()
    records = [json.loads(x) for x in (tmp_path / "a" / "card.boxes.jsonl").read_text().splitlines()]
    assert "ONLINE_ID" in {p["type"] for p in records[0]["predictions"]}
    assert "8842-1177" not in (tmp_path / "a" / "card.boxes.jsonl").read_text()
    assert main(["redact", str(src), "--out", str(tmp_path / "b"), "--no-verify", "--visual", "none"]) == 0
    out = np.asarray(Image.open(tmp_path / "b" / "card.redacted.png").convert("L"))[710:855, 510:655]
    assert (out > 200).sum() > 1000


def test_a_name_read_from_a_signatures_cursive_gives_way_to_the_signature():
    """OCR read a signature's cursive as letters and the NER model tagged them PERSON
    ("CJasat Whaeo" over a signature, real dev funsd-89386032): inside the signature's box,
    every word unsure, the name box goes; a typed name under the signature, read sure, and
    a name outside any signature box stay."""
    from redactor.visual import names_read_from_cursive
    page = words(("CJasat", (406, 669, 520, 713), 31), ("Whaeo", (530, 675, 644, 710), 22),
                 ("William", (420, 720, 490, 734), 95), ("Iverson", (498, 720, 570, 734), 96),
                 ("Jones", (100, 100, 160, 114), 40))
    cursive = Redaction((406, 669, 644, 713), "PERSON", "CJasat Whaeo", 0.85, ("presidio",))
    typed = Redaction((420, 720, 570, 734), "PERSON", "William Iverson", 0.85, ("presidio",))
    other = Redaction((100, 100, 160, 114), "PERSON", "Jones", 0.85, ("presidio",))
    signature = Redaction((400, 660, 650, 738), "SIGNATURE", "", 0.9, ("signatures",))
    kept = names_read_from_cursive([cursive, typed, other], [signature], page)
    assert kept == [typed, other]
    assert names_read_from_cursive([cursive], [], page) == [cursive]
