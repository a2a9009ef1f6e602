"""Precision and recall of the value leak checker on its golden table
(eval/data/policy/checker_golden.jsonl: a protected value, a text, whether the text
discloses it, and for derivation rows whether every operand is stated).

Run: python -m eval.benchmarks.bench_policy_checker
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from redactor.policy.checker import check
from redactor.policy.model import Policy, policy_from_dict

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "policy" / "checker_golden.jsonl"


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
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "precision": precision, "recall": recall}


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


def main() -> None:
    rows = load_golden()
    t0 = time.perf_counter()
    out = evaluate(rows)
    dt = time.perf_counter() - t0
    print(f"policy value checker on {len(rows)} golden rows ({GOLDEN.name})")
    print(f"{'task':<10} {'TP':>4} {'FP':>4} {'FN':>4} {'TN':>4} {'precision':>10} {'recall':>8}")
    for task in ("leaked", "derivable"):
        c = out[task]
        print(f"{task:<10} {c['tp']:>4} {c['fp']:>4} {c['fn']:>4} {c['tn']:>4} "
              f"{c['precision']:>10.3f} {c['recall']:>8.3f}")
    print(f"errors: {len(out['errors'])} "
          f"({sum(r.known_miss for r, _ in out['errors'])} listed as known misses)")
    for row, res in out["errors"]:
        print(f"  - {row.note}: value {row.policy.values[0].raw!r} text {row.text!r} "
              f"gold leaked={row.leaked} got {res.leaked}")
    print(f"time: {dt * 1000 / max(1, len(rows)):.2f} ms per check")


if __name__ == "__main__":
    main()
