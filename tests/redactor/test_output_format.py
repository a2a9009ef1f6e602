"""Outputs in the input's own format (issue 36): a PDF comes back as a PDF whose pages keep
their size in points, a scanned page its scan's pixels (so its resolution), a born-digital
page rendered at --pdf-dpi; a TIFF comes back as a TIFF of as many pages, each with its
pixel size and resolution; a PNG or JPEG as a PNG carrying its resolution. The new .tif name
takes part in the refusal to replace files, --overwrite and the removal of stale outputs.
Real Tesseract and the default pipeline through the CLI, on pages drawn here; a value is
hidden when every pixel of its glyphs is dark in the output."""
from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.cli import main

FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
EMAIL, PHONE = "margaret.holloway@example.org", "555-0142"
LINES = [("Dear Ms Holloway, please write to ", EMAIL), ("or call me on ", PHONE),
         ("The meeting covers the budget review.", "")]


# -- pages --------------------------------------------------------------------------------
def scan(dpi: float, size_in=(8.5, 11.0), values_only=False, mode="RGB") -> Image.Image:
    """A page as a scanner gives it: ``size_in`` inches at ``dpi``, text of 12 pt (navy on
    a colour page, black on a grey or bilevel one); with ``values_only`` just the values'
    glyphs, in place."""
    w, h = round(size_in[0] * dpi), round(size_in[1] * dpi)
    img = Image.new("L" if mode != "RGB" else "RGB", (w, h), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, round(dpi * 12 / 72 * 1.2))
    ink = (20, 20, 110) if mode == "RGB" else 0
    for i, (label, value) in enumerate(LINES):
        x, y = dpi * 0.8, dpi * (0.8 + 0.4 * i)
        if not values_only:
            draw.text((x, y), label, font=font, fill=ink)
        draw.text((x + draw.textlength(label, font=font), y), value, font=font, fill=ink)
    return img.point(lambda v: 255 if v > 160 else 0, mode="1") if mode == "1" else img


def glyphs(values_only: Image.Image) -> np.ndarray:
    mask = np.asarray(values_only.convert("L")) < 160
    assert mask.sum() > 200
    return mask


def assert_hidden(out: Image.Image, mask: np.ndarray) -> None:
    pixels = np.asarray(out.convert("L"))
    assert pixels.shape == mask.shape
    visible = mask & (pixels > 100)
    assert visible.sum() == 0, f"{visible.sum()} glyph pixels of the values still visible"


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def scan_pdf(img: Image.Image, dpi: float) -> bytes:
    import img2pdf
    return img2pdf.convert([png_bytes(img)], layout_fun=img2pdf.get_fixed_dpi_layout_fun((dpi, dpi)))


def pdf_pages(data: bytes) -> list[tuple[tuple[float, float], list[tuple[int, int]]]]:
    """(page size in points, pixel sizes of its images) of every page."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    pdf = pdfium.PdfDocument(data)
    try:
        return [(pdf[i].get_size(), [o.get_px_size() for o in
                                     pdf[i].get_objects([pdfium_c.FPDF_PAGEOBJ_IMAGE])])
                for i in range(len(pdf))]
    finally:
        pdf.close()


def page_image(data: bytes, index: int) -> Image.Image:
    """The image on page ``index`` of an image-only PDF, its pixels as stored."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    pdf = pdfium.PdfDocument(data)
    try:
        (image,) = pdf[index].get_objects([pdfium_c.FPDF_PAGEOBJ_IMAGE])
        return image.get_bitmap().to_pil().convert("L")
    finally:
        pdf.close()


def rendered(data: bytes, index: int, dpi: float) -> Image.Image:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        return pdf[index].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        pdf.close()


def vector_pdf(pages: list[tuple[tuple[float, float], bytes | None, list]]) -> bytes:
    """A PDF of ``(size in points, page image as PNG bytes or None, text runs)`` pages;
    a text run is ``(x, y, text, render mode)`` in 11 pt Helvetica: mode 0 visible, 3
    invisible (the OCR layer of a searchable scan)."""
    import pikepdf

    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    for (w, h), image, runs in pages:
        resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
        content = b""
        if image is not None:
            src = pikepdf.Pdf.open(io.BytesIO(scan_pdf(Image.open(io.BytesIO(image)), 72)))
            xobj = pdf.copy_foreign(next(iter(src.pages[0].Resources.XObject.values())))
            resources.XObject = pikepdf.Dictionary(Im0=xobj)
            content += b"q %.4f 0 0 %.4f 0 0 cm /Im0 Do Q\n" % (w, h)
        for x, y, text, mode in runs:
            content += b"BT %d Tr /F1 11 Tf %.2f %.2f Td (%s) Tj ET\n" % (mode, x, y, text.encode())
        page = pikepdf.Page(pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, w, h],
                                               Resources=resources,
                                               Contents=pdf.make_stream(content)))
        pdf.pages.append(page)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def letter_runs(values_only=False) -> list:
    """Text runs of a born-digital letter: each label, and its value in a column of its own
    (so a page of the values alone puts them in the same place)."""
    runs = []
    for i, (label, value) in enumerate(LINES):
        if not values_only:
            runs.append((72, 720 - 20 * i, label.strip(), 0))
        if value:
            runs.append((260, 720 - 20 * i, value, 0))
    return runs


# -- PDF ----------------------------------------------------------------------------------
def test_a_96_dpi_scanned_pdf_keeps_its_page_size_and_pixels_and_is_not_inflated(tmp_path):
    page = scan(96)
    assert page.size == (816, 1056)
    src = tmp_path / "scan96.pdf"
    src.write_bytes(scan_pdf(page, 96))
    out = tmp_path / "out"
    assert main(["redact", str(src), "--out", str(out)]) == 0
    result = (out / "scan96.redacted.pdf").read_bytes()
    ((size_pt, images),) = pdf_pages(result)
    assert size_pt == pytest.approx((612.0, 792.0), abs=0.01)     # US letter, as it came in
    assert images == [(816, 1056)]                               # so 96 dpi, as it came in
    # the former 200 dpi re-render wrote 63 KB for this 18 KB input (now 14 KB)
    assert len(result) < 2 * src.stat().st_size
    assert_hidden(page_image(result, 0), glyphs(scan(96, values_only=True)))


def test_each_pdf_page_is_rendered_by_its_kind_and_keeps_its_size(tmp_path):
    """One document, three pages: a searchable scan at 96 dpi (an invisible OCR text layer
    over the page image) at its scan's resolution; a born-digital A4 page (vector text) at
    --pdf-dpi; the same scan with a visible typed note on it at --pdf-dpi (its vector
    text must not be drawn on a 96 dpi grid)."""
    letter, a4 = (612.0, 792.0), (595.0, 842.0)
    ocr_layer = [(72, 700, f"{EMAIL} {PHONE}", 3)]
    note = [(300, 60, "Received 12 March", 0)]

    def document(values_only: bool) -> bytes:
        img = png_bytes(scan(96, values_only=values_only))
        return vector_pdf([(letter, img, ocr_layer), (a4, None, letter_runs(values_only)),
                           (letter, img, note if not values_only else [])])

    src = tmp_path / "mixed.pdf"
    src.write_bytes(document(False))
    out = tmp_path / "out"
    assert main(["redact", str(src), "--out", str(out), "--pdf-dpi", "100"]) == 0
    result = (out / "mixed.redacted.pdf").read_bytes()
    pages = pdf_pages(result)
    assert [size for size, _ in pages] == [pytest.approx(s, abs=0.01) for s in (letter, a4, letter)]
    # 816 x 1056: the scan's own pixels; ceil(points * 100 / 72) for the others
    assert [images for _, images in pages] == [[(816, 1056)], [(827, 1170)], [(850, 1100)]]
    twin = document(True)
    assert_hidden(page_image(result, 0), glyphs(scan(96, values_only=True)))
    for index in (1, 2):
        assert_hidden(page_image(result, index), glyphs(rendered(twin, index, 100)))


# -- TIFF, PNG ----------------------------------------------------------------------------
def write_tiff(path, frames) -> None:
    """A multi-page TIFF of ``(image, dpi, compression)`` frames, each its own resolution."""
    from PIL import TiffImagePlugin

    with TiffImagePlugin.AppendingTiffWriter(str(path), new=True) as tf:
        for img, dpi, compression in frames:
            img.save(tf, format="TIFF", dpi=dpi, compression=compression)
            tf.newFrame()


def tiff_frames(path) -> list[tuple[str, tuple[int, int], tuple, str, Image.Image]]:
    with Image.open(path) as img:
        frames = []
        for i in range(img.n_frames):
            img.seek(i)
            frames.append((img.mode, img.size, tuple(round(v, 3) for v in img.info["dpi"]),
                           img.info["compression"], img.convert("L")))
        return frames


SMALL = (6.0, 2.0)    # inches: a strip of a page, so that OCR stays quick


def test_a_two_page_tiff_comes_back_as_a_tiff_with_each_page_size_and_resolution(tmp_path):
    src = tmp_path / "fax.tif"
    write_tiff(src, [(scan(300, SMALL, mode="1"), (300, 300), "group4"),
                     (scan(200, SMALL), (200, 200), "tiff_lzw")])
    out = tmp_path / "out"
    assert main(["redact", str(src), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["fax.boxes.jsonl", "fax.redacted.tif"]
    (m1, size1, dpi1, comp1, p1), (m2, size2, dpi2, comp2, p2) = tiff_frames(out / "fax.redacted.tif")
    # a bilevel page stays 1-bit group 4; a colour one stays colour, compressed losslessly
    assert (m1, size1, dpi1, comp1) == ("1", (1800, 600), (300, 300), "group4")
    assert (m2, size2, dpi2) == ("RGB", (1200, 400), (200, 200)) and comp2 == "tiff_adobe_deflate"
    assert_hidden(p1, glyphs(scan(300, SMALL, values_only=True, mode="1")))
    assert_hidden(p2, glyphs(scan(200, SMALL, values_only=True)))


def test_a_fax_resolution_and_a_missing_one_are_kept_as_they_are(tmp_path):
    """204 x 98 dpi stays 204 x 98 on the same pixels (the OCR squares the page itself and
    maps its boxes back); a page that states no resolution gets none made up."""
    from redactor.document import PageSink, publish_outputs
    from redactor.imageio import read_pages
    from redactor.render import scratch_file

    src = tmp_path / "fax.tif"
    fax = scan(204, SMALL, mode="1").resize((1224, 98 * 2), Image.NEAREST)
    write_tiff(src, [(fax, (204, 98), "group3"), (Image.new("L", (300, 100), 255), None, "tiff_lzw")])
    pages = list(read_pages(src))
    assert [p.dpi for p in pages] == [(204, 98), None]
    with scratch_file(tmp_path) as spool:
        with PageSink(src, spool) as sink:
            for page in pages:
                sink.add(page, page.image, multi_page=True)
        target, _ = publish_outputs(tmp_path / "out", "fax", [], sink)
    assert target.name == "fax.redacted.tif"
    with Image.open(target) as img:
        assert (img.size, img.info["dpi"]) == ((1224, 196), (204, 98))
        img.seek(1)
        assert img.size == (300, 100) and 282 not in img.tag_v2    # no XResolution


@pytest.mark.parametrize("fmt", ["PNG", "JPEG"])
def test_a_png_or_jpeg_page_gives_a_png_with_its_resolution(tmp_path, fmt):
    src = tmp_path / f"letter.{fmt.lower()}"
    scan(150, SMALL).save(src, format=fmt, dpi=(150, 150), **({"quality": 95} if fmt == "JPEG" else {}))
    out = tmp_path / "out"
    assert main(["redact", str(src), "--out", str(out)]) == 0
    with Image.open(out / "letter.redacted.png") as img:
        # PNG states whole pixels per metre: 5906 is 150.0124 dpi
        assert img.size == (900, 300) and img.info["dpi"] == pytest.approx((150, 150), abs=0.02)
        assert_hidden(img, glyphs(scan(150, SMALL, values_only=True)))


# -- the .tif name: refusal, --overwrite, stale outputs ------------------------------------
def test_an_existing_tif_output_is_refused_then_replaced_with_overwrite(tmp_path, capsys):
    src = tmp_path / "letter.png"
    scan(150, SMALL).save(src)
    out = tmp_path / "out"
    out.mkdir()
    (out / "letter.redacted.tif").write_bytes(b"someone's file")
    assert main(["redact", str(src), "--out", str(out)]) == 5
    assert "letter.redacted.tif already exists" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["letter.redacted.tif"]
    assert main(["redact", str(src), "--out", str(out), "--overwrite"]) == 0
    # the .tif no boxes file describes is gone with the run that replaced it
    assert sorted(p.name for p in out.iterdir()) == ["letter.boxes.jsonl", "letter.redacted.png"]
    # apply refuses the .tif name as well
    final = tmp_path / "final"
    final.mkdir()
    (final / "letter.redacted.tif").write_bytes(b"someone's file")
    capsys.readouterr()
    boxes = str(out / "letter.boxes.jsonl")
    assert main(["apply", str(src), "--boxes", boxes, "--out", str(final)]) == 5
    assert "letter.redacted.tif already exists" in capsys.readouterr().err
    assert (final / "letter.redacted.tif").read_bytes() == b"someone's file"


def test_a_failed_rerun_of_a_tiff_removes_its_earlier_tif_and_writes_nothing(tmp_path):
    src = tmp_path / "scan.tif"
    write_tiff(src, [(scan(200, SMALL), (200, 200), "tiff_lzw")] * 2)
    out = tmp_path / "out"
    assert main(["redact", str(src), "--out", str(out)]) == 0
    assert (out / "scan.redacted.tif").is_file()
    data = src.read_bytes()
    src.write_bytes(data[: len(data) - 20_000])      # the second page's pixels cut off
    assert main(["redact", str(src), "--out", str(out), "--overwrite"]) == 2
    # no earlier output passes for the redaction of the input as it is now; no half file
    assert sorted(p.name for p in out.iterdir()) == []
