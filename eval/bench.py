"""Runs several systems on the same pages and puts their scores side by side.

Each system runs ``redactor predict`` in its own process (so its peak memory is its own),
sharing one OCR cache: the OCR runs once and every detector sees the same word boxes, as in
the LeakageBench protocol. Throughput counts OCR time even when the words came from the
cache (the cache stores how long the OCR took), so systems compare fairly.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from redactor import registry
from redactor.errors import InputError, PluginFailed


@dataclass(frozen=True)
class SystemSpec:
    label: str
    ocr: str | None
    detectors: tuple[str, ...]
    ocr_free: str | None
    config_file: Path | None = None     # a TOML config: the system with its options
    is_default: bool = False            # the default pipeline, with its tuned options

    def predict_args(self) -> list[str]:
        if self.is_default:
            return []
        if self.config_file:
            return ["--config", str(self.config_file)]
        if self.ocr_free:
            return ["--ocr-free", self.ocr_free]
        args = ["--ocr", self.ocr]
        for d in self.detectors:
            args += ["--detector", d]
        return args

    def to_json(self) -> dict:
        return {"ocr": self.ocr, "detectors": list(self.detectors), "ocr_free": self.ocr_free,
                "config": str(self.config_file) if self.config_file else None,
                "default": self.is_default}

    def describe(self) -> str:
        """What runs, for the reader of bench.md: OCR and detectors, or the OCR-free system."""
        what = (f"OCR-free system {self.ocr_free}" if self.ocr_free else
                f"OCR {self.ocr}; detectors {', '.join(self.detectors) or 'none'}")
        if self.config_file:
            what += f"; options from {self.config_file}"
        if self.is_default:
            what += "; the default pipeline with its tuned options"
        return what

    def emits(self) -> frozenset[str]:
        if self.ocr_free:
            return registry.emits_of("ocr_free", self.ocr_free)
        out: set[str] = set()
        for d in self.detectors:
            out |= registry.emits_of("detector", d)
        return frozenset(out)


def parse_system(spec: str) -> SystemSpec:
    """``OCR+DETECTOR[+DETECTOR...]``, the name of an OCR-free system, ``default`` (the
    default pipeline), or ``LABEL=CONFIG.toml`` (a system with options, from a config file)."""
    spec = spec.strip()
    if spec == "default":
        from redactor.config import RedactorConfig
        cfg = RedactorConfig()
        return SystemSpec("default (" + "+".join([cfg.ocr, *cfg.detectors]) + ")", cfg.ocr,
                          tuple(cfg.detectors), None, is_default=True)
    label, eq, file = spec.partition("=")
    if eq:
        from redactor.config import load_config
        path = Path(file)
        cfg = load_config(path)
        return SystemSpec(label, None if cfg.ocr_free else cfg.ocr,
                          () if cfg.ocr_free else tuple(cfg.detectors), cfg.ocr_free, path)
    if spec in registry.names("ocr_free"):
        return SystemSpec(spec, None, (), spec)
    parts = [p for p in spec.split("+") if p]
    if len(parts) < 2:
        raise InputError(f"system {spec!r}: expected OCR+DETECTOR[+DETECTOR...] or an OCR-free "
                         f"system ({', '.join(registry.names('ocr_free'))})")
    ocr, dets = parts[0], tuple(parts[1:])
    if ocr not in registry.names("ocr"):
        raise InputError(f"system {spec!r}: unknown OCR backend {ocr!r} "
                         f"(known: {', '.join(registry.names('ocr'))})")
    for d in dets:
        if d not in registry.names("detector"):
            raise InputError(f"system {spec!r}: unknown detector {d!r} "
                             f"(known: {', '.join(registry.names('detector'))})")
    return SystemSpec(spec, ocr, dets, None)


def run_system(spec: SystemSpec, pages: Path, out_dir: Path, cache_dir: Path, workers: int,
               limit: int | None, extra_args: list[str], split: str | None = None) -> dict:
    """Predict with one system in a child process; return its throughput and memory."""
    sys_dir = out_dir / "".join(c if c.isalnum() or c in "+-_." else "_" for c in spec.label)
    sys_dir.mkdir(parents=True, exist_ok=True)
    preds = sys_dir / "preds.jsonl"
    stats_file = sys_dir / "predict-stats.json"
    cmd = [sys.executable, "-m", "redactor", "predict", "--pages", str(pages), "--out", str(preds),
           "--ocr-cache", str(cache_dir), "--workers", str(workers), "--stats", str(stats_file),
           *spec.predict_args(), *extra_args]
    if limit:
        cmd += ["--limit", str(limit)]
    if split:
        cmd += ["--split", split]
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, err_b = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 7):
        msg = err_b.decode("utf-8", "replace").strip().splitlines()
        raise PluginFailed(f"system {spec.label}: predict failed: {msg[-1] if msg else proc.returncode}")
    stats = json.loads(stats_file.read_text())
    return {"preds": preds, "ocr_words": Path(stats["ocr_words"]), "wall_seconds": wall,
            "pages": stats["pages"], "errors": stats["errors"], "page_seconds": stats["page_seconds"],
            "peak_rss_mb": stats.get("peak_rss_mb")}


def score_system(spec: SystemSpec, pages_file: Path, run: dict, tau: float) -> dict:
    from redactor_eval.api import evaluate
    from redactor_eval.dataset import load_dataset, select_split
    from redactor_eval.predictions import load_ocr_words, load_predictions

    gold = select_split(load_dataset(pages_file), run.get("split"))
    if run.get("limit"):
        gold = gold[: run["limit"]]
    preds = load_predictions(run["preds"])
    words = None if spec.ocr_free else load_ocr_words(run["ocr_words"])
    result = evaluate(gold, preds, tau=tau, ocr_words=words, ink=True, emits=spec.emits())
    metrics = result.to_json()
    n = run["pages"]
    metrics["throughput"] = {
        "pages": n, "errors": run["errors"], "wall_seconds": run["wall_seconds"],
        "pages_per_second": n / run["page_seconds"] if run["page_seconds"] else None,
        "pages_per_second_wall": n / run["wall_seconds"] if run["wall_seconds"] else None,
        "peak_rss_mb": run["peak_rss_mb"]}
    return metrics


def _readable_share(m: dict) -> float | None:
    """Share of critical values (with a value) whose text the OCR words in their box hold:
    the ceiling of any detector on that OCR (None for OCR-free systems)."""
    r = m.get("ocr_recoverability") or {}
    share = r.get("share_not_in_ocr")
    return None if share is None else 1.0 - share


def _fmt(v, digits=3) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def _header(rows: list[tuple[str, dict]], pages_file: Path, split: str | None,
            specs: dict[str, SystemSpec] | None, limit: int | None) -> list[str]:
    """What ran, before any number: the pages (how many, from where) and each system with
    its OCR and detectors, so that a table read alone says what it compares."""
    n_pages = rows[0][1]["counts"]["pages"] if rows else 0
    scope = [f"split {split}" if split and split != "all" else "all splits"]
    if limit:
        scope.append(f"first {limit} pages")
    lines = [f"# Bench: {pages_file}" + (f" (split {split})" if split and split != "all" else ""),
             "", f"- pages: {n_pages} scored, from `{pages_file}` ({', '.join(scope)})",
             f"- systems ({len(rows)}):"]
    for label, m in rows:
        spec = (specs or {}).get(label)
        t = m.get("throughput") or {}
        ran = f"predicted {t['pages']} page(s), {t['errors']} failed" if "pages" in t else ""
        lines.append(f"  - {label}: " + "; ".join(x for x in (spec.describe() if spec else "", ran) if x))
    return lines


def bench_markdown(rows: list[tuple[str, dict]], pages_file: Path, tau: float,
                   split: str | None = None, specs: dict[str, SystemSpec] | None = None,
                   limit: int | None = None) -> str:
    lines = _header(rows, pages_file, split, specs, limit)
    lines += ["", f"tau = {tau}; DocLeak = share of pages with at least one missed identifier "
              f"(lower is better); ink = what a reader can still see; collateral = ink destroyed "
              f"outside gold boxes.", "",
              "| system | F1_loc | F1_type | DocLeak_all | DocLeak_crit | DocLeak_crit@0.5 | "
              "DocLeak_ink_crit | collateral | Valid | missed crit (total) | missed crit / leaking page "
              "| crit readable in OCR | pages/s | peak MB |",
              "|---|" + "---:|" * 13]
    for label, m in rows:
        t = m["throughput"]
        lines.append("| " + " | ".join([
            label, _fmt(m["f1_loc"]), _fmt(m["f1_type"]), _fmt(m["docleak_all"]),
            _fmt(m["docleak_crit"]), _fmt(m["per_tau"]["0.5"]["docleak_crit"]),
            _fmt(m.get("docleak_ink_crit")), _fmt(m.get("collateral")), _fmt(m["valid"]),
            _fmt(m["attribution"]["missed_critical"]), _fmt(m["missed_crit"]["mean"], 2),
            _fmt(_readable_share(m)), _fmt(t["pages_per_second"], 2), _fmt(t["peak_rss_mb"], 0)]) + " |")
    lines += ["", "## Failure attribution of missed critical identifiers", ""]
    causes: list[str] = []
    for _, m in rows:
        for c in m["attribution"]["counts"]:
            if c not in causes:
                causes.append(c)
    lines.append("| system | " + " | ".join(causes) + " |")
    lines.append("|---|" + "---:|" * len(causes))
    for label, m in rows:
        counts = m["attribution"]["counts"]
        lines.append(f"| {label} | " + " | ".join(_fmt(counts.get(c)) for c in causes) + " |")
    lines += per_type_markdown(rows)
    groups = ["direct", "linkage", "contextual", "other", "critical"]
    lines += ["", "## Type coverage: share of gold annotations in types the system can emit", "",
              "| system | " + " | ".join(groups) + " |", "|---|" + "---:|" * len(groups)]
    for label, m in rows:
        cov = (m.get("coverage") or {}).get("type_coverage") or {}
        lines.append(f"| {label} | " + " | ".join(
            _fmt((cov.get(g) or {}).get("annotation_share")) for g in groups) + " |")
    return "\n".join(lines) + "\n"


def per_type_markdown(rows: list[tuple[str, dict]]) -> list[str]:
    """Recall per gold type at IoU 0.5 (found by location / found with the right type), and
    what the first system typed each gold type as (its confusion rows)."""
    tables = [(label, (m.get("per_type") or {}).get("0.5", {})) for label, m in rows]
    types = sorted({t for _, table in tables for t in table})
    if not types:
        return []
    lines = ["", "## Recall per type at IoU 0.5 (type ignored / typed)", "",
             "| type | gold | " + " | ".join(label for label, _ in tables) + " |",
             "|---|---:|" + "---:|" * len(tables)]
    for t in types:
        found = [table.get(t) for _, table in tables]
        cells = [f"{_fmt(r['recall_loc'], 2)} / {_fmt(r['recall_typed'], 2)}" if r else "–"
                 for r in found]
        gold = next(r["gold"] for r in found if r)
        lines.append(f"| {t} | {gold} | " + " | ".join(cells) + " |")
    label, table = tables[0]
    lines += ["", f"## Type confusion of {label} at IoU 0.5 (gold type -> predicted type, "
              f"none = not found)", "", "| gold type | predicted as |", "|---|---|"]
    for t, r in table.items():
        lines.append(f"| {t} | " + ", ".join(f"{k} {v}" for k, v in r["confusion"].items()) + " |")
    return lines


def run_bench(pages_file: Path, systems: list[str], out_dir: Path, workers: int = 1,
              tau: float = 0.75, limit: int | None = None, cache_dir: Path | None = None,
              extra_args: list[str] | None = None, log=print, split: str | None = None) -> dict:
    from redactor.render import write_text

    specs = [parse_system(s) for s in systems]
    if len({s.label for s in specs}) != len(specs):
        raise InputError("the same system is named twice")
    out_dir.mkdir(parents=True, exist_ok=True)
    cache_dir = cache_dir or out_dir / "ocr-cache"
    rows = []
    for spec in specs:
        log(f"bench: running {spec.label} ...")
        run = run_system(spec, pages_file, out_dir, cache_dir, workers, limit, extra_args or [],
                         split)
        run["limit"] = limit
        run["split"] = split
        rows.append((spec.label, score_system(spec, pages_file, run, tau)))
    report = {"pages": str(pages_file), "split": split or "all", "limit": limit, "tau": tau,
              "workers": workers, "pages_scored": rows[0][1]["counts"]["pages"] if rows else 0,
              "system_specs": {s.label: s.to_json() for s in specs},
              "systems": {label: m for label, m in rows}}
    write_text(json.dumps(report, indent=2), out_dir / "bench.json")
    md = bench_markdown(rows, pages_file, tau, split, {s.label: s for s in specs}, limit)
    write_text(md, out_dir / "bench.md")
    return {"json": report, "markdown": md}
