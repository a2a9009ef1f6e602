"""The typed data model shared by redaction and evaluation.

``WordBox`` and ``OcrPage`` are what an OCR backend saw; ``Span`` is what a detector tagged
in the page text; ``Redaction`` is a pixel box to burn in (and, written out, a prediction in
the contract's format). The page text is built from the words with exact character offsets,
so a span always maps back to the words it covers.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

BBox = tuple[float, float, float, float]


def as_bbox(values: Sequence[float]) -> BBox:
    x0, y0, x1, y1 = (float(v) for v in values)
    return (x0, y0, x1, y1)


# OCR confidence (0-100) under which a word is unsure: Tesseract's words read below it are
# wrong more often than right (one bar for every stage: specks, re-reads, unsure values)
UNSURE_CONF = 50.0
SPECK_HEIGHT = 0.5    # ... and less than this share of its line's text height is a speck


@dataclass(frozen=True)
class WordBox:
    """One OCR word in pixel coordinates of the page image as given to the pipeline."""
    text: str
    bbox: BBox
    conf: float = -1.0
    line: int = 0      # page-unique line id; words of one line share it
    block: int = 0     # page-unique block (paragraph/region) id

    def to_json(self) -> dict:
        return {"text": self.text, "bbox": list(self.bbox), "conf": self.conf,
                "line": self.line, "block": self.block}

    def is_speck(self, text_height: float) -> bool:
        """An unsure word (confidence under UNSURE_CONF) less than SPECK_HEIGHT of the text
        height of its line: a speck or a dotted rule OCR read as a word ("¢1" over a corner
        of "+1", "te *seete? Mes"), not text that was read."""
        return 0 <= self.conf < UNSURE_CONF and self.bbox[3] - self.bbox[1] < SPECK_HEIGHT * text_height

    @classmethod
    def from_json(cls, d: dict) -> "WordBox":
        return cls(text=str(d["text"]), bbox=as_bbox(d["bbox"]), conf=float(d.get("conf", -1.0)),
                   line=int(d.get("line", 0)), block=int(d.get("block", 0)))


def build_page_text(words: Sequence[WordBox]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Join words into page text: one space between words of a line, one newline between
    lines (a blank line between blocks), in the order given. Returns the text and each
    word's (start, end) character offsets."""
    parts: list[str] = []
    offsets: list[tuple[int, int]] = []
    pos = 0
    prev: WordBox | None = None
    for w in words:
        if prev is not None:
            if w.block != prev.block:
                sep = "\n\n"
            elif w.line != prev.line:
                sep = "\n"
            else:
                sep = " "
            parts.append(sep)
            pos += len(sep)
        parts.append(w.text)
        offsets.append((pos, pos + len(w.text)))
        pos += len(w.text)
        prev = w
    return "".join(parts), tuple(offsets)


@dataclass(frozen=True)
class OcrPage:
    """What an OCR backend read on one page."""
    width: int
    height: int
    words: tuple[WordBox, ...]
    engine: str
    version: str = ""
    text: str = field(init=False, repr=False, compare=False)
    offsets: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        words = tuple(w for w in self.words if w.text.strip())
        object.__setattr__(self, "words", words)
        text, offsets = build_page_text(words)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "offsets", offsets)

    def __getstate__(self):
        # the page view (redactor.page_view) is rebuilt where the page lands, not shipped
        state = dict(self.__dict__)
        state.pop("_view", None)
        return state

    @property
    def engine_id(self) -> str:
        return f"{self.engine} {self.version}".strip()

    def to_json(self, page_id: str) -> dict:
        """One line of the contract's OCR-words file."""
        return {"page_id": page_id, "engine": self.engine_id, "width": self.width,
                "height": self.height, "words": [w.to_json() for w in self.words]}

    @classmethod
    def from_json(cls, d: dict) -> "OcrPage":
        engine, _, version = str(d.get("engine", "")).partition(" ")
        return cls(width=int(d.get("width", 0)), height=int(d.get("height", 0)),
                   words=tuple(WordBox.from_json(w) for w in d["words"]),
                   engine=engine, version=version)


# How strong the evidence behind a span is, as the detector that found it declares it
# (``Detector.evidence_of``); the ensemble ranks overlapping findings by it before score.
STRUCTURAL = 3     # a label names the value ("Phone:", "Acct #") or a checksum holds (Luhn, mod-97)
PATTERN = 2        # the characters have the shape of the type, nothing more
STATISTICAL = 1    # a model's guess from the words around (NER), or a last-resort fallback


@dataclass(frozen=True)
class Span:
    """A detector's finding: characters [start, end) of the page text, with a fine type."""
    start: int
    end: int
    type: str
    score: float = 1.0
    detector: str = ""
    text: str = ""
    evidence: int | None = None   # STRUCTURAL/PATTERN/STATISTICAL, declared by the detector

    def with_(self, **changes) -> "Span":
        return replace(self, **changes)


@dataclass(frozen=True)
class Redaction:
    """A pixel box to burn in; written out, one prediction of the contract."""
    bbox: BBox
    type: str
    value: str = ""
    score: float = 1.0
    sources: tuple[str, ...] = ()

    def to_json(self) -> dict:
        d = {"bbox": [round(v, 2) for v in self.bbox], "type": self.type, "value": self.value,
             "score": round(float(self.score), 4)}
        if self.sources:
            d["sources"] = list(self.sources)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Redaction":
        return cls(bbox=as_bbox(d["bbox"]), type=str(d["type"]), value=str(d.get("value") or ""),
                   score=float(d.get("score", 1.0)), sources=tuple(d.get("sources", ())))


@dataclass
class PageResult:
    """Everything the pipeline knows about one redacted page."""
    page_id: str
    redactions: list[Redaction]
    ocr: OcrPage | None = None
    spans: list[Span] = field(default_factory=list)
    dropped_spans: list[Span] = field(default_factory=list)   # spans that matched no word
    error: str | None = None
    verification: dict | None = None

    def prediction_json(self, system: str) -> dict:
        d = {"page_id": self.page_id, "system": system,
             "predictions": [r.to_json() for r in self.redactions], "error": self.error}
        if self.dropped_spans:
            d["dropped_spans"] = len(self.dropped_spans)
        if self.verification is not None:
            d["verification"] = self.verification
        return d


def spans_text(page: OcrPage, spans: Iterable[Span]) -> list[Span]:
    """Fill in each span's text from the page text (detectors may leave it empty)."""
    return [s if s.text else s.with_(text=page.text[s.start:s.end]) for s in spans]
