"""The command line explains itself the same way everywhere: whole descriptions, a help text
and the default for every option, `-v` before or after the command, one meaning and one
default per shared flag, and one format for warnings."""
from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from redactor.cli import HelpFormatter, _subcommands, build_parser, main

PARSER = build_parser()
COMMANDS = {p.prog: p for p in _subcommands(PARSER)}


def _options(parser):
    return [a for a in parser._actions if a.option_strings and a.help is not argparse.SUPPRESS
            and not isinstance(a, (argparse._HelpAction, argparse._VersionAction))]


@pytest.mark.parametrize("prog", sorted(COMMANDS))
def test_descriptions_are_whole_sentences(prog):
    parser = COMMANDS[prog]
    text = (parser.description or "").strip()
    assert len(text) > 30 and text[-1] in ".)", f"{prog}: description {text!r}"


def test_the_top_level_description_is_whole():
    assert PARSER.description.endswith(".") and "thin dispatcher" not in PARSER.description


@pytest.mark.parametrize("prog", sorted(COMMANDS))
def test_every_option_has_help_and_shows_its_default(prog):
    parser = COMMANDS[prog]
    formatter = HelpFormatter(prog)
    for action in _options(parser):
        assert action.help, f"{prog} {action.option_strings[0]} has no help"
        shown = formatter._get_help_string(action) % {"default": action.default}
        takes_value = action.nargs != 0
        default = action.default
        if takes_value and not action.required and default not in (None, [], argparse.SUPPRESS):
            assert "default" in shown.lower(), f"{prog} {action.option_strings[0]}: {shown!r}"


def test_pipeline_flags_show_the_config_default_they_fall_back_to():
    text = COMMANDS["redactor redact"].format_help()
    assert "(default: 0.0)" in text.replace("\n", " ").replace("  ", " ") or "default: 0.0" in text
    assert "200" in text and "tesseract" in text


@pytest.mark.parametrize("argv", [["-v", "config"], ["config", "-v"], ["plugins", "-v", "--json"]])
def test_verbose_goes_before_or_after_the_command(argv):
    assert PARSER.parse_args(argv).verbose is True
    assert PARSER.parse_args([a for a in argv if a != "-v"]).verbose is False


def test_shared_flags_mean_the_same_and_default_the_same():
    workers = {prog: next(a.default for a in _options(p) if "--workers" in a.option_strings)
               for prog, p in COMMANDS.items() if "--workers" in p._option_string_actions}
    assert len(workers) >= 4 and len(set(workers.values())) == 1, workers
    # --types: PII types wherever it exists (synth's page kinds are --page-types)
    for prog, p in COMMANDS.items():
        if "--types" in p._option_string_actions:
            assert "type" in p._option_string_actions["--types"].help.lower()
            assert "page" not in p._option_string_actions["--types"].help.lower(), prog
    assert "--page-types" in COMMANDS["redactor synth"]._option_string_actions


def test_warnings_have_one_format():
    # in a fresh interpreter: pytest records warnings itself
    code = ("import logging, warnings; from redactor.cli import setup_logging; setup_logging(False); "
            "logging.getLogger('redactor.imageio').warning('first line\\nsecond line'); "
            "warnings.warn(\"a library's warning\", UserWarning)")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stderr.splitlines()
    assert err[0].startswith("redactor: warning: first line") and "second line" in err[0], err
    assert err[1].startswith("redactor: warning: ") and "a library's warning" in err[1], err
    assert len(err) == 2


def test_a_cli_warning_uses_it_too(tmp_path, capsys):
    from PIL import Image
    page = tmp_path / "p.png"
    Image.new("RGB", (300, 120), "white").save(page)
    assert main(["redact", str(page), "--out", str(tmp_path / "o"), "--preview", "--verify",
                 "--visual", "none"]) == 0
    err = capsys.readouterr().err
    assert "redactor: warning: --verify does not run with --preview" in err


def test_a_closed_pipe_is_not_an_internal_error():
    # `redactor config | head -0`: the reader is gone before the first line is written
    proc = subprocess.Popen([sys.executable, "-m", "redactor", "config"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141 and "internal error" not in err, err
