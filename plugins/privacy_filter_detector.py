"""Detector ``privacy-filter``: OpenAI Privacy Filter, a token classifier run through
transformers (``AutoModelForTokenClassification``) from a local folder.

Each token gets one of O or B-/I-/E-/S-<label> (BIOES) over eight labels; tokens are decoded
into character spans with the tokenizer's offsets, and the labels become our fine types
through ``mappings/privacy_filter.yaml``. Long pages are cut into overlapping token windows
under the model's (or the user's) token limit; a span's score is the mean probability of
its tokens' tags.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from redactor_plugins._local_model import resolve_model_dir, weights_reason
from redactor_plugins._options import as_bool, as_float, as_int
from redactor_plugins._windows import Unit, Window, merge_spans, plan_windows
from redactor_plugins.gliner_detector import _installed
from redactor.plugin_api import Detector, InputError, load_label_mapping, OcrPage, PluginFailed, Span

# The published model reads 128k tokens, but attention is local (sliding window of 128) and
# memory grows with length: windows of this size keep a page's cost flat.
DEFAULT_MAX_TOKENS = 2048


# A window re-tokenised on its own can split differently at its two edges.
EDGE_TOKENS = 2


def token_units(offsets: Sequence[Sequence[int]]) -> list[Unit]:
    """Tokens as window units. Tokens without characters (a byte-level space trimmed away,
    the pieces of a multi-byte character) still count: their cost goes to the next token
    that has characters (or the last one)."""
    units: list[Unit] = []
    pending = 0
    for s, e in offsets:
        if e > s:
            units.append(Unit(int(s), int(e), 1 + pending))
            pending = 0
        else:
            pending += 1
    if pending and units:
        last = units[-1]
        units[-1] = Unit(last.start, last.end, last.cost + pending)
    return units


@dataclass(frozen=True)
class TokenTag:
    """One token's predicted tag, its characters in the window and the tag's probability."""
    start: int
    end: int
    tag: str
    prob: float


def decode_bioes(tokens: Sequence[TokenTag]) -> list[tuple[int, int, str, float]]:
    """BIOES tags -> (start, end, label, mean probability) character spans.

    Lenient like most NER decoders: an I- or E- without an open span of its label opens
    one; a B- or S- closes any open span; O closes; a tag of another label closes and
    (unless it is an E-) opens anew. Special tokens (empty offsets) are skipped."""
    spans: list[tuple[int, int, str, float]] = []
    cur: list[TokenTag] = []
    cur_label: str | None = None

    def close():
        nonlocal cur, cur_label
        if cur:
            spans.append((cur[0].start, cur[-1].end, cur_label, sum(t.prob for t in cur) / len(cur)))
        cur, cur_label = [], None

    for t in tokens:
        if t.end <= t.start:
            continue
        prefix, _, label = t.tag.partition("-")
        if t.tag == "O" or not label:
            close()
        elif prefix == "S":
            close()
            cur, cur_label = [t], label
            close()
        elif prefix == "B":
            close()
            cur, cur_label = [t], label
        elif prefix in ("I", "E"):
            if cur_label != label:
                close()
                cur_label = label
            cur.append(t)
            if prefix == "E":
                close()
        else:
            close()
    close()
    return spans


class PrivacyFilterDetector(Detector):
    name = "privacy-filter"
    mapping_file = "privacy_filter.yaml"
    default_model = "openai/privacy-filter"
    model_env = "REDACTOR_PRIVACY_FILTER_MODEL"

    @classmethod
    def unavailable_reason(cls, model: str | None = None) -> str | None:
        missing = _installed("torch", "transformers")
        if missing:
            return f"python package {missing} is not installed (pip install 'redactor[transformers]')"
        return weights_reason(cls.name, str(model or os.environ.get(cls.model_env) or cls.default_model),
                              ("config.json",))

    def __init__(self, model: str | None = None, threshold: Any = 0.5, max_tokens: Any = None,
                 overlap: Any = 64, allow_download: Any = False, **unknown):
        if unknown:
            raise InputError(f"{self.name}: unknown option(s) {', '.join(sorted(unknown))} "
                             f"(known: model, threshold, max_tokens, overlap, allow_download)")
        self.threshold = as_float("threshold", threshold, 0.0, 1.0)
        self.overlap = as_int("overlap", overlap, 0)
        self.label_map = load_label_mapping(self.mapping_file)
        self.model_id = str(model or os.environ.get(self.model_env) or self.default_model)
        folder = resolve_model_dir(self.model_id, plugin=self.name, required=("config.json",),
                                   allow_download=as_bool("allow_download", allow_download))
        self._load(folder)
        user_limit = DEFAULT_MAX_TOKENS if max_tokens is None else as_int("max_tokens", max_tokens, 8)
        self.max_tokens = min(user_limit, self._model_limit())

    def _load(self, folder: Path) -> None:
        import torch
        from transformers import AutoModelForTokenClassification, AutoTokenizer
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
            self.model = AutoModelForTokenClassification.from_pretrained(str(folder), local_files_only=True)
        except (OSError, ValueError) as exc:
            raise InputError(f"{self.name}: cannot load a token-classification model from {folder}: "
                             f"{str(exc).splitlines()[0]}") from None
        if not getattr(self.tokenizer, "is_fast", False):
            raise InputError(f"{self.name}: {folder} has no fast tokenizer (tokenizer.json); "
                             f"character offsets need one")
        self.model.eval()
        self._torch = torch
        self.id2label = {int(k): str(v) for k, v in self.model.config.id2label.items()}
        unknown = sorted({v.partition("-")[2] for v in self.id2label.values() if v != "O"}
                         - set(self.label_map))
        if unknown:
            raise InputError(f"{self.name}: model labels {', '.join(unknown)} have no type in "
                             f"mappings/{self.mapping_file}")

    def _model_limit(self) -> int:
        limits = [int(getattr(self.model.config, "max_position_embeddings", 0) or 0),
                  int(getattr(self.tokenizer, "model_max_length", 0) or 0)]
        limits = [v for v in limits if 0 < v < 10_000_000]
        specials = self.tokenizer.num_special_tokens_to_add(pair=False)
        return (min(limits) if limits else DEFAULT_MAX_TOKENS) - specials

    def windows(self, text: str) -> list[Window]:
        enc = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        return plan_windows(token_units(enc["offset_mapping"]), self.max_tokens - EDGE_TOKENS,
                            min(self.overlap, self.max_tokens // 4))

    def _tag(self, text: str) -> list[TokenTag]:
        torch = self._torch
        enc = self.tokenizer(text, return_offsets_mapping=True, return_tensors="pt",
                             truncation=True, max_length=self.max_tokens
                             + self.tokenizer.num_special_tokens_to_add(pair=False))
        offsets = enc.pop("offset_mapping")[0].tolist()
        with torch.no_grad():
            logits = self.model(**enc).logits[0]
        if logits.shape[0] != len(offsets):
            raise PluginFailed(f"{self.name}: model returned {logits.shape[0]} tags for "
                               f"{len(offsets)} tokens")
        probs = torch.softmax(logits.float(), dim=-1)
        best = probs.argmax(dim=-1).tolist()
        return [TokenTag(s, e, self.id2label[i], float(probs[k, i]))
                for k, ((s, e), i) in enumerate(zip(offsets, best))]

    def detect(self, page: OcrPage) -> list[Span]:
        text = page.text
        if not text.strip():
            return []
        spans: list[Span] = []
        for w in self.windows(text):
            for start, end, label, score in decode_bioes(self._tag(text[w.start:w.end])):
                fine = self.label_map.get(label)
                if fine is None or score < self.threshold:
                    continue
                spans.append(Span(w.start + start, w.start + end, fine, score, self.name))
        return merge_spans(spans, text, join_adjacent=True)
