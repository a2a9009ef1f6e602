"""Loads and compiles the rules detector's data files (mappings/rules/*.yaml): text patterns
with their macros, the label lexicon, address and name vocabularies."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from redactor.plugin_api import mapping_file

_MACRO = re.compile(r"\{([A-Z_]+)\}")
_FLAGS = {"IGNORECASE": re.IGNORECASE, "MULTILINE": re.MULTILINE}


@dataclass(frozen=True)
class Pattern:
    rule: str
    score: float
    regex: re.Pattern
    validate: str | None
    group: str | None


@dataclass(frozen=True)
class LabelGroup:
    rule: str
    value: str      # value kind: name, party, address, phone, email, online, id, card, date, organization
    score: float
    suffix: bool


@dataclass(frozen=True)
class LabelLexicon:
    regex: re.Pattern                         # every label phrase; group 'phrase', 'num', 'term'
    groups_of: dict[str, tuple[tuple[LabelGroup, bool], ...]]   # normalised phrase -> (group, strict)
    stop_regex: re.Pattern
    # the words of the phrases as written (letters only, lower case): a one-word match that
    # only OCR folding explains ("Allen" read as "alien") is a label only when its form says
    # so (a ':' or '#', a cell of its own)
    literal: frozenset[str] = frozenset()
    # normalised words before a colon -> [the phrase closest to them], [] when none is close;
    # labels repeat from page to page, and the fuzzy search is the costly part
    closest: dict = field(default_factory=dict, compare=False, repr=False)
    # the number words ("number", "no", "#"): a phrase ending in one ("job number") is a
    # caption marked by it, as "job" with its number word is
    number_words: frozenset[str] = frozenset()


def letters_key(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


@dataclass(frozen=True)
class Vocab:
    street_suffixes: tuple[str, ...]
    unit_designators: tuple[str, ...]
    directionals: tuple[str, ...]
    us_states: tuple[str, ...]
    us_state_names: tuple[str, ...]
    ca_provinces: tuple[str, ...]
    eu_street_endings: tuple[str, ...]
    eu_street_words: tuple[str, ...]
    company_words: frozenset[str]
    honorifics: tuple[str, ...]
    closings: tuple[str, ...]
    salutations: tuple[str, ...]
    not_names: frozenset[str]
    particles: frozenset[str]
    title_words: frozenset[str]
    # state names that are as often a person's name (a place only with a town before them)
    name_like_states: frozenset[str] = frozenset()
    # the older state abbreviations of letterheads and typed addresses ("N.Y.", "Calif.")
    us_state_traditional: tuple[str, ...] = ()
    # offices written between a title and the name ("Atty. General Richard Blumenthal")
    offices: frozenset[str] = frozenset()
    # companies' legal forms (organizations.yaml), lower case, without their stops
    legal_forms: frozenset[str] = frozenset()
    # other languages' greetings ("Gentile", "Geachte"): matched as written, never as a
    # misread English "Dear" is
    other_salutations: tuple[str, ...] = ()


def _read(name: str, data_dir: Path | None) -> dict:
    path = (data_dir / name) if data_dir else mapping_file(f"rules/{name}")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"rules data file {path} cannot be read: {exc}") from exc
    if not isinstance(data, dict):
        raise ValueError(f"rules data file {path} is not a mapping")
    return data


def expand_macros(regex: str, macros: dict[str, str]) -> str:
    def sub(m: re.Match) -> str:
        if m.group(1) not in macros:
            raise ValueError(f"unknown macro {{{m.group(1)}}} in pattern {regex!r}")
        return macros[m.group(1)]
    # macros may use other macros; two rounds are enough for our files
    return _MACRO.sub(sub, _MACRO.sub(sub, regex))


@lru_cache(maxsize=4)
def load_patterns(data_dir: Path | None = None) -> tuple[Pattern, ...]:
    data = _read("patterns.yaml", data_dir)
    macros = {k: str(v) for k, v in (data.get("macros") or {}).items()}
    out = []
    for i, p in enumerate(data.get("patterns") or []):
        try:
            flags = 0
            for f in p.get("flags") or []:
                flags |= _FLAGS[f]
            out.append(Pattern(str(p["rule"]), float(p["score"]),
                               re.compile(expand_macros(str(p["regex"]), macros), flags),
                               p.get("validate"), p.get("group")))
        except (KeyError, re.error, TypeError) as exc:
            raise ValueError(f"patterns.yaml entry {i} ({p.get('rule')!r}) is invalid: {exc}") from exc
    return tuple(out)


# Letters OCR confuses with digits or letter pairs: a label matches in any of its forms
# ("Te1:", "P0licy", "Narne"), and all forms share one key.
_OCR_CLASSES = {"l": "[l1|!iI]", "i": "[il1|!]", "o": "[o0]", "s": "[s5]"}
_FOLD = str.maketrans({"1": "l", "|": "l", "!": "l", "i": "l", "0": "o", "5": "s"})


def normalise_label(text: str) -> str:
    """Case-, space-, punctuation- and OCR-confusion-insensitive key of a label phrase."""
    key = re.sub(r"[^a-z0-9/|!]", "", text.lower().replace("’", "'"))
    return key.replace("rn", "m").translate(_FOLD)


def phrase_regex(phrase: str) -> str:
    """A label phrase as a regex: words may be glued or separated by a space or dot, a dot
    after a word is optional, '/' and '-' may have spaces around them or be left out."""
    words = phrase.strip().split()
    parts = []
    for w in words:
        chars = []
        for c in w:
            if c == ".":
                chars.append(r"\.?")
            elif c in "/-":
                chars.append(r"[ ]?[/\-]?[ ]?")
            elif c in "'’":
                chars.append(r"['’]?")
            elif c.lower() in _OCR_CLASSES:
                chars.append(_OCR_CLASSES[c.lower()])
            elif c.lower() == "m":
                chars.append("(?:m|rn)")
            else:
                chars.append(re.escape(c))
        parts.append("".join(chars))
    # a label may wrap onto the next line ("Policy" / "Number")
    return r"\.?(?:[ ]|\n)?".join(parts)


def _phrases(values) -> list[str]:
    return [str(v) for v in values or []]


@lru_cache(maxsize=4)
def load_labels(data_dir: Path | None = None) -> LabelLexicon:
    data = _read("labels.yaml", data_dir)
    groups_of: dict[str, list[tuple[LabelGroup, bool]]] = {}
    phrases: set[str] = set()
    for g in data.get("groups") or []:
        group = LabelGroup(str(g["rule"]), str(g["value"]), float(g.get("score", 0.8)),
                           bool(g.get("suffix", False)))
        for strict, key in ((False, "labels"), (True, "labels_strict")):
            for ph in _phrases(g.get(key)):
                groups_of.setdefault(normalise_label(ph), []).append((group, strict))
                phrases.add(ph)
    if not phrases:
        raise ValueError("labels.yaml defines no label")
    num_words = _phrases(data.get("number_words"))
    alt_num = "|".join(re.escape(w) + (r"(?![A-Za-z])" if w[-1].isalpha() else "")
                       for w in sorted(num_words, key=len, reverse=True))
    # Longest phrases first so that "account number" wins over "account".
    alt = "|".join(phrase_regex(p) for p in sorted(phrases, key=len, reverse=True))
    # A label glued to digits is part of a code ("INV-2023", "A.30"), except an
    # abbreviation's full stop that OCR or a typist left no space after ("No.436",
    # "Ref.10421"): the abbreviation's stop and 2+ digits after it. A caption's "No." glued
    # to its word by a lost space ("JOBNO. 7848") is its number word, and so is one after a
    # comma OCR read for the word's stop ("Auth, No. 3060").
    regex = re.compile(
        rf"(?<![\w@./\-])(?P<phrase>(?:{alt})\.?)"
        rf"(?:(?<=[A-Za-z]{{2}}\.)(?=\d{{2}})|(?<=[A-Za-z]{{3}})(?=[Nn][Oo]\.)"
        rf"|(?![A-Za-z0-9])(?![\-/.]?\d)(?![\-/][A-Za-z]))"
        rf"(?P<num>[ .,\n]{{0,2}}(?:{alt_num})\.?)?"
        rf"(?P<term>[ ]?(?:#[ ]?[:;]?|[:;]|-(?=[ ])))?",
        re.IGNORECASE)
    stops = _phrases(data.get("stop_labels"))
    stop_alt = "|".join(phrase_regex(p) for p in sorted(stops, key=len, reverse=True)) or r"(?!x)x"
    stop_regex = re.compile(rf"(?<![\w@./\-])(?:{stop_alt})(?![A-Za-z0-9])[ ]?[:#]?", re.IGNORECASE)
    return LabelLexicon(regex, {k: tuple(v) for k, v in groups_of.items()}, stop_regex,
                        frozenset(letters_key(w) for p in phrases for w in p.split()),
                        number_words=frozenset(w.lower() for w in num_words))


@lru_cache(maxsize=4)
def load_vocab(data_dir: Path | None = None) -> Vocab:
    a = _read("addresses.yaml", data_dir)
    n = _read("names.yaml", data_dir)
    o = _read("organizations.yaml", data_dir)

    def t(d, k):
        return tuple(str(v) for v in d.get(k) or [])
    return Vocab(t(a, "street_suffixes"), t(a, "unit_designators"), t(a, "directionals"),
                 t(a, "us_states"), t(a, "us_state_names"), t(a, "ca_provinces"),
                 t(a, "eu_street_endings"), t(a, "eu_street_words"),
                 frozenset(normalise_label(v) for v in t(a, "company_words")),
                 t(n, "personal_titles") + t(n, "honorifics"), t(n, "closings"), t(n, "salutations"),
                 frozenset(v.lower() for v in t(n, "not_names")),
                 frozenset(v.lower() for v in t(n, "particles")),
                 frozenset(v.lower() for v in t(n, "title_words")),
                 frozenset(v.lower() for v in t(a, "name_like_states")),
                 t(a, "us_state_traditional"),
                 frozenset(v.lower() for v in t(n, "offices")),
                 frozenset(v.lower().strip(".") for v in t(o, "legal_forms")),
                 t(n, "other_salutations"))
