"""``redactor batch``: redact a whole folder tree of images and PDFs into a mirrored tree,
resumably, on a local process pool or on Ray."""
from __future__ import annotations

import signal
import sys
from pathlib import Path

from redactor.commands._common import add_burn_options, add_workers_option
from redactor.commands.redact import add_audit_option, add_pipeline_options, config_from_args
from redactor.errors import EXIT_PARTIAL


def register(sub) -> None:
    p = sub.add_parser(
        "batch", help="redact a folder tree of images and PDFs, resumably",
        description="Redact every image and PDF under SRC_DIR (recursively) into DST_DIR, "
                    "mirroring the folder tree: <stem>.redacted.png (PDF in: .pdf, TIFF in: .tif) and "
                    "<stem>.boxes.jsonl. A SQLite manifest records every input, so a re-run "
                    "skips what is done, retries what failed and redoes what changed; a run "
                    "can be killed at any moment and re-run.")
    p.add_argument("src", metavar="SRC_DIR", help="folder of inputs")
    p.add_argument("--out", required=True, metavar="DST_DIR", help="output folder")
    add_workers_option(p, "worker processes or Ray actors")
    p.add_argument("--manifest", metavar="FILE",
                   help="SQLite manifest (default: DST_DIR/.redactor-manifest.sqlite)")
    p.add_argument("--executor", choices=["local", "ray"], default="local",
                   help="local process pool (default) or Ray (needs the [ray] extra)")
    p.add_argument("--ray-address", metavar="ADDR",
                   help="existing Ray cluster (e.g. ray://head:10001 or auto); default: start "
                        "a local Ray instance")
    p.add_argument("--retry-quarantined", action="store_true",
                   help="also retry inputs quarantined by an earlier run")
    p.add_argument("--rehash", action="store_true",
                   help="hash every done input to notice changes that kept size and mtime")
    p.add_argument("--no-progress", dest="progress", action="store_false", default=None,
                   help="no progress bar (default: a bar when stderr is a terminal)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace files in DST_DIR that this batch did not write (default: such an "
                        "input fails and the file is left alone)")
    add_burn_options(p)
    add_audit_option(p)
    add_pipeline_options(p)
    p.set_defaults(func=run)


def _stop_on_sigterm(signum, frame):
    # `kill` and service managers send SIGTERM: stop like Ctrl-C, in order.
    raise KeyboardInterrupt


def run(args) -> int:
    from redactor.batch.run import BatchOptions, format_summary, run_batch

    config = config_from_args(args)
    opts = BatchOptions(src=Path(args.src), dst=Path(args.out),
                        manifest=Path(args.manifest) if args.manifest else None,
                        workers=args.workers, executor=args.executor,
                        ray_address=args.ray_address, retry_quarantined=args.retry_quarantined,
                        rehash=args.rehash, progress=args.progress,
                        audit=Path(args.audit) if args.audit else None, overwrite=args.overwrite)
    previous = signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        summary = run_batch(config, opts)
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(format_summary(summary, opts.manifest_path, opts.dst), file=sys.stdout)
    if summary.interrupted:
        print("redactor: interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    if not summary.ok:
        return EXIT_PARTIAL
    return 0
