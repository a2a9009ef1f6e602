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
    # a date written in by hand, and the signer's name typed under the signature
    assert registry.emits_of("visual", "signatures") == {"SIGNATURE", "DATE", "PERSON"}
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


def signing_page(label: str, label_at: tuple[int, int], line: tuple[int, int, int, int]) -> np.ndarray:
    """A confirmation's text, a signature label and the line to sign on, as a grey array."""
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    d.text((110, 140), "I confirm that the details given above are true and complete.", font=font, fill=0)
    d.text(label_at, label, font=font, fill=0)
    d.line(line, fill=0, width=2)
    return np.array(img)


@pytest.mark.parametrize("width, seed", [(300, 0), (220, 3)])
def test_signature_beside_label_is_boxed(ocr, width, seed):
    """All its ink hidden, with a margin small enough that a short signature's box still
    passes the contract's IoU 0.75 (a 0.4 h margin alone fails it)."""
    arr = signing_page("Signature:", (110, 700), (240, 722, 700, 722))
    gold = draw_signature(arr, 270, 715, width, 46, seed=seed)
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    sigs = [r for r in found if r.type == "SIGNATURE"]
    assert len(sigs) == 1
    box = sigs[0].bbox
    assert box[0] <= gold[0] and box[1] <= gold[1] and box[2] >= gold[2] and box[3] >= gold[3], (box, gold)
    assert iou(box, gold) >= 0.78, (box, gold)


def test_a_by_label_printed_large_and_read_with_the_hand_is_left_out_of_its_box():
    """ "6 By ____ KWS" on a FUNSD form: "By" printed three text heights tall, read unsure
    together with the initials after it ("By_@~v_" at 30); the box is the hand's only."""
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    body = "I confirm that the details given above are true and complete."
    d.text((110, 140), body, font=font, fill=0)
    big = ImageFont.truetype("/usr/share/fonts/truetype/freefont/FreeMono.ttf", 60)    # a typewriter's face
    d.text((300, 660), "By", font=big, fill=0)
    by = d.textbbox((300, 660), "By", font=big)
    d.line((by[2] + 10, 724, 760, 724), fill=0, width=2)
    arr = np.array(img)
    gold = draw_signature(arr, by[2] + 20, 718, 200, 46, seed=2)
    image = Image.fromarray(arr).convert("RGB")
    x = 110
    read = []
    for w in body.split():
        wd = font.getlength(w)
        read.append((w, (x, 142, x + wd, 162), 96))
        x += wd + font.getlength(" ")
    page = words(*read, ("By_@~v_", (by[0], min(by[1], gold[1]), gold[2], max(by[3], gold[3])), 30))
    sigs = [r for r in registry.create("visual", "signatures").find(image, page) if r.type == "SIGNATURE"]
    assert len(sigs) == 1 and sigs[0].bbox[0] > by[2] - 2 and iou(sigs[0].bbox, gold) >= 0.7, (sigs, by, gold)


def hand_date(arr, x: int, base: int, fig_h: int, text: str):
    """A date written by hand: figures in OpenCV's script face, each slash a pen stroke
    leaning forward over twice their height. Returns its ink box."""
    import cv2
    cx = x
    for ch in text:
        if ch == "/":
            cv2.line(arr, (int(cx + 0.9 * fig_h), int(base - 2.2 * fig_h)), (int(cx), int(base + 0.4 * fig_h)),
                     20, 2, cv2.LINE_AA)
            cx += int(0.9 * fig_h)
        elif ch == "|":     # an upright bar, as tall as a slash
            cv2.line(arr, (int(cx + 0.3 * fig_h), int(base - 2.2 * fig_h)), (int(cx + 0.3 * fig_h),
                     int(base + 0.4 * fig_h)), 20, 2, cv2.LINE_AA)
            cx += int(0.6 * fig_h)
        else:
            cv2.putText(arr, ch, (int(cx), int(base)), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, fig_h / 22.0, 20, 2,
                        cv2.LINE_AA)
            cx += int(0.75 * fig_h)
    top = int(base - 3 * fig_h)
    ys, xs = np.nonzero(arr[top:int(base + fig_h), x:int(cx + fig_h)] < 128)
    return (x + xs.min(), top + ys.min(), x + xs.max() + 1, top + ys.max() + 1)


def _signed_line(seed: int, dated: bool, written: str = "5/19/81"):
    arr = signing_page("Sponsor Signature", (110, 740), (110, 722, 800, 722))
    signature = draw_signature(arr, 130, 715, 300, 46, seed=seed)
    date = hand_date(arr, signature[2] + 14, 712, 20, written) if dated else None
    return Image.fromarray(arr).convert("RGB"), signature, date


@pytest.mark.parametrize("written", ["5/19/81", "10|13|87"])
def test_the_date_written_beside_a_signature_is_a_date_of_its_own(ocr, written):
    """"Signed and dated": a hand's "5/19/81" a few pixels after its signature on the line is
    cut from the signature by its slashes (as on the real dev scans' study reports), each
    part boxed as a reader sees it; so is one whose figures upright bars part ("10|13|87"
    after the initials on a real dev form, "10|10|75" beside an approval on an unseen one)."""
    image, signature, date = _signed_line(0, dated=True, written=written)
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert sorted(r.type for r in found) == ["DATE", "SIGNATURE"], found
    by_type = {r.type: r.bbox for r in found}
    assert iou(by_type["SIGNATURE"], signature) >= 0.7 and iou(by_type["DATE"], date) >= 0.7


@pytest.mark.parametrize("seed", range(4))
def test_a_signature_without_a_date_holds_none(ocr, seed):
    image, signature, _ = _signed_line(seed, dated=False)
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert [r.type for r in found] == ["SIGNATURE"], found


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


def _strokes(*xywh):
    return [(x, y, x + w, y + hh, area, lean) for x, y, w, hh, area, lean in xywh]


@pytest.mark.parametrize("h, comps, dated", [
    # "5/19/81" after a signature on a real FUNSD study report (pen strokes as measured)
    (10.0, _strokes((364, 886, 13, 32, 55, -0.99), (383, 886, 12, 31, 52, -0.98), (359, 895, 8, 5, 16, -0.83),
                    (354, 901, 10, 10, 36, -0.08), (391, 903, 7, 13, 38, -0.44), (398, 903, 4, 13, 22, -0.87),
                    (370, 904, 5, 12, 20, -0.92), (375, 905, 6, 11, 27, -0.25)), True),
    # a cursive capital's two long downstrokes and the flat bits of the line under them
    (10.0, _strokes((450, 847, 38, 72, 277, -0.91), (468, 844, 54, 75, 384, -0.92), (443, 919, 24, 8, 57, 0.07),
                    (489, 920, 6, 3, 8, 0.69), (508, 920, 25, 1, 25, 0.0)), False),
    # two short leaning strokes of a signature with specks beside them
    (8.6, _strokes((161, 874, 12, 19, 31, -0.98), (174, 871, 14, 20, 34, -0.95), (166, 878, 12, 12, 25, -0.95),
                   (221, 883, 3, 2, 4, -0.71), (187, 884, 2, 4, 4, -0.89)), False)])
def test_a_dates_slashes_and_figures_are_told_from_cursive(h, comps, dated):
    from redactor_plugins._signature_dates import date_run
    run = date_run(comps, h)
    assert (run is not None) == dated, run
    if dated:    # the date's box is all its strokes' (the 5's flag too small to count on its own)
        assert [min(c[k] for c in run) for k in (0, 1)] + [max(c[k] for c in run) for k in (2, 3)] == \
            [min(c[k] for c in comps) for k in (0, 1)] + [max(c[k] for c in comps) for k in (2, 3)]


def test_the_typed_title_under_a_signature_is_cut_off_its_box():
    """A notary's signature over "(Notary Public)" typed under the line (FUNSD): OCR reads
    "otary" and "Public", the bracket and the "N" stay unread strokes that join the
    signature's piece; the box is cut above the typed line and refitted to the hand's ink.
    A box whose unread ink runs on below the print (a notary's stamp) stays whole."""
    from redactor_plugins._signature_strokes import strokes_of
    from redactor_plugins.visual_common import ink_of
    from redactor_plugins.visual_signatures import above_print
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    d.text((110, 140), "Subscribed and sworn to before me this 3rd day of May, 1989.", font=font, fill=0)
    d.text((360, 730), "(Notary Public)", font=font, fill=0)
    arr = np.array(img)
    signature = draw_signature(arr, 330, 718, 300, 46, seed=0)
    x = 360 + font.getlength("(N")
    read = [WordBox("otary", (x, 732, x + font.getlength("otary"), 752), 96.0, 1),
            WordBox("Public", (360 + font.getlength("(Notary "), 732, 360 + font.getlength("(Notary Public"), 752),
                    96.0, 1),
            WordBox("Subscribed", (110, 142, 230, 162), 96.0, 0), WordBox("sworn", (280, 142, 345, 162), 96.0, 0)]
    s = strokes_of(ink_of(arr), read, 20.0)
    whole = (320.0, 664.0, 640.0, 756.0)
    cut = above_print(s, whole, read)
    assert cut[3] < 740 and iou(cut, signature) >= 0.7 > iou(whole, signature), (cut, signature)
    # unread ink under the print as well: left whole
    ImageDraw.Draw(img).text((360, 760), "Qualified in Kings County", font=font, fill=0)
    arr2 = np.array(img)
    draw_signature(arr2, 330, 718, 300, 46, seed=0)
    s2 = strokes_of(ink_of(arr2), read, 20.0)
    assert above_print(s2, (320.0, 664.0, 640.0, 790.0), read) == (320.0, 664.0, 640.0, 790.0)


def test_a_stroke_above_the_typed_title_keeps_the_tail_it_drops_beside_it():
    """A capital's stroke that drops past the typed title, left of it ("Joseph" over
    "(Notary or other officer)"): the box cut above the print keeps the whole stroke."""
    from redactor_plugins._signature_strokes import strokes_of
    from redactor_plugins.visual_common import ink_of
    from redactor_plugins.visual_signatures import above_print
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    d.text((360, 730), "(Notary Public)", font=font, fill=0)
    d.line([(345, 684), (345, 752), (335, 760)], fill=0, width=3)      # the J's stem and hook
    arr = np.array(img)
    draw_signature(arr, 350, 700, 280, 40, seed=1)
    read = [WordBox("(Notary", (360, 732, 360 + font.getlength("(Notary"), 752), 96.0, 1),
            WordBox("Public)", (360 + font.getlength("(Notary "), 732, 360 + font.getlength("(Notary Public)"), 752),
                    96.0, 1)]
    s = strokes_of(ink_of(arr), read, 20.0)
    cut = above_print(s, (320.0, 664.0, 660.0, 770.0), read)
    assert cut[3] >= 760 and cut[0] <= 334, cut


def test_an_upright_bar_parts_figures_only_where_it_stands_taller_than_them():
    """The stem of a capital "I" in large print ("RICHLAND" on a real dev form, read by no
    signature label's side) is as tall as the capitals round it: no date's bar."""
    from redactor_plugins._signature_dates import date_run
    h = 10.0

    def comp(x, w, top, tall):       # (x0, y0, x1, y1, area, lean)
        return (x, top, x + w, top + tall, w * tall // 3, 0.0)
    figures = [comp(0, 8, 10, 9), comp(10, 7, 10, 9), comp(30, 8, 10, 9), comp(40, 8, 10, 9),
               comp(60, 8, 10, 9), comp(70, 8, 10, 9)]
    bars = [comp(22, 2, 3, 20), comp(52, 2, 3, 20)]
    assert date_run(figures + bars, h) is not None          # 10|13|87
    capitals = [comp(0, 14, 0, 20), comp(30, 14, 0, 20), comp(60, 14, 0, 20)]
    assert date_run(capitals + [comp(20, 3, 0, 20), comp(50, 3, 0, 20)], h) is None   # R I C I H
