"""Precision, recall and clean-kept of the value leak checker on its two golden tables
(each row: a protected value, a text, whether the text discloses it, and for derivation
rows whether every operand is stated):

- eval/data/policy/checker_golden.jsonl: the project's own table;
- eval/data/policy/checker_golden_2.jsonl: written independently, before the checker's
  grammar of units, number words, counts and scales (issue 34), with traps of the same
  digits in another dimension.

"clean kept" is the share of non-leaking texts the checker lets through (TN / (TN + FP)):
what a guard does not remove needlessly.

Run: python -m redactor_eval.benchmarks.bench_policy_checker
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from redactor.policy.checker import check
from redactor.policy.model import Policy, policy_from_dict

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "policy" / "checker_golden.jsonl"
GOLDEN_2 = GOLDEN.with_name("checker_golden_2.jsonl")
TABLES = (GOLDEN, GOLDEN_2)


@dataclass(frozen=True)
class GoldenRow:
    policy: Policy
    text: str
    leaked: bool
    derivable: bool | None
    note: str
    known_miss: bool


def load_golden(path: Path = GOLDEN) -> list[GoldenRow]:
    rows = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        d = json.loads(line)
        spec = {"id": f"row-{i + 1}", "target": "protected value", "values": [d["value"]],
                "derivations": d.get("derivations"), "tolerance": d.get("tolerance", 0.0),
                "rates": d.get("rates")}
        rows.append(GoldenRow(policy_from_dict(spec, i), d["text"], bool(d["leaked"]),
                              d.get("derivable"), d.get("note", ""), bool(d.get("known_miss"))))
    return rows


def confusion(pairs) -> dict:
    tp = sum(1 for g, p in pairs if g and p)
    fp = sum(1 for g, p in pairs if not g and p)
    fn = sum(1 for g, p in pairs if g and not p)
    tn = sum(1 for g, p in pairs if not g and not p)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    clean_kept = tn / (tn + fp) if tn + fp else 1.0
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "precision": precision, "recall": recall,
            "clean_kept": clean_kept}


def evaluate(rows: list[GoldenRow]) -> dict:
    leak_pairs, deriv_pairs, errors = [], [], []
    for row in rows:
        res = check(row.policy, row.text)
        leak_pairs.append((row.leaked, res.leaked))
        if row.derivable is not None:
            deriv_pairs.append((row.derivable, res.derivable))
        if res.leaked != row.leaked or (row.derivable is not None and res.derivable != row.derivable):
            errors.append((row, res))
    return {"leaked": confusion(leak_pairs), "derivable": confusion(deriv_pairs), "errors": errors}


def report(path: Path) -> None:
    rows = load_golden(path)
    t0 = time.perf_counter()
    out = evaluate(rows)
    dt = time.perf_counter() - t0
    print(f"policy value checker on {len(rows)} golden rows ({path.name})")
    print(f"{'task':<10} {'TP':>4} {'FP':>4} {'FN':>4} {'TN':>4} {'precision':>10} {'recall':>8} "
          f"{'clean kept':>11}")
    for task in ("leaked", "derivable"):
        c = out[task]
        if not c["tp"] + c["fp"] + c["fn"] + c["tn"]:
            continue
        print(f"{task:<10} {c['tp']:>4} {c['fp']:>4} {c['fn']:>4} {c['tn']:>4} "
              f"{c['precision']:>10.3f} {c['recall']:>8.3f} {c['clean_kept']:>11.3f}")
    print(f"errors: {len(out['errors'])} "
          f"({sum(r.known_miss for r, _ in out['errors'])} listed as known misses)")
    for row, res in out["errors"]:
        print(f"  - {row.note}: value {row.policy.values[0].raw!r} text {row.text!r} "
              f"gold leaked={row.leaked} got {res.leaked}")
    print(f"time: {dt * 1000 / max(1, len(rows)):.2f} ms per check")


def main() -> None:
    for i, path in enumerate(TABLES):
        if i:
            print()
        report(path)


if __name__ == "__main__":
    main()
