"""The evaluator's typed result: headline numbers, breakdowns, and per-page details for
reports. ``to_json()`` gives the contract's report keys (per-page details stay out)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from redactor.model import WordBox
from redactor_eval.metrics import Headline, PageMatches, PreparedPage

TAU_KEYS = ("0.5", "0.75", "0.95")


@dataclass(frozen=True)
class PageDetail:
    """One page at the main tau, as the report needs it."""
    prepared: PreparedPage
    matches: PageMatches
    causes: dict[int, str]                  # missed gold index -> failure cause
    words: Sequence[WordBox] | None         # OCR words the pipeline saw, when given
    ink_covered: tuple[bool, ...] | None = None

    @property
    def page_id(self) -> str:
        return self.prepared.page.page_id

    @property
    def missed(self) -> list[int]:
        return [g for g, p in enumerate(self.matches.typed.tolist()) if p < 0]

    @property
    def missed_critical(self) -> list[int]:
        crit = self.prepared.gold_critical
        return [g for g in self.missed if crit[g]]


@dataclass(frozen=True)
class EvalResult:
    tau: float
    system: str
    counts: dict
    headline: Headline
    per_tau: dict[str, Headline]
    per_group: dict[str, dict]
    missed_crit: dict
    attribution: dict
    ocr_recoverability: dict | None = None
    ink: dict | None = None
    coverage: dict | None = None
    per_type: dict[str, dict] = field(default_factory=dict)   # tau key -> type -> recall
    pages: list[PageDetail] = field(default_factory=list, repr=False)

    def __getattr__(self, name):
        # f1_loc, docleak_crit, ... read straight from the headline
        if name in Headline.__dataclass_fields__:
            return getattr(self.headline, name)
        raise AttributeError(name)

    def to_json(self) -> dict:
        out = {"tau": self.tau, "system": self.system, **self.headline.to_json(),
               "per_group": self.per_group,
               "per_tau": {k: h.to_json() for k, h in self.per_tau.items()},
               "missed_crit": self.missed_crit, "attribution": self.attribution,
               "counts": self.counts}
        if self.ocr_recoverability is not None:
            out["ocr_recoverability"] = self.ocr_recoverability
        if self.ink is not None:
            out.update(self.ink)
        if self.coverage is not None:
            out["coverage"] = self.coverage
        if self.per_type:
            out["per_type"] = self.per_type
        return out
