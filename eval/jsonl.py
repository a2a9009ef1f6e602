"""Reading the contract's JSON-lines files: one JSON object a line, every problem reported
as an ``InputError`` naming the file and the line."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Iterator

from redactor.errors import InputError


class LineError(ValueError):
    """A problem with one record; the reader adds the file and line to it."""


def read_records(path: str | Path) -> Iterator[tuple[int, dict]]:
    """Yield (line number, object) for every non-blank line of a JSON-lines file."""
    path = Path(path)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, expected a JSON-lines file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    with handle:
        # bytes line by line, decoded one at a time, so a decoding error names its line
        for lineno, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError(f"{path}:{lineno}: not UTF-8 text") from None
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from None
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
