"""OCR backend ``tesseract``: Debian's Tesseract (in-process through libtesseract, or the
binary through pytesseract), word level, made to read bad scans (low resolution, noise,
dithering, faint ink, skew, pages fed sideways).

Per page: clean the image (turn white-on-dark bands dark-on-light, flatten the
background, suppress noise, merge dithering),
estimate the text height (joining broken strokes first when the "text" measured is their
fragments), upscale small scans and shrink big text (``redactor_plugins._scan_cleanup``), straighten small skew,
read words (Tesseract's TSV); when that read is weak, turn the page upright with
Tesseract's orientation detection if its ink does not plainly show upright text lines,
and read it once more with its strokes repaired, keeping the better read.
Then read again, on enlarged crops, the unsure words and the lines Tesseract ran
together, keeping the better reading (optionally also whole unsure lines and the inked
places where it read nothing). Last, ink that no confident word covers and whose lines
run at an angle of their own (a stamp, a vertical or upside-down label) is turned
upright and read (``plugins._rotated_text``). Every box is mapped
back through the inverse of those transforms, so boxes are always in the pixel space of the
image given to ``read``. Tesseract runs with ``OMP_THREAD_LIMIT=1`` (several times faster
on small machines, same words); parallelise over pages instead.
"""
from __future__ import annotations

import logging
import math
import os
import re
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass

import numpy as np

from redactor_plugins import _scan_cleanup as sc
from redactor_plugins._options import as_bool
from redactor.plugin_api import (UNSURE_CONF, InputError, OcrBackend, OcrPage, PluginFailed, PluginUnavailable,
                                to_gray, WordBox)

from redactor_plugins import _rotated_text as rotated
from redactor_plugins._tesseract_lib import TesseractTimeout, load_library

# Bumped whenever a change here can change the words read: part of the cache key.
ALGORITHM_REVISION = "11"
INSTALL_HINT = "install Debian package tesseract-ocr"
log = logging.getLogger(__name__)
_CMD_LOCK = threading.Lock()
# Re-reading: crops are enlarged by this factor (a second look at another scale), a line's
# new reading must beat the old mean confidence by this margin, words found where nothing
# was read must reach this confidence, and at most this many regions are re-read per page.
REREAD_SCALE = 1.5
REREAD_LINE_HEIGHT = 1.3 * sc.BODY_TEXT_HEIGHT_300DPI * REREAD_SCALE   # a word box spans ascenders too
REREAD_MARGIN = 5.0
MAX_REREAD_REGIONS = 80
# A word taller than this many lines of confident words, and unsure, is lines run together.
MERGED_LINES = 1.8
MERGED_MAX_CONF = 60.0
MAX_MERGED_REGIONS = 12
MERGED_JOIN = 1.5   # gap, in lines, to the words beside such a word taken with it
# A word of line height read below UNSURE_CONF is read again on its own crop
# (``reread_unsure``): at most this many per page, in reading order.
MAX_UNSURE_REGIONS = 40
# Inked regions where nothing was read, read with them (``read_unread``).
MAX_UNREAD_REGIONS = 30
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
# A turned read replaces a vertical one when it reads at least this share of its quality:
# the vertical read's words are often right one by one, but out of order.
SIDEWAYS_GAIN = 0.8
# Words running down the page (sc.upright_text_evidence) that make a weak read with no
# answer from orientation detection worth reading turned both ways.
RUNS_DOWN_WORDS = 4
# choose_scale's smallest gain: text at least target / MIN_UPSCALE tall is read as it is.
MIN_UPSCALE = 1.25
# Text taller than MIN_UPSCALE times this is shrunk (area averaging) to this height:
# Tesseract reads it as well or better (noise averages out) in fewer pixels. Measured on
# the generated 300 dpi pages (docs/ocr.md, "6. Scaling"): 26 % less time, 4 % more values.
SHRINK_ABOVE = 16.0
# A page with text small enough to be upscaled and at least this share of its ink's
# components specks (``scan_cleanup.fragment_share``: strokes broken by dithering or wear)
# gets its strokes repaired before the first read, not after it (``repair_first``).
REPAIR_FIRST_SHARE = 0.25


@dataclass
class _Word:
    """A word while the page is being read: box in working-image coordinates."""
    text: str
    box: tuple[float, float, float, float]
    conf: float
    line_key: tuple
    block_key: tuple


def _run(cmd: list[str], timeout: float = 20.0) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.setdefault("OMP_THREAD_LIMIT", "1")
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          stdin=subprocess.DEVNULL, timeout=timeout, env=env)


def _resolve(cmd: str) -> str | None:
    return shutil.which(cmd)


def _installed_languages(path: str) -> list[str]:
    out = _run([path, "--list-langs"]).stdout.decode("utf-8", "replace").splitlines()
    return [ln.strip() for ln in out[1:] if ln.strip()]


def _tesseract_version(path: str) -> str:
    first = _run([path, "--version"]).stdout.decode("utf-8", "replace").splitlines()
    m = re.search(r"(\d+\.\d+(?:\.\d+)?)", first[0] if first else "")
    return m.group(1) if m else "unknown"


class TesseractOcr(OcrBackend):
    """Tesseract OCR, word level, with scan clean-up. Options (constructor keywords):

    - ``lang``: Tesseract language(s), e.g. ``"eng"`` or ``"eng+deu"`` (packs must be installed).
    - ``psm``: page segmentation mode; 3 (automatic layout) reads letters and forms; 11 or 12
      (sparse text) can find more of a scattered form at the cost of reading order.
    - ``dpi``: the scan's resolution when known; used to scale pages whose text size cannot be
      measured, and passed on to Tesseract.
    - ``scale``: ``"auto"`` (measure the text height and upscale small scans so text reaches
      the size Tesseract reads best) or a number (fixed factor; 1 = as given).
    - ``preprocess``: denoise and flatten the background before OCR (default on).
    - ``binarize``: hand Tesseract a locally thresholded image instead of the cleaned gray one.
    - ``remove_rules``: whiten table borders and form underlines before OCR (with preprocess;
      off by default: on blurred low-resolution text it also took out merged letters).
    - ``deskew``: straighten skew up to ``max_skew`` degrees (default on with preprocess).
    - ``orientation``: ``"auto"`` (Tesseract OSD finds pages at 90/180/270 degrees), ``"off"``,
      or 0/90/180/270: turn the page clockwise by that much to make it upright (what OSD
      calls "Rotate").
    - ``reread``: read again, on crops enlarged for their own text size, lines with a word
      below ``reread_conf`` and inked regions where nothing was read; the more confident
      reading is kept. Off by default: it measured no recall gain on the benchmark pages
      for about 17 % more time (see docs/ocr.md).
    - ``target_height``: text height in pixels that small scans are upscaled to (default
      ``scan_cleanup.TARGET_TEXT_HEIGHT``, 20: as many words as 30 for a quarter less time).
    - ``try_inverted``: let Tesseract also read every unsure word inverted (its
      ``tessedit_do_invert``, on by default). The clean-up already turns white-on-dark
      bands dark-on-light; the retry stays as the safety net for reverse video it does not
      catch (coloured bars, short labels), as it costs about 1 %. ``false`` saves that.
    - ``shrink_above``: text taller than 1.25x this many pixels is shrunk to it (default
      ``SHRINK_ABOVE``, 16: big text reads as well or better in a fraction of the time);
      ``off`` (or 0) never shrinks, as before revision 3.
    - ``join_broken``: before upscaling a page for small text, check that the small
      "characters" are not fragments of broken or dotted strokes
      (``scan_cleanup.join_broken_strokes``); if they are, join them and scale for the
      real text size (default on; ``false`` is the behaviour before revision 3).
    - ``repair``: when the read is weak (few confident words, or under READS_WELL of them
      confident: captions read, values not), read the page once more with its strokes
      repaired (``scan_cleanup.repair_strokes``) and keep the better read (default on).
    - ``orientation_check``: ``"ink"`` (default): orientation detection runs only when the
      ink does not plainly show upright text lines (``scan_cleanup.upright_text_evidence``);
      ``"read"``: whenever the first read is weak, before anything else (the behaviour
      before revision 3).
    - ``find_tables``: Tesseract's table finder (on by default; ``false`` passes
      ``-c textord_tabfind_find_tables=0``: more values read on forms with underlined
      fields, but worse boxes end to end, see docs/ocr.md).
    - ``split_merged``: read again, as blocks, the unsure words as tall as several lines
      where Tesseract ran lines together (on by default, docs/ocr.md "11. Re-reads on enlarged crops").
    - ``reread_unsure``: read again, each on its own enlarged crop, the words of line
      height read below UNSURE_CONF (on by default, docs/ocr.md "11. Re-reads on enlarged crops").
    - ``join_lines``: a row Tesseract returned as two lines in a row of its reading order
      (a word gap apart on one baseline) becomes one line (on by default, docs/ocr.md "12. Line joining"),
      and so do the cells of a form row it returned as lines of their own, out of reading
      order.
    - ``repair_first``: a page with text small enough to be upscaled and at least this share
      of its ink's components specks (``scan_cleanup.fragment_share``: dithered or worn
      strokes) is read with its strokes repaired straight away, instead of after a weak first
      read (default 0.25; ``off``: revision 8's order; docs/ocr.md "8. The first read").
    - ``rotated_blocks``: after the page is read, ink that no confident word covers and
      whose lines run at an angle of their own (a stamp turned 30 degrees, a vertical or
      upside-down label) is turned upright, read, and its words replace the fragments read
      over it, boxed as the axis-aligned hull of each turned word (``plugins._rotated_text``;
      default on; revision 10).
    - ``engine``: ``"auto"`` (default): Tesseract's library in-process (libtesseract,
      same words as the binary without its start-up on every read) when it is the default
      binary's version, else the binary; ``"library"`` insists on the library, ``"cli"``
      always runs the binary (docs/ocr.md "Speed").
    - ``timeout``: seconds allowed per page over all Tesseract runs; exceeded -> PluginFailed.
    - ``tesseract_cmd``: the binary (name on PATH or a path).
    """
    name = "tesseract"
    mapping_file = None

    def __init__(self, lang: str = "eng", psm: int = 3, dpi: int | None = None,
                 scale: str | float = "auto", preprocess: bool = True, binarize: bool = False,
                 deskew: bool | None = None, max_skew: float = 5.0, remove_rules: bool = False,
                 orientation: str | int = "auto", reread: bool = False, reread_conf: float = 60.0,
                 target_height: float = sc.TARGET_TEXT_HEIGHT, try_inverted: bool = True,
                 join_broken: bool = True, repair: bool = True, find_tables: bool = True,
                 orientation_check: str = "ink", shrink_above: float | None = SHRINK_ABOVE,
                 split_merged: bool = True, reread_unsure: bool = True, join_lines: bool = True,
                 read_unread: bool = True, repair_first: float | str | None = REPAIR_FIRST_SHARE,
                 rotated_blocks: bool = True, engine: str = "auto",
                 timeout: float = 120.0, tesseract_cmd: str = "tesseract", **unknown):
        if unknown:
            raise InputError(f"tesseract: unknown option(s): {', '.join(sorted(unknown))}")
        reason = self.unavailable_reason(lang=lang, tesseract_cmd=tesseract_cmd)
        if reason:
            raise PluginUnavailable(f"tesseract: {reason}")
        self.lang = str(lang)
        self.psm = _as_number(psm, "psm", int)
        if self.psm not in range(0, 14) or self.psm in (0, 2):
            raise InputError(f"tesseract: psm must be 1 or 3-13 (got {psm})")
        self.dpi = _as_number(dpi, "dpi", int) if dpi else None
        if self.dpi is not None and not 20 <= self.dpi <= 2400:
            raise InputError(f"tesseract: dpi must be between 20 and 2400 (got {dpi})")
        if isinstance(scale, str) and scale != "auto":
            try:
                scale = float(scale)
            except ValueError:
                raise InputError(f"tesseract: scale must be 'auto' or a number (got {scale!r})") from None
        if not isinstance(scale, str) and not 0.1 <= float(scale) <= 8:
            raise InputError(f"tesseract: scale must be between 0.1 and 8 (got {scale})")
        self.scale = scale if isinstance(scale, str) else float(scale)
        self.preprocess = as_bool("preprocess", preprocess)
        self.binarize = as_bool("binarize", binarize)
        self.deskew = self.preprocess if deskew is None else as_bool("deskew", deskew)
        self.max_skew = _as_number(max_skew, "max_skew", float)
        self.remove_rules = as_bool("remove_rules", remove_rules)
        orientation = str(orientation).lower()
        if orientation not in ("auto", "off", "0", "90", "180", "270"):
            raise InputError(f"tesseract: orientation must be auto, off, 0, 90, 180 or 270 "
                             f"(got {orientation!r})")
        self.orientation = orientation
        self.reread = as_bool("reread", reread)
        self.reread_conf = _as_number(reread_conf, "reread_conf", float)
        self.target_height = _as_number(target_height, "target_height", float)
        if not 8 <= self.target_height <= 80:
            raise InputError(f"tesseract: target_height must be between 8 and 80 px (got {target_height})")
        self.try_inverted = as_bool("try_inverted", try_inverted)
        self.join_broken = as_bool("join_broken", join_broken)
        self.repair = as_bool("repair", repair)
        self.find_tables = as_bool("find_tables", find_tables)
        self.split_merged = as_bool("split_merged", split_merged)
        self.reread_unsure = as_bool("reread_unsure", reread_unsure)
        self.join_lines = as_bool("join_lines", join_lines)
        self.read_unread = as_bool("read_unread", read_unread)
        self.rotated_blocks = as_bool("rotated_blocks", rotated_blocks)
        if str(shrink_above).strip().lower() in ("", "0", "none", "off", "false"):
            shrink_above = None
        self.shrink_above = _as_number(shrink_above, "shrink_above", float) if shrink_above else None
        if self.shrink_above is not None and not 12 <= self.shrink_above <= 80:
            raise InputError(f"tesseract: shrink_above must be between 12 and 80 px (got {shrink_above})")
        if str(repair_first).strip().lower() in ("", "none", "off", "false"):
            repair_first = None
        self.repair_first = _as_number(repair_first, "repair_first", float) \
            if repair_first is not None else None
        if self.repair_first is not None and not 0 < self.repair_first <= 1:
            raise InputError(f"tesseract: repair_first must be a share in (0, 1] or off (got {repair_first})")
        self.orientation_check = str(orientation_check).lower()
        if self.orientation_check not in ("ink", "read"):
            raise InputError(f"tesseract: orientation_check must be ink or read (got {orientation_check!r})")
        self.timeout = _as_number(timeout, "timeout", float)
        if self.timeout <= 0:
            raise InputError(f"tesseract: timeout must be positive (got {timeout})")
        self.cmd = _resolve(tesseract_cmd) or tesseract_cmd
        self.version = _tesseract_version(self.cmd)
        # Tesseract's OpenMP threads cost far more than they give on a few cores; children
        # inherit the environment, the library's OpenMP runtime reads it when first loaded
        # (below), and a value the user set stays.
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        self.engine = str(engine).lower()
        if self.engine not in ("auto", "library", "cli"):
            raise InputError(f"tesseract: engine must be auto, library or cli (got {engine!r})")
        self._lib = None
        if self.engine != "cli":
            lib = load_library()
            # the library is the binary's own engine only when their versions agree
            same = lib is not None and self.version == lib.version
            if self.engine == "library" and not same:
                raise PluginUnavailable(
                    "tesseract: engine=library needs libtesseract of the binary's version "
                    f"({self.version}); found {lib.version if lib else 'none'}: "
                    "install Debian package libtesseract5")
            if same and (self.engine == "library" or tesseract_cmd == "tesseract"):
                self._lib = lib
        if self._lib is not None:
            # The model loads in 0.1-0.2 s: paid here, once, it is not charged to the first
            # page (nor to its --page-timeout).
            try:
                self._lib.load_engine(self.lang)
            except RuntimeError as exc:
                raise PluginUnavailable(f"tesseract: {exc}: {INSTALL_HINT}") from None
        # Debian's tesseract-ocr depends on tesseract-ocr-osd; other installs may lack it.
        self._has_osd = "osd" in _installed_languages(self.cmd)
        if self.orientation == "auto" and not self._has_osd:
            log.warning("tesseract: no osd.traineddata, pages are not turned upright "
                        "(install Debian package tesseract-ocr-osd)")

    # ------------------------------------------------------------------ plugin protocol
    @classmethod
    def unavailable_reason(cls, lang: str = "eng", tesseract_cmd: str = "tesseract") -> str | None:
        path = _resolve(tesseract_cmd)
        if not path:
            where = "on PATH" if os.sep not in tesseract_cmd else f"at {tesseract_cmd}"
            return f"{tesseract_cmd} not found {where}: {INSTALL_HINT}"
        try:
            installed = _installed_languages(path)
        except (OSError, subprocess.SubprocessError) as exc:
            return f"{tesseract_cmd} does not run ({exc}): {INSTALL_HINT}"
        missing = [code for code in str(lang).split("+") if code and code not in installed]
        if missing:
            pkgs = " ".join(f"tesseract-ocr-{code.lower().replace('_', '-')}" for code in missing)
            return (f"Tesseract language pack(s) {'+'.join(missing)} not installed: "
                    f"install Debian package(s) {pkgs}")
        return None

    def fingerprint(self) -> str:
        return (f"tesseract {self.version} rev={ALGORITHM_REVISION} lang={self.lang} "
                f"psm={self.psm} dpi={self.dpi} scale={self.scale} preprocess={self.preprocess} "
                f"binarize={self.binarize} rules={self.remove_rules} deskew={self.deskew}/{self.max_skew} "
                f"orientation={self.orientation} reread={self.reread}/{self.reread_conf} "
                f"target={self.target_height:g} try_inverted={self.try_inverted} "
                f"join_broken={self.join_broken} repair={self.repair} "
                f"find_tables={self.find_tables} orientation_check={self.orientation_check} "
                f"shrink_above={self.shrink_above} split_merged={self.split_merged} "
                f"reread_unsure={self.reread_unsure} join_lines={self.join_lines} "
                f"read_unread={self.read_unread} repair_first={self.repair_first} "
                f"rotated={self.rotated_blocks}")

    def describe(self) -> str:
        # not in the fingerprint: library and binary read the same words
        return f"{self.fingerprint()} engine={'library' if self._lib is not None else 'cli'}"

    # ------------------------------------------------------------------ reading
    def read(self, image) -> OcrPage:
        deadline = time.monotonic() + self.timeout
        gray = _as_gray(image)
        height, width = gray.shape[:2]
        if width == 0 or height == 0:
            raise InputError("tesseract: empty image (0 pixels)")
        work, forward, text_h, dpi, specks = self._prepare(gray, image, deadline)
        # A page whose strokes broke into specks (dithered, worn) is read weakly as it is
        # and gets the repaired read anyway: it is read repaired straight away.
        repaired = self.repair and self.preprocess and self.repair_first is not None \
            and specks is not None and specks >= self.repair_first
        words = self._read_words(sc.repair_strokes(work, text_h) if repaired else work,
                                 self.psm, dpi, deadline)
        if self.orientation == "auto" and _reads_sideways(words):
            work, forward, words = self._turn_sideways(work, forward, words, text_h, dpi, deadline)
        if not _reads_upright(words):
            # Few confident words: a sideways or upside-down page, or a badly printed
            # upright one (broken, dotted, eaten-away strokes). Orientation detection
            # costs about as much as a read and is itself misled by broken strokes, so
            # what the ink shows decides the order: a page that plainly looks turned is
            # turned first; any other is read again with its strokes repaired, and only
            # if that read is weak too and the ink does not plainly show upright lines is
            # orientation detection asked.
            detect = self.orientation == "auto" and self._has_osd and bool(text_h)
            evidence = sc.upright_text_evidence(work, text_h) \
                if detect and self.orientation_check == "ink" else None
            turned_first = detect and (evidence is None or sc.looks_turned(evidence))
            if turned_first:
                before = work
                work, forward, words = self._turn_upright(work, forward, words, text_h, dpi, deadline,
                                                          evidence)
                repaired = repaired and work is before
            if self.repair and self.preprocess and not repaired and not _reads_upright(words):
                words, repaired = self._repaired_read(work, words, text_h, dpi, deadline), True
            if detect and not turned_first and not _reads_upright(words) \
                    and not sc.looks_upright(evidence):
                work, forward, words = self._turn_upright(work, forward, words, text_h, dpi, deadline,
                                                          evidence)
                repaired = False
        if self.repair and self.preprocess and not repaired and not _reads_well(words):
            # An upright page read only in part: bold captions read well, the broken or
            # faint print of the values beside them did not (a dithered copy's body text).
            words = self._repaired_read(work, words, text_h, dpi, deadline)
        line_h = _body_line_height(words)
        if line_h and (self.split_merged or self.reread_unsure or self.read_unread):
            # One Tesseract run for all: its start-up costs as much as reading the crops.
            merged = _merged_regions(words, line_h) if self.split_merged else []
            unsure = _unsure_regions(words, line_h, merged) if self.reread_unsure else []
            unread = _unread_regions(work, words, text_h or line_h, merged + unsure) \
                if self.read_unread else []
            words = self._read_regions_again(
                work, words, [(r, "merged") for r in merged] + [(r, "unsure") for r in unsure] +
                [(r, "unread") for r in unread], line_h, text_h, dpi, deadline)
        if self.reread:
            words = self._reread(work, words, text_h, dpi, deadline)
        if self.join_lines:
            words = _join_row_parts(_join_split_lines(words))
        if self.rotated_blocks and (text_h or line_h):
            words = self._read_rotated(work, words, text_h or line_h, dpi, deadline)
        return self._to_page(words, forward, width, height)

    def _read_rotated(self, work: np.ndarray, words: list[_Word], th: float, dpi: int,
                      deadline: float) -> list[_Word]:
        """Blocks of ink at an angle of their own read upright (``plugins._rotated_text``),
        all in one Tesseract run; a block's confident reading replaces the unsure words
        centred in it and goes in a block of its own."""
        seen = [(w.text, w.box, w.conf) for w in words]
        blocks = rotated.find_blocks(work, seen, th)
        tried = rotated.variants(work, blocks, th, seen) if blocks else []
        if not tried:
            return words
        canvas, placed = rotated.stack([v.image for v in tried], th)
        found = self._read_words(canvas, rotated.PSM, dpi, deadline)
        per = rotated.split([(w.text, w.box, w.conf, w.line_key) for w in found], placed)
        h, w = work.shape[:2]
        readings = rotated.best_reading(per, tried, w, h)
        if not readings:
            return words
        out = [wd for wd in words if rotated.is_confident(wd.text, wd.conf)
               or not any(rotated.inside(wd.box, blocks[b]) for b in readings)]
        for b, new in sorted(readings.items()):
            out.extend(_Word(t, box, conf, ("rotated", b) + tuple(key), ("rotated", b))
                       for t, box, conf, key in new)
        return out

    def _read_regions_again(self, work: np.ndarray, words: list[_Word],
                            regions: list[tuple[list[float], str]], line_h: float, text_h,
                            dpi: int, deadline: float) -> list[_Word]:
        """``regions`` read again, cropped and enlarged, in one Tesseract run: the new words
        of a region replace every word centred in it when they read better, are no less
        sure and lose no digit. A new word goes on the line of the unchanged word beside
        it: first the line of the word it replaces, else that of the unchanged word on its row
        (a value re-read beside its label stays on the label's line)."""
        if not regions:
            return words
        th = text_h or line_h
        new_by_region = self._read_crops(work, [tuple(r) for r, _ in regions], th, dpi, deadline)

        def centred_in(w: _Word, r) -> bool:
            cx, cy = (w.box[0] + w.box[2]) / 2, (w.box[1] + w.box[3]) / 2
            return r[0] <= cx <= r[2] and r[1] <= cy <= r[3]

        out = list(words)
        changed: set[tuple] = set()
        for n, ((r, tag), new) in enumerate(zip(regions, new_by_region)):
            old = [w for w in out if centred_in(w, r)]
            kept = [w for w in out if not centred_in(w, r)]
            # Halves of the neighbours the crop cut through are no new words.
            new = [w for w in new if _is_text(w)
                   and not any(_overlap_share(w.box, k.box) > 0.5 for k in kept)]
            if not old:
                # where nothing was read, only words Tesseract is fairly sure of: the rest
                # is a logo, a stamp or dirt read as letters
                new = [w for w in new if w.conf >= UNSURE_CONF]
            # Digits are what the values are made of: a read that loses some is no better.
            if not new or _quality(new) <= _quality(old) or _mean_conf(new) < _mean_conf(old) \
                    or _digits(new) < _digits(old):
                continue
            new = [_Word(w.text, w.box, w.conf, *(_line_for(w, old, line_h) or
                                                   _line_for(w, kept, line_h) or
                                                   ((tag, n) + tuple(w.line_key), (tag, n))))
                   for w in new]
            at = min(i for i, w in enumerate(out) if centred_in(w, r)) if old else len(out)
            out = [w for w in out[:at] if not centred_in(w, r)] + new + \
                [w for w in out[at:] if not centred_in(w, r)]
            changed.update(w.line_key for w in new)
        if not changed:
            return out
        # A line that took re-read words is read left to right, in one run, where it began.
        lines: dict[tuple, list[_Word]] = {}
        for w in out:
            lines.setdefault(w.line_key if w.line_key in changed else ("word", id(w)), []).append(w)
        return [w for key, ws in lines.items()
                for w in (sorted(ws, key=lambda w: w.box[0]) if key in changed else ws)]

    def _repaired_read(self, work: np.ndarray, words: list[_Word], text_h, dpi: int,
                       deadline: float) -> list[_Word]:
        """The better of ``words`` and a read of the page with its strokes repaired (pixels
        do not move, so the boxes of either read fit the same page)."""
        again = self._read_words(sc.repair_strokes(work, text_h), self.psm, dpi, deadline)
        return again if _quality(again) > _quality(words) else words

    def _prepare(self, gray: np.ndarray, image, deadline: float):
        """Working image, the affine from the given image to it, the working text height, the
        resolution to tell Tesseract, and the share of the ink's components that are specks
        (``scan_cleanup.fragment_share``; None where it was not measured: text tall enough
        not to be upscaled, or no clean-up)."""
        forward = sc.identity()
        work = gray
        # A fax stored at 204x98 dpi has squashed letters: its rows are further apart.
        xd, yd = _image_dpi(image)
        aspect = xd / yd if xd and yd and abs(xd / yd - 1) > 0.25 else 1.0
        if self.preprocess:
            # Cleaned at native size: dithering and noise are handled at the scale they
            # were made, and filtering costs a fraction of what it would after upscaling.
            bilevel = sc.is_bilevel(work)
            # White-on-dark headers turned round: Tesseract's inverted retry alone missed
            # some of their words on low-resolution scans (docs/ocr.md, "Speed").
            work = sc.normalise_polarity(work)
            work = sc.normalise_contrast(work)
            work = sc.denoise(work, aspect, bilevel)
        text_h = sc.estimate_text_height(work)
        specks = None
        if self.preprocess and (self.join_broken or self.repair_first is not None) \
                and (not text_h or text_h < self.target_height / MIN_UPSCALE):
            specks = sc.fragment_share(work)
        if self.join_broken and specks is not None and specks >= sc.FRAGMENT_SHARE:
            # Only pages about to be upscaled for small text: fragments of broken strokes
            # look like small text, while a page measured at full size is not enlarged.
            work, text_h = sc.join_broken_strokes(work, text_h, gain=sc.BROKEN_STROKE_GAIN)
        factor_x = factor_y = 1.0
        if self.scale == "auto":
            if text_h:
                f = sc.choose_scale(text_h * aspect, target=self.target_height,
                                    min_gain=MIN_UPSCALE, image_pixels=int(work.size * aspect))
            elif self.dpi and self.dpi < 200:
                f = min(4.0, 300.0 / self.dpi)
            else:
                f = 1.0
            if self.shrink_above and text_h and text_h * aspect > self.shrink_above * MIN_UPSCALE:
                # Big text costs Tesseract time in proportion to its pixels and reads no
                # better than text of ``shrink_above`` pixels.
                f = self.shrink_above / (text_h * aspect)
            # Square pixels too: the vertical factor also undoes the fax's squashing.
            factor_x, factor_y = f, f * aspect
        else:
            factor_x = factor_y = float(self.scale)
        if abs(factor_x - 1) > 1e-3 or abs(factor_y - 1) > 1e-3:
            work, m = sc.resize(work, factor_x, factor_y)
            forward = sc.compose(forward, m)
            if text_h:
                text_h *= factor_y
        if self.dpi:
            dpi = int(round(self.dpi * factor_x))
        else:
            # The resolution at which body text is as tall as it now is.
            dpi = int(round(300 * (text_h or sc.BODY_TEXT_HEIGHT_300DPI) / sc.BODY_TEXT_HEIGHT_300DPI))
        dpi = max(70, min(dpi, 1200))
        if self.preprocess and self.remove_rules and text_h:
            work = sc.remove_rules(work, text_h)
        if self.orientation not in ("auto", "off"):
            work, forward = _turn(work, forward, (-int(self.orientation) // 90) % 4)
        work, forward = self._straighten(work, forward, text_h)
        return work, forward, text_h, dpi, specks

    def _straighten(self, work: np.ndarray, forward, text_h):
        if self.deskew:
            angle = sc.estimate_skew(work, self.max_skew)
            if abs(angle) >= 0.3:
                work, m = sc.rotate(work, angle)
                forward = sc.compose(forward, m)
        if self.binarize:
            work = sc.binarise(work, text_h)
        return work, forward

    def _turn_upright(self, work: np.ndarray, forward, words: list[_Word], text_h, dpi: int,
                      deadline: float, evidence=None):
        """The page turned by what orientation detection says, deskewed and read again,
        when that read is better; else the page and words as they were. When detection
        has no answer (small or sparse text: a few lines on a card) but the ink's words
        run down rather than across (``evidence``, ``sc.upright_text_evidence``), both
        quarter turns are read and the better kept."""
        turns = self._quarter_turns(work, dpi, deadline)
        tries = [turns] if turns else ([1, 3] if _runs_down(evidence) else [])
        best = (work, forward, words)
        for t in tries:
            turned, fwd = _turn(work, forward, t)
            turned, fwd = self._straighten(turned, fwd, text_h)
            again = self._read_words(turned, self.psm, dpi, deadline)
            if _quality(again) > _quality(best[2]):
                best = (turned, fwd, again)
        return best

    def _turn_sideways(self, work: np.ndarray, forward, words: list[_Word], text_h, dpi: int,
                       deadline: float):
        """A page read as vertical text (``_reads_sideways``) turned a quarter each way and
        read again; the better read that is no longer sideways is kept. Orientation
        detection is not asked: it answers from the same glyphs the vertical read already
        recognised, and the two turns settle it at the cost of two reads."""
        best = (work, forward, words)
        for turns in (1, 3):
            turned, fwd = _turn(work, forward, turns)
            turned, fwd = self._straighten(turned, fwd, text_h)
            again = self._read_words(turned, self.psm, dpi, deadline)
            if not _reads_sideways(again) and _quality(again) > _quality(best[2]) * SIDEWAYS_GAIN:
                best = (turned, fwd, again)
        return best

    def _quarter_turns(self, work: np.ndarray, dpi: int, deadline: float) -> int:
        """Counter-clockwise quarter turns that make the page upright, by Tesseract's
        orientation detection (osd.traineddata, shipped with Debian's tesseract-ocr)."""
        import pytesseract
        try:
            osd = self._call(pytesseract.image_to_osd, work, deadline, lang="osd",
                             config=f"--dpi {dpi}", output_type=pytesseract.Output.DICT)
        except PluginFailed as exc:
            # Too little text to tell: read the page as it is.
            if "timed out" in str(exc):
                raise
            log.debug("orientation detection gave no answer: %s", exc)
            return 0
        rotate = int(osd.get("rotate", 0)) % 360
        if rotate == 0 or float(osd.get("orientation_conf", 0.0)) < 1.0:
            return 0
        return (-rotate // 90) % 4   # OSD's "Rotate" is clockwise degrees to upright

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

    def _reread(self, work: np.ndarray, words: list[_Word], text_h, dpi: int,
                deadline: float) -> list[_Word]:
        """Read again, on enlarged crops stacked into one image (one Tesseract run), the
        lines holding a word below ``reread_conf`` and the inked regions where nothing was
        read. A line's new reading replaces the old one when it is clearly more confident;
        words found where nothing was read are added when Tesseract is fairly sure of them."""
        th = text_h or sc.estimate_text_height(work)
        if not th:
            return words
        lines: dict[tuple, list[int]] = {}
        for i, w in enumerate(words):
            lines.setdefault(w.line_key, []).append(i)
        pad = th / 3.0
        regions: list[tuple[tuple, tuple | None]] = []
        for key, idx in lines.items():
            if min(words[i].conf for i in idx) < self.reread_conf:
                x0 = min(words[i].box[0] for i in idx) - pad
                y0 = min(words[i].box[1] for i in idx) - pad
                x1 = max(words[i].box[2] for i in idx) + pad
                y1 = max(words[i].box[3] for i in idx) + pad
                regions.append(((x0, y0, x1, y1), key))
        for box in sc.unread_ink_regions(work, [w.box for w in words], th):
            regions.append((box, None))
        regions = regions[:MAX_REREAD_REGIONS]
        if not regions:
            return words
        new_by_region = self._read_crops(work, [r[0] for r in regions], th, dpi, deadline)
        replaced: dict[tuple, list[_Word]] = {}
        added: list[tuple[float, list[_Word]]] = []
        for n, ((box, key), new) in enumerate(zip(regions, new_by_region)):
            new = [w for w in new if _is_text(w)]
            if not new:
                continue
            if key is not None:
                old = [words[i] for i in lines[key]]
                if _mean_conf(new) >= _mean_conf(old) + REREAD_MARGIN:
                    replaced[key] = [_Word(w.text, w.box, w.conf, key, old[0].block_key) for w in new]
            else:
                keep = [w for w in new if w.conf >= UNSURE_CONF]
                if keep:
                    tag = ("reread", n)
                    added.append(((box[1] + box[3]) / 2,
                                  [_Word(w.text, w.box, w.conf, tag, tag) for w in keep]))
        out: list[_Word] = []
        done: set[tuple] = set()
        for w in words:
            if w.line_key in replaced:
                if w.line_key not in done:
                    out.extend(replaced[w.line_key])
                    done.add(w.line_key)
            else:
                out.append(w)
        for cy, new in sorted(added, key=lambda a: a[0]):
            # After the last word already above the region, as a reader would meet it.
            pos = 0
            for i, w in enumerate(out):
                if (w.box[1] + w.box[3]) / 2 <= cy:
                    pos = i + 1
            out[pos:pos] = new
        return out

    def _read_crops(self, work: np.ndarray, boxes, th: float, dpi: int,
                    deadline: float) -> list[list[_Word]]:
        """OCR crops of ``work`` enlarged by ``REREAD_SCALE``, stacked on one white canvas
        with blank bands between them; words come back per crop in ``work`` coordinates."""
        import cv2
        h, w = work.shape[:2]
        gap = int(th * REREAD_SCALE)
        crops, placed = [], []
        y = gap
        width = 0
        pad = th / 3.0
        for x0, y0, x1, y1 in boxes:
            ix0, iy0 = max(0, int(x0)), max(0, int(y0))
            ix1, iy1 = min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1)))
            if ix1 - ix0 < 2 or iy1 - iy0 < 2:
                crops.append(None)
                placed.append(None)
                continue
            # Each crop is enlarged for its own text: fine print on a page of normal text
            # was left too small by the page-wide scale.
            line_h = max(1.0, (y1 - y0) - 2 * pad)
            s = float(np.clip(REREAD_LINE_HEIGHT / line_h, REREAD_SCALE, 4.0))
            # ... but no crop wider than the page at REREAD_SCALE: a long line read as fine
            # print made a canvas of 18000 px across (185 Mpx on a 42 Mpx page)
            s = max(REREAD_SCALE, min(s, REREAD_SCALE * w / (ix1 - ix0)))
            crop = cv2.resize(work[iy0:iy1, ix0:ix1], None, fx=s, fy=s, interpolation=cv2.INTER_CUBIC)
            crops.append(crop)
            placed.append((gap, y, ix0, iy0, crop.shape[1], crop.shape[0], s))
            y += crop.shape[0] + gap
            width = max(width, crop.shape[1])
        canvas = np.full((y, width + 2 * gap), 255, np.uint8)
        for crop, p in zip(crops, placed):
            if crop is not None:
                canvas[p[1]:p[1] + p[5], p[0]:p[0] + p[4]] = crop
        found = self._read_words(canvas, 6, int(dpi * REREAD_SCALE), deadline)
        per: list[list[_Word]] = [[] for _ in boxes]
        for wd in found:
            cy = (wd.box[1] + wd.box[3]) / 2
            for k, p in enumerate(placed):
                if p is not None and p[1] <= cy < p[1] + p[5]:
                    cx, top, s = p[0], p[1], p[6]
                    bx = ((wd.box[0] - cx) / s + p[2], (wd.box[1] - top) / s + p[3],
                          (wd.box[2] - cx) / s + p[2], (wd.box[3] - top) / s + p[3])
                    bx = (max(bx[0], p[2]), max(bx[1], p[3]),
                          min(bx[2], p[2] + p[4] / s), min(bx[3], p[3] + p[5] / s))
                    if bx[2] > bx[0] and bx[3] > bx[1]:
                        per[k].append(_Word(wd.text, bx, wd.conf, wd.line_key, wd.block_key))
                    break
        return per

    def _to_page(self, words: list[_Word], forward, width: int, height: int) -> OcrPage:
        back = sc.invert(forward)
        line_ids: dict[tuple, int] = {}
        block_ids: dict[tuple, int] = {}
        out: list[WordBox] = []
        for w in words:
            text = w.text.strip()
            if not text:
                continue
            box = sc.map_box(w.box, back, width, height)
            if box[2] <= box[0] or box[3] <= box[1]:
                continue
            line = line_ids.setdefault(w.line_key, len(line_ids) + 1)
            block = block_ids.setdefault(w.block_key, len(block_ids) + 1)
            out.append(WordBox(text=text, bbox=box, conf=float(w.conf), line=line, block=block))
        return OcrPage(width=width, height=height, words=tuple(out), engine="tesseract",
                       version=self.version)


# ---------------------------------------------------------------------- helpers
def _as_number(value, name: str, kind):
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise InputError(f"tesseract: {name} must be a number (got {value!r})") from None


def _body_line_height(words: list[_Word]) -> float | None:
    """Median height of the confident words (None with fewer than five)."""
    heights = [w.box[3] - w.box[1] for w in words
               if w.conf >= 80 and sum(ch.isalpha() for ch in w.text) >= 2]
    return float(np.median(heights)) if len(heights) >= 5 else None


def _merged_regions(words: list[_Word], line_h: float) -> list[list[float]]:
    """Where Tesseract's line finder ran several text lines together.

    A column of small print beside a column of larger type (an invoice's bank details
    beside its totals) can be taken for one line; the words then come back as one unsure
    "word" as tall as two or three lines, and the values in it are lost. The region is
    that word with the words beside it on the lines it spans: the merge often cuts a value
    in two, its first digits in the tall word and the rest beside it."""
    pad = line_h / 3.0
    regions: list[list[float]] = []
    for w in words:
        wh, ww = w.box[3] - w.box[1], w.box[2] - w.box[0]
        # Not a bracket or a rule: those are tall and thin.
        if w.conf < MERGED_MAX_CONF and wh > MERGED_LINES * line_h and ww > 0.6 * line_h:
            box = list(w.box)
            grown = True
            while grown:
                grown = False
                for o in words:
                    cy = (o.box[1] + o.box[3]) / 2
                    gap = max(o.box[0] - box[2], box[0] - o.box[2])
                    if box[1] <= cy <= box[3] and gap < MERGED_JOIN * line_h and \
                            not (box[0] <= o.box[0] and o.box[2] <= box[2]):
                        box = [min(box[0], o.box[0]), box[1], max(box[2], o.box[2]), box[3]]
                        grown = True
            _add_region(regions, [box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad])
    return regions[:MAX_MERGED_REGIONS]


def _unsure_regions(words: list[_Word], line_h: float,
                    taken: list[list[float]] = ()) -> list[list[float]]:
    """Words of line height that Tesseract was unsure of, each with a margin.

    In context, Tesseract sometimes misreads plain print badly ("Inv. #  INV-82465" under a
    big title came back as "Una  Ded" at 29 and 16): its line model was fitted to its
    neighbours. On its own crop, enlarged, the same word usually reads right and sure.
    Words as tall as several lines are the merged-lines case, and words in the ``taken``
    regions are read again with those; one-character words are mostly specks."""
    pad = line_h / 3.0
    regions: list[list[float]] = []
    for w in words:
        box = [w.box[0] - pad, w.box[1] - pad, w.box[2] + pad, w.box[3] + pad]
        if 0 <= w.conf < UNSURE_CONF and sum(ch.isalnum() for ch in w.text) >= 2 and \
                w.box[3] - w.box[1] <= MERGED_LINES * line_h and \
                not any(_overlaps(box, r) for r in taken):
            _add_region(regions, box)
            if len(regions) >= MAX_UNSURE_REGIONS:
                break
    return regions


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


def _unread_regions(work: np.ndarray, words: list[_Word], th: float,
                    taken: list[list[float]]) -> list[list[float]]:
    """Text-like ink where nothing was read (``scan_cleanup.unread_ink_regions``: faint
    or broken rows, values in table cells), outside the ``taken`` regions, at most
    MAX_UNREAD_REGIONS, in reading order."""
    out = []
    for box in sc.unread_ink_regions(work, [w.box for w in words], th):
        b = list(box)
        # narrower than two letters and their margins: a speck or a stroke between words,
        # whose "word" would split the value beside it ("269 it 703-9835")
        if b[2] - b[0] < 2.0 * th:
            continue
        if not any(_overlaps(b, r) for r in taken):
            out.append(b)
    return sorted(out, key=lambda b: (b[1], b[0]))[:MAX_UNREAD_REGIONS]


def _add_region(regions: list[list[float]], box: list[float]) -> None:
    """Add ``box``, joined with the first region it overlaps (a crop read twice would give
    its words twice)."""
    for r in regions:
        if _overlaps(box, r):
            r[:] = [min(r[0], box[0]), min(r[1], box[1]), max(r[2], box[2]), max(r[3], box[3])]
            return
    regions.append(box)


def _turn(work: np.ndarray, forward, turns: int):
    if turns % 4 == 0:
        return work, forward
    out, m = sc.rotate_quarters(work, turns)
    return out, sc.compose(forward, m)


def _quality(words: list[_Word]) -> float:
    """Confidence-weighted count of characters read as real words."""
    return sum(len(w.text) * max(w.conf, 0.0) / 100.0 for w in words
               if sum(ch.isalnum() for ch in w.text) >= 2)


def _overlaps(a, b) -> bool:
    """Whether two boxes share some area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _overlap_share(box, other) -> float:
    """Share of ``box``'s area that ``other`` covers."""
    iw = min(box[2], other[2]) - max(box[0], other[0])
    ih = min(box[3], other[3]) - max(box[1], other[1])
    area = (box[2] - box[0]) * (box[3] - box[1])
    return iw * ih / area if iw > 0 and ih > 0 and area > 0 else 0.0


def _is_text(word: _Word) -> bool:
    """Not a lone speck or stroke that a re-read crop returns as a one-character word."""
    return any(ch.isalnum() for ch in word.text) or len(word.text) > 1


def _digits(words: list[_Word]) -> int:
    return sum(ch.isdigit() for w in words for ch in w.text)


def _line_for(word: _Word, others: list[_Word], line_h: float) -> tuple[tuple, tuple] | None:
    """Line and block keys of the line ``word`` sits on among ``others`` (words of line
    height centred within half a line of it), or None."""
    cy = (word.box[1] + word.box[3]) / 2
    best, dist = None, 0.5 * line_h
    for o in others:
        d = abs((o.box[1] + o.box[3]) / 2 - cy)
        if d < dist and o.box[3] - o.box[1] < MERGED_LINES * line_h:
            best, dist = o, d
    return (best.line_key, best.block_key) if best is not None else None


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


def _runs_down(evidence) -> bool:
    """The ink's word shapes run down at least twice as often as across (a few of them
    suffice: too few for ``sc.looks_turned`` to be sure, enough to make two reads worth it)."""
    if evidence is None:
        return False
    across, down, _ = evidence
    return down >= RUNS_DOWN_WORDS and down >= 2 * across


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


def _as_gray(image) -> np.ndarray:
    if not isinstance(image, np.ndarray) and not (hasattr(image, "mode") and hasattr(image, "convert")):
        raise InputError(f"tesseract: expected a PIL image or numpy array, got {type(image).__name__}")
    return to_gray(image)


def _image_dpi(image) -> tuple[float, float]:
    info = getattr(image, "info", None) or {}
    dpi = info.get("dpi")
    try:
        return float(dpi[0]), float(dpi[1])
    except (TypeError, ValueError, IndexError):
        return 0.0, 0.0


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
