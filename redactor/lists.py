"""Allow and deny lists: the user's last word on what is hidden, applied by the pipeline
itself after every detector ran, so no detector can undo them.

* **Allow** (``allow`` terms, ``allow_patterns`` regexes): a found span whose whole value
  is an allowed term (case-insensitive, whitespace and surrounding punctuation ignored) or
  matches an allowed regex in full (``re.fullmatch``, case-insensitive) is dropped, whichever
  detector found it, and so are the repeats of it that the pipeline adds.
* **Deny** (``deny`` terms, ``deny_patterns`` regexes): every occurrence in the OCR text of a
  denied term (case-insensitive, on word boundaries, any run of whitespace matching any
  other) or a match of a denied regex (``re.finditer``, case-insensitive) is redacted,
  even if no detector found it. An entry is a string (type ``OTHER``) or a table
  ``{term = "...", type = "ID_NUMBER"}`` / ``{pattern = "...", type = "..."}``.

Deny wins over allow: a value both allowed and denied is redacted.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from redactor.errors import InputError
from redactor.model import STRUCTURAL, OcrPage, Span

DENY_DETECTOR = "deny"        # the ``detector`` (boxes file: ``sources``) of a deny-list span
DEFAULT_DENY_TYPE = "OTHER"   # the taxonomy's catch-all type (group "other")
FLAGS = re.IGNORECASE

# what may surround a value in a span without making it another value
_EDGE = " \t\r\n.,;:!?\"'()[]{}<>«»“”‘’"


def normalise(text: str) -> str:
    """A value as compared with allowed terms: whitespace runs as one space, surrounding
    punctuation off, case folded."""
    return " ".join(text.split()).strip(_EDGE).casefold()


@dataclass(frozen=True)
class DenyEntry:
    regex: re.Pattern
    type: str


@dataclass
class Lists:
    allow_terms: frozenset[str] = frozenset()
    allow_patterns: tuple[re.Pattern, ...] = ()
    deny: tuple[DenyEntry, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.allow_terms or self.allow_patterns or self.deny)

    # -- allow ---------------------------------------------------------------------------
    def allowed(self, value: str) -> bool:
        if not (self.allow_terms or self.allow_patterns):
            return False
        norm = normalise(value)
        if norm in self.allow_terms:
            return True
        plain = " ".join(value.split()).strip(_EDGE)
        return any(p.fullmatch(plain) for p in self.allow_patterns)

    def drop_allowed(self, page: OcrPage, spans: Iterable[Span]) -> list[Span]:
        """``spans`` without those whose value is allowed (deny-list spans always stay)."""
        return [s for s in spans
                if DENY_DETECTOR in s.detector.split("+")
                or not self.allowed(page.text[s.start:s.end])]

    # -- deny ----------------------------------------------------------------------------
    def denied_spans(self, page: OcrPage) -> list[Span]:
        text = page.text
        out: list[Span] = []
        seen: set[tuple[int, int]] = set()
        for entry in self.deny:
            for m in entry.regex.finditer(text):
                start, end = m.start(), m.end()
                while start < end and text[start].isspace():
                    start += 1
                while end > start and text[end - 1].isspace():
                    end -= 1
                if end <= start or (start, end) in seen:
                    continue
                seen.add((start, end))
                out.append(Span(start, end, entry.type, 1.0, DENY_DETECTOR, text[start:end], STRUCTURAL))
        return out

    def add_denied(self, page: OcrPage, spans: Sequence[Span]) -> list[Span]:
        """``spans`` plus a span for every deny-list match not already inside one of them."""
        out = list(spans)
        for d in self.denied_spans(page):
            if not any(s.start <= d.start and d.end <= s.end for s in spans):
                out.append(d)
        return out


def term_regex(term: str) -> re.Pattern:
    words = term.split()
    body = r"\s+".join(re.escape(w) for w in words)
    pattern = (r"(?<!\w)" if re.match(r"\w", words[0]) else "") + body + \
              (r"(?!\w)" if re.search(r"\w$", words[-1]) else "")
    return re.compile(pattern, FLAGS)


def _compile(pattern: Any, where: str) -> re.Pattern:
    if not isinstance(pattern, str) or not pattern:
        raise InputError(f"{where} must be a non-empty regular expression string, not {pattern!r}")
    try:
        regex = re.compile(pattern, FLAGS)
    except re.error as exc:
        raise InputError(f"{where}: bad regular expression {pattern!r}: {exc}") from None
    return regex


def _term(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.split():
        raise InputError(f"{where} must be a non-empty string, not {value!r}")
    return value


def _type(value: Any, where: str) -> str:
    from redactor.taxonomy import fine_types, is_known
    if not isinstance(value, str) or not is_known(value.upper()):
        raise InputError(f"{where}: unknown type {value!r} (known: {', '.join(fine_types())})")
    return value.upper()


def _as_list(value: Any, key: str) -> list:
    if value is None:
        return []
    if isinstance(value, (str, dict)):
        return [value]
    if not isinstance(value, (list, tuple)):
        raise InputError(f"{key} must be a list, not {value!r}")
    return list(value)


def _deny_entry(item: Any, where: str, kind: str) -> DenyEntry:
    """``kind`` is "term" or "pattern"."""
    etype = DEFAULT_DENY_TYPE
    if isinstance(item, dict):
        unknown = sorted(set(item) - {kind, "type"})
        if unknown or kind not in item:
            raise InputError(f"{where} must be a string or a table {{{kind} = \"...\", type = \"...\"}}, "
                             f"not {item!r}")
        if "type" in item:
            etype = _type(item["type"], f"{where}.type")
        item = item[kind]
    if kind == "term":
        return DenyEntry(term_regex(_term(item, where)), etype)
    return DenyEntry(_compile(item, where), etype)


def build_lists(allow: Any = None, allow_patterns: Any = None, deny: Any = None,
                deny_patterns: Any = None, *, names: dict[str, str] | None = None) -> Lists:
    """Validated, compiled lists; a bad entry is an InputError naming its key (``names``
    renames the keys in messages, e.g. to the CLI flag)."""
    names = {"allow": "allow", "allow_patterns": "allow_patterns", "deny": "deny",
             "deny_patterns": "deny_patterns", **(names or {})}
    terms = frozenset(normalise(_term(t, f"{names['allow']}[{i}]"))
                      for i, t in enumerate(_as_list(allow, names["allow"])))
    patterns = tuple(_compile(p, f"{names['allow_patterns']}[{i}]")
                     for i, p in enumerate(_as_list(allow_patterns, names["allow_patterns"])))
    entries = [_deny_entry(t, f"{names['deny']}[{i}]", "term")
               for i, t in enumerate(_as_list(deny, names["deny"]))]
    entries += [_deny_entry(p, f"{names['deny_patterns']}[{i}]", "pattern")
                for i, p in enumerate(_as_list(deny_patterns, names["deny_patterns"]))]
    return Lists(terms, patterns, tuple(entries))


def lists_from_config(cfg) -> Lists:
    return build_lists(cfg.allow, cfg.allow_patterns, cfg.deny, cfg.deny_patterns)
