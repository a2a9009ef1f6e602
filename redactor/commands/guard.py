"""``redactor guard``: remove from a text answer the claims that disclose a value protected
by a non-disclosure policy (and, by default, claims that would let a reader compute it from
declared operands). Model-free: the value checker decides."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from redactor.errors import InputError


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "guard", help="remove the claims of a text answer that disclose policy-protected values",
        description="Split a text answer into claims (sentences, clauses, list items) and drop "
                    "every claim that states a protected value in any common form (exact, "
                    "rounded within the shown precision, converted), then drop operand claims "
                    "until no declared derivation of a protected value is complete.")
    p.add_argument("--policy", required=True, metavar="P.yaml", help="policy file (YAML or JSON)")
    p.add_argument("--answer", required=True, metavar="FILE", help="the answer text ('-' for stdin)")
    p.add_argument("--out", metavar="FILE", help="write the guarded answer here (default: stdout)")
    p.add_argument("--keep-derivable", action="store_true",
                   help="keep operand claims even when together they let the value be computed")
    p.add_argument("--placeholder", default="",
                   help="text to output when every claim had to go (default: empty)")
    p.add_argument("--report", metavar="OUT.json",
                   help="write what was removed and why as JSON")
    p.set_defaults(func=run)


def _read_answer(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read answer {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"answer {path} is not UTF-8 text") from None


def run(args) -> int:
    from redactor.policy.guard import guard_text
    from redactor.policy.model import load_policies
    from redactor.render import write_text

    policies = load_policies(args.policy)
    answer = _read_answer(args.answer)
    result = guard_text(policies, answer, break_derivations=not args.keep_derivable,
                        placeholder=args.placeholder)
    out = result.text + ("\n" if result.text else "")
    if args.report:
        report = {"removed": [c.text for c in result.removed], "kept": len(result.kept),
                  "before": result.before.to_json(), "after": result.after.to_json()}
        write_text(json.dumps(report, indent=2) + "\n", Path(args.report))
    if args.out:
        write_text(out, Path(args.out))
    else:
        sys.stdout.write(out)
    print(f"guard: removed {len(result.removed)} of {len(result.removed) + len(result.kept)} claims"
          + (f" (leaked: {', '.join(result.before.leaked_policies)})" if result.before.leaked else ""),
          file=sys.stderr)
    return 0
