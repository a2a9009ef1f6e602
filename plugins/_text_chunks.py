"""Splitting page text into chunks under a vendor's UTF-8 byte limit, on line boundaries.

Each chunk is an exact slice ``text[start:end]``, so a vendor's offset inside a chunk plus
the chunk's start is an offset in the page text. A line longer than the limit is split at
spaces, and a word longer than the limit at character boundaries (never inside a UTF-8
sequence). Chunks holding only whitespace are left out: there is nothing to find in them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Chunk:
    start: int
    text: str

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def _nbytes(s: str) -> int:
    return len(s.encode("utf-8"))


def _pieces(text: str, max_bytes: int) -> list[str]:
    """Consecutive pieces of ``text`` (joined they give it back), each under the limit,
    cut after newlines where possible, then after spaces, then anywhere."""
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        if _nbytes(line) <= max_bytes:
            out.append(line)
            continue
        for word in re.findall(r"\S*\s*", line):
            if not word:
                continue
            if _nbytes(word) <= max_bytes:
                out.append(word)
                continue
            run, size = [], 0
            for ch in word:
                n = _nbytes(ch)
                if size + n > max_bytes and run:
                    out.append("".join(run))
                    run, size = [], 0
                run.append(ch)
                size += n
            if run:
                out.append("".join(run))
    return out


def chunk_text(text: str, max_bytes: int) -> list[Chunk]:
    """Greedy packing of whole lines into chunks of at most ``max_bytes`` UTF-8 bytes."""
    if max_bytes < 4:
        raise ValueError("max_bytes must hold at least one character (4 bytes)")
    chunks: list[Chunk] = []
    start, parts, size = 0, [], 0
    pos = 0
    for piece in _pieces(text, max_bytes):
        n = _nbytes(piece)
        if parts and size + n > max_bytes:
            chunks.append(Chunk(start, "".join(parts)))
            start, parts, size = pos, [], 0
        parts.append(piece)
        size += n
        pos += len(piece)
    if parts:
        chunks.append(Chunk(start, "".join(parts)))
    return [c for c in chunks if c.text.strip()]
