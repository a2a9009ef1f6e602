"""Ink fitting of redaction boxes, on text rendered with real fonts and boxes cut mid-glyph."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.errors import InputError
from redactor.gray import to_gray
from redactor.ink_boxes import fit_box, fit_boxes_to_ink, fit_redactions_to_ink, ink_components, own_band, rows_in
from redactor.model import Redaction, WordBox

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF = "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"


def _render_words(words, size=40, font_path=FONT, canvas=(900, 200), origin=(40, 60)):
    """Render words on one line; return the page, each word's own ink mask and its
    tight box (from the font's metrics)."""
    font = ImageFont.truetype(font_path, size)
    page = Image.new("L", canvas, 255)
    draw = ImageDraw.Draw(page)
    x, y = origin
    masks, boxes = [], []
    space = draw.textlength(" ", font=font)
    for w in words:
        draw.text((x, y), w, font=font, fill=0)
        alone = Image.new("L", canvas, 255)
        ImageDraw.Draw(alone).text((x, y), w, font=font, fill=0)
        m = np.asarray(alone) < 128
        masks.append(m)
        ys, xs = np.nonzero(m)
        boxes.append((float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)))
        x += draw.textlength(w, font=font) + space
    return np.asarray(page), masks, boxes


def _inside(mask, box):
    x0, y0, x1, y1 = box
    sub = np.zeros_like(mask)
    sub[int(np.floor(y0)):int(np.ceil(y1)), int(np.floor(x0)):int(np.ceil(x1))] = True
    return int((mask & sub).sum()), int(mask.sum())


@pytest.mark.parametrize("font_path", [FONT, SERIF])
def test_box_cut_mid_glyph_grows_to_whole_word_without_swallowing_neighbours(font_path):
    gray, masks, boxes = _render_words(["Total", "Jgpqy-4096", "Smith"], font_path=font_path)
    x0, y0, x1, y1 = boxes[1]
    h = y1 - y0
    # the right edge cuts the last digit in half, the bottom cuts every descender,
    # the left edge cuts into the J, the top into the capitals
    cut = (x0 + 0.12 * h, y0 + 0.1 * h, x1 - 0.25 * h, y0 + 0.72 * h)
    before_in, total = _inside(masks[1], cut)
    assert before_in < total            # the test really starts from a cut box
    fitted = fit_box(gray, cut)
    got, total = _inside(masks[1], fitted)
    assert got == total                 # every dark pixel of the value is hidden
    for neighbour in (masks[0], masks[2]):
        assert _inside(neighbour, fitted)[0] == 0


def test_padding_is_a_share_of_text_height_and_clipped_to_the_page():
    gray, masks, boxes = _render_words(["4096"], canvas=(300, 160), origin=(20, 40))
    b = boxes[0]
    fitted = fit_box(gray, b, pad_frac=0.1)
    h = b[3] - b[1]
    assert fitted == pytest.approx((b[0] - 0.1 * h, b[1] - 0.1 * h, b[2] + 0.1 * h, b[3] + 0.1 * h),
                                   abs=1.0)
    at_edge = fit_box(gray[int(b[1]) - 1:, int(b[0]) - 1:], (1, 1, b[2] - b[0] + 1, b[3] - b[1] + 1),
                      pad_frac=0.3)
    assert at_edge[0] == 0.0 and at_edge[1] == 0.0        # clipped at the top-left corner
    no_pad = fit_box(gray, b, pad_frac=0.0)
    assert no_pad[2] == pytest.approx(b[2], abs=1.0)


def test_underline_and_table_rule_are_not_followed():
    gray, masks, boxes = _render_words(["Invoice", "A-1029"], canvas=(900, 200))
    gray = gray.copy()
    x0, y0, x1, y1 = boxes[1]
    gray[int(y1) + 1:int(y1) + 3, 10:890] = 0            # a form's fill-in line touching the value
    box = (x0, y0, x1, y1 + 2)
    fitted = fit_box(gray, box, pad_frac=0.0)
    assert fitted[0] >= x0 - 1 and fitted[2] <= x1 + 1      # not stretched along the rule


def test_descenders_of_the_line_above_are_not_pulled_in():
    font = ImageFont.truetype(FONT, 36)
    page = Image.new("L", (600, 200), 255)
    d = ImageDraw.Draw(page)
    d.text((40, 20), "gypsy jig", font=font, fill=0)            # descenders reach down
    d.text((40, 52), "ACME 5521", font=font, fill=0)
    gray = np.asarray(page)
    alone = Image.new("L", (600, 200), 255)
    ImageDraw.Draw(alone).text((40, 52), "ACME 5521", font=font, fill=0)
    ys, xs = np.nonzero(np.asarray(alone) < 128)
    box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
    upper = np.asarray(page) < 128
    assert upper[int(box[1]) - 4:int(box[1]), int(box[0]):int(box[2])].any()   # tails reach in
    # the value box as OCR gives it may start a little high and touch the descenders
    top_tail = (box[0], box[1] - 4, box[2], box[3])
    fitted = fit_box(gray, top_tail, pad_frac=0.0)
    assert fitted[1] >= top_tail[1] - 1.0


def test_blank_region_gets_padding_only_and_shrink_tightens_margins():
    gray = np.full((100, 200), 255, np.uint8)
    assert fit_box(gray, (50, 40, 100, 60), pad_frac=0.1) == pytest.approx((48, 38, 102, 62))
    g2, masks, boxes = _render_words(["77"], canvas=(300, 160))
    b = boxes[0]
    loose = (b[0] - 20, b[1] - 10, b[2] + 20, b[3] + 10)
    assert fit_box(g2, loose, pad_frac=0.0, tighten=False) == pytest.approx(loose)
    tight = fit_box(g2, loose, pad_frac=0.0, shrink=True)
    assert tight == pytest.approx(b, abs=1.0)
    # the default tightening cuts empty margins too, by at most half the box height a side
    tightened = fit_box(g2, loose, pad_frac=0.0)
    assert tightened[1] == pytest.approx(b[1], abs=1.0) and tightened[3] == pytest.approx(b[3], abs=1.0)
    assert tightened[0] == pytest.approx(b[0], abs=1.0) and tightened[2] == pytest.approx(b[2], abs=1.0)
    g3, _, (b3,) = _render_words(["77"], canvas=(400, 160), origin=(250, 60))
    hf = b3[3] - b3[1]
    far = (b3[0] - 3 * hf, b3[1], b3[2], b3[3])
    assert fit_box(g3, far, pad_frac=0.0)[0] == pytest.approx(far[0] + 0.5 * hf, abs=1.0)


def test_tightening_drops_dust_specks_apart_from_the_text_but_keeps_full_stops():
    g, masks, boxes = _render_words(["Anna", "Bush."], canvas=(600, 200))
    g = g.copy()
    b = (boxes[0][0], boxes[0][1], boxes[1][2], boxes[1][3])
    h = b[3] - b[1]
    # a dust speck well above the text that OCR took into the word box
    sy = int(b[1] - 0.6 * h)
    g[sy:sy + 3, int(b[0]) + 8:int(b[0]) + 11] = 0
    reaching = (b[0], sy - 1, b[2], b[3])
    fitted = fit_box(g, reaching, pad_frac=0.0)
    assert fitted[1] == pytest.approx(b[1], abs=1.0)
    assert fitted[2] == pytest.approx(b[2], abs=1.0)     # the full stop stays inside


def test_a_cell_border_inside_a_value_holds_its_width_not_extra_height():
    # "802 | 379-1581" in two table cells: the border between the parts runs far above and
    # below the digits, and a speck under the first part widened its OCR box downwards
    g, masks, boxes = _render_words(["802", "379-1581"], canvas=(700, 240), origin=(40, 80))
    g = g.copy()
    b = (boxes[0][0], boxes[0][1], boxes[1][2], boxes[1][3])
    h = b[3] - b[1]
    border = int((boxes[0][2] + boxes[1][0]) / 2)
    g[20:220, border - 1:border + 1] = 0
    sy = int(b[3] + 0.45 * h)
    g[sy:sy + 2, int(boxes[0][2]) - 6:int(boxes[0][2]) - 4] = 0
    loose = (b[0], b[1] - 0.1 * h, b[2], sy + 3)
    fitted = fit_box(g, loose, pad_frac=0.0)
    assert fitted[3] == pytest.approx(b[3], abs=1.5)
    assert fitted[1] == pytest.approx(b[1], abs=1.5)
    assert fitted[0] <= b[0] and fitted[2] >= b[2]


def test_a_rule_crossed_by_descenders_stays_inside_the_box():
    # the cell's bottom rule runs through the descenders of "Gray": the ink of the value's
    # box includes the rule's rows there, so tightening must not cut above them
    g, masks, boxes = _render_words(["Gray", "Fort"], canvas=(700, 240), origin=(40, 80))
    g = g.copy()
    b = (boxes[0][0], boxes[0][1], boxes[1][2], boxes[1][3])
    h = b[3] - b[1]
    ry = int(b[3] - 0.12 * h)
    g[ry:ry + 3, 10:690] = 0
    fitted = fit_box(g, (b[0], b[1], b[2], ry + 3), pad_frac=0.0)
    assert fitted[3] >= ry + 3


def test_tightening_keeps_faint_strokes_but_leaves_the_line_above():
    g, masks, boxes = _render_words(["Maria", "Lopez"], canvas=(600, 200))
    g = g.copy()
    b = boxes[1]
    h = b[3] - b[1]
    # a faint pencil tick right of the word, lighter than Otsu's ink class
    g[int(b[1]) + 5:int(b[3]) - 5, int(b[2]) + 6:int(b[2]) + 9] = 170
    loose = (b[0], b[1], b[2] + 0.4 * h, b[3])
    fitted = fit_box(g, loose, pad_frac=0.0)
    assert fitted[2] >= b[2] + 9                      # the faint tick stays hidden
    # glyphs of the line above reaching into the box's top margin are not kept
    above = g.copy()
    above[int(b[1]) - 30:int(b[1]) - 6, int(b[0]) + 10:int(b[0]) + 30] = 0
    reaching = (b[0], b[1] - 12, b[2], b[3])
    fitted = fit_box(above, reaching, pad_frac=0.0)
    assert fitted[1] == pytest.approx(b[1], abs=1.0)


def test_fit_boxes_and_redaction_wrapper_keep_order_and_fields():
    gray, masks, boxes = _render_words(["Maria", "Lopez"])
    rgb = Image.fromarray(gray).convert("RGB")
    out = fit_boxes_to_ink(np.asarray(rgb), boxes)
    assert len(out) == 2 and out[0][0] < out[1][0]
    reds = [Redaction(b, "PERSON", "x", 0.9, ("rules",)) for b in boxes]
    fitted = fit_redactions_to_ink(rgb, reds)
    assert [r.type for r in fitted] == ["PERSON", "PERSON"]
    assert fitted[0].sources == ("rules",) and fitted[0].bbox == pytest.approx(out[0])


@pytest.mark.parametrize("box", [(10, 10, 5, 20), (10, 10, 20, 10), (500, 500, 600, 600), (1, 2, 3)])
def test_bad_boxes_raise_input_error(box):
    gray = np.full((100, 100), 255, np.uint8)
    with pytest.raises(InputError):
        fit_box(gray, box)


def test_bad_images_raise_input_error():
    with pytest.raises(InputError):
        to_gray(np.zeros((10, 10), np.float32))
    with pytest.raises(InputError):
        to_gray(np.zeros((0,), np.uint8))


def test_dark_block_around_a_value_is_not_followed():
    gray, masks, boxes = _render_words(["Ref", "7781"], canvas=(600, 300), origin=(40, 120))
    gray = gray.copy()
    gray[20:100, 20:580] = 0                      # a black bar (stamp, picture) just above
    x0, y0, x1, y1 = boxes[1]
    touching = (x0, 99, x1, y1)                     # a box that reaches into the bar
    fitted = fit_box(gray, touching, pad_frac=0.0)
    assert fitted[1] >= 99 - 1 and fitted[0] >= x0 - 1 and fitted[2] <= x1 + 1
    assert _inside(masks[1], fitted)[0] == masks[1].sum()


def _dotted(gray):
    """The page as a 1-bit copier prints faint text: every stroke broken into 2x2 dots
    on a 3 px grid (the way the dithered and faxed scans of the challenge set look)."""
    ink = gray < 128
    grid = np.zeros_like(ink)
    grid[::3, ::3] = grid[1::3, ::3] = grid[::3, 1::3] = grid[1::3, 1::3] = True
    return np.where(ink & grid, 0, 255).astype(np.uint8)


def test_a_dotted_glyph_that_the_box_cut_is_grown_back_not_taken_for_dust():
    gray, masks, boxes = _render_words(["Phone", "565-4482", "today"], size=40, font_path=SERIF)
    dotted = _dotted(gray)
    dot_masks = [m & (dotted < 128) for m in masks]
    x0, y0, x1, y1 = boxes[1]
    h = y1 - y0
    # OCR's box holds the value, a little loose: tightening keeps every dot of it ...
    loose = (x0 - 3, y0 - 3, x1 + 3, y1 + 3)
    # ... and a box that ends inside the last "2" grows over the dots right of the cut
    cut = (x0, y0, x1 - 0.2 * h, y1)
    for box in (loose, cut):
        fitted = fit_box(dotted, box)
        inside, total = _inside(dot_masks[1], fitted)
        assert inside == total, (box, fitted, boxes[1])
        for k in (0, 2):     # the words beside it stay visible
            assert _inside(dot_masks[k], fitted)[0] == 0
    # a speck of dust apart from the dotted text is still no glyph of the value
    specked = dotted.copy()
    sy = int(y0 - 0.8 * h)
    specked[sy:sy + 2, int(x1 - 0.2 * h):int(x1 - 0.2 * h) + 2] = 0
    assert fit_box(specked, boxes[1])[1] >= y0 - 1


def test_a_dotted_last_glyph_beside_solid_print_is_kept_and_a_pinch_of_dust_is_not():
    """An e-mail address whose last letters came out as 3x3 dots (a worn ribbon, a dithered
    patch) among solid lines: too few of the crop's components are dots to join them, so
    each dot looks like dust past the body of the word. Together they make glyphs, and the
    box keeps them; two specks together past a word remain dust."""
    font = ImageFont.truetype(SERIF, 40)
    page = Image.new("L", (1400, 300), 255)
    draw = ImageDraw.Draw(page)
    draw.text((40, 75), "Monday, January 24, 2002 4:28 PM Subject: payroll", font=font, fill=0)
    draw.text((40, 170), "Tuesday, March 3, 2004 9:15 AM Attachments: three files", font=font, fill=0)
    solid = draw.textbbox((40, 120), "vreed@morgan.in", font=font)
    draw.text((40, 120), "vreed@morgan.in", font=font, fill=0)
    tail = Image.new("L", page.size, 255)
    ImageDraw.Draw(tail).text((solid[2] + 1, 120), "fo", font=font, fill=0)
    grid = np.zeros((page.size[1], page.size[0]), bool)
    for a in range(3):
        for b in range(3):
            grid[a::5, b::5] = True
    dots = (np.asarray(tail) < 128) & grid
    gray = np.asarray(page).copy()
    gray[dots] = 0
    ys, xs = np.nonzero(dots)
    box = (solid[0] - 2, min(solid[1], ys.min()) - 2, xs.max() + 3, max(solid[3], ys.max()) + 2)
    assert fit_box(gray, box)[2] >= xs.max() + 1
    # the same box over a solid word and a pinch of dust past it: the dust is cut off
    dusty = np.asarray(page).copy()
    dusty[140:143, solid[2] + 23:solid[2] + 26] = 0
    dusty[140:143, solid[2] + 28:solid[2] + 31] = 0
    assert fit_box(dusty, (solid[0] - 2, solid[1] - 2, solid[2] + 33, solid[3] + 2))[2] < solid[2] + 23


def test_dots_join_into_glyphs_when_asked_even_among_solid_strokes():
    """A few dotted glyphs among many solid ones: left alone, the crop reads as solid print
    and its dots stay dots; asked to, they join into the glyphs they make."""
    mask = np.zeros((40, 900), np.uint8)
    for k in range(30):                       # thirty solid strokes
        mask[10:30, 20 + 25 * k:26 + 25 * k] = 1
    for y in range(10, 30, 3):                # one dotted stroke: single-pixel dots 3 px apart
        mask[y, 840] = 1
    auto = ink_components(mask, 20.0)
    joined = ink_components(mask, 20.0, join_dots=True)
    def tallest(comps):
        return max(int(comps[2][k][3]) for k in range(1, comps[0]) if comps[2][k][0] >= 830)
    assert tallest(auto) == 1
    assert tallest(joined) >= 18


def _underlined(word: str, font_path=SERIF, size=40, canvas=(700, 240), origin=(40, 80)):
    """A word written on a fill-in line that its descenders run down into: the page, the
    word's own ink mask, the OCR-like box (top of the word to its baseline) and the rule's
    first and last row."""
    font = ImageFont.truetype(font_path, size)
    alone = Image.new("L", canvas, 255)
    ImageDraw.Draw(alone).text(origin, word, font=font, fill=0)
    word_mask = np.asarray(alone) < 128
    ys, xs = np.nonzero(word_mask)
    baseline = origin[1] + font.getmetrics()[0]
    r0 = int(ys.max()) - 1                      # the rule touches the descenders' feet
    g = np.asarray(alone).copy()
    g[r0:r0 + 3, 10:canvas[0] - 10] = 0
    box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(baseline))
    return g, word_mask, box, (r0, r0 + 3)


def test_a_descender_written_down_onto_its_underline_is_hidden_with_the_rule_under_it():
    # "Amy Mitchell" on a form's line: the y's tail merges with the underline into one
    # component, which is mostly rule; the box OCR gives stops at the baseline
    g, word, box, (r0, r1) = _underlined("Amy Mitchell")
    assert _inside(word, box)[0] < word.sum()               # the tail starts outside
    fitted = fit_box(g, box, pad_frac=0.0)
    got, total = _inside(word, fitted)
    assert got == total
    assert fitted[3] >= r1                                   # the rule's rows under the tail
    assert fitted[3] <= r1 + 1
    assert fitted[0] >= box[0] - 1 and fitted[2] <= box[2] + 1   # not along the rule


def test_text_hanging_from_the_far_side_of_a_rule_is_not_pulled_in():
    # the next cell's caption touches the rule from below; a cell divider runs into the
    # rule: neither is glyph ink of the value above it
    g, word, box, (r0, r1) = _underlined("Amy Mitchell")
    g = g.copy()
    font = ImageFont.truetype(FONT, 16)
    below = Image.new("L", (g.shape[1], g.shape[0]), 255)
    ImageDraw.Draw(below).text((60, r1 - 1), "POLICY NO.", font=font, fill=0)
    g = np.minimum(g, np.asarray(below))
    # a cell divider from a skewed scan: one pixel to the side every ten rows, down into
    # the rule, so that no straight run of it is as long as the text is tall
    cols = np.nonzero(word.any(axis=0))[0]
    x = int(cols[np.argmax(np.diff(cols))]) + 3          # in the space between the words
    top = int(box[1]) - 10
    for y in range(top, r1):
        g[y, x + (y - top) // 10:x + (y - top) // 10 + 2] = 0
    fitted = fit_box(g, box, pad_frac=0.0)
    assert _inside(word, fitted)[0] == word.sum()
    assert fitted[3] <= r1 + 1
    assert fitted[1] >= box[1] - 1


def test_a_box_run_along_its_fill_in_line_is_cut_back_to_the_value():
    # "Assay No. 6692______": the value typed just above a fill-in line, and OCR's word box
    # running along the line to its end and down onto it; the box keeps every glyph and
    # gives the rule back, however far it reached
    font = ImageFont.truetype(FONT, 30)
    page = Image.new("L", (700, 200), 255)
    ImageDraw.Draw(page).text((100, 60), "6692", font=font, fill=0)
    g = np.asarray(page).copy()
    word = g < 128
    ys, xs = np.nonzero(word)
    r0 = int(ys.max()) + 4                      # the line, a little under the digits
    g[r0:r0 + 2, 90:400] = 0
    box = (float(xs.min()), float(ys.min()), 300.0, float(r0 + 2))   # 3+ text heights too long
    fitted = fit_box(g, box, pad_frac=0.0)
    got, total = _inside(word, fitted)
    assert got == total
    assert fitted[2] <= xs.max() + 2, fitted                # the line's stretch given back
    assert fitted[3] <= r0, fitted                          # ... and the line under the digits


def test_a_box_whose_margin_holds_more_than_rule_keeps_the_bounded_cut():
    # beside the value, past the fill-in line's start, a faint mark that is not a rule: the
    # margin is not rule alone, so the box is only tightened by the usual bound
    font = ImageFont.truetype(FONT, 30)
    page = Image.new("L", (700, 200), 255)
    ImageDraw.Draw(page).text((100, 60), "6692", font=font, fill=0)
    g = np.asarray(page).copy()
    ys, xs = np.nonzero(g < 128)
    r0 = int(ys.max()) + 4
    g[r0:r0 + 2, 90:400] = 0
    g[int(ys.min()) + 5:int(ys.min()) + 12, 260:266] = 0   # a mark in the box's far margin
    box = (float(xs.min()), float(ys.min()), 300.0, float(r0 + 2))
    fitted = fit_box(g, box, pad_frac=0.0)
    assert fitted[2] >= 266, fitted


MONO = "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf"
SANS = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
FREESANS = "/usr/share/fonts/truetype/freefont/FreeSans.ttf"


def _typed_on_line(value: str, rule_from_foot: int, size=28, canvas=(900, 200), origin=(300, 60),
                   font_path=MONO, rule_past: int | None = None):
    """A value typed down onto a form's fill-in line ("DATE____1/4/90______"): the line
    runs far both ways (``rule_past`` pixels past the value when given) and crosses the
    glyphs ``rule_from_foot`` rows above their feet, so glyphs and line are one ink
    component that is mostly glyphs. The page, the value's own
    ink less the line's rows, and the box OCR gives (the glyphs above the line)."""
    font = ImageFont.truetype(font_path, size)
    alone = Image.new("L", canvas, 255)
    ImageDraw.Draw(alone).text(origin, value, font=font, fill=0)
    g = np.asarray(alone).copy()
    glyphs = g < 128
    ys, xs = np.nonzero(glyphs)
    r0 = int(ys.max()) - rule_from_foot
    left, right = (40, canvas[0] - 40) if rule_past is None else \
        (int(xs.min()) - rule_past, int(xs.max()) + 1 + rule_past)
    g[r0:r0 + 2, left:right] = 0
    glyphs[r0:r0 + 2, :] = False
    box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(r0))
    return g, glyphs, box


def test_a_value_typed_onto_its_fill_in_line_is_not_grown_along_the_line():
    g, glyphs, box = _typed_on_line("1/4/90", rule_from_foot=0)
    h = box[3] - box[1]
    fitted = fit_box(g, box, pad_frac=0.0)
    assert _inside(glyphs, fitted)[0] == glyphs.sum()
    # the line beyond the value is the form's: at most a pixel of it either side
    assert fitted[0] >= box[0] - 1 and fitted[2] <= box[2] + 1, (fitted, box, h)


def test_a_value_on_a_blank_little_longer_than_itself_is_not_grown_along_the_line():
    # "FORWARDED ON ___1/29/69___ (Date)": the blank runs a little past the date either
    # side, the whole line under four of OCR's line-high boxes long (a short component)
    g, glyphs, box = _typed_on_line("1/29", rule_from_foot=0, rule_past=14)
    box = (box[0], box[1] - 6, box[2], box[3])
    h = box[3] - box[1]
    ys, xs = np.nonzero(g < 128)
    assert 2.5 * h < xs.max() + 1 - xs.min() < 4 * h
    fitted = fit_box(g, box, pad_frac=0.0)
    assert _inside(glyphs, fitted)[0] == glyphs.sum(), fitted
    assert fitted[0] >= box[0] - 1 and fitted[2] <= box[2] + 1, (fitted, box)


def test_a_glyph_that_the_box_cuts_on_a_fill_in_line_is_grown_back():
    # OCR's box ends inside the last digit ("1978" boxed to the middle of its 8); the digit
    # is merged into the line with the others, and is still the value's
    g, glyphs, box = _typed_on_line("1978", rule_from_foot=0)
    cut = (box[0], box[1], box[2] - 6, box[3])
    assert _inside(glyphs, cut)[0] < glyphs.sum()
    fitted = fit_box(g, cut, pad_frac=0.0)
    assert _inside(glyphs, fitted)[0] == glyphs.sum(), fitted
    assert fitted[2] <= box[2] + 1


def test_glyph_tails_through_the_line_they_were_typed_on_are_hidden():
    # the line crosses the digits above their feet ("APRIL 1, 1957" typed over the rule):
    # the feet below the line are the value's ink too
    g, glyphs, box = _typed_on_line("1957", rule_from_foot=4)
    below = glyphs.copy()
    below[:int(box[3]) + 2, :] = False
    assert below.sum() > 0
    fitted = fit_box(g, box, pad_frac=0.0)
    assert _inside(glyphs, fitted)[0] == glyphs.sum(), fitted
    assert fitted[0] >= box[0] - 1 and fitted[2] <= box[2] + 1


@pytest.mark.parametrize("font_path, size", [(SANS, 12), (SANS, 14), (FREESANS, 14), (FREESANS, 20)])
def test_a_digit_ones_stem_typed_onto_the_line_is_a_glyph_not_a_border(font_path, size):
    # a "1" without a foot (a sans face, most typewriters' figure one) standing on the line
    # makes one thin upright with it, as a cell border does: it starts the value and stays in
    g, glyphs, box = _typed_on_line("1/4/90", rule_from_foot=0, size=size, font_path=font_path)
    fitted = fit_box(g, box, pad_frac=0.0)
    assert _inside(glyphs, fitted)[0] == glyphs.sum(), (fitted, box)


def _speckled_address_under_caption():
    """A postal block typed two rows under its caption, on a speckled copy (every stroke
    broken into dots, as a fax or a dithered scan leaves it), with the block's box as loose
    as OCR's word boxes are: the page, the caption's, the rows' and the block's boxes."""
    font = ImageFont.truetype(SERIF, 20)
    page = Image.new("L", (420, 140), 255)
    draw = ImageDraw.Draw(page)
    draw.text((20, 12), "3. Residence Address(es)", font=font, fill=0)
    caption = draw.textbbox((20, 12), "3. Residence Address(es)", font=font)
    rows = ["3135 O Street, NW", "Washington, DC 20007"]
    boxes = []
    for k, text in enumerate(rows):
        draw.text((40, 31 + 19 * k), text, font=font, fill=0)
        boxes.append(draw.textbbox((40, 31 + 19 * k), text, font=font))
    gray = np.asarray(page).copy()
    yy, xx = np.mgrid[:gray.shape[0], :gray.shape[1]]
    gray[(gray < 128) & ((xx + yy) % 2 == 1)] = 255
    block = (boxes[0][0], boxes[0][1] - 2, boxes[1][2], boxes[1][3] + 8)
    words = [WordBox(text, box, 95.0, k + 1, 1) for k, (text, box) in enumerate(zip(rows, boxes))]
    return gray, caption, boxes, block, words


def test_a_blocks_rows_not_its_height_measure_the_fit():
    """Measured by the block's height, the dots of a speckled copy were joined across the
    gap to the caption's row and the box grew over the caption (a FARA short form's
    "3. Residence Address(es)" taken into its address); measured by one row's height they
    are not."""
    gray, caption, rows, block, words = _speckled_address_under_caption()
    assert fit_box(gray, block)[1] < caption[3] - 5       # the failure, as it was
    fitted = fit_redactions_to_ink(gray, [Redaction(block, "ADDRESS", "3135 O Street, NW\nWashington")],
                                   words)[0].bbox
    assert fitted[1] >= rows[0][1] - 1
    assert fitted[3] >= rows[1][3] - 1 and fitted[0] <= rows[0][0] + 1 and fitted[2] >= rows[1][2] - 1


def test_rows_in_a_box():
    words = [WordBox("3135", (10, 10, 50, 30), 90.0, 1, 1), WordBox("Main", (60, 12, 100, 31), 90.0, 1, 1),
             WordBox("Springfield", (10, 34, 100, 54), 90.0, 2, 1)]
    assert rows_in((0, 0, 120, 60), words) == 2
    assert rows_in((0, 0, 120, 32), words) == 1
    assert rows_in((0, 0, 120, 60), []) == 1


def test_a_caption_line_the_values_swollen_boxes_reach_into_stays_out():
    """On a noisy scan OCR's word boxes swell with the specks round them: a FARA filing's
    typed address under "3. Residence Address(es)" had boxes reaching up over most of the
    caption, whose glyphs then counted as the address's. The confidently read caption
    marks its own line: glyphs centred nearer to it are its, and the box keeps to the
    value's ink."""
    font = ImageFont.truetype(SERIF, 20)
    page = Image.new("L", (420, 100), 255)
    draw = ImageDraw.Draw(page)
    placed = {}
    for row, (y, texts) in enumerate(((12, ["Residence", "Address(es)"]), (33, ["1903", "Claremont", "Street"]))):
        x = 20
        for text in texts:
            draw.text((x, y), text, font=font, fill=0)
            placed[text] = (row, draw.textbbox((x, y), text, font=font))
            x = placed[text][1][2] + 8
    gray = np.asarray(page)
    words = [WordBox(t, (b[0], b[1], b[2], b[3] + 8) if row == 0 else (b[0], b[1] - 16, b[2], b[3] + 2),
                     92.0, row + 1, 1) for t, (row, b) in placed.items()]
    value = [b for row, b in placed.values() if row == 1]
    box = (min(w.bbox[0] for w in words[2:]), min(w.bbox[1] for w in words[2:]),
           max(w.bbox[2] for w in words[2:]), max(w.bbox[3] for w in words[2:]))
    caption_top = min(b[1] for row, b in placed.values() if row == 0)
    assert fit_box(gray, box)[1] <= caption_top          # the caption taken in, as it was
    fitted = fit_redactions_to_ink(gray, [Redaction(box, "ADDRESS", "1903 Claremont Street")], words)[0].bbox
    assert min(b[1] for b in value) - 1 <= fitted[1] <= min(b[1] for b in value) + 1
    assert fitted[3] >= max(b[3] for b in value) - 1
    # a hand's strokes cross lines: only print OCR is sure of marks another line
    unsure = [WordBox(w.text, w.bbox, 40.0 if w.line == 1 else w.conf, w.line, w.block) for w in words]
    assert own_band(box, "1903 Claremont Street", unsure) == (float("-inf"), float("inf"))


def _speckled(gray: np.ndarray, box, n: int = 20) -> np.ndarray:
    """``gray`` with specks strewn over the paper and a row of them just over the glyphs."""
    out = gray.copy()
    rng = np.random.default_rng(0)
    out[rng.integers(0, out.shape[0], n), rng.integers(0, out.shape[1], n)] = 0
    out[int(box[1]) - 2, int(box[0]):int(box[2]):6] = 0
    return out


def test_specks_round_solid_print_are_not_joined_to_its_glyphs():
    """A speckled copy (a FARA filing's scan: specks strewn round solid print) has many
    specks, but they hold little of the ink: they stay specks, not parts of the glyphs they
    lie beside (joined, they swelled every box on the page). Strokes broken into dots (a
    dithered copy) hold most of theirs and are joined."""
    gray, _, boxes = _render_words(["Claremont"], size=24, font_path=SERIF, canvas=(300, 100), origin=(40, 30))
    box = boxes[0]
    h = box[3] - box[1]
    speckled = _dark(_speckled(gray, box))
    n, labels, _ = ink_components(speckled, h)
    over = {int(labels[int(box[1]) - 2, x]) for x in range(int(box[0]), int(box[2]), 6)} - {0}
    glyph_labels = set(np.unique(labels[int(box[1]):int(box[3]), int(box[0]):int(box[2])]).tolist()) - {0}
    assert over and not over & glyph_labels
    dithered = (gray < 128).astype(np.uint8)
    yy, xx = np.mgrid[:dithered.shape[0], :dithered.shape[1]]
    dithered[(xx + yy) % 2 == 1] = 0
    n_dots = len(np.unique(dithered * (1 + yy * dithered.shape[1] + xx))) - 1
    n_joined, _, _ = ink_components(dithered, h)
    assert n_joined < n_dots / 10


def _dark(gray: np.ndarray) -> np.ndarray:
    """The dark pixels of ``gray``."""
    return (gray < 128).astype(np.uint8)


def test_a_turned_lines_words_mark_no_band():
    """A stamp turned 30 degrees: its lines' word boxes step down one after another and
    overlap every way, so no other line's centre says where the value's glyphs end (the
    rotated-stamp test's SSN lost ink when one did)."""
    words = [WordBox("SSN", (483, 1053, 534, 1094), 92.0, 15, 1),
             WordBox("123-45-6789", (537, 965, 687, 1063), 91.0, 15, 1),
             WordBox("Date:", (503, 1078, 569, 1127), 95.0, 16, 1),
             WordBox("Received", (464, 985, 572, 1060), 95.0, 14, 1)]
    assert own_band((483, 965, 687, 1094), "SSN 123-45-6789", words) == (float("-inf"), float("inf"))
