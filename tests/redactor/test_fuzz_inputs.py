"""Property-based fuzzing (hypothesis) of the three places untrusted data meets the code:

- the page reader: random bytes, and valid PNG/JPEG/TIFF/GIF/WebP/BMP/PDF files with flipped,
  inserted, deleted and truncated bytes, give upright RGB pages or one ``InputError``,
  never another exception;
- the aligner: random OCR pages and random spans (out of range ones included) never crash,
  and every span's boxes cover all the words it touches and stay inside their union;
- the renderer: random boxes, pads and fills keep the page size, fill every pixel of every
  clipped box, and leave every other pixel as it was.

No OCR runs here; sizes are small so that the examples stay quick.
"""
from __future__ import annotations

import io
import math
import os
import re
import struct
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from redactor.aligner import _split_at_column_gaps, align_spans, propagate_repeats, union_box, words_in_span
from redactor.errors import InputError
from redactor.imageio import read_pages
from redactor.model import OcrPage, Redaction, Span, WordBox
from redactor.page_view import page_view
from redactor.render import burn_in, parse_fill

# REDACTOR_FUZZ_EXAMPLES raises the count for a long exploratory run; the suite default is small.
FUZZ = settings(max_examples=int(os.environ.get("REDACTOR_FUZZ_EXAMPLES", "200")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
MAX_PIXELS = 250_000          # small, so a mutated size field is refused rather than decoded


# -- seeds: one small valid file of each kind --------------------------------------------------

def _picture(mode="RGB", size=(24, 16)):
    img = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(img)
    d.rectangle((2, 2, 10, 12), fill="black")
    d.line((12, 0, 23, 15), fill=(200, 30, 30))
    return img.convert(mode)


def _encode(img, fmt, **kw):
    buf = io.BytesIO()
    img.save(buf, format=fmt, **kw)
    return buf.getvalue()


def _pdf(objs: list[bytes]) -> bytes:
    """Numbered objects (1 is the catalog) -> a PDF file with a correct xref table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def _text_pdf() -> bytes:
    return _pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                 b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                 b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 144 48] /Contents 4 0 R "
                 b"/Resources << /Font << /F1 5 0 R >> >> >>",
                 _stream(b"BT /F1 12 Tf 10 20 Td (Jane Roe 555-0101) Tj ET"),
                 b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"])


def _form_pdf() -> bytes:
    """A filled form field with its appearance, a note, JavaScript and an attachment: the
    paths of the reader that forms and annotations take."""
    return _pdf([
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [6 0 R] /DA (/Helv 0 Tf 0 g) "
        b"/DR << /Font << /Helv 5 0 R >> >> >> /OpenAction << /S /JavaScript /JS (app.alert(1)) >> "
        b"/Names << /EmbeddedFiles << /Names [(a.txt) 8 0 R] >> >> >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 144 72] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> /Annots [6 0 R 10 0 R] "
        b"/AA << /O << /S /JavaScript /JS (1) >> >> >>",
        _stream(b"BT /F1 10 Tf 5 60 Td (Form) Tj ET"),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (f) /V (Jane Roe) /Rect [5 10 139 40] /F 4 "
        b"/P 3 0 R /DA (/Helv 12 Tf 0 g) /AP << /N 7 0 R >> >>",
        _stream(b"/Tx BMC BT /Helv 12 Tf 0 g 2 10 Td (Jane Roe) Tj ET EMC",
                b"/Type /XObject /Subtype /Form /BBox [0 0 134 30] /Resources << /Font << /Helv 5 0 R >> >>"),
        b"<< /Type /Filespec /F (a.txt) /EF << /F 9 0 R >> >>",
        _stream(b"secret", b"/Type /EmbeddedFile"),
        b"<< /Type /Annot /Subtype /Text /Rect [120 50 140 70] /Contents (note) >>",
    ])


def _seeds() -> dict[str, bytes]:
    import img2pdf

    rgb = _picture()
    exif = Image.Exif()
    exif[0x0112] = 6
    i16 = Image.frombytes("I;16", rgb.size,
                          (np.asarray(rgb.convert("L")).astype("<u2") * 257).tobytes())
    frames = [_picture(), _picture("L")]
    tiff = io.BytesIO()
    frames[0].save(tiff, format="TIFF", save_all=True, append_images=frames[1:], compression="tiff_lzw")
    gif = io.BytesIO()
    frames[0].convert("P").save(gif, format="GIF", save_all=True, append_images=[frames[1].convert("P")])
    png = _encode(rgb, "PNG")
    return {
        "png": png,
        "palette.png": _encode(rgb.convert("P"), "PNG", transparency=0),
        "i16.png": _encode(i16, "PNG"),
        "jpg": _encode(rgb, "JPEG", quality=80, exif=exif.tobytes()),
        "tiff": tiff.getvalue(),
        "cmyk.tiff": _encode(rgb.convert("CMYK"), "TIFF"),
        "gif": gif.getvalue(),
        "webp": _encode(rgb, "WEBP"),
        "bmp": _encode(rgb, "BMP"),
        "pdf": _text_pdf(),
        "form.pdf": _form_pdf(),
        "img.pdf": img2pdf.convert([png], layout_fun=img2pdf.get_fixed_dpi_layout_fun((72, 72))),
    }


SEEDS = _seeds()


@st.composite
def mutated_files(draw):
    kind = draw(st.sampled_from(sorted(SEEDS)))
    data = bytearray(SEEDS[kind])
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "truncate", "int"]))
        pos = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "flip" and data:
            data[pos] ^= 1 << draw(st.integers(0, 7))
        elif op == "set" and data:
            data[pos] = draw(st.integers(0, 255))
        elif op == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=16))
        elif op == "delete":
            del data[pos:pos + draw(st.integers(1, 64))]
        elif op == "truncate":
            del data[pos:]
        elif op == "int" and len(data) >= 4:
            # sizes, lengths and offsets are 16/32-bit fields: set one to an extreme value
            value = draw(st.sampled_from([0, 1, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF]))
            fmt = draw(st.sampled_from([">I", "<I", ">H", "<H"]))
            packed = struct.pack(fmt, value & (0xFFFF if "H" in fmt else 0xFFFFFFFF))
            data[pos:pos + len(packed)] = packed
    return kind, bytes(data)


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def read_or_input_error(folder, name: str, data: bytes):
    path = folder / name
    path.write_bytes(data)
    try:
        pages = list(read_pages(path, max_pixels=MAX_PIXELS, pdf_dpi=36))
    except InputError as exc:
        message = str(exc)
        assert message and "\n" not in message
        event("outcome: InputError")    # shown by --hypothesis-show-statistics
        return None
    event("outcome: pages")
    for page in pages:
        assert page.image.mode == "RGB"
        w, h = page.image.size
        assert w > 0 and h > 0 and w * h <= MAX_PIXELS
    return pages


def test_every_seed_is_readable(fuzz_dir):
    # Control: mutations start from files the reader accepts.
    for kind, data in SEEDS.items():
        path = fuzz_dir / f"seed.{kind}"
        path.write_bytes(data)
        pages = list(read_pages(path, max_pixels=MAX_PIXELS, pdf_dpi=36))
        assert pages and all(p.image.mode == "RGB" for p in pages), kind


@FUZZ
@given(case=mutated_files())
def test_mutated_files_give_pages_or_input_error(fuzz_dir, case):
    kind, data = case
    read_or_input_error(fuzz_dir, f"m.{kind}", data)


MAGIC = [b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xe0", b"II*\x00", b"MM\x00*", b"GIF89a", b"BM",
         b"RIFF\x00\x00\x00\x00WEBPVP8 ", b"%PDF-1.7\n", b"\x00\x00\x00\x0cjP  \r\n\x87\n", b""]


@FUZZ
@given(magic=st.sampled_from(MAGIC), tail=st.binary(max_size=512),
       suffix=st.sampled_from(["png", "jpg", "tiff", "pdf", "bin", "webp"]))
def test_random_bytes_behind_a_magic_number_give_input_error(fuzz_dir, magic, tail, suffix):
    read_or_input_error(fuzz_dir, f"r.{suffix}", magic + tail)


@settings(max_examples=60, deadline=None)
@given(width=st.integers(1, 40_000), height=st.integers(1, 40_000))
def test_declared_png_size_is_checked_before_decoding(fuzz_dir, width, height):
    # A PNG header claiming any size, followed by a tiny (wrong) image stream.
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))
    pages = read_or_input_error(fuzz_dir, "size.png", data)
    if width * height > MAX_PIXELS:
        assert pages is None


# -- the aligner -------------------------------------------------------------------------------

WORD_TEXT = st.text(alphabet=st.sampled_from("ab1-@. \n"), min_size=1, max_size=6)


@st.composite
def ocr_pages(draw):
    width, height = draw(st.integers(10, 400)), draw(st.integers(10, 400))
    words = []
    line = block = 0
    for _ in range(draw(st.integers(0, 14))):
        step = draw(st.sampled_from(["same", "line", "block"]))
        if step == "line":
            line += 1
        elif step == "block":
            line += 1
            block += 1
        x0 = draw(st.floats(0, width - 1, allow_nan=False))
        y0 = draw(st.floats(0, height - 1, allow_nan=False))
        x1 = draw(st.floats(x0 + 0.01, width, allow_nan=False))
        y1 = draw(st.floats(y0 + 0.01, height, allow_nan=False))
        assume(x1 > x0 and y1 > y0)
        # word lines may repeat out of order (columns read across): the aligner must cope
        words.append(WordBox(draw(WORD_TEXT), (x0, y0, x1, y1), line=draw(st.sampled_from([line, 0])),
                             block=block))
    return OcrPage(width, height, tuple(words), "fuzz")


def spans_for(page: OcrPage):
    n = len(page.text)
    bound = st.integers(-5, n + 5)
    return st.lists(st.builds(lambda a, b, t: Span(min(a, b), max(a, b), t), bound, bound,
                              st.sampled_from(["PERSON", "EMAIL", "ID_NUMBER"])), max_size=5)


def reference_words(page: OcrPage, span: Span) -> list[int]:
    """Written independently of the aligner: every word sharing a character with the span."""
    start, end = max(0, span.start), min(len(page.text), span.end)
    return [i for i, (ws, we) in enumerate(page.offsets) if ws < end and we > start and start < end]


def _inside(inner, outer, eps=1e-9) -> bool:
    return (inner[0] >= outer[0] - eps and inner[1] >= outer[1] - eps
            and inner[2] <= outer[2] + eps and inner[3] <= outer[3] + eps)


@FUZZ
@given(data=st.data(), mode=st.sampled_from(["auto", "span", "line"]))
def test_aligner_boxes_cover_the_span_words_and_nothing_outside_them(data, mode):
    page = data.draw(ocr_pages())
    for span in data.draw(spans_for(page)):
        expected = reference_words(page, span)
        assert words_in_span(page, max(0, span.start), min(len(page.text), span.end)) == expected
        result = align_spans(page, [span], mode=mode)
        if not expected:
            assert result.redactions == [] and result.dropped == [span]
            continue
        assert result.dropped == []
        boxes = [r.bbox for r in result.redactions]
        assert boxes and all(r.type == span.type for r in result.redactions)
        hull = union_box(page.words[i].bbox for i in expected)
        for box in boxes:
            assert _inside(box, hull), (box, hull)
        for i in expected:
            assert any(_inside(page.words[i].bbox, box) for box in boxes), (page.words[i], boxes)
        # the aligner's rows: OCR line ids parted where their words' centres lie apart
        row = page_view(page).word_line
        lines = {}
        for i in expected:
            lines.setdefault(row[i], []).append(page.words[i].bbox)
        others = {}
        for j, w in enumerate(page.words):
            if j not in expected:
                others.setdefault(row[j], []).append(w.bbox)
        column_split = any(len(_split_at_column_gaps(b, others.get(line, ()))) > 1
                           for line, b in lines.items())
        if mode == "span" and not column_split:
            assert len(boxes) == 1


@FUZZ
@given(data=st.data())
def test_propagated_repeats_are_the_same_value_on_word_boundaries(data):
    page = data.draw(ocr_pages())
    n = len(page.text)
    idx = st.integers(0, n)
    spans = data.draw(st.lists(st.builds(lambda a, b: Span(min(a, b), max(a, b), "PERSON"), idx, idx),
                               max_size=4))
    out = propagate_repeats(page, spans)
    assert out[:len(spans)] == spans                   # originals kept, in order
    # a repeat may have a stop or comma OCR read between two of its words
    def norm(t):
        return " ".join(re.sub(r"[.,;:]+(?=\s|$)", "", t).split())
    source_values = {norm(page.text[s.start:s.end]) for s in spans}
    # identifiers (with a digit) repeat in any letter case, names exactly
    folded = {v.lower() for v in source_values if any(c.isdigit() for c in v)}
    for added in out[len(spans):]:
        text = norm(page.text[added.start:added.end])
        assert text in source_values or (any(c.isdigit() for c in text) and text.lower() in folded)
        assert added.start == 0 or not page.text[added.start - 1].isalnum() and page.text[added.start - 1] != "_"
        assert added.end == n or not page.text[added.end].isalnum() and page.text[added.end] != "_"
    align_spans(page, out)                             # and every result can be placed


# -- the renderer ------------------------------------------------------------------------------

COORD = st.one_of(st.floats(-50, 150, allow_nan=False, allow_infinity=False),
                  st.floats(allow_nan=False, allow_infinity=False))
FILLS = st.sampled_from(["black", "white", "#ff0000", "#123456", "red", "rgb(1,2,3)"])


@st.composite
def ordered_boxes(draw):
    x0, x1 = sorted((draw(COORD), draw(COORD)))
    y0, y1 = sorted((draw(COORD), draw(COORD)))
    return (x0, y0, x1, y1)


@FUZZ
@given(size=st.tuples(st.integers(1, 60), st.integers(1, 60)),
       boxes=st.lists(ordered_boxes(), max_size=6),
       pad=st.floats(0, 10, allow_nan=False), fill=FILLS,
       mode=st.sampled_from(["RGB", "L", "RGBA", "P", "1"]))
def test_burn_in_fills_exactly_the_clipped_boxes(size, boxes, pad, fill, mode):
    rng = np.random.default_rng(len(boxes))
    src = Image.fromarray(rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)).convert(mode)
    before = np.asarray(src.convert("RGB")).copy()
    out = burn_in(src, [Redaction(b, "PERSON") for b in boxes], fill=fill, pad=pad)
    assert out.size == src.size and out.mode == "RGB"
    after = np.asarray(out)
    colour = np.array(parse_fill(fill), dtype=np.uint8)
    w, h = out.size
    ys, xs = np.mgrid[0:h, 0:w]
    may_change = np.zeros((h, w), dtype=bool)
    for x0, y0, x1, y1 in boxes:
        x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
        # every pixel the box overlaps with positive area is filled ...
        touched = (xs + 1 > x0) & (xs < x1) & (ys + 1 > y0) & (ys < y1)
        assert (after[touched] == colour).all()
        # ... and at most the pixels touching its closure may change (a box of no area may
        # still blank its row or column: hiding more is allowed, hiding less is not)
        may_change |= (xs + 1 >= x0) & (xs <= x1) & (ys + 1 >= y0) & (ys <= y1)
    assert (after[~may_change] == before[~may_change]).all()


@given(x=st.tuples(st.floats(0, 99), st.floats(1, 100)).map(sorted),
       y=st.tuples(st.floats(0, 99), st.floats(1, 100)).map(sorted))
@settings(max_examples=50, deadline=None)
@example(x=[10.0, 30.0], y=[10.0, 20.0])
def test_burn_in_hides_a_box_given_with_swapped_corners(x, y):
    (x0, x1), (y0, y1) = x, y
    assume(x1 - x0 >= 1 and y1 - y0 >= 1)
    img = Image.new("RGB", (100, 100), "white")
    out = np.asarray(burn_in(img, [Redaction((x1, y0, x0, y1), "PERSON")]))
    assert (out[math.ceil(y0):math.floor(y1), math.ceil(x0):math.floor(x1)] == 0).all()


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_burn_in_never_returns_a_page_for_a_non_finite_box(bad):
    # Either the box is drawn over the whole page or the call fails: silently skipping it
    # would publish what it was meant to hide. (The pipeline clips boxes before this.)
    img = Image.new("RGB", (20, 20), "white")
    box = (0.0, 0.0, bad, 10.0)
    try:
        out = burn_in(img, [Redaction(box, "PERSON")])
    except Exception:
        return
    assert (np.asarray(out)[0:10, 0:20] == 0).all()


@settings(max_examples=100, deadline=None)
@given(fill=st.text(max_size=12))
def test_any_fill_string_is_a_colour_or_input_error(fill):
    try:
        rgb = parse_fill(fill)
    except InputError:
        return
    assert len(rgb) == 3 and all(0 <= c <= 255 for c in rgb)


# -- numeric options ---------------------------------------------------------------------------

NUMBERS = st.one_of(st.floats(), st.integers(-10**6, 10**12))


@settings(max_examples=200, deadline=None)
@given(option=st.sampled_from(["pad", "page_timeout", "pdf_dpi", "max_pixels", "min_score"]),
       value=NUMBERS)
@example(option="pad", value=math.nan)
def test_numeric_options_are_usable_or_input_error(option, value):
    from redactor.config import load_config
    try:
        cfg = load_config(None, {option: value})
    except InputError:
        return
    got = float(getattr(cfg, option))
    assert math.isfinite(got), f"{option}={value!r} accepted"
    if option in ("page_timeout", "pdf_dpi", "max_pixels"):
        assert got > 0, f"{option}={value!r} accepted"


@settings(max_examples=100, deadline=None)
@given(max_pixels=NUMBERS, pdf_dpi=NUMBERS, kind=st.sampled_from(["png", "pdf"]))
def test_reader_options_give_pages_or_input_error(fuzz_dir, max_pixels, pdf_dpi, kind):
    path = fuzz_dir / f"opt.{kind}"
    path.write_bytes(SEEDS[kind])
    assume(not (isinstance(pdf_dpi, (int, float)) and pdf_dpi > 2000))   # keep renders small
    try:
        pages = list(read_pages(path, max_pixels=max_pixels, pdf_dpi=pdf_dpi))
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert pages and all(p.image.width * p.image.height <= max_pixels for p in pages)
