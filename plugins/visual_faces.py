"""Faces and ID photos: photo regions on a text page, as OTHER.

A text page is paper and ink: nearly every pixel is either near-white or dark, and the grey
pixels in between are the anti-aliased rims of strokes. A photograph (an ID photo on a
badge, an application form or a passport copy) is continuous tone: a block where most
pixels are mid-grey and neighbouring pixels differ (texture). A flat tint (a shaded table
cell, a coloured banner) is mid-grey too but has no texture; a halftone tint has texture
but one mean grey all over, while a picture has light and dark parts (face, hair,
background): such blocks are not taken.

No face detector model is used: OpenCV 5's wheel no longer ships the Haar cascades
(``cv2.data.haarcascades`` is empty) and ``cv2.FaceDetectorYN`` needs an ONNX file that no
installed wheel carries; weights may not be fetched at run time. A photo block is redacted
whole, which hides any face in it; a face drawn in line art or a halftone photo binarised
by the scanner is not continuous tone and is not found (see docs/visual.md).
"""
from __future__ import annotations

import numpy as np

from redactor.plugin_api import OcrPage, Redaction, VisualDetector
from redactor_plugins.visual_common import gray_of

CELL = 0.012          # analysis cell: 1.2 % of the page's longer side (about 20 px on a letter page)
MID = (40, 215)       # a mid-tone pixel is neither paper nor ink
MID_SHARE = 0.6       # a photo cell is mostly mid-tone ...
MIN_STD = 6.0         # ... and textured (grey levels vary inside it; a flat tint does not)
MAX_STD = 35.0        # ... but not a black-and-white mix: halftone dots and small print in
                      # a cell spread their greys far wider than a continuous-tone picture
MIN_SPREAD = 20.0     # a picture has light and dark parts: its cells' mean greys spread
                      # (a shaded table cell, solid or halftone, is one grey with text on it)
MIN_SIDE = 0.06       # a photo is at least 6 % of the page's shorter side each way
MIN_FILL = 0.6        # and its cells fill most of its box
MAX_AREA = 0.6        # a "photo" covering most of the page is the page (a photographed page)


class FaceDetector(VisualDetector):
    name = "faces"

    @classmethod
    def emits(cls) -> frozenset[str]:
        return frozenset({"OTHER"})


    def __init__(self):
        pass

    def find(self, image, page: OcrPage | None) -> list[Redaction]:
        import cv2

        gray = gray_of(image)
        H, W = gray.shape
        cell = max(6, int(CELL * max(H, W)))
        gh, gw = H // cell, W // cell
        if gh < 2 or gw < 2:
            return []
        g = gray[:gh * cell, :gw * cell].astype(np.float32)
        blocks = g.reshape(gh, cell, gw, cell).transpose(0, 2, 1, 3).reshape(gh, gw, -1)
        mid = ((blocks > MID[0]) & (blocks < MID[1])).mean(axis=2)
        std = blocks.std(axis=2)
        means = blocks.mean(axis=2)
        photo = ((mid >= MID_SHARE) & (std >= MIN_STD) & (std <= MAX_STD)).astype(np.uint8)
        photo = cv2.morphologyEx(photo, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        n, lab, stats, _ = cv2.connectedComponentsWithStats(photo, connectivity=8)
        out = []
        min_side = MIN_SIDE * min(H, W)
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            px, py, pw, ph = x * cell, y * cell, w * cell, h * cell
            if pw < min_side or ph < min_side or area < MIN_FILL * w * h:
                continue
            if pw * ph > MAX_AREA * W * H:
                continue
            if means[lab == i].std() < MIN_SPREAD:
                continue      # one grey all over: a tint (halftone shading), not a picture
            box = self._tighten(gray, (px, py, px + pw, py + ph), cell)
            out.append(Redaction(box, "OTHER", "photo", 0.8, (self.name,)))
        return out

    @staticmethod
    def _tighten(gray, box, cell):
        """Grow the cell-aligned box by up to one cell to the photo's edge: rows and
        columns that are not paper white."""
        H, W = gray.shape
        x0, y0, x1, y1 = (int(v) for v in box)
        x0, y0 = max(0, x0 - cell), max(0, y0 - cell)
        x1, y1 = min(W, x1 + cell), min(H, y1 + cell)
        sub = gray[y0:y1, x0:x1] < MID[1]
        rows = np.nonzero(sub.mean(axis=1) > 0.5)[0]
        cols = np.nonzero(sub.mean(axis=0) > 0.5)[0]
        if rows.size and cols.size:
            return (float(x0 + cols[0]), float(y0 + rows[0]), float(x0 + cols[-1] + 1), float(y0 + rows[-1] + 1))
        return (float(x0), float(y0), float(x1), float(y1))
