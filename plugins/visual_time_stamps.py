"""Time-clock stamps: the date and time a registry, a court or a mail room presses on a page
it receives ("98 JUN 19 AM 10:16"), found where the page's OCR read nothing, as DATE.

The office convention: a receipt is stamped by a time-clock machine in the margin, often
turned a quarter ("CRM/ISS/REGISTRATION UNIT" under "2006 JAN 27 PM 4:57" running up the
right edge of a filing), in a condensed, worn stamp face. The page's read sees fragments;
the rotated-text reader (``plugins._rotated_text``) finds the block and turns it upright,
but Tesseract reads such a face too unsurely for its words to be kept. A stamp's own
grammar still shows through the misreadings: a month's abbreviation, digits, AM/PM and a
time ("$8 JUN | lO: 16", "SIAUG IA PH 2"). So:

1. **Lines**: blocks of ink running up or down the page (45 degrees or more off its lines)
   that no confident word covers (``_rotated_text.find_blocks``), turned upright both ways, cut into text lines by their
   ink's profile; a line needs the length of a date (``MIN_LENGTH`` letter heights). A stamp
   pressed upright ("NOV 3  2 01 PM 1967" over a filing's heading) is found by its letters:
   unread ink taller than the body text, joined along its line (``upright_blocks``). A stamp
   whose fields a time clock spaced wide ("'92 MAY 14 A7:48") falls apart at the body
   text's join; its letters joined down the page's columns make one tall, narrow line
   (``margin_blocks``), read on its own.
2. **Read**: each line read widened (a condensed face read as a book face's proportions) and
   at its own width (``READS``), all in one Tesseract run.
3. **Grammar**: a line whose best reading has a month or AM/PM and, beside it, a second
   mark of a time stamp (a month, AM/PM, a clock time, two numbers) is the stamp's date
   (``plugins._stamp_grammar.stamp_marks``); failing one such reading, the marks of all its
   readings together.
4. **Box**: the line's own ink, taken back to the page, grown along the line over unread ink
   in its band (a time set apart from the date, "PM   4:57"), not over the stamp's other
   lines: the date is the identifier, "REGISTRATION UNIT" is the registry's.

Constants are in units of the stamp's letter height (the line's thickness), so they hold at
any scan resolution.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from redactor.plugin_api import OcrPage, Redaction, VisualDetector, box_area, intersection
from redactor_plugins._stamp_grammar import SINGLE_READING, marks_score, stamp_marks, stamp_score
from redactor_plugins.visual_common import gray_of, text_height, words_of

MIN_LENGTH = 5.0       # a line this many letter heights long at least ("98 JUN 19": 9 glyphs)
MIN_LETTERS = 5        # glyph-sized pieces a line holds at least
# (letter height, widening) a line is read at: a condensed face widened to a book face's
# proportions, and at its own width (a worn face reads differently at each size; these three
# found every stamp the six pairs of 24/36 px by 1/1.5/2 found on the real dev scans)
READS = ((24.0, 1.0), (24.0, 1.5), (36.0, 1.0))
BAND = 0.6             # a piece of ink belongs to a line when its centre is this many letter
                       # heights off its axis at most
GAP = 2.0              # ... and no more than this many letter heights past the line's end
MAX_BLOCKS = 6         # blocks read per page
MIN_ANGLE = 45.0       # degrees off the page's lines: a time clock's line runs up or down the
                       # margin (a stamp pressed at a slant by hand is the ``stamps`` plugin's);
                       # on the real dev scans the blocks under 45 degrees were a tilted
                       # address block, handwriting and a logo, read for nothing
UPRIGHT_TALL = 1.3     # an upright stamp's letters are this many body text heights tall at least
GLYPH_TALL = 3.0       # ... and at most this many each way (a logo, a signature's loop is bigger)
JOIN_WIDE = 2.0        # its letters join along its line across gaps this many letter heights wide
JOIN_LONG = 3.0         # a margin stamp's figures join along its column across 3 body heights,
MARGIN_WIDE = 6.0       # ... into a group 1 to 6 body heights across (a letter's height to two
                        # stamp lines)
MARGIN_TALL = 3.0       # ... and 3 times as tall as wide: a line running up or down
ROW_SHARE = 0.25       # a row belongs to a text line when it holds this share of the fullest row's ink
PEAK_PERCENTILE = 90   # ... the fullest rows being those at this percentile of the inked rows
EDGE_SHARE = 0.08      # ... and its edge rows down to this share

@dataclass
class Line:
    """A text line of a turned block: its upright ink (letters black on white), the affine
    from those pixels back to the page, and its thickness (letter height) on the page."""
    image: np.ndarray
    back: np.ndarray
    height: float
    block: int


def block_lines(gray: np.ndarray, block, h: float, index: int) -> list[Line]:
    """The block turned upright both ways up, cut into its text lines by the rows its ink
    fills; lines too short for a date are left out."""
    import cv2

    from redactor_plugins import _rotated_text as rotated
    from redactor_plugins import _scan_geometry as geo

    crop, x0, y0 = rotated._cut(gray, block, h)
    to_crop = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0]])
    out = []
    for turn in (-block.angle, 180.0 - block.angle):
        image, m = geo.rotate(crop, turn)
        back = geo.invert(geo.compose(to_crop, m))
        ink = cv2.threshold(image, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)[1] > 0
        for start, stop in line_bands(ink):
            band = ink[start:stop]
            cols = np.nonzero(band.any(axis=0))[0]
            tall = stop - start
            if tall < 0.5 * h or not len(cols) or cols[-1] - cols[0] < MIN_LENGTH * tall:
                continue
            if cv2.connectedComponents(band.astype(np.uint8), connectivity=8)[0] - 1 < MIN_LETTERS:
                continue
            pad = max(2, tall // 4)
            a, b = max(0, start - pad), min(image.shape[0], stop + pad)
            part = np.where(ink[a:b], 0, 255).astype(np.uint8)
            shift = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, float(a)]])
            out.append(Line(part, geo.compose(shift, back), float(tall), index))
    return out


def _unread_ink(ink: np.ndarray, words, h: float) -> np.ndarray:
    """The merged ink mask less the page's rules and the ink under confidently read words."""
    import cv2

    from redactor_plugins import _rotated_text as rotated
    from redactor_plugins import _scan_cleanup as sc

    across, down = sc.long_runs(ink, h)
    mask = cv2.subtract(ink, cv2.dilate(across | down, np.ones((3, 3), np.uint8)))
    for w in words:
        if rotated.is_confident(w.text, w.conf):
            x0, y0, x1, y1 = (int(v) for v in w.bbox)
            mask[max(0, y0 - 2):y1 + 2, max(0, x0 - 2):x1 + 2] = 0
    return mask


def upright_blocks(gray: np.ndarray, ink: np.ndarray, words, h: float) -> list[tuple]:
    """Time stamps pressed upright (within MIN_ANGLE of the page's lines), as (block, the page
    with only the stamp's letters on white, its letter height). A time clock's face is bigger
    than typed text and spaced wide ("NOV 3  2 01 PM 1967" over a filing's heading), so the
    page read gives fragments and the rotated-text blocks (joined at the body text's size)
    break it into single letters. Its letters: ink no confident word covers, UPRIGHT_TALL to
    GLYPH_TALL body heights tall, joined along a line by a kernel as wide as JOIN_WIDE of their
    own height; a line needs MIN_LETTERS + 1 of them over MIN_LENGTH letter heights.
    ``ink``: the page's merged ink mask (``scan_cleanup.merged_ink_mask``)."""
    import cv2

    from redactor_plugins import _rotated_text as rotated

    n, labels, stats = rotated._labelled(_unread_ink(ink, words, h))
    tall = (stats[1:, 3] >= UPRIGHT_TALL * h) & (stats[1:, 3] <= GLYPH_TALL * h) & (stats[1:, 2] <= GLYPH_TALL * h)
    if int(tall.sum()) <= MIN_LETTERS:
        return []
    ids = np.nonzero(tall)[0] + 1
    letters = np.isin(labels, ids).astype(np.uint8) * 255
    del labels
    letter = float(np.median(stats[ids, 3]))
    joined = cv2.dilate(letters, np.ones((max(3, int(0.5 * letter)), max(3, int(JOIN_WIDE * letter))), np.uint8))
    nb, groups, gstats = rotated._labelled(joined)
    owner = groups[stats[ids, 1] + stats[ids, 3] // 2, stats[ids, 0] + stats[ids, 2] // 2]
    face = np.where(letters > 0, gray, 255).astype(np.uint8)
    out = []
    for g in range(1, nb):
        x, y, bw, bh = (int(v) for v in gstats[g, :4])
        if int((owner == g).sum()) <= MIN_LETTERS or bw < MIN_LENGTH * letter:
            continue
        region = (groups[y:y + bh, x:x + bw] == g) & (letters[y:y + bh, x:x + bw] > 0)
        ys, xs = np.nonzero(region)
        angle, sure = rotated.line_angle(xs.astype(float), ys.astype(float), letter)
        if abs(angle) >= MIN_ANGLE:
            continue
        contours, _ = cv2.findContours((groups[y:y + bh, x:x + bw] == g).astype(np.uint8),
                                       cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(np.vstack(contours)) + np.array([x, y])
        out.append((rotated.Block((x, y, x + bw, y + bh), hull.astype(np.int32), angle, sure,
                                  int((owner == g).sum())), face, letter))
    return out[:MAX_BLOCKS]


def _opening_lines(glyphs, origin, words, h: float) -> bool:
    """Whether most of a column's glyphs (``glyphs``: their stats, at ``origin``) each open a
    line of confidently read words right beside them: the checkboxes or bullets of a list
    (a FARA amendment's "[x] To correct a deficiency", "[ ] Supplemental Statement"), which
    stand stacked like a stamp's figures but lead a line each. A stamp pressed in a margin
    leads none."""
    from redactor_plugins import _rotated_text as rotated

    sure = [w.bbox for w in words if rotated.is_confident(w.text, w.conf)]
    opening = 0
    for gx, gy, gw, gh, _ in glyphs:
        y0, x1, y1 = origin[1] + gy, origin[0] + gx + gw, origin[1] + gy + gh
        if any(x1 - 0.5 * h <= b[0] <= x1 + 2.0 * h and min(y1, b[3]) - max(y0, b[1]) > 0.5 * min(gh, b[3] - b[1])
               for b in sure):
            opening += 1
    return opening > 0.5 * len(glyphs)


def margin_blocks(ink: np.ndarray, words, h: float, known: list) -> list:
    """Time stamps running up or down the page whose worn face the rotated-text blocks break
    apart: a time clock spaces its figures wide ("'92 MAY 14 A7:48" up a filing's margin,
    its month a few dots), so at the body text's join the stamp falls into blocks of a
    word or two, none with the glyphs of a block. Unread ink of letter size (and the dots
    between) is joined along the page's columns across JOIN_LONG body heights, not across
    them; a group standing MARGIN_TALL times as tall as wide, at least MIN_LENGTH letters
    long, is a line running up or down. ``ink``: the merged ink mask; ``known``: the
    rotated-text blocks already taken (a group over most of one, or mostly inside it, is
    left to it)."""
    import cv2

    from redactor_plugins import _rotated_text as rotated

    n, labels, stats = rotated._labelled(_unread_ink(ink, words, h))
    small = (np.maximum(stats[1:, 2], stats[1:, 3]) <= GLYPH_TALL * h) & (stats[1:, 4] >= 3)
    ids = np.nonzero(small)[0] + 1
    if len(ids) <= MIN_LETTERS:
        return []
    letters = np.isin(labels, ids).astype(np.uint8) * 255
    del labels
    # down the columns only: joined across, the dashes of a leader ("------N/A---") the
    # stamp was pressed over would carry it into a line running across
    joined = cv2.dilate(letters, np.ones((max(3, int(JOIN_LONG * h)), 1), np.uint8))
    nb, groups, gstats = rotated._labelled(joined)
    out = []
    for g in range(1, nb):
        x, y, gw, gh = (int(v) for v in gstats[g, :4])
        # the group's shape (its letters and the join down the column between them)
        if gh < MARGIN_TALL * gw or gh < MIN_LENGTH * h or not h <= gw <= MARGIN_WIDE * h:
            continue
        region = (groups[y:y + gh, x:x + gw] == g) & (letters[y:y + gh, x:x + gw] > 0)
        ys, xs = np.nonzero(region)
        box = (x + int(xs.min()), y + int(ys.min()), x + int(xs.max()) + 1, y + int(ys.max()) + 1)
        bw, bh = box[2] - box[0], box[3] - box[1]
        if any(intersection(box, b.box) > 0.5 * min(bw * bh, box_area(b.box)) for b in known):
            continue
        n_glyphs, _, glyphs, _ = cv2.connectedComponentsWithStats(region.astype(np.uint8), connectivity=8)
        if n_glyphs - 1 <= MIN_LETTERS:
            continue
        if _opening_lines(glyphs[1:], (x, y), words, h):
            continue
        angle, sure = rotated.line_angle(xs.astype(float), ys.astype(float), h)
        if abs(angle) < MIN_ANGLE:
            continue
        # cut round the joined group, as upright_blocks does: the worn face's specks between
        # the letters are read with them
        contours, _ = cv2.findContours((groups[y:y + gh, x:x + gw] == g).astype(np.uint8),
                                       cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(np.vstack(contours)) + np.array([x, y])
        out.append(rotated.Block(box, hull.astype(np.int32), angle, sure, len(xs)))
    out.sort(key=lambda b: -(b.box[3] - b.box[1]))
    return out[:MAX_BLOCKS]


def line_bands(ink: np.ndarray) -> list[tuple[int, int]]:
    """The text lines of an upright block's ink, as runs of rows. A line's rows are weighed
    against the block's fullest: print the stamp was pressed over crosses the gaps between
    its lines with a little ink. The fullest rows are those at PEAK_PERCENTILE, not the few
    a rule along the line fills (a form's line under a stamp, 71 pixels of ink in a row
    against the letters' 15-30): against those the letters' thin middle rows fell short, and
    a line was cut in halves that read as nothing."""
    rows = ink.sum(axis=1)
    peak = float(np.percentile(rows[rows > 0], PEAK_PERCENTILE)) if rows.any() else 0.0
    return _bands(rows, rows >= max(1.0, ROW_SHARE * peak))


def _bands(rows: np.ndarray, filled: np.ndarray) -> list[tuple[int, int]]:
    """Runs of ``filled`` rows, each widened over the fainter rows at its edges (a letter's
    top and foot ink less of the row than its stem) down to EDGE_SHARE of the peak, up to the
    next run."""
    runs, start = [], None
    for y, on in enumerate(np.append(filled, False)):
        if on and start is None:
            start = y
        elif not on and start is not None:
            runs.append([start, y])
            start = None
    edge = EDGE_SHARE * float(rows.max())
    for k, run in enumerate(runs):
        floor = runs[k - 1][1] if k else 0
        while run[0] > floor and rows[run[0] - 1] >= edge:
            run[0] -= 1
        ceiling = runs[k + 1][0] if k + 1 < len(runs) else len(rows)
        while run[1] < ceiling and rows[run[1]] >= edge:
            run[1] += 1
    return [(a, b) for a, b in runs]


def read_lines(reader, lines: list[Line]) -> list[list[str]]:
    """Each line's readings, one per ``READS`` pair, from one Tesseract run over all of them
    stacked on a canvas."""
    import cv2
    from PIL import Image

    from redactor_plugins import _rotated_text as rotated

    images, owner = [], []
    for k, line in enumerate(lines):
        for size, wide in READS:
            f = size / max(line.height, 1.0)
            images.append(cv2.resize(line.image, None, fx=f * wide, fy=f, interpolation=cv2.INTER_CUBIC))
            owner.append(k)
    readings: list[list[str]] = [[] for _ in lines]
    if not images:
        return readings
    canvas, placed = rotated.stack(images, max(size for size, _ in READS))
    page = reader.read(Image.fromarray(canvas).convert("RGB"))
    per = rotated.split([(w.text, w.bbox, w.conf, w.line) for w in page.words], placed)
    for k, words in zip(owner, per):
        readings[k].append(" ".join(t for t, box, _, _ in sorted(words, key=lambda w: w[1][0])))
    return readings


def grow_along(line: Line, ink: np.ndarray, taken: np.ndarray, width: int,
               height: int) -> tuple[float, float, float, float]:
    """The line's ink box on the page, grown along the line over pieces of unread ink whose
    centre lies in its band (within BAND letter heights of its axis) and within GAP letter
    heights past its end: a time set apart from the date ("PM   4:57") that the block finder
    left out. Distances are measured in the line's own upright frame, so a stamp turned 77
    degrees grows along its slant."""
    import cv2

    from redactor_plugins import _scan_geometry as geo

    ys, xs = np.nonzero(line.image < 128)
    pts = np.stack([xs + 0.5, ys + 0.5, np.ones_like(xs, dtype=float)], axis=1) @ line.back.T
    x0, y0 = float(pts[:, 0].min()) - 0.5, float(pts[:, 1].min()) - 0.5
    x1, y1 = float(pts[:, 0].max()) + 0.5, float(pts[:, 1].max()) + 0.5
    fwd = geo.invert(line.back)
    t = line.height
    u0, u1, vc = float(xs.min()), float(xs.max()), float(np.median(ys))
    # only the page round the line can hold its pieces: label that window, not the page
    reach = (GAP + 2.0) * t + (u1 - u0)
    wx0, wy0 = int(max(0, x0 - reach)), int(max(0, y0 - reach))
    wx1, wy1 = int(min(width, x1 + reach)), int(min(height, y1 + reach))
    mask = (ink[wy0:wy1, wx0:wx1] & ~taken[wy0:wy1, wx0:wx1]).astype(np.uint8)
    n, _, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 3
            and max(stats[i, 2], stats[i, 3]) <= 2.5 * t]
    if keep:
        c = np.asarray(cents[keep], dtype=float) + np.array([wx0, wy0])
        uv = np.hstack([c, np.ones((len(c), 1))]) @ fwd.T
        near = np.abs(uv[:, 1] - vc) <= BAND * t
        grown = True
        while grown:
            grown = False
            for j in np.nonzero(near)[0]:
                u = uv[j, 0]
                if u0 <= u <= u1 or not (u0 - GAP * t <= u <= u1 + GAP * t):
                    continue
                u0, u1 = min(u0, u), max(u1, u)
                st = stats[keep[j]]
                px, py = float(st[0] + wx0), float(st[1] + wy0)
                x0, y0 = min(x0, px), min(y0, py)
                x1, y1 = max(x1, px + float(st[2])), max(y1, py + float(st[3]))
                grown = True
    return (max(0.0, x0), max(0.0, y0), min(float(width), x1), min(float(height), y1))


class TimeStampDetector(VisualDetector):
    name = "time_stamps"

    @classmethod
    def emits(cls) -> frozenset[str]:
        return frozenset({"DATE"})

    @classmethod
    def unavailable_reason(cls) -> str | None:
        try:
            import cv2  # noqa: F401
        except ImportError:
            return "opencv-python-headless is not installed"
        from redactor_plugins.tesseract_ocr import TesseractOcr
        reason = TesseractOcr.unavailable_reason()
        return f"reads stamps with Tesseract: {reason}" if reason else None

    def __init__(self):
        self._ocr = None

    def _reader(self):
        if self._ocr is None:
            from redactor_plugins.tesseract_ocr import TesseractOcr
            # the lines come cut, turned and scaled: read as given, one uniform block (the
            # library engine where it loads: 0.17 s a read against 0.28 s by the binary,
            # +24 MB peak on the real dev run)
            self._ocr = TesseractOcr(psm=6, preprocess=False, scale=1, orientation="off",
                                     rotated_blocks=False, reread_unsure=False, read_unread=False,
                                     repair=False)
        return self._ocr

    def find(self, image, page: OcrPage | None) -> list[Redaction]:
        from redactor_plugins import _rotated_text as rotated
        from redactor_plugins import _scan_cleanup as sc

        words = words_of(page)
        gray = gray_of(image)
        H, W = gray.shape
        h = text_height(words, H)
        seen = [(w.text, w.bbox, w.conf) for w in words]
        blocks = [b for b in rotated.find_blocks(gray, seen, h) if abs(b.angle) >= MIN_ANGLE][:MAX_BLOCKS]
        lines = [ln for i, b in enumerate(blocks) for ln in block_lines(gray, b, h, i)]
        merged = sc.merged_ink_mask(gray)
        lines += [ln for i, (b, face, letter) in enumerate(upright_blocks(gray, merged, words, h), start=len(blocks))
                  for ln in block_lines(face, b, letter, i)]
        start = 1 + max((ln.block for ln in lines), default=len(blocks))
        margin = [ln for i, b in enumerate(margin_blocks(merged, words, h, blocks), start=start)
                  for ln in block_lines(gray, b, h, i)]
        if not lines and not margin:
            return []
        # read apart: Tesseract segments the stacked canvas as a whole, so lines added to it
        # change how the others read
        readings = (read_lines(self._reader(), lines) if lines else []) + \
            (read_lines(self._reader(), margin) if margin else [])
        lines += margin
        # per block, its line read best as a stamp (a line read upside down can show marks
        # too: "98 JUN 19" turned reads "91 G1 ah 86")
        best: dict[int, tuple[int, str, Line]] = {}
        for line, texts in zip(lines, readings):
            score, text = max((stamp_score(t), t) for t in texts)
            if not score:
                # a worn face reads differently at each size, each reading true in a part
                # ("7M4 MAN D7" has the month, "704 LEN 27" the numbers of "2006 JAN 27"):
                # the line's marks are those of all its readings
                score = marks_score(set().union(*(stamp_marks(t) - SINGLE_READING for t in texts)))
                text = " / ".join(texts)
            if score and (line.block not in best or score > best[line.block][0]):
                best[line.block] = (score, text, line)
        if not best:
            return []
        ink = merged > 0
        taken = np.zeros_like(ink)
        for w in words:
            if rotated.is_confident(w.text, w.conf):
                x0, y0, x1, y1 = (int(round(v)) for v in w.bbox)
                taken[y0:y1, x0:x1] = True
        out = []
        for _, text, line in best.values():
            out.append(Redaction(grow_along(line, ink, taken, W, H), "DATE", text, 0.7, (self.name,)))
        return out

