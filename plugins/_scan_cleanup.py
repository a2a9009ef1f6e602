"""Pure image functions that make a bad scan easier to read, pixels left in place:
text-height estimate and the scale to read at, denoising, reverse-video and contrast
normalisation, stroke repair, binarisation, rule removal, and the inked places no read box
covers. Moving pixels (scaling, skew, quarter turns) and mapping boxes back through those
moves is ``_scan_geometry``'s. Images are numpy arrays (uint8, 2-D gray or 3-D RGB);
nothing here runs OCR.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

import cv2
import numpy as np

from redactor.plugin_api import FRAGMENT_AREA

Box = tuple[float, float, float, float]

# Median height of character-like blobs on a clean 300 dpi page of 10-11 pt body text
# (measured on pages rendered with DejaVu/Liberation/URW fonts): what a text height means in
# dots per inch.
BODY_TEXT_HEIGHT_300DPI = 30.0
# Low-resolution scans are upscaled until their text is this tall. Tesseract scales every
# text line to its recogniser's input height anyway; the upscaling is for its thresholding
# and layout analysis, which lose thin strokes and merge letters of small text. Measured on
# the OCR benchmark (docs/ocr.md): 20 px reads as many words as 24 or 30 px (slightly more
# on 75 dpi scans) at 30-40 % less Tesseract time; 16 px loses words on 75 dpi scans.
TARGET_TEXT_HEIGHT = 20.0
# Joining broken strokes (``join_broken_strokes``) must make the measured characters at
# least this much taller to count: solid strokes grow by a pixel or two under its blur
# (5-35 % on the generated pages), fragments of dithered or worn letters by 60-140 %.
BROKEN_STROKE_GAIN = 1.5
# Broken strokes are looked for only where at least this share of the ink's components are
# specks of at most FRAGMENT_AREA pixels (measured: 0.29-0.72 on dotted and worn scans,
# 0.00-0.01 on solid print and clean renders, whose small text the joining blur would smear)
FRAGMENT_SHARE = 0.1


# ----------------------------------------------------------------------- conversions
def merged_ink_mask(gray: np.ndarray) -> np.ndarray:
    """255 where there is ink (dark on light), by Otsu after a light blur that also merges
    the dots of dithered or speckled scans: for decisions on the whole page (skew, text
    height, regions), where a dithered letter must count as one blob. Ink fitting thresholds
    each box's crop unblurred (``redactor.ink_boxes``), and the evaluator keeps its own
    contract ink, which must not move when the engine changes."""
    blurred = cv2.GaussianBlur(gray, (3, 3), 0)
    _, mask = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    return mask


def component_stats(mask: np.ndarray) -> tuple[int, np.ndarray]:
    """``cv2.connectedComponentsWithStats``' count and stats (8-connected), without the
    labels: labelled in 16 bits, 2.5-3x faster on a 300 dpi page than in 32 with the same
    stats in the same order, unless the mask has 65535 components or more (OpenCV refuses
    the overflow), which are labelled in 32 bits."""
    try:
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_16U)
    except cv2.error:
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return n, stats


# ----------------------------------------------------------------------- resolution
def estimate_text_height(gray: np.ndarray) -> float | None:
    """Median height in pixels of the character-like blobs on the page, or None when there
    are too few to tell (blank page, a photo). A small closing joins dithered dots and broken
    strokes first; rules, frames, specks and big pictures are left out by size and shape."""
    h, w = gray.shape[:2]
    if h < 8 or w < 8:
        return None
    mask = merged_ink_mask(gray)
    # A page that is mostly ink is a photo or an inverted scan: no text size to read off.
    if cv2.countNonZero(mask) > 0.5 * h * w:
        return None
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((2, 2), np.uint8))
    n, stats = component_stats(mask)
    if n <= 1:
        return None
    ws = stats[1:, cv2.CC_STAT_WIDTH].astype(float)
    hs = stats[1:, cv2.CC_STAT_HEIGHT].astype(float)
    areas = stats[1:, cv2.CC_STAT_AREA].astype(float)
    keep = ((hs >= 4) & (hs <= max(8.0, h / 10.0)) & (ws >= 2) & (ws <= 12.0 * hs)
            & (areas >= 0.12 * ws * hs) & (areas <= 0.95 * ws * hs))
    heights = hs[keep]
    if heights.size < 12:
        return None
    # Punctuation and i-dots sit far below the median; the upper half holds the letters.
    return float(np.median(heights[heights >= np.percentile(heights, 25)]))


def choose_scale(text_height: float | None, target: float = TARGET_TEXT_HEIGHT,
                 max_scale: float = 4.0, min_gain: float = 1.25, image_pixels: int = 0,
                 max_pixels: int = 40_000_000) -> float:
    """Upscale factor that brings ``text_height`` to ``target``; 1.0 when the text is
    already tall enough (within ``min_gain``) or its height is unknown. Never shrinks: big
    text reads fine and shrinking loses strokes. Capped so the result stays under
    ``max_pixels``."""
    if not text_height or text_height <= 0:
        return 1.0
    factor = target / text_height
    if factor < min_gain:
        return 1.0
    factor = min(factor, max_scale)
    if image_pixels > 0:
        factor = min(factor, math.sqrt(max_pixels / image_pixels))
    return max(1.0, factor)


# ----------------------------------------------------------------------- cleaning
def is_bilevel(gray: np.ndarray) -> bool:
    """True for 1-bit scans and faxes (nearly every pixel pure black or white), whose gray
    tones, if any, were dithered into dot patterns."""
    hist = cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel()
    dark, mid = hist[:16].sum(), hist[16:240].sum()
    # Anti-aliased or scanned gray text has many mid-tone edge pixels per black one.
    return bool(dark > 0 and mid < 0.02 * (dark + mid))


def denoise(gray: np.ndarray, aspect: float = 1.0, bilevel: bool | None = None) -> np.ndarray:
    """Clean a 1-bit scan or fax (see ``is_bilevel``): whiten isolated dots of line noise,
    then merge dithering dots into solid gray strokes with a small Gaussian at the scan's own
    resolution, so that upscaling and Tesseract's threshold see letters, not dot patterns.
    The blur has the same physical size along both axes: sigma 1 px across and
    ``1 / aspect`` px down (at least 0.5), where ``aspect`` is horizontal over vertical
    resolution (2.08 for a 204x98 dpi fax, whose rows are twice as far apart).

    Gray scans are returned unchanged: on the benchmark pages, blurring or median-filtering
    sensor/JPEG noise cost recall (thin strokes of 75-150 dpi text suffer more than the
    noise does) and non-local means cost seconds for no gain; Tesseract's own thresholding
    copes with that noise. ``bilevel`` says what the scan was when it came in (steps that
    ran before, such as ``normalise_polarity``, may have added gray tones); None: look."""
    if not (is_bilevel(gray) if bilevel is None else bilevel):
        return gray
    sigma_y = max(0.5, 1.0 / max(aspect, 1e-6))
    return cv2.GaussianBlur(remove_isolated_dots(gray), (0, 0), sigmaX=1.0, sigmaY=sigma_y)


def remove_isolated_dots(gray: np.ndarray) -> np.ndarray:
    """Whiten dark pixels with no dark neighbour: the line noise of faxes and 1-bit scans.
    Strokes, even dithered ones, are never a single pixel wide and tall, so they stay."""
    ink = (gray < 128).astype(np.uint8)
    neighbours = cv2.filter2D(ink, cv2.CV_16S, np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], np.int16),
                              borderType=cv2.BORDER_CONSTANT)
    out = gray.copy()
    out[(ink == 1) & (neighbours == 0)] = 255
    return out


def reverse_video_mask(gray: np.ndarray) -> np.ndarray | None:
    """255 over reverse-video regions, None when there are none: solid dark bands with
    light text in them, such as the white-on-dark section headers of forms and the header
    bars of tables, also on skewed and turned pages.

    Candidates are found on a copy about 800 px across the short side (the bands are
    large; this costs milliseconds): dark areas (Otsu) whose rules thinner than 0.4 % of
    the short side are opened away (so a header joined to the table grid below it stands
    alone), with a rotated bounding rectangle at least 1.5 % of the short side across,
    three times as long, 60 % dark, and dark along both long sides just inside the edge
    (``_has_dark_margins``). Each is confirmed at full resolution, where thin light letters
    survive: at least three light shapes of letter size, clearly lighter than the band.
    Dark text, rules, grids, bold headlines whose letters touch, black bars and shaded paper
    are not bands: they are thin, sparse, not elongated or without margins, or hold no light
    letters."""
    h, w = gray.shape[:2]
    if h < 16 or w < 16:
        return None
    f = min(1.0, 800.0 / min(h, w))
    small = cv2.resize(gray, (max(1, round(w * f)), max(1, round(h * f))),
                       interpolation=cv2.INTER_AREA) if f < 1.0 else gray
    sh, sw = small.shape[:2]
    _, dark = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    thin = max(3, int(0.004 * min(sh, sw)))
    solid = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((thin, thin), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(solid, connectivity=8)
    min_across = max(8, int(0.015 * min(sh, sw)))
    found = None
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if max(bw, bh) < 3 * min_across or min(bw, bh) < min_across:
            continue
        comp = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        rect = cv2.minAreaRect(cv2.findNonZero(comp))
        rw, rh = rect[1]
        across = min(rw, rh)
        if across < min_across or max(rw, rh) < 3 * across or area < 0.6 * rw * rh:
            continue
        if not _has_dark_margins(dark, rect, (x, y)):
            continue
        x0, y0 = int(x / f), int(y / f)
        x1, y1 = min(w, int(math.ceil((x + bw) / f))), min(h, int(math.ceil((y + bh) / f)))
        big = cv2.resize(comp, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST) > 0
        if not _holds_light_letters(gray[y0:y1, x0:x1], big, across / f):
            continue
        if found is None:
            found = np.zeros((sh, sw), np.uint8)
        (cx, cy), _, angle = rect
        box = cv2.boxPoints(((cx + x, cy + y), (max(1.0, rw - 0.5), max(1.0, rh - 0.5)), angle))
        cv2.fillPoly(found, [np.round(box).astype(np.int32)], 255)
    if found is None:
        return None
    # A letter stroke that cut right across a band split it in two; closing joins them.
    found = cv2.morphologyEx(found, cv2.MORPH_CLOSE, np.ones((2 * thin + 1, 2 * thin + 1), np.uint8))
    if f == 1.0:
        return found
    # Back at full size, a pixel inside the edge: a thin dark frame left around an inverted
    # header reads as a box border; inverted paper outside it would add a dark line.
    found = cv2.resize(found, (w, h), interpolation=cv2.INTER_NEAREST)
    return cv2.erode(found, np.ones((3, 3), np.uint8), iterations=max(1, int(round(0.5 / f))))


def _has_dark_margins(dark: np.ndarray, rect, offset: tuple[int, int]) -> bool:
    """True when the lines along both long sides of ``rect`` (an OpenCV rotated rectangle
    in a crop at ``offset`` of ``dark``), a tenth of its width in from the edge, are nearly
    all dark: a band has a margin of ground above and below its letters, while a bold word
    or a scribble is dark there only where a letter reaches."""
    pts = cv2.boxPoints(rect) + np.array(offset, dtype=np.float32)
    e1, e2 = pts[1] - pts[0], pts[2] - pts[1]
    along, across = (e1, e2) if np.hypot(*e1) >= np.hypot(*e2) else (e2, e1)
    length, width = float(np.hypot(*along)), float(np.hypot(*across))
    u, v = along / length, across / width
    centre = pts.mean(axis=0)
    t = np.linspace(-0.45 * length, 0.45 * length, max(20, int(length)))
    h, w = dark.shape
    for side in (-0.4, 0.4):
        xy = centre + np.outer(t, u) + side * width * v
        xs = np.clip(np.round(xy[:, 0]).astype(int), 0, w - 1)
        ys = np.clip(np.round(xy[:, 1]).astype(int), 0, h - 1)
        if np.count_nonzero(dark[ys, xs]) < 0.85 * len(t):
            return False
    return True


def _holds_light_letters(region: np.ndarray, band: np.ndarray, across: float) -> bool:
    """True when the dark ``band`` (a mask over ``region``, a full-resolution crop) holds at
    least three light shapes of letter size, at least 40 gray levels lighter than it. Looked
    for as given and after a light blur: the blur merges the dots of a dithered (fax) band,
    which would otherwise join into one light net, but fills the letters of a small one."""
    hull = None
    for img in (region, cv2.GaussianBlur(region, (3, 3), 0)):
        inside = img[band]
        if inside.size == 0:
            return False
        ground, top = float(np.median(inside)), float(np.percentile(inside, 99))
        if top - ground < 40:
            continue
        if hull is None:
            # The band with its letters filled in: light paper around it stays outside.
            hull = cv2.morphologyEx(band.astype(np.uint8), cv2.MORPH_CLOSE,
                                    np.ones((max(3, int(across * 0.5)) | 1,) * 2, np.uint8))
        light = ((img > (ground + top) / 2) & (hull > 0)).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=8)
        size = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT])
        letters = (size >= 0.15 * across) & (size <= 0.95 * across) \
            & (stats[1:, cv2.CC_STAT_AREA] >= max(4.0, 0.01 * across * across))
        if int(np.count_nonzero(letters)) >= 3:
            return True
    return False


def normalise_polarity(gray: np.ndarray) -> np.ndarray:
    """Turn reverse-video regions (``reverse_video_mask``) into dark text on light paper,
    so that an OCR engine reading only dark-on-light text reads them (Tesseract recovers
    them only by retrying unsure words inverted, when that is on, and not always on small
    scans), and so that background flattening, which runs after, cannot take a large dark
    band for background. Pixels do not move."""
    mask = reverse_video_mask(gray)
    if mask is None:
        return gray
    out = gray.copy()
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for i in range(1, n):
        x, y, bw, bh, _ = (int(v) for v in stats[i])
        inside = labels[y:y + bh, x:x + bw] == i
        region = out[y:y + bh, x:x + bw]
        if is_bilevel(region):
            # A dithered (fax, 1-bit) band: its ground is a dot pattern that only reads as
            # one tone once merged, the same blur ``denoise`` gives the rest of the page.
            region[...] = np.where(inside, cv2.GaussianBlur(region, (0, 0), 1.0), region)
        vals = region[inside].astype(np.float32)
        # The dark ground becomes white paper and the letters black ink, as on the page
        # around it; a plain 255 - v would leave a gray ground under gray letters.
        ground, letters = float(np.median(vals)), float(np.percentile(vals, 99))
        if letters - ground < 16:
            continue
        mapped = np.clip((letters - vals) * (255.0 / (letters - ground)), 0, 255)
        region[inside] = mapped.astype(np.uint8)
    return out


def normalise_contrast(gray: np.ndarray) -> np.ndarray:
    """Flatten uneven background (shadows, yellowed paper, scanner gradients) by dividing by
    a background estimate, then stretch so paper is white and the darkest ink black. Faint,
    low-contrast text becomes dark enough for a global threshold. The background is a gray
    closing with a window of 1/40 of the page's long side: wider than any body-text stroke,
    narrower than the shading it removes."""
    h, w = gray.shape[:2]
    k = max(15, int(max(h, w) / 40))
    # Closing on a reduced copy: same background, a fraction of the cost.
    small = max(1, k // 12)
    reduced = cv2.resize(gray, (max(1, w // small), max(1, h // small)),
                         interpolation=cv2.INTER_AREA) if small > 1 else gray
    ks = max(3, k // small) | 1
    bg = cv2.morphologyEx(reduced, cv2.MORPH_CLOSE,
                          cv2.getStructuringElement(cv2.MORPH_RECT, (ks, ks)))
    bg = cv2.GaussianBlur(bg, (0, 0), ks / 2.0)
    if small > 1:
        bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    flat = cv2.divide(gray, np.maximum(bg, 1), scale=255.0)
    return stretch_ink(flat)


def stretch_ink(gray: np.ndarray, share: float = 0.005) -> np.ndarray:
    """Map the darkest ``share`` of the pixels (solid ink) to black, white staying white."""
    hist = cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel()
    lo = int(np.searchsorted(np.cumsum(hist), share * gray.size))
    if lo >= 250:
        return gray
    lut = np.clip((np.arange(256) - lo) * (255.0 / (255 - lo)), 0, 255).astype(np.uint8)
    return cv2.LUT(gray, lut)


def repair_strokes(gray: np.ndarray, text_height: float | None) -> np.ndarray:
    """Strokes made whole and solid for a second read of a page whose first read was weak:
    gaps in the ink narrower than about a sixth of the text height (broken and dotted
    strokes, eaten-away toner, speckle-thinned letters) are closed (a gray opening, i.e.
    an ink closing, which joins fragments without fattening solid strokes much), then a
    light Gaussian and a contrast stretch turn what is left of a dot pattern into solid
    gray. Meant for the working image (text about ``TARGET_TEXT_HEIGHT`` tall). Pixels do
    not move."""
    th = float(text_height or TARGET_TEXT_HEIGHT)
    size = max(3, int(round(th * 0.15))) | 1
    closed = cv2.morphologyEx(gray, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))
    return stretch_ink(cv2.GaussianBlur(closed, (0, 0), max(0.8, th / 20.0)))


def fragment_share(gray: np.ndarray) -> float:
    """Share of the ink's connected components that are specks of at most FRAGMENT_AREA
    pixels: high where strokes broke into dots (a dithered or worn scan), near zero on
    solid print and on clean renders, whose antialiased letters are whole."""
    # Otsu on the pixels as they are: merged_ink_mask's blur would merge the very dots counted here
    _, mask = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return 0.0
    return float((stats[1:, cv2.CC_STAT_AREA] <= FRAGMENT_AREA).mean())


def join_broken_strokes(gray: np.ndarray, text_height: float | None,
                        gain: float = BROKEN_STROKE_GAIN) -> tuple[np.ndarray, float | None]:
    """Letters whose strokes broke into dots and fragments (faint ink dithered by a 1-bit
    scanner or copier, worn toner, thin strokes lost at low resolution), made whole again.

    Character heights measured on such a page are those of the fragments: the page looks
    like tiny text, gets upscaled several times over, and Tesseract reads the dots as
    noise. A Gaussian of 1 px (the pitch of the gaps) followed by a contrast stretch
    merges the fragments into gray strokes; when the characters measured after that are
    at least ``gain`` times as tall as before, the strokes were broken and the joined page
    is returned with its new text height. Otherwise (solid strokes: the blur changes their
    height by a pixel or two) the page comes back as given."""
    joined = stretch_ink(cv2.GaussianBlur(gray, (0, 0), 1.0))
    height = estimate_text_height(joined)
    if height and (not text_height or height >= gain * text_height):
        return joined, height
    return gray, text_height


def binarise(gray: np.ndarray, text_height: float | None = None) -> np.ndarray:
    """Local (adaptive Gaussian) threshold with a window a few text lines tall: copes with
    stains and gradients that defeat one global threshold. Ink 0, paper 255."""
    th = text_height or 20.0
    block = int(max(15, round(th * 3))) | 1
    return cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY,
                                 block, 15)


def long_runs(mask: np.ndarray, text_height: float) -> tuple[np.ndarray, np.ndarray]:
    """Horizontal and vertical ink runs at least three text heights long."""
    run = max(9, int(round(float(text_height) * 3)))
    return (cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, run), np.uint8)),
            cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8)))


def rule_mask(gray: np.ndarray, text_height: float) -> np.ndarray:
    """255 on ruling lines (table borders, form underlines, frames): straight ink runs at
    least three text heights long, which no letter makes. A horizontal run must also have
    little ink just above and below it: the letters of blurred low-resolution text touch
    along their baseline and form long runs too, but with the letters right above."""
    th = float(text_height)
    mask = merged_ink_mask(gray)
    h, w = mask.shape
    # Closing first joins the dashes of rules that a fax or a 1-bit scan broke up.
    gap = max(3, int(round(th * 0.3)))
    joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((1, gap), np.uint8))
    horizontal, _ = long_runs(joined, th)
    _, vertical = long_runs(mask, th)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(horizontal, connectivity=8)
    band = max(2, int(round(th * 0.4)))
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area > 0.25 * th * bw:       # thicker than a rule: a band of merged letters
            continue
        above = mask[max(0, y - 2 - band):max(0, y - 2), x:x + bw]
        below = mask[min(h, y + bh + 2):min(h, y + bh + 2 + band), x:x + bw]
        dens = [float(np.count_nonzero(b)) / b.size if b.size else 0.0 for b in (above, below)]
        keep[i] = max(dens) < 0.2
    rules = np.where(keep[labels], 255, 0).astype(np.uint8)
    return rules | vertical


def remove_rules(gray: np.ndarray, text_height: float) -> np.ndarray:
    """Paint ruling lines paper-white. Tesseract takes cell borders for letters ('|', 'I')
    or loses the words that touch them; text in tables and on underlined form fields reads
    better without them. Words are not moved, so boxes are unaffected."""
    rules = cv2.dilate(rule_mask(gray, text_height), np.ones((3, 3), np.uint8))
    out = gray.copy()
    out[rules > 0] = 255
    return out


# ----------------------------------------------------------------------- coverage
def unread_ink_regions(gray: np.ndarray, read_boxes: Iterable[Sequence[float]],
                       text_height: float) -> list[Box]:
    """Text-like inked regions that no box in ``read_boxes`` covers: where OCR read nothing
    although something is printed (faint or broken words, text in table cells, stamps).
    Table rules and specks are not text-like and are left out. Boxes are padded by a third
    of the text height, in ``gray``'s pixel space."""
    th = float(max(text_height, 6.0))
    h, w = gray.shape[:2]
    mask = merged_ink_mask(gray)
    # Any long straight run is left out here (a rule, or letters merged along a baseline:
    # neither needs a second read on its own).
    horizontal, vertical = long_runs(mask, th)
    mask = cv2.subtract(mask, cv2.dilate(horizontal | vertical, np.ones((3, 3), np.uint8)))
    grow = th * 0.15
    for x0, y0, x1, y1 in read_boxes:
        top, left = max(0, int(y0 - grow)), max(0, int(x0 - grow))
        mask[top:int(np.ceil(y1 + grow)), left:int(np.ceil(x1 + grow))] = 0
    ink = mask
    joined = cv2.dilate(ink, np.ones((1, max(3, int(th * 0.8))), np.uint8))
    n, stats = component_stats(joined)
    out: list[Box] = []
    pad = th / 3.0
    for i in range(1, n):
        x, y, bw, bh, _ = (int(v) for v in stats[i])
        if not (0.4 * th <= bh <= 2.5 * th and bw >= 0.6 * th):
            continue
        if cv2.countNonZero(ink[y:y + bh, x:x + bw]) < 0.08 * th * th:
            continue
        out.append((max(0.0, x - pad), max(0.0, y - pad), min(float(w), x + bw + pad),
                    min(float(h), y + bh + pad)))
    return out
