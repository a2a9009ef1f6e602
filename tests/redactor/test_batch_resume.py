"""`redactor batch`: resume after a crash, redo changed inputs, record corrupt ones.

Runs the real default pipeline (Tesseract + Presidio) on small pages rendered here with
Pillow and DejaVu, through the real command line; crashes are real SIGKILLs.
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.batch.manifest import Manifest
from redactor.batch.run import DEFAULT_MANIFEST_NAME
from redactor.render import sweep_partial_outputs
from redactor.batch.walk import check_folders, find_inputs, output_path
from redactor.cli import main
from redactor.errors import EXIT_PARTIAL, InputError

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
PEOPLE = [("John Smith", "john.smith@example.com", "212-555-0199"),
          ("Maria Garcia", "maria.garcia@example.org", "415-555-0123"),
          ("David Chen", "d.chen@example.net", "646-555-0147"),
          ("Sarah Johnson", "sarah.j@example.com", "312-555-0168"),
          ("Peter Novak", "p.novak@example.com", "718-555-0112")]
ENV = {**os.environ, "OMP_THREAD_LIMIT": "1"}


def render_page(path: Path, name: str, email: str, phone: str) -> None:
    font = ImageFont.truetype(FONT, 22)
    img = Image.new("RGB", (800, 600), "white")
    draw = ImageDraw.Draw(img)
    for i, line in enumerate([f"Patient: {name}", f"Email: {email}", f"Phone: {phone}",
                              "Seen at the clinic for a routine visit."]):
        draw.text((40, 40 + 50 * i), line, font=font, fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)


def make_archive(root: Path, n: int) -> list[str]:
    """n pages spread over nested folders; returns their relative paths."""
    rels = []
    for i, person in enumerate(PEOPLE[:n]):
        rel = f"box{i % 2}/{'sub/' if i % 3 == 2 else ''}page{i}.png"
        render_page(root / rel, *person)
        rels.append(rel)
    return rels


def manifest_rows(dst: Path) -> dict[str, dict]:
    db = sqlite3.connect(dst / DEFAULT_MANIFEST_NAME)
    db.row_factory = sqlite3.Row
    try:
        return {r["rel_path"]: dict(r) for r in db.execute("SELECT * FROM inputs")}
    finally:
        db.close()


def redacted_of(dst: Path, rel: str) -> Path:
    return output_path(dst, rel, Path(rel).stem + ".redacted.png")


def boxes_of(dst: Path, rel: str) -> Path:
    return output_path(dst, rel, Path(rel).stem + ".boxes.jsonl")


def start_batch(src: Path, dst: Path, workers: int = 2) -> subprocess.Popen:
    # Own session: the kill takes the whole run (parent, workers, tesseract) like a crash.
    return subprocess.Popen([sys.executable, "-m", "redactor", "batch", str(src), "--out", str(dst),
                             "--workers", str(workers)], env=ENV, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_until(condition, proc: subprocess.Popen, limit: float = 600.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"batch ended (rc {proc.returncode}) before the condition held:\n{out}\n{err}")
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    pytest.fail("condition not reached")


def read_rows_safely(dst: Path) -> dict[str, dict]:
    try:
        return manifest_rows(dst)
    except sqlite3.OperationalError:   # not created yet
        return {}


def is_alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"   # a zombie has finished


def all_outputs_whole(dst: Path) -> None:
    """Every file under a final name is complete: PNGs decode, boxes files parse."""
    for png in dst.rglob("*.redacted.png"):
        with Image.open(png) as im:
            im.load()
    for boxes in dst.rglob("*.boxes.jsonl"):
        for line in boxes.read_text().splitlines():
            json.loads(line)


# -- whole runs with the real pipeline -----------------------------------------------------------

def test_sigkill_mid_run_then_rerun_does_every_input_exactly_once(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    rels = make_archive(src, 5)
    proc = start_batch(src, dst)
    wait_until(lambda: any(redacted_of(dst, r).exists() for r in rels), proc)
    os.kill(proc.pid, signal.SIGKILL)   # the parent only, as the OOM killer would
    proc.wait(timeout=30)
    workers = {int(row["worker"]) for row in read_rows_safely(dst).values() if row["worker"]}
    deadline = time.monotonic() + 30
    while [pid for pid in workers if is_alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if is_alive(pid)], "workers die with the parent"
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)   # a Tesseract a worker had started may linger

    all_outputs_whole(dst)
    # An input counts as finished when both its outputs exist; a kill between the two
    # writes leaves a torn pair, which the re-run must redo (covered below).
    kept = {r: redacted_of(dst, r).stat().st_mtime_ns for r in rels
            if redacted_of(dst, r).exists() and boxes_of(dst, r).exists()}
    kept_boxes = {r: boxes_of(dst, r).stat().st_mtime_ns for r in kept}
    assert 0 < len(kept) < len(rels), "the kill must come mid-run"
    at_kill = manifest_rows(dst)
    interrupted = {r for r, row in at_kill.items() if row["status"] == "running"}
    assert interrupted, "a worker held an input when the run was killed"

    rerun = subprocess.run([sys.executable, "-m", "redactor", "batch", str(src), "--out", str(dst),
                            "--workers", "2"], env=ENV, capture_output=True, text=True, timeout=900)
    assert rerun.returncode == 0, rerun.stderr
    rows = manifest_rows(dst)
    assert set(rows) == set(rels)
    assert all(row["status"] == "done" for row in rows.values())
    for rel in rels:
        assert redacted_of(dst, rel).exists() and boxes_of(dst, rel).exists()
    # Inputs finished before the kill were neither redone nor rewritten.
    for rel, mtime in kept.items():
        assert rows[rel]["attempts"] == 1, (rel, at_kill[rel], rows[rel], rerun.stdout, rerun.stderr)
        assert redacted_of(dst, rel).stat().st_mtime_ns == mtime
        assert boxes_of(dst, rel).stat().st_mtime_ns == kept_boxes[rel]
    # Each input was handed out once, plus once more for those the kill interrupted.
    for rel in rels:
        if rel in kept:
            continue
        expected = 2 if rel in interrupted and at_kill[rel]["attempts"] == 1 else 1
        assert rows[rel]["attempts"] == expected, (rel, at_kill.get(rel))
    assert not list(dst.rglob("*.part")), "temporary files of the killed run are swept"
    assert not (dst / ".redactor-tmp").exists(), "and the workers' scratch folder too"
    all_outputs_whole(dst)
    recovered = {r for r in kept if at_kill[r]["status"] == "running"}
    assert f"{len(rels) - len(kept) + len(recovered)} done" in rerun.stdout
    assert f"{len(kept) - len(recovered)} skipped" in rerun.stdout


def test_ctrl_c_stops_in_order_and_the_rerun_finishes(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    rels = make_archive(src, 3)
    proc = start_batch(src, dst, workers=1)
    wait_until(lambda: any(redacted_of(dst, r).exists() for r in rels), proc)
    os.killpg(proc.pid, signal.SIGINT)   # what a terminal's Ctrl-C sends: parent and workers
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in out and "run the same command again" in err
    rows = manifest_rows(dst)
    assert not [r for r, row in rows.items() if row["status"] == "running"]
    done = {r for r, row in rows.items() if row["status"] == "done"}
    assert done and len(done) < len(rels)
    assert all(redacted_of(dst, r).exists() == (r in done) for r in rels)
    assert not list(dst.rglob("*.part"))

    assert main(["batch", str(src), "--out", str(dst), "--workers", "1"]) == 0
    rows = manifest_rows(dst)
    assert all(row["status"] == "done" for row in rows.values())
    assert all(rows[r]["attempts"] == 1 for r in done)


def test_killed_worker_loses_no_input(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    make_archive(src, 5)
    proc = start_batch(src, dst)

    def busy_loaded_worker():
        # A worker that already finished an input (so its pipeline is loaded) and now holds
        # another one.
        rows = read_rows_safely(dst)
        done_by = {row["worker"] for row in rows.values() if row["status"] == "done"}
        for rel, row in rows.items():
            if row["status"] == "running" and row["worker"] in done_by:
                return rel, int(row["worker"])
        return None

    victim_rel, victim_pid = wait_until(busy_loaded_worker, proc)
    os.kill(victim_pid, signal.SIGKILL)
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err
    rows = manifest_rows(dst)
    assert all(row["status"] == "done" for row in rows.values())
    assert rows[victim_rel]["attempts"] == 2 and rows[victim_rel]["crashes"] == 1
    assert all(row["attempts"] == 1 for rel, row in rows.items() if rel != victim_rel)
    assert "died (killed by SIGKILL)" in err and "1 retried after a worker died" in out
    all_outputs_whole(dst)
    assert not (dst / ".redactor-tmp").exists()


def test_rerun_redoes_changed_input_only_and_recovers_written_outputs(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    rels = make_archive(src, 4)
    args = ["batch", str(src), "--out", str(dst), "--workers", "1"]
    assert main(args) == 0
    first = manifest_rows(dst)
    mtimes = {r: redacted_of(dst, r).stat().st_mtime_ns for r in rels}
    before = {r: redacted_of(dst, r).read_bytes() for r in rels}

    changed, touched, written, torn = rels
    render_page(src / changed, "Olga Petrova", "olga.p@example.com", "202-555-0177")
    os.utime(src / touched, ns=(time.time_ns(), time.time_ns() + 5_000_000_000))
    # The states a run killed between writing outputs and recording them leaves behind:
    # outputs complete (recovered as they are) or one of them torn (redone).
    with sqlite3.connect(dst / DEFAULT_MANIFEST_NAME) as db:
        db.execute("UPDATE inputs SET status='running' WHERE rel_path IN (?, ?)", (written, torn))
    redacted_of(dst, torn).write_bytes(b"\x89PNG torn")

    audit = tmp_path / "audit.jsonl"
    assert main(args + ["--audit", str(audit)]) == 0
    rows = manifest_rows(dst)
    assert all(row["status"] == "done" for row in rows.values())
    assert rows[changed]["attempts"] == 2 and rows[changed]["sha256"] != first[changed]["sha256"]
    assert redacted_of(dst, changed).read_bytes() != before[changed]
    # the new content's values were hidden: in the audit, not in the published boxes
    assert "olga.p@example.com" in audit.read_text()
    assert "olga.p@example.com" not in boxes_of(dst, changed).read_text()
    assert rows[touched]["attempts"] == 1 and rows[touched]["mtime_ns"] == (src / touched).stat().st_mtime_ns
    assert redacted_of(dst, touched).stat().st_mtime_ns == mtimes[touched]
    assert rows[written]["attempts"] == 1
    assert redacted_of(dst, written).stat().st_mtime_ns == mtimes[written]
    assert rows[torn]["attempts"] == 2
    assert redacted_of(dst, torn).read_bytes() == before[torn]


def test_corrupt_inputs_fail_while_the_others_complete(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    good = make_archive(src, 2)
    (src / "box0" / "truncated.png").write_bytes((src / good[0]).read_bytes()[:300])
    (src / "box1" / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\n%%EOF")
    (src / "box1" / "empty.jpg").write_bytes(b"")
    (src / "box1" / "notes.txt").write_text("not a page")
    bad = ["box0/truncated.png", "box1/broken.pdf", "box1/empty.jpg"]

    args = ["batch", str(src), "--out", str(dst), "--workers", "1"]
    assert main(args) == EXIT_PARTIAL
    rows = manifest_rows(dst)
    assert set(rows) == set(good) | set(bad)
    for rel in good:
        assert rows[rel]["status"] == "done" and redacted_of(dst, rel).exists()
        assert rows[rel]["redactions"] >= 3 and rows[rel]["pages"] == 1
    for rel in bad:
        assert rows[rel]["status"] == "failed" and rows[rel]["error"], rel
        assert not list((dst / Path(rel).parent).glob(Path(rel).stem + ".*")), rel
    assert "empty" in rows["box1/empty.jpg"]["error"]

    assert main(args) == EXIT_PARTIAL   # failures are retried, done inputs skipped
    again = manifest_rows(dst)
    assert all(again[r]["attempts"] == 2 for r in bad)
    assert all(again[r]["attempts"] == 1 for r in good)


# -- the parts around the pipeline ----------------------------------------------------------------

def test_walk_mirrors_the_tree_and_names_outputs_without_collisions(tmp_path):
    src = tmp_path / "src"
    for rel in ["a/x.png", "a/x.pdf", "a/y.TIF", "b/c/z.jpeg", ".hidden/h.png", "a/.tmp.png",
                "a/readme.txt", "out/old.png"]:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_bytes(b"x")
    items, ignored = find_inputs(src, src / "out")
    assert [(i.rel, i.stem) for i in items] == [("a/x.pdf", "x.pdf"), ("a/x.png", "x.png"),
                                                 ("a/y.TIF", "y"), ("b/c/z.jpeg", "z")]
    assert ignored == 2   # .tmp.png and readme.txt; hidden folders and DST are not entered
    assert output_path(tmp_path / "dst", "b/c/z.jpeg", "z.boxes.jsonl") == \
        tmp_path / "dst" / "b" / "c" / "z.boxes.jsonl"


def test_output_folder_may_not_be_or_contain_the_input_folder(tmp_path):
    (tmp_path / "src").mkdir()
    with pytest.raises(InputError, match="must not be"):
        check_folders(tmp_path / "src", tmp_path / "src")
    with pytest.raises(InputError, match="must not be"):
        check_folders(tmp_path / "src", tmp_path)
    with pytest.raises(InputError, match="no such folder"):
        check_folders(tmp_path / "nope", tmp_path / "dst")
    check_folders(tmp_path / "src", tmp_path / "src" / "redacted")


def test_one_run_at_a_time_per_manifest_and_one_tree_per_manifest(tmp_path):
    path = tmp_path / "m.sqlite"
    with Manifest(path, tmp_path / "src", tmp_path / "dst"):
        with pytest.raises(InputError, match="in use by another batch run"):
            Manifest(path, tmp_path / "src", tmp_path / "dst")
    with pytest.raises(InputError, match="records DST"):
        Manifest(path, tmp_path / "src", tmp_path / "elsewhere")
    with Manifest(path, tmp_path / "src", tmp_path / "dst") as m:
        m.add_pending([("a.png", 1, 2)])
        assert m.counts()["pending"] == 1


def test_sweep_removes_only_temporary_outputs(tmp_path):
    (tmp_path / "a").mkdir()
    part = tmp_path / "a" / ".x.redacted.png.k2j3.part"
    final = tmp_path / "a" / "x.redacted.png"
    part.write_bytes(b"half")
    final.write_bytes(b"whole")
    assert sweep_partial_outputs(tmp_path, recursive=True) == 1
    assert not part.exists() and final.exists()


def test_outputs_failing_verification_are_quarantined_not_published(tmp_path, capsys):
    # Only e-mails redacted, but verification looks for every critical identifier: the name
    # and phone left on the page fail it.
    src, dst = tmp_path / "src", tmp_path / "dst"
    rels = make_archive(src, 1)
    args = ["batch", str(src), "--out", str(dst), "--workers", "1", "--types", "EMAIL",
            "--verify", "--on-verify-fail", "quarantine"]
    assert main(args) == EXIT_PARTIAL
    row = manifest_rows(dst)[rels[0]]
    assert row["status"] == "quarantined" and "failed verification" in row["error"]
    assert json.loads(row["verification"])["result"] == "failed"
    assert PEOPLE[0][0] not in row["verification"] + row["error"]   # no values in the manifest
    assert not redacted_of(dst, rels[0]).exists() and not boxes_of(dst, rels[0]).exists()
    assert redacted_of(dst / "quarantine", rels[0]).exists()
    assert "/quarantine" in capsys.readouterr().out

    assert main(args) == EXIT_PARTIAL   # left alone ...
    assert manifest_rows(dst)[rels[0]]["attempts"] == 1
    assert main(args + ["--retry-quarantined"]) == EXIT_PARTIAL   # ... unless asked
    assert manifest_rows(dst)[rels[0]]["attempts"] == 2
    assert redacted_of(dst / "quarantine", rels[0]).exists()
