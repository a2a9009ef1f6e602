"""Organisation names found by their form, without a label: one to four capitalised words
followed by organisation words ("Smith Media Group") and/or a legal form ("Hardin Inc",
"Acme GmbH", "Maju Jaya Sdn Bhd"), a firm of partners ("Smith, Solis and Brown" on a line of
its own, "Winston & Strawn" anywhere), a body named "<head> of <name>" ("University of
Utah", "Embassy of Japan"), a business named after its kind ("Hotel Plaza Athénée") or a
campaign committee ("Simmons for Senate"). Words come from mappings/rules/organizations.yaml;
the forms that need more than one regex are in ``org_names``."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from redactor_plugins.rules.addresses import line_segments
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.values import is_common_word
from redactor_plugins.rules.gazetteer import known_place
from redactor_plugins.rules.org_names import (ampersand_firm_hits, employer_hits, initials_firm_hits, is_proper_name,
                                              leading_word_hits, prefix_head_hits, romance_body_hits,
                                              trade_name_hits,
                                              stacked_name_hits, SCORE_EMPLOYER)
from redactor.plugin_api import mapping_file, PageView
from redactor_plugins.rules.state_bodies import publisher_forms

SCORE_FORM = 0.8       # legal form or organisation word after capitalised words
SCORE_FIRM = 0.7       # "A, B and C" on a line of its own
SCORE_INITIALS = 0.6   # "B&W", "SH&B": founders' initials joined by "&"
SCORE_PERSON_OF = 0.7  # "First Last" before "of" and a firm found by its form
MAX_NAME_WORDS = 4
MISREAD_MIN = 7        # shorter words one letter off an organisation word are other words
ORG_RULES = frozenset({"org_form", "org_firm"})
# A capitalised name word: a word with a capital first letter (accents too: "Athénée"), an
# Irish or Scottish surname ("O'Malley", "McDonald"), an abbreviation with stops ("U.S.",
# "A.B."), a word in capitals, or an initial; or a brand written in camel case ("PayPal",
# "iViveLabs", "eBay").
NAME_WORD = (r"(?:[a-z]?[A-Z][a-z]+(?:[A-Z][a-z]+)+|[a-z][A-Z][a-z]+|"
             r"(?:Mc|Mac|O['’])[A-Z][a-z]+|(?:[A-Z]\.){2,}|[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'’]+(?:-[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'’]+)?"
             r"|[A-Z]{2,}(?:['’]S)?(?:-[A-Z]{2,})?|O['’][A-Z]{2,}|[A-Z]\.)")


@dataclass(frozen=True)
class OrganizationForms:
    with_words: re.Pattern
    firm: re.Pattern
    not_name: frozenset[str]
    org_words: frozenset[str]
    campaign: re.Pattern | None = None
    activity: tuple[str, ...] = ()        # lower case, longest first
    roles: frozenset[str] = frozenset()
    prefix: re.Pattern | None = None
    leading: re.Pattern | None = None
    ampersand: re.Pattern | None = None
    legal: frozenset[str] = frozenset()   # lower case, with and without stops
    publisher_states: frozenset[str] = frozenset()   # folded, lower case
    romance: re.Pattern | None = None     # "<head> [adjective] de/du/di <name>" (romance_heads)
    romance_heads: frozenset[str] = frozenset()   # lower case
    newspapers: frozenset[str] = frozenset()      # lower case: end a name only after a known place
    ampersand_terms: frozenset[str] = frozenset()  # "R&D", "Q&A": initials and "&" naming no firm


def _alt(words) -> str:
    parts = sorted({re.escape(w).replace(r"\ ", r"[ ]") for w in words}, key=len, reverse=True)
    return "(?:" + "|".join(parts) + ")"


def _cased(words) -> set[str]:
    """Each word as written, in capitals, and with a capital first letter: a name's words
    are capitalised ("Ltd", "LTD", "Group"), never in lower case ("press services")."""
    out = set()
    for w in words:
        out |= {w, w.upper(), " ".join(p[:1].upper() + p[1:] for p in w.split(" "))}
    return out


def _words(data: dict, key: str, path, required: bool = True) -> list[str]:
    value = data.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise ValueError(f"{path}: {key} must be a list of strings")
    return value


def _state_names(folder: Path) -> list[str]:
    """The US state names of the address data beside organizations.yaml (none if absent)."""
    path = folder / "addresses.yaml"
    if not path.is_file():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [str(n) for n in data.get("us_state_names") or []]


def _romance_form(heads: list[str], links: list[str], name: str) -> re.Pattern:
    """"<head> [one or two capitalised words] <link> <name>", the name running on over
    capitalised words joined by the links: "Office National du Tourisme", "Direction du
    Tourisme et des Congrès"."""
    link = "(?:" + "|".join(sorted({re.escape(w).replace(r"\ ", "[ ]") for v in links for w in (v, v.upper())},
                                   key=len, reverse=True)) + ")"
    glue = rf"(?:[ ]|[ ]{link}(?:[ ]{link})?[ ]|(?<=')|,[ ])"
    return re.compile(
        rf"(?<![\w&-])(?P<head>{_alt(_cased(heads))})(?:[ ]{name}){{0,2}}[ ]{link}(?:[ ]{link})?(?:[ ]|(?<=')(?=\w))"
        rf"(?P<rest>{name}(?:{glue}{name}){{0,6}})(?![\w])")


@lru_cache(maxsize=8)
def load_organization_forms(data_dir: str | None = None) -> OrganizationForms:
    path = Path(data_dir) / "organizations.yaml" if data_dir else mapping_file("rules/organizations.yaml")
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    legal_forms, org_words, not_name = (_words(data, k, path) for k in
                                        ("legal_forms", "organization_words", "not_name_words"))
    activity, roles, heads, leading, offices, publishers, romance_heads, romance_links, newspapers = (
        _words(data, k, path, required=False) for k in
        ("activity_words", "role_words", "prefix_heads", "leading_words", "campaign_offices",
         "publisher_states", "romance_heads", "romance_links", "newspaper_words"))
    ampersand_terms = _words(data, "ampersand_terms", path, required=False)
    name_links = _words(data, "name_links", path, required=False)
    portfolio_heads = _words(data, "portfolio_heads", path, required=False)
    name = NAME_WORD
    link_alt = "|".join(re.escape(w).replace(r"\ ", "[ ]") for w in sorted(["and", "of", "the"] + name_links,
                                                                         key=len, reverse=True))
    # (a firm of partners may join their names with "+", as "&": "Roberti + White, LLC")
    joiner = rf"(?:[ ]|[ ][&+][ ]|[ ](?:{link_alt})[ ]|,[ ])"
    legal = _alt(_cased(legal_forms))
    words = _alt(_cased(org_words))
    # the country a group's local company names in brackets before its legal form ("Tan
    # Brothers (M) Sdn. Bhd.": Malaysia; "(S) Pte Ltd", "(India) Pvt Ltd", "(Asia) Limited")
    partners = r"(?:Associates|ASSOCIATES|Partners|PARTNERS)"
    country = r"[ ]\((?:[A-Z][A-Za-z.]*)(?:[ ][A-Z][A-Za-z.]*)?\)"
    region = rf"(?:{country})?"
    # a number that opens a line opens the name it heads ("99 Speedmart Sdn Bhd", "7-Eleven")
    numbered = r"(?:(?:(?<=\n)|(?<![\s\S]))\d{1,4}[ ])?"
    with_words = re.compile(
        rf"(?<![\w&-])(?P<name>{numbered}{name}(?:{joiner}{name}){{0,{MAX_NAME_WORDS - 1}}})"
        # a firm of its founder and partners ("Lee & Associates", "Wong and Partners")
        rf"(?:(?P<words>(?:[ ]{words}|[ ](?:&|and)[ ]{partners}){{1,2}})(?:{region},?[ ](?P<legal>{legal})\.?)?"
        rf"|{region}(?:,[ ]?|\.?[ ])(?P<legal_only>{legal})\.?"
        # ... a company whose name holds "Co." before its country and its legal form ("AEON
        # CO. (M) BHD", Malaysia's "Berhad")
        rf"(?:{country}[ ](?:{legal})\.?)?)(?![\w&-])")
    firm = re.compile(rf"^(?P<firm>{name}(?:,[ ]{name}){{1,3}},?[ ](?:and|AND|&)[ ]{name}"
                      rf"(?:,?[ ]{legal}\.?)?)[ ]*$", re.MULTILINE)
    # a committee is named for its candidate and the office or the state they run in
    offices = offices + _state_names(Path(path).parent)
    # (the name's last letter may come back from OCR as a stop or a colon: "Van Holle: for
    # Congress" for "Van Hollen")
    campaign = re.compile(rf"(?<![\w&-])(?P<name>{name}(?:[ ]{name}){{0,2}})[.:;,]?[ ]for[ ]{_alt(offices)}(?![\w])") \
        if offices else None
    # "<head> of [the] <name>": the name runs on over capitalised words and "of [the]", and
    # after a ministry's or an office's head over "and" between its portfolios ("Ministry of
    # Foreign Affairs and Trade", "Office of Science and Technology", as governments name
    # them; "University of Texas and Stanford University" are two); an abbreviated head's
    # stop may be read as a comma ("Univ, of Texas"); the article is capitalised where it
    # is part of a country's name ("Government of The Bahamas", "The Gambia")
    head_alt = _alt(_cased(heads)).replace(r"\.", "[.,]")
    portfolio_alt = _alt(_cased(portfolio_heads)) if portfolio_heads else r"(?!)"
    prefix = re.compile(
        rf"(?<![\w&-])(?:(?:The|THE)[ ])?(?P<head>(?P<portfolio>{portfolio_alt})|{head_alt})[ ](?:of|OF)[ ]"
        rf"(?:(?:the|The|THE)[ ])?(?P<rest>{name}(?:(?:[ ]|[ ](?:of|OF)[ ](?:(?:the|THE)[ ])?"
        rf"|(?(portfolio)[ ](?:and|AND|&)[ ]|(?!))){name}){{0,6}})") if heads else None
    romance = _romance_form(romance_heads, romance_links, name) if romance_heads and romance_links else None
    lead = re.compile(rf"(?<![\w&-])(?P<head>{_alt(_cased(leading))})[ ](?P<rest>{name}(?:[ ]{name}){{0,2}})") \
        if leading else None
    ampersand = re.compile(rf"(?<![\w&-])(?P<firm>{name}(?:,[ ]{name}){{0,3}},?[ ]&[ ]{name})(?![\w&])")
    return OrganizationForms(with_words, firm, frozenset(w.lower() for w in not_name),
                             frozenset(w.lower() for w in org_words + legal_forms), campaign,
                             tuple(sorted({w.lower() for w in activity}, key=len, reverse=True)),
                             frozenset(w.lower() for w in roles), prefix, lead, ampersand,
                             frozenset(v for w in legal_forms for v in (w.lower(), w.lower().strip("."))),
                             publisher_forms(publishers), romance, frozenset(w.lower() for w in romance_heads),
                             frozenset(w.lower() for w in newspapers),
                             frozenset(w.upper() for w in ampersand_terms))


_ABBREVIATED_END = re.compile(r"(?i)\b(?:co|inc|corp|ltd|bros|bhd|pty|pvt|pte|assocs?|assn|intl|dist|mfg|mfrs)\.$"
                              r"|\.[A-Za-z]\.$")


def _strip_full_stop(text: str, start: int, end: int) -> int:
    """A sentence's full stop after the name is not part of it; an abbreviation's is."""
    if text[end - 1] == "." and not _ABBREVIATED_END.search(text, start, end):
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
        before = text[text.rfind("\n", 0, start) + 1:start]
        out += [Hit(h.rule, h.start + start, h.end + start, h.score)
                for h in find_organization_hits_in_text(mend_misread_org_words(text[start:end], forms), forms,
                                                        before)]
    out += stacked_name_hits(layout, out, forms)
    # (on the page's text: the legend that rules initials out may span lines)
    out += [Hit("org_initials", s, e, SCORE_INITIALS) for s, e in initials_firm_hits(text, forms)]
    # a company's sales force named over a line's end ("THE LORILLARD SALES / REPRESENTATIVE")
    out += [Hit("org_employer", s, e, SCORE_EMPLOYER) for s, e in employer_hits(text, forms, wrapped=True)]
    return out


_LONG_WORD = re.compile(r"(?<![\w])(?:[A-Z][a-z]{%d,}|[A-Z]{%d,})(?![\w])" % (MISREAD_MIN - 1, MISREAD_MIN))


def mend_misread_org_words(text: str, forms: OrganizationForms) -> str:
    """``text`` with the legal forms and organisation words OCR read one letter off put
    right ("The American Tobacco Comzany", "New Albany Tridune"): a capitalised word of
    MISREAD_MIN letters or more that is no English word and differs from exactly one such
    word in one letter (the first one kept) is read as it; a body's head word in French,
    Spanish, Portuguese or Italian ("Instituto", "Direction") is its own language's word.
    Letters replace letters one for one, so every offset holds."""
    out = list(text)
    for m in _LONG_WORD.finditer(text):
        word = m.group()
        low = word.lower()
        if low in forms.org_words or low in forms.romance_heads or is_common_word(low):
            continue
        near = [w for w in _org_words_of_length(forms.org_words, len(word))
                if w[0] == low[0] and sum(a != b for a, b in zip(w, low)) == 1]
        if len(near) == 1:
            fixed = near[0].upper() if word.isupper() else near[0].capitalize()
            out[m.start():m.end()] = fixed
    return "".join(out)


@lru_cache(maxsize=4)
def _org_words_of_length(words: frozenset[str], n: int) -> tuple[str, ...]:
    return tuple(w for w in words if len(w) == n and w.isalpha())


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


_OF_THE = re.compile(r"[ ](?:of|OF)[ ](?:(?:the|The|THE)[ ])?")
# the words a sentence names a firm's people or parts by before "of" ("Representatives of
# Debevoise Plimpton LLP", "Employees of Acme Inc."); an order named for its members
# ("Knights of Columbus", "Sisters of Mercy") is a name of its own
_MEMBERS_OF = frozenset({"representatives", "representative", "employees", "employee", "members", "member",
                         "officers", "officer", "agents", "agent", "affiliates", "affiliate", "subsidiaries",
                         "subsidiary", "clients", "client", "shareholders", "staff", "directors", "lawyers",
                         "attorneys", "counsel", "principals"})


def _after_members_of(text: str, start: int, name_end: int) -> int:
    """Where the firm starts in "<its people> of <firm>" ("Representatives of Debevoise
    Plimpton LLP" are the firm's representatives, not its name)."""
    m = _OF_THE.search(text, start, name_end)
    if m is None or text[start:m.start()].lower() not in _MEMBERS_OF:
        return start
    return m.end()


# A form's answer opens with a capital; OCR may read the first one in lower case after the
# "Name" caption ("Name  international Registries, Inc.", "Name  the pilenschneider Group,
# Inc." on unseen FARA filings): up to two lower-case words between the caption and a
# company's name are its misread opening words
_MISREAD_OPENING = re.compile(r"\b(?:Name|NAME)[:.]?[ ]+(?P<words>(?:[a-z][\w'’\-]*[ ]){1,2})$")


_CAPTION_LINKS = frozenset({"of", "and", "or", "for", "to", "by", "in", "on", "at", "is", "as", "a", "an", "with",
                            "from"})


def _misread_opening(text: str, start: int, before: str) -> int:
    """``start`` moved back over the lower-case words between a "Name" caption and the name."""
    m = _MISREAD_OPENING.search(before + text[:start])
    if m is None or len(m.group("words")) > start or set(m.group("words").split()) & _CAPTION_LINKS:
        return start      # "Name of Acme Inc.": the caption goes on
    return start - len(m.group("words"))


def _name_words(name: str) -> list[str]:
    return [w.strip(".,'’") for w in re.split(r"[ ,&]+", name) if w.strip(".,'’")]


def _only_activity(words: str, forms: OrganizationForms) -> bool:
    """Whether the organisation words are all trades ("Research", "Marketing")."""
    rest = words.lower()
    for w in forms.activity:
        rest = re.sub(rf"\b{re.escape(w)}\b", " ", rest)
    return not rest.strip()


# the words that say what kind of firm or body a name is and nothing else: a form's heading
# in capitals uses trades and units ("APPLICATION FOR GROUP INSURANCE"), not these
_FIRM_KINDS = frozenset({"enterprises", "industries", "associates", "assoc.", "assocs.", "laboratories", "holdings",
                         "institute", "foundation"})
_CAPITAL_JOINERS = frozenset({"OF", "AND", "THE", "FOR", "TO", "BY", "IN", "ON", "AT", "OR"})
_PARENT_OF = re.compile(r"\b(?:[Dd]ivision|DIVISION|[Ss]ubsidiary|SUBSIDIARY)[ ](?:of|OF)[ ](?:(?:the|THE)[ ])?")
_AFTER_OPTION = re.compile(r"[ ]or[ ]$")
# a caption before a value on its line: a label's colon, or a "Name of ..." caption
_CAPTIONED = re.compile(r"(?:\b[Nn]ame\b|\bNAME\b|:)[^\n:]*$")
_BEFORE_OPTION = re.compile(r"[ ]or[ ][A-Z]")


def _opens_place(toks: list[str]) -> bool:
    """A compass word opening a country's or a US state's name, or the adjective of one
    ("SOUTH AFRICAN TOURISM BOARD", "North Carolina Farm Bureau"): part of the name, not a
    region word before it."""
    if len(toks) < 3 or toks[0].lower() not in ("north", "south", "east", "west") or not toks[1].isspace():
        return False
    nxt = toks[2]
    return known_place(f"{toks[0]} {nxt}") or (nxt[-1:].lower() == "n" and known_place(f"{toks[0]} {nxt[:-1]}"))


def _has_legal_form(m: re.Match) -> bool:
    """Whether a ``with_words`` match ends in a company's legal form ("Inc", "GmbH")."""
    return m.group("legal") is not None or m.group("legal_only") is not None


def _form_name_start(text: str, m: re.Match, forms: OrganizationForms, before: str = "") -> int | None:
    """Where the organisation's name starts in a ``with_words`` match, or None when the
    match is no organisation: leading label and heading words ("Bill To Acme Inc") are
    cut off; a heading in capitals ("APPLICATION FOR GROUP INSURANCE") needs a legal form;
    a job title or a unit in the name ("Senior VP Marketing") makes it a role or a
    department; trades alone ("Market Research") and a single word before an organisation
    word ("Quality Council") need a proper name."""
    if _AFTER_OPTION.search(text, 0, m.start()) or _BEFORE_OPTION.match(text, m.end()) or \
            " OR " in m.group():
        return None     # "Political Organization or Candidate", "(BY BRAND OR COMPANY)": a caption offering choices
    start = m.start("name")
    # (the joining words first: "Name of Registrant Arab Information Center" is cut after
    # "Registrant", not left starting at "of")
    toks = re.split(r"([ ](?:and|of|the)[ ]|[ ,&]+)", m.group("name"))
    # (a sentence in capitals joins with "OF", "AND": "FOR ACCOUNT OF THIS COMPANY")
    while toks and (toks[0].lower() in forms.not_name or toks[0] in _CAPITAL_JOINERS) and not _opens_place(toks):
        start += len(toks[0]) + (len(toks[1]) if len(toks) > 1 else 0)
        toks = toks[2:]
    if not toks or not toks[0] or start >= m.end():
        return None
    legal = _has_legal_form(m)
    # "LORILLARD, DIVISION OF LOEW'S CORP.", "DIVISION OF AMERICAN BRANDS INC.": a
    # letterhead names the parent company its division belongs to after the unit's word
    parent = _PARENT_OF.search(text, start, m.end("name"))
    if parent is not None:
        start = parent.end()
    name = text[start:m.end("name")]
    if not legal and ", " in name and not re.search(r"[ ](?:&|and|AND)[ ]", name):
        # "Dr. P. D. Schickedantz, Lorillard Research Center": a person and the place they
        # work; a comma joins names only in a firm of partners ("Foley, Hoag & Eliot LLP")
        start += name.rindex(", ") + 2
        name = text[start:m.end("name")]
    words = _name_words(name)
    # a letterhead names a body with its article ("The Tobacco Institute", "THE AMERICAN
    # TOBACCO COMPANY"); a heading or a department in running text has none before it
    titled = re.search(r"(?:^|\n)(?:The|THE)[ ]$", before + text[:start]) is not None
    # a firm's own kind closes its name: "SPORTS MARKETING ENTERPRISES" is no heading
    kind = (m.group("words") or "").split()[-1:]
    # a newspaper is named for its city: "PITTSBURGH PRESS" in a media list's capitals
    paper = bool(kind) and all(w.lower() in forms.newspapers for w in (m.group("words") or "").split())
    if paper and not legal and not known_place(" ".join(words)):
        return None     # "Early News", "Sunday Times": programmes and editions
    if not legal and not any(c.islower() for c in text[start:m.end()]) and not paper and \
            not any(len(w) >= 4 and is_proper_name(w, text[start:m.end()]) for w in words) and \
            not (kind and kind[0].lower() in _FIRM_KINDS) and \
            not _CAPTIONED.search(before + text[:start]):
        # ... unless a word of its name is one no dictionary has: letterheads, footers and
        # distribution lists print a company in capitals ("LORILLARD RESEARCH CENTER"); or
        # a caption on its line asks for it: a typed form's value in capitals is no heading
        # ("Name of foreign principal  AUSTRALIAN NATIONAL TRAVEL ASSOCIATION")
        return None
    if any(w.lower() in forms.roles for w in words):
        return None
    if not legal and not titled and not paper and \
            (_only_activity(m.group("words") or "", forms) or len(words) == 1) and \
            not any(is_proper_name(w, text[start:m.end()]) or (len(words) > 1 and known_place(w)) for w in words):
        # "Market Research", "Quality Council", "Political Organization": a department, a
        # committee of a company, a form's heading; "Camm Research", "VTB Group" are firms,
        # and so are bodies named for their city or country ("Kobe Trade Information
        # Office", "Kobe Municipal Government": a city's name may be an English word too);
        # a city and the office alone is a firm's branch there ("Bermuda Department of
        # Tourism, Atlanta Office"): the city stays a place
        return None
    return start


def find_organization_hits_in_text(text: str, forms: OrganizationForms, before: str = "") -> list[Hit]:
    """Organisation hits of ``text`` (one segment of a line; ``before``: its line's text
    before it, where a caption may be)."""
    out = []
    for m in forms.with_words.finditer(text):
        start = _form_name_start(text, m, forms, before)
        if start is None:
            continue
        start = _after_members_of(text, start, m.end("name"))
        if _has_legal_form(m):
            start = _misread_opening(text, start, before)
        person = _person_of(text, start, m.end("name"), forms)
        if person is not None:
            # "Robin Meyers of Steele Associates": a person and the firm they are with
            out.append(Hit("name_of_organization", start, person[0], SCORE_PERSON_OF))
            start = person[1]
        out.append(Hit("org_form", start, _strip_full_stop(text, start, m.end()), SCORE_FORM))
    if forms.campaign is not None:
        for m in forms.campaign.finditer(text):
            # "Simmons for Senate", "Bennet for Colorado": a campaign committee, named for its
            # candidate and the office or state they run for
            first = m.group("name").split()[0]
            if first.lower() not in forms.not_name and is_proper_name(first, text):
                out.append(Hit("org_form", m.start(), m.end(), SCORE_FORM))
    for m in forms.firm.finditer(text):
        if m.group("firm").split(",")[0].strip().lower() in forms.not_name:
            continue
        s, e = m.start("firm"), m.end("firm")
        out.append(Hit("org_firm", s, _strip_full_stop(text, s, e), SCORE_FIRM))
    out += [Hit("org_firm", s, e, SCORE_FIRM) for s, e in ampersand_firm_hits(text, forms)]
    out += [Hit("org_employer", s, e, SCORE_EMPLOYER) for s, e in employer_hits(text, forms)]
    out += [Hit("org_form", s, _strip_full_stop(text, s, e), SCORE_FORM)
            for s, e in prefix_head_hits(text, forms) + leading_word_hits(text, forms) +
            romance_body_hits(text, forms) + trade_name_hits(text)]
    # one hit a name: two forms may find it or a part of it ("First Bank of Springfield Group")
    best: dict[tuple[int, int, str], Hit] = {}
    for h in out:
        k = (h.start, h.end, h.rule)
        if k not in best or h.score > best[k].score:
            best[k] = h
    orgs = [h for h in best.values() if h.rule in ORG_RULES]
    return [h for h in best.values() if h.rule not in ORG_RULES or
            not any(o.start <= h.start and h.end <= o.end and o.end - o.start > h.end - h.start for o in orgs)]
