"""Reads page images and PDFs into upright RGB pages, refusing what cannot be trusted.

Every page leaves here as an RGB ``PIL.Image`` in the pixel space the rest of the pipeline
(and every box it reports) uses: EXIF orientation applied, palette/alpha/16-bit/CMYK/grey
converted, PDF pages rendered with their filled-in form fields drawn: a scanned page at its
scan's own resolution, any other page at ``pdf_dpi``. Each page carries its resolution
(pixels per inch of the physical page) when known, so an output can keep it.
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


# A PDF page that is a scan is rendered at its image's own resolution, within these bounds.
# Above 600 dpi a page costs (and is read) like a poster for no gain on text, and a 1200 dpi
# letter page would exceed the default pixel limit. Real scans are 150-300 dpi, faxes 204x98
# or 204x196; an image under 72 dpi (one pixel per PDF point) is a picture stretched over
# the page, drawn at 72 so that boxes (whole pixels) and the form fields and annotations
# drawn over it are on a grid no coarser than the PDF's own unit (a letter page: 0.5 MP).
SCAN_DPI_MIN, SCAN_DPI_MAX = 72, 600
# The images of a scanned page cover at least this share of it, and nothing else is drawn
# but invisible text (the OCR layer of a searchable scan). A page with more objects than
# _SCAN_MAX_OBJECTS is not looked at further: it is rendered at pdf_dpi like any other.
_SCAN_COVER, _SCAN_MAX_OBJECTS = 0.85, 500
# Resolutions read from image files outside this range are taken as unknown (Pillow reports
# (1, 1) for a TIFF without resolution tags; a PDF page at 1 dpi would be 72 times too big).
_DPI_RANGE = (10.0, 10_000.0)


@dataclass(frozen=True)
class Page:
    index: int                 # 0-based page number within its document
    image: Image.Image         # RGB, upright
    # pixels per inch of the physical page (x, y) when known: a PDF page's exactly (its size
    # in points round-trips), an image file's from its own tags; None when it has none
    dpi: tuple[float, float] | None = None


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


def _plausible_dpi(x, y, factor: float = 1.0) -> tuple[float, float] | None:
    try:
        dpi = (float(x) * factor, float(y) * factor)
    except (TypeError, ValueError, ZeroDivisionError):   # IFDRational 0/0 divides
        return None
    return dpi if all(_DPI_RANGE[0] <= v <= _DPI_RANGE[1] for v in dpi) else None


def _image_dpi(img: Image.Image) -> tuple[float, float] | None:
    """The resolution an image file (or the current TIFF frame) states, upright as the page
    leaves ``exif_transpose``."""
    if img.format == "TIFF":
        # From the frame's own tags: Pillow leaves an earlier frame's "dpi" in info when a
        # frame has no unit, and reports (1, 1) when it has no resolution at all.
        tags = getattr(img, "tag_v2", {})
        unit, x, y = tags.get(296), tags.get(282), tags.get(283)   # ResolutionUnit, X/YResolution
        if x is None or y is None or unit == 1:      # unit 1: no absolute unit
            return None
        factor = 2.54 if unit == 3 else 1.0          # 3: per centimetre; 2 or none: per inch
        dpi = _plausible_dpi(x, y, factor)
    else:
        stated = img.info.get("dpi")
        dpi = _plausible_dpi(*stated) if isinstance(stated, tuple) and len(stated) == 2 else None
    with contextlib.suppress(Exception):             # a broken EXIF block: orientation 1
        if dpi and img.getexif().get(0x0112) in (5, 6, 7, 8):   # turned a quarter: axes swap
            dpi = (dpi[1], dpi[0])
    return dpi


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
                    dpi = _image_dpi(img)
                    page = to_rgb(ImageOps.exif_transpose(img))
                except Image.DecompressionBombError as exc:
                    raise InputError(f"{name}: refused as a decompression bomb ({exc})") from None
                except Exception as exc:   # any decoder failure means: this page is unreadable
                    raise _broken(name, exc, index) from None
                _check_size(name, page.width, page.height, max_pixels)
                yield Page(index, page, dpi)


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


def _image_on_page(obj, crop) -> tuple[float, float]:
    """(resolution, area) of an image object as drawn: its pixels per inch along the finer of
    its own axes (whatever its turn on the page) and the part of the page box it covers, in
    square points. The object's matrix is composed with those of the forms it sits in."""
    matrix, container = obj.get_matrix(), obj.container
    while container is not None:
        matrix, container = matrix.multiply(container.get_matrix()), container.container
    px_w, px_h = obj.get_px_size()
    side_w, side_h = math.hypot(matrix.a, matrix.b), math.hypot(matrix.c, matrix.d)
    if min(px_w, px_h, side_w, side_h) <= 0:
        return 0.0, 0.0
    corners = [matrix.on_point(x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    w = min(max(xs), crop[2]) - max(min(xs), crop[0])
    h = min(max(ys), crop[3]) - max(min(ys), crop[1])
    return 72.0 * max(px_w / side_w, px_h / side_h), max(0.0, w) * max(0.0, h)


def _scan_dpi(page) -> float | None:
    """The resolution of the scan a PDF page shows, or None for any other page.

    A scan: images cover the page and nothing else is drawn but invisible text (a searchable
    scan's OCR layer). Visible text, a vector path or shading, or too many objects make it a
    born-digital page, rendered at pdf_dpi as before. With several images (a scan split in
    strips, or the layers of a mixed-raster scan) the finest of those covering a tenth of the
    page or more decides, so no layer loses detail; a small stamp or logo does not."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    hidden = (pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE, pdfium_c.FPDF_TEXTRENDERMODE_CLIP)
    try:
        crop = page.get_cropbox()
        page_area = (crop[2] - crop[0]) * (crop[3] - crop[1])
        covered, finest = 0.0, 0.0
        for n, obj in enumerate(page.get_objects(max_depth=4)):
            if n >= _SCAN_MAX_OBJECTS:
                return None
            if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM:
                continue        # its objects follow, each judged on its own
            if obj.type == pdfium_c.FPDF_PAGEOBJ_TEXT \
                    and pdfium_c.FPDFTextObj_GetTextRenderMode(obj.raw) in hidden:
                continue
            if obj.type != pdfium_c.FPDF_PAGEOBJ_IMAGE:
                return None
            dpi, area = _image_on_page(obj, crop)
            covered += area
            if area >= 0.1 * page_area:
                finest = max(finest, dpi)
    except (pdfium.PdfiumError, ValueError, ZeroDivisionError, OverflowError):
        return None     # anything unusual about the page: render it as any other page
    if not (page_area > 0 and covered >= _SCAN_COVER * page_area and math.isfinite(finest)):
        return None
    return finest or None


def _page_scale(page, name: str, index: int, max_pixels: int,
                pdf_dpi: float) -> tuple[float, float | None]:
    """(render scale, native resolution if it could not be kept) of a PDF page: a scan at
    its own resolution (bounded by SCAN_DPI_MIN/MAX and lowered to fit ``max_pixels``; a
    fax's finer axis, so both axes keep their detail on one square grid), any other page at
    ``pdf_dpi``. InputError when the page does not fit ``max_pixels`` at either."""
    w_pt, h_pt = page.get_size()
    if not (math.isfinite(w_pt) and math.isfinite(h_pt) and w_pt > 0 and h_pt > 0):
        raise InputError(f"{name}: page {index + 1} has no usable size ({w_pt} x {h_pt} pt)")
    native, lowered = _scan_dpi(page), None
    if native is None:
        scale = pdf_dpi / 72.0
    else:
        dpi = min(max(native, SCAN_DPI_MIN), SCAN_DPI_MAX)
        # the dpi that fills the limit, with room for the rounding up of each side:
        # (w*s + 1) * (h*s + 1) = max_pixels, solved for the scale s
        wh, perimeter = w_pt * h_pt, w_pt + h_pt
        fits = 72.0 * (math.sqrt(perimeter ** 2 + 4 * wh * (max_pixels - 1)) - perimeter) / (2 * wh)
        dpi = max(min(dpi, fits), SCAN_DPI_MIN)    # under the minimum: refused below
        lowered = native if dpi < native * 0.99 else None
        # pdfium sizes the bitmap as ceil(points * scale): a hair under keeps a page drawn
        # edge to edge at exactly the image's pixel count (rounding must not add a row).
        scale = dpi / 72.0 * (1 - 1e-9)
    if not (math.isfinite(w_pt * scale) and math.isfinite(h_pt * scale)):
        raise InputError(f"{name}: page {index + 1} has no usable size ({w_pt} x {h_pt} pt)")
    _check_size(name, math.ceil(w_pt * scale), math.ceil(h_pt * scale), max_pixels)
    return scale, lowered


def _read_pdf_pages(path: Path, max_pixels: int, dpi: int) -> Iterator[Page]:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    name = path.name
    pdf = _open_pdf(path)
    n_annotations, lowered = 0, []
    try:
        n_pages = len(pdf)
        if n_pages == 0:
            raise InputError(f"{name}: PDF has no pages")
        if n_pages > MAX_PAGES:
            raise InputError(f"{name}: PDF has {n_pages:,} pages, more than {MAX_PAGES:,}; split it")
        for index in range(n_pages):
            page = pdf[index]
            try:
                scale, native = _page_scale(page, name, index, max_pixels, dpi)
                n_annotations += max(0, pdfium_c.FPDFPage_GetAnnotCount(page))
                # may_draw_forms: filled-in form fields are part of what a reader sees.
                bitmap = page.render(scale=scale, may_draw_forms=True, rotation=0)
                image = to_rgb(bitmap.to_pil())
                w_pt, h_pt = page.get_size()
            finally:
                page.close()
            if native is not None:
                lowered.append((index, native, image.width * 72.0 / w_pt))
            # the page's own size in points, exactly: an output page gets it back
            yield Page(index, image, (image.width * 72.0 / w_pt, image.height * 72.0 / h_pt))
        _notices(name, pdf_extras(pdf, path, n_annotations), lowered)
    except pdfium.PdfiumError as exc:
        raise InputError(f"{name}: PDF page cannot be rendered: {exc}") from None
    finally:
        pdf.close()


def _notices(name: str, extras: list[str], lowered: list[tuple[int, float, float]]) -> None:
    """One warning line each, per document: what the output leaves out, and scanned pages
    rendered below their own resolution (SCAN_DPI_MAX or --max-pixels)."""
    if extras:
        log.warning("%s: only the rendered page pixels are kept; dropped: %s", name,
                    ", ".join(extras))
    if lowered:
        index, native, used = lowered[0]
        log.warning("%s: %d scanned page(s) rendered below their own resolution, e.g. page %d at "
                    "%.0f of %.0f dpi (at most %d dpi, and --max-pixels)", name, len(lowered),
                    index + 1, used, native, SCAN_DPI_MAX)


def is_tiff(path: Path) -> bool:
    """By content: a TIFF (classic or BigTIFF, either byte order), whatever its name."""
    with contextlib.suppress(OSError):
        with open(path, "rb") as fh:
            return fh.read(4) in (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+")
    return False


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
