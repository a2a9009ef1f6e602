"""Page regions to crop and read again: boxes grown by a margin, clipped to the page and
joined where they overlap (shared by the VLM zoom and the OCR fusion)."""
from __future__ import annotations

import math

from redactor.plugin_api import overlaps


def crop_regions(boxes: list[tuple[float, float, float, float]], width: int, height: int,
                 margin: float) -> list[tuple[int, int, int, int]]:
    """Boxes grown by ``margin`` pixels, clipped to the page, overlapping ones merged, in
    reading order: the regions to crop and zoom."""
    regions = [[max(0, math.floor(x0 - margin)), max(0, math.floor(y0 - margin)),
                min(width, math.ceil(x1 + margin)), min(height, math.ceil(y1 + margin))]
               for x0, y0, x1, y1 in boxes]
    merged = True
    while merged:
        merged = False
        for i in range(len(regions)):
            for j in range(i + 1, len(regions)):
                a, b = regions[i], regions[j]
                if overlaps(a, b):
                    regions[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    del regions[j]
                    merged = True
                    break
            if merged:
                break
    return sorted((tuple(r) for r in regions), key=lambda r: (r[1], r[0]))
