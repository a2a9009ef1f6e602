"""Throughput and peak memory of ``redactor redact`` on the committed pages: one process,
then all cores (``redactor batch --workers N``), measured in one run so the ratio holds even
on a noisy machine."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def timed(cmd: list[str]) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MB of the child (and the workers it waited for), exit code."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 7):
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.read().decode()[-2000:]}")
    return wall, usage.ru_maxrss / 1024.0, proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pages", default=str(ROOT / "eval/data/challenge/images"))
    ap.add_argument("--limit", type=int, default=12)
    args = ap.parse_args()
    src = Path(args.pages)
    images = sorted(p for p in src.iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".tif", ".tiff"))
    images = images[: args.limit]
    workers = os.cpu_count() or 1
    exe = [sys.executable, "-m", "redactor"]
    with tempfile.TemporaryDirectory() as tmp:
        one_dir = Path(tmp) / "one"
        w1, m1, _ = timed(exe + ["redact", *map(str, images), "--out", str(one_dir)])
        # batch wants a folder: link the same pages into one
        batch_src = Path(tmp) / "src"
        batch_src.mkdir()
        for p in images:
            (batch_src / p.name).symlink_to(p)
        wn, mn, _ = timed(exe + ["batch", str(batch_src), "--out", str(Path(tmp) / "all"),
                                 "--workers", str(workers)])
    n = len(images)
    print(f"pages: {n} from {src} (wall time includes loading the models once per process)")
    print(f"{'setting':<36} {'wall s':>8} {'pages/s':>8} {'peak MB':>8}")
    print(f"{'redactor redact (1 process)':<36} {w1:8.1f} {n / w1:8.2f} {m1:8.0f}")
    print(f"{f'redactor batch --workers {workers}':<36} {wn:8.1f} {n / wn:8.2f} {mn:8.0f}")
    print(f"speed-up all cores vs one process: {w1 / wn:.2f}x")


if __name__ == "__main__":
    main()
