"""Detector ``gliner``: a GLiNER model (package ``gliner``) on the OCR page text.

The model comes from the option ``model`` (``--detector-option gliner.model=DIR``: a folder,
or a Hugging Face id found in the local cache; ``REDACTOR_GLINER_MODEL`` sets the default).
GLiNER is prompted with label names: a preset chosen from the model's name
(``mappings/gliner.yaml``: the published PII models' label sets) or the user's ``labels``;
each label maps to a fine type in the same file. The page text is
cut into overlapping windows of whole words that fit the model's word limit and its
encoder's sub-word limit (prompt included); spans come back with exact page offsets.

Shared by ``gliner2`` (``Gliner2Detector``), which differs only in loading and prediction.
"""
from __future__ import annotations

import importlib.util
import logging
import os
from pathlib import Path
from typing import Any, ClassVar

import yaml

from redactor_plugins._local_model import resolve_model_dir, weights_reason
from redactor_plugins._options import as_bool, as_float, as_int
from redactor_plugins._windows import Unit, Window, merge_spans, plan_windows
from redactor.plugin_api import Detector, InputError, is_known, load_label_mapping, mapping_file, OcrPage, Span

log = logging.getLogger(__name__)

# Sub-word limit assumed when a tokenizer does not declare one (DeBERTa-v3, BERT: 512).
FALLBACK_MAX_TOKENS = 512
# Head-room under the limit: a word can split into one more sub-word in context than alone.
SAFETY_TOKENS = 4


def _installed(*modules: str) -> str | None:
    """The first of ``modules`` that cannot be imported, or None."""
    for m in modules:
        try:
            if importlib.util.find_spec(m) is None:
                return m
        except (ImportError, ValueError):
            return m
    return None


def read_label_file(filename: str) -> dict[str, Any]:
    return yaml.safe_load(mapping_file(filename).read_text()) or {}


def parse_labels(value: Any, known: dict[str, str], plugin: str, filename: str) -> dict[str, str]:
    """User labels -> {label prompt: fine type}. Each item is a label of the mapping file or
    ``prompt=TYPE`` for a label of one's own; a list or a comma-separated string."""
    raw = value.split(",") if isinstance(value, str) else value
    items = [str(v).strip() for v in raw]
    out: dict[str, str] = {}
    for item in filter(None, items):
        prompt, sep, fine = item.rpartition("=")
        if sep:
            prompt, fine = prompt.strip(), fine.strip().upper()
            if not prompt or not is_known(fine):
                raise InputError(f"{plugin}: label {item!r}: expected 'prompt=TYPE' with a known type")
            out[prompt] = fine
        elif item in known:
            out[item] = known[item]
        else:
            raise InputError(f"{plugin}: label {item!r} has no type in mappings/{filename}; "
                             f"write it as '{item}=TYPE'")
    if not out:
        raise InputError(f"{plugin}: no labels given")
    return out


class GlinerDetector(Detector):
    name = "gliner"
    mapping_file = "gliner.yaml"
    default_model: ClassVar[str] = "urchade/gliner_multi_pii-v1"
    model_env: ClassVar[str] = "REDACTOR_GLINER_MODEL"
    required_files: ClassVar[tuple[str, ...]] = ("gliner_config.json",)
    required_modules: ClassVar[tuple[str, ...]] = ("torch", "transformers", "gliner")
    install_hint: ClassVar[str] = "pip install 'redactor[gliner]'"
    default_threshold: ClassVar[float] = 0.5

    @classmethod
    def unavailable_reason(cls, model: str | None = None) -> str | None:
        missing = _installed(*cls.required_modules)
        if missing:
            return f"python package {missing} is not installed ({cls.install_hint})"
        return weights_reason(cls.name, str(model or os.environ.get(cls.model_env) or cls.default_model),
                              cls.required_files)

    def __init__(self, model: str | None = None, labels: Any = None, preset: str | None = None,
                 threshold: Any = None, overlap: Any = 32, max_tokens: Any = None,
                 allow_download: Any = False, **unknown):
        if unknown:
            raise InputError(f"{self.name}: unknown option(s) {', '.join(sorted(unknown))} "
                             f"(known: model, labels, preset, threshold, overlap, max_tokens, "
                             f"allow_download)")
        self.threshold = as_float("threshold", self.default_threshold if threshold is None else threshold,
                                  0.0, 1.0)
        self.overlap = as_int("overlap", overlap, 0)
        self.max_tokens = None if max_tokens is None else as_int("max_tokens", max_tokens, 8)
        self.model_id = str(model or os.environ.get(self.model_env) or self.default_model)
        spec = read_label_file(self.mapping_file)
        known = load_label_mapping(self.mapping_file)
        if labels:
            self.labels = parse_labels(labels, known, self.name, self.mapping_file)
        else:
            preset = preset or self._preset_for(self.model_id, spec)
            presets = spec.get("presets") or {}
            if preset not in presets:
                raise InputError(f"{self.name}: unknown label preset {preset!r} "
                                 f"(known: {', '.join(sorted(presets))})")
            self.labels = {p: known[p] for p in presets[preset]}
        self.preset = None if labels else preset
        folder = resolve_model_dir(self.model_id, plugin=self.name, required=self.required_files,
                                   allow_download=as_bool("allow_download", allow_download))
        self.model = self._load(folder)

    @staticmethod
    def _preset_for(model_id: str, spec: dict) -> str:
        name = model_id.lower()
        for needle, preset in (spec.get("model_presets") or {}).items():
            if str(needle).lower() in name:
                return str(preset)
        return "default"

    # --- model-specific parts (overridden by gliner2) ---------------------------------

    def _load(self, folder: Path):
        from gliner import GLiNER
        model = GLiNER.from_pretrained(str(folder), local_files_only=True, map_location="cpu")
        model.eval()
        return model

    def _tokenizer(self):
        return self.model.data_processor.transformer_tokenizer

    def _word_units(self, text: str) -> list[tuple[int, int]]:
        return [(s, e) for _, s, e in self.model.data_processor.words_splitter(text)]

    def _max_words(self) -> int | None:
        return int(getattr(self.model.config, "max_len", 0) or 0) or None

    def _prompt_tokens(self) -> int:
        """Sub-words the label prompt takes: an entity marker and the label's sub-words per
        label, a separator, and the encoder's two special tokens."""
        tok = self._tokenizer()
        return sum(1 + len(tok.tokenize(label)) for label in self.labels) + 1 + 2

    def _word_cost(self, word: str) -> int:
        return max(1, len(self._tokenizer().tokenize(word)))

    def _predict(self, text: str) -> list[tuple[int, int, str, float]]:
        found = self.model.predict_entities(text, list(self.labels), threshold=self.threshold,
                                            flat_ner=True)
        return [(int(p["start"]), int(p["end"]), str(p["label"]), float(p["score"])) for p in found]

    # --- shared ---------------------------------------------------------------------

    def token_limit(self) -> int:
        tok = self._tokenizer()
        limit = int(getattr(tok, "model_max_length", 0) or 0)
        if not 0 < limit < 100_000:   # tokenizers without a declared limit say 1e30
            limit = FALLBACK_MAX_TOKENS
        if self.max_tokens:
            limit = min(limit, self.max_tokens)
        return limit

    def windows(self, text: str) -> list[Window]:
        units = [Unit(s, e, self._word_cost(text[s:e])) for s, e in self._word_units(text)]
        budget = self.token_limit() - self._prompt_tokens() - SAFETY_TOKENS
        if budget < 8:
            raise InputError(f"{self.name}: {len(self.labels)} labels leave no room for text in "
                             f"the model's {self.token_limit()}-token input; use fewer labels")
        max_words = self._max_words()
        overlap = min(self.overlap, (max_words or budget) // 4)
        return plan_windows(units, budget, overlap, max_units=max_words)

    def detect(self, page: OcrPage) -> list[Span]:
        text = page.text
        if not text.strip():
            return []
        spans: list[Span] = []
        for w in self.windows(text):
            size = w.end - w.start
            for start, end, label, score in self._predict(text[w.start:w.end]):
                fine = self.labels.get(label)
                # GLiNER2 appends a full stop to texts and may tag it: clip to the window
                start, end = max(0, start), min(end, size)
                if fine is None or score < self.threshold or start >= end:
                    continue
                spans.append(Span(w.start + start, w.start + end, fine, score, self.name))
        return merge_spans(spans, text, join_adjacent=True)
