"""A full disk, for real: a small tmpfs filled to the last byte. `redact` and `batch` exit
with 5 (output cannot be written) whether the page, the boxes file or the batch manifest is
the write that fails, and leave nothing half-written. Needs the right to mount a tmpfs
(root in the CI container); skipped elsewhere."""
from __future__ import annotations

import errno
import os
import subprocess
import uuid

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.cli import main

FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"


def _page(path, n=0):
    img = Image.new("RGB", (1100, 300), "white")
    d = ImageDraw.Draw(img)
    f = ImageFont.truetype(FONT, 30)
    d.text((40, 40), f"Contact: margaret.holloway{n}@example.org", font=f, fill="black")
    d.text((40, 120), f"Phone: 555-014{n}", font=f, fill="black")
    img.save(path)
    return path


@pytest.fixture()
def small_disk(tmp_path):
    mount = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root): " + done.stderr.decode().strip())
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def fill(folder) -> None:
    """Take every free byte of the file system ``folder`` is on."""
    for size in (65536, 4096, 512, 64, 8, 1):   # down to the last partial block
        with open(folder / f"filler-{size}", "wb", buffering=0) as fh:
            while True:
                try:
                    fh.write(b"\0" * size)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC
                    break


def _files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and not p.name.startswith("filler"))


def test_redact_on_a_full_disk_exits_5_and_writes_nothing(small_disk, tmp_path, capsys):
    page = _page(tmp_path / "contact.png")
    out = small_disk / "out"
    out.mkdir()
    fill(small_disk)
    assert main(["redact", str(page), "--out", str(out)]) == 5
    err = capsys.readouterr().err
    assert "No space left on device" in err or "not writable" in err
    assert _files(out) == []


def test_batch_whose_outputs_do_not_fit_exits_5(small_disk, tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    for n in range(3):
        _page(src / f"p{n}.png", n)
    out = small_disk / "out"
    out.mkdir()
    fill(small_disk)
    code = main(["batch", str(src), "--out", str(out), "--manifest", str(tmp_path / "m.sqlite"),
                 "--workers", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 5, err
    assert "internal error" not in err
    assert [f for f in _files(out) if not f.startswith(".redactor")] == []


def test_batch_whose_manifest_fills_the_disk_exits_5(small_disk, tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    _page(src / "p0.png", 0)
    manifest = small_disk / "m.sqlite"
    out = tmp_path / "out"
    assert main(["batch", str(src), "--out", str(out), "--manifest", str(manifest),
                 "--workers", "1", "--no-progress"]) == 0
    capsys.readouterr()
    _page(src / "p1.png", 1)            # a new input: the manifest must take a row for it
    fill(small_disk)
    code = main(["batch", str(src), "--out", str(out), "--manifest", str(manifest),
                 "--workers", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 5, err
    assert "manifest" in err and ("full" in err or "disk" in err)
    assert "OperationalError" not in err and "internal error" not in err
    # the earlier run's outputs stand; nothing of the new input is half there
    assert _files(out) == ["p0.boxes.jsonl", "p0.redacted.png"] or \
        sorted(f for f in _files(out) if not f.startswith(".")) == ["p0.boxes.jsonl", "p0.redacted.png"]
    assert not [p for p in out.rglob("*.part")]
    assert os.path.exists(manifest)
