"""Burns opaque boxes into page pixels and writes outputs that carry nothing else.

Outputs are written under a temporary name in the destination folder and renamed only when
complete, so a crash never leaves a file that could pass for a redacted page. PNGs are built
from raw pixels (no chunks of the input copied, no metadata); PDFs hold only the burned-in
page images (no text layer, metadata, annotations or attachments of the input).
"""
from __future__ import annotations

import contextlib
import math
import os
import tempfile
from pathlib import Path
from typing import Iterable, Sequence

from PIL import Image, ImageColor, ImageDraw

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


def save_png(image: Image.Image, path: Path) -> None:
    image.save(path, format="PNG", optimize=False, compress_level=6)


def write_png(image: Image.Image, path: Path) -> None:
    with atomic_output(path) as tmp:
        save_png(image, tmp)


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
