"""The ``redactor`` command line: a thin dispatcher over the subcommand modules in
``redactor/commands/`` (each exposes ``register(subparsers)``; its parser's ``func`` takes
the parsed arguments and returns the exit code). All errors become one line on stderr and
the exit code of their type, here and nowhere else."""
from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import sys

from redactor import __version__
from redactor.errors import PluginUnavailable, RedactorError, exit_code_for, one_line

# Packages of the optional extras (pyproject.toml) that commands import on use: missing, they
# are a one-line "install the extra", not a traceback (`make demo` installs only the core).
OPTIONAL_MODULES = {"matplotlib": "eval", "faker": "eval", "img2pdf": "test", "pikepdf": "test",
                    "pypdf": "test", "boto3": "cloud", "botocore": "cloud", "google": "cloud",
                    "torch": "gliner", "transformers": "gliner", "gliner": "gliner",
                    "gliner2": "gliner", "ray": "ray", "onnxruntime": "rapidocr"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="redactor", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"redactor {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    import redactor.commands as commands
    for mod in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if mod.name.startswith("_"):
            continue
        importlib.import_module(f"redactor.commands.{mod.name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    if not args.verbose:
        # Presidio logs every recognizer it skips for other languages at WARNING.
        logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)
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
