"""What was hidden stays out of what is published.

The boxes file beside a redacted page is published with it, so it records where and what
type each box is, its source and score, and never the text it hides (nor what a
verification re-read found). The hidden values go only to an audit file the user asks for
(``--audit FILE``): created owner-only, appended to, and refused inside the folder that gets
published.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable

from redactor.errors import InputError, OutputError

# keys of a page record that hold text read off the page
_TEXT_KEYS = ("value",)


def public_record(record: dict) -> dict:
    """A page record (the contract's prediction line) without the text it hides: the
    predictions' values and the verification findings' values go."""
    out = dict(record)
    out["predictions"] = [{k: v for k, v in p.items() if k not in _TEXT_KEYS}
                          for p in record.get("predictions") or []]
    verification = record.get("verification")
    if isinstance(verification, dict) and verification.get("findings"):
        out["verification"] = {**verification, "findings": [
            {k: v for k, v in f.items() if k not in _TEXT_KEYS} for f in verification["findings"]]}
    return out


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
        return True
    except ValueError:
        return False


class AuditLog:
    """The audit file: page records in full (hidden values included), one JSON line each,
    appended; readable by its owner only."""

    def __init__(self, path: str | Path, published: Iterable[str | Path]):
        self.path = Path(path).expanduser().resolve()
        for folder in published:
            folder = Path(folder).expanduser().resolve()
            if _inside(self.path, folder):
                raise InputError(f"--audit {path}: the audit file holds every hidden value and "
                                 f"lies inside the output folder {folder}, which is what gets "
                                 f"published; put it elsewhere")
        if self.path.is_dir():
            raise InputError(f"--audit {path} is a folder; name a file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            os.fchmod(self._fd, 0o600)   # an older file may have been readable by others
        except OSError as exc:
            raise OutputError(f"cannot open audit file {path}: {exc.strerror or exc}") from None

    def write(self, records: Iterable[dict]) -> None:
        data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")
        try:
            os.write(self._fd, data)
            os.fsync(self._fd)
        except OSError as exc:
            raise OutputError(f"cannot write audit file {self.path}: {exc.strerror or exc}") from None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "AuditLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
