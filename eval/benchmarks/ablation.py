"""Ablation of the default pipeline: every rule family and pipeline stage switched off in
turn, so each must earn its keep on real pages (docs/ablation.md).

    .venv/bin/python -m redactor_eval.benchmarks.ablation --pages PAGES.jsonl [--pages MORE.jsonl ...] \\
        --out DIR [--workers 2] [--split dev] [--variants a,b,...] [--ocr-cache DIR]

For each pages file: one TOML config per variant (``full`` = the default pipeline written
out with its tuned options; every other variant = ``full`` with one thing off), ONE
``redactor bench`` run with every variant as a system (``LABEL=config.toml``; they share
the OCR cache, so detector-only variants reuse the full system's OCR and only the OCR
variants read the pages again), then ``ablation.md``: one row per variant with the change
against ``full`` (positive Δ missed = switching it off leaks more = it helps).
"""
from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from redactor.config import DEFAULT_DETECTOR_OPTIONS, DEFAULT_DETECTORS, DEFAULT_OCR, RedactorConfig

FULL = "full"


@dataclass(frozen=True)
class Variant:
    name: str
    what: str                    # what it switches off (one line, for the table)
    kind: str                    # rules | detector | stage | ocr
    disable: tuple[str, ...] = ()                 # rules families off
    detectors: tuple[str, ...] | None = None      # another detector list
    flags: dict = field(default_factory=dict)     # RedactorConfig fields set
    ocr_options: dict = field(default_factory=dict)


def _variants() -> list[Variant]:
    from redactor_plugins.rules_detector import FAMILIES

    from redactor.config import DEFAULT_RULES_DISABLED

    base = RedactorConfig()
    off = tuple(DEFAULT_RULES_DISABLED)
    out = [Variant(FULL, "nothing: the default pipeline", "full", disable=off)]
    # a family the default leaves out is measured by switching it back on ("with_")
    out += [Variant(f"no_{fam}", f"rules: {what}", "rules", disable=off + (fam,))
            if fam not in off else
            Variant(f"with_{fam}", f"(switched ON) rules: {what}", "rules",
                    disable=tuple(f for f in off if f != fam))
            for fam, what in FAMILIES.items()]

    def stage(name: str, what: str) -> Variant:
        on = getattr(base, name)
        return Variant(("no_" if on else "with_") + name, what if on else f"(switched ON) {what}",
                       "stage", flags={name: not on})
    out += [
        Variant("no_presidio", "the presidio detector (spaCy NER, its reliable patterns)",
                "detector", detectors=tuple(d for d in DEFAULT_DETECTORS if d != "presidio")),
        Variant("no_rules", "the rules detector (all families)", "detector",
                detectors=tuple(d for d in DEFAULT_DETECTORS if d != "rules")),
        stage("grow_over_unsure", "critical spans taking in unsure garbled words beside them"),
        stage("propagate_repeats", "other occurrences of a found value redacted too"),
        stage("propagate_surnames", "a found person's surname redacted where it stands alone"),
        stage("propagate_name_columns", "names stacked in a table column with a found person redacted"),
        stage("fit_to_ink", "boxes fitted to the value's ink (OCR word boxes as they are)"),
        stage("grow_over_unread_ink", "critical boxes taking in unread ink beside them"),
        Variant("no_drop_authority_addresses", "a government form's printed authority address "
                "left readable (keep_authority_addresses on: hidden like any address)", "stage",
                flags={"keep_authority_addresses": True}),
        Variant("no_drop_option_lists", "a form's printed option list of places left readable "
                "(keep_option_lists on: every name hidden)", "stage", flags={"keep_option_lists": True}),
        Variant("no_drop_places_in_body_names", "the country opening a state body's name hidden as a place "
                "(keep_places_in_body_names on: 'U.S.' of 'U.S. Department of Justice')", "stage",
                flags={"keep_places_in_body_names": True}),
        Variant("no_ocr_rereads", "OCR re-reads: unsure words, lines run together, unread ink "
                "(reread_unsure, split_merged, read_unread off)", "ocr",
                ocr_options={"reread_unsure": False, "split_merged": False, "read_unread": False}),
        Variant("no_ocr_rescale", "OCR rescaling: small text not upscaled, big text not shrunk "
                "(scale = 1)", "ocr", ocr_options={"scale": 1}),
        Variant("no_ocr_repair", "OCR repaired-stroke reads (repair off, repair_first off)", "ocr",
                ocr_options={"repair": False, "repair_first": "off"}),
        Variant("no_ocr_cleanup", "OCR scan clean-up: background flattening, denoise, deskew "
                "(preprocess off; the repaired read needs it too)", "ocr",
                ocr_options={"preprocess": False}),
    ]
    return out


VARIANTS = {v.name: v for v in _variants()}


def variant_config(v: Variant) -> dict:
    """The variant as a config dict: the default pipeline written out in full (a config
    naming ``detectors`` gets no default detector options, so they are copied in), then the
    variant's change. ``full`` says the default's ``disable`` for rules, so its predictions
    are the ``default`` system's."""
    base = RedactorConfig()
    detectors = list(v.detectors) if v.detectors is not None else list(DEFAULT_DETECTORS)
    options = {k: copy.deepcopy(o) for k, o in DEFAULT_DETECTOR_OPTIONS.items() if k in detectors}
    if "rules" in detectors:
        options["rules"] = {**options.get("rules", {}), "disable": list(v.disable)}
    cfg = {"ocr": DEFAULT_OCR, "detectors": detectors,
           "fit_to_ink": base.fit_to_ink, "ink_shrink": base.ink_shrink,
           "cut_punctuation": base.cut_punctuation,
           "grow_over_unsure": base.grow_over_unsure,
           "grow_over_unread_ink": base.grow_over_unread_ink,
           "propagate_repeats": base.propagate_repeats,
           "propagate_surnames": base.propagate_surnames,
           "propagate_name_columns": base.propagate_name_columns,
           "ocr_options": dict(v.ocr_options), "detector_options": options}
    cfg.update(v.flags)
    return cfg


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)        # a JSON string is a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def to_toml(cfg: dict) -> str:
    """Top-level keys, then [ocr_options] and [detector_options.NAME] tables."""
    lines = [f"{k} = {_toml_value(v)}" for k, v in cfg.items() if not isinstance(v, dict)]
    for k, v in cfg.items():
        if not isinstance(v, dict):
            continue
        plain = {a: b for a, b in v.items() if not isinstance(b, dict)}
        if plain or not v:
            lines += ["", f"[{k}]"] + [f"{a} = {_toml_value(b)}" for a, b in plain.items()]
        for a, b in v.items():
            if isinstance(b, dict):
                lines += ["", f"[{k}.{a}]"] + [f"{c} = {_toml_value(d)}" for c, d in b.items()]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- the table
def _metric(m: dict, key: str, tau: str | None = None):
    if tau is not None:
        per = (m.get("per_tau") or {}).get(tau)
        if per is not None and key in per:
            return per[key]
        return None if float(tau) != float(m.get("tau", -1)) else m.get(key)
    return m.get(key)


def ablation_rows(bench: dict, full: str = FULL) -> list[dict]:
    """One row per system of a bench.json dict: the figures and the change against
    ``full`` (variant minus full: positive missed / ink leak = switching it off leaks more,
    so the thing switched off helps; negative collateral = it costs collateral)."""
    systems = bench["systems"]
    if full not in systems:
        raise ValueError(f"bench has no {full!r} system (systems: {', '.join(systems)})")
    rows = []
    for label, m in systems.items():
        row = {"variant": label,
               "f1_loc": _metric(m, "f1_loc", "0.75"), "f1_loc_05": _metric(m, "f1_loc", "0.5"),
               "docleak_crit": _metric(m, "docleak_crit", "0.75"),
               "docleak_crit_05": _metric(m, "docleak_crit", "0.5"),
               "docleak_ink_crit": m.get("docleak_ink_crit"), "collateral": m.get("collateral"),
               "missed_crit": (m.get("attribution") or {}).get("missed_critical")}
        rows.append(row)
    ref = next(r for r in rows if r["variant"] == full)

    def delta(a, b):
        return None if a is None or b is None else a - b

    for r in rows:
        r["d_missed_crit"] = delta(r["missed_crit"], ref["missed_crit"])
        r["d_docleak_ink_crit"] = delta(r["docleak_ink_crit"], ref["docleak_ink_crit"])
        r["d_collateral"] = delta(r["collateral"], ref["collateral"])
    return rows


def _f(v, digits=3, signed=False) -> str:
    if v is None:
        return "–"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:+d}" if signed and v else str(v)
    if round(v, digits) == 0:
        v = 0.0                         # no "-0.000"
        return f"{v:.{digits}f}"
    return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"


def ablation_markdown(bench: dict, title: str = "", what: dict[str, str] | None = None,
                      full: str = FULL) -> str:
    what = what if what is not None else {n: v.what for n, v in VARIANTS.items()}
    rows = ablation_rows(bench, full)
    n_pages = next(iter(bench["systems"].values()))["counts"]["pages"] if bench["systems"] else 0
    split = bench.get("split")
    lines = [f"# Ablation: {title or bench.get('pages', '')}"
             + (f" (split {split})" if split and split != "all" else ""), "",
             f"{n_pages} pages; bench tau {bench.get('tau')}. Each variant is `{full}` with one "
             "thing switched off. Δ = variant − full: Δ missed crit > 0 and Δ ink leak > 0 mean "
             "switching it off leaks more (it helps); Δ collateral < 0 means it costs collateral.",
             "",
             "| variant | switches off | F1_loc (@0.5) | DocLeak_crit (@0.5) | DocLeak_ink_crit "
             "| collateral | missed crit | Δ missed crit | Δ DocLeak_ink_crit | Δ collateral |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append("| " + " | ".join([
            r["variant"], what.get(r["variant"], ""),
            f"{_f(r['f1_loc'])} ({_f(r['f1_loc_05'])})",
            f"{_f(r['docleak_crit'], 2)} ({_f(r['docleak_crit_05'], 2)})",
            _f(r["docleak_ink_crit"], 2), _f(r["collateral"]), _f(r["missed_crit"]),
            _f(r["d_missed_crit"], signed=True), _f(r["d_docleak_ink_crit"], 2, signed=True),
            _f(r["d_collateral"], signed=True)]) + " |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- the run
def _bench_has_split() -> bool:
    out = subprocess.run([sys.executable, "-m", "redactor", "bench", "--help"],
                         capture_output=True, text=True)
    return "--split" in out.stdout


def run_ablation(pages: Path, out_dir: Path, variants: list[Variant], workers: int = 2,
                 split: str | None = None, cache_dir: Path | None = None,
                 limit: int | None = None) -> str:
    """Configs, one bench run, the table (also written to OUT/ablation.md)."""
    cfg_dir = out_dir / "configs"
    cfg_dir.mkdir(parents=True, exist_ok=True)
    systems = []
    for v in variants:
        path = cfg_dir / f"{v.name}.toml"
        path.write_text(f"# ablation variant {v.name}: off = {v.what}\n"
                        + to_toml(variant_config(v)), encoding="utf-8")
        systems += ["--system", f"{v.name}={path}"]
    cmd = [sys.executable, "-m", "redactor", "bench", "--pages", str(pages), *systems,
           "--out", str(out_dir), "--workers", str(workers),
           "--ocr-cache", str(cache_dir or out_dir / "ocr-cache")]
    if split:
        cmd += ["--split", split]
    if limit:
        cmd += ["--limit", str(limit)]
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise SystemExit(f"ablation: redactor bench failed on {pages} (exit {proc.returncode})")
    bench = json.loads((out_dir / "bench.json").read_text())
    md = ablation_markdown(bench, title=str(pages),
                           what={v.name: v.what for v in variants})
    (out_dir / "ablation.md").write_text(md, encoding="utf-8")
    return md


def parse_variants(text: str | None) -> list[Variant]:
    if not text:
        return list(VARIANTS.values())
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise SystemExit(f"ablation: unknown variant(s) {', '.join(unknown)} "
                         f"(known: {', '.join(VARIANTS)})")
    # the full system is the reference of every row: always run, always first
    return [VARIANTS[FULL]] + [VARIANTS[n] for n in dict.fromkeys(names) if n != FULL]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m redactor_eval.benchmarks.ablation",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", action="append", required=True, metavar="PAGES_JSONL")
    ap.add_argument("--out", required=True, metavar="DIR")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--split", metavar="NAME", help="passed to redactor bench (dev, heldout)")
    ap.add_argument("--variants", metavar="A,B,...",
                    help="variants to run (full is always run); default all: "
                         + ", ".join(VARIANTS))
    ap.add_argument("--ocr-cache", metavar="DIR", help="default: OUT/ocr-cache (shared by all pages files)")
    ap.add_argument("--limit", type=int, help="only the first N pages of each file")
    args = ap.parse_args(argv)
    variants = parse_variants(args.variants)
    if args.split and not _bench_has_split():
        raise SystemExit("ablation: this redactor bench has no --split option")
    out = Path(args.out)
    cache = Path(args.ocr_cache) if args.ocr_cache else out / "ocr-cache"
    pages_files = [Path(p) for p in args.pages]
    names: list[str] = []
    for p in pages_files:
        name = p.parent.name or p.stem
        while name in names:
            name += "_"
        names.append(name)
    parts = []
    for p, name in zip(pages_files, names):
        sub = out / name if len(pages_files) > 1 else out
        print(f"ablation: {len(variants)} variants on {p} -> {sub}", file=sys.stderr)
        md = run_ablation(p, sub, variants, workers=args.workers, split=args.split,
                          cache_dir=cache, limit=args.limit)
        print(md)
        parts.append(md)
    if len(pages_files) > 1:
        (out / "ablation.md").write_text("\n".join(parts), encoding="utf-8")
    print(f"written: {out / 'ablation.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
