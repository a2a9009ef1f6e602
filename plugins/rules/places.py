"""Places named in running text or a cell: a town with its US state ("Phillipston, NM",
"Morganstad, Rhode Island"), or a state's name alone ("our Indiana warehouse"; not the
names that are as often a person's). Not followed by a ZIP (that is an address's city line,
found by plugins/rules/addresses.py). The state lists come from
mappings/rules/addresses.yaml."""
from __future__ import annotations

import re
from functools import lru_cache

from redactor_plugins.rules.addresses import line_segments
from redactor_plugins.rules.hits import Hit
from redactor.plugin_api import PageView
from redactor_plugins.rules.lexicon import Vocab
from redactor_plugins.rules.organizations import _alt

SCORE_PLACE = 0.6      # a shape (town, state) with a checked state, no label
SCORE_STATE = 0.5      # a state's name alone ("shipped from our Indiana warehouse")


@lru_cache(maxsize=4)
def compile_place_regex(vocab: Vocab) -> re.Pattern:
    town = r"(?:[A-Z][a-z'’.\-]+[ ]){0,2}[A-Z][a-z'’\-]+"
    return re.compile(
        rf"(?<![\w,])(?P<place>{town}),[ ]"
        rf"(?:(?:{_alt(vocab.us_states)})(?![\w.])|(?:{_alt(vocab.us_state_names)})(?![\w]))"
        r"(?![ ,]*\d{3})")


@lru_cache(maxsize=4)
def compile_state_regex(vocab: Vocab) -> re.Pattern:
    names = [n for n in vocab.us_state_names if n.lower() not in vocab.name_like_states]
    # "West Virginia" is a state; "Virginia" alone may be a person
    return re.compile(rf"(?<![\w,])(?:{_alt(names)})(?![\w]|[ ,]+\d{{3}})")


def find_place_hits(layout: PageView, vocab: Vocab) -> list[Hit]:
    """Town-and-state and state-name hits, each inside one segment of a line (a cell or a
    column)."""
    rx, states = compile_place_regex(vocab), compile_state_regex(vocab)
    text = layout.page.text
    segs, _ = line_segments(layout)
    out = []
    for seg in segs:
        start, end = layout.span_of_words(seg)
        for m in rx.finditer(text, start, end):
            out.append(Hit("place_town_state", m.start(), m.end(), SCORE_PLACE))
        for m in states.finditer(text, start, end):
            out.append(Hit("place_state", m.start(), m.end(), SCORE_STATE))
    return out
