"""``redactor synth``: generate a synthetic challenge set (pages.jsonl + images/) with exact
gold boxes, in the contract's dataset format."""
from __future__ import annotations

import argparse
from pathlib import Path

from redactor.commands._common import add_workers_option, check_workers
from redactor.errors import InputError

DESCRIPTION = ("Generate a synthetic challenge set: page images (letters, forms, invoices, "
               "receipts, ... at scan resolutions, some degraded like scans) and pages.jsonl "
               "with exact gold boxes, in the evaluation contract's dataset format.")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "synth",
        help="generate a synthetic challenge set with exact gold boxes",
        description=DESCRIPTION,
    )
    p.add_argument(
        "--out", required=True, type=Path, help="new (or empty) folder to write pages.jsonl and images/ into"
    )
    p.add_argument("--n", type=int, default=500, help="number of pages (default 500)")
    p.add_argument(
        "--seed", type=int, default=0, help="random seed; same seed and --n give identical bytes (default 0)"
    )
    p.add_argument(
        "--dpi-range",
        nargs=2,
        type=int,
        default=(150, 300),
        metavar=("LOW", "HIGH"),
        help="page resolution range; common scan resolutions inside it are used (default 150 300)",
    )
    p.add_argument(
        "--degrade",
        type=float,
        default=1.0,
        metavar="SCALE",
        help="scale the share of scan-degraded pages (0 = all clean, default 1 = about 45%%)",
    )
    p.add_argument(
        "--max-angle", type=float, default=2.0, help="largest skew of a degraded page in degrees (default 2)"
    )
    p.add_argument("--png-only", action="store_true", help="store degraded pages as PNG instead of JPEG")
    p.add_argument("--page-types", default="", metavar="KIND[,KIND]",
                   help="comma-separated page kinds to keep, e.g. letter,receipt (default: the "
                        "full mix; --types means PII types in the other commands)")
    add_workers_option(p, "worker processes (the output does not depend on it)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from redactor_eval.synth.dataset import SynthOptions, write_dataset
    from redactor_eval.synth.fonts import missing_fonts

    missing = missing_fonts()
    if missing:
        raise InputError(
            f"fonts missing: {missing[0]} (+{len(missing) - 1} more); install fonts-dejavu-core "
            f"fonts-liberation fonts-freefont-ttf fonts-urw-base35"
        )
    check_workers(args.workers)
    types = tuple(t.strip() for t in args.page_types.split(",") if t.strip()) or None
    opts = SynthOptions(
        seed=args.seed,
        dpi_range=tuple(args.dpi_range),
        degrade_scale=args.degrade,
        max_angle=args.max_angle,
        jpeg_degraded=not args.png_only,
        page_types=types,
    )
    path = write_dataset(args.out, args.n, opts, workers=args.workers, progress=not args.no_progress)
    print(path)
    return 0
