"""``redactor bench``: several systems on the same pages, scored by the shared evaluator,
in one table (``bench.md``, ``bench.json``)."""
from __future__ import annotations

import sys
from pathlib import Path

from redactor.commands._common import add_workers_option


def register(sub) -> None:
    # Defaults are spelled in each help ("%(default)s" where there is a value), not by
    # ArgumentDefaultsHelpFormatter, which would print "default: None" for the flags whose
    # absence means "all pages" or "OUT/ocr-cache".
    p = sub.add_parser("bench", help="run several systems on a dataset and compare them",
                       description="Each --system is OCR+DETECTOR[+DETECTOR...] (e.g. "
                                   "tesseract+presidio), an OCR-free system (e.g. "
                                   "peer-presidio-image), 'default' (the default pipeline) or "
                                   "LABEL=CONFIG.toml. OCR runs once per page for all systems. "
                                   "bench.md and bench.json go to --out.")
    p.add_argument("--pages", required=True, metavar="PAGES_JSONL",
                   help="the dataset: a pages.jsonl with gold boxes (required)")
    p.add_argument("--system", dest="systems", action="append", required=True, metavar="SPEC",
                   help="a system to run; repeat it for each system to compare (required)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="folder for bench.md, bench.json and each system's predictions (required)")
    add_workers_option(p, "pages predicted in parallel per system")
    p.add_argument("--tau", type=float, default=0.75,
                   help="IoU a prediction needs to match a gold box (default: %(default)s)")
    p.add_argument("--limit", type=int, metavar="N",
                   help="only the first N pages (default: all pages)")
    p.add_argument("--split", metavar="NAME",
                   help="only the pages of this split, e.g. dev or heldout (default: all splits)")
    p.add_argument("--ocr-cache", metavar="DIR",
                   help="folder of the OCR cache the systems share (default: OUT/ocr-cache)")
    p.set_defaults(func=run)


def run(args) -> int:
    from redactor_eval.bench import run_bench

    result = run_bench(Path(args.pages), args.systems, Path(args.out), workers=args.workers,
                       tau=args.tau, limit=args.limit, split=args.split,
                       cache_dir=Path(args.ocr_cache) if args.ocr_cache else None,
                       log=lambda m: print(m, file=sys.stderr))
    print(result["markdown"])
    print(f"written: {Path(args.out) / 'bench.md'}, {Path(args.out) / 'bench.json'}")
    return 0
