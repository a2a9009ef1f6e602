"""``redactor eval``: score a prediction file against a dataset as the leakage contract
defines it; print a table, optionally write the JSON report and a folder with report.md
and figures."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "eval", help="score predictions against a dataset (F1, DocLeak, attribution, ink)",
        description="Score a prediction file against a dataset's gold annotations: greedy "
                    "one-to-one IoU matching, F1_loc, F1_type, DocLeak_all/crit, Valid, "
                    "per-group and per-tau leakage, failure attribution.")
    p.add_argument("--gold", required=True, metavar="PAGES.jsonl",
                   help="the dataset's pages.jsonl (images beside it)")
    p.add_argument("--pred", required=True, metavar="PREDS.jsonl", help="the prediction file")
    p.add_argument("--ocr-words", metavar="WORDS.jsonl",
                   help="OCR words the pipeline saw (enables the OCR failure causes)")
    p.add_argument("--tau", type=float, default=0.75, help="IoU threshold (default 0.75)")
    p.add_argument("--ink", action="store_true",
                   help="also compute the pixel measures on the page images (DocLeak_ink, collateral)")
    p.add_argument("--emits", metavar="TYPES",
                   help="types the system can emit (comma list of fine types or groups): "
                        "adds type coverage and restricted leakage")
    p.add_argument("--split", metavar="NAME",
                   help="score only the pages of this split (dev, heldout; default: all)")
    p.add_argument("--json", metavar="OUT.json", help="write the numbers as JSON")
    p.add_argument("--report", metavar="DIR", help="write report.md and PNG figures into DIR")
    p.set_defaults(func=run)


def _write_json_atomic(path: Path, data: dict) -> None:
    from redactor.errors import OutputError

    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=2, sort_keys=False)
                handle.write("\n")
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None


def run(args) -> int:
    from redactor_eval.api import check_tau, evaluate
    from redactor_eval.dataset import load_dataset, select_split
    from redactor_eval.predictions import load_ocr_words, load_predictions
    from redactor_eval.report import format_table

    tau = check_tau(args.tau)
    pages = select_split(load_dataset(args.gold, check_images=bool(args.ink or args.report)),
                         args.split)
    predictions = load_predictions(args.pred)
    words = load_ocr_words(args.ocr_words) if args.ocr_words else None
    if args.split not in (None, "all"):
        # a prediction file of the whole dataset scored on one split: the other pages'
        # lines belong to the dataset, they are just not asked about
        ids = {p.page_id for p in pages}
        predictions = {k: v for k, v in predictions.items() if k in ids}
        words = {k: v for k, v in words.items() if k in ids} if words is not None else None
    emits = args.emits.split(",") if args.emits is not None else None
    result = evaluate(pages, predictions, tau=tau, ocr_words=words, ink=args.ink, emits=emits)
    if args.json:
        _write_json_atomic(Path(args.json), result.to_json())
    if args.report:
        from redactor_eval.report import write_report
        write_report(result, Path(args.report))
    print(format_table(result))
    return 0
