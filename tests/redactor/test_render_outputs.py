"""Renderer: opaque boxes, fresh files with nothing of the input, atomic writes."""
import numpy as np
import pytest
from PIL import Image, PngImagePlugin

from redactor.errors import InputError, OutputError
from redactor.model import Redaction
from redactor.render import burn_in, pixel_rect, write_pdf, write_png


def test_boxes_are_solid_and_cover_fractional_edges():
    img = Image.new("RGB", (100, 100), "white")
    out = burn_in(img, [Redaction((10.5, 20.2, 30.7, 40.9), "PERSON")])
    a = np.asarray(out)
    assert (a[20:41, 10:31] == 0).all()             # floor(x0)..ceil(x1) fully black
    assert (a[:20] == 255).all() and (a[41:] == 255).all()
    assert (a[:, :10] == 255).all() and (a[:, 31:] == 255).all()


def test_fill_pad_and_clipping():
    img = Image.new("RGB", (50, 50), "white")
    out = np.asarray(burn_in(img, [Redaction((40, 40, 60, 60), "PERSON")], fill="#ff0000", pad=2))
    assert (out[38:50, 38:50] == [255, 0, 0]).all()
    assert pixel_rect((60, 60, 70, 70), 50, 50) is None
    with pytest.raises(InputError, match="fill colour"):
        burn_in(img, [], fill="not-a-colour")


def test_png_output_carries_no_metadata_of_the_input(tmp_path):
    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "Maria Lopez")
    src = tmp_path / "in.png"
    Image.new("RGB", (20, 20), "white").save(src, pnginfo=info, dpi=(300, 300))
    img = Image.open(src)
    assert img.info.get("Author") == "Maria Lopez"
    dst = tmp_path / "out.png"
    write_png(burn_in(img, []), dst)
    raw = dst.read_bytes()
    assert b"Maria" not in raw and b"tEXt" not in raw and b"pHYs" not in raw
    assert list(tmp_path.glob("*.part")) == []


def test_pdf_output_is_images_only(tmp_path):
    pikepdf = pytest.importorskip("pikepdf")
    dst = tmp_path / "o.pdf"
    write_pdf([Image.new("RGB", (200, 100), "white")] * 2, dst)
    with pikepdf.open(dst) as pdf:
        assert len(pdf.pages) == 2
        assert len(pdf.docinfo.keys()) == 0
        assert "/AcroForm" not in pdf.Root and "/Names" not in pdf.Root
        for page in pdf.pages:
            assert "/Annots" not in page
            assert list(page.images)              # the page image
            assert "/Font" not in page.Resources


def test_unwritable_destination_leaves_nothing(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        import os
        if os.access(ro, os.W_OK):   # root ignores mode bits: use a path under a file instead
            target = tmp_path / "file" / "x.png"
            (tmp_path / "file").write_text("not a folder")
        else:
            target = ro / "x.png"
        with pytest.raises(OutputError):
            write_png(Image.new("RGB", (5, 5)), target)
        assert not target.exists()
    finally:
        ro.chmod(0o700)
