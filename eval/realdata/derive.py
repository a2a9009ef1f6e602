"""Writes ``eval/data/real/pages.jsonl`` from the checked specs (``--check``: only compare,
exit 1 when the committed file is stale). The gold is never edited by hand."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from redactor_eval.realdata.spec import derive_pages
from redactor.errors import InputError

DATA = Path(__file__).resolve().parents[1] / "data" / "real"


def pages_jsonl(spec_dir: Path) -> str:
    return "".join(json.dumps(rec, ensure_ascii=False) + "\n" for rec in derive_pages(spec_dir))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--check", action="store_true", help="compare with the committed file only")
    args = ap.parse_args(argv)
    target = args.data / "pages.jsonl"
    try:
        text = pages_jsonl(args.data / "spec")
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{target} is stale: run python -m redactor_eval.realdata.derive", file=sys.stderr)
            return 1
        return 0
    tmp = target.with_name(target.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
    print(f"{target}: {text.count(chr(10))} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
