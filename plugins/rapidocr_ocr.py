"""OCR backend ``rapidocr``: PP-OCRv4 (PaddleOCR's detection and recognition networks) run on
CPU by onnxruntime through ``rapidocr-onnxruntime``, whose wheel carries the ONNX models, so
nothing is downloaded at run time.

PP-OCR finds text lines with a segmentation network and reads each line crop with a CRNN; it
reads much of what Tesseract loses on old scans (faint and broken print, text on shaded
fields, handwriting in block capitals) and fails on different words, which is why it is
also one half of the ``tesseract+rapidocr`` fusion (``plugins.fused_ocr``).

The engine returns text lines with a box per character (``return_word_box``); words are
the runs of characters between spaces, each boxed by the envelope of its characters' boxes
in pixels of the image as given. Lines on one baseline row become one line of the page
(forms put a label and its value on one row as separate lines); rows follow top to bottom.
"""
from __future__ import annotations

import logging
import threading
import unicodedata
from importlib import metadata

import cv2
import numpy as np

from redactor_plugins._options import as_float, as_int
from redactor.plugin_api import OcrBackend, OcrPage, PluginFailed, PluginUnavailable, union_box, WordBox

PACKAGE = "rapidocr-onnxruntime"
INSTALL_HINT = ("make install, or: pip install onnxruntime pyclipper && "
                "pip install --no-deps rapidocr-onnxruntime==1.4.4")
# Bumped whenever a change here can change the words returned: part of the cache key.
ALGORITHM_REVISION = "3"
# Two segments are on one row when they share this much of the smaller one's height.
ROW_OVERLAP = 0.5
# A gap between two segments of a row wider than this many of their heights starts a new line
# of the page: a form's label column and value column stay one line, two columns of a page
# of running text do not.
LINE_GAP_HEIGHTS = 6.0

# A blank gap of this share of the line's character pitch between two characters is a word
# space the recogniser did not write.
SPACE_PITCH = 0.45
AFTER_STOP_PITCH = 0.3

_ENGINE_LOCK = threading.Lock()


def _package_version() -> str | None:
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return None


class RapidOcr(OcrBackend):
    """PP-OCRv4 via rapidocr-onnxruntime. Options (constructor keywords):

    - ``threads``: onnxruntime threads per page (default 1: parallelise over pages, as with
      Tesseract; -1 lets onnxruntime take every core).
    - ``text_score``: lines the recogniser reads with a lower score are dropped (default 0.5,
      the engine's own default).
    - ``box_thresh``: detection score a text region needs (default 0.5).
    - ``limit_side_len``: the detector sees the page with its shorter side at least this many
      pixels (default 736, the engine's default; larger finds smaller text for more time).
    """
    name = "rapidocr"
    mapping_file = None

    def __init__(self, threads=1, text_score=0.5, box_thresh=0.5, limit_side_len=736):
        reason = self.unavailable_reason()
        if reason:
            raise PluginUnavailable(f"OCR 'rapidocr' is unavailable: {reason}")
        self.threads = as_int("threads", threads, -1, 64)
        if self.threads == 0:
            self.threads = 1
        self.text_score = as_float("text_score", text_score, 0.0, 1.0)
        self.box_thresh = as_float("box_thresh", box_thresh, 0.0, 1.0)
        self.limit_side_len = as_int("limit_side_len", limit_side_len, 32, 8192)
        self.version = _package_version() or "?"
        self._engine = None

    @classmethod
    def unavailable_reason(cls, **_options) -> str | None:
        if _package_version() is None:
            return f"package {PACKAGE} is not installed ({INSTALL_HINT})"
        try:
            import onnxruntime  # noqa: F401
        except ImportError as exc:
            return f"onnxruntime does not import ({exc}); {INSTALL_HINT}"
        return None

    def fingerprint(self) -> str:
        return (f"rapidocr {self.version} rev{ALGORITHM_REVISION} score={self.text_score} "
                f"box={self.box_thresh} side={self.limit_side_len}")

    def describe(self) -> str:
        return f"rapidocr {self.version} (PP-OCRv4, onnxruntime, {self.threads} thread(s))"

    def _load(self):
        if self._engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR
            except ImportError as exc:
                raise PluginUnavailable(f"OCR 'rapidocr' is unavailable: {exc} ({INSTALL_HINT})") from exc
            # Quiet: the engine logs every call at INFO otherwise.
            logging.getLogger("RapidOCR").setLevel(logging.WARNING)
            self._engine = RapidOCR(intra_op_num_threads=self.threads, inter_op_num_threads=1,
                                    det_limit_side_len=self.limit_side_len,
                                    print_verbose=False)
        return self._engine

    def read_lines(self, image) -> list[tuple[list[tuple[str, tuple, float]], tuple]]:
        """The engine's text lines on ``image`` (PIL, RGB): per line its words
        ``(text, box, conf 0-100)`` and the line's envelope, in pixels of ``image``."""
        engine = self._load()
        rgb = np.ascontiguousarray(np.asarray(image.convert("RGB"))[:, :, ::-1])
        with _ENGINE_LOCK:   # one onnxruntime session pair per process, not re-entrant-safe
            try:
                result, _ = engine(rgb, return_word_box=True, text_score=self.text_score,
                                   box_thresh=self.box_thresh)
            except Exception as exc:  # noqa: BLE001 - the engine raises bare errors on odd input
                raise PluginFailed(f"rapidocr failed: {type(exc).__name__}: {exc}") from exc
        gray = np.asarray(image.convert("L"))
        lines = []
        for item in result or ():
            words = words_of_line(item, gray)
            if words:
                lines.append((words, union_box([w[1] for w in words])))
        return lines

    def read(self, image) -> OcrPage:
        lines = self.read_lines(image)
        return OcrPage(width=image.width, height=image.height,
                       words=tuple(page_words(lines)), engine="rapidocr", version=self.version)


def _quad_box(points) -> tuple[float, float, float, float]:
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    return (float(pts[:, 0].min()), float(pts[:, 1].min()),
            float(pts[:, 0].max()), float(pts[:, 1].max()))


def words_of_line(item, gray: np.ndarray | None = None) -> list[tuple[str, tuple, float]]:
    """One engine line ``[quad, text, score, char_quads, chars, char_scores]`` -> its words
    ``(text, box, conf)``. Without character boxes the line box is shared out by character
    count (a monospace guess, only for lines the engine could not box).

    PP-OCR's recogniser, trained mostly on Chinese, often drops the space between English
    words ("GregoryLittle", "FaxNumber:305"). Given the page in grey, a run of characters is
    also cut where the ink between two characters leaves a blank gap as wide as a word
    space (``word_gaps``), after the colon that ends a label ("Name:John"), and at an
    underscore (the fill-in rule of a form, not a character of the value); and each word's
    box is fitted to its ink (the engine's boxes are the whole line's height, padded)."""
    quad, score = item[0], float(item[2])
    text = unicodedata.normalize("NFKC", str(item[1]))
    chars = [unicodedata.normalize("NFKC", str(c)) for c in item[4]] if len(item) > 4 and item[4] else []
    char_quads = list(item[3]) if len(item) > 3 and item[3] else []
    char_scores = [float(s) for s in item[5]] if len(item) > 5 and item[5] else [score] * len(chars)
    if not chars or len(chars) != len(char_quads) or len(char_scores) != len(chars):
        return _split_evenly(text.replace("_", " "), _quad_box(quad), score)
    boxes = [_quad_box(q) for q in char_quads]
    line_box = _quad_box(quad)
    ink = _line_ink(gray, line_box) if gray is not None else None
    cuts = word_gaps(chars, boxes, line_box, ink)
    phantoms = phantom_stops(chars, boxes, ink)
    words, run = [], []
    for i, ch in enumerate(chars):
        gap = ch.isspace() or ch == "_" or i in phantoms
        if gap or i in cuts:
            if run:
                words.append(_word(run, chars, boxes, char_scores, ink, line_box))
            run = []
            if gap:
                continue
        run.append(i)
    if run:
        words.append(_word(run, chars, boxes, char_scores, ink, line_box))
    return words


def _line_ink(gray: np.ndarray, line_box: tuple) -> tuple[np.ndarray, int, int] | None:
    """The line's ink (Otsu within the line's box) with form rules taken out, and the box's
    top-left corner; None when the box is empty or is not dark print on a light field."""
    h, w = gray.shape[:2]
    x0, y0 = max(int(line_box[0]), 0), max(int(line_box[1]), 0)
    x1, y1 = min(int(np.ceil(line_box[2])), w), min(int(np.ceil(line_box[3])), h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    _, ink = cv2.threshold(gray[y0:y1, x0:x1], 0, 1, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    if ink.mean() > 0.5:
        return None
    # an underline or a table rule through the line inks every column: a horizontal run
    # longer than any letter's stroke (three line heights) is a rule, not text
    rule_len = max(3 * (y1 - y0), 8)
    rules = cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (rule_len, 1)))
    return ink & (1 - rules), x0, y0


def _word(run: list[int], chars, boxes, scores, ink, line_box) -> tuple[str, tuple, float]:
    box = union_box([boxes[i] for i in run])
    if ink is not None:
        box = _fit_to_ink(box, ink)
    return ("".join(chars[i] for i in run), box,
            100.0 * float(np.mean([scores[i] for i in run])))


def _fit_to_ink(box: tuple, line_ink) -> tuple:
    """The word's box shrunk to the ink inside it (unchanged when it holds none)."""
    ink, ox, oy = line_ink
    x0, x1 = max(int(box[0]) - ox, 0), min(int(np.ceil(box[2])) - ox, ink.shape[1])
    y0, y1 = max(int(box[1]) - oy, 0), min(int(np.ceil(box[3])) - oy, ink.shape[0])
    part = ink[y0:y1, x0:x1]
    if part.size == 0 or not part.any():
        return box
    rows = np.flatnonzero(part.any(axis=1))
    cols = np.flatnonzero(part.any(axis=0))
    return (float(ox + x0 + cols[0]), float(oy + y0 + rows[0]),
            float(ox + x0 + cols[-1] + 1), float(oy + y0 + rows[-1] + 1))


def _blank_between(boxes, a: int, b: int, line_ink) -> int:
    lo = int(round((boxes[a][0] + boxes[a][2]) / 2)) - line_ink[1]
    hi = int(round((boxes[b][0] + boxes[b][2]) / 2)) - line_ink[1]
    return _longest_blank(line_ink[0].any(axis=0)[max(lo, 0):max(hi, 0)])


def _pitch(chars, boxes) -> float:
    pitches = [b[2] - b[0] for c, b in zip(chars, boxes) if not c.isspace()]
    return float(np.median(pitches)) if pitches else 0.0


def phantom_stops(chars: list[str], boxes: list[tuple], line_ink) -> set[int]:
    """Full stops the recogniser wrote for a word space ("has.read", "of.the"): a "." or ","
    between two letters where the ink from one letter to the next is one blank gap as wide
    as a word space. A printed stop is ink in that gap and splits it in two."""
    out: set[int] = set()
    if line_ink is None:
        return out
    pitch = _pitch(chars, boxes)
    for i in range(1, len(chars) - 1):
        if chars[i] in ".," and chars[i - 1].isalpha() and chars[i + 1].isalpha() and pitch > 0 \
                and _blank_between(boxes, i - 1, i + 1, line_ink) >= SPACE_PITCH * pitch:
            out.add(i)
    return out


def word_gaps(chars: list[str], boxes: list[tuple], line_box: tuple, line_ink) -> set[int]:
    """Indices of characters that start a new word although the engine put no space before
    them: the widest blank column run of the line's ink between the centres of the two
    characters is at least SPACE_PITCH of the line's median character pitch (a word space
    in print is about half a character wide, the gap between letters a fraction of that;
    AFTER_STOP_PITCH after a full stop or comma before a capital, as in initials and
    titles "M.Hamann", "Dr.A.", which sit closer to the next word; a domain's lower-case
    "fara.gov" is not cut there), or the
    previous character is the colon closing a label (a letter before it, not "://")."""
    cuts: set[int] = set()
    pitch = _pitch(chars, boxes)
    for i in range(1, len(chars)):
        a, b = chars[i - 1], chars[i]
        if a.isspace() or b.isspace():
            continue
        if a == ":" and i >= 2 and chars[i - 2].isalpha() and b != "/":
            cuts.add(i)
            continue
        if line_ink is None or pitch <= 0:
            continue
        need = AFTER_STOP_PITCH if a in ".," and b.isupper() else SPACE_PITCH
        if _blank_between(boxes, i - 1, i, line_ink) >= need * pitch:
            cuts.add(i)
    return cuts


def _longest_blank(inked: np.ndarray) -> int:
    best = run = 0
    for v in inked.tolist():
        run = 0 if v else run + 1
        best = max(best, run)
    return best


def _split_evenly(text: str, box, score: float) -> list[tuple[str, tuple, float]]:
    x0, y0, x1, y1 = box
    n = max(len(text), 1)
    step = (x1 - x0) / n
    out, pos = [], 0
    for token in text.split(" "):
        if token:
            out.append((token, (x0 + pos * step, y0, x0 + (pos + len(token)) * step, y1),
                        100.0 * score))
        pos += len(token) + 1
    return out


def page_words(lines) -> list[WordBox]:
    """Engine lines -> page words in reading order: lines sharing a row (ROW_OVERLAP of the
    smaller height) are ordered left to right and joined into one page line unless a gap of
    LINE_GAP_HEIGHTS separates them; rows go top to bottom, all in one block, so the page
    text keeps a label and the value beside it on one line."""
    order = sorted(range(len(lines)), key=lambda i: (lines[i][1][1] + lines[i][1][3]) / 2)
    rows: list[list[int]] = []
    for i in order:
        y0, y1 = lines[i][1][1], lines[i][1][3]
        for row in rows:
            ry0 = float(np.median([lines[j][1][1] for j in row]))
            ry1 = float(np.median([lines[j][1][3] for j in row]))
            overlap = min(y1, ry1) - max(y0, ry0)
            if overlap >= ROW_OVERLAP * min(y1 - y0, ry1 - ry0):
                row.append(i)
                break
        else:
            rows.append([i])
    out: list[WordBox] = []
    line_id = 0
    for row in sorted(rows, key=lambda r: min(lines[j][1][1] for j in r)):
        row.sort(key=lambda j: lines[j][1][0])
        line_id += 1
        prev = None
        for j in row:
            box = lines[j][1]
            if prev is not None:
                height = max(box[3] - box[1], prev[3] - prev[1], 1.0)
                if box[0] - prev[2] > LINE_GAP_HEIGHTS * height:
                    line_id += 1
            for text, wbox, conf in lines[j][0]:
                out.append(WordBox(text, wbox, conf, line_id, 0))
            prev = box
    return out
