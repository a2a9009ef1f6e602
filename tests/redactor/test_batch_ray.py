"""`redactor batch --executor ray`: the same archive redacted by Ray actors on a local Ray
instance (started by the run, stopped after) gives byte-identical outputs to the local
process pool, and the manifest records every input. Real pipeline, real Ray."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.batch.run import DEFAULT_MANIFEST_NAME
from redactor.cli import main

pytestmark = pytest.mark.extras

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
PEOPLE = [("John Smith", "john.smith@example.com", "212-555-0199"),
          ("Maria Garcia", "maria.garcia@example.org", "415-555-0123"),
          ("David Chen", "d.chen@example.net", "646-555-0147")]


def render_page(name: str, email: str, phone: str) -> Image.Image:
    font = ImageFont.truetype(FONT, 22)
    img = Image.new("RGB", (800, 600), "white")
    draw = ImageDraw.Draw(img)
    for i, line in enumerate([f"Patient: {name}", f"Email: {email}", f"Phone: {phone}",
                              "Seen at the clinic for a routine visit."]):
        draw.text((40, 40 + 50 * i), line, font=font, fill="black")
    return img


def make_archive(root: Path) -> None:
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    render_page(*PEOPLE[0]).save(root / "a" / "one.png")
    render_page(*PEOPLE[1]).save(root / "b" / "two.png")
    # two pages in one TIFF: a TIFF output
    first, second = render_page(*PEOPLE[2]), render_page(*PEOPLE[0])
    first.save(root / "b" / "scan.tiff", save_all=True, append_images=[second])


def without_pdf_id(data: bytes) -> bytes:
    # img2pdf with its pikepdf engine gives every PDF a fresh random /ID (its check for
    # pikepdf's deterministic_id compares version strings, so "10.x" < "6.2.0"); the ID is
    # the only byte that may differ between two writes of the same pages.
    return re.sub(rb"/ID \[<[0-9a-f]+><[0-9a-f]+>\]", b"/ID []", data)


def outputs(dst: Path) -> dict[str, bytes]:
    return {p.relative_to(dst).as_posix(): without_pdf_id(p.read_bytes()) if p.suffix == ".pdf"
            else p.read_bytes() for p in sorted(dst.rglob("*"))
            if p.is_file() and not p.name.startswith(".")}


def test_ray_executor_matches_the_process_pool_byte_for_byte(tmp_path):
    ray = pytest.importorskip("ray")
    src = tmp_path / "src"
    make_archive(src)
    assert main(["batch", str(src), "--out", str(tmp_path / "pool"), "--workers", "1",
                 "--audit", str(tmp_path / "pool.audit.jsonl")]) == 0
    assert main(["batch", str(src), "--out", str(tmp_path / "ray"), "--workers", "2",
                 "--executor", "ray", "--audit", str(tmp_path / "ray.audit.jsonl")]) == 0
    assert not ray.is_initialized(), "the run stops the Ray instance it started"

    pool, on_ray = outputs(tmp_path / "pool"), outputs(tmp_path / "ray")
    assert sorted(pool) == ["a/one.boxes.jsonl", "a/one.redacted.png", "b/scan.boxes.jsonl",
                            "b/scan.redacted.tif", "b/two.boxes.jsonl", "b/two.redacted.png"]
    assert sorted(on_ray) == sorted(pool)
    for name in pool:
        assert on_ray[name] == pool[name], name
    # the hidden values reach the audit files (the same records whichever executor), never
    # the published boxes
    audits = [sorted((tmp_path / f"{name}.audit.jsonl").read_text().splitlines())
              for name in ("pool", "ray")]
    assert audits[0] == audits[1] and "john.smith@example.com" in "".join(audits[0])
    assert b"john.smith@example.com" not in pool["a/one.boxes.jsonl"]

    db = sqlite3.connect(tmp_path / "ray" / DEFAULT_MANIFEST_NAME)
    rows = db.execute("SELECT rel_path, status, attempts, pages, worker FROM inputs "
                      "ORDER BY rel_path").fetchall()
    db.close()
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("a/one.png", "done", 1, 1), ("b/scan.tiff", "done", 1, 2), ("b/two.png", "done", 1, 1)]
    assert all(r[4].startswith("ray-actor-") for r in rows)

    # The manifest stays the record under Ray too: a second run has nothing to do.
    assert main(["batch", str(src), "--out", str(tmp_path / "ray"), "--executor", "ray"]) == 0
    db = sqlite3.connect(tmp_path / "ray" / DEFAULT_MANIFEST_NAME)
    assert db.execute("SELECT max(attempts) FROM inputs").fetchone()[0] == 1
    db.close()


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every process, from /proc."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        out[int(entry.name)] = (ppid, cmd.strip())
    return out


def _actor_busy_with_a_task(driver_pid: int) -> int | None:
    """A Ray actor process of this run (a descendant of the driver) executing ``run`` (Ray
    titles a worker process ``ray::RayWorker.run`` while it executes that method)."""
    procs = _processes()
    for pid, (_, cmd) in procs.items():
        if not cmd.startswith("ray::RayWorker.run"):
            continue
        ancestor = pid
        while ancestor > 1 and ancestor in procs:
            ancestor = procs[ancestor][0]
            if ancestor == driver_pid:
                return pid
    return None


def test_ray_actor_that_dies_is_replaced_and_its_input_retried(tmp_path):
    pytest.importorskip("ray")
    import os
    import signal
    import subprocess
    import sys
    import time

    src, dst = tmp_path / "src", tmp_path / "dst"
    make_archive(src)
    proc = subprocess.Popen([sys.executable, "-m", "redactor", "batch", str(src), "--out", str(dst),
                             "--executor", "ray", "--workers", "2"],
                            env={**os.environ, "OMP_THREAD_LIMIT": "1"}, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 600
        victim = None
        while victim is None and time.monotonic() < deadline and proc.poll() is None:
            victim = _actor_busy_with_a_task(proc.pid)
            time.sleep(0.05)
        assert victim is not None, "no Ray actor was seen working"
        os.kill(victim, signal.SIGKILL)
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, err
    assert "1 retried after a worker died" in out
    db = sqlite3.connect(dst / DEFAULT_MANIFEST_NAME)
    rows = db.execute("SELECT status, attempts, crashes FROM inputs").fetchall()
    db.close()
    assert all(r[0] == "done" for r in rows)
    assert sorted((r[1], r[2]) for r in rows) == [(1, 0), (1, 0), (2, 1)]
