"""Draws a page's annotations over its image, for the person who checks the gold: each box
outlined in its risk group's colour with its index and type, the value beside it."""
from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from redactor import taxonomy

GROUP_COLOURS = {"direct": (220, 0, 0), "linkage": (0, 90, 220), "contextual": (0, 150, 0),
                 "other": (200, 0, 200)}


def draw_overlay(image: Image.Image, annotations: list[dict], scale: float = 1.0) -> Image.Image:
    img = image.convert("RGB")
    if scale != 1.0:
        img = img.resize((round(img.width * scale), round(img.height * scale)), Image.LANCZOS)
    draw = ImageDraw.Draw(img)
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", max(10, round(12 * max(scale, 0.8))))
    except OSError:
        font = ImageFont.load_default()
    for i, a in enumerate(annotations):
        x0, y0, x1, y1 = (v * scale for v in a["bbox"])
        colour = GROUP_COLOURS[taxonomy.group_of(a["type"])]
        draw.rectangle([x0, y0, x1, y1], outline=colour, width=2)
        label = f"{i}:{a['type']}"
        draw.text((x0, max(0, y0 - font.size - 1)), label, fill=colour, font=font)
    return img


def main(argv=None) -> None:
    from redactor_eval.realdata.spec import load_spec
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("spec", nargs="+", help="spec YAML files")
    ap.add_argument("--images", default="eval/data/real/images")
    ap.add_argument("--out", required=True)
    ap.add_argument("--scale", type=float, default=1.0)
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for path in args.spec:
        spec = load_spec(path, require_checked=False)
        with Image.open(Path(args.images) / f"{spec.page_id}.png") as im:
            draw_overlay(im, list(spec.annotations), args.scale).save(out / f"{spec.page_id}.png")


if __name__ == "__main__":
    main()
