"""Freezes the OCR words of a dataset's pages into one small gzip'd JSON-lines file, so that
the detection-quality tests (tests/quality) run the pipeline's later stages on the very words
Tesseract read once, without the page images (the real pages' images are not committed) and
without a Tesseract version on another machine reading other words.

    python -m redactor_eval.realdata.freeze_ocr --pages eval/data/real/pages.jsonl --split dev \\
        --cache /work/cache/ocr-r11 --out eval/data/real/frozen-ocr.dev.jsonl.gz

Words come from the OCR cache (``redactor predict --ocr-cache DIR``: same key, page content
and the OCR's fingerprint) where it has the page; other pages are read now (and put in the
cache). The default pipeline's OCR is used unless ``--config`` names another.

Line 1 is a header record (``format``, the engine and its version, the OCR's algorithm
revision and full fingerprint, the dataset and split); every other line is one page in the
contract's OCR-words format (``OcrPage.to_json``: page_id, engine, width, height, words with
bbox, conf, line and block) plus ``image_hash``, the pixel hash the words were read from.
"""
from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from redactor import registry
from redactor.config import RedactorConfig, load_config
from redactor.errors import InputError, RedactorError
from redactor.imageio import read_pages
from redactor.model import OcrPage
from redactor.ocr_cache import OcrCache, image_hash
from redactor.pipeline import sanitize_ocr_page
from redactor.render import atomic_output
from redactor_eval.dataset import GoldPage, load_dataset, select_split

FORMAT = "redactor-frozen-ocr/1"


@dataclass(frozen=True)
class FrozenPage:
    ocr: OcrPage
    image_hash: str


@dataclass(frozen=True)
class FrozenOcr:
    header: dict
    pages: dict[str, FrozenPage]      # page_id -> words, in file order


def page_image(path: Path, config: RedactorConfig):
    """The page as the pipeline sees it (``redactor predict`` reads it the same way), so its
    content hash is the OCR cache's key."""
    pages = list(read_pages(path, max_pixels=config.max_pixels, pdf_dpi=config.pdf_dpi))
    if len(pages) != 1:
        raise InputError(f"{path}: expected one page, found {len(pages)}")
    return pages[0].image


def header_record(ocr, pages_path: Path, split: str | None, n_pages: int) -> dict:
    # The revision lives beside the backend's code (plugins.tesseract_ocr.ALGORITHM_REVISION);
    # read it from the backend's module so another backend needs no change here.
    module = sys.modules.get(type(ocr).__module__)
    return {"format": FORMAT, "engine": f"{ocr.name} {getattr(ocr, 'version', '')}".strip(),
            "algorithm_revision": getattr(module, "ALGORITHM_REVISION", None),
            "fingerprint": ocr.fingerprint(), "dataset": pages_path.as_posix(),
            "split": split or "all", "pages": n_pages}


def frozen_records(pages: list[GoldPage], ocr, config: RedactorConfig,
                   cache: OcrCache | None) -> Iterator[dict]:
    """One record per page, in dataset order: cached words where the cache has them, else
    read now (and cached)."""
    fingerprint = ocr.fingerprint()
    for page in pages:
        image = page_image(page.image, config)
        if (image.width, image.height) != (page.width, page.height):
            raise InputError(f"{page.page_id}: image is {image.width}x{image.height}, the "
                             f"dataset says {page.width}x{page.height}")
        key = image_hash(image)
        hit = cache.get(fingerprint, key) if cache is not None else None
        if hit is not None:
            words = hit[0]
        else:
            print(f"{page.page_id}: not in the cache, reading it", file=sys.stderr)
            t0 = time.perf_counter()
            words = sanitize_ocr_page(ocr.read(image), image.width, image.height)
            if cache is not None:
                cache.put(fingerprint, key, words, time.perf_counter() - t0)
        yield {**words.to_json(page.page_id), "image_hash": key}


def write_frozen(path: Path, header: dict, records: list[dict]) -> None:
    """Byte-for-byte reproducible (no time or file name in the gzip header): freezing the
    same words again changes nothing in git."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", filename="", mtime=0, compresslevel=9) as gz:
        for record in [header, *records]:
            gz.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
            gz.write(b"\n")
    with atomic_output(Path(path)) as tmp:
        tmp.write_bytes(buffer.getvalue())


def load_frozen(path: str | Path) -> FrozenOcr:
    """Read a frozen-OCR file: its header and {page_id: FrozenPage}."""
    path = Path(path)
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle if line.strip()]
    if not lines or lines[0].get("format") != FORMAT:
        raise InputError(f"{path}: not a frozen-OCR file (first line must have format {FORMAT!r})")
    pages: dict[str, FrozenPage] = {}
    for record in lines[1:]:
        pages[record["page_id"]] = FrozenPage(OcrPage.from_json(record), record["image_hash"])
    return FrozenOcr(header=lines[0], pages=pages)


def freeze(pages_path: Path, split: str | None, out: Path, cache_dir: Path | None,
           config_path: Path | None = None) -> FrozenOcr:
    config = load_config(config_path)
    pages = select_split(load_dataset(pages_path), split)
    ocr = registry.create("ocr", config.ocr, **config.ocr_options)
    cache = OcrCache(cache_dir) if cache_dir else None
    records = list(frozen_records(pages, ocr, config, cache))
    header = header_record(ocr, pages_path, split, len(records))
    write_frozen(out, header, records)
    return load_frozen(out)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=Path, required=True, help="the dataset's pages.jsonl")
    ap.add_argument("--split", default=None,
                    help="only this split (dev, heldout; default: every page)")
    ap.add_argument("--cache", type=Path, default=None,
                    help="OCR cache folder (as `redactor predict --ocr-cache`); pages missing "
                         "from it are read now and added")
    ap.add_argument("--config", type=Path, default=None,
                    help="a redactor config whose OCR to use (default: the default pipeline's)")
    ap.add_argument("--out", type=Path, required=True, help="the .jsonl.gz file to write")
    args = ap.parse_args(argv)
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    try:
        frozen = freeze(args.pages, args.split, args.out, args.cache, args.config)
    except RedactorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    words = sum(len(p.ocr.words) for p in frozen.pages.values())
    print(f"{len(frozen.pages)} page(s), {words} words, {frozen.header['engine']} "
          f"rev {frozen.header['algorithm_revision']} -> {args.out} "
          f"({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
