"""Words of a business document's own vocabulary that are never a person's name on their
own: form captions and headings, job titles, organisation words and legal forms, month
names. Read from the rules detector's data files (mappings/rules/names.yaml and
organizations.yaml), so that one list serves every detector that wants it."""
from __future__ import annotations

import re
from functools import lru_cache

import yaml

from redactor.paths import mapping_file

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
          "sep", "sept", "oct", "nov", "dec")
_SOURCES = (("rules/names.yaml", ("not_names", "title_words")),
            ("rules/organizations.yaml", ("organization_words", "legal_forms", "not_name_words")))


@lru_cache(maxsize=1)
def form_words() -> frozenset[str]:
    words: set[str] = set(MONTHS)
    for name, keys in _SOURCES:
        data = yaml.safe_load(mapping_file(name).read_text(encoding="utf-8")) or {}
        for key in keys:
            for phrase in data.get(key) or ():
                words.update(re.findall(r"[a-z]+", str(phrase).lower()))
    return frozenset(words)


def only_form_words(text: str) -> bool:
    """Whether every word of ``text`` (letters only, any case) is form vocabulary: "Tel",
    "Purchase Order", "SALES", "March" tagged as a person by a model are not names."""
    tokens = re.findall(r"[a-z]+", text.lower())
    return bool(tokens) and all(t in form_words() for t in tokens)
