"""TextractOcr against botocore's Stubber replaying responses in Textract's documented
format (Blocks with PAGE/LINE/WORD, normalised Geometry, CHILD relationships), built from
the word positions of pages rendered here with a real font."""
from __future__ import annotations

import io
import json
import uuid

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

boto3 = pytest.importorskip("boto3")
from botocore.stub import ANY, Stubber  # noqa: E402

from redactor_plugins.textract_ocr import TextractOcr, geometry_to_pixels  # noqa: E402
from redactor import registry  # noqa: E402
from redactor.errors import PluginFailed  # noqa: E402

pytestmark = pytest.mark.extras

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LINES = [["Invoice", "INV-2024-0042"], ["Bill", "to:", "Maria", "Lopez"],
         ["12", "Elm", "Street,", "Springfield"]]


def render_page(lines, size=(900, 420), font_size=34):
    """White page with black words; returns the image and per line the words' pixel boxes."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, font_size)
    boxes = []
    y = 40
    for words in lines:
        x = 50
        row = []
        for word in words:
            x0, y0, x1, y1 = draw.textbbox((x, y), word, font=font)
            draw.text((x, y), word, font=font, fill="black")
            row.append((word, (x0 - 2, y0 - 2, x1 + 2, y1 + 2)))
            x = x1 + font_size // 2
        boxes.append(row)
        y += int(font_size * 2.2)
    return image, boxes


def _geometry(corners, width, height):
    """Documented Geometry: normalised axis-aligned BoundingBox and the Polygon's corners
    in reading order (top-left of the text first)."""
    xs = [c[0] for c in corners]
    ys = [c[1] for c in corners]
    return {"BoundingBox": {"Width": (max(xs) - min(xs)) / width, "Height": (max(ys) - min(ys)) / height,
                            "Left": min(xs) / width, "Top": min(ys) / height},
            "Polygon": [{"X": x / width, "Y": y / height} for x, y in corners]}


def _corners(box):
    x0, y0, x1, y1 = box
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def textract_response(lines, width, height, transform=lambda pt: pt, layout_groups=None):
    """A DetectDocumentText/AnalyzeDocument response for the given words; ``transform`` maps
    upright pixel points onto the page as sent (used for the rotated page)."""
    blocks, line_ids = [], []
    word_blocks = []
    for row in lines:
        ids = []
        for word, box in row:
            wid = str(uuid.uuid4())
            ids.append(wid)
            word_blocks.append({"BlockType": "WORD", "Confidence": 99.1, "Text": word,
                                "TextType": "PRINTED", "Id": wid,
                                "Geometry": _geometry([transform(p) for p in _corners(box)], width, height)})
        x0 = min(b[0] for _, b in row)
        y0 = min(b[1] for _, b in row)
        x1 = max(b[2] for _, b in row)
        y1 = max(b[3] for _, b in row)
        lid = str(uuid.uuid4())
        line_ids.append(lid)
        blocks.append({"BlockType": "LINE", "Confidence": 99.0, "Text": " ".join(w for w, _ in row),
                       "Id": lid, "Relationships": [{"Type": "CHILD", "Ids": ids}],
                       "Geometry": _geometry([transform(p) for p in _corners((x0, y0, x1, y1))],
                                             width, height)})
    page = {"BlockType": "PAGE", "Id": str(uuid.uuid4()),
            "Geometry": _geometry([(0, 0), (width, 0), (width, height), (0, height)], width, height),
            "Relationships": [{"Type": "CHILD", "Ids": list(line_ids)}]}
    layout_blocks = []
    for kind, members in layout_groups or ():
        layout_blocks.append({"BlockType": kind, "Id": str(uuid.uuid4()), "Confidence": 90.0,
                              "Geometry": page["Geometry"],
                              "Relationships": [{"Type": "CHILD", "Ids": [line_ids[i] for i in members]}]})
    if layout_blocks:
        page["Relationships"] = [{"Type": "CHILD", "Ids": [b["Id"] for b in layout_blocks]}]
    return {"DocumentMetadata": {"Pages": 1},
            "Blocks": [page] + layout_blocks + blocks + word_blocks,
            "DetectDocumentTextModelVersion": "1.0"}


@pytest.fixture
def aws_env(monkeypatch, tmp_path):
    """Test credentials and region in the environment, no config files, no metadata probe."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDTESTTESTTEST")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("AWS_REGION", raising=False)
    monkeypatch.delenv("AWS_SESSION_TOKEN", raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-credentials"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-config"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    return tmp_path


def make_ocr(tmp_path, **options):
    ocr = TextractOcr(cache_dir=str(tmp_path / "cache"), retry_base_delay=0.001, **options)
    return ocr, Stubber(ocr.client)


def ink(image):
    return np.asarray(image.convert("L")) < 128


def test_multi_line_page_words_lines_and_pixels(aws_env):
    image, lines = render_page(LINES)
    ocr, stub = make_ocr(aws_env)
    response = textract_response(lines, *image.size)
    stub.add_response("detect_document_text", response, {"Document": {"Bytes": ANY}})
    with stub:
        page = ocr.read(image)
        stub.assert_no_pending_responses()
    assert page.engine_id == "textract 1.0"
    assert page.text == "Invoice INV-2024-0042\nBill to: Maria Lopez\n12 Elm Street, Springfield"
    expected = [box for row in lines for _, box in row]
    for word, box in zip(page.words, expected):
        assert word.bbox == pytest.approx(box, abs=1e-6)
    assert [w.line for w in page.words] == [1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    # Each word's box holds all the ink of that word.
    dark = ink(image)
    for word in page.words:
        x0, y0, x1, y1 = (int(round(v)) for v in word.bbox)
        assert dark[y0:y1, x0:x1].sum() > 0
    start, end = page.offsets[page.text.split().index("Maria")]
    assert page.text[start:end] == "Maria"


def test_sent_bytes_are_the_page_as_png(aws_env):
    image, lines = render_page(LINES)
    ocr, stub = make_ocr(aws_env)
    sent = {}
    ocr.client.meta.events.register("provide-client-params.textract.DetectDocumentText",
                                    lambda params, **kw: sent.update(params))
    stub.add_response("detect_document_text", textract_response(lines, *image.size),
                      {"Document": {"Bytes": ANY}})
    with stub:
        ocr.read(image)
    decoded = Image.open(io.BytesIO(sent["Document"]["Bytes"]))
    assert decoded.format == "PNG"
    assert np.array_equal(np.asarray(decoded.convert("RGB")), np.asarray(image))


def test_rotated_page_polygon_gives_boxes_over_the_ink(aws_env):
    upright, lines = render_page(LINES)
    w, h = upright.size
    rotated = upright.rotate(90, expand=True)      # counter-clockwise: text runs bottom-up
    rw, rh = rotated.size
    assert (rw, rh) == (h, w)

    def to_rotated(pt):
        x, y = pt
        return (y, w - x)

    response = textract_response(lines, rw, rh, transform=to_rotated)
    ocr, stub = make_ocr(aws_env)
    stub.add_response("detect_document_text", response, {"Document": {"Bytes": ANY}})
    with stub:
        page = ocr.read(rotated)
    assert (page.width, page.height) == (rw, rh)
    assert page.text.splitlines()[1] == "Bill to: Maria Lopez"      # reading order kept
    up_dark, rot_dark = ink(upright), ink(rotated)
    for word, (_, box) in zip(page.words, [wb for row in lines for wb in row]):
        x0, y0, x1, y1 = word.bbox
        assert x1 - x0 < y1 - y0                 # a word on a rotated page is tall and thin
        bx0, by0, bx1, by1 = (int(round(v)) for v in box)
        ink_upright = up_dark[by0:by1, bx0:bx1].sum()
        ink_in_box = rot_dark[int(np.floor(y0)):int(np.ceil(y1)), int(np.floor(x0)):int(np.ceil(x1))].sum()
        assert ink_upright > 0 and ink_in_box == ink_upright


def test_geometry_prefers_polygon_envelope():
    geometry = {"BoundingBox": {"Left": 0.1, "Top": 0.1, "Width": 0.1, "Height": 0.1},
                "Polygon": [{"X": 0.1, "Y": 0.2}, {"X": 0.3, "Y": 0.1}, {"X": 0.35, "Y": 0.15},
                            {"X": 0.15, "Y": 0.25}]}
    assert geometry_to_pixels(geometry, 1000, 2000) == pytest.approx((100, 200, 350, 500))
    del geometry["Polygon"]
    assert geometry_to_pixels(geometry, 1000, 2000) == pytest.approx((100, 200, 200, 400))


def test_layout_blocks_become_block_ids(aws_env):
    image, lines = render_page(LINES)
    response = textract_response(lines, *image.size,
                                 layout_groups=[("LAYOUT_TITLE", [0]), ("LAYOUT_TEXT", [1, 2])])
    del response["DetectDocumentTextModelVersion"]
    response["AnalyzeDocumentModelVersion"] = "1.0"
    ocr, stub = make_ocr(aws_env, layout=True)
    stub.add_response("analyze_document", response,
                      {"Document": {"Bytes": ANY}, "FeatureTypes": ["LAYOUT"]})
    with stub:
        page = ocr.read(image)
        stub.assert_no_pending_responses()
    assert [w.block for w in page.words] == [1, 1, 2, 2, 2, 2, 2, 2, 2, 2]
    assert page.text.startswith("Invoice INV-2024-0042\n\nBill to:")
    assert ocr.fingerprint() != TextractOcr(cache=False).fingerprint()


def test_response_cache_means_one_call_per_page(aws_env):
    image, lines = render_page(LINES)
    ocr, stub = make_ocr(aws_env)
    stub.add_response("detect_document_text", textract_response(lines, *image.size),
                      {"Document": {"Bytes": ANY}})
    with stub:
        first = ocr.read(image)
        second = ocr.read(image.copy())          # same pixels: served from the cache
        stub.assert_no_pending_responses()
    assert first.words == second.words and ocr.cache.hits == 1
    # A new plugin instance reads the same cache from disk.
    again, stub2 = make_ocr(aws_env)
    with stub2:
        assert again.read(image).words == first.words
    # A different operation is a different request and is not served from the cache.
    layout, stub3 = make_ocr(aws_env, layout=True)
    with stub3:
        with pytest.raises(PluginFailed):
            layout.read(image)                   # nothing stubbed: the call was attempted


def test_oversized_page_is_reencoded_and_boxes_map_back(aws_env):
    rng = np.random.default_rng(0)
    noise = rng.integers(200, 256, size=(420, 900, 3), dtype=np.uint8)
    image, lines = render_page(LINES)
    image = Image.fromarray(np.minimum(np.asarray(image), noise))
    ocr, stub = make_ocr(aws_env, max_bytes=40_000)
    sent = {}
    ocr.client.meta.events.register("provide-client-params.textract.DetectDocumentText",
                                    lambda params, **kw: sent.update(params))
    stub.add_response("detect_document_text", textract_response(lines, *image.size),
                      {"Document": {"Bytes": ANY}})
    with stub:
        page = ocr.read(image)
    data = sent["Document"]["Bytes"]
    assert len(data) <= 40_000
    assert Image.open(io.BytesIO(data)).size[0] <= image.size[0]
    expected = [box for row in lines for _, box in row]
    for word, box in zip(page.words, expected):
        assert word.bbox == pytest.approx(box, abs=1e-6)


def test_throttling_is_retried_then_errors_fail_the_page(aws_env):
    image, lines = render_page(LINES)
    ocr, stub = make_ocr(aws_env)
    stub.add_client_error("detect_document_text", service_error_code="ProvisionedThroughputExceededException",
                          service_message="slow down", http_status_code=400)
    stub.add_response("detect_document_text", textract_response(lines, *image.size))
    with stub:
        assert ocr.read(image).text.startswith("Invoice")
        stub.assert_no_pending_responses()
    other = Image.new("RGB", (50, 50), "white")
    stub.add_client_error("detect_document_text", service_error_code="UnsupportedDocumentException",
                          service_message="bad format", http_status_code=400)
    with stub:
        with pytest.raises(PluginFailed, match="UnsupportedDocumentException"):
            ocr.read(other)


def test_unavailable_without_credentials_and_listed_with_reason(aws_env, monkeypatch):
    assert TextractOcr.unavailable_reason() is None
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    reason = TextractOcr.unavailable_reason()
    assert reason and "no AWS credentials" in reason
    info = {(p.kind, p.name): p for p in registry.describe_all()}[("ocr", "textract")]
    assert not info.available and "no AWS credentials" in info.reason
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDTESTTESTTEST")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.delenv("AWS_DEFAULT_REGION")
    assert "region" in TextractOcr.unavailable_reason()


def test_credentials_from_a_shared_credentials_file(aws_env, monkeypatch):
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    creds = aws_env / "credentials"
    creds.write_text("[work]\naws_access_key_id = AKIDFILE\naws_secret_access_key = s\n")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(creds))
    assert TextractOcr.unavailable_reason() is not None          # default profile is empty
    monkeypatch.setenv("AWS_PROFILE", "work")
    assert TextractOcr.unavailable_reason() is None


def test_cache_files_are_private_and_a_damaged_entry_is_asked_again(aws_env):
    image, lines = render_page(LINES)
    ocr, stub = make_ocr(aws_env)
    stub.add_response("detect_document_text", textract_response(lines, *image.size))
    with stub:
        first = ocr.read(image)
    (entry,) = (aws_env / "cache" / "textract").rglob("*.json")
    assert entry.stat().st_mode & 0o777 == 0o600
    assert "INV-2024-0042" in entry.read_text()
    entry.write_text('{"response": {"Blocks": [')             # cut short, as by a crash
    stub.add_response("detect_document_text", textract_response(lines, *image.size))
    with stub:
        assert ocr.read(image).words == first.words
        stub.assert_no_pending_responses()                     # the page was asked for again
    assert json.loads(entry.read_text())["response"]["Blocks"]


def test_cache_can_be_turned_off(aws_env):
    image, lines = render_page(LINES)
    ocr, stub = make_ocr(aws_env, cache="false")
    for _ in range(2):
        stub.add_response("detect_document_text", textract_response(lines, *image.size))
    with stub:
        ocr.read(image)
        ocr.read(image)
        stub.assert_no_pending_responses()
    assert not (aws_env / "cache").exists()


def test_redactor_with_textract_and_comprehend_burns_out_the_name(aws_env):
    """Through the real pipeline (aligner, renderer): Textract words, Comprehend spans."""
    from redactor.pipeline import Redactor

    image, lines = render_page(LINES)
    cache = str(aws_env / "cache")
    redactor = Redactor(ocr="textract", detectors=["comprehend"], fit_to_ink=False,
                        ocr_options={"cache_dir": cache, "retry_base_delay": 0.001},
                        detector_options={"comprehend": {"cache_dir": cache}})
    text = "Invoice INV-2024-0042\nBill to: Maria Lopez\n12 Elm Street, Springfield"
    begin = text.index("Maria Lopez")
    ocr_stub, det_stub = Stubber(redactor.ocr.client), Stubber(redactor.detectors[0].client)
    ocr_stub.add_response("detect_document_text", textract_response(lines, *image.size))
    det_stub.add_response("detect_pii_entities",
                          {"Entities": [{"Score": 0.99, "Type": "NAME", "BeginOffset": begin,
                                         "EndOffset": begin + len("Maria Lopez")}]},
                          {"Text": text, "LanguageCode": "en"})
    with ocr_stub, det_stub:
        redacted, redactions = redactor.redact(image)
    (r,) = redactions
    maria, lopez = lines[1][2][1], lines[1][3][1]
    assert r.type == "PERSON"
    assert r.bbox[0] <= maria[0] and r.bbox[2] >= lopez[2]
    x0, y0, x1, y1 = (int(v) for v in maria)
    assert (np.asarray(redacted.convert("L"))[y0 + 2:y1 - 2, x0 + 2:lopez[2] - 2] < 40).all()
