"""Tests of the tesseract OCR backend with the real Tesseract binary on pages rendered here:
known words come back with boxes over their ink, in the pixel space of the image given,
also for sideways, skewed, low-resolution and upscaled pages; failures are typed."""
from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor_plugins.tesseract_ocr import TesseractOcr
from redactor import registry
from redactor.errors import InputError, PluginFailed, PluginUnavailable

os.environ.setdefault("OMP_THREAD_LIMIT", "1")
pytestmark = pytest.mark.skipif(TesseractOcr.unavailable_reason() is not None,
                                reason=str(TesseractOcr.unavailable_reason()))

FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
DATA = Path(__file__).resolve().parents[2] / "eval" / "data"
LINES = ["Patient Margaret Holloway", "Account 58213907 balance due",
         "Telephone 555 0142 extension 19", "Please remit payment promptly"]
KNOWN = {w for line in LINES for w in line.split()}


def render(font_px: int = 36):
    """A small page with known words; returns the image and each word's true box."""
    img = Image.new("RGB", (int(font_px * 26), int(font_px * 11)), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, font_px)
    truth = []
    for i, line in enumerate(LINES):
        x, y = font_px, font_px + i * int(font_px * 2.2)
        for word in line.split():
            draw.text((x, y), word, font=font, fill="black")
            truth.append((word, draw.textbbox((x, y), word, font=font), i))
            x += draw.textlength(word + " ", font=font)
    return img, truth


def transform(truth, image_size, angle):
    """True boxes after PIL's rotate(angle, expand=True) about the centre."""
    w, h = image_size
    a = np.radians(angle)
    c, s = np.cos(a), np.sin(a)
    rot_w = abs(w * c) + abs(h * s)
    rot_h = abs(w * s) + abs(h * c)
    out = []
    for word, (x0, y0, x1, y1), line in truth:
        pts = [(x, y) for x in (x0, x1) for y in (y0, y1)]
        tx = [c * (x - w / 2) + s * (y - h / 2) + rot_w / 2 for x, y in pts]
        ty = [-s * (x - w / 2) + c * (y - h / 2) + rot_h / 2 for x, y in pts]
        out.append((word, (min(tx), min(ty), max(tx), max(ty)), line))
    return out


def matched(page, truth, slack=4.0):
    """Known words read with the right text and a box centred on the true box."""
    hits = {}
    for word, (x0, y0, x1, y1), _ in truth:
        for wb in page.words:
            cx, cy = (wb.bbox[0] + wb.bbox[2]) / 2, (wb.bbox[1] + wb.bbox[3]) / 2
            if wb.text.strip(".,") == word and x0 - slack <= cx <= x1 + slack \
                    and y0 - slack <= cy <= y1 + slack:
                hits[word] = wb
                break
    return hits


def assert_boxes_in_page(page, image):
    assert (page.width, page.height) == image.size
    for wb in page.words:
        x0, y0, x1, y1 = wb.bbox
        assert 0 <= x0 < x1 <= page.width and 0 <= y0 < y1 <= page.height


@pytest.fixture(scope="module")
def ocr():
    return TesseractOcr()


def test_registered_under_its_entry_point():
    assert registry.plugin_class("ocr", "tesseract") is TesseractOcr


def test_reads_known_words_with_boxes_over_the_ink(ocr):
    image, truth = render()
    page = ocr.read(image)
    assert page.engine == "tesseract" and page.version.startswith("5.")
    assert_boxes_in_page(page, image)
    hits = matched(page, truth)
    assert len(hits) >= len(truth) - 1
    gray = np.asarray(image.convert("L"))
    for wb in hits.values():
        x0, y0, x1, y1 = (int(round(v)) for v in wb.bbox)
        region = gray[y0:y1, x0:x1]
        assert (region < 100).mean() > 0.08          # the box sits on printed strokes
        assert 0 <= wb.conf <= 100
    # Line ids group the words of a printed line, and lines differ.
    by_line = {}
    for word, _, line in truth:
        if word in hits:
            by_line.setdefault(line, set()).add(hits[word].line)
    assert all(len(ids) == 1 for ids in by_line.values())
    assert len({next(iter(ids)) for ids in by_line.values()}) == len(by_line)
    assert "Holloway\n" in page.text or "Holloway\n\n" in page.text


def test_page_turned_90_degrees_is_read_in_its_own_pixel_space(ocr):
    image, truth = render()
    turned = image.rotate(90, expand=True, fillcolor="white")
    page = ocr.read(turned)
    assert_boxes_in_page(page, turned)
    hits = matched(page, transform(truth, image.size, 90))
    assert len(hits) >= len(truth) - 2
    # Boxes of a sideways page are tall, like the words on it.
    assert all(wb.bbox[3] - wb.bbox[1] > wb.bbox[2] - wb.bbox[0] for w, wb in hits.items()
               if len(w) > 3)


def test_skewed_page_boxes_cover_the_skewed_words(ocr):
    image, truth = render()
    skewed = image.rotate(2.0, expand=True, resample=Image.BICUBIC, fillcolor="white")
    page = ocr.read(skewed)
    assert_boxes_in_page(page, skewed)
    assert len(matched(page, transform(truth, image.size, 2.0), slack=6)) >= len(truth) - 2


def test_low_resolution_page_is_upscaled_and_boxes_come_back(ocr):
    image, truth = render(36)
    small = image.resize((image.width // 3, image.height // 3), Image.LANCZOS)
    scaled_truth = [(w, tuple(v / 3 for v in b), ln) for w, b, ln in truth]
    page = ocr.read(small)
    assert_boxes_in_page(page, small)
    assert len(matched(page, scaled_truth, slack=2)) >= len(truth) - 2
    raw = TesseractOcr(scale=1.0, preprocess=False, orientation="off", reread=False).read(small)
    assert len(matched(raw, scaled_truth, slack=2)) <= len(matched(page, scaled_truth, slack=2))


def test_fixed_upscale_maps_boxes_back_to_the_given_pixels():
    image, truth = render(36)
    plain = TesseractOcr(scale=1.0, preprocess=False, orientation="off", reread=False).read(image)
    doubled = TesseractOcr(scale=2.0, preprocess=False, orientation="off", reread=False).read(image)
    assert_boxes_in_page(doubled, image)
    a, b = matched(plain, truth), matched(doubled, truth)
    common = set(a) & set(b)
    assert len(common) >= len(truth) - 2
    for word in common:
        assert b[word].bbox == pytest.approx(a[word].bbox, abs=3.0)


def test_empty_white_page_gives_no_words(ocr):
    page = ocr.read(Image.new("RGB", (400, 300), "white"))
    assert page.words == () and (page.width, page.height) == (400, 300)


def test_missing_binary_is_reported_not_raised(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    reason = TesseractOcr.unavailable_reason()
    assert reason == "tesseract not found on PATH: install Debian package tesseract-ocr"
    with pytest.raises(PluginUnavailable):
        registry.create("ocr", "tesseract")


def test_nonexistent_tesseract_cmd_is_unavailable():
    reason = TesseractOcr.unavailable_reason(tesseract_cmd="/nonexistent/bin/tesseract")
    assert reason and "not found" in reason and "tesseract-ocr" in reason
    with pytest.raises(PluginUnavailable, match="not found"):
        TesseractOcr(tesseract_cmd="/nonexistent/bin/tesseract")


def test_missing_language_pack_names_the_debian_package():
    reason = TesseractOcr.unavailable_reason(lang="eng+qqq")
    assert reason and "qqq" in reason and "tesseract-ocr-qqq" in reason
    with pytest.raises(PluginUnavailable):
        TesseractOcr(lang="qqq")


def test_timeout_becomes_plugin_failed():
    image, _ = render()
    with pytest.raises(PluginFailed, match="timed out"):
        TesseractOcr(timeout=0.001).read(image)


def fake_tesseract(tmp_path, action: str):
    """A stand-in binary that answers the availability checks and then runs ``action``."""
    fake = tmp_path / "tesseract"
    fake.write_text("#!/bin/sh\n"
                    "case \"$1\" in\n"
                    "  --list-langs) echo 'List of available languages (2):'; echo eng; echo osd;;\n"
                    "  --version) echo 'tesseract 5.3.0';;\n"
                    f"  *) {action};;\n"
                    "esac\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    return str(fake)


def test_tesseract_run_over_the_page_budget_is_killed_and_reported(tmp_path):
    ocr = TesseractOcr(tesseract_cmd=fake_tesseract(tmp_path, "exec sleep 30"), timeout=1.0,
                       orientation="off")
    image, _ = render()
    with pytest.raises(PluginFailed, match="timed out: page took over 1 s"):
        ocr.read(image)


def test_tesseract_error_becomes_one_line_plugin_failed(tmp_path):
    cmd = fake_tesseract(tmp_path, "echo 'Error: broken page' >&2; echo 'second line' >&2; exit 1")
    ocr = TesseractOcr(tesseract_cmd=cmd, orientation="off", reread=False)
    image, _ = render()
    with pytest.raises(PluginFailed) as err:
        ocr.read(image)
    assert "broken page" in str(err.value) and "\n" not in str(err.value)


def test_fingerprint_names_version_and_options():
    a, b = TesseractOcr(), TesseractOcr(psm=11)
    assert a.fingerprint().startswith("tesseract 5.")
    assert "psm=3" in a.fingerprint() and a.fingerprint() != b.fingerprint()


def test_explicit_orientation_turns_the_page_without_detection():
    image, truth = render()
    turned = image.rotate(90, expand=True, fillcolor="white")     # text now runs upwards
    page = TesseractOcr(orientation=90, reread=False).read(turned)
    assert len(matched(page, transform(truth, image.size, 90))) >= len(truth) - 2


def test_reread_reads_crops_back_into_page_coordinates():
    image, truth = render(36)
    ocr = TesseractOcr(reread=True)
    page = ocr.read(image)
    assert_boxes_in_page(page, image)
    assert len(matched(page, truth)) >= len(truth) - 1
    # The crop reader alone: regions around two known words come back on those words.
    gray = np.asarray(image.convert("L"))
    wanted = [t for t in truth if t[0] in ("Holloway", "Telephone")]
    regions = [(b[0] - 10, b[1] - 10, b[2] + 10, b[3] + 10) for _, b, _ in wanted]
    per_region = ocr._read_crops(gray, regions, 26.0, 300, deadline=time.monotonic() + 60)
    for (word, (x0, y0, x1, y1), _), found in zip(wanted, per_region):
        texts = [w.text for w in found]
        assert word in texts
        box = found[texts.index(word)].box
        assert box == pytest.approx((x0, y0, x1, y1), abs=4.0)


def test_fax_resolution_is_made_square_and_boxes_stay_in_fax_pixels(ocr):
    image, truth = render(40)
    fx, fy = 204 / 300, 98 / 300
    fax = image.resize((round(image.width * fx), round(image.height * fy)), Image.LANCZOS)
    fax = fax.convert("1").convert("RGB")
    fax.info["dpi"] = (204, 98)                  # as Pillow reports a fax TIFF
    sx, sy = fax.width / image.width, fax.height / image.height
    squashed = [(w, (b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy), ln) for w, b, ln in truth]
    page = ocr.read(fax)
    assert_boxes_in_page(page, fax)
    assert len(matched(page, squashed, slack=2)) >= len(truth) - 3


def render_reverse_video_header(font_px: int = 30):
    """A form section header, white on dark gray, with a claim number in it, above a line
    of dark text; returns the image and the header words' true boxes."""
    img = Image.new("RGB", (font_px * 34, font_px * 8), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, font_px)
    draw.rectangle([font_px // 2, font_px, img.width - font_px // 2, font_px * 3], fill=(40, 40, 40))
    truth = []
    x, y = font_px, int(font_px * 1.45)
    for word in "SECTION 2 EMPLOYER Claim No. ZX-4702682".split():
        draw.text((x, y), word, font=font, fill="white")
        truth.append((word, draw.textbbox((x, y), word, font=font), 0))
        x += draw.textlength(word + " ", font=font)
    draw.text((font_px, font_px * 4), "Employer Hawkins Group since 2019", font=font, fill="black")
    return img, truth


@pytest.mark.parametrize("options", [{}, {"try_inverted": False}])
def test_white_on_dark_header_is_read_in_place(options):
    image, truth = render_reverse_video_header()
    page = TesseractOcr(**options).read(image)
    assert_boxes_in_page(page, image)
    hits = matched(page, truth)
    assert "ZX-4702682" in hits and len(hits) >= len(truth) - 1
    assert "Hawkins" in page.text


def test_speed_options_are_validated_and_named_in_the_fingerprint():
    with pytest.raises(InputError, match="target_height"):
        TesseractOcr(target_height=4)
    with pytest.raises(InputError, match="try_inverted"):
        TesseractOcr(try_inverted="maybe")
    # Both change the words read, so both are part of the OCR cache key.
    prints = {TesseractOcr(target_height=t, try_inverted=i).fingerprint()
              for t in (20, 30) for i in (True, False)}
    assert len(prints) == 4


def dotted(image, keep: float = 0.35, seed: int = 0):
    """Faint ink as a 1-bit copier dithers it: of each stroke only a scatter of 2x2 dots is
    left, so no letter is one connected shape any more."""
    gray = np.asarray(image.convert("L"))
    rng = np.random.default_rng(seed)
    h, w = gray.shape
    dots = np.kron(rng.random((h // 2 + 1, w // 2 + 1)) < keep, np.ones((2, 2), bool))[:h, :w]
    out = np.full_like(gray, 255)
    out[(gray < 128) & dots] = 0
    return Image.fromarray(out).convert("RGB")


def test_page_of_broken_strokes_is_read_again_with_the_strokes_repaired():
    image, truth = render(30)
    broken = dotted(image, keep=0.5)
    page = TesseractOcr().read(broken)
    assert_boxes_in_page(page, broken)
    plain = TesseractOcr(join_broken=False, repair=False).read(broken)
    fixed, before = len(matched(page, truth)), len(matched(plain, truth))
    # As given, Tesseract reads the dots as noise; the repaired second read has words
    # with their boxes on the printed ones.
    assert fixed >= before + 3


class CountingOcr(TesseractOcr):
    """The backend as it is, noting the size of every image it hands Tesseract."""

    def __init__(self, **options):
        super().__init__(**options)
        self.reads, self.pixels = [], []

    def _read_words(self, img, psm, dpi, deadline):
        self.reads.append(img.shape)
        self.pixels.append(hash(img.tobytes()))
        return super()._read_words(img, psm, dpi, deadline)


def test_page_of_specks_is_read_repaired_first():
    from redactor_eval.dataset import load_dataset

    pages = {p.page_id: p for p in load_dataset(DATA / "challenge" / "pages.jsonl")}
    # doc-0001 and oth-0004: faint print a 1-bit copier broke into dots (over half the
    # ink's components are specks); inv-0002: a noisy scan of solid print (under a tenth)
    for page_id, at_once_expected in (("doc-0001", True), ("oth-0004", True), ("inv-0002", False)):
        image = Image.open(pages[page_id].image)
        at_once, after = CountingOcr(), CountingOcr(repair_first="off")
        page, before = at_once.read(image), after.read(image)
        # Read as given first, the dotted pages kept their repaired read: the same words
        # and boxes come from the repaired read first. Their repaired reads are weak, so
        # the page as it is is read too and weighed against them (it loses): no read is
        # saved on them any more, and none is added. Solid print reads as before.
        assert [(w.text, w.bbox) for w in page.words] == [(w.text, w.bbox) for w in before.words]
        assert len(at_once.reads) == len(after.reads), page_id
        # the first image read is the repaired page on the dotted pages only
        assert (at_once.pixels[0] != after.pixels[0]) == at_once_expected, page_id
    with pytest.raises(InputError, match="repair_first"):
        TesseractOcr(repair_first=2)
    assert TesseractOcr(repair_first="off").fingerprint() != TesseractOcr().fingerprint()


def dusted(image, specks: int, seed: int = 0):
    """Clean print under toner dust: single dark pixels scattered over the page (a photocopy
    of a clean form), so most of the ink's components are specks."""
    gray = np.asarray(image.convert("L")).copy()
    rng = np.random.default_rng(seed)
    gray[rng.integers(0, gray.shape[0], specks), rng.integers(0, gray.shape[1], specks)] = 0
    return Image.fromarray(gray).convert("RGB")


def test_clean_print_under_dust_is_read_as_it_is_when_the_repair_smudges_it():
    from redactor_plugins._scan_cleanup import fragment_share

    image, truth = render(12)
    dusty = dusted(image, 300)
    assert fragment_share(np.asarray(dusty.convert("L"))) > 0.5   # read repaired first
    ocr = CountingOcr()
    page = ocr.read(dusty)
    # The repair joins the dust and the small print into blobs Tesseract reads nothing
    # in; the page read as it is, weighed against that, gives the words back (the repaired
    # read alone found none of them).
    assert len(matched(page, truth)) >= 10
    assert ocr.reads[0] == ocr.reads[1]        # two full-page reads: repaired, then plain


def test_a_crop_read_again_is_never_enlarged_past_the_page_width():
    # A region as wide as the page but only a few pixels tall (fine print, or a row of
    # specks) asks for the largest enlargement; wider than the page at REREAD_SCALE it is
    # not: the canvas of such crops once reached 18000 px across (185 Mpx) on a 42 Mpx page.
    from redactor_plugins.tesseract_ocr import REREAD_SCALE

    image, _ = render(12)
    work = np.asarray(image.convert("L"))
    h, w = work.shape
    ocr = CountingOcr()
    boxes = [(0, 40, w, 52), (w / 4, 80, w / 2, 92)]
    ocr._read_crops(work, boxes, th=10.0, dpi=200, deadline=time.monotonic() + 60)
    (canvas_h, canvas_w), = ocr.reads
    gap = int(10.0 * REREAD_SCALE)
    assert canvas_w <= REREAD_SCALE * w + 2 * gap + 1
    # the narrower crop is still enlarged for its small text, past REREAD_SCALE
    assert canvas_h > gap * 3 + REREAD_SCALE * 2 * (52 - 40) + 5


def test_upright_page_read_only_in_part_is_read_again_repaired():
    # oth-0004 of the committed challenge set: a faint, broken scan whose few solid words
    # read well, so it reads upright and is no weak read; its values did not read at all
    from redactor_eval.attribution import recoverable_flags
    from redactor_eval.dataset import load_dataset
    from redactor_eval.metrics import prepare_page
    from redactor_plugins.tesseract_ocr import _reads_upright, _reads_well

    gold = next(p for p in load_dataset(DATA / "challenge" / "pages.jsonl") if p.page_id == "oth-0004")
    image = Image.open(gold.image)
    # the crop re-reads of revision 7 recover one of the values on their own: off here, to
    # see what the repaired read does
    alone = {"reread_unsure": False, "read_unread": False}
    plain = TesseractOcr(repair=False, **alone).read(image)
    assert _reads_upright(list(plain.words)) and not _reads_well(list(plain.words))
    page = TesseractOcr(**alone).read(image)
    assert_boxes_in_page(page, image)

    def readable(p):
        flags = recoverable_flags(prepare_page(gold, None), p.words)
        return {a.value for f, a in zip(flags, gold.annotations) if f and a.critical}
    assert readable(page) - readable(plain) >= {"373-819-9267", "5651-897403"}


def test_stroke_options_are_validated_and_named_in_the_fingerprint():
    for name in ("join_broken", "repair", "find_tables"):
        with pytest.raises(InputError, match=name):
            TesseractOcr(**{name: "maybe"})
        assert TesseractOcr(**{name: False}).fingerprint() != TesseractOcr().fingerprint()


def test_big_text_is_read_shrunk_with_boxes_in_the_given_pixels():
    image, truth = render(72)
    page = TesseractOcr().read(image)
    assert_boxes_in_page(page, image)
    hits = matched(page, truth)
    assert len(hits) >= len(truth) - 1
    full = TesseractOcr(shrink_above="off").read(image)
    assert "shrink_above=None" in TesseractOcr(shrink_above="off").fingerprint()
    same = matched(full, truth)
    common = set(hits) & set(same)
    assert len(common) >= len(truth) - 2
    for word in common:
        # Read at under half the size, mapped back: the boxes agree within a few pixels.
        assert hits[word].bbox == pytest.approx(same[word].bbox, abs=8.0)
    with pytest.raises(InputError, match="shrink_above"):
        TesseractOcr(shrink_above=5)


def test_lines_run_together_beside_a_bigger_column_are_read_again():
    # A generated invoice (inv-0040 of the 500-page set, seed 0): its bank details in small
    # print beside the totals in big type. Tesseract took "ABA/Routing" and "Account No."
    # for one line and returned one unsure word as tall as both; both numbers were lost.
    image = Image.open(Path(__file__).parent / "pages" / "invoice-merged-lines.jpg")
    plain = TesseractOcr(split_merged=False).read(image)
    page = TesseractOcr().read(image)
    assert_boxes_in_page(page, image)
    texts = {w.text for w in page.words}
    assert not {"070742848", "958565970"} & {w.text for w in plain.words}
    assert {"070742848", "958565970"} <= texts
    # Each number stays on one line with its own label, as the rules detector needs.
    by_text = {w.text: w for w in page.words}
    assert by_text["958565970"].line == by_text["Account"].line != by_text["070742848"].line
    assert TesseractOcr(split_merged=False).fingerprint() != TesseractOcr().fingerprint()
    with pytest.raises(InputError, match="split_merged"):
        TesseractOcr(split_merged="maybe")


def test_unsure_words_are_read_again_on_their_own_crops():
    # A generated invoice (inv-0336 of the 500-page set, seed 0): "Invoice No.  80-91502"
    # in plain print under the title came back as "Ueto" (conf 0) and "Ee" (37); the number
    # was lost. Each word read alone, enlarged, comes back right and sure.
    image = Image.open(Path(__file__).parent / "pages" / "invoice-unsure-words.png")
    plain = TesseractOcr(reread_unsure=False).read(image)
    page = TesseractOcr().read(image)
    assert_boxes_in_page(page, image)
    def at_value(p):   # the words over the value, right of its label (the number repeats lower down)
        return [w for w in p.words if w.bbox[1] < 250 < w.bbox[3] and w.bbox[0] > 1150]

    assert [w.text for w in at_value(plain)] != ["80-91502"]
    [value] = at_value(page)
    assert value.text == "80-91502" and value.conf >= 80
    # the value stays on its label's line, as the rules detector needs
    label = next(w for w in page.words if w.text == "Invoice" and w.bbox[1] < 250 < w.bbox[3])
    assert value.line == label.line
    assert TesseractOcr(reread_unsure=False).fingerprint() != TesseractOcr().fingerprint()
    with pytest.raises(InputError, match="reread_unsure"):
        TesseractOcr(reread_unsure="sometimes")


def test_the_library_engine_reads_the_same_words_as_the_binary():
    image = Image.open(Path(__file__).parent / "pages" / "invoice-unsure-words.png")
    lib, cli = TesseractOcr(engine="library"), TesseractOcr(engine="cli")
    assert "engine=library" in lib.describe() and "engine=cli" in cli.describe()
    assert lib.fingerprint() == cli.fingerprint()   # one OCR cache for both
    a, b = lib.read(image), cli.read(image)
    assert len(a.words) > 100
    assert [(w.text, w.bbox, w.conf, w.line) for w in a.words] == \
        [(w.text, w.bbox, w.conf, w.line) for w in b.words]
    with pytest.raises(InputError, match="engine"):
        TesseractOcr(engine="gpu")


def test_the_library_engine_stops_at_the_page_timeout():
    image = Image.open(Path(__file__).parent / "pages" / "invoice-unsure-words.png")
    with pytest.raises(PluginFailed, match="timed out"):
        TesseractOcr(engine="library", timeout=0.3).read(image)


def test_a_row_tesseract_split_in_two_lines_is_one_line_again():
    # A generated invoice (inv-0406 of the 500-page set, seed 0): Tesseract ended a line
    # after "8899 Emma" (read "3899 Emma") and put "Highway" (taller: its descenders) on a line of its own, so
    # the street no longer read as one; the rules detector then found only the city line.
    from redactor_plugins.rules_detector import RulesDetector
    image = Image.open(Path(__file__).parent / "pages" / "invoice-split-row.png")
    page = TesseractOcr().read(image)
    emma = next(w for w in page.words if w.text == "Emma")
    highway = next(w for w in page.words if w.text == "Highway")
    assert emma.line == highway.line and emma.block == highway.block
    spans = {(s.type, s.text) for s in RulesDetector().detect(page)}
    assert any(t == "ADDRESS" and v.endswith("Emma Highway") for t, v in spans)


def test_inked_rows_where_nothing_was_read_are_read_on_their_own():
    # A generated message slip (oth-0090 of the 500-page set, seed 0): the faint, dithered
    # row with the caller's name came back empty from the page read; read as an inked
    # region of its own, the name is there, sure.
    image = Image.open(Path(__file__).parent / "pages" / "faint-row-unread.png")
    x0, y0, x1, y1 = 483, 758, 824, 778     # the gold box of the name

    def at_name(p):
        return [w for w in p.words if w.bbox[0] < x1 and w.bbox[2] > x0 and w.bbox[1] < y1 and w.bbox[3] > y0]

    assert at_name(TesseractOcr(read_unread=False).read(image)) == []
    page = TesseractOcr().read(image)
    assert_boxes_in_page(page, image)
    got = at_name(page)
    assert [w.text for w in got] == ["Jessica", "Hutchinson"] and min(w.conf for w in got) >= 50
    assert TesseractOcr(read_unread=False).fingerprint() != TesseractOcr().fingerprint()
    with pytest.raises(InputError, match="read_unread"):
        TesseractOcr(read_unread="often")
    with pytest.raises(InputError, match="join_lines"):
        TesseractOcr(join_lines="often")


def test_the_cells_of_a_form_row_split_into_lines_are_one_line_again():
    # A crop of a generated form (frm-0473 of the 500-page set, seed 0): Tesseract returned
    # the social security number's comb cells "759" | "[29" | "8904" (and the row's other
    # cells) as separate lines out of reading order, so the value under the caption was
    # one cell of it ("29").
    from redactor_plugins.rules_detector import RulesDetector
    image = Image.open(Path(__file__).parent / "pages" / "form-row-cells.png")

    def ssn_parts(p):
        return [w for w in p.words if w.text in ("759", "8904")]

    split = TesseractOcr(join_lines=False).read(image)
    assert len({w.line for w in ssn_parts(split)}) == 2
    page = TesseractOcr().read(image)
    assert_boxes_in_page(page, image)
    parts = ssn_parts(page)
    assert len(parts) == 2 and len({w.line for w in parts}) == 1
    row = [w for w in page.words if w.line == parts[0].line]
    assert [w.bbox[0] for w in row] == sorted(w.bbox[0] for w in row)   # left to right
    # the caption's line stays apart
    assert not any(w.text == "SOCIAL" and w.line == parts[0].line for w in page.words)
    ids = [s.text for s in RulesDetector().detect(page) if s.type == "ID_NUMBER"]
    assert any(t.startswith("759") and t.endswith("8904") for t in ids), ids


def test_long_lines_side_by_side_and_cells_with_text_between_stay_apart():
    from redactor_plugins.tesseract_ocr import _join_row_parts, _Word

    def line(key, x, texts, y=100, h=20):
        out = []
        for t in texts:
            out.append(_Word(t, (x, y, x + 12 * len(t), y + h), 90.0, (key,), (key,)))
            x += 12 * len(t) + 10
        return out

    # two columns of prose at one height: neither line is a cell of the other
    prose = line(1, 20, ["the", "figures", "below", "are", "final"]) + \
        line(2, 700, ["as", "noted", "before", "in", "the", "review"])
    assert _join_row_parts(prose) == prose
    # a short line with another line's word between it and the row (a title three times
    # as tall, centred on the same height) stays a line of its own
    apart = line(1, 20, ["Invoice", "No.", "123"]) + line(2, 400, ["INVOICE"], y=80, h=60) + \
        line(3, 900, ["Page", "2"], y=101)
    joined = _join_row_parts(apart)
    assert {w.line_key for w in joined if w.text == "Page"} != {w.line_key for w in joined if w.text == "Invoice"}
    # a cell beside the row, nothing between, joins it, left to right
    cells = line(1, 300, ["New", "Danielview"]) + line(2, 20, ["059", "Krystal"], y=103) + \
        line(3, 700, ["WA"], y=98)
    joined = _join_row_parts(cells)
    assert len({w.line_key for w in joined}) == 1
    assert [w.text for w in joined] == ["059", "Krystal", "New", "Danielview", "WA"]


def _copy_list_page():
    """A memo's copy list typed in a monospaced face, two initials and a surname a line,
    with rules between the entries (as on a FUNSD fax cover), and the ink box of each
    line's surname."""
    font = ImageFont.truetype("/usr/share/fonts/truetype/freefont/FreeMono.ttf", 22)
    image = Image.new("L", (1000, 420), 255)
    draw = ImageDraw.Draw(image)
    names = ["R. B. Spell", "A. J. Giacoio", "P. J. McCann", "S. L. Enloe", "T. L. Achey"]
    boxes = {}
    for i, name in enumerate(names):
        y = 60 + 34 * i
        draw.text((300, y), name, font=font, fill=0)
        surname = name.split()[-1]
        boxes[surname] = draw.textbbox((300 + draw.textlength(name[:-len(surname)], font=font), y), surname,
                                       font=font)
        if i in (0, 2, 4):
            draw.line((100, y + 28, 900, y + 28), fill=0, width=2)
    return image, boxes


def test_a_block_read_as_vertical_text_is_read_again_across():
    """A copy list's column of initials taken for text running down: Tesseract returned the
    block as unsure fragments taller than wide ("Hal", "rela", "aie") and the surnames
    beside them not at all (real FUNSD form 92657391: 5 names lost). The block, grown over
    the unread ink beside it, is read again as lines across; each name comes back on a
    line of its own."""
    from redactor_plugins._tesseract_regions import _vertical_regions, with_unread_beside
    from redactor_plugins._tesseract_words import _Word

    image, surnames = _copy_list_page()
    gray = np.asarray(image)
    # the fragments as read on the real form, put over this page's initials column
    # (text, box, confidence, the vertical "line" Tesseract put it on: one ran down the column)
    frags = [("Hal", (302, 58, 318, 205), 48, 16), ("in", (300, 56, 326, 88), 31, 16),
             (">", (306, 98, 330, 112), 65, 16), ("Fhe", (330, 60, 338, 110), 29, 17),
             ("fe", (306, 150, 334, 168), 43, 17), ("ee", (322, 170, 328, 205), 34, 17),
             ("rela", (336, 130, 366, 215), 23, 18), ("aie", (336, 58, 366, 108), 23, 18),
             ("lee", (346, 110, 376, 160), 1, 19)]
    words = [_Word(t, b, c, ("b", 1, line), ("b", 1)) for t, b, c, line in frags]
    line_h = 26.0
    vertical = _vertical_regions(words, line_h)
    assert len(vertical) == 1
    # the unread surnames beside the column join its region; unread ink elsewhere stays apart
    beside, apart = [372.0, 55.0, 520.0, 210.0], [700.0, 300.0, 800.0, 330.0]
    assert with_unread_beside(vertical, [beside, apart]) == [apart]
    assert vertical[0][2] >= 520.0
    ocr = TesseractOcr()
    out = ocr._read_regions_again(gray, words, [(vertical[0], "vertical")], line_h, 22.0, 300,
                                  time.monotonic() + 60)
    texts = [w.text for w in out]
    assert not {"Hal", "rela", "aie"} & set(texts)
    lines = {w.text: w.line_key for w in out}
    for surname in surnames:
        assert surname in lines, " ".join(f"{w.text}@{int(w.box[1])}" for w in out)
    # each name on a line of its own, its initials with it (the fragments' lines ran down)
    rows = {s: {w.text for w in out if w.line_key == lines[s]} for s in surnames}
    assert rows["Giacoio"] == {"A.", "J.", "Giacoio"} and rows["McCann"] == {"P.", "J.", "McCann"}, rows
    assert len({lines[s] for s in surnames}) == len(surnames)
    # a block read across, however unsure, is no vertical block
    across = [_Word(t, (300 + 60 * k, 60, 350 + 60 * k, 80), 40, ("b", 2, 0), ("b", 2))
              for k, t in enumerate(["Spell", "Giacoio", "McCann", "Enloe"])]
    assert _vertical_regions(across, line_h) == []


def test_an_unsure_word_beside_a_sure_one_is_kept_where_nothing_was_read():
    """A copy list's line under a rule, read only on its own crop: "ART" at 72 and its
    surname "ERICKSEN-" at 27 (a real FUNSD form). The surname is the line's text read
    worse, kept; unsure marks, or unsure words on a line of their own, are dirt."""
    from redactor_plugins._tesseract_regions import kept_where_unread
    from redactor_plugins._tesseract_words import _Word

    line, other = ("c", 1, 1), ("c", 1, 2)
    read = [_Word("ART", (36, 168, 58, 180), 72.0, line, ("c", 1)),
            _Word("ERICKSEN-", (62, 168, 131, 178), 27.0, line, ("c", 1)),
            _Word("~", (135, 168, 140, 178), 18.0, line, ("c", 1)),
            _Word("Oe", (36, 190, 50, 200), 0.0, other, ("c", 1)),
            _Word("Rakes", (60, 190, 110, 200), 30.0, other, ("c", 1))]
    assert [w.text for w in kept_where_unread(read)] == ["ART", "ERICKSEN-"]


def test_a_number_read_unsure_where_nothing_was_read_is_kept():
    """A small-print letterhead (a real FUNSD form): "TELEPHONE:" at 93 and its number
    "32-2-512-7890" at 42 on one line; "TELEFAX:(202)662-6291" alone at 44. A number beside
    its caption and a long number alone are kept; a short unsure one alone is dirt."""
    from redactor_plugins._tesseract_regions import kept_where_unread
    from redactor_plugins._tesseract_words import _Word

    a, b, c = ("c", 1, 1), ("c", 1, 2), ("c", 1, 3)
    read = [_Word("TELEPHONE:", (542, 285, 604, 293), 93.0, a, ("c", 1)),
            _Word("32-2-512-7890", (607, 286, 660, 293), 42.0, a, ("c", 1)),
            _Word("TELEFAX:(202)662-6291", (329, 258, 426, 268), 44.0, b, ("c", 1)),
            _Word("89-593", (329, 270, 380, 280), 41.0, c, ("c", 1)),
            _Word("12345678", (400, 270, 450, 280), 30.0, c, ("c", 1))]
    assert [w.text for w in kept_where_unread(read)] == ["TELEPHONE:", "32-2-512-7890", "TELEFAX:(202)662-6291"]


def test_a_word_read_as_one_character_over_a_words_width_is_read_again():
    """A letterhead's bold italic "401-277-2390" came back as '“7”?' at 0 (real FUNSD dev
    form 0001477983): one character, so it was taken for a speck and never read again, and
    the phone number was lost. Its box is as wide as a word: it is read again on its crop.
    A rule read as dashes or a speck stays a speck."""
    from redactor_plugins._tesseract_regions import _unsure_regions
    from redactor_plugins._tesseract_words import _Word

    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed-BoldItalic.ttf", 26)
    image = Image.new("L", (900, 200), 255)
    draw = ImageDraw.Draw(image)
    draw.text((40, 40), "Providence, Rhode Island 02903-1105", font=font, fill=0)
    draw.text((520, 100), "401-277-2390", font=font, fill=0)
    phone = draw.textbbox((520, 100), "401-277-2390", font=font)
    body = [_Word(t, (40 + 120 * k, 42, 150 + 120 * k, 66), 92.0, ("b", 1, 1), ("b", 1))
            for k, t in enumerate(["Providence,", "Rhode", "Island", "02903-1105"])]
    misread = _Word("“7”?", tuple(float(v) for v in phone), 0.0, ("b", 1, 2), ("b", 1))
    rule = _Word("----------", (40.0, 150.0, 400.0, 153.0), 0.0, ("b", 1, 3), ("b", 1))
    speck = _Word("a", (700.0, 150.0, 708.0, 158.0), 10.0, ("b", 1, 3), ("b", 1))
    line_h = 24.0
    [region] = _unsure_regions(body + [misread, rule, speck], line_h)
    assert region[0] < phone[0] < phone[2] < region[2] and region[1] < phone[1] < phone[3] < region[3]
    out = TesseractOcr()._read_regions_again(np.asarray(image), body + [misread], [(region, "unsure")],
                                             line_h, 24.0, 300, time.monotonic() + 60)
    assert "401-277-2390" in [w.text for w in out], [w.text for w in out]
