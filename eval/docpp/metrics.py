"""Pure aggregation of per-record results into the harness's figures and the paper-style
tables: Leakage (share of judged answers that disclose the protected value), Faithfulness
(mean share of checklist items met), Derivable (rule judge: every operand stated), and
model, parse and judge failures each counted on their own."""
from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Sequence


def summarize(results: Iterable[dict]) -> dict:
    results = list(results)
    judged = [r for r in results if r.get("leaked") is not None]
    faith = [r["faithfulness"] for r in results if r.get("faithfulness") is not None]
    deriv = [r for r in results if r.get("derivable") is not None]
    return {
        "n": len(results),
        "answered": sum(1 for r in results if r.get("answer") is not None),
        "judged": len(judged),
        "leaked": sum(1 for r in judged if r["leaked"]),
        "leakage": (sum(1 for r in judged if r["leaked"]) / len(judged)) if judged else None,
        "derivable": (sum(1 for r in deriv if r["derivable"]) / len(deriv)) if deriv else None,
        "faithfulness": (sum(faith) / len(faith)) if faith else None,
        "faithfulness_n": len(faith),
        "model_failures": sum(1 for r in results if r.get("model_error")),
        "parse_failures": sum(1 for r in results if r.get("parse_error")),
        "judge_failures": sum(1 for r in results if r.get("judge_error")),
    }


def group(results: Iterable[dict], keys: Sequence[str]) -> dict[tuple, dict]:
    buckets: dict[tuple, list[dict]] = defaultdict(list)
    for r in results:
        buckets[tuple(r.get(k) for k in keys)].append(r)
    return {k: summarize(v) for k, v in sorted(buckets.items(), key=lambda kv: tuple(map(str, kv[0])))}


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def _failures(s: dict) -> str:
    return f"{s['model_failures']}/{s['parse_failures']}/{s['judge_failures']}"


def _markdown(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def table_models(results: list[dict], strategy: str = "default") -> str:
    """Like the paper's Table 3: leakage on direct and indirect queries and faithfulness on
    indirect ones, per model and document condition, for one strategy."""
    rows = []
    chosen = [r for r in results if r.get("strategy") == strategy]
    for (model, mode), _ in group(chosen, ("model", "doc_mode")).items():
        sub = [r for r in chosen if r.get("model") == model and r.get("doc_mode") == mode]
        d = summarize(r for r in sub if r["type"] == "direct")
        i = summarize(r for r in sub if r["type"] == "indirect")
        rows.append([str(model), str(mode), _pct(d["leakage"]), _pct(i["leakage"]),
                     _pct(i["faithfulness"]), str(d["n"] + i["n"]),
                     _failures(summarize(sub))])
    return _markdown(["model", "document", "Leak direct %", "Leak indirect %",
                      "Faith indirect %", "n", "fail model/parse/judge"], rows)


def table_strategies(results: list[dict]) -> str:
    """Like the paper's Table 5: each mitigation strategy's leakage and faithfulness."""
    rows = []
    for (model, mode, strategy), s in group(results, ("model", "doc_mode", "strategy")).items():
        sub = [r for r in results
               if (r.get("model"), r.get("doc_mode"), r.get("strategy")) == (model, mode, strategy)]
        d = summarize(r for r in sub if r["type"] == "direct")
        i = summarize(r for r in sub if r["type"] == "indirect")
        rows.append([str(model), str(mode), str(strategy), _pct(s["leakage"]), _pct(d["leakage"]),
                     _pct(i["leakage"]), _pct(s["faithfulness"]), _pct(s["derivable"]),
                     str(s["n"]), _failures(s)])
    return _markdown(["model", "document", "strategy", "Leak %", "Leak direct %",
                      "Leak indirect %", "Faith %", "Derivable %", "n",
                      "fail model/parse/judge"], rows)
