"""The default pipeline beside plain Tesseract + Presidio and the peer
(presidio-image-redactor) on the committed challenge pages, in one `redactor bench` run:
the table users compare tools by."""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ["default", "tesseract+presidio", "peer-presidio-image"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pages", default=str(ROOT / "eval/data/challenge/pages.jsonl"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="keep bench.md/bench.json here (default: a temporary folder)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out or tmp)
        cmd = [sys.executable, "-m", "redactor", "bench", "--pages", args.pages, "--out", str(out),
               "--workers", str(args.workers)]
        for s in SYSTEMS:
            cmd += ["--system", s]
        subprocess.run(cmd, check=True)


if __name__ == "__main__":
    main()
