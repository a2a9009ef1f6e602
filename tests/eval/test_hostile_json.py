"""Hostile JSON-lines files: a line hundreds of megabytes long, deep nesting, NaN and
Infinity, numbers that overflow, non-UTF-8 bytes, byte order marks, lone surrogates. Each
is a one-line ``InputError`` naming the file and the line, read in bounded memory; the
loaders of datasets and predictions pass the errors on unchanged."""
from __future__ import annotations

import json
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redactor_eval import jsonl
from redactor_eval.dataset import load_dataset
from redactor_eval.jsonl import read_records
from redactor_eval.predictions import load_ocr_words, load_predictions
from redactor.errors import InputError

GOOD = json.dumps({"page_id": "a", "system": "s", "predictions": []})


def write_lines(path, *lines: bytes):
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


def error_of(path, **kw) -> str:
    with pytest.raises(InputError) as exc:
        list(read_records(path, **kw))
    message = str(exc.value)
    assert "\n" not in message and message.startswith(str(path) + ":")
    return message


def test_huge_line_without_newline_is_refused_in_bounded_memory(tmp_path):
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as fh:        # 200 MB, sparse: the disk holds almost nothing
        fh.write(GOOD.encode() + b"\n" + b'{"page_id": "')
        fh.seek(200 * 1024 * 1024)
        fh.write(b'"}')
    tracemalloc.start()
    try:
        message = error_of(path, max_line_bytes=4 * 1024 * 1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert message.startswith(f"{path}:2: line is longer than 4,194,304 bytes")
    assert peak < 16 * 1024 * 1024, f"peak {peak:,} bytes"


def test_default_line_limit_applies_to_every_loader(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonl, "DEFAULT_MAX_LINE_BYTES", 1000)
    path = write_lines(tmp_path / "p.jsonl", b'{"page_id": "' + b"x" * 2000 + b'"}')
    for loader in (load_predictions, load_ocr_words, load_dataset):
        with pytest.raises(InputError, match=r"p\.jsonl:1: line is longer than 1,000 bytes"):
            loader(path)


def test_line_at_the_limit_is_read(tmp_path):
    record = {"page_id": "a", "pad": "y" * 500}
    line = json.dumps(record).encode()
    path = write_lines(tmp_path / "ok.jsonl", line)
    assert list(read_records(path, max_line_bytes=len(line) + 1)) == [(1, record)]
    assert "line is longer" in error_of(path, max_line_bytes=len(line))


@pytest.mark.parametrize("depth", [65, 5_000, 200_000])
def test_deep_nesting_is_refused(tmp_path, depth):
    body = b'{"page_id": "a", "x": ' + b"[" * depth + b"]" * depth + b"}"
    path = write_lines(tmp_path / "deep.jsonl", GOOD.encode(), body)
    assert error_of(path).endswith(":2: JSON nested deeper than 64 levels")


def test_nesting_inside_strings_does_not_count(tmp_path):
    record = {"page_id": "a", "note": "[" * 500 + "{" * 500, "x": [[[1]]]}
    path = write_lines(tmp_path / "s.jsonl", json.dumps(record).encode())
    assert list(read_records(path)) == [(1, record)]


@pytest.mark.parametrize("token", [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-2.5E+400"])
def test_non_finite_numbers_in_gold_name_the_line(tmp_path, token):
    from PIL import Image
    Image.new("RGB", (40, 30), "white").save(tmp_path / "a.png")
    path = write_lines(tmp_path / "pages.jsonl", b'{"page_id": "a", "image": "a.png", "width": 40, '
                       b'"height": 30, "annotations": [{"bbox": [1, 2, ' + token + b', 9], "type": "PERSON"}]}')
    with pytest.raises(InputError, match=r"pages\.jsonl:1: annotation 0: bbox must be"):
        load_dataset(path)
    width = write_lines(tmp_path / "w.jsonl", b'{"page_id": "a", "width": ' + token + b', "height": 30}')
    with pytest.raises(InputError, match=r"w\.jsonl:1: 'width' must be a positive integer"):
        load_dataset(width, check_images=False)


@pytest.mark.parametrize("token", [b"NaN", b"Infinity", b"1e999"])
def test_non_finite_numbers_in_a_prediction_make_it_invalid_not_a_crash(tmp_path, token):
    # The contract: a malformed box is an invalid prediction (a false positive), not an
    # error of the whole file.
    path = write_lines(tmp_path / "preds.jsonl", GOOD.encode(),
                       b'{"page_id": "b", "predictions": [{"bbox": [0, 0, ' + token + b', 5], '
                       b'"type": "PERSON", "score": ' + token + b'}]}')
    (pred,) = load_predictions(path)["b"].predictions
    assert pred.invalid_reason(40, 30) == "malformed box" and pred.score == 1.0
    words = write_lines(tmp_path / "words.jsonl",
                        b'{"page_id": "b", "words": [{"text": "x", "bbox": [0, 0, ' + token + b', 5]}]}')
    with pytest.raises(InputError, match=r"words\.jsonl:1: word 0: bbox must be four numbers"):
        load_ocr_words(words)


@pytest.mark.parametrize("digits", [5_000, 1_000_000])
def test_integers_too_long_to_convert_are_refused(tmp_path, digits):
    path = write_lines(tmp_path / "n.jsonl", b'{"page_id": "a", "width": ' + b"9" * digits + b"}")
    assert "1: a number is out of range" in error_of(path)


def test_non_utf8_bytes_name_the_line(tmp_path):
    path = write_lines(tmp_path / "latin1.jsonl", GOOD.encode(),
                       '{"page_id": "Müller"}'.encode("latin-1"))
    assert error_of(path).endswith(":2: not UTF-8 text (byte 15 of the line)")


def test_leading_utf8_bom_is_skipped(tmp_path):
    path = write_lines(tmp_path / "bom.jsonl", b"\xef\xbb\xbf" + GOOD.encode())
    assert [n for n, _ in read_records(path)] == [1]
    assert list(load_predictions(path)) == ["a"]


def test_bom_inside_the_file_is_refused(tmp_path):
    # two files joined with cat: the second one's BOM lands on line 2
    path = write_lines(tmp_path / "joined.jsonl", GOOD.encode(),
                       b"\xef\xbb\xbf" + json.dumps({"page_id": "b"}).encode())
    assert ":2: byte order mark (U+FEFF) inside the file" in error_of(path)


def test_zero_width_no_break_space_inside_a_string_is_text(tmp_path):
    record = {"page_id": "a", "value": "Maria\ufeffLopez"}
    path = write_lines(tmp_path / "zw.jsonl", GOOD.encode(), json.dumps(record, ensure_ascii=False).encode())
    assert list(read_records(path))[1] == (2, record)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_utf16_file_is_refused(tmp_path, encoding):
    path = tmp_path / "u16.jsonl"
    data = (GOOD + "\n").encode(encoding)
    path.write_bytes(data if encoding == "utf-16" else b"\xfe\xff" + data)
    message = error_of(path)
    assert ":1: " in message and ("UTF-16" in message or "UTF-8" in message)


def test_lone_surrogate_is_refused_but_a_pair_is_text(tmp_path):
    path = write_lines(tmp_path / "sur.jsonl", b'{"page_id": "\\ud83d\\ude00"}', b'{"page_id": "\\ud800x"}')
    with pytest.raises(InputError, match=r"sur\.jsonl:2: a string holds a lone UTF-16 surrogate"):
        list(read_records(path))
    assert next(read_records(path)) == (1, {"page_id": "\U0001F600"})


@pytest.mark.parametrize("line,needle", [
    (b"[1, 2]", "expected a JSON object, got list"),
    (b'"just a string"', "expected a JSON object, got str"),
    (b'{"a": 1', "not valid JSON"),
    (b"\x00\x00\x00", "not valid JSON"),
])
def test_other_malformed_lines(tmp_path, line, needle):
    path = write_lines(tmp_path / "m.jsonl", GOOD.encode(), line)
    message = error_of(path)
    assert ":2: " in message and needle in message


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400))
def test_random_bytes_give_records_or_one_line_input_errors(tmp_path, data):
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(data)
    try:
        for lineno, record in read_records(path, max_line_bytes=256):
            assert isinstance(record, dict) and lineno >= 1
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(path))
