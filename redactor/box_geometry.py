"""Plain geometry of axis-aligned boxes (x0, y0, x1, y1) in pixels: areas, overlaps, IoU.

One place for what the pipeline's stages, the plugins and the reports ask of two boxes, so
that "overlap" means the same thing everywhere: boxes that only touch along an edge do not
overlap. Pure functions on sequences of four numbers. The evaluator's matching works on
arrays of boxes at once (``eval.matching``) and keeps its own vectorised code.
"""
from __future__ import annotations

from typing import Sequence

Box = Sequence[float]


def area(box: Box) -> float:
    """The box's area; 0 for a box with no width or height."""
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def intersection(a: Box, b: Box) -> float:
    """The area the two boxes share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def overlaps(a: Box, b: Box) -> bool:
    """Whether the boxes share some area (touching edges do not count, nor does an empty
    box)."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def overlap_share(box: Box, other: Box) -> float:
    """The share of ``box``'s area that ``other`` covers (0 for an empty ``box``)."""
    a = area(box)
    return intersection(box, other) / a if a > 0 else 0.0


def iou(a: Box, b: Box) -> float:
    """Intersection over union; 0 when the union is empty."""
    inter = intersection(a, b)
    union = area(a) + area(b) - inter
    return inter / union if union > 0 else 0.0


def inside(inner: Box, outer: Box) -> bool:
    """Whether ``inner`` lies wholly within ``outer`` (edges may coincide)."""
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]
