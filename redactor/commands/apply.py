"""``redactor apply``: burn the boxes of a reviewed boxes file onto its input (no OCR)."""
from __future__ import annotations

import sys
from pathlib import Path

from redactor.errors import InputError, OutputError, one_line


def register(sub) -> None:
    p = sub.add_parser(
        "apply", help="burn a reviewed boxes file onto its input (no OCR)",
        description="Burn the boxes of FILE (written by `redactor redact --preview` or a normal "
                    "run, then edited: lines of boxes removed, boxes added with \"bbox\" and "
                    "\"type\") onto INPUT, without OCR. Writes DIR/<stem>.redacted.png (a PDF in: "
                    ".redacted.pdf; a TIFF in: .redacted.tif; several pages of another image: "
                    ".redacted.pdf), each page at its input's pixel size and resolution, and "
                    "DIR/<stem>.boxes.jsonl. A boxes file that "
                    "does not fit INPUT (page ids or count, page size, a box off its page, bad "
                    "JSON, unknown type) is refused and nothing is written. See docs/review.md.")
    p.add_argument("input", metavar="INPUT", help="the page image or PDF the boxes file was made for")
    p.add_argument("--boxes", required=True, metavar="FILE", help="the reviewed boxes file (.boxes.jsonl)")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--overwrite", action="store_true",
                   help="replace outputs that already exist in DIR (default: refuse and leave them alone)")
    p.add_argument("--config", metavar="FILE",
                   help="TOML config file; its pad, fill, pdf_dpi and max_pixels are used (flags win)")
    p.add_argument("--pad", type=float, help="grow every box by this many pixels (default 0; use the "
                                             "preview's value)")
    p.add_argument("--fill", help="box colour (default black)")
    p.add_argument("--pdf-dpi", type=int, help="resolution born-digital PDF pages are rendered at "
                                               "(default 200; must be the preview's); a scanned "
                                               "page keeps its own")
    p.add_argument("--max-pixels", type=int, help="refuse pages larger than this many pixels")
    p.set_defaults(func=run)


def run(args) -> int:
    from redactor.commands.redact import check_writable
    from redactor.config import load_config
    from redactor.document import existing_outputs
    from redactor.render import parse_fill, sweep_partial_outputs
    from redactor.review import apply_document, existing_previews

    path = Path(args.input)
    if path.is_dir():
        raise InputError(f"{path} is a folder; apply takes one input and its boxes file")
    if not path.is_file():
        raise InputError(f"{path} not found")
    cfg = load_config(args.config, {"pad": args.pad, "fill": args.fill, "pdf_dpi": args.pdf_dpi,
                                    "max_pixels": args.max_pixels})
    parse_fill(cfg.fill)
    out_dir = Path(args.out)
    check_writable(out_dir)
    sweep_partial_outputs(out_dir)
    stem = path.stem
    present = existing_outputs(out_dir, stem, quarantine=False)
    if present and not args.overwrite:
        raise OutputError(f"{path.name}: {present[0]} already exists; nothing written "
                          f"(--overwrite replaces it)")
    result = apply_document(path, Path(args.boxes), out_dir, stem, fill=cfg.fill, pad=cfg.pad,
                            max_pixels=cfg.max_pixels, pdf_dpi=cfg.pdf_dpi)
    for preview in existing_previews(out_dir, stem):
        print(one_line(f"redactor: warning: {preview} shows the unredacted page; do not publish "
                       f"this folder as it is"), file=sys.stderr)
        break
    print(one_line(f"{path} -> {result.output} ({result.n_pages} page(s), "
                   f"{result.n_redactions} box(es) burned from {args.boxes})"))
    return 0
