"""A place that opens the name of a state's body or office is part of that name, not a place.

"U.S. Department of Justice", "United States Code", "Bermuda Department of Tourism", "U.S.
Congress": every place detector finds the country in such a name, and a government form
prints the publisher's and the statutes' names on every page. The country there names the
body (what the name says is the organisation, typed as one where a detector finds it); it
tells a reader nothing about where anybody is. So a LOCATION span followed on its line by a
body's head word or a public office's title ("U.S. Sen. Russ Feingold"; mappings/rules/
organizations.yaml, ``state_bodies`` and ``public_offices``) is dropped, and so is a statute
code's abbreviation read as a place ("22 U.S.C. § 611", ``code_abbreviations``). A place
written in a field ("Nationality: U.S.") or in prose ("assistance to US corporations") is
followed by no such word and stays. So is a place inside a form item's printed instruction
("10. List states and territories of the United States to which ..."): the question's
words, not its answer (after the colon, on the lines under it).

Pure functions on the page text."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Sequence

import yaml

from redactor.model import Span
from redactor.paths import mapping_file


@lru_cache(maxsize=1)
def _organizations() -> dict:
    return yaml.safe_load(mapping_file("rules/organizations.yaml").read_text(encoding="utf-8")) or {}


@lru_cache(maxsize=1)
def _body_head() -> re.Pattern:
    data = _organizations()
    heads = {str(h) for h in data.get("state_bodies") or ()} | {str(h) for h in data.get("public_offices") or ()}
    heads |= {h.upper() for h in heads}        # as typed, or in a heading's capitals
    alt = "|".join(re.escape(h).replace(r"\ ", r"[ ]+") for h in sorted(heads, key=len, reverse=True))
    # the place's own closing stop may be the span's or not ("U.S. Department"); running text
    # may wrap the name after the place ("Criminal Division, U.S.\nDepartment of Justice"),
    # which "of" after the head word tells from a caption opening the next line
    # ("Nationality: U.S.\nDepartment: Sales")
    return re.compile(rf"[.,]?(?:[ ]+(?:{alt or '(?!x)x'})(?![A-Za-z])"
                      rf"|[ ]*\n[ ]*(?:{alt or '(?!x)x'})[ ]+(?:of|OF)[ ])")


@lru_cache(maxsize=1)
def _code_abbreviations() -> frozenset[str]:
    data = _organizations()
    return frozenset(str(c).upper().rstrip(".") for c in data.get("code_abbreviations") or ())


def opens_body_name(text: str, span: Span) -> bool:
    """Whether a body's head word follows ``span`` on its line, or ends it (a model's place
    that took the head word in: "United States Code")."""
    head = _body_head()
    # a model's place may stop inside its word ("U.S" of "U.S.C.", of OCR's "U.S.."): the
    # word as written decides
    end = span.end
    while end < len(text) and not text[end].isspace():
        end += 1
    if head.match(text, span.end) is not None or head.match(text, end) is not None:
        return True
    # the code's own abbreviation read as a place ("U.S.C.")
    if text[span.start:end].upper().rstrip(".,;:") in _code_abbreviations():
        return True
    words = text[span.start:span.end].split()
    return len(words) > 1 and any(head.fullmatch(" " + " ".join(words[k:])) for k in range(1, len(words)))


# A form item's printed instruction: its number, an imperative, and the question up to the
# colon or question mark where the answer starts ("10. List states and territories of the
# United States to which this material was transmitted"). The form prints it on every copy.
_ITEM_QUESTION = re.compile(r"(?<![\w.,/])\d{1,2}[.,)][ ]+(?:\([a-z]\)[ ]+)?"
                            r"(?:List|State|Describe|Indicate|Give|Identify|Furnish|Explain|Specify)"
                            r"\b[^:?\n]*")


def in_item_question(text: str, span: Span) -> bool:
    """Whether ``span`` lies inside a form item's printed instruction (``_ITEM_QUESTION``),
    the question going on after it in lower case ("... of the United States to which"): an
    answer typed after a question without a colon ends it ("4. State country of birth
    Canada") and stays."""
    after = re.match(r"[.,]?[ ]+([a-z]+)", text[span.end:span.end + 40])
    return after is not None and \
        any(m.start() <= span.start and span.end + after.end() <= m.end()
            for m in _ITEM_QUESTION.finditer(text, max(0, span.start - 300), span.end + 200))


def drop_places_in_body_names(text: str, spans: Sequence[Span]) -> list[Span]:
    return [s for s in spans if not (s.type == "LOCATION" and
                                     (opens_body_name(text, s) or in_item_question(text, s)))]
