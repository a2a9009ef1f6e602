"""The gliner, gliner2 and presidio-gliner detectors on tiny random models loaded through
their real loading paths, and the shared windowing and span merging."""
from __future__ import annotations

import re

from pathlib import Path

import pytest
import tiny_models
import yaml

from redactor_plugins._windows import Unit, merge_spans, plan_windows, whitespace_units
from redactor_plugins.gliner2_detector import Gliner2Detector
from redactor_plugins.gliner_detector import GlinerDetector
from redactor.errors import InputError, PluginUnavailable
from redactor.model import OcrPage, Span, WordBox
from redactor.paths import mapping_file
from redactor.plugin_api import load_label_mapping




def page_of(lines: list[str]) -> OcrPage:
    words = [WordBox(w, (10 * i, 20 * n, 10 * i + 8, 20 * n + 15), 95.0, n, 0)
             for n, line in enumerate(lines) for i, w in enumerate(line.split())]
    return OcrPage(2000, 4000, tuple(words), "test")


LONG = page_of([f"Row {i} Maria Lopez lives at 12 Elm Street, email maria.lopez@example.com"
                for i in range(30)])


# --- windowing and merging (pure) -----------------------------------------------------

def test_windows_cover_every_unit_within_budget_and_overlap():
    text = " ".join(f"w{i}" for i in range(100))
    units = [Unit(u.start, u.end, 1 + i % 3) for i, u in enumerate(whitespace_units(text))]
    windows = plan_windows(units, budget=20, overlap=3, max_units=8)
    for u in units:
        assert any(w.start <= u.start and u.end <= w.end for w in windows)
    for w in windows:
        inside = [u for u in units if w.start <= u.start and u.end <= w.end]
        assert sum(u.cost for u in inside) <= 20 and len(inside) <= 8
    for a, b in zip(windows, windows[1:]):
        assert a.start < b.start < a.end      # each window overlaps the previous one


def test_a_unit_over_budget_gets_its_own_window():
    windows = plan_windows([Unit(0, 3, 1), Unit(4, 9, 50), Unit(10, 12, 1)], budget=10, overlap=1)
    assert [(w.start, w.end) for w in windows] == [(0, 3), (4, 9), (10, 12)]


def test_merge_unions_same_type_and_drops_weaker_contained_spans():
    text = "mail ann@x.org now, Maria Lopez"
    spans = [Span(5, 10, "EMAIL", 0.6), Span(8, 15, "EMAIL", 0.9),        # window halves
             Span(9, 14, "ONLINE_ID", 0.5),                                # inside the e-mail
             Span(20, 25, "PERSON", 0.7), Span(26, 31, "PERSON", 0.8)]     # first and last name
    merged = merge_spans(spans, text, join_adjacent=True)
    assert [(s.text, s.type, s.score) for s in merged] == [("ann@x.org", "EMAIL", 0.9),
                                                           ("Maria Lopez", "PERSON", 0.8)]
    assert len(merge_spans(spans, text)) == 3          # no joining unless asked


def test_identical_spans_of_two_types_keep_exactly_one():
    merged = merge_spans([Span(0, 4, "DATE", 0.5), Span(0, 4, "ID_NUMBER", 0.5)], "1999")
    assert len(merged) == 1


def test_every_preset_label_has_a_type():
    for filename in ("gliner.yaml", "gliner2.yaml"):
        spec = yaml.safe_load(mapping_file(filename).read_text())
        known = load_label_mapping(filename)
        for preset, labels in spec["presets"].items():
            assert set(labels) <= set(known), (filename, preset, set(labels) - set(known))
        assert set(spec["model_presets"].values()) <= set(spec["presets"])


# --- the models -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, Path]:
    pytest.importorskip("gliner")
    pytest.importorskip("gliner2")
    tiny = tiny_models
    base = tmp_path_factory.mktemp("gliner")
    return {"gliner": tiny.tiny_gliner(base / "gliner-tiny"),
            "gliner2": tiny.tiny_gliner2(base / "gliner2-tiny")}


PLUGINS = [(GlinerDetector, "gliner"), (Gliner2Detector, "gliner2")]


@pytest.mark.extras
@pytest.mark.parametrize("cls, key", PLUGINS)
def test_windows_respect_the_token_limit_and_cover_the_text(models, cls, key):
    det = cls(model=str(models[key]))
    text = LONG.text
    windows = det.windows(text)
    assert len(windows) > 3
    assert windows[0].start == 0 and windows[-1].end == len(text)
    for a, b in zip(windows, windows[1:]):
        assert a.start < b.start < a.end
    limit = det.token_limit()
    for w in windows:
        words = det._word_units(text[w.start:w.end])
        cost = sum(det._word_cost(text[w.start + s:w.start + e]) for s, e in words)
        assert cost + det._prompt_tokens() <= limit
        if det._max_words():
            assert len(words) <= det._max_words()


@pytest.mark.extras
@pytest.mark.parametrize("cls, key", PLUGINS)
def test_offsets_map_back_to_word_boundaries_across_windows(models, cls, key):
    det = cls(model=str(models[key]), labels="person", threshold=0.0)
    spans = det.detect(LONG)
    text = LONG.text
    # Something found past the first window proves later windows' offsets were re-based; a
    # random tiny model may tag everything, so overlapping spans can merge into one from 0.
    assert spans and max(s.end for s in spans) > det.windows(text)[0].end
    words = det._word_units(text)
    starts, ends = {s for s, _ in words}, {e for _, e in words}
    for s in spans:
        assert s.text == text[s.start:s.end] and s.type == "PERSON" and s.detector == key
        assert s.start in starts and s.end in ends


@pytest.mark.extras
@pytest.mark.parametrize("cls, key", PLUGINS)
def test_threshold_filters(models, cls, key):
    low = cls(model=str(models[key]), labels="person,email", threshold=0.0).detect(LONG)
    assert low
    mid = cls(model=str(models[key]), labels="person,email", threshold=0.5).detect(LONG)
    assert all(s.score >= 0.5 for s in mid)
    assert cls(model=str(models[key]), labels="person,email", threshold=0.99).detect(LONG) == []


@pytest.mark.extras
@pytest.mark.parametrize("cls, key", PLUGINS)
def test_custom_labels_map_to_their_types(models, cls, key):
    det = cls(model=str(models[key]), labels=["email", "badge code=ID_NUMBER"], threshold=0.0)
    assert det.labels == {"email": "EMAIL", "badge code": "ID_NUMBER"}
    assert {s.type for s in det.detect(LONG)} <= {"EMAIL", "ID_NUMBER"}


@pytest.mark.extras
@pytest.mark.parametrize("cls, key", PLUGINS)
def test_unknown_label_or_preset_is_an_input_error(models, cls, key):
    with pytest.raises(InputError, match=f"'shoe size' has no type in mappings/{key}.yaml"):
        cls(model=str(models[key]), labels="shoe size")
    with pytest.raises(InputError, match="expected 'prompt=TYPE'"):
        cls(model=str(models[key]), labels="shoe size=SHOE")
    with pytest.raises(InputError, match="unknown label preset 'nope'"):
        cls(model=str(models[key]), preset="nope")


@pytest.mark.extras
def test_preset_follows_the_model_name(models, tmp_path):
    for name, preset in (("gliner_multi_pii-v1", "multi_pii"), ("nvidia--gliner-PII", "nvidia_pii"),
                         ("knowledgator-gliner-pii-base", "knowledgator_pii"), ("gliner_small", "default")):
        link = tmp_path / name
        link.symlink_to(models["gliner"], target_is_directory=True)
        det = GlinerDetector(model=str(link))
        assert det.preset == preset
        spec = yaml.safe_load(mapping_file("gliner.yaml").read_text())
        assert list(det.labels) == spec["presets"][preset]


@pytest.mark.extras
@pytest.mark.parametrize("cls, key, required", [(GlinerDetector, "gliner", "gliner_config.json"),
                                                (Gliner2Detector, "gliner2", "config.json")])
def test_missing_model_says_what_to_download(cls, key, required, tmp_path, monkeypatch):
    pytest.importorskip(key)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.delenv(cls.model_env, raising=False)
    # the message names the real option (there is no --model flag)
    with pytest.raises(PluginUnavailable, match=re.escape(f"no weights for {cls.default_model} on this "
                                                          f"machine (pass --detector-option {key}.model=DIR")):
        cls()
    with pytest.raises(PluginUnavailable, match="does not exist"):
        cls(model=str(tmp_path / "nowhere"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=f"missing {required}"):
        cls(model=str(tmp_path / "empty"))


@pytest.mark.extras
def test_created_through_the_registry_with_the_model_from_the_environment(models, monkeypatch):
    from redactor import registry
    monkeypatch.setenv("REDACTOR_GLINER_MODEL", str(models["gliner"]))
    det = registry.create("detector", "gliner", threshold="0.7")
    assert det.threshold == 0.7 and det.model_id == str(models["gliner"])
    assert registry.emits_of("detector", "gliner") == frozenset(load_label_mapping("gliner.yaml").values())


# --- presidio-gliner ------------------------------------------------------------------

@pytest.mark.extras
def test_presidio_gliner_adds_gliner_and_keeps_presidio_patterns(models):
    from redactor_plugins.presidio_gliner_detector import PresidioGlinerDetector
    det = PresidioGlinerDetector(model=str(models["gliner"]), threshold=0.0)
    names = [r.name for r in det.analyzer.registry.recognizers]
    assert "GLiNERRecognizer" in names and "SpacyRecognizer" not in names
    page = page_of(["Write to maria.lopez@example.com about the Elm Street flat"])
    spans = det.detect(page)
    assert ("maria.lopez@example.com", "EMAIL") in {(s.text, s.type) for s in spans}
    assert {s.type for s in spans} <= PresidioGlinerDetector.emits()
    for s in spans:
        assert s.text == page.text[s.start:s.end] and s.detector == "presidio-gliner"
    assert {"ADDRESS", "PERSON", "EMAIL"} <= PresidioGlinerDetector.emits()


@pytest.mark.extras
def test_presidio_gliner_missing_model(tmp_path, monkeypatch):
    from redactor_plugins.presidio_gliner_detector import PresidioGlinerDetector
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.delenv("REDACTOR_PRESIDIO_GLINER_MODEL", raising=False)
    with pytest.raises(PluginUnavailable, match="urchade/gliner_multi_pii-v1"):
        PresidioGlinerDetector()
