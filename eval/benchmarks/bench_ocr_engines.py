"""The default detectors on each OCR: Tesseract (our backend, the default), PP-OCRv4
(``rapidocr``) alone, and the fusion of both (``tesseract+rapidocr``), in one `redactor
bench` run per dataset: the real pages (eval/data/real, dev split) when their images are
there, then the committed generated pages. Per OCR: the share of critical values whose
text the OCR read ("crit readable in OCR", the ceiling of every detector), DocLeak_crit and
ink leakage of the default detectors on it, pages/s and peak memory; the peer
(presidio-image-redactor) beside them for speed.

Run: ``python -m redactor_eval.benchmarks.bench_ocr_engines [--split heldout] [--out DIR]``.
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from redactor_eval.benchmarks.bench_systems import GENERATED, REAL, bench, real_images_missing

# label -> the OCR the default detectors run on (the default pipeline for "default")
ENGINES = {"rapidocr": "rapidocr", "tesseract+rapidocr": "tesseract+rapidocr"}


def systems(config_dir: Path) -> list[str]:
    """The default, the default detectors on each other OCR, and the peer (its pages/s is
    the yardstick of speed: the default must keep at least half of it on real forms)."""
    out = ["default"]
    for label, ocr in ENGINES.items():
        config = config_dir / f"{label.replace('+', '-')}.toml"
        config.write_text(f'ocr = "{ocr}"\n', encoding="utf-8")
        out.append(f"default on {label}={config}")
    return out + ["peer-presidio-image"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--real", default=str(REAL), help="the real pages (default: %(default)s)")
    ap.add_argument("--split", default="dev", help="split of the real pages (default: dev)")
    ap.add_argument("--generated", default=str(GENERATED),
                    help="the generated pages (default: %(default)s)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default: 2)")
    ap.add_argument("--out", help="keep the bench folders here (default: a temporary folder)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out or tmp)
        out.mkdir(parents=True, exist_ok=True)
        specs = systems(out)
        real = Path(args.real)
        missing = real_images_missing(real)
        if missing:
            print(f"real pages: {missing} image(s) of {real.parent} are not there; rebuild them "
                  f"with `make real-data` (eval/data/real/PROVENANCE.md)")
        else:
            print(f"== real pages ({args.split}), per OCR")
            bench(real, out / "real", args.workers, args.split, specs)
        print("== generated pages (committed challenge set), per OCR")
        bench(Path(args.generated), out / "generated", args.workers, None, specs)


if __name__ == "__main__":
    main()
