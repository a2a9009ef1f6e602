"""Tests of the OCR backends' scan clean-up and geometry (redactor_plugins._scan_cleanup,
_scan_geometry): geometry round trips, text-height and skew estimates, cleaning functions, on
images drawn here with Pillow and real fonts."""
from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor_plugins import _scan_cleanup as sc
from redactor_plugins import _scan_geometry as geo

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LINES = ["Invoice 20931 for Maria Gonzalez", "Account number 4417 1234 5678",
         "Payable within thirty days of receipt", "Questions: call the billing office",
         "Thank you for your business"]


def text_page(font_px: int = 32, size=(1200, 700)) -> np.ndarray:
    img = Image.new("L", size, 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, font_px)
    for i, line in enumerate(LINES):
        draw.text((40, 40 + i * int(font_px * 1.6)), line, font=font, fill=0)
    return np.asarray(img).copy()


def ink_bbox(gray: np.ndarray, thresh: int = 128):
    ys, xs = np.nonzero(gray < thresh)
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def test_rotate_quarters_maps_a_box_exactly_both_ways():
    img = np.full((300, 500), 255, np.uint8)
    img[40:90, 100:220] = 0
    box = (100, 40, 220, 90)
    for turns in range(4):
        out, m = geo.rotate_quarters(img, turns)
        assert tuple(float(v) for v in ink_bbox(out)) == geo.map_box(box, m, out.shape[1], out.shape[0])
        back = geo.map_boxes_back([ink_bbox(out)], m, 500, 300)[0]
        assert back == pytest.approx(box)


def test_rotate_small_angle_keeps_box_mapping_within_a_pixel():
    img = np.full((400, 600), 255, np.uint8)
    img[150:200, 200:400] = 0
    box = (200, 150, 400, 200)
    out, m = geo.rotate(img, 7.0)
    assert out.shape[0] > 400 and out.shape[1] > 600        # canvas grew, nothing cut
    predicted = geo.map_box(box, m, out.shape[1], out.shape[0])
    assert ink_bbox(out) == pytest.approx(predicted, abs=1.5)
    back = geo.map_boxes_back([ink_bbox(out)], m, 600, 400)[0]
    # The hull of a rotated box contains the original one.
    assert back[0] <= 201 and back[1] <= 151 and back[2] >= 399 and back[3] >= 199


def test_resize_and_compose_invert_round_trip():
    img = np.full((100, 160), 255, np.uint8)
    up, m1 = geo.resize(img, 2.5)
    assert up.shape == (250, 400)
    fax, m0 = geo.resize(img, 1.0, 2.08)
    assert fax.shape == (208, 160)
    assert geo.map_box((10, 10, 20, 20), m0, 160, 208) == pytest.approx((10, 20.8, 20, 41.6))
    turned, m2 = geo.rotate_quarters(up, 1)
    forward = geo.compose(m1, m2)
    box = (10.0, 20.0, 50.0, 30.0)
    there = geo.map_box(box, forward, turned.shape[1], turned.shape[0])
    assert geo.map_box(there, geo.invert(forward), 160, 100) == pytest.approx(box)


def test_map_box_clips_to_the_page():
    assert geo.map_box((-5, -5, 50, 700), geo.identity(), 100, 600) == (0.0, 0.0, 50.0, 600.0)


def test_text_height_follows_font_size_and_blank_page_has_none():
    small = sc.estimate_text_height(text_page(16, (700, 400)))
    large = sc.estimate_text_height(text_page(48, (1800, 1000)))
    assert small and large
    assert large / small == pytest.approx(3.0, rel=0.25)
    assert sc.estimate_text_height(np.full((300, 300), 255, np.uint8)) is None


def test_choose_scale_upscales_small_text_only():
    assert sc.choose_scale(10.0) == pytest.approx(sc.TARGET_TEXT_HEIGHT / 10.0)
    assert sc.choose_scale(10.0, target=30.0) == pytest.approx(3.0)
    assert sc.choose_scale(29.0, target=30.0) == 1.0
    assert sc.choose_scale(60.0) == 1.0
    assert sc.choose_scale(None) == 1.0
    assert sc.choose_scale(2.0) == 4.0
    assert sc.choose_scale(10.0, image_pixels=20_000_000, max_pixels=40_000_000) == pytest.approx(2 ** 0.5)


@pytest.mark.parametrize("angle", [-2.0, 1.5])
def test_estimate_skew_finds_the_angle_that_straightens(angle):
    page = Image.fromarray(text_page(30))
    skewed = np.asarray(page.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255))
    found = geo.estimate_skew(skewed)
    assert found == pytest.approx(-angle, abs=0.3)
    straight, _ = geo.rotate(skewed, found)
    assert abs(geo.estimate_skew(straight)) <= 0.3


def test_bilevel_detection_and_isolated_dots_removed():
    rng = np.random.default_rng(0)
    gray = text_page(30)
    assert not sc.is_bilevel(gray)                      # anti-aliased edges
    fax = np.where(gray < 128, 0, 255).astype(np.uint8)
    dots = rng.random(fax.shape) < 0.003
    fax[dots & (fax == 255)] = 0
    assert sc.is_bilevel(fax)
    cleaned = sc.remove_isolated_dots(fax)
    specks = dots & (gray >= 128)
    assert specks.sum() > 100
    assert (cleaned[specks] == 255).mean() > 0.9        # nearly every speck on paper is gone
    text = gray < 128
    assert (cleaned[text] == 0).mean() > 0.99          # strokes stay


def test_denoise_merges_dithering_and_leaves_gray_scans_alone():
    gray = text_page(30)
    assert sc.denoise(gray) is gray
    rng = np.random.default_rng(1)
    noisy = np.clip(gray + rng.normal(0, 20, gray.shape), 0, 255).astype(np.uint8)
    assert sc.denoise(noisy) is noisy
    # 50 % gray text dithered to 1 bit: dots become a solid mid-gray stroke.
    light = np.where(gray < 128, 128, 255).astype(np.uint8)
    dithered = np.asarray(Image.fromarray(light).convert("1").convert("L"))
    assert sc.is_bilevel(dithered)
    merged = sc.denoise(dithered)
    strokes = gray < 60
    assert np.std(merged[strokes].astype(float)) < 0.6 * np.std(dithered[strokes].astype(float))


def test_normalise_contrast_whitens_shaded_paper_and_darkens_faint_ink():
    gray = text_page(30).astype(np.float32) / 255.0
    h, w = gray.shape
    paper = 230 - 90 * np.linspace(0, 1, w)[None, :] * np.ones((h, 1))
    faint = (paper * gray + (paper - 70) * (1 - gray)).astype(np.uint8)
    out = sc.normalise_contrast(faint)
    ink = gray < 0.3
    assert np.median(out[~ink]) >= 240
    assert np.median(out[ink]) < 110
    # One global threshold now separates them everywhere, which it could not before.
    assert (out[ink] < 160).mean() > 0.9 and (out[~ink] >= 160).mean() > 0.98
    assert (faint[~ink] < 160).mean() > 0.2


def test_remove_rules_keeps_letters():
    gray = text_page(30)
    ruled = gray.copy()
    ruled[300:303, 20:1180] = 0
    ruled[20:680, 1150:1153] = 0
    out = sc.remove_rules(ruled, sc.estimate_text_height(gray))
    assert (out[300:303, 20:1180] > 200).mean() > 0.99
    assert (out[20:680, 1150:1153] > 200).mean() > 0.99
    text = gray < 128
    assert (out[text] < 128).mean() > 0.97


def test_unread_ink_regions_finds_only_uncovered_text():
    img = Image.new("L", (900, 300), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 32)
    draw.text((40, 40), "Covered words", font=font, fill=0)
    draw.text((40, 160), "Missed words", font=font, fill=0)
    draw.line([(20, 250), (880, 250)], fill=0, width=3)      # a rule is not text
    gray = np.asarray(img)
    covered = draw.textbbox((40, 40), "Covered words", font=font)
    missed = draw.textbbox((40, 160), "Missed words", font=font)
    regions = sc.unread_ink_regions(gray, [covered], sc.estimate_text_height(gray) or 24)
    assert regions
    x0, y0 = min(r[0] for r in regions), min(r[1] for r in regions)
    x1, y1 = max(r[2] for r in regions), max(r[3] for r in regions)
    assert x0 <= missed[0] and y0 <= missed[1] and x1 >= missed[2] and y1 >= missed[3]
    assert y0 > covered[3] and y1 < 245     # neither the read line nor the rule


def form_page(angle: float = 0.0, band: bool = True):
    """A form-like page: dark body text and, when ``band``, a white-on-dark section header
    with a reference in it; turned counter-clockwise by ``angle``. Returns the gray page,
    the header's letter mask and its ground mask (each turned with the page)."""
    img = Image.new("L", (1700, 1000), 255)
    letters = Image.new("L", img.size, 0)
    ground = Image.new("L", img.size, 0)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 30)
    draw.text((100, 100), "Claim for benefits, return to Human Resources", font=font, fill=0)
    if band:
        draw.rectangle([100, 200, 1600, 260], fill=40)
        ImageDraw.Draw(ground).rectangle([100, 200, 1600, 260], fill=255)
        for d, colour in ((draw, 255), (ImageDraw.Draw(letters), 255)):
            d.text((120, 212), "SECTION 2 - EMPLOYER  Claim No. ZX-4702682", font=font, fill=colour)
    for i, line in enumerate(LINES):
        draw.text((100, 320 + i * 60), line, font=font, fill=0)
    draw.rectangle([100, 640, 1600, 900], outline=0, width=3)     # a frame, not a band
    if angle:
        img, letters, ground = (im.rotate(angle, resample=Image.BICUBIC, expand=True,
                                          fillcolor=fill)
                                for im, fill in ((img, 255), (letters, 0), (ground, 0)))
    letters, ground = np.asarray(letters) > 128, np.asarray(ground) > 128
    return np.asarray(img).copy(), letters, ground & ~letters


@pytest.mark.parametrize("angle", [0.0, 1.7, 90.0])
def test_reverse_video_header_is_turned_dark_on_light(angle):
    gray, letters, ground = form_page(angle)
    mask = sc.reverse_video_mask(gray)
    assert mask is not None
    core = cv2.erode(ground.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    assert (mask[core] > 0).mean() > 0.95                  # the header band is found
    dark_text = (gray < 100) & ~cv2.dilate(ground.astype(np.uint8) | letters.astype(np.uint8),
                                           np.ones((9, 9), np.uint8)).astype(bool)
    assert (mask[dark_text] > 0).mean() < 0.01             # body text and frame are not
    out = sc.normalise_polarity(gray)
    inner = cv2.erode(letters.astype(np.uint8), np.ones((2, 2), np.uint8)) > 0
    assert np.median(out[inner]) < 90                      # letters are now ink
    assert np.median(out[core & ~inner]) > 200             # and the band is paper
    assert np.array_equal(out[dark_text], gray[dark_text])  # nothing else changed


def test_pages_without_reverse_video_are_left_as_they_are():
    gray, _, _ = form_page(band=False)
    page = Image.fromarray(gray)
    draw = ImageDraw.Draw(page)
    # A heavy headline whose letters touch (dark, elongated, light gaps between letters),
    # a solid black bar (a redaction) and a thick rule are not headers.
    draw.text((100, 10), "TRANSMITTAL", font=ImageFont.truetype(
        "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf", 80), fill=0, stroke_width=3)
    draw.rectangle([900, 100, 1500, 150], fill=0)
    draw.rectangle([100, 600, 1600, 608], fill=0)
    gray = np.asarray(page).copy()
    assert sc.reverse_video_mask(gray) is None
    assert sc.normalise_polarity(gray) is gray


def dotted(gray: np.ndarray, keep: float = 0.3, seed: int = 0) -> np.ndarray:
    """Faint ink as a 1-bit copier dithers it: of each stroke only a scatter of 2x2 dots
    is left, so no letter is one connected shape any more."""
    rng = np.random.default_rng(seed)
    h, w = gray.shape
    dots = np.kron(rng.random((h // 2 + 1, w // 2 + 1)) < keep, np.ones((2, 2), bool))[:h, :w]
    out = np.full_like(gray, 255)
    out[(gray < 128) & dots] = 0
    return out


def test_broken_strokes_are_joined_and_solid_strokes_left_alone():
    solid = text_page(32)
    true_h = sc.estimate_text_height(solid)
    broken = dotted(solid)
    frag_h = sc.estimate_text_height(broken)
    # The fragments measure as text a fraction of the real size: the page would be
    # upscaled several times over.
    assert frag_h < 0.5 * true_h
    joined, joined_h = sc.join_broken_strokes(broken, frag_h)
    assert joined.shape == broken.shape
    assert joined_h >= sc.BROKEN_STROKE_GAIN * frag_h
    same, same_h = sc.join_broken_strokes(solid, true_h)
    assert same is solid and same_h == true_h


def test_only_pages_whose_strokes_broke_into_dots_are_offered_the_joining():
    # small solid text (a clean render of a chart or a form at 150 dpi) is whole: the
    # joining blur would only smear it
    solid = text_page(14)
    assert sc.fragment_share(solid) < sc.FRAGMENT_SHARE
    assert sc.fragment_share(dotted(text_page(32))) >= sc.FRAGMENT_SHARE


def test_repair_strokes_closes_gaps_in_place():
    broken = dotted(text_page(48, (1800, 1000)), keep=0.45)
    repaired = sc.repair_strokes(broken, 20.0)
    assert repaired.shape == broken.shape and repaired.dtype == np.uint8
    n_before = cv2.connectedComponents((broken < 128).astype(np.uint8))[0]
    n_after = cv2.connectedComponents((repaired < 128).astype(np.uint8))[0]
    assert n_after < 0.5 * n_before
    # Nothing moves: the ink stays where the text was.
    x0, y0, x1, y1 = ink_bbox(broken)
    rx0, ry0, rx1, ry1 = ink_bbox(repaired)
    assert abs(rx0 - x0) <= 3 and abs(ry0 - y0) <= 3 and abs(rx1 - x1) <= 3 and abs(ry1 - y1) <= 3


def test_ink_tells_upright_from_turned_text_lines():
    # Eight lines of ordinary text at double spacing, as a letter or form holds.
    img = Image.new("L", (1300, 900), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 28)
    for i, line in enumerate(LINES + LINES[:3]):
        draw.text((40, 40 + i * 100), line, font=font, fill=0)
    page = np.asarray(img).copy()
    th = sc.estimate_text_height(page)
    upright = geo.upright_text_evidence(page, th)
    assert geo.looks_upright(upright) and not geo.looks_turned(upright)
    for turns in (1, 2, 3):
        turned = np.ascontiguousarray(np.rot90(page, turns))
        evidence = geo.upright_text_evidence(turned, th)
        assert geo.looks_turned(evidence) and not geo.looks_upright(evidence), (turns, evidence)
    # A blank page says nothing either way.
    blank = geo.upright_text_evidence(np.full((400, 400), 255, np.uint8), 20.0)
    assert not geo.looks_upright(blank) and not geo.looks_turned(blank)


def test_component_stats_are_opencvs_in_its_order_also_past_16_bit_labels():
    # a page of text (a few thousand components) and a speckled one (over 65535: OpenCV
    # refuses 16-bit labels there, and the 32-bit labelling must take over)
    page = np.full((900, 1400), 255, np.uint8)
    font = ImageFont.truetype(FONT, 22)
    img = Image.fromarray(page)
    d = ImageDraw.Draw(img)
    for row in range(25):
        d.text((20, 20 + 34 * row), "Invoice 4471-22 Mary O'Neil, 12 Elm St. " * 3, font=font, fill=0)
    text_mask = sc.merged_ink_mask(np.asarray(img))
    specks = np.zeros((700, 700), np.uint8)
    specks[::2, ::2] = 255
    for mask, many in ((text_mask, False), (specks, True)):
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        assert (n >= 65535) is many
        got_n, got_stats = sc.component_stats(mask)
        assert got_n == n
        assert np.array_equal(got_stats, stats)
