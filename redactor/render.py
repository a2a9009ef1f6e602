"""Burns opaque boxes into page pixels and writes outputs that carry nothing else.

Outputs are written under a temporary name in the destination folder and renamed only when
complete, so a crash never leaves a file that could pass for a redacted page. PNGs and TIFFs
are built from raw pixels (no chunks or tags of the input copied, no metadata but the page's
resolution); PDFs hold only the burned-in page images (no text layer, metadata, annotations
or attachments of the input). Every format is lossless and stores a page in the fewest bits
that hold it exactly (``reduced``): a black-and-white scan stays 1-bit, a grey one 8-bit.
"""
from __future__ import annotations

import contextlib
import math
import os
import tempfile
from pathlib import Path
from typing import Iterable, Sequence

from PIL import Image, ImageChops, ImageColor, ImageDraw, TiffImagePlugin

from redactor.errors import InputError, OutputError
from redactor.model import Redaction


def parse_fill(color: str) -> tuple[int, int, int]:
    try:
        rgb = ImageColor.getrgb(color)
    except ValueError:
        raise InputError(f"unknown fill colour {color!r} (use a name like 'black' or '#RRGGBB')") from None
    return tuple(rgb[:3])  # type: ignore[return-value]


def pixel_rect(bbox, width: int, height: int, pad: float = 0.0) -> tuple[int, int, int, int] | None:
    """Box -> the integer pixel rectangle that fully contains it (floor/ceil, like the
    contract's ink measure), grown by ``pad`` and clipped. Corners given in either order
    are the same box. None if nothing is left; a non-finite coordinate is an InputError,
    never a box silently skipped."""
    values = [float(v) for v in bbox] + [float(pad)]
    if not all(math.isfinite(v) for v in values):
        raise InputError(f"box {list(bbox)} (pad {pad}) has a non-finite coordinate")
    xa, ya, xb, yb = values[:4]
    (x0, x1), (y0, y1) = sorted((xa, xb)), sorted((ya, yb))
    x0 = max(0, math.floor(x0 - pad))
    y0 = max(0, math.floor(y0 - pad))
    x1 = min(width, math.ceil(x1 + pad))
    y1 = min(height, math.ceil(y1 + pad))
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def burn_in(image: Image.Image, redactions: Iterable[Redaction], fill: str = "black",
            pad: float = 0.0) -> Image.Image:
    """A fresh RGB image: the page's pixels with every redaction box filled solid."""
    rgb = parse_fill(fill)
    src = image.convert("RGB")
    # frombytes: a new image that shares nothing (info, ICC profile, EXIF) with the input.
    out = Image.frombytes("RGB", src.size, src.tobytes())
    draw = ImageDraw.Draw(out)
    for r in redactions:
        rect = pixel_rect(r.bbox, out.width, out.height, pad)
        if rect:
            # PIL's rectangle includes its end pixel; x1/y1 here are exclusive.
            draw.rectangle((rect[0], rect[1], rect[2] - 1, rect[3] - 1), fill=rgb)
    return out


# Temporary names are short whatever the output's name: a name built on a long stem would
# pass the file system's 255 bytes. They start with a dot and end in .part, which is how a
# later run recognises and sweeps what a killed one left (sweep_partial_outputs).
TEMP_PREFIX, TEMP_SUFFIX = ".rdx-", ".part"


@contextlib.contextmanager
def atomic_outputs(paths: Sequence[Path]):
    """Yield a temporary path beside each of ``paths``; when the block succeeds, each is
    fsynced and renamed into place in the order given. On any failure (a write, a full
    disk, a rename) none of the outputs stays: the temporaries go, and so does any output
    already renamed, so the files of one input appear together or not at all."""
    paths = [Path(p) for p in paths]
    temps: list[Path] = []
    try:
        for path in paths:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=path.parent)
            os.close(fd)
            temps.append(Path(tmp))
    except OSError as exc:
        for tmp in temps:
            tmp.unlink(missing_ok=True)
        raise OutputError(f"cannot write to {paths[len(temps)].parent}: {exc.strerror or exc}") from None
    placed: list[Path] = []
    current: Path | None = None    # the output being finished, when a failure is its own
    try:
        yield temps
        for tmp, path in zip(temps, paths):
            current = path
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
        for tmp, path in zip(temps, paths):
            current = path
            os.replace(tmp, path)
            placed.append(path)
    except BaseException as exc:
        for path in placed:
            path.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            where = current if current is not None else paths[0].parent
            raise OutputError(f"cannot write {where}: {exc.strerror or exc}") from None
        raise
    finally:
        for tmp in temps:
            tmp.unlink(missing_ok=True)


def sweep_partial_outputs(folder: Path, recursive: bool = False) -> int:
    """Remove the temporary files a killed run left in ``folder`` (never final names)."""
    removed = 0
    pattern = f".*{TEMP_SUFFIX}"
    found = Path(folder).rglob(pattern) if recursive else Path(folder).glob(pattern)
    for path in found:
        if path.is_file():
            path.unlink(missing_ok=True)
            removed += 1
    return removed


@contextlib.contextmanager
def scratch_file(folder: Path):
    """A temporary file in ``folder`` under the name sweep_partial_outputs recognises,
    removed on leaving (unless it was moved away): work in progress, such as the pages of a
    long document written one by one before the document has its final name."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
        os.close(fd)
    except OSError as exc:
        raise OutputError(f"cannot write to {folder}: {exc.strerror or exc}") from None
    try:
        yield Path(tmp)
    except OSError as exc:
        raise OutputError(f"cannot write to {folder}: {exc.strerror or exc}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_output(path: Path):
    """Yield a temporary path beside ``path``; rename it into place only on success."""
    with atomic_outputs([path]) as (tmp,):
        yield tmp


def reduced(image: Image.Image) -> Image.Image:
    """A fresh copy of ``image`` (built from raw pixels: no info, ICC profile or EXIF comes
    along) in the fewest bits that hold every pixel exactly: "1" when it is pure black and
    white, "L" when grey, else "RGB". The pipeline's pages are RGB whatever the input was;
    this gives a bilevel or grey scan its own depth back, at a third of the size or less."""
    src = image if image.mode in ("1", "L", "RGB") else image.convert("RGB")
    if src.mode == "RGB":
        r, g, b = src.split()
        if all(ImageChops.difference(x, y).getbbox() is None for x, y in ((r, g), (g, b))):
            src = r
    if src.mode == "L":
        histogram = src.histogram()
        if sum(histogram[1:255]) == 0:
            # point() maps exactly (no dithering, unlike convert("1")): every pixel is 0 or 255
            src = src.point(lambda v: 255 if v else 0, mode="1")
    return Image.frombytes(src.mode, src.size, src.tobytes())


def _pillow_dpi(dpi) -> tuple[float, float] | None:
    return (float(dpi[0]), float(dpi[1])) if dpi else None


def save_png(image: Image.Image, path: Path, dpi: tuple[float, float] | None = None) -> None:
    """``image`` as a PNG holding nothing but its pixels (``reduced``) and, when given, the
    resolution (a pHYs chunk) of the input page."""
    options = {"dpi": _pillow_dpi(dpi)} if dpi else {}
    reduced(image).save(path, format="PNG", optimize=False, compress_level=6, **options)


def write_png(image: Image.Image, path: Path, dpi: tuple[float, float] | None = None) -> None:
    with atomic_output(path) as tmp:
        save_png(image, tmp, dpi)


class PageWriter:
    """A document written a page at a time: in a ``with`` block it is finished (``close``)
    when the block succeeds and abandoned (``abort``, the caller removes the file) when it
    raises, so a failed document never looks complete."""

    def close(self) -> None:
        raise NotImplementedError

    def abort(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is None:
            self.close()
        else:
            self.abort()


class TiffPageWriter(PageWriter):
    """A TIFF of one or many pages written a page at a time: Pillow's AppendingTiffWriter
    puts each page (its strips and directory) at the end of the file and links the previous
    directory to it, so a document of any length is written with the memory of one page.
    ``add_page`` for each page in order, then ``close()``; the file is complete only after
    ``close()`` (callers write it under a temporary name).

    Lossless, with the compression TIFF readers expect: CCITT group 4 for a 1-bit page (the
    fax and archive standard, what a bilevel scan came in), Deflate for grey and colour
    (smaller than LZW on text pages: 428 against 584 KB on a 300 dpi letter page). Each page
    gets only its pixels and, when known, its resolution (no tags of the input)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.n_pages = 0
        self._file = TiffImagePlugin.AppendingTiffWriter(str(self.path), new=True)

    def add_page(self, image: Image.Image, dpi: tuple[float, float] | None = None) -> None:
        page = reduced(image)
        options = {"compression": "group4" if page.mode == "1" else "tiff_adobe_deflate"}
        if dpi:
            options["dpi"] = _pillow_dpi(dpi)
        page.save(self._file, format="TIFF", **options)
        self._file.newFrame()
        self.n_pages += 1

    def close(self) -> None:
        if not self.n_pages:
            self.abort()
            raise OutputError(f"{self.path}: no pages to write")
        self._file.close()

    def abort(self) -> None:
        """Stop without finishing the file (the caller removes it)."""
        self._file.f.close()


def write_pdf(images: Sequence[Image.Image], path: Path, dpi: float = 200.0) -> None:
    """An image-only PDF (``save_pdf``), written atomically."""
    if not images:
        raise OutputError(f"{path}: no pages to write")
    with atomic_output(path) as tmp:
        save_pdf(images, tmp, dpi)


def save_pdf(images: Iterable[Image.Image], path: Path, dpi: float = 200.0) -> None:
    """An image-only PDF: one page per image, embedded losslessly, and nothing else (no
    text layer, no document info, no dates), written a page at a time
    (``redactor.pdf_writer``): ``images`` may be a generator."""
    from redactor.pdf_writer import ImagePdfWriter

    with ImagePdfWriter(path, dpi) as pdf:
        for im in images:
            pdf.add_page(im)


def write_text(text: str, path: Path) -> None:
    with atomic_output(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
