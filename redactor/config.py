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
# real dev pages. Signatures: 0.65 of the real dev set's signatures hidden as SIGNATURE (none
# without), collateral of the default pipeline 0.035 -> 0.044 (under the 0.05 the product
# allows). Stamps stay opt-in: one stamp on the real pages, too little to judge. Time-clock
# stamps (a receipt's date and time turned up the margin, OCR reads nothing): 4 of the real
# dev set's DATE golds found, no false box (docs/visual.md).
DEFAULT_VISUAL = ("codes", "faces", "signatures", "time_stamps")
DEFAULT_DETECTOR_OPTIONS = {
    "presidio": {"entities": ["PERSON", "EMAIL", "CARD_NUMBER", "ID_NUMBER", "ONLINE_ID",
                              "LOCATION"],
                 "min_score": 0.5},
    "rules": {"disable": DEFAULT_RULES_DISABLED},
}


def _opt(default: Any, help: str, factory=None):
    """A config field with the one line `redactor config` and the docs show for it."""
    if factory is not None:
        return field(default_factory=factory, metadata={"help": help})
    return field(default=default, metadata={"help": help})


@dataclass
class RedactorConfig:
    ocr: str = _opt(DEFAULT_OCR, "OCR backend (`redactor plugins` lists them)")
    detectors: list[str] = _opt(None, "detector plugins run on the OCR text (an ensemble when several)",
                                lambda: list(DEFAULT_DETECTORS))
    ocr_free: str | None = _opt(None, "an OCR-free system that replaces ocr + detectors")
    types: list[str] = _opt(None, "only these fine types or groups (direct, linkage, contextual, "
                            "other, critical); empty: every type", list)
    min_score: float = _opt(0.0, "drop detections scored below this (0-1)")
    pad: float = _opt(0.0, "grow every box by this many pixels")
    fill: str = _opt("black", "box colour (a Pillow colour name or #rrggbb)")
    box_mode: str = _opt("auto", "auto | span | line: one rectangle per value, per line, or chosen")
    fit_to_ink: bool = _opt(True, "grow each box to the ink of its value (--no-ink-fit: off)")
    ink_shrink: bool = _opt(False, "with fit_to_ink: also cut a box's empty margins")
    # redactor.edge_trim: annotators and readers box a word as printed, its comma or brackets
    # with it; cut, a box can fail IoU with such gold and leave part of the gold's ink out
    cut_punctuation: bool = _opt(False, "with fit_to_ink: cut a word's commas, stops, brackets, "
                                 "quotes and colons off its box when the value leaves them out "
                                 "(off: only a fill-in line touching the value is cut)")
    propagate_repeats: bool = _opt(True, "hide the other occurrences of a found value too")
    # redactor.surname_repeats: "Routh" in a table after "Written By W. E. Routh"
    propagate_surnames: bool = _opt(True, "with propagate_repeats: also hide a found person's "
                                    "surname where it stands alone")
    # redactor.name_columns: "Ammons / Wicker" stacked over a found "Routh" in a table
    propagate_name_columns: bool = _opt(True, "with propagate_repeats: also hide the names "
                                        "stacked in a table column with a found person")
    # redactor.authority_addresses: "U.S. Department of Justice / Washington, DC 20530"
    keep_authority_addresses: bool = _opt(False, "hide the issuing authority's address and "
                                          "a government's web address a form prints "
                                          "(off: left readable)")
    # redactor.place_in_names: "U.S." in "U.S. Department of Justice", "United States Code"
    keep_places_in_body_names: bool = _opt(False, "hide the country that opens a state body's name "
                                           "or stands in a form item's printed question, and the "
                                           "places and bodies of a statute's definition a form "
                                           "quotes (off: left readable, it names the body or asks)")
    # redactor.option_lists: a form's printed columns of states or countries to tick
    keep_option_lists: bool = _opt(False, "hide the places of a form's printed option list "
                                   "(off: left readable)")
    grow_over_unsure: bool = _opt(True, "critical values take in the garbled OCR words beside them")
    grow_over_unread_ink: bool = _opt(True, "critical boxes take in unread ink beside them")
    # Every output page is read again before it is written (redactor.verify: only what a
    # reader could use counts; a second pass burns it); what still shows goes to the
    # quarantine folder. On by default: 0 false-alarm pages on the real dev and generated
    # sets (eval/benchmarks/bench_verify.py), at about half the pages/s.
    verify: bool = _opt(True, "read every output page again, burn what is still readable, "
                        "quarantine what remains")
    on_verify_fail: str = _opt("quarantine", "fail | quarantine: what a page that still shows "
                               "a value becomes")
    page_timeout: float | None = _opt(None, "seconds per page, analysed in a killable child "
                                      "process (none: no limit)")
    max_pixels: int = _opt(DEFAULT_MAX_PIXELS, "refuse pages larger than this many pixels")
    pdf_dpi: int = _opt(DEFAULT_PDF_DPI, "resolution born-digital PDF pages are rendered at")
    # allow/deny lists (redactor.lists, docs/review.md): applied by the pipeline after
    # every detector, so no detector undoes them. Deny entries: "term" or
    # {term = "...", type = "..."}; deny_patterns likewise with pattern = "...".
    allow: list[str] = _opt(None, "values never redacted (whole value, any case)", list)
    allow_patterns: list[str] = _opt(None, "regexes: values they match in full are never redacted", list)
    deny: list[Any] = _opt(None, 'terms always redacted: "term" or {term = "...", type = "..."}', list)
    deny_patterns: list[Any] = _opt(None, 'regexes always redacted: "re" or {pattern = "...", '
                                    'type = "..."}', list)
    patterns: list[str] = _opt(None, "YAML files of pattern recognizers in Presidio's format "
                               "(docs/review.md): new rules with their own names", list)
    visual: list[str] = _opt(None, "visual detectors on the page image (codes, faces, signatures, stamps, "
                             "time_stamps; "
                             "none: off)", lambda: list(DEFAULT_VISUAL))
    ocr_options: dict[str, Any] = _opt(None, "options of the OCR backend (`redactor plugins "
                                       "--options` lists them)", dict)
    detector_options: dict[str, dict[str, Any]] = _opt(
        None, "options per detector: [detector_options.NAME] tables", dict)

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
        _check_keys(data, f"config file {p}")
    overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
    _check_keys(overrides, "settings")
    data.update(overrides)
    if "detectors" not in data and not data.get("ocr_free") and \
            isinstance(data.get("detector_options", {}), dict):
        # The default detectors come with their tuned options (user options still win).
        options = {k: dict(v) for k, v in DEFAULT_DETECTOR_OPTIONS.items()}
        for name, opts in (data.get("detector_options") or {}).items():
            # a value that is not a table is left for the schema to name
            options[name] = {**options.get(name, {}), **opts} if isinstance(opts, dict) else opts
        data["detector_options"] = options
    cfg = _from_schema(data, f"config file {path}" if path else "settings")
    check_config(cfg)
    return cfg


def _check_keys(data: dict[str, Any], where: str) -> None:
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise InputError(f"{where}: unknown option {unknown[0]!r}{_did_you_mean(unknown[0], _FIELDS)} "
                         f"(known: {', '.join(sorted(_FIELDS))})")


# Keys a user may give as one value where a list is meant (`visual = "none"`, `--deny X`).
_LIST_KEYS = ("detectors", "visual", "types", "allow", "allow_patterns", "deny", "deny_patterns",
              "patterns")


def _from_schema(data: dict[str, Any], where: str) -> RedactorConfig:
    """The config, each value checked and coerced against the field's declared type (lax:
    "0.5" is a number, "yes" a boolean, as TOML and flags give them): a wrong type is one line
    naming the key, not a failure on the first page."""
    import pydantic

    data = dict(data)
    for key in _LIST_KEYS:
        if isinstance(data.get(key), (str, dict)):
            data[key] = [data[key]]
    try:
        return _schema().validate_python(data)
    except pydantic.ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(part) for part in err["loc"])
        raise InputError(f"{where}: {key}: {err['msg'][:1].lower()}{err['msg'][1:]} "
                         f"(got {err.get('input')!r})") from None


def _schema():
    import pydantic

    return pydantic.TypeAdapter(RedactorConfig)


def describe_options() -> list[tuple[str, Any, str]]:
    """(key, default, help) of every config key, in declaration order."""
    defaults = RedactorConfig()
    return [(f.name, getattr(defaults, f.name), f.metadata.get("help", "")) for f in fields(RedactorConfig)]


def check_detector_options(cfg: RedactorConfig) -> None:
    """Options for a detector that does not run would be silently ignored: a typo
    ("presido.x=1") must not pass for a setting that took effect."""
    running = set(cfg.detectors or []) | set(cfg.visual or []) | \
        ({cfg.ocr_free} if cfg.ocr_free else set())
    for name in cfg.detector_options or {}:
        if name not in running:
            raise InputError(f"detector option for {name!r}, which is not a detector of this run"
                             f"{_did_you_mean(name, running)} (detectors: {', '.join(sorted(running))})")


def check_plugin_options(cfg: RedactorConfig) -> None:
    """Each running plugin's options against its own: an unknown name or a wrong type is
    exit 2 now, before any model loads or page is read."""
    from redactor import registry

    options = cfg.detector_options or {}
    if cfg.ocr_free:
        registry.check_options("ocr_free", cfg.ocr_free, options.get(cfg.ocr_free, {}))
        return
    registry.check_options("ocr", cfg.ocr, cfg.ocr_options or {})
    for kind, names in (("detector", cfg.detectors), ("visual", cfg.visual)):
        for name in names:
            registry.check_options(kind, name, options.get(name, {}))


def _lift_allow_lists(cfg: RedactorConfig) -> None:
    """A detector's own allow list (Presidio's ``allow_list``) would be undone by the other
    detectors of an ensemble, which find the same value: it joins the pipeline's allow list,
    which no detector undoes (whole values, any case: a little wider than Presidio's exact
    match)."""
    for opts in (cfg.detector_options or {}).values():
        terms = opts.get("allow_list") if isinstance(opts, dict) else None
        if not terms:
            continue
        terms = [terms] if isinstance(terms, str) else list(terms)
        key = "allow_patterns" if opts.get("allow_list_match") == "regex" else "allow"
        present = list(getattr(cfg, key))
        setattr(cfg, key, present + [t for t in terms if t not in present])


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


def check_config(cfg: RedactorConfig) -> None:
    """Every cross-key rule, run again after the CLI adds its options (idempotent)."""
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
    # "none" (the CLI's --visual none) switches the visual detectors off
    cfg.visual = [v for v in (cfg.visual or []) if v != "none"]
    check_detector_options(cfg)
    check_plugin_options(cfg)
    _lift_allow_lists(cfg)
    from redactor.lists import lists_from_config
    lists_from_config(cfg)   # a bad term, regex or type: InputError naming the key
    from redactor.user_patterns import load_pattern_files
    load_pattern_files(cfg.patterns)
    # refused here, before any command makes an output folder or reads a page
    from redactor.render import parse_fill
    from redactor.taxonomy import parse_types
    if cfg.types:
        parse_types(cfg.types)
    parse_fill(str(cfg.fill))
