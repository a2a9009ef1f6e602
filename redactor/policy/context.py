"""Scale, currency and dimension a text declares once for the bare numbers under it.

Reports state units in headers: "All amounts in € thousands", "Segment revenue (in
millions)", "Revenue by region (USD millions):", "Region | Revenue ($000s)", a column
"Share of revenue" or "Headcount". Such a declaration applies to the *bare* numbers after
it (no currency, unit, scale word or counted noun of their own), until the paragraph ends
(a blank line) or another declaration starts. In a pipe table ("a | b" lines) a header
cell's declaration applies to its own column only.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from redactor.policy.units import (CODE_ALIASES, CURRENCY_CODES, CURRENCY_SYMBOLS,
                                   CURRENCY_WORDS, LEADING_COUNT_NOUNS, count_noun)

_SYMS = "|".join(re.escape(s) for s in sorted(CURRENCY_SYMBOLS, key=len, reverse=True)
                 if not s.isalpha())
_CODES = "|".join(CURRENCY_CODES)
_CURWORDS = "|".join(sorted(CURRENCY_WORDS, key=len, reverse=True))
_HEADER_SCALES = {"thousands": 10**3, "thousand": 10**3, "'000s": 10**3, "'000": 10**3,
                  "000s": 10**3, "000": 10**3, "k": 10**3, "tsd": 10**3, "tsd.": 10**3,
                  "millions": 10**6, "million": 10**6, "mn": 10**6, "mln": 10**6, "m": 10**6,
                  "mio": 10**6, "mio.": 10**6, "billions": 10**9, "billion": 10**9,
                  "bn": 10**9, "mrd": 10**9, "mrd.": 10**9}
_SCALE_ALT = "|".join(re.escape(s) for s in sorted(_HEADER_SCALES, key=len, reverse=True))
# "in € thousands", "(in millions)", "(USD millions)", "($000s)", "($m)", "in thousands of
# euros". The declaration must end there (bracket, punctuation, line end): "in millions of
# homes" declares nothing.
_HEADER = re.compile(
    rf"(?:(?P<open>\()\s*(?:in\s+)?|\bin\s+)"
    rf"(?:(?P<cur>{_SYMS}|\b(?:{_CODES})\b)\s*)?"
    rf"(?P<scale>{_SCALE_ALT})(?![\w'])"
    rf"(?:\s+of\s+(?P<curword>{_CURWORDS}|{_CODES})\b)?"
    rf"(?=\s*(?:\)|[.:;,]|\n|$))", re.IGNORECASE)
_PERCENT_HEADER = re.compile(r"\(\s*(?:in\s+)?%\s*\)|\bin\s+%|\bin\s+per\s*cent\b", re.IGNORECASE)
_SHARE_WORDS = re.compile(r"\b(?:share|proportion|ratio|fraction|mix|weight)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Declaration:
    """What a header says the bare numbers under it are."""
    scale: int = 1
    currency: str = ""
    ratio: str = ""          # "percent": 12 means 12 %; "share": 0.12 means 12 %
    noun: str = ""           # a counted noun ("headcount")

    def __bool__(self) -> bool:
        return self.scale != 1 or bool(self.currency or self.ratio or self.noun)


def _currency(m: re.Match) -> str:
    cur = m.group("cur") or ""
    if cur:
        code = CURRENCY_SYMBOLS.get(cur, cur.upper())
        return CODE_ALIASES.get(code, code)
    word = (m.group("curword") or "").lower()
    if word:
        return CURRENCY_WORDS.get(word, CODE_ALIASES.get(word.upper(), word.upper()))
    return ""


def _declaration_in(fragment: str) -> Declaration:
    m = _HEADER.search(fragment)
    if m:
        scale = m.group("scale").lower()
        cur = _currency(m)
        # a lone letter ("(m)", "in k") is a unit unless money is named beside it
        if scale in ("k", "m") and not cur:
            return Declaration()
        return Declaration(_HEADER_SCALES[scale], cur)
    if _PERCENT_HEADER.search(fragment):
        return Declaration(ratio="percent")
    return Declaration()


def _cell_declaration(cell: str) -> Declaration:
    d = _declaration_in(cell)
    if d:
        return d
    if "%" in cell:
        return Declaration(ratio="percent")
    if _SHARE_WORDS.search(cell):
        return Declaration(ratio="share")
    for w in re.findall(r"[A-Za-z]+", cell):
        if w.lower() in LEADING_COUNT_NOUNS or count_noun(w):
            return Declaration(noun=w.lower())
    return Declaration()


class Declarations:
    """The declarations of one text: ``at(pos)`` is the one in force at a position (its
    table cell's column, else the latest header phrase whose paragraph holds it);
    ``headers`` are the spans that declare (not themselves quantities)."""

    def __init__(self, text: str):
        self.cells: list[tuple[int, int, Declaration]] = []     # disjoint, in order
        self.scopes: list[tuple[int, int, Declaration]] = []
        self.headers: list[tuple[int, int]] = []
        self._cell_starts: list[int] = []
        self._scope_starts: list[int] = []
        if not re.search(r"\(|\bin\b|\|", text):
            return
        table_headers = self._tables(text)
        paragraphs = [(m.start(), m.end()) for m in re.finditer(r"(?:(?!\n\s*\n).)+", text, re.S)]
        para_starts = [p[0] for p in paragraphs]
        for m in sorted(list(_HEADER.finditer(text)) + list(_PERCENT_HEADER.finditer(text)),
                        key=lambda m: m.start()):
            if any(s <= m.start() < e for s, e in table_headers):
                continue
            d = _declaration_in(m.group(0))
            if not d:
                continue
            k = bisect_right(para_starts, m.start()) - 1
            end = paragraphs[k][1] if k >= 0 else len(text)
            if self.scopes and self.scopes[-1][1] > m.start():
                # a later declaration ends the scope of an earlier one
                ps, _, pd = self.scopes[-1]
                self.scopes[-1] = (ps, m.start(), pd)
            self.scopes.append((m.end(), end, d))
            self.headers.append(m.span())
        self._cell_starts = [c[0] for c in self.cells]
        self._scope_starts = [sc[0] for sc in self.scopes]

    def _tables(self, text: str) -> list[tuple[int, int]]:
        """Pipe tables: a header line, then rows with the same cells."""
        table_headers = []
        lines = [(m.start(), m.end()) for m in re.finditer(r"[^\n]+", text)]
        i = 0
        while i < len(lines):
            s, e = lines[i]
            if "|" not in text[s:e]:
                i += 1
                continue
            header_cells = _cells(text, s, e)
            decls = [_cell_declaration(text[a:b]) for a, b in header_cells]
            table_headers.append((s, e))
            self.headers.extend(hc for hc, d in zip(header_cells, decls) if d)
            j = i + 1
            while j < len(lines) and "|" in text[lines[j][0]:lines[j][1]]:
                for k, (a, b) in enumerate(_cells(text, *lines[j])):
                    if k < len(decls) and decls[k]:
                        self.cells.append((a, b, decls[k]))
                j += 1
            i = j
        return table_headers

    def at(self, pos: int) -> Declaration | None:
        i = bisect_right(self._cell_starts, pos) - 1 if self.cells else -1
        if i >= 0 and pos < self.cells[i][1]:
            return self.cells[i][2]
        i = bisect_right(self._scope_starts, pos) - 1 if self.scopes else -1
        if i >= 0 and pos < self.scopes[i][1]:
            return self.scopes[i][2]
        return None


def _cells(text: str, s: int, e: int) -> list[tuple[int, int]]:
    cells, pos = [], s
    for m in re.finditer(r"\|", text[s:e]):
        cells.append((pos, s + m.start()))
        pos = s + m.end()
    cells.append((pos, e))
    return cells
