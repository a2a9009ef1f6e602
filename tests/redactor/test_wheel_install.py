"""The built wheel works on its own: installed into a fresh environment (its dependencies
from the package index), `redactor redact` redacts the bundled sample from outside the
repository, the label maps come as package data, the evaluation's commands come through
their entry points, and no generic `plugins`, `eval` or `mappings` package is installed."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = sorted((ROOT / "eval/data/sample/images").glob("*.png"))[0]


def _run(args, cwd, **kw):
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=900, **kw)


@pytest.mark.slow
def test_the_wheel_installs_and_redacts_from_a_fresh_environment(tmp_path):
    # built from a copy: setuptools leaves build/ behind, whose stale modules a later build
    # of the checkout would pack
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".hypothesis", "out", "data"))
    built = _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                  "-w", tmp_path / "dist", source], cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next((tmp_path / "dist").glob("redactor-*.whl"))
    assert wheel.stat().st_size < 5_000_000      # code and label maps, not the datasets
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    installed = _run([bin_dir / "python", "-m", "pip", "install", "-q", wheel], cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr[-2000:]

    work = tmp_path / "elsewhere"          # not the repository: nothing found by accident
    work.mkdir()
    out = work / "out"
    done = _run([bin_dir / "redactor", "redact", SAMPLE, "--out", out], cwd=work)
    assert done.returncode == 0, done.stderr[-2000:]
    boxes = json.loads((out / f"{SAMPLE.stem}.boxes.jsonl").read_text())
    assert (out / f"{SAMPLE.stem}.redacted.png").exists() and boxes["predictions"]

    listed = _run([bin_dir / "redactor", "plugins", "--json"], cwd=work)
    assert {"tesseract", "rules", "presidio"} <= {p["name"] for p in json.loads(listed.stdout)}
    assert _run([bin_dir / "redactor", "eval", "--help"], cwd=work).returncode == 0
    for generic in ("plugins", "eval", "mappings"):
        probe = _run([bin_dir / "python", "-c", f"import {generic}"], cwd=work)
        assert probe.returncode != 0 and "No module named" in probe.stderr, generic
