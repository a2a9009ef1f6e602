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


@contextlib.contextmanager
def atomic_output(path: Path):
    """Yield a temporary path beside ``path``; rename it into place only on success."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        os.close(fd)
    except OSError as exc:
        raise OutputError(f"cannot write to {path.parent}: {exc.strerror or exc}") from None
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        with open(tmp_path, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp_path, path)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()


def write_png(image: Image.Image, path: Path) -> None:
    with atomic_output(path) as tmp:
        image.save(tmp, format="PNG", optimize=False, compress_level=6)


def write_pdf(images: Sequence[Image.Image], path: Path, dpi: float = 200.0) -> None:
    """An image-only PDF: one page per image, embedded losslessly, and nothing else (no
    text layer, no document info, no dates)."""
    import io

    import img2pdf

    if not images:
        raise OutputError(f"{path}: no pages to write")
    encoded = []
    for im in images:
        buf = io.BytesIO()
        Image.frombytes("RGB", im.size, im.convert("RGB").tobytes()).save(buf, format="PNG")
        encoded.append(buf.getvalue())
    layout = img2pdf.get_fixed_dpi_layout_fun((dpi, dpi))
    import pikepdf

    raw = img2pdf.convert(encoded, layout_fun=layout, nodate=True, producer=None,
                          engine=img2pdf.Engine.internal)
    with pikepdf.open(io.BytesIO(raw)) as pdf, atomic_output(path) as tmp:
        # No document info dictionary at all, and an /ID derived from the content: the same
        # pages always give the same bytes.
        if "/Info" in pdf.trailer:
            del pdf.trailer["/Info"]
        pdf.save(tmp, deterministic_id=True)


def write_text(text: str, path: Path) -> None:
    with atomic_output(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
