"""Loading prediction files and OCR-word files of the contract.

Predictions are read here rather than with ``Redaction.from_json`` because a malformed box
or type must survive loading (to be counted), where ``Redaction`` would refuse it.

A malformed line (not JSON, no page_id, predictions not a list, a repeated page) is refused
with an ``InputError`` naming file and line. A malformed *prediction* inside a good line is
not an error of the file: the contract counts it as an invalid prediction (a false positive
that is never matched), so it is kept with the reason it is invalid.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from redactor import taxonomy
from redactor.errors import InputError
from redactor.model import PageResult, Redaction, WordBox
from redactor_eval.jsonl import LineError, box_in_page, is_number, parse_box, read_records, require_str


@dataclass(frozen=True)
class Prediction:
    """One predicted box as written. ``bbox`` is None when the box is malformed; ``type`` is
    the written type ('' when absent or not a string)."""
    bbox: tuple[float, float, float, float] | None
    type: str
    value: str = ""
    score: float = 1.0

    @classmethod
    def from_redaction(cls, r: Redaction) -> "Prediction":
        return cls(bbox=parse_box(r.bbox), type=r.type, value=r.value, score=r.score)

    @classmethod
    def from_json(cls, raw) -> "Prediction":
        if not isinstance(raw, dict):
            return cls(bbox=None, type="")
        fine = raw.get("type")
        value = raw.get("value")
        score = raw.get("score", 1.0)
        return cls(bbox=parse_box(raw.get("bbox")), type=fine if isinstance(fine, str) else "",
                   value=value if isinstance(value, str) else "",
                   score=float(score) if is_number(score) else 1.0)

    def invalid_reason(self, width: float, height: float) -> str | None:
        """Why this prediction is invalid on a page of this size, or None if it is valid."""
        if self.bbox is None:
            return "malformed box"
        if not taxonomy.is_known(self.type):
            return "unknown type"
        if not box_in_page(self.bbox, width, height):
            return "box out of bounds"
        return None


@dataclass(frozen=True)
class PagePrediction:
    """One line of a prediction file. ``error`` set means the page is invalid and its
    predictions are ignored (the contract scores it as an empty prediction)."""
    page_id: str
    predictions: tuple[Prediction, ...] = ()
    error: str | None = None
    system: str = ""

    @classmethod
    def from_page_result(cls, result: PageResult, system: str = "") -> "PagePrediction":
        """What the pipeline produced for a page, scored without a round trip through a file."""
        return cls(page_id=result.page_id, error=result.error, system=system,
                   predictions=tuple(Prediction.from_redaction(r) for r in result.redactions))


def page_prediction_from_json(record: dict) -> PagePrediction:
    page_id = require_str(record, "page_id")
    error = record.get("error")
    if error is not None and (not isinstance(error, str) or not error):
        raise LineError(f"'error' must be null or a non-empty string, got {error!r}")
    raw = record.get("predictions", [])
    if raw is None and error is not None:
        raw = []
    if not isinstance(raw, list):
        raise LineError(f"'predictions' must be a list, got {type(raw).__name__}")
    system = record.get("system") or ""
    if not isinstance(system, str):
        raise LineError(f"'system' must be a string, got {system!r}")
    return PagePrediction(page_id=page_id, predictions=tuple(Prediction.from_json(p) for p in raw),
                          error=error, system=system)


def load_predictions(path: str | Path) -> dict[str, PagePrediction]:
    """Read a prediction file into {page_id: PagePrediction}; a page_id may occur once."""
    path = Path(path)
    out: dict[str, PagePrediction] = {}
    lines: dict[str, int] = {}
    for lineno, record in read_records(path):
        try:
            page = page_prediction_from_json(record)
        except LineError as exc:
            raise InputError(f"{path}:{lineno}: {exc}") from None
        if page.page_id in out:
            raise InputError(f"{path}:{lineno}: page_id {page.page_id!r} repeats line "
                             f"{lines[page.page_id]}")
        out[page.page_id] = page
        lines[page.page_id] = lineno
    return out


def _word_from_json(raw, index: int) -> WordBox:
    if not isinstance(raw, dict):
        raise LineError(f"word {index}: expected an object, got {type(raw).__name__}")
    text = raw.get("text")
    if not isinstance(text, str):
        raise LineError(f"word {index}: 'text' must be a string, got {text!r}")
    box = raw.get("bbox")
    if not (isinstance(box, (list, tuple)) and len(box) == 4 and all(map(is_number, box))):
        raise LineError(f"word {index}: bbox must be four numbers, got {box!r}")
    conf = raw.get("conf", -1.0)
    if not is_number(conf):
        raise LineError(f"word {index}: 'conf' must be a number, got {conf!r}")
    # the line and block a pipeline grouped the word into are optional; kept when given, so
    # that the page text rebuilt from the file is the one its detectors read
    layout = {}
    for key in ("line", "block"):
        value = raw.get(key, 0)
        if not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
            raise LineError(f"word {index}: '{key}' must be a whole number >= 0, got {value!r}")
        layout[key] = value
    return WordBox.from_json({"text": text, "bbox": box, "conf": conf, **layout})


def ocr_words_from_json(record: dict) -> tuple[str, tuple[WordBox, ...]]:
    page_id = require_str(record, "page_id")
    engine = record.get("engine", "")
    if not isinstance(engine, str):
        raise LineError(f"'engine' must be a string, got {engine!r}")
    raw = record.get("words")
    if not isinstance(raw, list):
        raise LineError(f"'words' must be a list, got {type(raw).__name__}")
    return page_id, tuple(_word_from_json(w, i) for i, w in enumerate(raw))


def load_ocr_words(path: str | Path) -> dict[str, tuple[WordBox, ...]]:
    """Read an OCR-words file into {page_id: words in file order}."""
    path = Path(path)
    out: dict[str, tuple[WordBox, ...]] = {}
    lines: dict[str, int] = {}
    for lineno, record in read_records(path):
        try:
            page_id, words = ocr_words_from_json(record)
        except LineError as exc:
            raise InputError(f"{path}:{lineno}: {exc}") from None
        if page_id in out:
            raise InputError(f"{path}:{lineno}: page_id {page_id!r} repeats line {lines[page_id]}")
        out[page_id] = words
        lines[page_id] = lineno
    return out
