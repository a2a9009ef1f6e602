"""Reading the contract's JSON-lines files: one JSON object a line, every problem reported
as an ``InputError`` naming the file and the line.

Files may come from anywhere, so reading is bounded: lines are read one at a time and never
beyond ``max_line_bytes`` (a 200 MB line without a newline costs that much memory, not
200 MB), nesting is limited, integers too long to convert and lone surrogates are refused.
NaN and Infinity (which Python's json writes) are read as floats on purpose: every number
the contract uses is checked with ``is_number`` by its loader, so a non-finite value in gold
is an error naming the line and in a prediction box makes that prediction invalid (the
contract's "malformed box"), never a crash. A UTF-8 byte order mark at the very start of
the file is skipped, as RFC 8259 allows; one starting a later line is an error.
"""
from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Iterator

import numpy as np

from redactor.errors import InputError

DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024   # one page of OCR words is well under 1 MB
MAX_DEPTH = 64                                # the contract's records nest 4 levels deep
_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# A \uD800-\uDFFF escape; only then can a parsed string hold a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_KEEP_BRACKETS = {c: None for c in range(128) if chr(c) not in "[]{}"}


class LineError(ValueError):
    """A problem with one record; the reader adds the file and line to it."""


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 300:       # far beyond any coordinate or count
        raise LineError(f"integer with {len(text)} digits is out of range")
    return int(text)


# Python 3.11+ refuses to convert overlong digit strings (ValueError) by itself; before
# that, int() of a many-megabyte number runs for hours, so check lengths ourselves.
_INT_HOOK = None if hasattr(sys, "get_int_max_str_digits") else _bounded_int


def _depth_exceeds(line: str, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit``. Checked before parsing:
    the parser itself would recurse that deep, and so would any code walking the value."""
    if line.count("[") + line.count("{") <= limit:
        return False
    brackets = _JSON_STRING.sub("", line).translate(_KEEP_BRACKETS).encode("ascii", "ignore")
    steps = np.frombuffer(brackets, dtype=np.uint8)
    depth = 0
    for chunk in range(0, len(steps), 1 << 20):      # bounded temporaries for huge lines
        part = steps[chunk:chunk + (1 << 20)]
        running = depth + np.cumsum(np.where((part == 91) | (part == 123), 1, -1), dtype=np.int64)
        if running.max(initial=depth) > limit:
            return True
        depth = int(running[-1])
    return False


def _lone_surrogate(record) -> bool:
    try:
        json.dumps(record, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def parse_line(line: str, max_depth: int = MAX_DEPTH):
    """One line of text -> its JSON value; raises ``LineError`` with the reason."""
    if _depth_exceeds(line, max_depth):
        raise LineError(f"JSON nested deeper than {max_depth} levels")
    try:
        value = json.loads(line, parse_int=_INT_HOOK)
    except json.JSONDecodeError as exc:
        raise LineError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except ValueError as exc:          # integer too long to convert (Python's own limit)
        raise LineError(f"a number is out of range ({str(exc).split(';')[0]})") from None
    except RecursionError:
        raise LineError(f"JSON nested deeper than {max_depth} levels") from None
    if _SURROGATE_ESCAPE.search(line) and _lone_surrogate(value):
        raise LineError("a string holds a lone UTF-16 surrogate escape (not valid Unicode)")
    return value


def read_records(path: str | Path, max_line_bytes: int | None = None) -> Iterator[tuple[int, dict]]:
    """Yield (line number, object) for every non-blank line of a JSON-lines file.

    ``max_line_bytes`` (default ``DEFAULT_MAX_LINE_BYTES``) bounds the memory one line may
    take; a longer line is an error naming its line."""
    path = Path(path)
    limit = int(max_line_bytes or DEFAULT_MAX_LINE_BYTES)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, expected a JSON-lines file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    with handle:
        lineno = 0
        while True:
            try:
                raw = handle.readline(limit + 1)
            except OSError as exc:
                raise InputError(f"{path}:{lineno + 1}: cannot be read: {exc.strerror or exc}") from None
            if not raw:
                return
            lineno += 1
            if len(raw) > limit:
                raise InputError(f"{path}:{lineno}: line is longer than {limit:,} bytes "
                                 f"(a JSON-lines file holds one record a line)")
            if lineno == 1:
                if raw.startswith(_UTF16_BOMS):
                    raise InputError(f"{path}:1: file is UTF-16 (byte order mark); save it as UTF-8")
                if raw.startswith(_BOM):
                    raw = raw[len(_BOM):]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(f"{path}:{lineno}: not UTF-8 text (byte {exc.start + 1} "
                                 f"of the line)") from None
            if line.startswith("\ufeff"):   # inside a string it is text; here, a second file
                raise InputError(f"{path}:{lineno}: byte order mark (U+FEFF) inside the file; "
                                 f"files joined together? Remove it")
            if not line.strip():
                continue
            try:
                record = parse_line(line)
            except LineError as exc:
                raise InputError(f"{path}:{lineno}: {exc}") from None
            if not isinstance(record, dict):
                raise InputError(f"{path}:{lineno}: expected a JSON object, "
                                 f"got {type(record).__name__}")
            yield lineno, record


def require_str(record: dict, key: str, *, optional: bool = False) -> str | None:
    value = record.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise LineError(f"{key!r} must be a non-empty string, got {value!r}")
    return value


def is_number(value) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def parse_box(value) -> tuple[float, float, float, float] | None:
    """Four finite numbers with x0 < x1 and y0 < y1, or None when malformed."""
    if not isinstance(value, (list, tuple)) or len(value) != 4 or not all(map(is_number, value)):
        return None
    x0, y0, x1, y1 = (float(v) for v in value)
    if not (x0 < x1 and y0 < y1):
        return None
    return (x0, y0, x1, y1)


def box_in_page(box: tuple[float, float, float, float], width: float, height: float) -> bool:
    x0, y0, x1, y1 = box
    return x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height
