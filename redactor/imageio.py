"""Reads page images and PDFs into upright RGB pages, refusing what cannot be trusted.

Every page leaves here as an RGB ``PIL.Image`` in the pixel space the rest of the pipeline
(and every box it reports) uses: EXIF orientation applied, palette/alpha/16-bit/CMYK/grey
converted, PDF pages rendered at a fixed resolution with their filled-in form fields drawn.
Anything unreadable, truncated, empty, encrypted, a dynamic XFA form, larger than the pixel
limit or longer than ``MAX_PAGES`` is an ``InputError`` with one line of explanation; a
decoder failure of any kind on hostile bytes is one too.

Of a PDF only the rendered pixels go on: text layers, JavaScript, actions, attachments,
annotations (beyond their drawn appearance) and metadata are never passed to the rest of
the pipeline, and a one-line warning names what was left behind.
"""
from __future__ import annotations

import contextlib
import logging
import math
import mmap
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from redactor.errors import InputError

log = logging.getLogger(__name__)

DEFAULT_MAX_PIXELS = 90_000_000     # ~ an A3 page at 600 dpi; raise with --max-pixels
DEFAULT_PDF_DPI = 200
MAX_PAGES = 10_000                 # pages of one file (they stream through one at a time; a
                                   # longer file is most likely a decompression bomb of pages)
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


def _broken(name: str, exc: BaseException, index: int | None = None) -> InputError:
    where = f" (page {index + 1})" if index is not None else ""
    detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return InputError(f"{name}: image data is broken or truncated{where}: {detail}")


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
        except Exception as exc:   # Pillow's parsers raise many kinds on hostile headers
            raise _broken(name, exc) from None
        with img:
            for index in range(MAX_PAGES + 1):
                # Frames by seek rather than n_frames: counting frames walks the whole file,
                # and a corrupt frame table must fail here, on its page, as an InputError.
                try:
                    if index:
                        img.seek(index)
                except EOFError:
                    return
                except Exception as exc:
                    raise _broken(name, exc, index) from None
                if index == MAX_PAGES:
                    raise InputError(f"{name}: more than {MAX_PAGES:,} pages; split the file")
                _check_size(name, img.width, img.height, max_pixels)
                try:
                    img.load()
                    page = to_rgb(ImageOps.exif_transpose(img))
                except Image.DecompressionBombError as exc:
                    raise InputError(f"{name}: refused as a decompression bomb ({exc})") from None
                except Exception as exc:   # any decoder failure means: this page is unreadable
                    raise _broken(name, exc, index) from None
                _check_size(name, page.width, page.height, max_pixels)
                yield Page(index, page)


# Names whose presence means the file carries more than page content. Found by a scan of the
# raw bytes: objects inside compressed object streams or names written with #-escapes are
# not seen, so the report is best effort; safety never depends on it, because nothing but
# rendered pixels reaches an output.
_ACTIVE_NAMES = re.compile(rb"/(JavaScript|JS|OpenAction|AA|Launch|EmbeddedFiles?|RichMedia|"
                           rb"SubmitForm|ImportData|GoToR|Metadata)(?=[\s/<>\[\]()%{}]|$)")
_NAME_LABELS = {
    b"JavaScript": "JavaScript", b"JS": "JavaScript", b"OpenAction": "an open action",
    b"AA": "automatic actions", b"Launch": "launch actions", b"EmbeddedFile": "attachments",
    b"EmbeddedFiles": "attachments", b"RichMedia": "rich media", b"SubmitForm": "form actions",
    b"ImportData": "form actions", b"GoToR": "links to other files", b"Metadata": "XMP metadata",
}


def _scan_active_names(path: Path) -> set[str]:
    try:
        with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            return {_NAME_LABELS[m.group(1)] for m in _ACTIVE_NAMES.finditer(mm)}
    except (OSError, ValueError):
        return set()


def pdf_extras(pdf, path: Path, n_annotations: int) -> list[str]:
    """What the PDF holds besides its rendered pages, in words, for the one-line notice
    that none of it is carried into the output."""
    import pypdfium2.raw as pdfium_c

    found: list[str] = []
    labels = _scan_active_names(path)
    if pdfium_c.FPDFDoc_GetJavaScriptActionCount(pdf) > 0:
        labels.add("JavaScript")
    n_files = pdfium_c.FPDFDoc_GetAttachmentCount(pdf)
    if n_files > 0:
        labels.discard("attachments")
        found.append(f"{n_files} attachment(s)")
    for label in ("JavaScript", "an open action", "automatic actions", "launch actions",
                  "form actions", "links to other files", "rich media", "attachments"):
        if label in labels:
            found.append(label)
    if pdf.get_formtype() != pdfium_c.FORMTYPE_NONE:
        found.append("form fields (their values are drawn on the page)")
    if n_annotations:
        found.append(f"{n_annotations} annotation(s) (only as drawn on the page)")
    if pdfium_c.FPDF_GetSignatureCount(pdf) > 0:
        found.append("digital signature(s)")
    info = pdf.get_metadata_dict(skip_empty=True)
    if info or "XMP metadata" in labels:
        found.append("document metadata")
    return found


def _open_pdf(path: Path):
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    name = path.name
    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        msg = str(exc)
        if "password" in msg.lower():
            raise InputError(f"{name}: PDF is encrypted; decrypt it first (qpdf --decrypt)") from None
        raise InputError(f"{name}: not a readable PDF: {msg}") from None
    try:
        if pdf.get_formtype() == pdfium_c.FORMTYPE_XFA_FULL:
            raise InputError(f"{name}: PDF is a dynamic XFA form, which cannot be rendered here; "
                             f"print or flatten it to a plain PDF first")
        # Filled-in form fields are drawn only through the form environment (without it a
        # field's value would be missing from the page). This PDFium build has no JavaScript
        # engine, and no document or page action is ever triggered here.
        pdf.init_forms()
    except pdfium.PdfiumError as exc:
        pdf.close()
        raise InputError(f"{name}: PDF forms cannot be loaded: {exc}") from None
    except BaseException:
        pdf.close()
        raise
    return pdf


def _read_pdf_pages(path: Path, max_pixels: int, dpi: int) -> Iterator[Page]:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    name = path.name
    pdf = _open_pdf(path)
    n_annotations = 0
    try:
        n_pages = len(pdf)
        if n_pages == 0:
            raise InputError(f"{name}: PDF has no pages")
        if n_pages > MAX_PAGES:
            raise InputError(f"{name}: PDF has {n_pages:,} pages, more than {MAX_PAGES:,}; split it")
        for index in range(n_pages):
            page = pdf[index]
            try:
                w_pt, h_pt = page.get_size()
                scale = dpi / 72.0
                if not (math.isfinite(w_pt * scale) and math.isfinite(h_pt * scale)):
                    raise InputError(f"{name}: page {index + 1} has no usable size ({w_pt} x {h_pt} pt)")
                _check_size(name, int(round(w_pt * scale)), int(round(h_pt * scale)), max_pixels)
                n_annotations += max(0, pdfium_c.FPDFPage_GetAnnotCount(page))
                # may_draw_forms: filled-in form fields are part of what a reader sees.
                bitmap = page.render(scale=scale, may_draw_forms=True, rotation=0)
                image = to_rgb(bitmap.to_pil())
            finally:
                page.close()
            yield Page(index, image)
        extras = pdf_extras(pdf, path, n_annotations)
        if extras:
            log.warning("%s: only the rendered page pixels are kept; dropped: %s", name,
                        ", ".join(extras))
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
    for option, value in (("max_pixels", max_pixels), ("pdf_dpi", pdf_dpi)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value) or value <= 0:
            raise InputError(f"{option} must be a positive number, not {value!r}")
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


def pages_with_multi(path: str | Path, max_pixels: int = DEFAULT_MAX_PIXELS,
                     pdf_dpi: int = DEFAULT_PDF_DPI) -> Iterator[tuple[Page, bool]]:
    """(page, multi_page) for each page of ``read_pages``, reading one page ahead to know
    whether an image file has more than one (a PDF is a document whatever its length)."""
    path = Path(path)
    pages = iter(read_pages(path, max_pixels=max_pixels, pdf_dpi=pdf_dpi))
    current = next(pages, None)
    if current is None:
        raise InputError(f"{path.name}: has no pages")
    multi = is_pdf(path)
    for following in pages:
        multi = True
        yield current, multi
        current = following
    yield current, multi


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
