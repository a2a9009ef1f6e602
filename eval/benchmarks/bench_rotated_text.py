"""Text at any angle (issue 28): a letter page with a stamp of three lines (a name, an SSN,
a date) drawn rotated by 0, 15, ..., 345 degrees, redacted end to end with the default
configuration (real Tesseract, default detectors). Per angle: the share of the stamp's
values whose glyph pixels are all under redaction boxes, and seconds per page.

``python -m redactor_eval.benchmarks.bench_rotated_text [--angles 0,30,90] [--border]``
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
# A glyph pixel: at least half covered by the letter (the anti-aliased rim lighter than
# half-way between paper and ink is what any ink threshold leaves out too).
GLYPH_ALPHA = 128
BODY = [
    "Dear Sir or Madam,",
    "",
    "Thank you for your letter of last month about the renewal of the lease for",
    "the warehouse on the north side of the river. We have reviewed the terms",
    "and would like to propose a meeting to discuss the remaining questions,",
    "in particular the maintenance of the loading docks and the parking area.",
    "",
    "Our committee meets on the first Tuesday of every month. Please let us",
    "know which of the coming dates would suit you, and whether your legal",
    "adviser will attend. We will send the agenda a week before the meeting.",
    "",
    "The enclosed documents describe the changes we would like to make to the",
    "schedule of payments and the insurance requirements of the agreement.",
    "",
    "Yours faithfully,",
    "",
    "The Board of Directors",
]
# The stamp: (line, value in it or None). Values are what must end up hidden.
STAMP = [
    ("RECEIVED", None),
    ("Received by: Maria Gonzalez", "Maria Gonzalez"),
    ("SSN 123-45-6789", "123-45-6789"),
    ("Date: 03/14/2024", "03/14/2024"),
]


def render_page(angle: float, stamp=STAMP, border: bool = False, where=(640, 980),
                font_px: int = 24, stamp_px: int = 26):
    """An RGB letter page with ``stamp`` drawn rotated counter-clockwise by ``angle`` degrees,
    its centre at ``where``; returns (image, {value: bool mask of its glyph pixels})."""
    page = Image.new("RGB", PAGE, "white")
    draw = ImageDraw.Draw(page)
    body = ImageFont.truetype(SERIF, font_px)
    for i, line in enumerate(BODY):
        draw.text((110, 140 + i * int(font_px * 1.6)), line, font=body, fill=(20, 20, 20))
    if not stamp:
        return page, {}
    font = ImageFont.truetype(FONT, stamp_px)
    step = int(stamp_px * 1.5)
    width = int(max(draw.textlength(t, font=font) for t, _ in stamp)) + 40
    size = (width, step * len(stamp) + 30)
    layer = Image.new("L", size, 0)             # the stamp's ink (alpha)
    ld = ImageDraw.Draw(layer)
    values = {}
    for i, (text, value) in enumerate(stamp):
        y = 15 + i * step
        ld.text((20, y), text, font=font, fill=255)
        if value:
            mask = Image.new("L", size, 0)
            x = 20 + ld.textlength(text[: text.index(value)], font=font)
            ImageDraw.Draw(mask).text((x, y), value, font=font, fill=255)
            values[value] = mask
    if border:
        ld.rectangle((3, 3, size[0] - 4, size[1] - 4), outline=255, width=3)
    turned = layer.rotate(angle, resample=Image.BICUBIC, expand=True)
    ox, oy = where[0] - turned.width // 2, where[1] - turned.height // 2
    ink = Image.new("RGB", turned.size, (30, 30, 140))    # stamp ink: dark blue
    page.paste(ink, (ox, oy), turned)
    masks = {}
    for value, mask in values.items():
        m = np.zeros((PAGE[1], PAGE[0]), bool)
        r = np.asarray(mask.rotate(angle, resample=Image.BICUBIC, expand=True)) >= GLYPH_ALPHA
        m[oy:oy + r.shape[0], ox:ox + r.shape[1]] = r
        masks[value] = m
    return page, masks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--angles", default=",".join(str(a) for a in range(0, 360, 15)))
    ap.add_argument("--border", action="store_true", help="draw the stamp's frame")
    ap.add_argument("--options", default="", help="tesseract options, k=v,k=v")
    args = ap.parse_args()
    from redactor.config import RedactorConfig
    from redactor.pipeline import Redactor
    ocr_options = dict(kv.split("=", 1) for kv in args.options.split(",") if kv)
    red = Redactor(RedactorConfig(ocr_options=ocr_options)) if ocr_options else Redactor()
    angles = [float(a) for a in args.angles.split(",")]
    total = done = 0
    seconds = []
    print(f"{'angle':>6} {'hidden':>7} {'s/page':>7}  values left visible")
    for angle in angles:
        page, masks = render_page(angle, border=args.border)
        t0 = time.perf_counter()
        result = red.analyze(page)
        seconds.append(time.perf_counter() - t0)
        ok = hidden(masks, result.redactions, page.size, float(red.config.pad or 0.0))
        total += len(ok)
        done += sum(ok.values())
        left = ", ".join(v for v, h in ok.items() if not h)
        print(f"{angle:6.0f} {sum(ok.values()) / len(ok):7.2f} {seconds[-1]:7.2f}  {left}")
    print(f"summary: {done}/{total} values hidden ({done / max(total, 1):.1%}) over "
          f"{len(angles)} angles, {np.mean(seconds):.2f} s/page (border={args.border})")


if __name__ == "__main__":
    main()
