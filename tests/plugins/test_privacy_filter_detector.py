"""The privacy-filter detector on a tiny random OpenAI Privacy Filter model loaded through
transformers from a temporary folder, and its BIOES decoder."""
from __future__ import annotations

from pathlib import Path

import pytest
import tiny_models

from redactor_plugins.privacy_filter_detector import PrivacyFilterDetector, TokenTag, decode_bioes
from redactor.errors import InputError, PluginUnavailable
from redactor.model import OcrPage, WordBox




def page_of(lines: list[str]) -> OcrPage:
    words = [WordBox(w, (10 * i, 20 * n, 10 * i + 8, 20 * n + 15), 95.0, n, 0)
             for n, line in enumerate(lines) for i, w in enumerate(line.split())]
    return OcrPage(2000, 4000, tuple(words), "test")


LONG = page_of([f"Row {i} Maria Lopez, maria.lopez@example.com, (415) 555-0172" for i in range(40)])


# --- BIOES decoding (pure) ------------------------------------------------------------

def tags(*items):
    """(tag, prob) per 3-character token 'xx ' laid end to end."""
    return [TokenTag(3 * i, 3 * i + 2, tag, prob) for i, (tag, prob) in enumerate(items)]


def test_decode_begin_inside_end_and_single():
    got = decode_bioes(tags(("B-private_person", 0.9), ("I-private_person", 0.7), ("E-private_person", 0.8),
                            ("O", 0.99), ("S-private_email", 0.6)))
    assert got == [(0, 8, "private_person", pytest.approx(0.8)), (12, 14, "private_email", 0.6)]


def test_decode_is_lenient_with_broken_sequences():
    got = decode_bioes(tags(("I-secret", 0.5), ("E-secret", 0.5),          # no B: still one span
                            ("B-private_url", 1.0), ("B-private_url", 1.0),  # B after B: two spans
                            ("I-private_date", 1.0), ("E-account_number", 1.0)))  # label switch
    assert [(s, e, lbl) for s, e, lbl, _ in got] == [
        (0, 5, "secret"), (6, 8, "private_url"), (9, 11, "private_url"),
        (12, 14, "private_date"), (15, 17, "account_number")]


def test_decode_skips_special_tokens_and_closes_at_end():
    toks = [TokenTag(0, 0, "B-secret", 1.0), TokenTag(0, 4, "B-secret", 0.5), TokenTag(5, 9, "I-secret", 0.7)]
    assert decode_bioes(toks) == [(0, 9, "secret", pytest.approx(0.6))]


# --- the model, loaded through the plugin ---------------------------------------------


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    return tiny_models.tiny_privacy_filter(tmp_path_factory.mktemp("pf") / "privacy-filter")


def forced_model(src: Path, dst: Path, tag: str, strength: float = 10.0) -> Path:
    """A copy of the tiny model whose classifier always prefers ``tag`` (zero weights, a
    one-hot bias): every token is tagged ``tag`` with a known probability."""
    import torch
    from transformers import AutoModelForTokenClassification, AutoTokenizer
    model = AutoModelForTokenClassification.from_pretrained(src)
    with torch.no_grad():
        model.score.weight.zero_()
        model.score.bias.zero_()
        model.score.bias[model.config.label2id[tag]] = strength
    model.save_pretrained(dst)
    AutoTokenizer.from_pretrained(src).save_pretrained(dst)
    return dst


@pytest.mark.extras
def test_loads_through_the_plugin_and_windows_cover_the_text(model_dir):
    det = PrivacyFilterDetector(model=str(model_dir))
    assert det.max_tokens == 64          # the tiny model's position limit
    text = LONG.text
    windows = det.windows(text)
    assert len(windows) > 5
    assert text[:windows[0].start].strip() == "" and text[windows[-1].end:].strip() == ""
    for a, b in zip(windows, windows[1:]):
        assert a.start < b.start <= a.end   # overlapping, moving forward
    for w in windows:
        n = len(det.tokenizer(text[w.start:w.end], add_special_tokens=False)["input_ids"])
        assert n <= det.max_tokens
    for span in det.detect(LONG):
        assert span.text == text[span.start:span.end] and span.detector == "privacy-filter"


@pytest.mark.extras
def test_offsets_map_back_across_windows(model_dir, tmp_path):
    det = PrivacyFilterDetector(model=str(forced_model(model_dir, tmp_path / "email", "S-private_email")))
    spans = det.detect(LONG)
    # every token is an e-mail, same-type neighbours on a line join: one span per line, exact
    assert [s.text for s in spans] == LONG.text.split("\n")
    assert {s.type for s in spans} == {"EMAIL"}
    assert spans[-1].start > det.windows(LONG.text)[0].end


@pytest.mark.extras
def test_mapping_applies_to_each_label(model_dir, tmp_path):
    for tag, fine in (("S-secret", "OTHER"), ("B-private_person", "PERSON"),
                      ("E-account_number", "ACCOUNT_NUMBER")):
        det = PrivacyFilterDetector(model=str(forced_model(model_dir, tmp_path / tag, tag)))
        assert {s.type for s in det.detect(page_of(["Call Maria now"]))} == {fine}


@pytest.mark.extras
def test_threshold_filters(model_dir, tmp_path):
    forced = str(forced_model(model_dir, tmp_path / "url", "S-private_url"))   # p = e^10/(e^10+32)
    page = page_of(["see https://example.org today"])
    assert PrivacyFilterDetector(model=forced, threshold=0.99).detect(page)
    assert PrivacyFilterDetector(model=forced, threshold=0.999).detect(page) == []


@pytest.mark.extras
def test_max_tokens_option_shrinks_windows(model_dir):
    det = PrivacyFilterDetector(model=str(model_dir), max_tokens=16)
    assert det.max_tokens == 16
    assert len(det.windows(LONG.text)) > len(PrivacyFilterDetector(model=str(model_dir)).windows(LONG.text))


@pytest.mark.extras
def test_model_label_without_mapping_is_an_input_error(tmp_path):
    pytest.importorskip("transformers")
    folder = tiny_models.tiny_privacy_filter(tmp_path / "odd", labels=("private_person", "private_ssn"))
    with pytest.raises(InputError, match="private_ssn have no type in mappings/privacy_filter.yaml"):
        PrivacyFilterDetector(model=str(folder))


@pytest.mark.extras
def test_missing_model_says_what_to_download(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.delenv("REDACTOR_PRIVACY_FILTER_MODEL", raising=False)
    with pytest.raises(PluginUnavailable, match=r"no weights for openai/privacy-filter on this machine "
                                                 r"\(pass --detector-option privacy-filter\.model=DIR"):
        PrivacyFilterDetector()
    with pytest.raises(PluginUnavailable, match="does not exist"):
        PrivacyFilterDetector(model=str(tmp_path / "nowhere"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="missing config.json"):
        PrivacyFilterDetector(model=str(tmp_path / "empty"))


@pytest.mark.extras
def test_model_from_environment_and_registry(model_dir, monkeypatch):
    from redactor import registry
    monkeypatch.setenv("REDACTOR_PRIVACY_FILTER_MODEL", str(model_dir))
    det = registry.create("detector", "privacy-filter")
    assert det.model_id == str(model_dir)
    assert registry.emits_of("detector", "privacy-filter") == frozenset(
        {"PERSON", "EMAIL", "PHONE", "ADDRESS", "DATE", "ONLINE_ID", "ACCOUNT_NUMBER", "OTHER"})


def test_bad_options_are_input_errors():
    with pytest.raises(InputError, match="unknown option"):
        PrivacyFilterDetector(colour="red")
    with pytest.raises(InputError, match="threshold"):
        PrivacyFilterDetector(threshold="lots")
