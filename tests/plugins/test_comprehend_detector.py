"""ComprehendDetector against botocore's Stubber: request parameters (chunking under the
100 KB limit, language) and responses in the documented DetectPiiEntities format
(Entities: Score, Type, BeginOffset, EndOffset in characters of the text sent)."""
from __future__ import annotations

import pytest
import yaml

pytest.importorskip("boto3")
import botocore.session  # noqa: E402
from botocore.stub import ANY, Stubber  # noqa: E402

from redactor_plugins._text_chunks import chunk_text  # noqa: E402
from redactor_plugins.comprehend_detector import API_MAX_TEXT_BYTES, ComprehendDetector  # noqa: E402
from redactor.errors import InputError, PluginFailed  # noqa: E402
from redactor.model import OcrPage, WordBox  # noqa: E402
from redactor.paths import mapping_file  # noqa: E402

pytestmark = pytest.mark.extras


@pytest.fixture
def aws_env(monkeypatch, tmp_path):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDTESTTESTTEST")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    for var in ("AWS_PROFILE", "AWS_REGION", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    return tmp_path


def page_of(lines: list[str]) -> OcrPage:
    words = []
    for li, line in enumerate(lines):
        for wi, word in enumerate(line.split()):
            box = (10.0 * wi, 20.0 * li, 10.0 * wi + 9, 20.0 * li + 15)
            words.append(WordBox(word, box, 95.0, li + 1, 0))
    return OcrPage(width=2000, height=20 * len(lines) + 20, words=tuple(words), engine="test")


def entity(text: str, value: str, kind: str, score: float = 0.99, after: int = 0) -> dict:
    begin = text.index(value, after)
    return {"Score": score, "Type": kind, "BeginOffset": begin, "EndOffset": begin + len(value)}


def make(tmp_path, **options):
    detector = ComprehendDetector(cache_dir=str(tmp_path / "cache"), retry_base_delay=0.001, **options)
    return detector, Stubber(detector.client)


LINES = ["Patient: José Müller", "Phone +1 415 555 0100 email jose.muller@example.com",
         "SSN 123-45-6789 seen 2024-03-01"]


def test_entities_become_spans_with_page_offsets(aws_env):
    page = page_of(LINES)
    text = page.text
    detector, stub = make(aws_env, min_score=0.6)
    response = {"Entities": [
        entity(text, "José Müller", "NAME"),
        entity(text, "+1 415 555 0100", "PHONE", 0.97),
        entity(text, "jose.muller@example.com", "EMAIL"),
        entity(text, "123-45-6789", "SSN", 0.95),
        entity(text, "2024-03-01", "DATE_TIME", 0.4),          # under the threshold
    ]}
    stub.add_response("detect_pii_entities", response, {"Text": text, "LanguageCode": "en"})
    with stub:
        spans = detector.detect(page)
        stub.assert_no_pending_responses()
    got = [(s.type, text[s.start:s.end], s.text) for s in spans]
    assert got == [("PERSON", "José Müller", "José Müller"), ("PHONE", "+1 415 555 0100", "+1 415 555 0100"),
                   ("EMAIL", "jose.muller@example.com", "jose.muller@example.com"),
                   ("ID_NUMBER", "123-45-6789", "123-45-6789")]
    assert all(s.detector == "comprehend" for s in spans)


def test_large_page_is_chunked_on_lines_under_the_limit(aws_env):
    lines = [f"Line {i:05d} customer person{i}@example.com paid invoice number {i * 7}" for i in range(2200)]
    page = page_of(lines)
    text = page.text
    assert len(text.encode()) > API_MAX_TEXT_BYTES
    detector, stub = make(aws_env)
    sent = []
    detector.client.meta.events.register("provide-client-params.comprehend.DetectPiiEntities",
                                         lambda params, **kw: sent.append(params["Text"]))
    expected_chunks = chunk_text(text, 99_000)
    firsts = []
    offset = 0
    for chunk in expected_chunks:
        i = int(chunk.text[5:10])                       # the line number that opens the chunk
        e = entity(chunk.text, f"person{i}@example.com", "EMAIL")
        firsts.append((offset := text.index(chunk.text, offset)) + e["BeginOffset"])
        stub.add_response("detect_pii_entities", {"Entities": [e]},
                          {"Text": chunk.text, "LanguageCode": "en"})
    with stub:
        spans = detector.detect(page)
        stub.assert_no_pending_responses()
    assert len(sent) >= 2
    assert "".join(sent) == text                                   # nothing lost, nothing doubled
    for piece in sent:
        assert len(piece.encode()) <= API_MAX_TEXT_BYTES
    for piece in sent[:-1]:
        assert piece.endswith("\n")                                # cut on line boundaries
    assert [s.start for s in spans] == firsts
    for span in spans:
        assert text[span.start:span.end].startswith("person") and text[span.end - 4:span.end] == ".com"


def test_chunker_splits_overlong_lines_at_spaces_and_characters():
    text = "ab cd\n" + "é" * 10 + "\nxy"
    chunks = chunk_text(text, 8)
    assert "".join(c.text for c in chunks) == text
    assert all(len(c.text.encode()) <= 8 for c in chunks)
    assert all(text[c.start:c.end] == c.text for c in chunks)
    assert chunk_text("   \n\n  ", 8) == []


def test_throttling_is_retried_with_backoff(aws_env):
    page = page_of(LINES)
    detector, stub = make(aws_env)
    stub.add_client_error("detect_pii_entities", service_error_code="ThrottlingException",
                          service_message="Rate exceeded", http_status_code=400)
    stub.add_client_error("detect_pii_entities", service_error_code="ThrottlingException",
                          service_message="Rate exceeded", http_status_code=400)
    stub.add_response("detect_pii_entities", {"Entities": [entity(page.text, "123-45-6789", "SSN")]},
                      {"Text": page.text, "LanguageCode": "en"})
    with stub:
        spans = detector.detect(page)
        stub.assert_no_pending_responses()
    assert [s.type for s in spans] == ["ID_NUMBER"]


def test_throttling_beyond_the_retries_fails_the_page(aws_env):
    detector, stub = make(aws_env, max_retries=2)
    for _ in range(3):
        stub.add_client_error("detect_pii_entities", service_error_code="ThrottlingException",
                              http_status_code=400)
    with stub, pytest.raises(PluginFailed, match="ThrottlingException"):
        detector.detect(page_of(LINES))
    stub.assert_no_pending_responses()


def test_request_errors_are_not_retried(aws_env):
    detector, stub = make(aws_env)
    stub.add_client_error("detect_pii_entities", service_error_code="TextSizeLimitExceededException",
                          http_status_code=400)
    with stub, pytest.raises(PluginFailed, match="TextSizeLimitExceeded"):
        detector.detect(page_of(LINES))


def test_language_option(aws_env):
    page = page_of(["Nombre: Ana García"])
    detector, stub = make(aws_env, language="es")
    stub.add_response("detect_pii_entities", {"Entities": [entity(page.text, "Ana García", "NAME")]},
                      {"Text": page.text, "LanguageCode": "es"})
    with stub:
        assert [s.type for s in detector.detect(page)] == ["PERSON"]
    with pytest.raises(InputError, match="language"):
        ComprehendDetector(language="fr", cache=False)


def test_cached_chunks_are_not_sent_again(aws_env):
    page = page_of(LINES)
    detector, stub = make(aws_env)
    stub.add_response("detect_pii_entities", {"Entities": [entity(page.text, "José Müller", "NAME")]},
                      {"Text": ANY, "LanguageCode": "en"})
    with stub:
        first = detector.detect(page)
        second = detector.detect(page)
        stub.assert_no_pending_responses()
    assert first == second and detector.cache.hits == 1


def test_empty_page_sends_nothing(aws_env):
    detector, stub = make(aws_env)
    with stub:
        assert detector.detect(page_of([])) == []


def test_mapping_covers_every_comprehend_pii_type():
    model = botocore.session.get_session().get_service_model("comprehend")
    enum = set(model.shape_for("PiiEntityType").enum)
    labels = yaml.safe_load(mapping_file("comprehend.yaml").read_text())["labels"]
    assert enum <= set(labels), sorted(enum - set(labels))
    assert {"PERSON", "ADDRESS", "EMAIL", "PHONE", "ID_NUMBER", "ACCOUNT_NUMBER",
            "CARD_NUMBER"} <= ComprehendDetector.emits()


def test_unavailable_without_credentials(aws_env, monkeypatch):
    assert ComprehendDetector.unavailable_reason() is None
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    assert "no AWS credentials" in ComprehendDetector.unavailable_reason()
