"""Person names without NER: capitalised words after a title ("Dr. Maria Lopez"), in a
salutation ("Dear Maria Lopez,"), and the name line under a letter's closing
("Sincerely," ... "Maria Lopez")."""
from __future__ import annotations

import re

from plugins.rules import values as V
from plugins.rules.hits import Hit
from plugins.rules.layout import Layout
from plugins.rules.lexicon import Vocab

SIGNATURE_LINES = 5          # lines under a closing searched for the name
SIGNATURE_GAP = 8.0          # text heights: room for a handwritten signature


def _tokens(layout: Layout, words) -> list[V.Token]:
    return [(layout.offsets[w][0], layout.offsets[w][1], layout.words[w].text) for w in words]


def _rest_of_line(layout: Layout, w: int) -> list[int]:
    line = layout.line_of_word(w)
    return list(line.words[line.words.index(w) + 1:])


def find_name_hits(layout: Layout, vocab: Vocab) -> list[Hit]:
    out: list[Hit] = []
    honorifics = {h.lower() for h in vocab.honorifics}
    salutations = {s.lower() for s in vocab.salutations}
    closings = {re.sub(r"[^a-zäöüß ]", "", c.lower()).strip() for c in vocab.closings}
    for i, w in enumerate(layout.words):
        t = w.text
        key = t.rstrip(".,:").lower()
        if t.lower() in ("/s/", "s/") and _rest_of_line(layout, i):
            # an electronic signature: "/s/ Wesley Jenkins"
            r = V.name_value(_tokens(layout, _rest_of_line(layout, i)), vocab, loose=False)
            if r and not r[2]:
                out.append(Hit("name_signature", r[0], r[1], 0.8))
            continue
        if not t[:1].isupper():
            continue
        rest = _rest_of_line(layout, i)
        if key in honorifics and rest and not t.endswith(","):
            # "Dr" is also "Drive": a title needs a capitalised word right after it
            nxt = layout.words[rest[0]].text
            if nxt[:1].isupper() and not any(c.isdigit() for c in nxt):
                r = V.name_value(_tokens(layout, rest), vocab, loose=False)
                if r and not r[2]:
                    out.append(Hit("name_honorific", r[0], r[1], 0.75))
        elif key in salutations and rest and (layout.line_of_word(i).words[0] == i):
            r = V.name_value(_tokens(layout, rest), vocab, loose=False)
            if r and not r[2]:
                out.append(Hit("name_salutation", r[0], r[1], 0.8))
    out.extend(_names_before_contact(layout, vocab))
    # closings: the first name-like line under them
    for line in layout.lines:
        text = " ".join(layout.words[w].text for w in line.words)
        key = re.sub(r"[^a-zäöüß ]", "", text.lower()).strip()
        if key not in closings:
            continue
        h = line.height
        cands = layout.lines_below(line.x0 - 2 * h, line.x1 + 10 * h, line.y1, h, SIGNATURE_GAP * h)
        for below in cands[:SIGNATURE_LINES]:
            toks = _tokens(layout, below.words)
            r = V.name_value(toks, vocab, loose=False)
            if r is None:
                continue
            s, e, org = r
            # the whole line should be the name (a title line "Claims Manager" is not)
            words_in = len(layout.words_in(s, e))
            if org or words_in < 2 or words_in < len(below.words) - 1:
                continue
            out.append(Hit("name_signature", s, e, 0.75))
            break
    return out


_CONTACT_AFTER = re.compile(r"^(?:[+(]?\d|\S+@\S+|ext\.?$|x\d)", re.I)
_NAMEISH = re.compile(r"^[A-Z][A-Za-z'’\-]+,?$|^[A-Z]\.$")


def _names_before_contact(layout: Layout, vocab: Vocab) -> list[Hit]:
    """"... questions to Carlos Brooks at 655.238.6612", "reach Jo Ames at jo@x.org": two or
    three capitalised words right before "at" and a phone number or e-mail are a person."""
    out = []
    for i, w in enumerate(layout.words):
        if w.text not in ("at", "on", "via") or i == 0:
            continue
        nxt = layout.next_in_line(i)
        if nxt is None or not _CONTACT_AFTER.match(layout.words[nxt].text):
            continue
        line = layout.line_of_word(i)
        pos = line.words.index(i)
        names: list[int] = []
        for j in reversed(line.words[:pos]):
            t = layout.words[j].text
            if not _NAMEISH.match(t) or t.lower().strip(",.") in vocab.not_names or \
                    t.lower().strip(",.") in vocab.title_words:
                break
            names.insert(0, j)
            if len(names) == 3:
                break
        if len(names) >= 2:
            s, e = layout.offsets[names[0]][0], layout.offsets[names[-1]][1]
            out.append(Hit("name_contact", s, e, 0.65))
    return out
