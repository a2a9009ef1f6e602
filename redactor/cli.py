"""The ``redactor`` command line: a thin dispatcher over the subcommand modules in
``redactor/commands/`` (each exposes ``register(subparsers)``; its parser's ``func`` takes
the parsed arguments and returns the exit code). All errors become one line on stderr and
the exit code of their type, here and nowhere else; warnings and log lines have one format,
``redactor: warning: ...``, written above any progress bar."""
from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import sys
from importlib.metadata import entry_points

from redactor import __version__
from redactor.errors import PluginUnavailable, RedactorError, exit_code_for, one_line

# Packages of the optional extras (pyproject.toml) that commands import on use: missing, they
# are a one-line "install the extra", not a traceback (`make demo` installs only the core).
OPTIONAL_MODULES = {"matplotlib": "eval", "faker": "eval", "img2pdf": "test", "pikepdf": "test",
                    "pypdf": "test", "boto3": "cloud", "botocore": "cloud", "google": "cloud",
                    "torch": "gliner", "transformers": "gliner", "gliner": "gliner",
                    "gliner2": "gliner", "ray": "ray", "onnxruntime": "rapidocr"}


DESCRIPTION = ("Find personal data on document page images and PDFs, burn it out with opaque "
               "boxes, and measure page by page whether a redacted page is safe to publish.")
EPILOG = ("`redactor COMMAND --help` lists a command's options; `redactor config` shows every "
          "setting with its default; `redactor plugins` what can run here.")


class HelpFormatter(argparse.HelpFormatter):
    """Shows each option's default: the flag's own, or for the pipeline options (whose flags
    default to None so a config file can set them) the config default they fall back to."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "default" in text.lower() or action.nargs == 0 or action.required or \
                action.default is argparse.SUPPRESS or not action.option_strings:
            return text
        default = action.default
        if default is None or default == []:
            default = _config_default(action.dest)
        if default is None or default == [] or default == {}:
            return text
        if isinstance(default, (list, tuple)):
            default = ", ".join(map(str, default))
        return f"{text} (default: {str(default).replace('%', '%%')})"


def _config_default(dest: str):
    from redactor.config import RedactorConfig

    return getattr(RedactorConfig(), dest, None)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="redactor", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"redactor {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    import redactor.commands as commands
    registers = {mod.name: importlib.import_module(f"redactor.commands.{mod.name}").register
                 for mod in pkgutil.iter_modules(commands.__path__) if not mod.name.startswith("_")}
    # commands of other packages (the evaluation's: eval, bench, predict, synth, docpp) come
    # through entry points, so the core does not import them
    for ep in entry_points(group="redactor.commands"):
        registers.setdefault(ep.name, ep)
    for name in sorted(registers):
        register = registers[name]
        (register.load() if hasattr(register, "load") else register)(sub)
    for command in _subcommands(parser):
        command.formatter_class = HelpFormatter
        if "-v" not in command._option_string_actions:
            # -v works after the subcommand too; SUPPRESS keeps the top-level value
            command.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                                 help="log progress details")
    return parser


def _subcommands(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in dict.fromkeys(action.choices.values()):
                yield command
                yield from _subcommands(command)


class _LineFormatter(logging.Formatter):
    """``redactor: warning: message`` (with -v, the logger's name before the message)."""

    def __init__(self, verbose: bool):
        super().__init__()
        self.verbose = verbose

    def format(self, record: logging.LogRecord) -> str:
        message = one_line(record.getMessage())
        if self.verbose and record.name not in ("root", "py.warnings"):
            message = f"{record.name}: {message}"
        return f"redactor: {record.levelname.lower()}: {message}"


class _AboveProgressBars(logging.Handler):
    """Writes through tqdm, so a warning lands above a progress bar instead of inside it."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            from tqdm import tqdm
            tqdm.write(self.format(record), file=sys.stderr)
        except Exception:   # logging must never take the run down
            self.handleError(record)


def setup_logging(verbose: bool) -> None:
    import warnings

    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _AboveProgressBars)]:
        root.removeHandler(old)      # main() called again in one process: one handler
    handler = _AboveProgressBars()
    handler.setFormatter(_LineFormatter(verbose))
    root.addHandler(handler)         # other handlers (an embedding app's, a test's) stay
    root.setLevel(logging.INFO if verbose else logging.WARNING)
    # Python warnings (a library's DeprecationWarning, ...) in the same one-line form
    warnings.formatwarning = lambda message, category, *_a, **_k: f"{category.__name__}: {message}"
    logging.captureWarnings(True)
    if not verbose:
        # Presidio logs every recognizer it skips for other languages at WARNING.
        logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    setup_logging(args.verbose)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except RedactorError as exc:
        print(f"redactor: error: {one_line(exc)}", file=sys.stderr)
        return exit_code_for(exc)
    except ModuleNotFoundError as exc:
        extra = OPTIONAL_MODULES.get((exc.name or "").split(".")[0])
        if extra is None:
            return _internal_error(exc, args.verbose)
        error = PluginUnavailable(f"`redactor {args.command}` needs {exc.name}, which is in the "
                                  f"'{extra}' extra: pip install -e '.[{extra}]' (or make test)")
        print(f"redactor: error: {one_line(error)}", file=sys.stderr)
        return exit_code_for(error)
    except KeyboardInterrupt:
        print("redactor: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of stdout went away (`redactor config | head`): stop quietly, with the
        # status of a process a SIGPIPE ended, since work may have been left undone
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except MemoryError as exc:
        print("redactor: error: out of memory (exit code 8; pages are processed one at a time, "
              "so lower --pdf-dpi or --max-pixels, or use fewer --workers)", file=sys.stderr)
        return exit_code_for(exc)
    except Exception as exc:   # a bug, not a user error: still one line, details with -v
        return _internal_error(exc, args.verbose)


def _internal_error(exc: Exception, verbose: bool) -> int:
    if verbose:
        raise exc
    print(f"redactor: internal error: {type(exc).__name__}: {one_line(exc)} (run with -v for details)",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
