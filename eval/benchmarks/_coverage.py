"""Whether the glyphs of rendered values are hidden: the sweeps of the safety benchmarks know
each value's glyph pixels from the render and ask whether redaction boxes cover all of them."""
from __future__ import annotations

import numpy as np


def hidden(masks: dict, redactions, size, pad: float = 0.0) -> dict[str, bool]:
    """For each value, whether every one of its glyph pixels is under a redaction box."""
    from redactor.render import pixel_rect
    covered = np.zeros((size[1], size[0]), bool)
    for r in redactions:
        rect = pixel_rect(r.bbox, size[0], size[1], pad)
        if rect:
            covered[rect[1]:rect[3], rect[0]:rect[2]] = True
    return {v: bool(covered[m].all()) for v, m in masks.items()}
