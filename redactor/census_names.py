"""Whether a run of words reads as a person's name by the US census name lists, and the
Presidio recognizer (plugins/_census_names.py) that uses it to retag the names a small NER
model files as places or organisations; verification asks it whether a readable run of words
is a full name.

spaCy's small English model tags many two-word names in running text as ORG or GPE ("the
petition filed by Kelsey Hill", "to Bruce Evans of ..."), and Presidio drops those or types
them LOCATION: a missed PERSON, the worst kind of leak. A given name from the census list
followed by a surname from the census list, inside an entity the model found, is a person
far more often than not; words that make a name an organisation's or a place's ("Bank",
"Street", "County") veto it."""
from __future__ import annotations

import re
from functools import lru_cache

import yaml

from redactor.form_vocabulary import MONTHS, form_words
from redactor.paths import mapping_file

# spaCy labels whose spans are retested: the ones a small model puts on names by mistake
RETAGGED_LABELS = frozenset({"ORG", "GPE", "LOC", "FAC", "NORP"})
SCORE = 0.6            # below spaCy's PERSON (0.85): a lexicon guess, not the model's reading
MAX_WORDS = 4          # given name, up to two middle names or initials, surname
# A street word that is also one of this many most common surnames ("Hill", "Green", "Park")
# does not veto a name: "Kelsey Hill" is a person far more often than a street.
COMMON_SURNAMES = 500

_NAME_WORD = re.compile(r"[A-Z][a-z]+(?:['\-][A-Z]?[a-z]+)*|[A-Z]{2,}(?:['\-][A-Z]+)*|"
                        r"(?:Mc|Mac|O')[A-Z][a-z]+")
_INITIAL = re.compile(r"[A-Z]\.?")
_EDGE_PUNCT = ".,;:"


@lru_cache(maxsize=2)
def _ranked_names(name: str) -> tuple[str, ...]:
    path = mapping_file(f"names/{name}")
    return tuple(line.strip().upper() for line in path.read_text(encoding="utf-8").splitlines()
                 if line.strip() and not line.startswith("#"))


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    return frozenset(_ranked_names("given_names.txt"))


@lru_cache(maxsize=1)
def surnames() -> frozenset[str]:
    return frozenset(_ranked_names("surnames.txt"))


@lru_cache(maxsize=1)
def _surname_ranks() -> dict[str, int]:
    return {w: i for i, w in enumerate(_ranked_names("surnames.txt"))}


def is_census_name(word: str) -> bool:
    """Whether the census lists ``word`` (any case) as a given name or a surname."""
    up = word.upper()
    return up in given_names() or up in surnames()


@lru_cache(maxsize=1)
def _given_ranks() -> dict[str, int]:
    return {w: i for i, w in enumerate(_ranked_names("given_names.txt"))}


def given_name_rank(word: str) -> int | None:
    """``word``'s rank among the census given names (0 the most frequent), None when it is none."""
    return _given_ranks().get(word.upper())


def surname_rank(word: str) -> int | None:
    """``word``'s rank among the census surnames (0 the most frequent), None when it is none."""
    return _surname_ranks().get(word.upper())


@lru_cache(maxsize=1)
def veto_words() -> frozenset[str]:
    """Words that make a capitalised run something other than a person's name, in capitals:
    the document vocabulary of ``redactor.form_vocabulary`` (captions, job titles, organisation
    words, legal forms, months), street suffixes (less the common surnames among them),
    unit designators and the US state names."""
    addr = yaml.safe_load(mapping_file("rules/addresses.yaml").read_text(encoding="utf-8"))
    words = {w.upper() for w in form_words()}
    for key in ("street_suffixes", "unit_designators", "us_state_names", "company_words"):
        for item in addr.get(key) or []:
            words.update(w.strip(".&").upper() for w in str(item).split())
    common = set(_ranked_names("surnames.txt")[:COMMON_SURNAMES])
    streets = {str(w).upper() for w in addr.get("street_suffixes") or []}
    words -= streets & common
    words.discard("")
    return frozenset(words)


def reads_as_name(words: list[str]) -> bool:
    """``words`` (as written, one line) are a given name, optional middle names or
    initials, and a surname, each capitalised or in capitals: the first in the census given
    names, the middle ones given names or surnames, the last (or a part of a
    double-barrelled last) in the census surnames, and none a word of ``veto_words``."""
    words = [w.strip(_EDGE_PUNCT) if i == len(words) - 1 else w.rstrip(",;:")
             for i, w in enumerate(words)]
    if not 2 <= len(words) <= MAX_WORDS:
        return False
    first, last, middle = words[0], words[-1], words[1:-1]
    if not (_NAME_WORD.fullmatch(first) and _NAME_WORD.fullmatch(last)):
        return False
    if not all(_NAME_WORD.fullmatch(w) or _INITIAL.fullmatch(w) for w in middle):
        return False
    veto = veto_words()
    # months are given names too ("April", "June"), so the first word may be one
    if any(w.upper() in veto for w in words[1:] if not _INITIAL.fullmatch(w)) or \
            (first.upper() in veto and first.lower() not in MONTHS):
        return False
    given, family = given_names(), surnames()
    if any(not _INITIAL.fullmatch(w) and w.upper() not in given and w.upper() not in family
           for w in middle):
        return False
    return first.upper() in given and any(part in family for part in last.upper().split("-"))


# The census surname list holds the 40,000 most frequent US surnames; a family rarer than
# that (an immigrant's, "Kamnit") is in no list. After a given name that is no everyday word
# ("Muriel", not "Mark" or "Grace"), a capitalised word that is no English word either
# (wordfreq) can only be that surname, when the two stand alone in a cell or a list line.
RARE_GIVEN_ZIPF = 3.5     # "Muriel" 3.1, "Gregory" 3.6
UNKNOWN_WORD_ZIPF = 1.5   # below this wordfreq has barely seen the word ("Kamnit" 0)
MIN_RARE_SURNAME = 4      # letters: shorter capitals are initialisms and codes


def reads_as_rare_name(words: list[str]) -> bool:
    """``words`` (one line or cell, as written) are a census given name that is no everyday
    word and a surname no list or dictionary knows: "MURIEL KAMNIT" in a distribution list."""
    from wordfreq import zipf_frequency   # on first use: importing stays light

    words = [w.strip(_EDGE_PUNCT) for w in words]
    if len(words) != 2 or not all(_NAME_WORD.fullmatch(w) for w in words):
        return False
    first, last = words
    if first.upper() not in given_names() or zipf_frequency(first.lower(), "en") >= RARE_GIVEN_ZIPF:
        return False
    veto = veto_words()
    return len(last) >= MIN_RARE_SURNAME and last.upper() not in veto and first.upper() not in veto \
        and zipf_frequency(last.lower(), "en") < UNKNOWN_WORD_ZIPF

