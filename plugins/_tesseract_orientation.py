"""Turning a page to be read: small skew straightened, a page fed sideways or upside down
turned upright, each turn kept only when the read after it is better.

Mixed into ``TesseractOcr`` (uses its ``_read_words``, ``_call``, ``psm``, ``deskew``,
``max_skew`` and ``binarize``). Kept apart from the backend's order of steps: which turns
are tried, and when a turned read replaces the read as it was, is judged on the reads
alone (``_quality``, ``_reads_sideways``).
"""
from __future__ import annotations

import logging

import numpy as np

from redactor_plugins import _scan_cleanup as sc
from redactor_plugins import _scan_geometry as geo
from redactor.plugin_api import PluginFailed
from redactor_plugins._tesseract_words import _quality, _reads_sideways, _Word

log = logging.getLogger("redactor_plugins.tesseract_ocr")
# A turned read replaces a vertical one when it reads at least this share of its quality:
# the vertical read's words are often right one by one, but out of order.
SIDEWAYS_GAIN = 0.8
# Words running down the page (geo.upright_text_evidence) that make a weak read with no
# answer from orientation detection worth reading turned both ways.
RUNS_DOWN_WORDS = 4


class _Orientation:
    """The page's turns and their reads (mixed into ``TesseractOcr``)."""

    def _straighten(self, work: np.ndarray, forward, text_h):
        if self.deskew:
            angle = geo.estimate_skew(work, self.max_skew)
            if abs(angle) >= 0.3:
                work, m = geo.rotate(work, angle)
                forward = geo.compose(forward, m)
        if self.binarize:
            work = sc.binarise(work, text_h)
        return work, forward

    def _turn_upright(self, work: np.ndarray, forward, words: list[_Word], text_h, dpi: int,
                      deadline: float, evidence=None):
        """The page turned by what orientation detection says, deskewed and read again,
        when that read is better; else the page and words as they were. When detection
        has no answer (small or sparse text: a few lines on a card) but the ink's words
        run down rather than across (``evidence``, ``geo.upright_text_evidence``), both
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


def _turn(work: np.ndarray, forward, turns: int):
    if turns % 4 == 0:
        return work, forward
    out, m = geo.rotate_quarters(work, turns)
    return out, geo.compose(forward, m)


def _runs_down(evidence) -> bool:
    """The ink's word shapes run down at least twice as often as across (a few of them
    suffice: too few for ``geo.looks_turned`` to be sure, enough to make two reads worth it)."""
    if evidence is None:
        return False
    across, down, _ = evidence
    return down >= RUNS_DOWN_WORDS and down >= 2 * across
