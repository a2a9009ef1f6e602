"""Organisation forms beyond "capitalised words + organisation word" (``organizations``):

- a firm named for its partners joined by "&" ("Winston & Strawn", "Reichler, Milton &
  Medel"): law, accounting and advertising firms are named so, and "&" joins no person's
  names;
- a body named "<head> of <name>" ("University of Utah", "Embassy of the People's Republic
  of China", "Office of the Secretary of State", "Friends of Barbara Boxer");
- a business named after its kind first ("Hotel Plaza Athénée", "Banco Santander");
- a body named in a Romance language, "<head> de/du/di <name>" ("Direction du Tourisme et
  des Congrès", "Ministerio de Industria y Comercio");
- an organisation's short name: a document names a company in full once ("CDN
  International, Inc.", "Ketchum Public Relations") and then by its first word or by the
  abbreviation it defines in brackets ("CDN", "(EDB)");
- the organisation of a digital signature's distinguished name ("o=Ketchum");
- a company named before its people's role ("Lorillard Sales Representative", "the XEROX
  SERVICE REPRESENTATIVE"): a sales or service force is named for the company it sells for;
- a letterhead's firm name set on its own line over its kind ("HAZLETON" over
  "LABORATORIES AMERICA, INC.");
- a firm's founders' initials joined by "&" ("AT&T", "B&W", "SH&B").
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.values import is_common_word
from redactor.plugin_api import given_names, personal_titles, surnames

if TYPE_CHECKING:
    from redactor_plugins.rules.organizations import OrganizationForms

SCORE_SHORT_NAME = 0.6   # a repeat of an organisation's first word found on the page
# ... a word English uses rarely: a firm picks a coined or a striking word ("Rabid Research"
# 3.1, "Ketchum" 2.5); "American", "Union", "Rapid" (4.4) and "Pioneer" (3.9) are common
SHORT_NAME_ZIPF = 3.5
SCORE_DN = 0.9           # "o=" of a distinguished name: a label
# titles before a surname: forms of address (personal_titles) and the offices of politicians
# and officials
_OFFICES = frozenset({"sen", "senator", "rep", "gov", "governor", "mayor", "judge", "hon", "gen", "atty",
                      "president", "secretary", "minister", "ambassador"})
# "<Company> [Sales|Service|...] Representative": the word before the role is the employer;
# an adjective ("Senior", "Pharmaceutical") stands there as often, so only a word rarer than
# EMPLOYER_ZIPF in English (a made-up company name: "Lorillard" 2.1, "Xerox" 3.0) counts
EMPLOYER_ZIPF = 3.5
SCORE_EMPLOYER = 0.6
_EMPLOYER_ROLE = re.compile(
    r"(?<![\w&'’-])(?P<name>[A-Z][a-z]{2,}|[A-Z]{3,})[ ]+"
    # the role wraps at a line's end as often as not ("THE LORILLARD SALES / REPRESENTATIVE")
    r"(?:(?:Sales|SALES|Service|SERVICE|Field|FIELD|Account|ACCOUNT|Territory|TERRITORY)[ \n]+)?"
    r"(?:Representatives?|REPRESENTATIVES?|Reps?|REPS?|Salesm[ae]n|SALESM[AE]N|Dealers?|DEALERS?|Distributors?|DISTRIBUTORS?)"
    r"(?![\w])")
_FOLLOWED_BY_NAME = re.compile(r"[ ]+(?:[A-Z][a-z]|[A-Z]{2})")
_COUNTRY_AFTER = re.compile(r"[ ](?:USA|U\.S\.A\.?|U\.S\.|US|UK|U\.K\.)(?![\w.])")


def is_proper_name(word: str, context: str = "") -> bool:
    """Whether ``word`` reads as a proper name rather than an English word: a surname or
    given name of the census lists, a word no dictionary has ("Kapuler"), or an
    abbreviation in capitals amid lower case ("AAAS Meetings Office")."""
    w = word.strip(".,'’")
    if len(w) < 2:
        return False
    if w.isupper() and len(w) <= 5 and any(c.islower() for c in context):
        return True
    key = w.upper()
    return key in surnames() or key in given_names() or not is_common_word(w.lower())


def _parts(name: str) -> list[str]:
    return [p.strip(".,'’") for p in re.split(r",?[ ]&[ ]|,[ ]", name) if p.strip(".,'’")]


def ampersand_firm_hits(text: str, forms: OrganizationForms) -> list[tuple[int, int]]:
    """"Winston & Strawn", "BRAYTON, GISVOLD & HARLEY": two to five names joined by "&",
    each a surname or a name no dictionary has, and no capitalised word right after (then
    the "&" joins given names: "John & Mary Smith"). Trades and units ("Research &
    Development", "Sales & Marketing") and titles ("Mr & Mrs") are no partners."""
    if forms.ampersand is None:
        return []
    out = []
    stop = forms.not_name | forms.roles | forms.org_words | set(forms.activity) | personal_titles()
    for m in forms.ampersand.finditer(text):
        parts = _parts(m.group("firm"))
        # a group's national company names its country after it ("Brown & Williamson USA")
        country = _COUNTRY_AFTER.match(text, m.end())
        if len(parts) < 2 or (country is None and _FOLLOWED_BY_NAME.match(text, m.end())):
            continue
        if any(len(p) < 2 or p.lower() in stop or not is_proper_name(p, text) or
               (p.isupper() and len(p) <= 3) for p in parts):
            continue
        if all(p.upper() in given_names() for p in parts) and not m.group("firm").isupper():
            continue    # "Dear John & Mary": a couple; a firm's letterhead is in capitals
        out.append((m.start("firm"), country.end() if country else m.end("firm")))
    return out


_INITIALS_FIRM = re.compile(r"(?<![\w&/.\-])(?P<firm>[A-Z]{1,3}&[A-Z]{1,3})(?:['’]s)?(?![\w&/\-])")
# "1000 lines B&W", "1/2 page B&W": after a size of print space the initials are the ad's
# colour (black and white), not a firm
_PRINT_SPACE = re.compile(r"(?i)(?:\d|\b(?:lines?|inch(?:es)?|in\.|col\.?|columns?|pages?|pg\.?))[ ]*$")
# the legend a litigation archive stamps on every page it produces ("PRODUCED FROM B&W WEB
# SITE"): the archive's, like its Bates number, not the document's
_PRODUCTION_LEGEND = re.compile(r"(?i)produced\s+(?:from|by)\s+(?P<firm>\S+)(?:\s\S+)?\s+web\s?site")


def initials_firm_hits(text: str, forms: OrganizationForms) -> list[tuple[int, int]]:
    """Founders' initials joined by "&" ("AT&T", "P&G", "B&W", "SH&B", "SSC&B"): firms
    named for two founders go by their initials so; the trade's own abbreviations written
    the same way ("R&D", "Q&A", "P&L": ``ampersand_terms``) name none. A possessive
    "'s" belongs to the name as written ("B&W's")."""
    out = []
    # (OCR may set the legend's cells on lines of their own)
    legends = {m.start("firm") for m in _PRODUCTION_LEGEND.finditer(text)}
    for m in _INITIALS_FIRM.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if m.group("firm") in forms.ampersand_terms or _PRINT_SPACE.search(text, line_start, m.start()) or \
                m.start() in legends:
            continue
        out.append((m.start(), m.end()))
    return out


def _cut_rest(text: str, start: int, end: int, forms: OrganizationForms) -> int:
    """End of a prefix form's name: before a unit or heading word ("University of Hawaii
    Dept."), and without a dangling "of"/"the"."""
    for w in re.finditer(r"[^ ]+", text[start:end]):
        if w.group(0).strip(".,").lower() in forms.roles | forms.not_name:
            end = start + w.start()
            break
    return start + len(re.sub(r"(?:[ ](?:of|OF|the|THE))*[ ]*$", "", text[start:end]))


# Heads that also name the units of a government or a company: an office named for its task
# (an abstract noun: "Office of Management", "Office of Information") is a unit; one named for
# a place or an official ("Office of Tibet", "Office of the Secretary of State") stands for them.
_UNIT_HEADS = frozenset({"office", "bureau", "board", "council", "commission", "division"})
_ABSTRACT_NOUN = re.compile(r"(?:ment|tion|sion|ance|ence|ing|ics|ity|ness)$")


def prefix_head_hits(text: str, forms: OrganizationForms) -> list[tuple[int, int]]:
    """"<head> of [the] <name>": a university, an embassy, a government, an office, a
    campaign's friends. A unit or title right after "of" ("Board of Directors", "Office of
    Sales") or a task ("Office of Management") makes it no organisation."""
    if forms.prefix is None:
        return []
    out = []
    for m in forms.prefix.finditer(text):
        first = m.group("rest").split(" ")[0].strip(".,").lower()
        if first in forms.roles or first in forms.not_name:
            continue
        if m.group("head").lower() in _UNIT_HEADS and _ABSTRACT_NOUN.search(first):
            continue   # "Office of Management", "Bureau of Information": a unit named for its task
        end = _cut_rest(text, m.start("rest"), m.end("rest"), forms)
        if end > m.start("rest"):
            out.append((m.start(), end))
    return out


def romance_body_hits(text: str, forms: OrganizationForms) -> list[tuple[int, int]]:
    """A body named in French, Spanish, Portuguese or Italian: "Direction du Tourisme et des
    Congrès", "Ministerio de Industria y Comercio" (``romance_heads``). A lone
    abbreviation after the link is a unit's code, no name ("Office de la D.G.")."""
    if forms.romance is None:
        return []
    return [(m.start(), m.end()) for m in forms.romance.finditer(text)
            if any(c.islower() for c in m.group("rest"))]


def leading_word_hits(text: str, forms: OrganizationForms) -> list[tuple[int, int]]:
    """"Hotel Plaza Athénée": a kind of business, then one or two capitalised words of
    which one is no English word ("Hotel Reservation Form" is a form's title)."""
    if forms.leading is None:
        return []
    out = []
    for m in forms.leading.finditer(text):
        # the name ends with its last word no dictionary has ("Hotel Plaza Athénée New York")
        proper = [w for w in re.finditer(r"[^ ]+", m.group("rest")) if not is_common_word(w.group(0).lower())]
        if proper:
            out.append((m.start(), m.start("rest") + proper[-1].end()))
    return out


# The name a business trades under, after its legal name or its owner's ("CMGRP, Inc. d/b/a
# Weber Shandwick", "John Smith dba Smith Plumbing", "Acme Ltd t/a Acme Foods"): US and
# Commonwealth filings, contracts and invoices name a trade name so. Whoever precedes, the
# name after the words is a business's. It runs over capitalised words (one glued word in
# capitals too: "QorvisMSLGROUP") to the line's or the clause's end, or to a figure (the
# street number of its address).
_TRADE_NAME = re.compile(
    r"(?<![\w/])(?:[dD]/[bB]/[aA]|[dD]\.[bB]\.[aA]\.|DBA|dba|[tT]/[aA]"
    r"|(?:doing|DOING)[ ](?:business|BUSINESS)[ ](?:as|AS)|(?:trading|TRADING)[ ](?:as|AS))[ ]"
    r"(?P<name>[A-Z0-9][\w'’&.\-]*(?:[ ](?:&[ ])?(?:of[ ]|the[ ]|and[ ])?[A-Z][\w'’&.\-]*){0,5})")


def trade_name_hits(text: str) -> list[tuple[int, int]]:
    """The trade name after "d/b/a", "dba", "t/a", "doing business as", "trading as"."""
    out = []
    for m in _TRADE_NAME.finditer(text):
        name = m.group("name").rstrip(".,;:")
        if any(c.isalpha() for c in name):
            out.append((m.start("name"), m.start("name") + len(name)))
    return out


# an abbreviation a name defines right after it: 'CDN International, Inc. ("CDN")', "(EDB)"
_DEFINED_SHORT = re.compile(r"[ ]?\([\"“”'*]?(?P<short>[A-Z][A-Z&.\-]{1,8}?)[\"“”'*]?\)")
_DN_ORG = re.compile(r"(?<![\w])[oO][ ]?=[ ]?(?P<org>[^,=\n]{2,60}?)[ ]?(?=,|\n|$)")


def _initials(words: list[str], forms: OrganizationForms) -> str | None:
    """The initials of a name's words ("British Travel and Holidays Association" -> "BTHA"),
    when there are three to six of them."""
    letters = [w[0] for w in words if w[:1].isupper() and w.lower() not in forms.legal]
    return "".join(letters) if 3 <= len(letters) <= 6 and len(letters) == len(
        [w for w in words if w.lower() not in _JOINERS and w.lower() not in forms.legal]) else None


_JOINERS = frozenset({"of", "and", "the", "&", "for"})


def _rare(word: str) -> bool:
    """Whether English uses ``word`` rarely (a proper name's, SHORT_NAME_ZIPF)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), "en") < SHORT_NAME_ZIPF


def _short_patterns(text: str, orgs: Iterable[Hit], forms: OrganizationForms) -> set[str]:
    """Regexes of the short names of the organisations found: their first word, an
    abbreviation they define in brackets, their initials (with or without stops)."""
    keys = set()
    for h in orgs:
        words = re.findall(r"[^ \n,]+", text[h.start:h.end])
        # "The American Tobacco Company", "Messrs Tan & Co", "Syarikat Perniagaan Hong Seng":
        # an article, a title or the kind of business opens the name, not its short form
        while words and (words[0].lower() in forms.not_name or words[0].lower().rstrip(".") in personal_titles()
                         or (forms.leading is not None and forms.leading.match(" ".join(words)))):
            words = words[1:]
        first = words[0].strip(".,'’") if words else ""
        if len(words) > 1 and len(first) >= 3 and first.lower() not in forms.org_words and \
                _rare(first):
            keys.add(re.escape(first))
        m = _DEFINED_SHORT.match(text, h.end)
        if m is not None:
            keys.add(re.escape(m.group("short").strip(".")))
        initials = _initials([w.strip(".,'’") for w in words], forms)
        if initials:
            keys.add(r"\.?".join(initials) + r"\.?" if "." in initials else
                     initials + "|" + r"\.".join(initials) + r"\.")
    return keys


_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z'’.]*)[ \n]+$")


def _after_given_name(text: str, pos: int) -> bool:
    """Whether the word at ``pos`` follows a given name, an initial or a title ("Russ
    Feingold", "Sen. Feingold"): a committee named for a candidate ("Feingold Senate
    Committee") shares its first word with the candidate's name."""
    m = _WORD_BEFORE.search(text, max(0, pos - 30), pos)
    if m is None:
        return False
    w = m.group(1).rstrip(".")
    return (w[:1].isupper() and w.upper() in given_names()) or len(w) == 1 or \
        w.lower() in _OFFICES | personal_titles()


def short_name_hits(text: str, orgs: list[Hit], forms: OrganizationForms) -> list[Hit]:
    """Repeats of an organisation's short name on its page: the first word of a name found
    in full, when that word is a proper name and no English word ("Ketchum" of "Ketchum
    Public Relations", not "American" of "American Brands, Inc."), an abbreviation the
    name defines in brackets ("Economic Development Board (EDB)") and its initials
    ("B.T.H.A." of "British Travel and Holidays Association"); each written
    capitalised or in capitals, outside the names already found. A possessive "'s" stays
    outside the name."""
    out = []
    for key in _short_patterns(text, orgs, forms):
        for m in re.finditer(rf"(?<![\w\-&.])(?:{key})(?![\w\-&])", text, re.IGNORECASE):
            word = m.group(0)
            if not word[:1].isupper():
                continue    # "cdn" in a web address, "ketchum" in an e-mail
            if any(h.start <= m.start() < h.end for h in orgs) or _after_given_name(text, m.start()):
                continue
            out.append(Hit("org_form", m.start(), m.end(), SCORE_SHORT_NAME))
    return out


def distinguished_name_hits(text: str) -> list[Hit]:
    """The "o=" of a digital signature's distinguished name (X.500: "cn=Dan Kloeffler,
    o=Ketchum, ou=..., email=...") is the signer's organisation."""
    return [Hit("label_organization", m.start("org"), m.end("org"), SCORE_DN)
            for m in _DN_ORG.finditer(text) if any(c.isalpha() for c in m.group("org"))]


def employer_hits(text: str, forms: OrganizationForms, wrapped: bool = False) -> list[tuple[int, int]]:
    """The company before its people's role ("Lorillard Sales Representative"): a
    capitalised word English rarely uses, no person's given name and no label or role word.
    ``wrapped``: only those whose role runs on to the next line (page text)."""
    from wordfreq import zipf_frequency

    out = []
    for m in _EMPLOYER_ROLE.finditer(text):
        if wrapped != ("\n" in m.group()):
            continue
        name = m.group("name")
        low = name.lower()
        if low in forms.not_name | forms.roles | forms.org_words or name.upper() in given_names() or \
                zipf_frequency(low, "en") >= EMPLOYER_ZIPF:
            continue
        out.append(m.span("name"))
    return out


# A letterhead's firm name set over its descriptor: the name line at most this many of its
# text heights above the descriptor, of at most NAME_WORDS words
STACK_GAP = 1.5
STACK_NAME_WORDS = 3
CELL_GAP = 2.0       # ... set apart from the rest of its OCR line by this many heights


def stacked_name_hits(layout, hits: list[Hit], forms: OrganizationForms) -> list[Hit]:
    """An organisation found by its form whose first word is its kind, not its name
    ("LABORATORIES AMERICA, INC.", "TOBACCO COMPANY"), with a line of one to three proper
    names right above it, over its start or its middle ("HAZLETON"): a letterhead sets the
    firm's name large on a line of its own over its descriptor: the name line is the
    organisation's too (a hit of its own: OCR may order other lines between the two)."""
    out = []
    for hit in hits:
        ids = layout.words_in(hit.start, hit.end)
        first = layout.words[ids[0]].text.strip(".,").lower() if ids else ""
        if hit.rule != "org_form" or first not in forms.org_words:
            continue
        line = layout.line_of_word(ids[0])
        x0, x1 = layout.words[ids[0]].bbox[0], max(layout.words[i].bbox[2] for i in ids)
        above = [ln for ln in layout.lines if 0 <= line.y0 - ln.y1 <= STACK_GAP * max(line.height, ln.height)
                 and (abs(ln.x0 - x0) <= line.height or x0 <= (ln.x0 + ln.x1) / 2 <= x1)]
        if len(above) != 1:
            continue
        cell = _cell_over(layout, above[0], x0, x1, line.height)
        if not cell or len(cell) > STACK_NAME_WORDS:
            continue
        words = [layout.words[i].text for i in cell]
        if all(re.fullmatch(r"[A-Z][A-Za-z'’&.\-]+", w) and w.strip(".").lower() not in forms.org_words
               and is_proper_name(w, "") for w in words):
            out.append(Hit(hit.rule, *layout.span_of_words(cell), hit.score))
    return out


def _cell_over(layout, above, x0: float, x1: float, h: float) -> list[int]:
    """The words of line ``above`` standing over x0..x1, when they are a cell of their own:
    a column gap (CELL_GAP heights) apart from the line's other words. OCR runs a
    letterhead's name into one line with the form's title left of it and the firm's
    address right of it ("PROJECT SHEET   HAZLETON   VIENNA, VIRGINIA")."""
    ids = list(above.words)
    inside = [k for k, i in enumerate(ids)
              if x0 - h <= (layout.words[i].bbox[0] + layout.words[i].bbox[2]) / 2 <= x1 + h]
    if not inside or inside != list(range(inside[0], inside[-1] + 1)):
        return []
    a, b = inside[0], inside[-1]
    if a > 0 and layout.words[ids[a]].bbox[0] - layout.words[ids[a - 1]].bbox[2] < CELL_GAP * h:
        return []
    if b + 1 < len(ids) and layout.words[ids[b + 1]].bbox[0] - layout.words[ids[b]].bbox[2] < CELL_GAP * h:
        return []
    return [ids[k] for k in inside]


def firms_atop_address_values(text: str, hits: list[Hit], forms: OrganizationForms) -> list[Hit]:
    """An "Address:" caption's value often opens with the addressee's company ("ADDRESS:
    Philip Morris Europe / Fabriques de Tabac Réunies S.A. / CH-2003 Neuchatel"): a line
    that ends in a company's legal form is the organisation, and so is every line above it
    (the group over its company), not the postal address, which is its street and town
    lines. Those lines become organisation hits with the caption's score; the address hit
    keeps the lines after them, or goes when none is left."""
    from redactor_plugins.rules.organizations import find_organization_hits_in_text

    out = []
    for h in hits:
        if h.rule != "label_address":
            out.append(h)
            continue
        # each line's start and its text without the comma that runs it on
        lines = [(m.start() + h.start, m.group().rstrip(" ,")) for m in re.finditer(r"[^\n]+", text[h.start:h.end])]
        top = -1
        for i, (_, line) in enumerate(lines):
            # (``forms.legal`` holds each form without its stops too: "s.a", "inc")
            if line.rsplit(" ", 1)[-1].lower().strip(".") in forms.legal and \
                    any(f.end >= len(line.rstrip(".")) for f in find_organization_hits_in_text(line, forms)):
                top = i
        if top < 0:
            out.append(h)
            continue
        out += [Hit("label_organization", s, s + len(line), h.score) for s, line in lines[:top + 1]]
        if top + 1 < len(lines):
            out.append(Hit(h.rule, lines[top + 1][0], h.end, h.score))
    return out
