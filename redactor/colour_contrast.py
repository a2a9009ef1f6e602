"""Grey that keeps the ink colour shows: text seen by colour contrast, not only by lightness.

A plain grey conversion (ITU-R 601 luminance) keeps only lightness, so ink whose colour
differs from its background while its lightness does not (red digits on a green field of
equal grey, blue on dark red) becomes the same grey as its field: invisible to Otsu, to
Tesseract and to the ink fitting of boxes, and a page redacted from that grey leaks.

:func:`contrast_gray` takes the page's colour and its plain grey and, only when the page
has colour that its grey hides, returns a grey made from each pixel's distance to its
*local background*: the larger of the lightness difference and the (gained) chroma
difference (CIELAB a*b*), as dark-on-white. On paper (a white, light-grey background)
the lightness part is the plain grey itself, so dark-on-light text keeps its grey; text on
a coloured or dark field comes out dark on white whatever the colours (each pixel taken
against the nearest of its background and the backgrounds half a window away, so the
edge of a field is no dark frame round the text in it). A page without
such colour (grey, or colour that lightness already shows) gets its plain grey back, the
same array: byte-identical to a plain conversion.

Glyphs drawn as outlines only (the anti-aliased rim of each glyph, paper inside every
stroke) are the other ink a plain grey loses: faint, 1 px thin, dropped by Otsu and
misread. :func:`outline_gray` recognises a page of them (ink without any inside) and
stretches their contrast and closes the rims; any other page keeps its grey.

All functions are pure numpy/OpenCV; nothing here reads or writes files.
"""
from __future__ import annotations

import cv2
import numpy as np

# Background: the per-channel median of a window about this share of the page's longer
# side (27 px at 150 dpi, 55 at 300 dpi: a line and a half of body text, so a line's ink
# is a minority of the window and the median is its field's colour, while a field fitted
# tight round one line of text is still mostly its own background; 1/40 lost blue text on
# tight dark-red fields). Taken on the page shrunk into cells (area average) so that the
# window is BG_WINDOW_CELLS cells whatever the resolution, and brought back to full size
# bilinearly.
BG_WINDOW_SHARE = 1 / 60
BG_WINDOW_CELLS = 11
# A cell whose channels spread less than this (max - min) has no colour worth a look: a
# page with fewer than MIN_COLOUR_CELLS such cells takes the plain grey straight away
# (JPEG and scanner colour noise stays below it on grey pages; a cell's average keeps the
# colour of a stroke a pixel wide: red on white, 1 px in 4, spreads 64).
CHROMA_MIN = 40
MIN_COLOUR_CELLS = 20
# Chroma difference (CIELAB a*b* distance, in OpenCV's 8-bit Lab units) below this is
# colour noise, not ink; above it each unit counts CHROMA_GAIN grey levels, so saturated
# colour pairs (red/green about 130 apart) reach black.
CHROMA_FLOOR = 8
CHROMA_GAIN = 2.0
# A pixel is "hidden by grey" when its chroma contrast exceeds its lightness contrast by
# HIDDEN_MARGIN grey levels; a page takes the colour path when at least MIN_HIDDEN_PIXELS
# of them are there (a few short words' strokes at 150 dpi: text-like amounts, not the
# anti-aliased fringe of a coloured logo or rule).
HIDDEN_MARGIN = 64
MIN_HIDDEN_PIXELS = 300

# Outline-only glyphs (an RGBA page whose alpha keeps only the anti-aliased rim of each
# glyph, composited on white): 1-px light-grey rims with paper inside every stroke, which
# Otsu drops and Tesseract misreads. Their signature: plenty of ink (pixels FAINT_INK
# below the paper level, the PAPER_PERCENTILE of the page's grey), of which almost none
# (THIN_SHARE_MAX) has ink all around it in a 3x3 square: no stroke has an inside. Real
# scans and born-digital pages, however thin their strokes, keep more than 1 % (the
# thinnest of the 78 real dev pages: 1.35 %). Such a page's contrast to the paper is
# multiplied by OUTLINE_GAIN (a rim half covered becomes black) and its rims closed by
# an OUTLINE_CLOSE ellipse, so the strokes of text up to ~30 px tall read filled.
FAINT_INK = 32
PAPER_PERCENTILE = 90
MIN_OUTLINE_PIXELS = 2000
THIN_SHARE_MAX = 0.004
OUTLINE_GAIN = 2.0
OUTLINE_CLOSE = 3


def _as_rgb(rgb: np.ndarray) -> np.ndarray | None:
    if not (isinstance(rgb, np.ndarray) and rgb.ndim == 3 and rgb.shape[2] >= 3
            and rgb.dtype == np.uint8 and rgb.shape[0] > 0 and rgb.shape[1] > 0):
        return None
    return np.ascontiguousarray(rgb[:, :, :3])


def chroma(rgb: np.ndarray) -> np.ndarray:
    """max - min over the three channels of each pixel (0 on any grey)."""
    r, g, b = cv2.split(rgb)
    return cv2.subtract(cv2.max(cv2.max(r, g), b), cv2.min(cv2.min(r, g), b))


def _cells(rgb: np.ndarray) -> tuple[np.ndarray, int]:
    """The page shrunk into cells (area average, uint8) and the cell's side in pixels."""
    h, w = rgb.shape[:2]
    cell = max(1, int(round(max(h, w) * BG_WINDOW_SHARE / BG_WINDOW_CELLS)))
    cell = min(cell, max(1, min(h, w) // 8))
    if cell == 1:
        return rgb, 1
    return cv2.resize(rgb, (max(1, w // cell), max(1, h // cell)), interpolation=cv2.INTER_AREA), cell


def _median(cells: np.ndarray) -> np.ndarray:
    """The background colour of each cell: the median over BG_WINDOW_CELLS cells."""
    if min(cells.shape[:2]) < 2:
        return cells
    return cv2.medianBlur(cells, BG_WINDOW_CELLS)


def local_background(rgb: np.ndarray) -> np.ndarray:
    """The colour each pixel's surroundings mostly have: the per-channel median over a
    window of ``BG_WINDOW_SHARE`` of the page's longer side, full size, uint8 RGB."""
    small = _median(_cells(rgb)[0])
    return cv2.resize(small, (rgb.shape[1], rgb.shape[0]), interpolation=cv2.INTER_LINEAR)


def _contrasts(rgb: np.ndarray, gray: np.ndarray, small: np.ndarray,
               lab: np.ndarray | None = None):
    """(lightness contrast, gained chroma contrast) of every pixel to the background
    ``small`` (cells, uint8 RGB), uint8 grey levels (saturated at 255), all in 8 bits."""
    h, w = gray.shape
    # The background's grey and a*b* are taken small and brought to full size together
    # (interpolating them is as good as interpolating RGB, and far cheaper to convert).
    small_lab = cv2.cvtColor(small, cv2.COLOR_RGB2Lab)
    small_lab[:, :, 0] = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    bg = cv2.resize(small_lab, (w, h), interpolation=cv2.INTER_LINEAR)
    light = cv2.absdiff(gray, np.ascontiguousarray(bg[:, :, 0]))
    ab = cv2.absdiff(cv2.cvtColor(rgb, cv2.COLOR_RGB2Lab) if lab is None else lab, bg)
    da, db = ab[:, :, 1], ab[:, :, 2]      # channel 0 unused: the grey is ``gray``'s
    # |(da, db)| as max + min/2 (at most 6 % over the Euclidean length, in 8 bits)
    dc = cv2.addWeighted(cv2.max(da, db), 1.0, cv2.min(da, db), 0.5, 0.0)
    colour = cv2.convertScaleAbs(cv2.subtract(dc, CHROMA_FLOOR), alpha=CHROMA_GAIN)
    return light, colour


def _shifted(small: np.ndarray, dy: int, dx: int) -> np.ndarray:
    """``small`` moved by (dy, dx) cells, its edges repeated."""
    d = max(abs(dy), abs(dx))
    padded = cv2.copyMakeBorder(small, d, d, d, d, cv2.BORDER_REPLICATE)
    h, w = small.shape[:2]
    return np.ascontiguousarray(padded[d - dy:d - dy + h, d - dx:d - dx + w])


def _edge_safe_contrast(rgb: np.ndarray, gray: np.ndarray, small: np.ndarray) -> np.ndarray:
    """Each pixel's contrast (max of lightness and chroma) to the nearest of its
    background and the backgrounds half a window above, below, left and right of it.
    Near a field's edge the window mixes field and paper into a colour that is neither,
    against which both stand out as ink (a dark frame round the field, swallowing text
    set tight in it); one of the shifted windows lies wholly inside the field or wholly
    outside it and matches the pixel when it is background. Ink is a minority in every
    window, so it stays far from them all."""
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2Lab)
    d = BG_WINDOW_CELLS // 2 + 1
    best = None
    for dy, dx in ((0, 0), (-d, 0), (d, 0), (0, -d), (0, d)):
        light, colour = _contrasts(rgb, gray, _shifted(small, dy, dx), lab)
        contrast = cv2.max(light, colour)
        best = contrast if best is None else cv2.min(best, contrast)
    return best


def _has_colour(cells: np.ndarray) -> bool:
    """Cheap first look on the cells: enough of strong colour (CHROMA_MIN) for grey to
    hide any text."""
    return int(cv2.countNonZero(cv2.compare(chroma(cells), CHROMA_MIN, cv2.CMP_GE))) \
        >= MIN_COLOUR_CELLS


def _hidden_mask(light: np.ndarray, colour: np.ndarray) -> np.ndarray:
    return cv2.compare(cv2.subtract(colour, light), HIDDEN_MARGIN, cv2.CMP_GE)


def hidden_colour_pixels(rgb: np.ndarray, gray: np.ndarray) -> int:
    """How many pixels differ from their background in colour by HIDDEN_MARGIN grey
    levels more than in lightness (0 without enough colour to look at)."""
    rgb = _as_rgb(rgb)
    if rgb is None:
        return 0
    cells = _cells(rgb)[0]
    if not _has_colour(cells):
        return 0
    return int(cv2.countNonZero(_hidden_mask(*_contrasts(rgb, gray, _median(cells)))))


def colour_gray(rgb: np.ndarray, gray: np.ndarray) -> np.ndarray:
    """``gray`` itself (the plain conversion, same object) unless the page has at least
    MIN_HIDDEN_PIXELS pixels whose colour differs from their background much more than
    their grey does; then 255 minus each pixel's contrast to its local background (the
    larger of lightness and gained chroma difference): all ink dark on white, whatever
    its colours."""
    cells = _cells(rgb)[0]
    if not _has_colour(cells):
        return gray
    small = _median(cells)
    if int(cv2.countNonZero(_hidden_mask(*_contrasts(rgb, gray, small)))) < MIN_HIDDEN_PIXELS:
        return gray
    return cv2.bitwise_not(_edge_safe_contrast(rgb, gray, small))


def outline_share(gray: np.ndarray) -> tuple[int, float]:
    """(ink pixels, share of them with ink all around in 3x3): the outline signature."""
    paper = int(np.percentile(gray[::4, ::4], PAPER_PERCENTILE))
    if paper < FAINT_INK:
        return 0, 1.0
    ink = cv2.compare(gray, paper - FAINT_INK, cv2.CMP_LE)
    n = int(cv2.countNonZero(ink))
    if n == 0:
        return 0, 1.0
    inner = int(cv2.countNonZero(cv2.erode(ink, np.ones((3, 3), np.uint8))))
    return n, inner / n


def outline_gray(gray: np.ndarray) -> np.ndarray:
    """``gray`` itself unless its ink is outlines only (see THIN_SHARE_MAX); then its
    contrast to the paper stretched and its rims closed into strokes."""
    n, inner = outline_share(gray)
    if n < MIN_OUTLINE_PIXELS or inner > THIN_SHARE_MAX:
        return gray
    paper = float(np.percentile(gray[::4, ::4], PAPER_PERCENTILE))
    contrast = np.maximum(paper - gray.astype(np.float32), 0.0) * OUTLINE_GAIN
    out = (255.0 - np.minimum(contrast, 255.0)).round().astype(np.uint8)
    # Closing the dark ink is opening the grey: min then max filter.
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (OUTLINE_CLOSE, OUTLINE_CLOSE))
    return cv2.morphologyEx(out, cv2.MORPH_OPEN, kernel)


def contrast_gray(rgb: np.ndarray, gray: np.ndarray) -> np.ndarray:
    """The grey of a colour page for binarisation and OCR: ``gray`` (its plain grey)
    itself, the same object, unless the page has colour its grey hides
    (:func:`colour_gray`) or its glyphs are outlines only (:func:`outline_gray`).

    ``rgb``: HxWx3 (or 4: alpha ignored, composite it first) uint8; ``gray``: its plain
    HxW uint8 grey. Only colour inputs come here: a grey given as grey (2-D, PIL "L") is
    used as it is, so converting a converted grey again changes nothing."""
    src = _as_rgb(rgb)
    if src is None or not isinstance(gray, np.ndarray) or gray.shape != src.shape[:2] \
            or gray.dtype != np.uint8:
        return gray
    out = colour_gray(src, gray)
    return out if out is not gray else outline_gray(gray)
