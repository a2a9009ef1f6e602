"""Reads page images and PDFs into upright RGB pages, refusing what cannot be trusted.

Every page leaves here as an RGB ``PIL.Image`` in the pixel space the rest of the pipeline
(and every box it reports) uses: EXIF orientation applied, palette/alpha/16-bit/CMYK/grey
converted, PDF pages rendered at a fixed resolution. Anything unreadable, truncated, empty,
encrypted or larger than the pixel limit is an ``InputError`` with one line of explanation.
"""
from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
from PIL import Image, ImageOps, ImageSequence, UnidentifiedImageError

from redactor.errors import InputError

DEFAULT_MAX_PIXELS = 90_000_000     # ~ an A3 page at 600 dpi; raise with --max-pixels
DEFAULT_PDF_DPI = 200
PDF_SUFFIXES = {".pdf"}


@dataclass(frozen=True)
class Page:
    index: int                 # 0-based page number within its document
    image: Image.Image         # RGB, upright


@contextlib.contextmanager
def _pixel_limit(max_pixels: int):
    # Pillow's own bomb check is a process-wide setting; widen it only for this read so
    # our explicit limit (checked before decoding) is the one that decides.
    old = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = max(max_pixels, old or 0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            yield
    finally:
        Image.MAX_IMAGE_PIXELS = old


def _check_size(name: str, width: int, height: int, max_pixels: int) -> None:
    if width <= 0 or height <= 0:
        raise InputError(f"{name}: image has no pixels ({width}x{height})")
    if width * height > max_pixels:
        raise InputError(f"{name}: {width}x{height} = {width * height:,} pixels exceeds the limit of "
                         f"{max_pixels:,} (raise it with --max-pixels)")


def to_rgb(img: Image.Image) -> Image.Image:
    """Any Pillow mode -> RGB, compositing transparency onto white (a transparent pixel
    shows as paper, never as whatever colour hides under the alpha)."""
    if img.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        arr = np.asarray(img, dtype=np.float64)
        lo, hi = float(arr.min()), float(arr.max())
        scaled = np.zeros_like(arr) if hi <= lo else (arr - lo) * (255.0 / (hi - lo))
        img = Image.fromarray(scaled.round().astype(np.uint8), "L")
    if img.mode in ("P", "PA") :
        img = img.convert("RGBA")
    if img.mode in ("RGBA", "LA", "La", "RGBa"):
        img = img.convert("RGBA")
        background = Image.new("RGBA", img.size, (255, 255, 255, 255))
        img = Image.alpha_composite(background, img)
    if img.mode != "RGB":
        img = img.convert("RGB")
    return img


def _read_image_pages(path: Path, max_pixels: int) -> Iterator[Page]:
    name = path.name
    with _pixel_limit(max_pixels):
        try:
            img = Image.open(path)
        except UnidentifiedImageError:
            raise InputError(f"{name}: not a readable image (unknown or corrupt format)") from None
        except Image.DecompressionBombError as exc:
            raise InputError(f"{name}: refused as a decompression bomb ({exc}); raise --max-pixels "
                             f"if the page is genuine") from None
        except OSError as exc:
            raise InputError(f"{name}: cannot open image: {exc}") from None
        with img:
            frames = ImageSequence.Iterator(img) if getattr(img, "n_frames", 1) > 1 else [img]
            for index, frame in enumerate(frames):
                _check_size(name, frame.width, frame.height, max_pixels)
                try:
                    frame.load()
                    upright = ImageOps.exif_transpose(frame)
                    yield Page(index, to_rgb(upright))
                except (OSError, SyntaxError, ValueError) as exc:
                    raise InputError(f"{name}: image data is broken or truncated "
                                     f"(page {index + 1}): {exc}") from None


def _read_pdf_pages(path: Path, max_pixels: int, dpi: int) -> Iterator[Page]:
    import pypdfium2 as pdfium

    name = path.name
    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        msg = str(exc)
        if "password" in msg.lower():
            raise InputError(f"{name}: PDF is encrypted; decrypt it first (qpdf --decrypt)") from None
        raise InputError(f"{name}: not a readable PDF: {msg}") from None
    try:
        if len(pdf) == 0:
            raise InputError(f"{name}: PDF has no pages")
        for index in range(len(pdf)):
            page = pdf[index]
            w_pt, h_pt = page.get_size()
            scale = dpi / 72.0
            _check_size(name, int(round(w_pt * scale)), int(round(h_pt * scale)), max_pixels)
            # may_draw_forms: filled-in form fields are part of what a reader sees.
            bitmap = page.render(scale=scale, may_draw_forms=True, rotation=0)
            yield Page(index, to_rgb(bitmap.to_pil()))
            page.close()
    except pdfium.PdfiumError as exc:
        raise InputError(f"{name}: PDF page cannot be rendered: {exc}") from None
    finally:
        pdf.close()


def is_pdf(path: Path) -> bool:
    if path.suffix.lower() in PDF_SUFFIXES:
        return True
    with contextlib.suppress(OSError):
        with open(path, "rb") as fh:
            return fh.read(5) == b"%PDF-"
    return False


def read_pages(path: str | Path, max_pixels: int = DEFAULT_MAX_PIXELS,
               pdf_dpi: int = DEFAULT_PDF_DPI) -> Iterator[Page]:
    """Yield the pages of an image (multi-page TIFF included) or a PDF."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if not path.is_file():
        raise InputError(f"{path}: not a file")
    if path.stat().st_size == 0:
        raise InputError(f"{path.name}: file is empty")
    if is_pdf(path):
        yield from _read_pdf_pages(path, max_pixels, pdf_dpi)
    else:
        yield from _read_image_pages(path, max_pixels)


def as_page_image(image) -> Image.Image:
    """Accept what API users pass (PIL image, numpy array, path) and return upright RGB."""
    if isinstance(image, (str, Path)):
        pages = list(read_pages(image))
        if len(pages) != 1:
            raise InputError(f"{image}: has {len(pages)} pages; use read_pages() for documents")
        return pages[0].image
    if isinstance(image, np.ndarray):
        image = Image.fromarray(image)
    if not isinstance(image, Image.Image):
        raise InputError(f"unsupported image object {type(image).__name__}")
    return to_rgb(ImageOps.exif_transpose(image))
