"""``redactor bench``: several systems on the same pages, scored by the shared evaluator,
in one table (``bench.md``, ``bench.json``)."""
from __future__ import annotations

import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser("bench", help="run several systems on a dataset and compare them",
                       description="Each --system is OCR+DETECTOR[+DETECTOR...] (e.g. "
                                   "tesseract+presidio) or an OCR-free system (e.g. "
                                   "peer-presidio-image). OCR runs once per page for all systems.")
    p.add_argument("--pages", required=True, metavar="PAGES_JSONL")
    p.add_argument("--system", dest="systems", action="append", required=True, metavar="SPEC")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--tau", type=float, default=0.75)
    p.add_argument("--limit", type=int, help="only the first N pages")
    p.add_argument("--split", metavar="NAME",
                   help="only the pages of this split (dev, heldout; default: all)")
    p.add_argument("--ocr-cache", metavar="DIR", help="default: OUT/ocr-cache")
    p.set_defaults(func=run)


def run(args) -> int:
    from redactor.bench import run_bench

    result = run_bench(Path(args.pages), args.systems, Path(args.out), workers=args.workers,
                       tau=args.tau, limit=args.limit, split=args.split,
                       cache_dir=Path(args.ocr_cache) if args.ocr_cache else None,
                       log=lambda m: print(m, file=sys.stderr))
    print(result["markdown"])
    print(f"written: {Path(args.out) / 'bench.md'}, {Path(args.out) / 'bench.json'}")
    return 0
