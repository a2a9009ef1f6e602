"""Rebuilds ``eval/data/real/images/`` from local copies of the source repositories.

The images are not committed (FUNSD is licensed for research use only; the FARA filings are
rebuilt the same way so that every page has one recipe). Each spec names its source file,
PDF page and dpi; the image made from it must have the pixel hash the spec records, or the
run stops naming the page (a different source commit or PDF renderer made other pixels).

    git clone https://github.com/Doc-LD/funsd-bench            # at the commit in PROVENANCE.md
    git clone https://github.com/google-research-datasets/vrdu
    python -m redactor_eval.realdata.materialize --funsd funsd-bench --vrdu vrdu
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from redactor_eval.realdata.sources import COMMITS, pixel_sha256, read_source_file, source_image
from redactor_eval.realdata.spec import load_specs
from redactor.errors import InputError

DATA = Path(__file__).resolve().parents[1] / "data" / "real"


def materialize(repos: dict[str, Path], data_dir: Path = DATA, only: set[str] | None = None,
                check: bool = True, commits: dict[str, str] | None = None) -> tuple[int, int]:
    """Write every missing image (or rewrite a wrong one); return (written, present).
    ``commits`` (source -> commit) replaces the pinned commits, for tests."""
    commits = {**{k: v[1] for k, v in COMMITS.items()}, **(commits or {})}
    images = data_dir / "images"
    images.mkdir(parents=True, exist_ok=True)
    written = present = 0
    for spec in load_specs(data_dir / "spec", require_checked=False):
        if only and spec.page_id not in only:
            continue
        if spec.source not in repos:
            raise InputError(f"{spec.page_id}: no copy of the {spec.source} repository given "
                             f"(--{spec.source} DIR)")
        target = data_dir / spec.image
        if target.exists() and check:
            from PIL import Image
            with Image.open(target) as im:
                if pixel_sha256(im) == spec.sha256:
                    present += 1
                    continue
        data = read_source_file(repos[spec.source], commits[spec.source], spec.source_path,
                                spec.source)
        image = source_image(spec.source, data, spec.pdf_page, spec.dpi)
        if check and pixel_sha256(image) != spec.sha256:
            raise InputError(f"{spec.page_id}: the image made from {spec.source_path} has other "
                             f"pixels than the spec records (another source commit or renderer)")
        if (image.width, image.height) != (spec.width, spec.height):
            raise InputError(f"{spec.page_id}: image is {image.width}x{image.height}, the spec "
                             f"says {spec.width}x{spec.height}")
        tmp = target.with_name(target.name + ".part")
        image.save(tmp, format="PNG")
        os.replace(tmp, target)
        written += 1
    return written, present


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--funsd", type=Path, help="clone (or bare git dir) of Doc-LD/funsd-bench")
    ap.add_argument("--vrdu", type=Path, help="clone (or bare git dir) of google-research-datasets/vrdu")
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args(argv)
    repos = {k: v for k, v in (("funsd", args.funsd), ("vrdu", args.vrdu)) if v}
    try:
        written, present = materialize(repos, args.data)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    print(f"{written} image(s) written, {present} already there, in {args.data / 'images'}")


if __name__ == "__main__":
    main()
