"""Text seen by colour, not by grey (issue 28): a letter page with a coloured form field
holding four values (a name, an SSN, a phone number, an e-mail) in red (255, 0, 0) ink,
redacted end to end with the default configuration (real Tesseract, default detectors).

The sweep: the field's grey (ITU-R 601 luminance, what a plain grey conversion sees) is
the ink's grey plus 0, 5, ..., 80: at 0 the values are invisible in grey, however plain
they are in colour. Per step: the share of values whose glyph pixels (from the render
mask) are all under redaction boxes, and seconds per page. Then more pages at equal grey
(blue on dark red, red on green with pale body text, each line on a strip of field fitted
tight round it) and outline-only glyphs: an RGBA page whose alpha channel keeps only the
anti-aliased rim of each glyph.

``python -m redactor_eval.benchmarks.bench_colour_text [--steps 0,20,40] [--no-outline]``
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from redactor_eval.benchmarks._coverage import hidden

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
PAGE = (1275, 1650)            # US letter at 150 dpi
BODY = [
    "Dear Sir or Madam,",
    "",
    "Please find below the details of the applicant for the lease of the",
    "warehouse on the north side of the river. The form was completed at",
    "our office and checked against the documents the applicant brought.",
]
# The form lines: (line, value in it). Values are what must end up hidden.
FIELDS = [
    ("Name: Maria Gonzalez", "Maria Gonzalez"),
    ("SSN: 123-45-6789", "123-45-6789"),
    ("Phone: (555) 123-4567", "(555) 123-4567"),
    ("Email: maria.gonzalez@example.com", "maria.gonzalez@example.com"),
]
GLYPH_ALPHA = 128              # a render-mask pixel this opaque is part of a glyph
RED = (255, 0, 0)
OUTLINE_MIN, OUTLINE_MAX = 1, 254   # alpha kept by the outline pages: the anti-aliased rim
RIM_VISIBLE = 32               # ... of which a pixel this opaque (grey 223 on white) shows


def luma(rgb) -> float:
    """ITU-R 601 grey of an RGB colour (what PIL "L" and OpenCV RGB2GRAY compute)."""
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b


def green_field(ink=RED, diff: float = 0.0) -> tuple[int, int, int]:
    """A green (then cyan) field whose grey is the ink's grey plus ``diff``."""
    target = luma(ink) + diff
    g = min(255.0, target / 0.587)
    b = min(255.0, max(0.0, (target - 0.587 * g) / 0.114))
    return 0, int(round(g)), int(round(b))


def _masks(size, origin, font, lines, outline: bool = False):
    """{value: bool mask of its glyph pixels} and the alpha of all the lines' glyphs;
    ``outline``: of the pixels its outline inks visibly (the rim, alpha >= RIM_VISIBLE),
    the inside of an outline glyph being paper."""
    alpha = Image.new("L", size, 0)
    draw = ImageDraw.Draw(alpha)
    x0, y0 = origin
    step = int(font.size * 1.7)
    masks = {}
    for i, (text, value) in enumerate(lines):
        y = y0 + i * step
        draw.text((x0, y), text, font=font, fill=255)
        m = Image.new("L", size, 0)
        x = x0 + draw.textlength(text[: text.index(value)], font=font)
        ImageDraw.Draw(m).text((x, y), value, font=font, fill=255)
        a = np.asarray(m)
        masks[value] = ((a >= RIM_VISIBLE) & (a <= OUTLINE_MAX)) if outline else a >= GLYPH_ALPHA
    return masks, np.asarray(alpha)


def _body(draw, font_px=24, fill=(20, 20, 20)):
    body = ImageFont.truetype(SERIF, font_px)
    for i, line in enumerate(BODY):
        draw.text((110, 140 + i * int(font_px * 1.6)), line, font=body, fill=fill)


def render_colour_page(ink=RED, field=(0, 130, 0), font_px: int = 28, body_fill=(20, 20, 20)):
    """An RGB letter page: body text, then a ``field``-coloured box with the form lines
    in ``ink``; returns (image, {value: bool glyph mask})."""
    page = Image.new("RGB", PAGE, "white")
    draw = ImageDraw.Draw(page)
    _body(draw, fill=body_fill)
    font = ImageFont.truetype(FONT, font_px)
    origin = (150, 420)
    width = int(max(draw.textlength(t, font=font) for t, _ in FIELDS))
    draw.rectangle((origin[0] - 30, origin[1] - 25, origin[0] + width + 30,
                    origin[1] + int(font_px * 1.7) * len(FIELDS) + 15), fill=field)
    masks, alpha = _masks(PAGE, origin, font, FIELDS)
    page.paste(Image.new("RGB", PAGE, ink), (0, 0), Image.fromarray(alpha))
    return page, masks


def render_tight_page(ink=RED, field=(0, 130, 0), font_px: int = 24, pad: int = 4):
    """An RGB letter page: body text, then each form line on a ``field``-coloured strip
    fitted tight round it (``pad`` pixels), in ``ink``; returns (image, {value: mask})."""
    page = Image.new("RGB", PAGE, "white")
    draw = ImageDraw.Draw(page)
    _body(draw)
    font = ImageFont.truetype(FONT, font_px)
    step = int(font_px * 2.6)
    for i, (text, _) in enumerate(FIELDS):
        y = 420 + i * step
        draw.rectangle((150 - pad, y - pad + 1, 150 + draw.textlength(text, font=font) + pad,
                        y + font_px + pad), fill=field)
    masks = {}
    for i, line in enumerate(FIELDS):
        m, alpha = _masks(PAGE, (150, 420 + i * step), font, [line])
        masks.update(m)
        page.paste(Image.new("RGB", PAGE, ink), (0, 0), Image.fromarray(alpha))
    return page, masks


def render_outline_page(font_px: int = 32, ink=(0, 0, 0)):
    """An RGBA letter page (transparent paper) whose alpha channel keeps only the
    anti-aliased rim of each glyph (the solid inside of every stroke is transparent), body
    text and form lines alike; returns (image, {value: bool mask of its visible rim})."""
    rgba = np.zeros((PAGE[1], PAGE[0], 4), np.uint8)
    rgba[:, :, :3] = ink
    body = Image.new("L", PAGE, 0)
    _body(ImageDraw.Draw(body), fill=255)
    font = ImageFont.truetype(FONT, font_px)
    masks, alpha = _masks(PAGE, (150, 420), font, FIELDS, outline=True)
    alpha = np.maximum(np.asarray(body), alpha)
    rgba[:, :, 3] = np.where((alpha >= OUTLINE_MIN) & (alpha <= OUTLINE_MAX), alpha, 0)
    return Image.fromarray(rgba, "RGBA"), masks


def _run(red, page, masks):
    t0 = time.perf_counter()
    result = red.analyze(page)
    seconds = time.perf_counter() - t0
    ok = hidden(masks, result.redactions, page.size, float(red.config.pad or 0.0))
    return ok, seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--steps", default=",".join(str(d) for d in range(0, 85, 5)),
                    help="grey differences field - ink, comma-separated")
    ap.add_argument("--no-outline", action="store_true", help="skip the outline pages")
    args = ap.parse_args()
    from redactor.pipeline import Redactor
    red = Redactor()
    total = done = 0
    seconds = []
    print(f"{'grey diff':>9} {'field':>15} {'hidden':>7} {'s/page':>7}  values left visible")
    for d in [float(s) for s in args.steps.split(",") if s]:
        field = green_field(RED, d)
        ok, s = _run(red, *render_colour_page(RED, field))
        seconds.append(s)
        total += len(ok)
        done += sum(ok.values())
        left = ", ".join(v for v, h in ok.items() if not h)
        print(f"{d:9.0f} {str(field):>15} {sum(ok.values()) / len(ok):7.2f} {s:7.2f}  {left}")
    extra = [("blue on dark red", dict(ink=(0, 0, 255), field=(97, 0, 0))),
             ("red on green, pale body", dict(ink=RED, field=(0, 130, 0), body_fill=(120, 120, 120)))]
    others = []
    for name, kw in extra:
        ok, s = _run(red, *render_colour_page(**kw))
        others.append((name, ok, s))
    for name, kw in [("tight red on green", dict()),
                     ("tight blue on dark red", dict(ink=(0, 0, 255), field=(97, 0, 0))),
                     ("tight red on green 30px", dict(font_px=30, pad=3))]:
        ok, s = _run(red, *render_tight_page(**kw))
        others.append((name, ok, s))
    if not args.no_outline:
        for px in (20, 28, 40):
            ok, s = _run(red, *render_outline_page(font_px=px))
            others.append((f"outline glyphs {px}px", ok, s))
    o_total = o_done = 0
    for name, ok, s in others:
        o_total += len(ok)
        o_done += sum(ok.values())
        left = ", ".join(v for v, h in ok.items() if not h)
        print(f"{name:>27} {sum(ok.values()) / len(ok):7.2f} {s:7.2f}  {left}")
    print(f"summary: sweep {done}/{total} values hidden ({done / max(total, 1):.1%}) over "
          f"{len(seconds)} grey differences, {np.mean(seconds):.2f} s/page; other pages "
          f"{o_done}/{o_total} ({o_done / max(o_total, 1):.1%})")


if __name__ == "__main__":
    main()
