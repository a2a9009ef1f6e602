"""Options of a redaction run: defaults, a TOML config file for repeatable runs, and CLI
flags on top (flags win). One dataclass, passed explicitly; no globals."""
from __future__ import annotations

import math
import tomllib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from redactor.errors import InputError
from redactor.imageio import DEFAULT_MAX_PIXELS, DEFAULT_PDF_DPI

# The default pipeline, chosen by measurement (README, "How it does on real pages"): our
# layout-aware rules for everything with a shape or a label, Presidio's spaCy NER for names
# and places in prose, and from Presidio only the types it finds reliably (its low-scored
# phone and account patterns fire on table amounts and only add collateral beside the
# rules). Places: on the real dev set spaCy finds the bare towns, states and countries of
# real letters and forms that the rules' lists miss (LOCATION recall at IoU 0.5 0.20 ->
# 0.58, collateral 0.031 -> 0.037; eval/data/real).
DEFAULT_OCR = "tesseract"
DEFAULT_DETECTORS = ("rules", "presidio")
# Pruned by the ablation on the real dev set (docs/ablation.md): "address_rows" (a form
# row's address cells joined across misread borders, specks and captions) changed no box on
# the 78 real dev pages; it was fitted to the generator's form rows (31 of 500 generated
# pages' values), while real forms stack their address fields under their captions.
DEFAULT_RULES_DISABLED = ["address_rows"]
# Visual detectors run on the page image beside the text detectors (docs/visual.md). QR
# codes/barcodes and photo blocks: every generated code and photo found, no box on the 78
# real dev pages. Signatures stay opt-in: they hide 0.62 of the real dev set's signatures by
# ink (0.09 without) but add collateral on those pages (0.029 -> 0.057, over the 0.05 the
# product allows; eval/benchmarks/bench_visual.py).
DEFAULT_VISUAL = ("codes", "faces")
DEFAULT_DETECTOR_OPTIONS = {
    "presidio": {"entities": ["PERSON", "EMAIL", "CARD_NUMBER", "ID_NUMBER", "ONLINE_ID",
                              "LOCATION"],
                 "min_score": 0.5},
    "rules": {"disable": DEFAULT_RULES_DISABLED},
}


@dataclass
class RedactorConfig:
    ocr: str = DEFAULT_OCR
    detectors: list[str] = field(default_factory=lambda: list(DEFAULT_DETECTORS))
    ocr_free: str | None = None                 # an OCR-free system replaces ocr+detectors
    types: list[str] = field(default_factory=list)       # empty: every type
    min_score: float = 0.0
    pad: float = 0.0
    fill: str = "black"
    box_mode: str = "auto"                      # auto | span | line
    fit_to_ink: bool = True
    ink_shrink: bool = False                    # with fit_to_ink: also cut empty margins
    propagate_repeats: bool = True              # other occurrences of a found value too
    grow_over_unsure: bool = True               # critical spans take in garbled words beside them
    grow_over_unread_ink: bool = True           # critical boxes take in unread ink beside them
    # Every output page is read again before it is written (redactor.verify: only what a
    # reader could use counts; a second pass burns it); what still shows goes to the
    # quarantine folder. On by default: 0 false-alarm pages on the real dev and generated
    # sets (eval/benchmarks/bench_verify.py), at about half the pages/s.
    verify: bool = True
    on_verify_fail: str = "quarantine"          # fail | quarantine
    page_timeout: float | None = None           # seconds; runs pages in a killable child process
    max_pixels: int = DEFAULT_MAX_PIXELS
    pdf_dpi: int = DEFAULT_PDF_DPI
    # allow/deny lists (redactor.lists, docs/review.md): applied by the pipeline after
    # every detector, so no detector undoes them. Deny entries: "term" or
    # {term = "...", type = "..."}; deny_patterns likewise with pattern = "...".
    allow: list[str] = field(default_factory=list)
    allow_patterns: list[str] = field(default_factory=list)
    deny: list[Any] = field(default_factory=list)
    deny_patterns: list[Any] = field(default_factory=list)
    visual: list[str] = field(default_factory=lambda: list(DEFAULT_VISUAL))   # image detectors
    ocr_options: dict[str, Any] = field(default_factory=dict)
    detector_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


_FIELDS = {f.name for f in fields(RedactorConfig)}


def load_config(path: str | Path | None, overrides: dict[str, Any] | None = None) -> RedactorConfig:
    """Config file values, then every override that is not None."""
    data: dict[str, Any] = {}
    if path:
        p = Path(path)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputError(f"config file {p} not found") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise InputError(f"config file {p} is not valid TOML: {exc}") from None
        data = data.get("redactor", data)   # accept a [redactor] table or top-level keys
        unknown = sorted(set(data) - _FIELDS)
        if unknown:
            raise InputError(f"config file {p}: unknown option {unknown[0]!r}{_did_you_mean(unknown[0], _FIELDS)} "
                             f"(known: {', '.join(sorted(_FIELDS))})")
    for key, value in (overrides or {}).items():
        if value is not None:
            data[key] = value
    if "detectors" not in data and not data.get("ocr_free"):
        # The default detectors come with their tuned options (user options still win).
        options = {k: dict(v) for k, v in DEFAULT_DETECTOR_OPTIONS.items()}
        for name, opts in (data.get("detector_options") or {}).items():
            options[name] = {**options.get(name, {}), **opts}
        data["detector_options"] = options
    try:
        cfg = RedactorConfig(**data)
    except TypeError as exc:
        raise InputError(f"bad configuration: {exc}") from None
    _validate(cfg)
    return cfg


def check_detector_options(cfg: RedactorConfig) -> None:
    """Options for a detector that does not run would be silently ignored: a typo
    ("presido.x=1") must not pass for a setting that took effect."""
    running = set(cfg.detectors or []) | set(cfg.visual or []) | \
        ({cfg.ocr_free} if cfg.ocr_free else set())
    for name in cfg.detector_options or {}:
        if name not in running:
            raise InputError(f"detector option for {name!r}, which is not a detector of this run"
                             f"{_did_you_mean(name, running)} (detectors: {', '.join(sorted(running))})")


def _did_you_mean(name: str, known) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _number(cfg: RedactorConfig, name: str, *, positive: bool, optional: bool = False) -> None:
    value = getattr(cfg, name)
    if value is None and optional:
        return
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a number, not {value!r}") from None
    if not math.isfinite(number) or number < 0 or (positive and number == 0):
        raise InputError(f"{name} must be a finite number {'> 0' if positive else '>= 0'}, not {value!r}")


def _validate(cfg: RedactorConfig) -> None:
    _number(cfg, "pad", positive=False)
    _number(cfg, "page_timeout", positive=True, optional=True)
    _number(cfg, "pdf_dpi", positive=True)
    _number(cfg, "max_pixels", positive=True)
    _number(cfg, "min_score", positive=False)
    if cfg.box_mode not in ("auto", "span", "line"):
        raise InputError(f"box_mode must be auto, span or line, not {cfg.box_mode!r}")
    if cfg.on_verify_fail not in ("fail", "quarantine"):
        raise InputError(f"on_verify_fail must be fail or quarantine, not {cfg.on_verify_fail!r}")
    if float(cfg.min_score) > 1.0:
        raise InputError(f"min_score must be between 0 and 1, not {cfg.min_score}")
    if not cfg.ocr_free and not cfg.detectors:
        raise InputError("no detector selected")
    if isinstance(cfg.detectors, str):
        cfg.detectors = [cfg.detectors]
    if isinstance(cfg.visual, str):
        cfg.visual = [cfg.visual]
    # "none" (the CLI's --visual none) switches the visual detectors off
    cfg.visual = [v for v in (cfg.visual or []) if v != "none"]
    check_detector_options(cfg)
    for key in ("allow", "allow_patterns", "deny", "deny_patterns"):
        value = getattr(cfg, key)
        if isinstance(value, (str, dict)):
            setattr(cfg, key, [value])
        elif value is None:
            setattr(cfg, key, [])
    from redactor.lists import lists_from_config
    lists_from_config(cfg)   # a bad term, regex or type: InputError naming the key
