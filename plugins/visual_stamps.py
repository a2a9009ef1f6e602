"""Stamps and seals: rubber-stamp impressions whose words hold a name, a date or a number,
redacted by their ink (outline, rotated letters OCR never read, date wheel), not only by
the words the text detectors find in them.

The office convention: a "RECEIVED" / "FILED" / "PAID" stamp is pressed by hand, in one
ink (blue, violet, red), at an angle of its own, inside an outline (a rectangle, a circle or
oval, a double ring), and carries a date, a clerk's name or initials, a file number. So a
stamp is found from the image, its content decided from the OCR words inside it:

1. **Colour**: ink of a saturated colour (chroma >= 50, not a pale highlighter) in a hue other
   than the body text's (a form printed in blue keeps its print), its strokes closed over
   about a text line into regions; a region at least 2.5 text lines each way, at most half
   the page each way, made of strokes (ink fills at most half its box: a tint or highlight is
   a solid band), and framed (one stroke spans 60 % of it both ways) or with its lines at
   2 degrees or more off the page's: printed colour (a letterhead, a logo) is square to the
   page and unframed.
2. **Outline** (grey scans, where the colour is gone): an ink component whose outer contour
   is a closed ring round one big hole (>= 60 % of it: a table grid is many small cells), 3 to
   30 text lines across, and is an ellipse (area / its rotated rectangle ~ pi/4, convex) or a
   rectangle set at an angle: a hand-pressed stamp is rarely square to the page, a printed
   box is (its tilt must differ from the page's own skew, read from the other rectangles).
3. **Content**, from the OCR words whose centre lies in the region's hull: a name (census
   given name + surname, or initial + surname) -> PERSON; a date (a month name or a numeric
   d/m/y shape beside a day or year) -> DATE; a number (a token of 3+ digits: file or
   receipt number) -> OTHER. The most sensitive wins (a name is direct, so it stays
   redacted under ``--types critical``). A stamp of none ("COPY", "CONFIDENTIAL", a logo)
   is left alone: it is not personal data.

Box: the region's ink extent padded by 0.2 text lines (a rotated stamp's axis-aligned box
takes some page at its corners). Constants are in units of the body text height, so they
hold at any scan resolution.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from redactor.plugin_api import OcrPage, Redaction, VisualDetector, box_area, intersection, reads_as_name, surnames
from redactor_plugins._options import as_bool
from redactor_plugins._rotated_text import line_angle
from redactor_plugins.visual_common import gray_of, ink_of, rules_mask, text_height, words_of

CHROMA = 50            # max(R,G,B) - min(R,G,B) of stamp ink; print and grey scans are < 30
PALE = 235             # a brighter channel max with strong chroma is a highlighter or a tint
HUE_TOLERANCE = 12     # OpenCV hue units (0..179): ink this close to the body text's hue is print
MIN_SIDE = 2.5         # text lines: a stamp holds two lines at least
MAX_SHARE = 0.5        # of the page, each way
MAX_FILL = 0.5         # stroke ink of a region's box (a solid band is a tint, not a stamp)
RING = (3.0, 30.0)     # outline size in text lines
HOLE = 0.6             # the ring's hole, as a share of the area inside its outer contour
ELLIPSE = (0.70, 0.86)  # contour area / its rotated rectangle: pi/4 = 0.785 for an ellipse
RECT = 0.92            # ... >= this: a rectangle
TILT = 2.0             # degrees a rectangle must lean off the page's own skew
PAD = 0.2              # text lines round the ink
COVER = 0.7            # share of a circle's circumference a seal's ring inks (worn, broken by the scan)

MONTHS = {"jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june",
          "jul", "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov",
          "november", "dec", "december"}
NUMERIC_DATE = re.compile(r"^\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}$")
# a day or year beside a month name, also as OCR merges a stamp's date wheel ("3.01969")
DAY_OR_YEAR = re.compile(r"^\d[\d.,'-]*(?:st|nd|rd|th)?$", re.I)
NUMBER = re.compile(r"\d{3,}")
INITIAL = re.compile(r"^[A-Z]\.$")
SENSITIVITY = ("PERSON", "DATE", "OTHER")   # direct, then contextual, then a bare number


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"\s+", text) if t]


def _is_date(tokens: list[str]) -> bool:
    """A numeric d/m/y, or a month name next to a day or a year ("APR 2 1984", "26 MAY 1981",
    "1984 JAN 13", "JAN 3.01969")."""
    clean = [t.strip(",;:()[]-").rstrip(".").lower() for t in tokens]
    for i, t in enumerate(clean):
        if NUMERIC_DATE.match(t):
            return True
        if t in MONTHS:
            near = clean[max(0, i - 1):i] + clean[i + 1:i + 2]
            if any(DAY_OR_YEAR.match(n) for n in near):
                return True
    return False


def _is_name(tokens: list[str]) -> bool:
    """A census given name and surname (``reads_as_name``) or an initial and a surname
    ("J. Smith"), in any 2 to 4 consecutive words of a line."""
    family = surnames()
    for i in range(len(tokens)):
        for n in (2, 3, 4):
            if i + n <= len(tokens) and reads_as_name(tokens[i:i + n]):
                return True
        if i + 1 < len(tokens) and INITIAL.match(tokens[i]):
            last = tokens[i + 1].strip(",;:.")
            if last[:1].isupper() and last.upper() in family:
                return True
    return False


def content_type(lines: list[str]) -> str | None:
    """The type of what a stamp's lines of text hold, the most sensitive first; None when
    they hold no name, date or number."""
    found = set()
    for line in lines:
        tokens = _tokens(line)
        if _is_name(tokens):
            found.add("PERSON")
        if _is_date(tokens):
            found.add("DATE")
        if NUMBER.search(line):
            found.add("OTHER")
    return next((t for t in SENSITIVITY if t in found), None)


@dataclass
class Region:
    """A stamp candidate: its ink box, hull (page coordinates), its ink as a mask of the
    box from ``origin``, and its lean off the page axes (degrees)."""
    box: tuple
    hull: np.ndarray
    ink: np.ndarray
    origin: tuple[int, int]
    lean: float


def _hue_distance(a, b):
    d = np.abs(a.astype(np.int16) - int(b))
    return np.minimum(d, 180 - d)


def _body_hue(rgb: np.ndarray, hsv: np.ndarray, gray: np.ndarray, words, h: float) -> int | None:
    """The hue of the print when the body text is itself coloured (a form printed in blue),
    from the ink under confidently read words; None for black or grey print."""
    ink = ink_of(gray)
    chroma = rgb.max(axis=2).astype(np.int16) - rgb.min(axis=2)
    picked_c, picked_h = [], []
    for w in words:
        if w.conf < 80 or len(w.text) < 3 or w.bbox[3] - w.bbox[1] > 3 * h:
            continue
        x0, y0, x1, y1 = (int(round(v)) for v in w.bbox)
        sel = ink[y0:y1, x0:x1]
        picked_c.append(chroma[y0:y1, x0:x1][sel])
        picked_h.append(hsv[y0:y1, x0:x1, 0][sel])
    if not picked_c:
        return None
    c, hue = np.concatenate(picked_c), np.concatenate(picked_h)
    if c.size == 0 or np.median(c) < CHROMA:
        return None
    # circular median: rotate so the most common hue sits mid-range, take the median, rotate back
    peak = int(np.bincount(hue, minlength=180).argmax())
    return int((np.median((hue.astype(np.int16) - peak + 90) % 180) + peak - 90) % 180)


def colour_regions(rgb: np.ndarray, gray: np.ndarray, words, h: float) -> list[Region]:
    """Each region of stamp-coloured ink: saturated, darker than a highlighter, not the body
    text's hue, strokes closed over about a text line."""
    import cv2

    H, W = gray.shape
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    chroma = rgb.max(axis=2).astype(np.int16) - rgb.min(axis=2)
    mask = (chroma >= CHROMA) & (gray <= 190)
    if not mask.any():
        return []
    body = _body_hue(rgb, hsv, gray, words, h)
    if body is not None:
        mask &= _hue_distance(hsv[..., 0], body) > HUE_TOLERANCE
    k = max(3, int(round(h)))
    closed = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, w, hh, _ = stats[i]
        if min(w, hh) < MIN_SIDE * h or w > MAX_SHARE * W or hh > MAX_SHARE * H:
            continue
        part = (lab[y:y + hh, x:x + w] == i) & mask[y:y + hh, x:x + w]
        if part.sum() > MAX_FILL * w * hh or part.sum() < 2 * h * h:
            continue
        ys, xs = np.nonzero(part)
        pts = np.stack([xs + x, ys + y], axis=1).astype(np.int32)
        if _framed(part):
            lean = _lean(cv2.minAreaRect(pts)[2])
        else:
            lean, sure = line_angle(xs.astype(float), ys.astype(float), h)
            if not sure or abs(lean) < TILT:
                continue                  # square to the page and unframed: printed colour (a letterhead, a logo)
        box = (float(xs.min() + x), float(ys.min() + y), float(xs.max() + x + 1), float(ys.max() + y + 1))
        out.append(Region(box, cv2.convexHull(pts).reshape(-1, 2), part, (x, y), lean))
    return out


def _framed(part: np.ndarray) -> bool:
    """One stroke of the region spans most of it both ways: a frame or ring round the text."""
    import cv2

    H, W = part.shape
    n, _, stats, _ = cv2.connectedComponentsWithStats(part.astype(np.uint8), connectivity=8)
    return any(stats[i, 2] >= 0.6 * W and stats[i, 3] >= 0.6 * H for i in range(1, n))


def _lean(angle: float) -> float:
    """A rotated rectangle's lean off the page axes, in degrees, signed, in [-45, 45)."""
    d = angle % 90.0
    return d - 90.0 if d >= 45.0 else d


def outline_regions(ink: np.ndarray, h: float) -> list[Region]:
    """Each closed outline round one big hole: an ellipse, or a rectangle leaning off the
    page's own skew; its ink is what lies inside the outer contour."""
    import cv2

    contours, hier = cv2.findContours(ink.astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return []
    hier = hier[0]
    rings, leans = [], []
    for i, c in enumerate(contours):
        if hier[i][3] != -1:
            continue                      # a hole, not an outer boundary
        x, y, w, hh = cv2.boundingRect(c)
        if not (RING[0] * h <= min(w, hh) and max(w, hh) <= RING[1] * h):
            continue
        area = cv2.contourArea(c)
        (_, _), (rw, rh), angle = cv2.minAreaRect(c)
        hull = cv2.contourArea(cv2.convexHull(c))
        if area <= 0 or rw * rh <= 0 or area < 0.95 * hull:
            continue
        fill = area / (rw * rh)
        if fill >= RECT:
            leans.append(_lean(angle))    # every printed box tells the page's skew
        child, hole = hier[i][2], 0.0
        while child != -1:
            hole = max(hole, cv2.contourArea(contours[child]))
            child = hier[child][0]
        if hole < HOLE * area:
            continue
        if ELLIPSE[0] <= fill <= ELLIPSE[1]:
            rings.append((c, None, _lean(angle)))
        elif fill >= RECT:
            rings.append((c, _lean(angle), _lean(angle)))
    skew = float(np.median(leans)) if leans else 0.0
    out = []
    for c, rect_lean, lean in rings:
        if rect_lean is not None and abs(rect_lean - skew) < TILT:
            continue                      # square to the page: a printed box
        x, y, w, hh = cv2.boundingRect(c)
        inside = np.zeros((hh, w), np.uint8)
        cv2.drawContours(inside, [c - np.array([x, y])], -1, 1, thickness=-1)
        part = ink[y:y + hh, x:x + w] & inside.astype(bool)
        out.append(Region((float(x), float(y), float(x + w), float(y + hh)), c.reshape(-1, 2), part, (x, y), lean))
    return out


def circle_regions(gray: np.ndarray, ink: np.ndarray, h: float) -> list[Region]:
    """Round seals on worn scans, where the ring is broken or crossed by a rule (so no closed
    contour): circles of 2 to 12 text lines radius (Hough, on the page blurred to its
    strokes' width) with ink on at least COVER of their circumference."""
    import cv2

    H, W = gray.shape
    blur = cv2.GaussianBlur(gray, (0, 0), max(1.0, h / 8))
    found = cv2.HoughCircles(blur, cv2.HOUGH_GRADIENT_ALT, dp=1.5, minDist=3 * h, param1=150, param2=0.6,
                             minRadius=int(2 * h), maxRadius=int(12 * h))
    if found is None:
        return []
    near = cv2.dilate(ink.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=max(1, int(h / 8)))
    angles = np.linspace(0, 2 * np.pi, 360, endpoint=False)
    out = []
    for cx, cy, r in found[0]:
        xs = np.clip((cx + r * np.cos(angles)).astype(int), 0, W - 1)
        ys = np.clip((cy + r * np.sin(angles)).astype(int), 0, H - 1)
        if near[ys, xs].mean() < COVER:
            continue
        x0, y0 = max(0, int(cx - r - 1)), max(0, int(cy - r - 1))
        x1, y1 = min(W, int(np.ceil(cx + r + 1))), min(H, int(np.ceil(cy + r + 1)))
        yy, xx = np.mgrid[y0:y1, x0:x1]
        # the ink inside the ring (the ring itself, broken into arcs, is no letter)
        part = ink[y0:y1, x0:x1] & ((xx - cx) ** 2 + (yy - cy) ** 2 <= (r - 0.3 * h) ** 2)
        hull = np.stack([cx + r * np.cos(angles[::10]), cy + r * np.sin(angles[::10])], axis=1)
        out.append(Region((float(x0), float(y0), float(x1), float(y1)), hull, part, (x0, y0), 0.0))
    return out


def _inside(box, other, share: float = 0.6) -> bool:
    """Whether at least ``share`` of ``box`` lies within ``other``."""
    return intersection(box, other) >= share * box_area(box)


def lines_inside(words, hull: np.ndarray) -> list[str]:
    """The OCR words whose centre lies in the region, as lines of text (by OCR line)."""
    import cv2

    poly = hull.reshape(-1, 1, 2).astype(np.float32)
    lines: dict[int, list] = {}
    for w in words:
        cx, cy = (w.bbox[0] + w.bbox[2]) / 2, (w.bbox[1] + w.bbox[3]) / 2
        if cv2.pointPolygonTest(poly, (float(cx), float(cy)), False) >= 0:
            lines.setdefault(w.line, []).append(w)
    return [" ".join(w.text for w in sorted(ws, key=lambda w: w.bbox[0])) for ws in lines.values()]


def upright_ink(region: Region, h: float) -> np.ndarray:
    """The region's letters black on white, turned upright: printed rules crossing it (a
    stamp pressed over a form line) and its outline taken out (a ring or frame spans half
    the region, no letter does), turned by its lean (whichever way makes the ink's box
    smaller), letters scaled to about 32 pixels (Tesseract's best size)."""
    import cv2

    ink = (region.ink & ~rules_mask(region.ink, max(3, int(3 * h)))).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    H, W = ink.shape
    frame = [i for i in range(1, n) if stats[i, 2] >= 0.5 * W or stats[i, 3] >= 0.5 * H]
    letters = (ink > 0) & ~np.isin(lab, frame)
    heights = [stats[i, 3] for i in range(1, n) if i not in frame and stats[i, 4] >= 4]
    scale = float(np.clip(32.0 / max(1.0, float(np.median(heights))), 1.0, 4.0)) if heights else 1.0
    pad = max(H, W) // 4 + 8
    img = np.pad(np.where(letters, 0, 255).astype(np.uint8), pad, constant_values=255)
    ys, xs = np.nonzero(img < 128)
    best = None
    for angle in (region.lean, -region.lean):
        m = cv2.getRotationMatrix2D((img.shape[1] / 2, img.shape[0] / 2), angle, scale)
        p = np.stack([xs, ys, np.ones_like(xs)], axis=1) @ m.T if len(xs) else np.zeros((1, 2))
        extent = float(np.ptp(p[:, 0]) * np.ptp(p[:, 1]))
        if best is None or extent < best[0]:
            best = (extent, m)
    size = (int(img.shape[1] * scale), int(img.shape[0] * scale))
    best[1][:, 2] += (np.array(size) - np.array(img.shape[::-1])) / 2
    return cv2.warpAffine(img, best[1], size, flags=cv2.INTER_LINEAR, borderValue=255)


class StampDetector(VisualDetector):
    name = "stamps"

    @classmethod
    def emits(cls) -> frozenset[str]:
        return frozenset(SENSITIVITY)

    @classmethod
    def unavailable_reason(cls) -> str | None:
        try:
            import cv2  # noqa: F401
        except ImportError:
            return "opencv-python-headless is not installed"
        return None

    def __init__(self, colour: bool = True, outlines: bool = True, read_again: bool = True):
        self.colour = as_bool("colour", colour)
        self.outlines = as_bool("outlines", outlines)
        self.read_again = as_bool("read_again", read_again)
        self._ocr = None

    def _reader(self):
        """Tesseract for a stamp's own upright read (None when it is not installed: the page's
        words alone then decide)."""
        if self._ocr is None and self.read_again:
            from redactor_plugins.tesseract_ocr import TesseractOcr
            self._ocr = False if TesseractOcr.unavailable_reason() else \
                TesseractOcr(psm=6, rotated_blocks=False, reread_unsure=False)
        return self._ocr or None

    def _reread(self, region: Region, h: float) -> list[str]:
        """A stamp turned off the page's lines reads as fragments in the page's OCR (and an
        outline keeps it from the rotated-text reader): its letters are read again upright."""
        from PIL import Image

        reader = self._reader()
        if reader is None:
            return []
        page = reader.read(Image.fromarray(upright_ink(region, h)).convert("RGB"))
        lines: dict[int, list] = {}
        for w in page.words:
            lines.setdefault(w.line, []).append(w)
        return [" ".join(w.text for w in sorted(ws, key=lambda w: w.bbox[0])) for ws in lines.values()]

    def find(self, image, page: OcrPage | None) -> list[Redaction]:
        words = words_of(page)
        gray = gray_of(image)
        H, W = gray.shape
        h = text_height(words, H)
        regions = []
        if self.colour:
            regions += colour_regions(np.asarray(image.convert("RGB"), dtype=np.uint8), gray, words, h)
        if self.outlines:
            ink = ink_of(gray)
            regions += outline_regions(ink, h) + circle_regions(gray, ink, h)
        regions.sort(key=lambda r: -(r.box[2] - r.box[0]) * (r.box[3] - r.box[1]))
        kept, out = [], []
        for region in regions:
            if any(_inside(region.box, k) for k in kept):
                continue                   # a double ring's inner ring, the outline of a colour region
            kept.append(region.box)
            lines = lines_inside(words, region.hull)
            kind = content_type(lines)
            if kind in (None, "OTHER"):    # nothing or only a number read: try it upright
                again = self._reread(region, h)
                lines += again
                kind = content_type(lines)
            if kind is None:
                continue
            box, pad = region.box, PAD * h
            padded = (max(0.0, box[0] - pad), max(0.0, box[1] - pad), min(float(W), box[2] + pad),
                      min(float(H), box[3] + pad))
            out.append(Redaction(padded, kind, " / ".join(lines), 0.8, (self.name,)))
        return out
