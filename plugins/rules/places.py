"""Places named in running text or a cell: a town with its US state ("Phillipston, NM",
"Morganstad, Rhode Island"). Not followed by a ZIP (that is an address's city line, found
by plugins/rules/addresses.py). The state lists come from mappings/rules/addresses.yaml."""
from __future__ import annotations

import re
from functools import lru_cache

from plugins.rules.addresses import line_segments
from plugins.rules.hits import Hit
from plugins.rules.layout import Layout
from plugins.rules.lexicon import Vocab

SCORE_PLACE = 0.6      # a shape (town, state) with a checked state, no label


def _alt(words) -> str:
    return "|".join(sorted((re.escape(w).replace(r"\ ", "[ ]") for w in set(words)), key=len, reverse=True))


@lru_cache(maxsize=4)
def compile_place_regex(vocab: Vocab) -> re.Pattern:
    town = r"(?:[A-Z][a-z'’.\-]+[ ]){0,2}[A-Z][a-z'’\-]+"
    return re.compile(
        rf"(?<![\w,])(?P<place>{town}),[ ](?:(?:{_alt(vocab.us_states)})(?![\w.])|(?:{_alt(vocab.us_state_names)})(?![\w]))"
        r"(?![ ,]*\d{3})")


def find_place_hits(layout: Layout, vocab: Vocab) -> list[Hit]:
    """Town-and-state hits, each inside one segment of a line (a cell or a column)."""
    rx = compile_place_regex(vocab)
    text = layout.page.text
    segs, _ = line_segments(layout)
    out = []
    for seg in segs:
        start, end = layout.span_of_words(seg)
        for m in rx.finditer(text, start, end):
            out.append(Hit("place_town_state", m.start(), m.end(), SCORE_PLACE))
    return out
