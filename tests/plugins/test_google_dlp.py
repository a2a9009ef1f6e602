"""Both Google DLP plugins with the REAL google-cloud-dlp client (REST transport, anonymous
credentials) pointed at a local HTTP server that answers in DLP's documented JSON and checks
the request body: image bytes (base64), info types, likelihood."""
from __future__ import annotations

import base64
import io
import json

import numpy as np
import fake_servers as fakes
import pytest
from PIL import Image, ImageDraw, ImageFont

pytest.importorskip("google.cloud.dlp_v2")
from google.auth.credentials import AnonymousCredentials  # noqa: E402
from google.cloud import dlp_v2  # noqa: E402

from redactor_plugins.google_dlp import (GoogleDlpImageSystem, GoogleDlpTextDetector,  # noqa: E402
                                byte_to_char_offset)
from redactor import registry  # noqa: E402
from redactor.errors import InputError, PluginFailed  # noqa: E402
from redactor.model import OcrPage, WordBox  # noqa: E402

pytestmark = pytest.mark.extras




def likelihood_name(value):
    """The client may send enums as numbers ($alt=json;enum-encoding=int) or names."""
    return dlp_v2.Likelihood(value).name if isinstance(value, int) else value


def bytes_type_name(value):
    return dlp_v2.ByteContentItem.BytesType(value).name if isinstance(value, int) else value


FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def render(lines, size=(1000, 300), font_size=32):
    """A page and the pixel box of each line's text."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, font_size)
    boxes = {}
    for i, line in enumerate(lines):
        xy = (40, 40 + i * 70)
        draw.text(xy, line, font=font, fill="black")
        boxes[line] = draw.textbbox(xy, line, font=font)
    return image, boxes


def make(cls, server, tmp_path, **options):
    return cls(project="test-proj", api_endpoint=server.url, credentials=AnonymousCredentials(),
               cache_dir=str(tmp_path / "cache"), retry_base_delay=0.001, **options)


def page_of(lines):
    words = [WordBox(w, (10.0 * j, 20.0 * i, 10.0 * j + 9, 20.0 * i + 15), 90.0, i + 1, 0)
             for i, line in enumerate(lines) for j, w in enumerate(line.split())]
    return OcrPage(width=1000, height=400, words=tuple(words), engine="test")


def test_image_mode_sends_the_page_and_maps_boxes(tmp_path):
    image, boxes = render(["Contact: maria.lopez@example.com", "Call (415) 555-0890 today"])
    email_box = boxes["Contact: maria.lopez@example.com"]
    phone_box = boxes["Call (415) 555-0890 today"]
    findings = [fakes.DlpFinding("EMAIL_ADDRESS", "VERY_LIKELY", "maria.lopez@example.com", [email_box]),
                fakes.DlpFinding("PHONE_NUMBER", "LIKELY", "(415) 555-0890", [phone_box]),
                fakes.DlpFinding("PERSON_NAME", "POSSIBLE", "Maria", [email_box])]   # under LIKELY

    seen = {}

    def checks(request, body):
        seen["path"] = request.path
        seen["body"] = body

    with fakes.FakeServer(fakes.dlp_inspect_handler(findings, checks=checks)) as server:
        system = make(GoogleDlpImageSystem, server, tmp_path, min_likelihood="likely")
        redactions = system.redact_page(image)
    assert not server.errors
    assert seen["path"].partition("?")[0] == "/v2/projects/test-proj/locations/global/content:inspect"
    body = seen["body"]
    assert bytes_type_name(body["item"]["byteItem"]["type"]) == "IMAGE_PNG"
    sent = Image.open(io.BytesIO(base64.b64decode(body["item"]["byteItem"]["data"])))
    assert np.array_equal(np.asarray(sent.convert("RGB")), np.asarray(image))
    config = body["inspectConfig"]
    assert likelihood_name(config["minLikelihood"]) == "LIKELY"
    assert config["includeQuote"] is True
    names = [t["name"] for t in config["infoTypes"]]
    assert {"EMAIL_ADDRESS", "PHONE_NUMBER", "PERSON_NAME", "STREET_ADDRESS"} <= set(names)
    assert "GENDER" not in names                           # null in the mapping: not requested
    got = {(r.type, r.value): r for r in redactions}
    assert set(got) == {("EMAIL", "maria.lopez@example.com"), ("PHONE", "(415) 555-0890")}
    assert got[("EMAIL", "maria.lopez@example.com")].bbox == pytest.approx(email_box, abs=1)
    assert got[("PHONE", "(415) 555-0890")].score == pytest.approx(0.7)


def test_downscaled_upload_boxes_map_back_to_page_pixels(tmp_path):
    rng = np.random.default_rng(1)
    image, boxes = render(["Account 12345678 belongs to Ana"], size=(1200, 900))
    noise = rng.integers(180, 256, (900, 1200, 3), dtype=np.uint8)
    noisy = Image.fromarray(np.minimum(np.asarray(image), noise))
    box = boxes["Account 12345678 belongs to Ana"]
    findings = [fakes.DlpFinding("FINANCIAL_ACCOUNT_NUMBER", "LIKELY", "12345678", [box])]
    with fakes.FakeServer(fakes.dlp_inspect_handler(findings, page_size=noisy.size)) as server:
        system = make(GoogleDlpImageSystem, server, tmp_path, max_request_bytes=120_000)
        (redaction,) = system.redact_page(noisy)
        body = server.requests[0].json()
    assert len(json.dumps(body)) <= 120_000
    sent = Image.open(io.BytesIO(base64.b64decode(body["item"]["byteItem"]["data"])))
    assert sent.size[0] < noisy.size[0]                    # it had to shrink to fit
    scale = noisy.size[0] / sent.size[0]
    assert redaction.type == "ACCOUNT_NUMBER"
    assert redaction.bbox == pytest.approx(box, abs=scale + 1)
    x0, y0, x1, y1 = redaction.bbox
    assert x0 <= box[0] + 0.5 and y0 <= box[1] + 0.5 and x1 >= box[2] - 0.5 and y1 >= box[3] - 0.5


def test_multi_box_finding_is_one_box_or_one_per_line(tmp_path):
    image, boxes = render(["12 Elm Street", "Springfield, IL 62701"])
    a, b = boxes["12 Elm Street"], boxes["Springfield, IL 62701"]
    findings = [fakes.DlpFinding("STREET_ADDRESS", "LIKELY", "12 Elm Street Springfield, IL 62701", [a, b])]
    with fakes.FakeServer(fakes.dlp_inspect_handler(findings)) as server:
        (merged,) = make(GoogleDlpImageSystem, server, tmp_path / "1").redact_page(image)
        per_line = make(GoogleDlpImageSystem, server, tmp_path / "2", box_per_line=True).redact_page(image)
    assert merged.type == "ADDRESS"
    assert merged.bbox == pytest.approx((min(a[0], b[0]), a[1], max(a[2], b[2]), b[3]), abs=1)
    assert [r.bbox for r in per_line] == [pytest.approx(a, abs=1), pytest.approx(b, abs=1)]


def test_text_mode_offsets_with_unicode(tmp_path):
    page = page_of(["Empfänger: Jürgen Groß", "E-Mail jürgen@example.de Tel 030 1234567"])
    findings = [fakes.DlpFinding("PERSON_NAME", "LIKELY", "Jürgen Groß"),
                fakes.DlpFinding("EMAIL_ADDRESS", "VERY_LIKELY", "jürgen@example.de", ranges="bytes"),
                fakes.DlpFinding("PHONE_NUMBER", "POSSIBLE", "030 1234567", ranges="codepoints")]
    seen = {}
    with fakes.FakeServer(fakes.dlp_inspect_handler(findings, checks=lambda r, b: seen.update(b))) as server:
        detector = make(GoogleDlpTextDetector, server, tmp_path)
        spans = detector.detect(page)
    assert seen["item"] == {"value": page.text}
    assert likelihood_name(seen["inspectConfig"]["minLikelihood"]) == "POSSIBLE"
    got = [(s.type, page.text[s.start:s.end]) for s in spans]
    assert got == [("PERSON", "Jürgen Groß"), ("EMAIL", "jürgen@example.de"), ("PHONE", "030 1234567")]
    assert all(s.detector == "google-dlp-text" for s in spans)


def test_byte_offsets_convert_to_characters():
    text = "aé€😀b"
    for i in range(len(text) + 1):
        assert byte_to_char_offset(text, len(text[:i].encode())) == i
    assert byte_to_char_offset(text, 2) == 1                     # inside "é": its start
    assert byte_to_char_offset(text, 2, round_up=True) == 2


def test_responses_are_cached(tmp_path):
    image, boxes = render(["maria@example.com"])
    box = boxes["maria@example.com"]
    findings = [fakes.DlpFinding("EMAIL_ADDRESS", "LIKELY", "maria@example.com", [box])]
    with fakes.FakeServer(fakes.dlp_inspect_handler(findings)) as server:
        system = make(GoogleDlpImageSystem, server, tmp_path)
        first = system.redact_page(image)
        second = make(GoogleDlpImageSystem, server, tmp_path).redact_page(image.copy())
        assert len(server.requests) == 1
        make(GoogleDlpImageSystem, server, tmp_path, min_likelihood="VERY_LIKELY").redact_page(image)
        assert len(server.requests) == 2                          # another request: asked again
    assert first == second


def test_server_errors_fail_the_page_and_rate_limits_are_retried(tmp_path):
    ok = fakes.dlp_inspect_handler([])
    replies = [fakes.Reply(429, {"error": {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}}),
               ok,
               fakes.Reply(400, {"error": {"code": 400, "message": "Invalid built-in info type name",
                                           "status": "INVALID_ARGUMENT"}})]
    with fakes.FakeServer(fakes.scripted(replies)) as server:
        detector = make(GoogleDlpTextDetector, server, tmp_path, cache=False)
        assert detector.detect(page_of(["nothing here"])) == []
        with pytest.raises(PluginFailed, match="Invalid built-in info type name"):
            detector.detect(page_of(["nothing here"]))
    assert len(server.requests) == 3


def test_options_are_checked(tmp_path):
    with pytest.raises(InputError, match="min_likelihood"):
        GoogleDlpTextDetector(project="p", credentials=AnonymousCredentials(), min_likelihood="SURE")
    with pytest.raises(InputError, match="without a mapping"):
        GoogleDlpTextDetector(project="p", credentials=AnonymousCredentials(), info_types="EMAIL_ADDRESS,FOO")


def test_credentials_via_application_default_credentials(monkeypatch, tmp_path):
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    monkeypatch.setenv("CLOUDSDK_CONFIG", str(tmp_path / "gcloud"))     # no gcloud ADC file
    for var in ("K_SERVICE", "GAE_ENV", "GAE_RUNTIME", "FUNCTION_TARGET", "GCE_METADATA_HOST",
                "CLOUD_RUN_JOB"):
        monkeypatch.delenv(var, raising=False)
    reason = GoogleDlpImageSystem.unavailable_reason()
    assert reason and "Application Default Credentials" in reason
    info = {(p.kind, p.name): p for p in registry.describe_all()}
    assert not info[("ocr_free", "google-dlp")].available
    assert not info[("detector", "google-dlp-text")].available
    # A named file that is missing: google.auth.default raises DefaultCredentialsError.
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(tmp_path / "missing.json"))
    assert "unusable" in GoogleDlpTextDetector.unavailable_reason()
    # A user credentials file (as `gcloud auth application-default login` writes): available.
    adc = tmp_path / "adc.json"
    adc.write_text(json.dumps({"type": "authorized_user", "client_id": "id.apps.googleusercontent.com",
                               "client_secret": "s", "refresh_token": "r"}))
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(adc))
    assert GoogleDlpTextDetector.unavailable_reason() is None
