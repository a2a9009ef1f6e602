"""Every example in the README works as written: each `redactor ...` command line parses
(flags and choices exist), each config block loads and names only options its plugins have,
and the redaction examples (redact, the config file, review then apply, the Python API) run
for real on a sample page, with the files they name made from it."""
from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import pytest
from PIL import Image

from redactor.cli import build_parser, main
from redactor.config import load_config

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SAMPLE = sorted((ROOT / "eval/data/sample/images").glob("*.png"))[0]
# commands that run here in seconds on one page; the others need datasets or archives
RUNNABLE = {"redact", "apply", "config", "plugins"}


def _fenced() -> list[tuple[str, str]]:
    """(language, text) of every fenced block, fences paired in order."""
    blocks, lang, lines = [], None, []
    for line in README.splitlines():
        if line.startswith("```"):
            if lang is None:
                lang, lines = line[3:].strip(), []
            else:
                blocks.append((lang, "\n".join(lines) + "\n"))
                lang = None
        elif lang is not None:
            lines.append(line)
    return blocks


def _blocks(lang: str) -> list[str]:
    return [text for kind, text in _fenced() if kind == lang]


def _command_lines() -> list[str]:
    lines = []
    for block in _blocks(""):
        text = block.replace("\\\n", " ")
        for line in text.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("redactor "):
                lines.append(line)
    return lines


def _config_blocks() -> list[str]:
    return [b for b in _blocks("toml") if "[project" not in b]


COMMANDS = _command_lines()


def test_the_readme_has_examples():
    assert len(COMMANDS) >= 8 and len(_config_blocks()) >= 2 and _blocks("python")


@pytest.mark.parametrize("line", COMMANDS)
def test_every_command_line_parses(line):
    # "[--tau 0.75]" in a synopsis is an optional part: parse it as given
    argv = shlex.split(line.replace("[", " ").replace("]", " "))[1:]
    args = build_parser().parse_args(argv)
    assert args.func


@pytest.mark.parametrize("block", _config_blocks())
def test_every_config_block_loads(tmp_path, block):
    path = tmp_path / "run.toml"
    path.write_text(block)
    cfg = load_config(path)
    # the options it sets reach a plugin that has them (checked without loading models)
    from redactor.registry import check_options
    check_options("ocr", cfg.ocr, cfg.ocr_options)
    for name in cfg.detectors:
        check_options("detector", name, cfg.detector_options.get(name, {}))


def _make_inputs(line: str, folder: Path) -> None:
    """The files a command line names, made from the sample page."""
    for word in shlex.split(line):
        path = folder / word
        if path.exists() or "/" in word.rstrip("/"):
            continue
        if word.endswith(".png"):
            shutil.copy(SAMPLE, path)
        elif word.endswith(".pdf"):
            Image.open(SAMPLE).convert("RGB").save(path, resolution=150)
        elif word.endswith(".toml"):
            path.write_text(_config_blocks()[0])


def test_the_redaction_examples_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    ran = []
    for line in COMMANDS:
        argv = shlex.split(line)[1:]
        if argv[0] not in RUNNABLE:
            continue
        _make_inputs(line, tmp_path)
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 0, f"{line!r} exited {code}: {err}"
        ran.append(argv[0])
    assert {"redact", "apply"} <= set(ran)
    assert list(Path("redacted").glob("*.redacted.png")) and Path("redacted/scan2.redacted.pdf").exists()


def test_the_python_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SAMPLE, "scan.png")
    namespace: dict = {}
    exec(_blocks("python")[0], namespace)   # noqa: S102 - the README's own example
    image, redactions = namespace["redacted_image"], namespace["redactions"]
    assert image.size == Image.open(SAMPLE).size and redactions
    assert os.path.exists("scan.png")
