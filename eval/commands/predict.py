"""``redactor predict``: run one system over a dataset, write predictions and OCR words in
the contract's formats."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from redactor.commands._common import add_workers_option
from redactor.commands.redact import add_pipeline_options, config_from_args
from redactor.errors import EXIT_PARTIAL, InputError


def register(sub) -> None:
    p = sub.add_parser("predict", help="predict boxes for every page of a dataset",
                       description="Run one system over every page of a dataset: writes OUT "
                                   "(one prediction line per page, the contract's format) and, "
                                   "beside it, OUT with .ocr.jsonl (the OCR words used).")
    p.add_argument("--pages", required=True, metavar="PAGES_JSONL", help="dataset pages.jsonl")
    p.add_argument("--out", required=True, metavar="PREDS_JSONL",
                   help="prediction file to write (the OCR words go beside it)")
    p.add_argument("--ocr-cache", metavar="DIR", help="cache OCR words by page content + engine")
    add_workers_option(p)
    p.add_argument("--limit", type=int, help="only the first N pages")
    p.add_argument("--split", metavar="NAME", help="only the pages of this split (dev, heldout; default: all)")
    p.add_argument("--stats", metavar="JSON", help="write counts, timing and peak memory here")
    add_pipeline_options(p)
    p.set_defaults(func=run)


def ocr_words_path(preds: Path) -> Path:
    name = preds.name[:-len(".jsonl")] if preds.name.endswith(".jsonl") else preds.name
    return preds.with_name(name + ".ocr.jsonl")


def run_predict(config, pages_file: Path, out: Path, workers: int = 1, cache_dir=None,
                limit: int | None = None, progress: bool = True, split: str | None = None) -> dict:
    """Predict a dataset; returns counts and timing. Used by ``bench`` too."""
    from tqdm import tqdm

    from redactor_eval.dataset import load_dataset, select_split
    from redactor.pipeline import check_available
    from redactor.predict import predict_pages
    from redactor.render import atomic_output, sweep_partial_outputs

    check_available(config)
    # what a killed run left half-written beside its outputs (never a final name)
    if out.parent.is_dir():
        sweep_partial_outputs(out.parent)
    gold = select_split(load_dataset(pages_file), split)
    if limit:
        gold = gold[:limit]
    jobs = [(g.page_id, str(g.image)) for g in gold if g.image is not None]
    if len(jobs) != len(gold):
        raise InputError(f"{pages_file}: every page needs an image to predict on")
    if workers < 1:
        raise InputError("--workers must be at least 1")
    n_err = 0
    seconds = 0.0
    words_out = ocr_words_path(out)
    with atomic_output(out) as tmp_pred, atomic_output(words_out) as tmp_words:
        with open(tmp_pred, "w", encoding="utf-8") as fp, open(tmp_words, "w", encoding="utf-8") as fw:
            for res in tqdm(predict_pages(config, jobs, workers, cache_dir), total=len(jobs),
                            unit="page", file=sys.stderr, disable=not progress or None):
                fp.write(json.dumps(res.prediction) + "\n")
                if res.ocr is not None:
                    fw.write(json.dumps(res.ocr) + "\n")
                n_err += res.prediction.get("error") is not None
                seconds += res.seconds
    return {"pages": len(jobs), "errors": n_err, "page_seconds": seconds,
            "predictions": str(out), "ocr_words": str(words_out), "peak_rss_mb": peak_rss_mb()}


def peak_rss_mb() -> float:
    """Peak resident memory of this process or of its largest worker, in MB."""
    import resource

    kb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
             resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return kb / 1024.0


def run(args) -> int:
    config = config_from_args(args)
    stats = run_predict(config, Path(args.pages), Path(args.out), args.workers, args.ocr_cache, args.limit,
                        split=args.split)
    if args.stats:
        from redactor.render import write_text
        write_text(json.dumps(stats, indent=2), Path(args.stats))
    print(f"{stats['pages']} page(s) -> {stats['predictions']} ({stats['errors']} with errors); "
          f"OCR words -> {stats['ocr_words']}")
    return 0 if stats["errors"] == 0 else EXIT_PARTIAL
