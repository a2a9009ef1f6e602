"""Tesseract's words, from the run that returns them to the judgements made on them.

The backend (``plugins/tesseract_ocr.py``) decides what to read: which image, turned which
way, repaired or not, which regions again. Every one of those decisions rests on the same
few questions about one read's words, asked here: did the read go well enough, is it the
better of two, is the page sideways, which lines are one row. They are kept apart from the
order of steps so that they can be read, changed and tested on words alone (a list of
``_Word``), without an image or a Tesseract run; and the running of Tesseract is here too,
as it is what produces those words (binary or library, within the page's deadline).
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

import numpy as np

from redactor.plugin_api import UNSURE_CONF, PluginFailed, PluginUnavailable

from redactor_plugins._tesseract_lib import TesseractTimeout

INSTALL_HINT = "install Debian package tesseract-ocr"
_CMD_LOCK = threading.Lock()

# The cells of one form row that Tesseract split into lines (``join_lines``).
ROW_PART_WORDS = 3      # a line of at most this many words may be a cell of the row beside it ...
ROW_PART_GAP = 30.0     # ... at most this many text heights away (nothing else between) ...
ROW_PART_HEIGHTS = 1.5  # ... its text height within this factor of the row's
# Share of a read's words read with confidence (>= 80) below which an upright page is read
# once more with its strokes repaired (``repair``).
READS_WELL = 0.8
# A read in which more than this share of the confident words are taller than wide is of a
# sideways page (horizontal text is wider than tall from three characters on, even in a
# condensed face; a page of vertical labels only, as on a spine, is the rare exception).
SIDEWAYS_SHARE = 0.5


@dataclass
class _Word:
    """A word while the page is being read: box in working-image coordinates."""
    text: str
    box: tuple[float, float, float, float]
    conf: float
    line_key: tuple
    block_key: tuple


class _TesseractCalls:
    """Running Tesseract for a page's words, the library in-process or the binary through
    pytesseract, within the page's deadline. Mixed into ``TesseractOcr``, whose options it
    reads (``cmd``, ``lang``, ``timeout``, ``try_inverted``, ``find_tables``, ``_lib``)."""

    def _timed_out(self) -> PluginFailed:
        return PluginFailed(f"tesseract timed out: page took over {self.timeout:g} s")

    def _time_left(self, deadline: float) -> float:
        """Seconds left for this page; PluginFailed when none are."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise self._timed_out()
        return remaining

    def _call(self, fn, img: np.ndarray, deadline: float, **kwargs):
        import pytesseract
        remaining = self._time_left(deadline)
        # pytesseract keeps the binary in a module global; every instance sets its own before
        # a run. Instances with different binaries in threads of one process are unsupported.
        with _CMD_LOCK:
            if pytesseract.pytesseract.tesseract_cmd != self.cmd:
                pytesseract.pytesseract.tesseract_cmd = self.cmd
        from PIL import Image
        pil = Image.fromarray(img)
        # pytesseract hands the page over as a file in this format: uncompressed PNM costs
        # milliseconds where PNG compression of a 300 dpi page costs up to a second.
        pil.format = "PPM"
        try:
            return fn(pil, timeout=remaining, **kwargs)
        except RuntimeError as exc:
            if "timeout" in str(exc).lower():
                raise self._timed_out() from None
            raise PluginFailed(f"tesseract failed: {exc}") from None
        except pytesseract.TesseractNotFoundError:
            raise PluginUnavailable(f"tesseract: {self.cmd} not found: {INSTALL_HINT}") from None
        except pytesseract.TesseractError as exc:
            msg = " ".join(str(exc.message).split()) or f"exit status {exc.status}"
            raise PluginFailed(f"tesseract failed: {msg[:300]}") from None

    def _read_words(self, img: np.ndarray, psm: int, dpi: int, deadline: float) -> list[_Word]:
        if self._lib is not None:
            remaining = self._time_left(deadline)
            try:
                data = self._lib.image_to_data(img, self.lang, psm, dpi, self._variables(), remaining)
            except TesseractTimeout:
                raise self._timed_out() from None
            except RuntimeError as exc:
                raise PluginFailed(f"tesseract failed: {exc}") from None
            return _words_from_data(data)
        import pytesseract
        data = self._call(pytesseract.image_to_data, img, deadline, lang=self.lang,
                          config=f"--psm {psm} --dpi {dpi}{self._extra_config()}", output_type=pytesseract.Output.DICT)
        return _words_from_data(data)

    def _variables(self) -> dict[str, str]:
        """Tesseract variables the options change from Tesseract's defaults."""
        variables = {}
        if not self.try_inverted:
            variables["tessedit_do_invert"] = "0"
        if not self.find_tables:
            variables["textord_tabfind_find_tables"] = "0"
        return variables

    def _extra_config(self) -> str:
        return "".join(f" -c {k}={v}" for k, v in self._variables().items())


def _words_from_data(data: dict, prefix: tuple = ()) -> list[_Word]:
    """Word rows (level 5) of ``image_to_data``'s dict, in Tesseract's reading order."""
    out: list[_Word] = []
    n = len(data.get("text", []))
    for i in range(n):
        if int(data["level"][i]) != 5:
            continue
        text = str(data["text"][i]).strip()
        if not text:
            continue
        try:
            conf = float(data["conf"][i])
        except (TypeError, ValueError):
            conf = -1.0
        left, top = float(data["left"][i]), float(data["top"][i])
        box = (left, top, left + float(data["width"][i]), top + float(data["height"][i]))
        block = prefix + (int(data["page_num"][i]), int(data["block_num"][i]), int(data["par_num"][i]))
        out.append(_Word(text, box, conf, block + (int(data["line_num"][i]),), block))
    return out


def _body_line_height(words: list[_Word]) -> float | None:
    """Median height of the confident words (None with fewer than five)."""
    heights = [w.box[3] - w.box[1] for w in words
               if w.conf >= 80 and sum(ch.isalpha() for ch in w.text) >= 2]
    return float(np.median(heights)) if len(heights) >= 5 else None


def _quality(words: list[_Word]) -> float:
    """Confidence-weighted count of characters read as real words."""
    return sum(len(w.text) * max(w.conf, 0.0) / 100.0 for w in words
               if sum(ch.isalnum() for ch in w.text) >= 2)


def _is_text(word: _Word) -> bool:
    """Not a lone speck or stroke that a re-read crop returns as a one-character word."""
    return any(ch.isalnum() for ch in word.text) or len(word.text) > 1


def _digits(words: list[_Word]) -> int:
    return sum(ch.isdigit() for w in words for ch in w.text)


def _mean_conf(words: list[_Word]) -> float:
    chars = sum(len(w.text) for w in words)
    return sum(len(w.text) * w.conf for w in words) / chars if chars else -1.0


def _reads_upright(words: list[_Word]) -> bool:
    """A read of an upright page has confident words; a sideways or upside-down page
    yields few words, mostly low-confidence fragments. Or a sideways page is read
    confidently as vertical text, each word's box taller than wide, but its lines come
    out in reverse order ("0958 7946 20 +44 Tel" for "Tel +44 20 7946 0958"): no value
    that spans words is found then, so such a read is no upright one either."""
    good = [w for w in words if w.conf >= 80 and sum(ch.isalpha() for ch in w.text) >= 3]
    if len(good) < 5 or len(good) < 0.3 * len(words):
        return False
    return _vertical_share(good) < SIDEWAYS_SHARE


def _reads_sideways(words: list[_Word]) -> bool:
    """Tesseract read the page's text as vertical lines: most confident words are taller
    than wide (a sideways page, or one shown turned by a PDF's /Rotate)."""
    good = [w for w in words if w.conf >= 60 and sum(ch.isalnum() for ch in w.text) >= 3]
    return len(good) >= 3 and _vertical_share(good) >= SIDEWAYS_SHARE


def _vertical_share(words: list[_Word]) -> float:
    """Share of ``words`` (of three or more characters) whose box is taller than wide."""
    # boxes of Tesseract's words (``box``) or of a page's WordBoxes (``bbox``) alike
    boxes = [getattr(w, "box", None) or w.bbox for w in words if len(w.text) >= 3]
    if not boxes:
        return 0.0
    return sum((b[3] - b[1]) > 1.2 * (b[2] - b[0]) for b in boxes) / len(boxes)


def _reads_well(words: list[_Word]) -> bool:
    """Whether a read is good enough to need no second one: at least READS_WELL of its
    words read with confidence (measured on the 500 generated pages: every page below
    0.7 leaked a critical value and the repaired read recovered twice as many of them;
    between 0.7 and 0.8 it still recovered 27 more on 5 of 19 pages, above 0.8 3 on 2 of
    28, for a read each)."""
    return bool(words) and sum(w.conf >= 80 for w in words) >= READS_WELL * len(words)


def _join_split_lines(words: list[_Word]) -> list[_Word]:
    """One row that Tesseract returned as two lines, one after the other in reading order,
    made one line again.

    A taller word (descenders, "Highway" after "3899 Emma") or a wider space can start a
    new line mid-row: "Lake Loretta," | "PA 66759", "Contact:" | "Scott Rose". Split, a
    street or a labelled value no longer reads as one. The next line joins when its first
    word starts right of the line's last word, less than 1.5 text heights after it, with
    their centres within a third of a height (a word gap on the same baseline)."""
    out: list[_Word] = []
    key_of: dict[tuple, tuple[tuple, tuple]] = {}
    prev_key = None
    for w in words:
        if w.line_key != prev_key and out and w.line_key not in key_of:
            last = out[-1]
            h = min(last.box[3] - last.box[1], w.box[3] - w.box[1])
            gap = w.box[0] - last.box[2]
            dy = abs((last.box[1] + last.box[3]) - (w.box[1] + w.box[3])) / 2
            if h > 0 and 0 <= gap < 1.5 * h and dy < h / 3:
                key_of[w.line_key] = (last.line_key, last.block_key)
        prev_key = w.line_key
        if w.line_key in key_of:
            line_key, block_key = key_of[w.line_key]
            w = _Word(w.text, w.box, w.conf, line_key, block_key)
        out.append(w)
    return out


def _join_row_parts(words: list[_Word]) -> list[_Word]:
    """The cells of one form row that Tesseract returned as separate lines, out of reading
    order ("759" | "|99  49  Divorced" | "8904" under "SOCIAL SECURITY NO.  AGE  STATUS";
    "059 Krystal Expressway" | "New Danielview" | "WA" | "73486"), made one line, its
    words left to right. A line of at most ROW_PART_WORDS words joins the line it sits
    beside: centres within a third of a text height, heights alike, no word of one over a
    word of the other, at most ROW_PART_GAP text heights apart with no other line's word
    between. Long lines side by side (two columns of prose) stay apart."""
    lines: dict[tuple, list[_Word]] = {}
    for w in words:
        lines.setdefault(w.line_key, []).append(w)
    if len(lines) < 2:
        return words
    info = {}
    for key, ws in lines.items():
        hs = sorted(w.box[3] - w.box[1] for w in ws)
        h = hs[len(hs) // 2]
        cy = sorted((w.box[1] + w.box[3]) / 2 for w in ws)[len(ws) // 2]
        info[key] = (h, cy, min(w.box[0] for w in ws), max(w.box[2] for w in ws))
    root: dict[tuple, tuple] = {}

    def find(k):
        while k in root:
            k = root[k]
        return k

    # a cell joins only with nothing between it and the row: a second pass sees the cells
    # joined in the first ("759" after the comb box "[29" between it and "8904" joined)
    for _ in range(2):
        _join_cells_once(lines, info, root, find)
    if not root:
        return words
    groups: dict[tuple, list[_Word]] = {}
    for w in words:
        groups.setdefault(find(w.line_key), []).append(w)
    out: list[_Word] = []
    for r, ws in groups.items():      # in the order of each row's first word
        head = lines[r][0]
        out.extend(_Word(x.text, x.box, x.conf, head.line_key, head.block_key)
                   for x in sorted(ws, key=lambda x: x.box[0]))
    return out


def _join_cells_once(lines: dict, info: dict, root: dict, find) -> None:
    """One pass of :func:`_join_row_parts`: each short line not yet joined joins the best
    row beside it (``root`` maps a joined line to the line it joined)."""
    for key, ws in lines.items():
        if key in root:
            continue
        if len(ws) > ROW_PART_WORDS:
            continue
        h, cy, x0, x1 = info[key]
        if h <= 0:
            continue
        best, best_gap = None, math.inf
        for other, ows in lines.items():
            if other == key or find(other) == find(key):
                continue
            oh, ocy, ox0, ox1 = info[other]
            hh = min(h, oh)
            # a single unsure word may be taller: a comb cell read with its border ("[29")
            alike = 1 / ROW_PART_HEIGHTS <= h / oh <= ROW_PART_HEIGHTS or \
                (len(ws) == 1 and 0 <= ws[0].conf < UNSURE_CONF and h > oh)
            if abs(cy - ocy) >= hh / 3 or not alike:
                continue
            if any(w.box[0] < o.box[2] and o.box[0] < w.box[2] for w in ws for o in ows):
                continue
            gap = min(min(abs(o.box[0] - x1), abs(x0 - o.box[2])) for o in ows)
            if gap > ROW_PART_GAP * hh:
                continue
            near = min(ows, key=lambda o: min(abs(o.box[0] - x1), abs(x0 - o.box[2])))
            a, b = (x1, near.box[0]) if near.box[0] >= x1 else (near.box[2], x0)
            between = any(a < (w.box[0] + w.box[2]) / 2 < b and abs((w.box[1] + w.box[3]) / 2 - cy) < hh
                          for k2, ws2 in lines.items() if find(k2) not in (find(key), find(other))
                          for w in ws2)
            if between:
                continue
            if best is None or len(ows) > len(lines[best]) or \
                    (len(ows) == len(lines[best]) and gap < best_gap):
                best, best_gap = other, gap
        if best is not None:
            root[key] = find(best)
