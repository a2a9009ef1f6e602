"""Throughput of batch redaction: the bare pipeline in one process, `redactor batch` with 1
and 2 local workers, and with 2 Ray actors on a local Ray instance, all on the same pages;
memory per worker; the cost of the manifest per input and of starting Ray.

    python -m redactor_eval.benchmarks.bench_scale [--pages N] [--no-ray]

Prints figures. Every batch figure is wall time from the command's start to its end, model
loading included (as a user sees it); the bare pipeline is shown both with and without its
load. The machine's load average is printed too: on a shared machine, figures move with it.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

FONTS = Path("/usr/share/fonts/truetype/dejavu")


def render_pages(folder: Path, n: int, seed: int = 0) -> list[Path]:
    """Letter-size pages at 150 dpi, a form of personal details and some prose each."""
    from faker import Faker
    from PIL import Image, ImageDraw, ImageFont

    fake = Faker("en_US")
    Faker.seed(seed)
    font = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 24)
    paths = []
    for i in range(n):
        img = Image.new("RGB", (1275, 1650), "white")
        draw = ImageDraw.Draw(img)
        lines = [f"Name: {fake.name()}", f"Email: {fake.email()}", f"Phone: {fake.phone_number()}",
                 f"Date of birth: {fake.date_of_birth().strftime('%B %d, %Y')}",
                 f"Address: {fake.street_address()}, {fake.city()}", ""]
        lines += [fake.sentence(nb_words=9) for _ in range(14)]
        for j, line in enumerate(lines):
            draw.text((90, 90 + 52 * j), line, font=font, fill="black")
        path = folder / f"part{i % 2}" / f"page{i:03d}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        img.save(path)
        paths.append(path)
    return paths


def _cpu(who) -> float:
    import resource

    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def _cpu_self_and_children() -> float:
    import resource

    return _cpu(resource.RUSAGE_SELF) + _cpu(resource.RUSAGE_CHILDREN)


def bare_pipeline(pages: list[Path], out: Path) -> dict:
    import resource

    from redactor.document import redact_document
    from redactor.pipeline import Redactor

    t0 = time.perf_counter()
    redactor = Redactor()
    load = time.perf_counter() - t0
    t1, c1 = time.perf_counter(), _cpu_self_and_children()
    for i, page in enumerate(pages):
        redact_document(redactor, page, out, f"p{i}")
    work, cpu = time.perf_counter() - t1, _cpu_self_and_children() - c1
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"load": load, "work": work, "cpu": cpu, "rss": rss}


def tesseract_peak_mb(page: Path) -> float | None:
    """Peak memory of one Tesseract run, measured from a small helper process (a child's
    peak includes what its parent held when it forked)."""
    import subprocess
    import sys

    code = ("import resource, subprocess, sys; subprocess.run(['tesseract', sys.argv[1], '-'], "
            "capture_output=True, check=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    try:
        done = subprocess.run([sys.executable, "-c", code, str(page)], capture_output=True,
                              text=True, check=True, timeout=120)
        return int(done.stdout.strip()) / 1024
    except (subprocess.SubprocessError, OSError, ValueError):
        return None


def batch(src: Path, dst: Path, executor: str, workers: int):
    import resource

    from redactor.batch.run import BatchOptions, run_batch
    from redactor.config import load_config

    t0, c0 = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
    summary = run_batch(load_config(None), BatchOptions(src, dst, workers=workers,
                                                        executor=executor, progress=False))
    wall, parent_cpu = time.perf_counter() - t0, _cpu(resource.RUSAGE_SELF) - c0
    if summary.failed or summary.quarantined:
        raise SystemExit(f"bench: {executor} x{workers}: {summary.failures[:3]}")
    return wall, parent_cpu, summary


def manifest_cost(n: int = 300) -> float:
    """Milliseconds of manifest bookkeeping per input (all the commits one input costs)."""
    from redactor.batch.manifest import Manifest

    with tempfile.TemporaryDirectory() as tmp:
        with Manifest(Path(tmp) / "m.sqlite", Path(tmp), Path(tmp) / "dst") as m:
            rels = [f"f{i}.png" for i in range(n)]
            m.add_pending([(r, 1, 1) for r in rels])
            t0 = time.perf_counter()
            for r in rels:
                m.mark_running(r, "cfg", "1")
                m.record_write_intent(r, {r + ".out": "0" * 64}, sha256="0" * 64, size=1, mtime_ns=1)
                m.mark_done(r, pages=1, redactions=3, verification="not run", worker_seconds=1.0)
            return (time.perf_counter() - t0) / n * 1000


def ray_start_stop() -> float | None:
    try:
        import ray
    except ImportError:
        return None
    import logging

    t0 = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    ray.shutdown()
    return time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=8)
    ap.add_argument("--no-ray", action="store_true")
    args = ap.parse_args(argv)
    n = args.pages
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        tmp = Path(tmp)
        pages = render_pages(tmp / "src", n)
        print(f"bench_scale: {n} letter pages at 150 dpi, default pipeline "
              f"(tesseract + presidio), {os.cpu_count()} CPU(s), load average before: "
              f"{os.getloadavg()[0]:.1f}")
        bare = bare_pipeline(pages, tmp / "bare")
        e2e = bare["load"] + bare["work"]
        print(f"  bare pipeline, 1 process: {n / bare['work']:.2f} pages/s without the "
              f"{bare['load']:.1f} s model load, {n / e2e:.2f} pages/s with it; "
              f"{bare['cpu'] / n:.2f} CPU s/page; peak RSS {bare['rss']:.0f} MB")
        tess = tesseract_peak_mb(pages[0])
        if tess is not None:
            print(f"  one Tesseract run (a subprocess of each worker): peak RSS {tess:.0f} MB")
        runs = [("local", 1), ("local", 2)]
        has_ray = importlib.util.find_spec("ray") is not None
        if has_ray and not args.no_ray:
            runs.append(("ray", 2))
        walls = {}
        for executor, workers in runs:
            wall, parent_cpu, summary = batch(tmp / "src", tmp / f"dst-{executor}-{workers}",
                                              executor, workers)
            walls[(executor, workers)] = wall
            mem = ", ".join(f"{mb:.0f}" for mb in summary.worker_memory.values()) or "n/a"
            print(f"  batch --executor {executor} --workers {workers}: {wall:.1f} s, "
                  f"{n / wall:.2f} pages/s ({wall / e2e - 1:+.0%} wall vs bare, load included); "
                  f"workers {summary.worker_cpu_seconds / n:.2f} CPU s/page "
                  f"({summary.worker_cpu_seconds / bare['cpu'] - 1:+.0%} vs bare), parent "
                  f"{parent_cpu / n:.2f} CPU s/page; peak RSS per worker (MB): {mem}")
        if ("local", 2) in walls:
            print(f"  speed-up of 2 workers over 1: x{walls[('local', 1)] / walls[('local', 2)]:.2f}")
        if ("ray", 2) in walls:
            print(f"  Ray vs local pool, 2 workers: {walls[('ray', 2)] / walls[('local', 2)] - 1:+.0%} "
                  f"wall time")
            start_stop = ray_start_stop()
            print(f"  Ray local instance start + stop alone: {start_stop:.1f} s")
        elif not has_ray:
            print("  Ray: not installed (pip install 'redactor[ray]'); skipped")
        print(f"  manifest bookkeeping: {manifest_cost():.2f} ms per input "
              f"(3 committed transactions, synchronous=FULL)")
        print(f"  load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
