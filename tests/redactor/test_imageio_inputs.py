"""Input handling: every image kind becomes upright RGB in the pixel space boxes refer to;
anything unusable is a one-line InputError."""
import io

import numpy as np
import pytest
from PIL import Image

from redactor.errors import InputError
from redactor.imageio import read_pages, to_rgb


def _save(tmp_path, img, name, **kw):
    p = tmp_path / name
    img.save(p, **kw)
    return p


def test_exif_orientation_is_applied(tmp_path):
    img = Image.new("RGB", (200, 100), "white")
    img.paste((0, 0, 0), (0, 0, 20, 20))          # black square top-left as stored
    exif = Image.Exif()
    exif[0x0112] = 6                                # rotate 90 CW for display
    p = _save(tmp_path, img, "o.jpg", exif=exif.tobytes(), quality=95)
    (page,) = list(read_pages(p))
    assert page.image.size == (100, 200)
    arr = np.asarray(page.image.convert("L"))
    assert arr[:20, -20:].mean() < 60               # square now top-right, as a viewer shows it


@pytest.mark.parametrize("mode", ["P", "RGBA", "LA", "L", "CMYK", "I;16", "1"])
def test_modes_become_rgb(tmp_path, mode):
    base = Image.new("RGB", (64, 32), "white")
    base.paste((0, 0, 0), (0, 0, 32, 32))
    if mode == "I;16":
        arr = (np.asarray(base.convert("L")).astype(np.uint16) * 257)
        img = Image.frombytes(
            "I;16", base.size, arr.astype("<u2").tobytes())
        p = _save(tmp_path, img, "x.png")
    else:
        img = base.convert(mode)
        p = _save(tmp_path, img, "x.tiff" if mode == "CMYK" else "x.png")
    (page,) = list(read_pages(p))
    assert page.image.mode == "RGB" and page.image.size == (64, 32)
    g = np.asarray(page.image.convert("L"))
    assert g[:, :32].mean() < 30 and g[:, 32:].mean() > 225


def test_transparent_pixels_become_paper_not_hidden_ink():
    img = Image.new("RGBA", (10, 10), (0, 0, 0, 0))   # fully transparent black
    assert np.asarray(to_rgb(img)).min() == 255


def test_multipage_tiff_gives_every_page(tmp_path):
    pages = [Image.new("RGB", (50, 40), c) for c in ("white", "gray", "black")]
    p = tmp_path / "m.tiff"
    pages[0].save(p, save_all=True, append_images=pages[1:])
    got = list(read_pages(p))
    assert [pg.index for pg in got] == [0, 1, 2]


def test_pdf_pages_are_rendered(tmp_path):
    import img2pdf
    buf = io.BytesIO()
    Image.new("RGB", (300, 200), "white").save(buf, format="PNG")
    p = tmp_path / "d.pdf"
    p.write_bytes(img2pdf.convert([buf.getvalue(), buf.getvalue()],
                                  layout_fun=img2pdf.get_fixed_dpi_layout_fun((100, 100))))
    got = list(read_pages(p, pdf_dpi=100))
    assert len(got) == 2 and got[0].image.size == (300, 200)


@pytest.mark.parametrize("content,needle", [
    (b"", "empty"),
    (b"this is not an image at all", "not a readable image"),
    (b"%PDF-1.7\n garbage", "PDF"),
])
def test_unreadable_inputs(tmp_path, content, needle):
    p = tmp_path / ("bad.pdf" if content.startswith(b"%PDF") else "bad.png")
    p.write_bytes(content)
    with pytest.raises(InputError, match=needle):
        list(read_pages(p))


def test_truncated_png(tmp_path):
    img = Image.fromarray(np.random.default_rng(0).integers(0, 255, (200, 200, 3), dtype=np.uint8))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    p = tmp_path / "t.png"
    p.write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    with pytest.raises(InputError, match="broken or truncated"):
        list(read_pages(p))


def test_pixel_limit_is_enforced_before_decoding(tmp_path):
    p = _save(tmp_path, Image.new("L", (4000, 3000), 255), "big.png")
    with pytest.raises(InputError, match="exceeds the limit"):
        list(read_pages(p, max_pixels=10_000_000))
    assert list(read_pages(p, max_pixels=12_000_000))


def test_encrypted_pdf_is_refused(tmp_path):
    pikepdf = pytest.importorskip("pikepdf")
    pdf = pikepdf.new()
    pdf.add_blank_page()
    p = tmp_path / "enc.pdf"
    pdf.save(p, encryption=pikepdf.Encryption(owner="o", user="secret"))
    with pytest.raises(InputError, match="encrypted"):
        list(read_pages(p))
