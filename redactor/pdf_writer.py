"""Writes an image-only PDF one page at a time, so a document of any length is written with
the memory of one page.

A redacted PDF must carry nothing but the pixels (no text layer, document info, XMP, forms,
actions or annotations); img2pdf and pikepdf build such a file but hold every page's image
data until the end, which for a 5,000-page scan is gigabytes. The format needed here is
small: per page an image XObject, a content stream that draws it (``q cm Do Q``) and a page
object; then the page tree, the catalogue and the cross-reference table. Each page's
pixels are embedded losslessly as the zlib stream of its PNG encoding (PNG's row filters
are PDF's /Predictor 15), which is what img2pdf does too. The file is deterministic: its
/ID is a digest of the bytes written, and there are no dates.
"""
from __future__ import annotations

import hashlib
import io
import struct
from pathlib import Path

from PIL import Image

from redactor.errors import OutputError
from redactor.render import PageWriter, reduced

# Object numbers 1 and 2 are the catalogue and the page tree, written last (their place in
# the file does not matter; the cross-reference table says where they are).
_CATALOG, _PAGES = 1, 2


def _png_idat(image: Image.Image) -> tuple[bytes, str, int, int]:
    """The zlib stream of ``image``'s PNG encoding, its PDF colour space, colour count and
    bits per component. Built from raw pixels in the fewest bits that hold the page exactly
    (``render.reduced``: a bilevel scan is 1 bit, as PDF and PNG both store it with 0 for
    black), so nothing of the image's metadata can come along."""
    clean = reduced(image)
    buf = io.BytesIO()
    clean.save(buf, format="PNG", compress_level=6)
    data = buf.getvalue()
    pos, chunks = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            chunks.append(data[pos + 8:pos + 8 + length])
        pos += 12 + length
    if clean.mode == "RGB":
        return b"".join(chunks), "/DeviceRGB", 3, 8
    return b"".join(chunks), "/DeviceGray", 1, (1 if clean.mode == "1" else 8)


class ImagePdfWriter(PageWriter):
    """``add_page(image)`` for each page in order, then ``close()``; the file at ``path`` is
    complete only after ``close()`` (callers write it under a temporary name). A page's size
    in points is its pixel size at its resolution: the ``dpi`` given to ``add_page`` (the
    input page's, so a PDF page keeps its size and an image its resolution), else the
    writer's."""

    def __init__(self, path: Path, dpi: float = 200.0):
        if not dpi or dpi <= 0:
            raise OutputError(f"{path}: PDF resolution must be positive, not {dpi!r}")
        self.path = Path(path)
        self.dpi = float(dpi)
        self._fh = open(self.path, "wb")
        self._digest = hashlib.sha256()
        self._offsets: dict[int, int] = {}
        self._pages: list[int] = []
        self._next = 3
        self._pos = 0
        # A binary comment after the header: transfer programs then treat the file as binary.
        self._write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")

    def _write(self, data: bytes) -> None:
        self._fh.write(data)
        self._digest.update(data)
        self._pos += len(data)

    def _object(self, number: int, head: bytes, stream: bytes | None = None) -> None:
        self._offsets[number] = self._pos
        self._write(b"%d 0 obj\n" % number + head)
        if stream is not None:
            self._write(b"\nstream\n" + stream + b"\nendstream")
        self._write(b"\nendobj\n")

    def add_page(self, image: Image.Image, dpi: tuple[float, float] | None = None) -> None:
        dpi_x, dpi_y = (float(dpi[0]), float(dpi[1])) if dpi else (self.dpi, self.dpi)
        if not (dpi_x > 0 and dpi_y > 0):
            raise OutputError(f"{self.path}: page resolution must be positive, not {dpi!r}")
        data, space, colors, bits = _png_idat(image)
        w, h = image.size
        w_pt, h_pt = w * 72.0 / dpi_x, h * 72.0 / dpi_y
        img, content, page = self._next, self._next + 1, self._next + 2
        self._next += 3
        self._object(img, (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d "
                           b"/ColorSpace %s /BitsPerComponent %d /Filter /FlateDecode "
                           b"/DecodeParms << /Predictor 15 /Colors %d /BitsPerComponent %d "
                           b"/Columns %d >> /Length %d >>")
                     % (w, h, space.encode(), bits, colors, bits, w, len(data)), data)
        draw = b"q\n%.4f 0 0 %.4f 0 0 cm\n/Im0 Do\nQ" % (w_pt, h_pt)
        self._object(content, b"<< /Length %d >>" % len(draw), draw)
        self._object(page, (b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.4f %.4f] "
                            b"/Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>")
                     % (_PAGES, w_pt, h_pt, img, content))
        self._pages.append(page)

    def close(self) -> None:
        if not self._pages:
            self._fh.close()
            raise OutputError(f"{self.path}: no pages to write")
        kids = b" ".join(b"%d 0 R" % p for p in self._pages)
        self._object(_PAGES, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(self._pages)))
        self._object(_CATALOG, b"<< /Type /Catalog /Pages %d 0 R >>" % _PAGES)
        xref_at = self._pos
        size = self._next
        rows = [b"0000000000 65535 f \n"] + [b"%010d 00000 n \n" % self._offsets[n]
                                             for n in range(1, size)]
        self._write(b"xref\n0 %d\n" % size + b"".join(rows))
        file_id = self._digest.hexdigest()[:32].encode()
        self._write(b"trailer\n<< /Size %d /Root %d 0 R /ID [<%s> <%s>] >>\nstartxref\n%d\n%%%%EOF\n"
                    % (size, _CATALOG, file_id, file_id, xref_at))
        self._fh.close()

    def abort(self) -> None:
        """Stop without finishing the file (the caller removes it)."""
        self._fh.close()
