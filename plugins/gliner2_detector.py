"""Detector ``gliner2``: a GLiNER2 model (package ``gliner2``) run with an entity-extraction
schema on the OCR page text.

Same contract as ``gliner`` (option ``model``: a folder or cached Hugging Face id, label presets and
mapping in ``mappings/gliner2.yaml``, threshold, token-limited overlapping windows with
exact offsets); only loading and prediction differ.
"""
from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from redactor_plugins.gliner_detector import GlinerDetector


class Gliner2Detector(GlinerDetector):
    name = "gliner2"
    mapping_file = "gliner2.yaml"
    default_model: ClassVar[str] = "fastino/gliner2-base-v1"
    model_env: ClassVar[str] = "REDACTOR_GLINER2_MODEL"
    required_files: ClassVar[tuple[str, ...]] = ("config.json", "encoder_config/config.json")
    required_modules: ClassVar[tuple[str, ...]] = ("torch", "transformers", "gliner2")
    install_hint: ClassVar[str] = "pip install 'redactor[gliner]' (gliner2[local])"

    def _load(self, folder: Path):
        from gliner2 import GLiNER2
        model = GLiNER2.from_pretrained(str(folder))
        model.eval()
        return model

    def _tokenizer(self):
        return self.model.processor.tokenizer

    def _word_units(self, text: str) -> list[tuple[int, int]]:
        return [(s, e) for _, s, e in self.model.processor.word_splitter(text)]

    def _max_words(self) -> int | None:
        return int(getattr(self.model.config, "max_len", 0) or 0) or None

    def _prompt_tokens(self) -> int:
        """The schema prefix, measured: the processor's input for a one-word text, less
        that word."""
        schema = self.model.create_schema().entities(list(self.labels))
        record = self.model.processor.transform_record("a", schema)
        return len(record.input_ids) - self._word_cost("a")

    def _word_cost(self, word: str) -> int:
        # the processor lower-cases words before sub-word tokenization
        return max(1, len(self._tokenizer().tokenize(word.lower())))

    def _predict(self, text: str) -> list[tuple[int, int, str, float]]:
        result = self.model.extract_entities(text, list(self.labels), threshold=self.threshold,
                                             include_confidence=True, include_spans=True)
        out = []
        for label, found in (result.get("entities") or {}).items():
            for item in found:
                out.append((int(item["start"]), int(item["end"]), str(label),
                            float(item.get("confidence", 1.0))))
        return out
