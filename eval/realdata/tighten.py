"""Shrinks the boxes of page specs to the ink inside them, as the contract's ink measure sees
it (Otsu's dark class of the whole page), never growing a box.

Source annotations are drawn loosely: FUNSD's word boxes leave 1-3 px of paper around the
letters, which on a 762x1000 scan (text 8-12 px high) puts a box that hides exactly the
value below IoU 0.75 with its gold (median IoU of a FUNSD box with its own ink: 0.74). The
gold of this set is ink-tight, like the generated pages' gold, so that IoU measures the
redaction and not the annotator's margin. Rules along a box's edges (the underline a
typed value sits on, a cell wall) are not the value's ink and are left out. A box with fewer
than 10 ink pixels is left as drawn (the contract's ink measure falls back to area there too).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import yaml
from PIL import Image

from redactor_eval.ink import box_slices, ink_mask

MIN_INK = 10


# A row (column) of a box inked across this share of its width (height) is a form's rule
# or a cell border, not the value: typed values sit on underlines and inside boxed cells.
RULE_SHARE = 0.8


def _strip_rules(sub: np.ndarray) -> np.ndarray:
    """The box's ink without the rules along its edges: a thin run of edge rows (columns)
    inked almost end to end is taken off when ink of the value is left inside it. A value
    that is itself solid ink (a bar, a filled block) is no thin run and stays."""
    sub = sub.copy()
    # columns (cell walls) and rows (underlines), twice: each can hide the other's ends
    for axis in (0, 1, 0, 1):
        share = sub.mean(axis=axis)
        n = len(share)
        for order in (range(n), range(n - 1, -1, -1)):
            run = []
            for i in order:
                if share[i] >= RULE_SHARE:
                    run.append(i)
                elif share[i] > 0 or run:
                    break
            if not run or len(run) > max(3, n // 4):
                continue
            rest = sub.copy()
            if axis == 1:
                rest[run, :] = False
            else:
                rest[:, run] = False
            if rest.sum() >= MIN_INK:
                sub = rest
    return sub


def ink_box(ink: np.ndarray, bbox) -> list[float] | None:
    """The bounding box of the ink pixels inside ``bbox`` (pixels as the contract turns
    boxes into pixels) less the rules along its edges, or None when there are fewer than
    MIN_INK."""
    x0, y0, x1, y1 = bbox
    rows, cols = box_slices(bbox, ink.shape[1], ink.shape[0])
    X0, Y0 = cols.start, rows.start
    sub = ink[rows, cols]
    if int(sub.sum()) < MIN_INK:
        return None
    sub = _strip_rules(sub)
    ys, xs = np.nonzero(sub)
    box = [float(X0 + xs.min()), float(Y0 + ys.min()), float(X0 + xs.max() + 1), float(Y0 + ys.max() + 1)]
    # never grow: the pixel grid can put an ink edge past a fractional box edge
    return [max(box[0], x0), max(box[1], y0), min(box[2], x1), min(box[3], y1)]


def tighten_spec(path: Path, images: Path) -> int:
    """Rewrite one spec with tightened boxes; return how many boxes changed."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    with Image.open(images / f"{data['page_id']}.png") as im:
        ink = ink_mask(np.asarray(im.convert("L")))
    changed = 0
    for a in data.get("annotations") or []:
        box = ink_box(ink, [float(v) for v in a["bbox"]])
        if box is not None and box != [float(v) for v in a["bbox"]]:
            a["bbox"] = box
            changed += 1
    path.write_text(yaml.safe_dump(data, sort_keys=False, default_flow_style=None,
                                   allow_unicode=True, width=100), encoding="utf-8")
    return changed


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec", nargs="+", type=Path)
    ap.add_argument("--images", type=Path, default=Path("eval/data/real/images"))
    args = ap.parse_args(argv)
    total = sum(tighten_spec(p, args.images) for p in args.spec)
    print(f"{total} box(es) tightened in {len(args.spec)} spec(s)")


if __name__ == "__main__":
    main()
