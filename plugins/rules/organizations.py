"""Organisation names found by their form, without a label: one to four capitalised words
followed by organisation words ("Smith Media Group") and/or a legal form ("Hardin Inc",
"Acme GmbH"), a firm of partners ("Smith, Solis and Brown") standing on a line of its own
or before a legal form, or a campaign committee ("Simmons for Senate"). Words come from
mappings/rules/organizations.yaml."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from redactor_plugins.rules.addresses import line_segments
from redactor_plugins.rules.hits import Hit
from redactor.plugin_api import mapping_file, PageView

SCORE_FORM = 0.8       # legal form or organisation word after capitalised words
SCORE_FIRM = 0.7       # "A, B and C" on a line of its own
SCORE_PERSON_OF = 0.7  # "First Last" before "of" and a firm found by its form
MAX_NAME_WORDS = 4


@dataclass(frozen=True)
class OrganizationForms:
    with_words: re.Pattern
    firm: re.Pattern
    not_name: frozenset[str]
    org_words: frozenset[str]
    campaign: re.Pattern | None = None


def _alt(words) -> str:
    parts = sorted({re.escape(w).replace(r"\ ", r"[ ]") for w in words}, key=len, reverse=True)
    return "(?:" + "|".join(parts) + ")"


@lru_cache(maxsize=8)
def load_organization_forms(data_dir: str | None = None) -> OrganizationForms:
    path = Path(data_dir) / "organizations.yaml" if data_dir else mapping_file("rules/organizations.yaml")
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    for key in ("legal_forms", "organization_words", "not_name_words"):
        if not isinstance(data.get(key), list) or not all(isinstance(w, str) for w in data[key]):
            raise ValueError(f"{path}: {key} must be a list of strings")
    name = r"(?:[A-Z][a-z'’]+(?:-[A-Z][a-z'’]+)?|[A-Z]{2,}(?:-[A-Z]{2,})?|[A-Z]\.)"
    joiner = r"(?:[ ]|[ ]&[ ]|[ ](?:and|of|the)[ ]|,[ ])"
    # organisation words and legal forms in any case; the name words capitalised
    legal = "(?i:" + _alt(data["legal_forms"]) + ")"
    words = "(?i:" + _alt(data["organization_words"]) + ")"
    with_words = re.compile(
        rf"(?<![\w&-])(?P<name>{name}(?:{joiner}{name}){{0,{MAX_NAME_WORDS - 1}}})"
        rf"(?:(?P<words>(?:[ ]{words}){{1,2}})(?:,?[ ](?P<legal>{legal})\.?)?"
        rf"|,?[ ](?P<legal_only>{legal})\.?)(?![\w&])")
    firm = re.compile(rf"^(?P<firm>{name}(?:,[ ]{name}){{1,3}},?[ ](?:and|AND|&)[ ]{name}"
                      rf"(?:,?[ ]{legal}\.?)?)[ ]*$", re.MULTILINE)
    offices = data.get("campaign_offices") or []
    campaign = re.compile(rf"(?<![\w&-])(?P<name>{name}(?:[ ]{name}){{0,2}})[ ]for[ ]{_alt(offices)}(?![\w])") \
        if offices else None
    return OrganizationForms(with_words, firm, frozenset(w.lower() for w in data["not_name_words"]),
                             frozenset(w.lower() for w in data["organization_words"] + data["legal_forms"]),
                             campaign)


def _strip_full_stop(text: str, start: int, end: int) -> int:
    """A sentence's full stop after the name is not part of it; an abbreviation's is."""
    if text[end - 1] == "." and not re.search(r"(?i)\b(?:co|inc|corp|ltd|bros)\.$|\.[A-Za-z]\.$",
                                              text[start:end]):
        return end - 1
    return end


def find_organization_hits(layout: PageView, forms: OrganizationForms) -> list[Hit]:
    """Organisation hits of the page, each inside one segment of a line (a form cell or a
    column: OCR joins the cells of a row into one line of text)."""
    segs, _ = line_segments(layout)
    text = layout.page.text
    out = []
    for seg in segs:
        start, end = layout.span_of_words(seg)
        out += [Hit(h.rule, h.start + start, h.end + start, h.score)
                for h in find_organization_hits_in_text(text[start:end], forms)]
    return out


_PERSON_OF = re.compile(r"(?P<person>[A-Z][a-z'’]+(?:[ ][A-Z]\.)?[ ][A-Z][a-z'’]+(?:-[A-Z][a-z'’]+)?)"
                        r"[ ]of[ ](?P<rest>[A-Z])")


def _person_of(text: str, start: int, name_end: int, forms: OrganizationForms) -> tuple[int, int] | None:
    """(end of the person, start of the firm) when the name part is "First Last of Firm":
    two capitalised words (an initial between them may stand) that are no organisation or
    heading word. "Bank of America Holdings" and "Friends of the Earth Foundation" stay one
    organisation: a single word, or an organisation word, before "of"."""
    m = _PERSON_OF.match(text, start, name_end)
    if m is None:
        return None
    words = {w.lower().rstrip(".") for w in m.group("person").split()}
    if words & (forms.not_name | forms.org_words):
        return None
    return m.end("person"), m.start("rest")


def find_organization_hits_in_text(text: str, forms: OrganizationForms) -> list[Hit]:
    out = []
    for m in forms.with_words.finditer(text):
        start = m.start("name")
        # drop leading label and heading words ("Bill To Acme Inc" -> "Acme Inc")
        toks = re.split(r"([ ,&]+|[ ](?:and|of|the)[ ])", m.group("name"))
        while toks and toks[0].lower() in forms.not_name:
            start += len(toks[0]) + (len(toks[1]) if len(toks) > 1 else 0)
            toks = toks[2:]
        if not toks or not toks[0] or start >= m.end():
            continue
        if m.group("legal") is None and m.group("legal_only") is None and \
                not any(c.islower() for c in text[start:m.end("name")]):
            continue   # a heading in capitals ("APPLICATION FOR GROUP INSURANCE") needs a legal form
        person = _person_of(text, start, m.end("name"), forms)
        if person is not None:
            # "Robin Meyers of Steele Associates": a person and the firm they are with
            out.append(Hit("name_of_organization", start, person[0], SCORE_PERSON_OF))
            start = person[1]
        out.append(Hit("org_form", start, _strip_full_stop(text, start, m.end()), SCORE_FORM))
    if forms.campaign is not None:
        for m in forms.campaign.finditer(text):
            # "Simmons for Senate": a campaign committee, named for its candidate and office
            if m.group("name").split()[0].lower() not in forms.not_name:
                out.append(Hit("org_form", m.start(), m.end(), SCORE_FORM))
    for m in forms.firm.finditer(text):
        if m.group("firm").split(",")[0].strip().lower() in forms.not_name:
            continue
        s, e = m.start("firm"), m.end("firm")
        out.append(Hit("org_firm", s, _strip_full_stop(text, s, e), SCORE_FIRM))
    return out
