"""OCR backend ``tesseract+rapidocr``: our Tesseract backend's reading, with PP-OCRv4's
(``rapidocr``) reading fused in (``plugins._ocr_fusion``): words only PP-OCR found join the
page, and where the engines read a line differently both readings reach the detectors.

The two engines fail on different values (Tesseract loses faint, broken and shaded print
that PP-OCR reads; PP-OCR runs English words together and misses small print Tesseract
reads), so either engine having read a value is a higher ceiling for every detector than
either alone. ``where`` says what PP-OCR reads, cut out and read together as one collage:
``lines`` (default): the lines Tesseract read with an unsure word, and the inked places it
left unread; ``words``: only the unsure words (with a little of the line either side) and
the unread ink, for about two thirds of the time and a third less gain; or ``page``: the
whole page (a little more found, twice the time of ``lines``, more collateral). Measured on
the real dev set in docs/ocr-engines.md.
"""
from __future__ import annotations

import numpy as np
from PIL import Image

from redactor_plugins._ocr_fusion import fuse_pages, text_height, weak_regions
from redactor_plugins._options import as_choice
from redactor_plugins.rapidocr_ocr import RapidOcr, page_words
from redactor_plugins.tesseract_ocr import TesseractOcr
from redactor.plugin_api import forwarded_options, OcrBackend, OcrPage, page_ink_threshold, union_box, WordBox

ALGORITHM_REVISION = "3"
# The collage of weak regions is cut into sheets no taller than this: PP-OCR shrinks any image
# whose long side passes 2000 pixels, which would shrink the text it is meant to read.
SHEET_HEIGHT = 1900
WHERE = ("lines", "words", "page")


class FusedOcr(OcrBackend):
    """Tesseract fused with PP-OCRv4. Options: ``where`` (``lines``, ``words`` or ``page``), ``rapidocr_*``
    options go to the rapidocr backend without the prefix (``rapidocr_threads=2``), every
    other option to the tesseract backend."""
    name = "tesseract+rapidocr"
    mapping_file = None

    def __init__(self, where: str = "lines", **options):
        self.where = as_choice("where", where, WHERE)
        rapid = {k[len("rapidocr_"):]: v for k, v in options.items() if k.startswith("rapidocr_")}
        tess = {k: v for k, v in options.items() if not k.startswith("rapidocr_")}
        self.rapid = RapidOcr(**rapid)
        self.tesseract = TesseractOcr(**tess)

    @classmethod
    def options_model(cls):
        # ``where``, the rapidocr backend's options with a ``rapidocr_`` prefix and the
        # tesseract backend's as they are (forwarded through ``**options``): checked, types
        # too, against the backend each goes to, so a typo fails before either engine loads
        return forwarded_options(cls, ("rapidocr_", RapidOcr), TesseractOcr)

    @classmethod
    def unavailable_reason(cls, **options) -> str | None:
        return RapidOcr.unavailable_reason() or TesseractOcr.unavailable_reason(
            **{k: v for k, v in options.items() if k in ("lang", "tesseract_cmd")})

    def fingerprint(self) -> str:
        return (f"fused rev{ALGORITHM_REVISION} where={self.where} "
                f"[{self.tesseract.fingerprint()}] [{self.rapid.fingerprint()}]")

    def describe(self) -> str:
        return f"{self.tesseract.describe()} + {self.rapid.describe()}, where={self.where}"

    def read(self, image) -> OcrPage:
        first = self.tesseract.read(image)
        version = f"{first.version}+{self.rapid.version}"
        if self.where == "page":
            second = self.rapid.read(image).words
        else:
            second = self._read_weak_regions(image, first)
        return fuse_pages(first, second, engine="tesseract+rapidocr", version=version)

    def _read_weak_regions(self, image, first: OcrPage) -> list[WordBox]:
        gray = np.asarray(image.convert("L"))
        regions = weak_regions(gray, first, page_ink_threshold(gray),
                               whole_lines=self.where == "lines")
        if not regions:
            return []
        gap = max(int(text_height(first.words) or 20), 8)
        lines = []
        for sheet, placed in _sheets(image, regions, gap):
            for words, box in self.rapid.read_lines(sheet):
                moved = _back_to_page(words, placed)
                if moved:
                    lines.append((moved, union_box(w[1] for w in moved)))
        return page_words(lines)


def _sheets(image, regions, gap: int):
    """The regions cut out of ``image`` and stacked, white between them, on sheets under
    SHEET_HEIGHT: yields each sheet and where its crops sit ``(sheet_y, region)``."""
    group, height = [], gap
    for r in sorted(regions, key=lambda r: (r[1], r[0])):
        h = r[3] - r[1]
        if group and height + h + gap > SHEET_HEIGHT:
            yield _sheet(image, group, gap)
            group, height = [], gap
        group.append(r)
        height += h + gap
    if group:
        yield _sheet(image, group, gap)


def _sheet(image, group, gap: int):
    width = max(r[2] - r[0] for r in group) + 2 * gap
    height = sum(r[3] - r[1] for r in group) + gap * (len(group) + 1)
    sheet = Image.new("RGB", (width, height), (255, 255, 255))
    placed, y = [], gap
    for r in group:
        sheet.paste(image.crop(r).convert("RGB"), (gap, y))
        placed.append((y, gap, r))
        y += r[3] - r[1] + gap
    return sheet, placed


def _back_to_page(words, placed):
    """Words read on a sheet -> page pixels, through the crop their centre lies in; a word
    outside every crop (read across the white between crops) is dropped."""
    out = []
    for text, box, conf in words:
        cy = (box[1] + box[3]) / 2
        for sy, sx, r in placed:
            if sy <= cy < sy + (r[3] - r[1]):
                dx, dy = r[0] - sx, r[1] - sy
                x0 = min(max(box[0] + dx, r[0]), r[2])
                x1 = min(max(box[2] + dx, r[0]), r[2])
                y0 = min(max(box[1] + dy, r[1]), r[3])
                y1 = min(max(box[3] + dy, r[1]), r[3])
                if x1 > x0 and y1 > y0:
                    out.append((text, (x0, y0, x1, y1), conf))
                break
    return out
