"""Person names as business papers write them without a cue word before them: initials and
a surname ("J. S. Wigand", "S.P. McBride", "P. H. HARPER"), the same inverted as reference
lists and files sort them ("Litchfield, J. T."), and a cell of a form or a list that holds
nothing but a census given name and surname ("Gregory Little" in a contact column)."""
from __future__ import annotations

import re


from redactor.plugin_api import (NAME_MAX_WORDS, PageView, given_names, is_census_name, reads_as_name,
                                  reads_as_rare_name, surnames, veto_words)
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.lexicon import Vocab, normalise_label
from redactor_plugins.rules.values import INITIALS_LIST, INITIALS_RUN_TOGETHER, is_common_word

# A person's initial as typed ("J.", "S.P.", "A.W.") or as OCR reads a capital whose lower
# case has the same shape ("Ss.", "Vv."), an S with its serif ("S$."), an O as a zero
# ("William 0. Iverson") or an E as the euro sign ("J. €. Mann"); a speck of a photocopy
# OCR read beside the stop ("L.¢ GORDON"). "P.H.H." alone (no surname) is a staff
# member's initials, which the guide leaves to signatures and routing.
_INITIAL = re.compile(r"(?:[A-Z]\.){1,3}[¢°*]?|(?:Cc|Oo|Ss|Vv|Ww|Xx|Zz|S\$|0|€|£)\.")
# A surname: capitalised ("Wigand", "McBride", "O'Neil", "Smith-Jones"), in capitals
# ("HARPER"), or with a lower-case particle glued on ("deLacy", "van't"). A slash may join
# a second person ("Anders/J. Mann"): the surname ends at it.
_SURNAME = re.compile(r"(?P<name>(?:Mc|Mac|O['’]|[a-z]{2,3})?[A-Z][a-z]+(?:[\-'’][A-Z]?[a-z]+)*"
                      r"|(?:Mc|Mac)?[A-Z]{3,}(?:[\-'’][A-Z]+)*)(?P<tail>[.,;:]?|/.*)")
# Dotted initialisms that are no one's initials: a country, a US state, a postal term, a time
# of day, a degree or an era ("U.S. Army", "P.O. Box", "N.Y. Times", "A.M. Session").
NOT_INITIALS = frozenset({"US", "USA", "UK", "UN", "EU", "EC", "PO", "AM", "PM", "BC", "AD", "MD", "DC",
                           "RD", "NB", "PS", "VS", "ET", "EG", "IE", "CO", "NO", "OK", "NW", "NE", "SW", "SE",
                           # a firm's legal form written with stops ("Patton Boggs, L.L.P.",
                           # "Smith & Jones, P.C."): no sorted name's initials
                           "LLP", "LLC", "LP", "PC", "PA", "PLC", "PLLC", "SA", "NV", "BV", "KK"})
# What follows a surname and belongs to the name ("R. S. Sprinkle, III", "C. L. Tucker, Jr.")
_SUFFIX = re.compile(r"(?:Jr|Sr|Esq|JR|SR|ESQ)\.?|I{2,3}|IV")
_CAPITAL_INITIALS = re.compile(r"[B-DF-HJ-NP-TV-Z]{2,4}")
RARE_WORD_ZIPF = 3.5          # wordfreq: a surname this rare as a word ("Archibald" 3.2) is a name
INITIALS_SCORE = 0.7          # pattern band: the form of a name, no label or cue word
CELL_GAP = 1.5                # text heights: a wider gap starts another cell of a form row
INITIALS_GAP = 2.5            # ... but a typewriter sets initials two spaces apart ("C.  M.  WIECHMANN")
CELL_NAME_SCORE = 0.6


def _zipf(word: str) -> float:
    """wordfreq's Zipf frequency of ``word``, imported on first use (loading the rules must
    not load the word lists: the detector does when it is built)."""
    from wordfreq import zipf_frequency
    return zipf_frequency(word, "en")


def _key(word: str) -> str:
    return word.strip(".,;:").upper()


def _surname_ok(word: str, vocab: Vocab) -> bool:
    """Whether ``word`` (the surname of an initials-name) can be a person's: no word of the
    document vocabulary (a title, a month, a street word, a company word) unless a census
    surname, and a census surname or no English word ("A. Introduction" heads a list,
    "F.P.M. Delivery" names a form's column)."""
    key = _key(word)
    low = key.lower()
    census = key in surnames()
    if low in vocab.not_names or low in vocab.title_words or low in vocab.company_words:
        return False
    if key in veto_words() and not census:
        return False
    return census or not is_common_word(low)


def _initials_letters(words: list[str]) -> str:
    return "".join(c for w in words for c in w if c.isalpha()).upper()


def _same_cell(layout: PageView, a: int, b: int) -> bool:
    line = layout.line_of_word(a)
    return layout.same_line(a, b) and \
        layout.words[b].bbox[0] - layout.words[a].bbox[2] <= CELL_GAP * line.height


_RULE_AND_INITIAL = re.compile(r"[I|\[][A-Z]\.")
# an initial as typed or as OCR reads its stop ("C.", "M,")
INITIAL_WORD = re.compile(r"[A-Z][.,]")


def _opens_cell(layout: PageView, ws: tuple[int, ...], i: int) -> bool:
    """Whether word ``ws[i]`` is the first of its line or of a cell of it."""
    return i == 0 or not _same_cell(layout, ws[i - 1], ws[i])


def _initials_run(layout: PageView, ws: tuple[int, ...], i: int) -> int:
    """How many words from position ``i`` of ``ws`` are initials of one name (up to three)."""
    n = 0
    while i + n < len(ws) and n < 3 and (n == 0 or _same_cell(layout, ws[i + n - 1], ws[i + n])):
        t = layout.words[ws[i + n]].text
        # "H, M. BOGGIANO": OCR read an initial's dot as a comma; another initial follows
        misread = re.fullmatch(r"[A-Z],", t) and i + n + 1 < len(ws) and \
            _INITIAL.fullmatch(layout.words[ws[i + n + 1]].text)
        # "IL. Gordon" down a bracketed list: OCR read the bracket's stroke left of the
        # line's first initial into it as an "I"
        if n == 0 and _RULE_AND_INITIAL.fullmatch(t) and _opens_cell(layout, ws, i):
            n = 1
            continue
        # "A. J, GIACOIO": a later initial's dot read as a comma, its surname right after
        # it in the cell (a comma that ends a name has no surname after it)
        # ... or the first one's, after a word in lower case ("agreed to by T. Parrack and A,
        # Forsythe": after a capitalised word the comma may invert a name, "Smith, A, ...")
        opens = n > 0 or i == 0 or layout.words[ws[i - 1]].text[:1].islower()
        misread = misread or (opens and re.fullmatch(r"[A-Z],", t) and i + n + 1 < len(ws) and
                              _same_cell(layout, ws[i + n], ws[i + n + 1]) and
                              _SURNAME.fullmatch(layout.words[ws[i + n + 1]].text) is not None)
        # "Wilcoxin, F., J. of Pharmacol.": a comma after the last initial ends the name
        if t[-1:] in ",;" and _INITIAL.fullmatch(t[:-1]) and not misread:
            return n + 1
        if not (_INITIAL.fullmatch(t) or misread):
            break
        n += 1
    return n


def _name_end(layout: PageView, ws: tuple[int, ...], j: int, vocab: Vocab) -> int | None:
    """The end offset of the name whose surname is word ``ws[j]``: before the surname's
    trailing stop or a slash, or after a generational suffix ("Sprinkle, III"). None when a
    company word follows ("P. LORILLARD CO.": a firm named after its founder)."""
    m = _SURNAME.fullmatch(layout.words[ws[j]].text)
    if m is None:
        return None
    end = layout.offsets[ws[j]][0] + m.end("name")
    if j + 1 < len(ws) and _same_cell(layout, ws[j], ws[j + 1]) and m.group("tail") in ("", ","):
        nxt = layout.words[ws[j + 1]].text
        if normalise_label(nxt) in vocab.company_words:
            return None
        if _SUFFIX.fullmatch(nxt.rstrip(",;:")):
            end = layout.offsets[ws[j + 1]][0] + len(nxt.rstrip(",;:"))
    return end


def initials_names(layout: PageView, vocab: Vocab) -> list[Hit]:
    """"J. S. Wigand", "S.P. McBride": one to three initials, then a surname, in one cell;
    in a distribution list of several such names on a row each is its own name."""
    out = []
    for line in layout.lines:
        ws = line.words
        i = 0
        while i < len(ws):
            n = _initials_run(layout, ws, i)
            if n == 0 or (i > 0 and _INITIAL.fullmatch(layout.words[ws[i - 1]].text)):
                i += max(n, 1)
                continue
            inits = [layout.words[w].text for w in ws[i:i + n]]
            j = i + n
            if j < len(ws) and _same_cell(layout, ws[j - 1], ws[j]) and \
                    _initials_letters(inits) not in NOT_INITIALS and \
                    _surname_ok(layout.words[ws[j]].text.split("/")[0], vocab) and \
                    (_in_a_sentence(layout, ws, i) or not _sentence_goes_on(layout, ws, j)):
                end = _name_end(layout, ws, j, vocab)
                if end is not None:
                    out.append(Hit("name_line", _given_name_start(layout, ws, i), end, INITIALS_SCORE))
                    i = j + 1
                    continue
            i += n
    return out


_GIVEN = re.compile(r"[A-Z][a-z]+|[A-Z]{2,}")


def _given_name_start(layout: PageView, ws: tuple[int, ...], i: int) -> int:
    """Where the name whose initials start at position ``i`` begins: at a census given name
    right before them in the same cell ("Raymond S. Calamaro", "__John H. M. Bohlken", the
    fill-in line read as underscores), else at the first initial."""
    start = layout.offsets[ws[i]][0]
    if i == 0 or not _same_cell(layout, ws[i - 1], ws[i]):
        return start
    if i >= 2 and _INITIAL.fullmatch(layout.words[ws[i - 2]].text):
        return start    # "A. H. Tisch F. J. Schultz": the word before is the last name's surname
    raw = layout.words[ws[i - 1]].text
    word = raw.lstrip("_-~.:;'‘’\"|")
    key = word.upper()
    # a census given name; or a census surname, capitalised and rare as an English word
    # ("Archibald N. Stewart"); not a caption's word ("PROJECT LEADER J. F. Anders")
    census = key in given_names()
    rare_surname = key in surnames() and word[1:].islower() and \
        _zipf(word.lower()) < RARE_WORD_ZIPF
    if not _GIVEN.fullmatch(word) or not (census or rare_surname or not is_common_word(word.lower())) or \
            (key in veto_words() and not census):
        return start
    return layout.offsets[ws[i - 1]][1] - len(word)


def _in_a_sentence(layout: PageView, ws: tuple[int, ...], i: int) -> bool:
    """The initials at ``i`` follow a lower-case word of their line ("agreed to by T.
    Parrack and A. Forsythe"): they stand inside a sentence, where they open a name, not a
    list item or a sentence of their own."""
    return i > 0 and _same_cell(layout, ws[i - 1], ws[i]) and \
        layout.words[ws[i - 1]].text.rstrip(",;:")[-1:].isalpha() and layout.words[ws[i - 1]].text[:1].islower()


def _sentence_goes_on(layout: PageView, ws: tuple[int, ...], j: int) -> bool:
    """A lower-case word right after the surname continues a sentence ("A. Field work was"):
    the capitalised words opened a list item or a sentence, not a name."""
    word = layout.words[ws[j]].text
    if word.endswith((",", ";", ".", ":")) or "/" in word or j + 1 >= len(ws):
        return False
    nxt = layout.words[ws[j + 1]].text
    return _same_cell(layout, ws[j], ws[j + 1]) and nxt[:1].islower()


def inverted_initials_names(layout: PageView, vocab: Vocab) -> list[Hit]:
    """"Litchfield, J. T.": a surname and its comma, then one to three initials, as reference
    lists, indexes and files sort people."""
    out = []
    for line in layout.lines:
        ws = line.words
        for i, w in enumerate(ws[:-1]):
            t = layout.words[w].text
            # "Ave., N.W.": an abbreviation's dot says the word is no surname
            if not t.endswith(",") or t.endswith(".,") or not _SURNAME.fullmatch(t[:-1]) or \
                    not _same_cell(layout, w, ws[i + 1]):
                continue
            # "C. M. WIECHMANN, D.M.": initials before the surname write the name forward,
            # and the letters after its comma are a degree or a title
            if i > 0 and INITIAL_WORD.fullmatch(layout.words[ws[i - 1]].text) and \
                    layout.words[w].bbox[0] - layout.words[ws[i - 1]].bbox[2] <= INITIALS_GAP * line.height:
                continue
            # ... and so does a given name before it ("Joel Jankowsky, P.C.": a lawyer's
            # professional corporation, the letters its form)
            if i > 0 and _same_cell(layout, ws[i - 1], w) and \
                    layout.words[ws[i - 1]].text[:1].isupper() and \
                    layout.words[ws[i - 1]].text.upper() in given_names():
                continue
            n = _initials_run(layout, ws, i + 1)
            letters = _initials_letters([layout.words[x].text for x in ws[i + 1:i + 1 + n]])
            # "York, N.Y.", "Washington, D.C.": a town and its state, not a sorted name
            if n == 0 or letters in NOT_INITIALS or letters in vocab.us_states or \
                    not _surname_ok(t, vocab):
                continue
            last = ws[i + n]
            end = layout.offsets[last][1]
            if layout.page.text[end - 1] in ",;:":
                end -= 1
            out.append(Hit("name_line", layout.offsets[w][0], end, INITIALS_SCORE))
    return out


def census_name_cells(layout: PageView) -> list[Hit]:
    """A cell of a form row or a list column that is nothing but a census given name and
    surname ("Gregory Little" beside a company and a phone number): a person, as a line of
    its own is (names._census_name_lines)."""
    out = []
    for line in layout.lines:
        cells = layout.cells(line, CELL_GAP)
        if len(cells) < 2:
            continue    # a whole line is the line rule's
        for cell in cells:
            words = [layout.words[w].text for w in cell]
            # "Jose Price; Owens, Mary": a separator inside the cell makes it a list of names
            listed = any(w.endswith((",", ";", "/")) for w in words[:-1])
            if 2 <= len(cell) <= NAME_MAX_WORDS and not listed and (reads_as_name(words) or reads_as_rare_name(words)):
                s, e = layout.offsets[cell[0]][0], layout.offsets[cell[-1]][1]
                while e > s and layout.page.text[e - 1] in ".,;:":
                    e -= 1
                out.append(Hit("name_line", s, e, CELL_NAME_SCORE))
    return out


def plausible_name(value: str, vocab: Vocab) -> bool:
    """Whether the value a person's label points at can be a name: not a job title alone
    ("Attorney General": the label word's own title), not one ordinary word that no census
    lists as a name ("Notary Public", "Research Budget", "# REPS"), not several everyday
    words without a given name among them ("Tax Director", "Special Projects"), and not running text in
    lower case ("Manner of contact: meeting at ...", "To give notice").
    Titles and job roles stay out of PERSON (the annotation guide)."""
    # two capitals and a stop before the surname are initials run together ("RE. KLEIN")
    raw = value.split()
    raw = [w for k, w in enumerate(raw) if k + 1 == len(raw) or not INITIALS_RUN_TOGETHER.fullmatch(w)]
    words = [w.strip(".,;:()[]'\"") for w in raw]
    words = [w for w in words if len(w) > 1]
    if not words or all(_CAPITAL_INITIALS.fullmatch(w) or INITIALS_LIST.fullmatch(w) for w in words):
        return True     # initials ("RSS": capitals without a vowel spell no English word)
    if all(w.lower() in vocab.title_words for w in words):
        return False
    if len(words) == 1 and not is_census_name(words[0]) and is_common_word(words[0].lower()):
        return False
    if len(words) > 1 and not any(w.upper() in given_names() for w in words) and \
            all(_zipf(w.lower()) >= RARE_WORD_ZIPF for w in words):
        return False    # everyday words and no given name: a role or a heading ("Tax Director", "Pay Terms")
    return not (all(w.islower() for w in words) and
                any(is_common_word(w) and not is_census_name(w) for w in words))


# a town's part, as a sales division or a district is named for it ("Detroit North")
COMPASS_WORDS = frozenset({"north", "south", "east", "west", "central", "northeast", "northwest",
                           "southeast", "southwest", "metro", "downtown"})


def place_with_compass(value: str) -> bool:
    """A sales division, district or region named by its town and a compass point
    ("DIVISION NAME: Detroit North", "Indy East"): two words, the second a compass word,
    the first no census given name ("John West" is a person)."""
    words = [w.strip(".,;:()") for w in value.split()]
    return len(words) == 2 and words[1].lower() in COMPASS_WORDS and words[0][:1].isupper() and \
        words[0].upper() not in given_names()


def find_people_hits(layout: PageView, vocab: Vocab) -> list[Hit]:
    forward = initials_names(layout, vocab)
    # "K. AUGUSTYN, L. GIORDANO": in a list of forward names the comma separates two people;
    # "AUGUSTYN, L." is no inverted name
    inverted = [h for h in inverted_initials_names(layout, vocab)
                if not any(f.start < h.end and h.start < f.end for f in forward)]
    return forward + inverted + census_name_cells(layout) + capital_surname_names(layout, vocab)


def _given(word: str) -> bool:
    """A census given name, hyphenated ones part by part ("Jean-Marc", "Anne-Marie")."""
    parts = word.split("-")
    return all(len(p) >= 2 and p[:1].isupper() and p[1:].islower() and p.upper() in given_names() for p in parts)


def capital_surname_names(layout: PageView, vocab: Vocab) -> list[Hit]:
    """"NICOLE, Jean-Marc": a surname in capitals, its comma, then a given name written in
    title case (and a middle initial), as registers, rosters and filings sort people: the
    capitals mark the surname. The surname is a census one (and no document word), the
    given name a census given name and no place; in one cell."""
    from redactor_plugins.rules.gazetteer import known_place   # (the gazetteer reads this module)

    out = []
    for line in layout.lines:
        ws = line.words
        for i, w in enumerate(ws[:-1]):
            t = layout.words[w].text
            bare = t[:-1]
            if not t.endswith(",") or len(bare) < 3 or not bare.isalpha() or not bare.isupper() or \
                    not _same_cell(layout, w, ws[i + 1]) or bare not in surnames() or not _surname_ok(bare, vocab) or \
                    (i > 0 and _same_cell(layout, ws[i - 1], w) and layout.words[ws[i - 1]].text[:1].isupper()
                     and not layout.words[ws[i - 1]].text.endswith(":")):
                continue    # ("NEW YORK, John": the capitals of a longer name; a caption may lead)
            given = layout.words[ws[i + 1]].text.rstrip(".;:")
            if given.endswith(",") or not _given(given) or known_place(given):
                continue    # "PARIS, France": a town and its country; "GPC, Misty, and Kool" a list
            last = ws[i + 1]
            if i + 2 < len(ws) and _INITIAL.fullmatch(layout.words[ws[i + 2]].text) and \
                    _same_cell(layout, ws[i + 1], ws[i + 2]):
                last = ws[i + 2]
            end = layout.offsets[last][1]
            if layout.page.text[end - 1] in ",;:":
                end -= 1
            out.append(Hit("name_line", layout.offsets[w][0], end, INITIALS_SCORE))
    return out
