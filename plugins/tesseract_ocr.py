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
import os
import re
import shutil
import subprocess
import time

import numpy as np

from redactor_plugins import _scan_cleanup as sc
from redactor_plugins import _scan_geometry as geo
from redactor_plugins._options import as_bool
from redactor.plugin_api import InputError, OcrBackend, OcrPage, PluginUnavailable, to_gray, WordBox, overlaps
from redactor.plugin_api import UNSURE_CONF  # noqa: F401 (re-exported)

from redactor_plugins._tesseract_lib import load_library
# Tesseract's runs, the word model and the judgements on a read are in _tesseract_words, the
# second reads of parts of a page in _tesseract_regions, the page's turns in
# _tesseract_orientation; names imported from here stay here.
from redactor_plugins._tesseract_orientation import _Orientation, _turn
from redactor_plugins._tesseract_regions import (_merged_regions, _Rereads, _unread_regions,
                                                _unsure_regions, _vertical_regions, with_unread_beside)
from redactor_plugins._tesseract_regions import REREAD_SCALE  # noqa: F401 (re-exported)
from redactor_plugins._tesseract_words import (INSTALL_HINT, _body_line_height, _join_row_parts,
                                               _join_split_lines, _quality, _reads_sideways, _reads_upright,
                                               _reads_well, _TesseractCalls, _Word)

# Bumped whenever a change here or in _tesseract_* can change the words read: part of the cache key.
ALGORITHM_REVISION = "19"
log = logging.getLogger(__name__)
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
# ... unless that read is weak and the page read as it is reads this many times better
# (real dev: 1.07-1.4x on eight pages where the repaired read found more values, 2.7x and
# 75x on two where the repair had smudged clean print into blobs).
REPAIR_WRONG = 1.5


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


class TesseractOcr(_Orientation, _Rereads, _TesseractCalls, OcrBackend):
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
        if repaired and not _reads_well(words):
            # Specks are not always broken strokes: a clean form photocopied with toner dust
            # has as many, and the repair then joins its print into blobs (a whole page with
            # a cc: list of 38 names read as 34 words). A weak repaired read is weighed
            # against the page read as it is; only a much better plain read replaces it (the
            # repair also mends what a reading's confidence does not show).
            plain = self._read_words(work, self.psm, dpi, deadline)
            if _quality(plain) > REPAIR_WRONG * _quality(words):
                words = plain
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
            evidence = geo.upright_text_evidence(work, text_h) \
                if detect and self.orientation_check == "ink" else None
            turned_first = detect and (evidence is None or geo.looks_turned(evidence))
            if turned_first:
                before = work
                work, forward, words = self._turn_upright(work, forward, words, text_h, dpi, deadline,
                                                          evidence)
                repaired = repaired and work is before
            if self.repair and self.preprocess and not repaired and not _reads_upright(words):
                words, repaired = self._repaired_read(work, words, text_h, dpi, deadline), True
            if detect and not turned_first and not _reads_upright(words) \
                    and not geo.looks_upright(evidence):
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
            # a block read down is read across whole; its tall fragments are no lines run together
            vertical = _vertical_regions(words, line_h) if self.split_merged else []
            merged = [r for r in _merged_regions(words, line_h) if not any(overlaps(r, v) for v in vertical)] \
                if self.split_merged else []
            unsure = _unsure_regions(words, line_h, merged + vertical) if self.reread_unsure else []
            unread = _unread_regions(work, words, text_h or line_h, merged + unsure) \
                if self.read_unread else []
            unread = with_unread_beside(vertical, unread)
            words = self._read_regions_again(
                work, words, [(r, "merged") for r in merged] + [(r, "vertical") for r in vertical] +
                [(r, "unsure") for r in unsure] + [(r, "unread") for r in unread],
                line_h, text_h, dpi, deadline)
        if self.reread:
            words = self._reread(work, words, text_h, dpi, deadline)
        if self.join_lines:
            words = _join_row_parts(_join_split_lines(words))
        if self.rotated_blocks and (text_h or line_h):
            words = self._read_rotated(work, words, text_h or line_h, dpi, deadline)
        return self._to_page(words, forward, width, height)

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
        forward = geo.identity()
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
            work, m = geo.resize(work, factor_x, factor_y)
            forward = geo.compose(forward, m)
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

    def _to_page(self, words: list[_Word], forward, width: int, height: int) -> OcrPage:
        back = geo.invert(forward)
        line_ids: dict[tuple, int] = {}
        block_ids: dict[tuple, int] = {}
        out: list[WordBox] = []
        for w in words:
            text = w.text.strip()
            if not text:
                continue
            box = geo.map_box(w.box, back, width, height)
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
