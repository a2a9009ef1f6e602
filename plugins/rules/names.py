"""Person names without NER: capitalised words after a title ("Dr. Maria Lopez"), in a
salutation ("Dear Maria Lopez,"), the name line under a letter's closing
("Sincerely," ... "Maria Lopez"), and a line that is only a census given name and surname."""
from __future__ import annotations

import difflib
import re

from redactor.plugin_api import NAME_MAX_WORDS, Line, PageView, given_names, reads_as_name, reads_as_rare_name
from redactor_plugins.rules import values as V
from redactor_plugins.rules.hits import Hit, trim
from redactor_plugins.rules.lexicon import LabelLexicon, Vocab, normalise_label
from redactor_plugins.rules.gazetteer import known_place
from redactor_plugins.rules.people import find_people_hits

SIGNATURE_LINES = 5          # lines under a closing searched for the name
SIGNATURE_GAP = 8.0          # text heights: room for a handwritten signature
SCRAWL_HEIGHT = 2.0          # a line this many times the closing's height is handwriting ...
SCRAWL_CONF = 40.0           # ... and so is one read with mean confidence under this (0-100)
COLUMN_GAP = 1.5             # text heights: a wider gap inside a line separates two columns
SALUTATION_LIKENESS = 0.6    # a misread salutation word ("Dinar" for "Dear")
SALUTATION_MAX_WORDS = 5
NAME_LINE_SCORE = 0.6        # pattern band: the name lists alone, no cue around it


def _tokens(layout: PageView, words) -> list[V.Token]:
    return [(layout.offsets[w][0], layout.offsets[w][1], layout.words[w].text) for w in words]


def _rest_of_line(layout: PageView, w: int) -> list[int]:
    line = layout.line_of_word(w)
    return list(line.words[line.words.index(w) + 1:])


def label_stops(layout: PageView, lex: LabelLexicon | None) -> set[int]:
    """Words that begin a field label and so end a name before them ("Attn: Mark Salazar
    Tel. +1 420 ..."): a label or stop-label phrase marked as one (':', '#', a trailing
    '.', a number word) or followed by a value that is no name (digits, an e-mail)."""
    if lex is None:
        return set()
    text = layout.page.text
    out = set()
    found = [(m.start(), m.end(), bool(m.group("num") or m.group("term")))
             for m in lex.regex.finditer(text)]
    found += [(m.start(), m.end(), m.group(0).rstrip().endswith((":", "#")))
              for m in lex.stop_regex.finditer(text)]
    for s, e, marked in found:
        w = layout.word_at(s)
        if w is None or layout.offsets[w][0] != s:
            continue
        letters = sum(c.isalpha() for c in text[s:e])
        if letters < 2:
            # "T." / "M" are initials in a name ("Wesley T. Jenkins") unless a colon says
            # otherwise ("T: 555 0100")
            if re.match(r"[A-Za-z][ ]?[:#]", text[s:e + 2]):
                out.add(w)
            continue
        after = text[e:e + 12].lstrip()
        if marked or text[e - 1:e] == "." or text[e:e + 1] == "." or \
                re.match(r"[+(]?\d|\S+@", after):
            out.add(w)
    return out


def name_run(layout: PageView, words: list[int], stops: set[int]) -> list[int]:
    """The words of ``words`` (left to right on one line) that can belong to one name: up
    to a column gap or a word that begins a label."""
    run: list[int] = []
    for w in words:
        if run and (w in stops or layout.words[w].bbox[0] - layout.words[run[-1]].bbox[2]
                    > COLUMN_GAP * layout.line_of_word(w).height):
            break
        run.append(w)
    return run


def _salutation_like(key: str, salutations: set[str], line_words: list[str]) -> bool:
    """A letter's salutation line whose greeting OCR misread ("Dinar Vanessa,"): a short
    line that ends in a comma or colon, led by a word close to a greeting of 4+ letters and
    as long as it give or take a letter (OCR misreads letters, it seldom adds two: "BANDAR
    MAHKOTA CHERAS," is a Malaysian address's township line, not "Dear ...")."""
    if len(key) < 4 or not 2 <= len(line_words) <= SALUTATION_MAX_WORDS or \
            not line_words[-1].endswith((",", ":")):
        return False
    return any(len(s) >= 4 and abs(len(s) - len(key)) <= 1 and
               difflib.SequenceMatcher(None, key, s).ratio() >= SALUTATION_LIKENESS for s in salutations)


_SHORT_TITLES = ("mr", "ms", "dr", "mrs")


def _misread_title(layout: PageView, i: int, key: str, honorifics: set[str]) -> bool:
    """"Me. Dufry" in "Mr. Gastman  Me. Dufry  Dr. Gehultz": a short title OCR read one
    letter wrong (r as e, a stroke lost), its stop kept, in a list whose other names carry
    their titles read right (a distribution list, a routing slip). Alone it is no title."""
    t = layout.words[i].text
    if not (t.endswith(".") and 2 <= len(key) <= 3 and key[0] in "md" and key not in honorifics) or \
            not any(len(key) == len(h) and sum(a != b for a, b in zip(key, h)) == 1 for h in _SHORT_TITLES):
        return False
    line = layout.line_of_word(i)
    return any(w != i and layout.words[w].text.rstrip(".,:").lower() in _SHORT_TITLES
               for w in line.words)


# Words that name a dead person in probate and estate letters, wills and notices ("Re:
# Estate of the late Arthur Whitcombe", "the late Mrs. Jane Doe", "Estate of John Smith,
# deceased"): the name follows them.
_OF_THE_DEAD = (("the", "late"), ("estate", "of"))


def _names_of_the_dead(layout: PageView, vocab: Vocab, stops) -> list[Hit]:
    out = []
    for i in range(1, len(layout.words)):
        pair = (layout.words[i - 1].text.lower(), layout.words[i].text.lower())
        if pair not in _OF_THE_DEAD:
            continue
        rest = name_run(layout, _rest_of_line(layout, i), stops)
        if not rest or not layout.words[rest[0]].text[:1].isupper():
            continue
        r = V.name_value(_tokens(layout, rest), vocab, loose=False)
        if r is None or r[2] or len(layout.words_in(r[0], r[1])) < 2:
            continue
        # a person's name opens with a given name the census knows, or an initial
        # ("Estate of Mind Records" is a label's)
        first = layout.page.text[r[0]:r[1]].split()[0].rstrip(",")
        if first.upper() in given_names() or re.fullmatch(r"[A-Z]\.", first):
            out.append(Hit("name_of_the_dead", r[0], r[1], 0.75))
    return out


def find_name_hits(layout: PageView, vocab: Vocab, lex: LabelLexicon | None = None) -> list[Hit]:
    out: list[Hit] = []
    honorifics = {h.lower() for h in vocab.honorifics}
    salutations = {s.lower() for s in vocab.salutations}
    greetings = salutations | {s.lower() for s in vocab.other_salutations}
    closings = {re.sub(r"[^a-zäöüß ]", "", c.lower()).strip() for c in vocab.closings}
    stops = label_stops(layout, lex)
    for i, w in enumerate(layout.words):
        # a signature block sets the signer's name in brackets: "(Smt. Lakshmi Venkataraman)"
        t = w.text[1:] if w.text.startswith("(") and len(w.text) > 1 else w.text
        key = t.rstrip(".,:").lower()
        rest = name_run(layout, _rest_of_line(layout, i), stops)
        if t.lower() in ("/s/", "s/") and rest:
            # an electronic signature: "/s/ Wesley Jenkins"
            r = V.name_value(_tokens(layout, rest), vocab, loose=False)
            if r and not r[2]:
                out.append(Hit("name_signature", r[0], r[1], 0.8))
            continue
        # "De heer P. de Vries": a Dutch form of address is written in lower case after "De"
        dutch_title = i > 0 and layout.words[i - 1].text.lower() == "de" and key in honorifics
        if not t[:1].isupper() and not dutch_title:
            continue
        line = layout.line_of_word(i)
        if (key in honorifics or _misread_title(layout, i, key, honorifics)) and rest and not t.endswith(","):
            # "Dr" is also "Drive": a title needs a capitalised word right after it, in its
            # cell: "Title: Chief Executive Officer    Title: Managing Director" is a form row
            # of two cells, the second's caption no name of the "Officer"
            nxt = layout.words[rest[0]].text
            near = rest[0] not in stops and \
                layout.words[rest[0]].bbox[0] - w.bbox[2] <= COLUMN_GAP * line.height
            if near and nxt[:1].isupper() and not any(c.isdigit() for c in nxt):
                r = V.name_value(_tokens(layout, rest), vocab, loose=False)
                if r and not r[2]:
                    out.append(Hit("name_honorific", r[0], r[1], 0.75))
        elif rest and line.words[0] == i and (
                key in greetings or key not in vocab.not_names and
                _salutation_like(key, salutations, [layout.words[x].text for x in line.words])):
            # "Dear Ms. Murphy," -- the comma ends the name
            r = V.name_value(_tokens(layout, rest), vocab, loose=False, comma_ends=True)
            if r and not r[2]:
                out.append(Hit("name_salutation", r[0], r[1], 0.8))
    out.extend(_names_of_the_dead(layout, vocab, stops))
    out.extend(_names_before_contact(layout, vocab, lex))
    out.extend(_census_name_lines(layout))
    out.extend(find_people_hits(layout, vocab))
    # closings: the first name-like line under them
    for line in layout.lines:
        text = " ".join(layout.words[w].text for w in line.words)
        key = re.sub(r"[^a-zäöüß ]", "", text.lower()).strip()
        if key not in closings:
            continue
        h = line.height
        cands = layout.lines_below(line.x0 - 2 * h, line.x1 + 10 * h, line.y1, h, SIGNATURE_GAP * h)
        for below in cands[:SIGNATURE_LINES]:
            if _scrawl(layout, below, h):
                continue
            toks = _tokens(layout, name_run(layout, list(below.words), stops))
            r = V.name_value(toks, vocab, loose=False)
            if r is None:
                continue
            s, e, org = r
            # the whole line should be the name (a title line "Claims Manager", "Its
            # Counsel" is not)
            words_in = len(layout.words_in(s, e))
            keys = {t[2].lower().strip(".,;:") for t in toks}
            if org or words_in < 2 or words_in < len(toks) - 1 or keys & vocab.title_words:
                continue
            out.append(Hit("name_signature", s, e, 0.75))
            break
    return out


def _census_name_lines(layout: PageView) -> list[Hit]:
    """A line that is nothing but a given name and a surname of the census lists
    (redactor/census_names.py: "Gregory Burgess" as a memo's or a card's heading): a
    person's name, whatever NER makes of two words without a sentence."""
    out = []
    for line in layout.lines:
        words = [layout.words[w].text for w in line.words]
        # "Jose Price; Owens, Mary": a separator inside the line makes it a list of names
        if 2 <= len(line.words) <= NAME_MAX_WORDS and \
                not any(w.endswith((",", ";", "/")) for w in words[:-1]) and \
                (reads_as_name(words) or reads_as_rare_name(words)) and \
                not known_place(" ".join(words)):    # "Hong Kong" closing an address block
            # the first word is capitalised (reads_as_name): only the end can have a stop
            s, e = trim(layout.page.text, layout.offsets[line.words[0]][0],
                        layout.offsets[line.words[-1]][1], ".,;:")
            out.append(Hit("name_line", s, e, NAME_LINE_SCORE))
    return out


def _scrawl(layout: PageView, line: Line, h: float) -> bool:
    """A handwritten signature that OCR read as words ("Maw [Beme"): far taller than the
    typed closing above it, or read with little confidence. The typed name is under it."""
    confs = [layout.words[w].conf for w in line.words if layout.words[w].conf >= 0]
    return line.height > SCRAWL_HEIGHT * h or bool(confs) and sum(confs) / len(confs) < SCRAWL_CONF


_CONTACT_AFTER = re.compile(r"^(?:[+(]?\d|\S+@\S+|ext\.?$|x\d)", re.I)
_NAMEISH = re.compile(r"^[A-Z][A-Za-z'’\-]+,?$|^[A-Z]\.$")


def _names_before_contact(layout: PageView, vocab: Vocab, lex: LabelLexicon | None = None) -> list[Hit]:
    """"... questions to Carlos Brooks at 655.238.6612", "reach Jo Ames at jo@x.org": two or
    three capitalised words right before "at" and a phone number or e-mail are a person."""
    out = []
    for i, w in enumerate(layout.words):
        if w.text.lower() not in ("at", "on", "via") or i == 0:
            continue
        nxt = layout.next_in_line(i)
        if nxt is None or not _CONTACT_AFTER.match(layout.words[nxt].text):
            continue
        line = layout.line_of_word(i)
        pos = line.words.index(i)
        names: list[int] = []
        for j in reversed(line.words[:pos]):
            t = layout.words[j].text
            key = t.lower().strip(",.")
            if not _NAMEISH.match(t) or key in vocab.not_names or key in vocab.title_words:
                break
            names.insert(0, j)
            if len(names) == 3:
                break
        # "Contact Sarah Bailey at ...": a label word leading the run is not part of the name
        # (a surname that is a label word, "Jane Case at ...", stays)
        while len(names) > 2 and lex is not None and \
                normalise_label(layout.words[names[0]].text) in lex.groups_of:
            names.pop(0)
        if len(names) >= 2:
            s, e = layout.offsets[names[0]][0], layout.offsets[names[-1]][1]
            out.append(Hit("name_contact", s, e, 0.65))
    return out
