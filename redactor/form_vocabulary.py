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
# The captions a form prints beside or under an address's fill-in fields ("Address", "City",
# "State", "Zip Code"): a block's own words, not text it would cover or a value of their own.
ADDRESS_FIELD_CAPTIONS = frozenset({"address", "street", "city", "town", "state", "province", "zip", "code",
                                    "zipcode", "postcode", "postal", "country", "county", "st", "apt", "suite"})
# The caption "Address" as OCR reads it off a form, its first letters often lost or misread
# ("ddress", "4dress"): the caption's letters with the rest dropped.
_ADDRESS_CAPTION = re.compile(r"a?d?d?ress(?:es)?|addr")


def is_address_caption(word: str) -> bool:
    """Whether an OCR word is a form's "Address" caption however misread ("“4dress.")."""
    return _ADDRESS_CAPTION.fullmatch(re.sub(r"[^a-z]", "", word.lower())) is not None


_SOURCES = (("rules/names.yaml", ("not_names", "title_words")),
            ("rules/organizations.yaml", ("organization_words", "legal_forms", "not_name_words")))


@lru_cache(maxsize=1)
def label_words() -> frozenset[str]:
    """The one-word captions of the rules' label lexicon (mappings/rules/labels.yaml):
    "GSTIN", "PAN", "Tel", "Mobile" printed before a value are no name or place of their own."""
    data = yaml.safe_load(mapping_file("rules/labels.yaml").read_text(encoding="utf-8")) or {}
    words: set[str] = set()
    for group in data.get("groups") or ():
        for key in ("labels", "labels_strict"):
            for phrase in group.get(key) or ():
                found = re.findall(r"[a-z]+", str(phrase).lower())
                if len(found) == 1:
                    words.update(found)
    return frozenset(words)


@lru_cache(maxsize=1)
def personal_titles() -> frozenset[str]:
    """Forms of address written before a name ("mr", "dr", "smt", ...: mappings/rules/names.yaml
    ``personal_titles``, lower case, no full stop): a title, never part of the name."""
    data = yaml.safe_load(mapping_file("rules/names.yaml").read_text(encoding="utf-8")) or {}
    return frozenset(str(t).lower().rstrip(".") for t in data.get("personal_titles") or ())


def is_title(word: str) -> bool:
    """Whether ``word`` is a form of address, as OCR may print it: "Mr.", "(Smt.", "DR:"."""
    return word.strip("([").rstrip(".,:").lower() in personal_titles()


def is_lone_caption(text: str) -> bool:
    """Whether ``text`` is one word of the label lexicon and nothing else ("GSTIN", "PAN:")."""
    found = re.findall(r"[A-Za-z]+", text)
    return len(found) == 1 and len(re.sub(r"[\W_]", "", text)) == len(found[0]) and \
        found[0].lower() in label_words()


@lru_cache(maxsize=1)
def form_words() -> frozenset[str]:
    words: set[str] = set(MONTHS)
    for name, keys in _SOURCES:
        data = yaml.safe_load(mapping_file(name).read_text(encoding="utf-8")) or {}
        for key in keys:
            for phrase in data.get(key) or ():
                words.update(w.lower() for w in re.findall(r"[A-Za-z]+", str(phrase))
                             if not _connective(w, str(phrase)))
    return frozenset(words)


def _connective(word: str, phrase: str) -> bool:
    """A lower-case word inside a capitalised phrase joins its parts ("S.A. de C.V.", "and
    Sons"): a name's particle ("Maria de Souza"), no form vocabulary of its own. (A single
    letter is an abbreviation's: the "e" of "e.V.")"""
    return len(word) > 1 and word.islower() and phrase != phrase.lower()


def only_form_words(text: str) -> bool:
    """Whether every word of ``text`` (letters only, any case) is form vocabulary: "Tel",
    "Purchase Order", "SALES", "March" tagged as a person by a model are not names."""
    # letters of any script: "María" is one word, not the form words "mar" and "a"
    tokens = re.findall(r"[^\W\d_]+", text.lower())
    return bool(tokens) and all(t in form_words() for t in tokens)


@lru_cache(maxsize=1)
def _product_variant_words() -> tuple[str, ...]:
    data = yaml.safe_load(mapping_file("rules/names.yaml").read_text(encoding="utf-8")) or {}
    return tuple(str(w) for w in data.get("product_variants") or ())


@lru_cache(maxsize=1)
def _variant_regex() -> re.Pattern:
    # a variant that is also a census name may be a surname ("John Box", "Anna Light")
    from redactor.census_names import given_names, surnames
    words = sorted({w for w in _product_variant_words()
                    if w.upper() not in given_names() and w.upper() not in surnames()},
                   key=len, reverse=True)
    alt = "|".join(re.escape(w) for w in words) or r"(?!x)x"
    return re.compile(rf"(?<![\w'])([A-Z][A-Za-z]+)[ ]+(?:{alt}|{alt.upper()})(?![\w'])")


@lru_cache(maxsize=1)
def product_variants() -> frozenset[str]:
    """The words that name a product line after its brand, lower-cased."""
    return frozenset(w.lower() for w in _product_variant_words())


def brand_words(text: str) -> frozenset[str]:
    """The page's brand names, lower-cased: capitalised words written right before a product
    line's word ("Kool Milds", "KENT KS", "Marlboro Lights")."""
    return frozenset(m.group(1).lower() for m in _variant_regex().finditer(text))
