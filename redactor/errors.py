"""Typed errors and the one place that maps them to exit codes."""
from __future__ import annotations


class RedactorError(Exception):
    """Base class: a failure with a one-line message for the user."""
    exit_code = 1


class InputError(RedactorError):
    """The user's input (image, PDF, JSON, option, type name) cannot be used."""
    exit_code = 2


class PluginUnavailable(RedactorError):
    """A plugin cannot run here: missing binary, package, model or credentials."""
    exit_code = 3


class PluginFailed(RedactorError):
    """A plugin ran and failed (crash, timeout, garbage output)."""
    exit_code = 4


class OutputError(RedactorError):
    """An output cannot be written (folder not writable, disk full)."""
    exit_code = 5


class VerificationFailed(RedactorError):
    """A redacted page still shows a critical identifier when read again."""
    exit_code = 6


# Exit code when a batch finished but some pages failed.
EXIT_PARTIAL = 7


class ResourceExhausted(RedactorError):
    """The machine ran out of memory for this input (Python's MemoryError)."""
    exit_code = 8


def plugin_failure(what: str, exc: BaseException) -> RedactorError:
    """The error for a plugin step that raised ``exc``: a full disk (the temporary files an
    OCR engine writes) is the machine's output space running out, exit 5 like any write;
    anything else is the plugin failing."""
    import errno

    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return OutputError(f"{what}: no space left for temporary files: {exc.strerror or exc}")
    return PluginFailed(f"{what} failed: {type(exc).__name__}: {exc}")


def exit_code_for(exc: BaseException) -> int:
    if isinstance(exc, RedactorError):
        return exc.exit_code
    if isinstance(exc, MemoryError):
        return ResourceExhausted.exit_code
    return 1


def one_line(text: object) -> str:
    """``text`` safe to print as one status line: control characters (a newline or an
    escape sequence in a file name) are shown escaped, so a name cannot forge a line."""
    return "".join(c if c.isprintable() or c == " " else
                   c.encode("unicode_escape").decode("ascii") for c in str(text))
