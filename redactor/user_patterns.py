"""The user's own pattern rules, read from YAML files in Presidio's ad-hoc recognizer format
(``recognizers: [{name, supported_entity, patterns: [{name, regex, score}], context}]``), so
a recognizer file written for Presidio works here unchanged. Each recognizer is a rule of
its own: its spans carry its name (``pattern:<name>`` in the boxes file's sources) and go
through the same type, score and allow-list filters as every detector's.

``supported_entity`` is one of our fine types (``ID_NUMBER``) or a Presidio entity that
``mappings/presidio.yaml`` maps to one (``US_SSN``); anything else is refused, never
dropped. Context words raise a match's score the way Presidio's default context enhancer
does (by 0.35, to at least 0.4) when one of them stands on the same line before the match,
within five words: a weak pattern can so be kept only beside its label ("Staff no.").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from redactor.errors import InputError, one_line
from redactor.model import PATTERN, OcrPage, Span

SOURCE_PREFIX = "pattern:"
# Presidio's LemmaContextAwareEnhancer defaults (context_similarity_factor,
# min_score_with_context_similarity) and how far before a match it looks (prefix words)
CONTEXT_BOOST = 0.35
CONTEXT_FLOOR = 0.4
CONTEXT_WORDS = 5
_RECOGNIZER_KEYS = {"name", "supported_entity", "supported_entities", "patterns", "context",
                    "supported_language", "deny_list", "deny_list_score"}


@dataclass(frozen=True)
class PatternRule:
    name: str
    type: str
    regex: re.Pattern
    score: float
    context: tuple[str, ...] = ()


def load_pattern_files(paths: list[str]) -> tuple[PatternRule, ...]:
    rules: list[PatternRule] = []
    for path in paths:
        rules += _read_file(Path(path))
    return tuple(rules)


def find_pattern_spans(rules: tuple[PatternRule, ...], page: OcrPage) -> list[Span]:
    text = page.text
    out = []
    for rule in rules:
        for m in rule.regex.finditer(text):
            start, end = m.span()
            if end <= start:
                continue
            score = rule.score
            if rule.context and _has_context(text, start, rule.context):
                score = min(1.0, max(CONTEXT_FLOOR, score + CONTEXT_BOOST))
            out.append(Span(start, end, rule.type, score, SOURCE_PREFIX + rule.name, text[start:end],
                            PATTERN))
    return out


def _has_context(text: str, start: int, context: tuple[str, ...]) -> bool:
    line = text[text.rfind("\n", 0, start) + 1:start]
    before = [w.strip(".:;,#()").casefold() for w in line.split()][-CONTEXT_WORDS:]
    return any(w.startswith(c) for w in before for c in context)


def _read_file(path: Path) -> list[PatternRule]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"pattern file {path} not found") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise InputError(f"pattern file {path} is not valid YAML: {one_line(exc)}") from None
    recognizers = data.get("recognizers") if isinstance(data, dict) else None
    if not isinstance(recognizers, list) or not recognizers:
        raise InputError(f"pattern file {path}: expected a 'recognizers:' list (Presidio's format)")
    rules: list[PatternRule] = []
    for i, rec in enumerate(recognizers):
        rules += _recognizer(rec, f"pattern file {path}: recognizers[{i}]")
    return rules


def _recognizer(rec: Any, where: str) -> list[PatternRule]:
    if not isinstance(rec, dict):
        raise InputError(f"{where} must be a mapping, not {rec!r}")
    unknown = sorted(set(rec) - _RECOGNIZER_KEYS)
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_RECOGNIZER_KEYS))})")
    name = rec.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"{where}: 'name' must be a non-empty string")
    where = f"{where} ({name})"
    entity = rec.get("supported_entity") or (rec.get("supported_entities") or [None])[0]
    fine = _fine_type(entity, where)
    context = tuple(str(c).casefold() for c in (rec.get("context") or []))
    patterns = rec.get("patterns") or []
    if rec.get("deny_list"):
        patterns = list(patterns) + [{"name": "deny_list", "score": rec.get("deny_list_score", 1.0),
                                      "regex": "|".join(rf"(?<!\w){re.escape(str(t))}(?!\w)"
                                                        for t in rec["deny_list"])}]
    if not patterns:
        raise InputError(f"{where}: no 'patterns' (or 'deny_list')")
    return [_pattern(p, fine, name.strip(), context, f"{where}.patterns[{j}]")
            for j, p in enumerate(patterns)]


def _pattern(p: Any, fine: str, name: str, context, where: str) -> PatternRule:
    if not isinstance(p, dict) or "regex" not in p:
        raise InputError(f"{where} must be a mapping with 'regex' and 'score'")
    try:
        score = float(p.get("score", 1.0))
    except (TypeError, ValueError):
        raise InputError(f"{where}: score must be a number, not {p.get('score')!r}") from None
    if not 0.0 <= score <= 1.0:
        raise InputError(f"{where}: score must be between 0 and 1, not {score}")
    try:
        regex = re.compile(str(p["regex"]))
    except re.error as exc:
        raise InputError(f"{where}: bad regular expression {p['regex']!r}: {exc}") from None
    return PatternRule(name, fine, regex, score, context)


def _fine_type(entity: Any, where: str) -> str:
    from redactor.plugin_api import load_label_mapping
    from redactor.taxonomy import fine_types, is_known

    if not isinstance(entity, str) or not entity:
        raise InputError(f"{where}: 'supported_entity' must name a type")
    if is_known(entity.upper()):
        return entity.upper()
    mapped = load_label_mapping("presidio.yaml").get(entity)
    if mapped:
        return mapped
    raise InputError(f"{where}: unknown entity {entity!r}: use one of our types "
                     f"({', '.join(fine_types())}) or a Presidio entity mappings/presidio.yaml maps")
