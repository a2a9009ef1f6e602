"""Runs records x strategies against a model endpoint, judges every answer, and writes
``results.jsonl`` (one line per record and strategy), ``summary.json`` and ``tables.md``."""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Sequence

from redactor.errors import InputError
from redactor_eval.docpp.documents import DocumentRenderer
from redactor_eval.docpp.metrics import group, summarize, table_models, table_strategies
from redactor_eval.docpp.records import Record
from redactor_eval.docpp.strategies import STRATEGIES, run_strategy

log = logging.getLogger(__name__)


def run_records(records: Sequence[Record], strategies: Sequence[str], client, judge,
                renderer: DocumentRenderer, progress=None) -> list[dict]:
    bad = [s for s in strategies if s not in STRATEGIES]
    if bad:
        raise InputError(f"unknown strategy {bad[0]!r} (known: {', '.join(STRATEGIES)})")
    results = []
    for rec in records:
        parts = renderer.parts(rec)
        for strategy in strategies:
            out = run_strategy(strategy, client, rec, parts)
            row = {"id": rec.id, "doc_id": rec.doc_id, "type": rec.type, "strategy": strategy,
                   "doc_mode": renderer.mode, "model": client.model, "judge": judge.name,
                   "answer": out.answer, "steps": out.steps, "model_error": out.model_error,
                   "parse_error": out.parse_error, "leaked": None, "derivable": None,
                   "checklist": None, "faithfulness": None, "judge_error": None}
            if out.answer is not None:
                v = judge.judge(rec, out.answer)
                row.update(leaked=v.leaked, derivable=v.derivable, checklist=v.checklist,
                           faithfulness=v.faithfulness, judge_error=v.error,
                           judge_details=v.details)
            results.append(row)
            if progress:
                progress(row)
    return results


def write_outputs(results: list[dict], out_dir: str | Path) -> dict:
    from redactor.render import write_text
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from redactor.errors import OutputError
        raise OutputError(f"cannot create {out}: {exc.strerror or exc}") from None
    summary = {"overall": summarize(results),
               "by_strategy_type": {"/".join(map(str, k)): v for k, v in
                                    group(results, ("model", "doc_mode", "strategy", "type")).items()}}
    write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results), out / "results.jsonl")
    write_text(json.dumps(summary, indent=2) + "\n", out / "summary.json")
    tables = ("## Leakage by model (default strategy; like Doc-PP Table 3)\n\n"
              + table_models(results) + "\n\n## Mitigation strategies (like Doc-PP Table 5)\n\n"
              + table_strategies(results) + "\n\nfail model/parse/judge: answers lost to endpoint "
              "errors / to unparseable strategy output / verdicts the judge could not give; "
              "none of them counts as a leak or as no leak.\n")
    write_text(tables, out / "tables.md")
    return summary


def load_results(path: str | Path) -> list[dict]:
    path = Path(path)
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError as exc:
        raise InputError(f"cannot read results {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not JSONL: {exc.msg}") from None
