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
_OFFICE_TAIL = re.compile(r"(?:\bof|\band|&)\s$")
# the parts of a name as a form's caption spells its order out ("Name (Last, First, MI)":
# MI the middle initial, not Michigan)
_NAME_PARTS = frozenset({"first", "last", "middle", "name", "first name", "last name", "middle name"})


@lru_cache(maxsize=4)
def compile_place_regex(vocab: Vocab) -> re.Pattern:
    # a town as printed in running text ("Phillipston") or in the capitals of a typed
    # heading or a report's header ("LUBBOCK, TX"; one or two words)
    town = r"(?:(?:[A-Z][a-z'’.\-]+[ ]){0,2}[A-Z][a-z'’\-]+|(?:[A-Z]{3,}[ ])?[A-Z]{3,})"
    # ... whose state is spelt out in the same capitals ("LOUISVILLE, KENTUCKY")
    states = set(vocab.us_state_names) | {n.upper() for n in vocab.us_state_names}
    return re.compile(
        rf"(?<![\w,])(?P<place>{town}),[ ]"
        rf"(?:(?:{_alt(vocab.us_states)})(?![\w.])|(?:{_alt(states)})(?![\w]))"
        # a state's name followed by a state code is the city of an address line
        # ("..., Washington, DC 20503")
        r"(?![ ,]*\d{3})(?!,[ ]?[A-Z]{2}\b)")


@lru_cache(maxsize=4)
def compile_state_regex(vocab: Vocab) -> re.Pattern:
    names = [n for n in vocab.us_state_names if n.lower() not in vocab.name_like_states]
    # "West Virginia" is a state; "Virginia" alone may be a person
    return re.compile(rf"(?<![\w,])(?:{_alt(names)})(?![\w]|[ ,]+\d{{3}})")


# USPS codes that are also English words or military post codes: "(OR)", "(IN)", "(ID)"
# in parentheses are as often a word of the text as a state
_WORD_CODES = frozenset({"OR", "IN", "ME", "OK", "HI", "ID", "AS", "AA", "AE", "AP"})


@lru_cache(maxsize=4)
def compile_member_state_regex(vocab: Vocab) -> re.Pattern:
    """The home state of a legislator or a delegate in parentheses after the name, as
    contribution reports, rosters and news write it ("Sen. Barbara Boxer (CA)", "Rep. Jose
    Sestak (D-PA)"): the code is a place."""
    codes = [c for c in vocab.us_states if c not in _WORD_CODES]
    return re.compile(rf"(?<=[A-Za-z][a-z][ ])\((?:[DRI][ ]?-[ ]?)?(?P<code>{_alt(codes)})\)(?![\w])")


def find_place_hits(layout: PageView, vocab: Vocab) -> list[Hit]:
    """Town-and-state and state-name hits, each inside one segment of a line (a cell or a
    column)."""
    rx, states = compile_place_regex(vocab), compile_state_regex(vocab)
    member = compile_member_state_regex(vocab)
    text = layout.page.text
    segs, _ = line_segments(layout)
    out = []
    for seg in segs:
        start, end = layout.span_of_words(seg)
        for m in rx.finditer(text, start, end):
            # "Department of Justice, Washington", "Office of Management and Budget,
            # Washington": after "of" or "and" (at a line's end too) the word is the end of an
            # office's name, and the state the office's seat in its address
            if not _OFFICE_TAIL.search(text, max(0, m.start() - 5), m.start()) and \
                    m.group("place").lower() not in _NAME_PARTS:
                out.append(Hit("place_town_state", m.start(), m.end(), SCORE_PLACE))
        for m in states.finditer(text, start, end):
            out.append(Hit("place_state", m.start(), m.end(), SCORE_STATE))
        for m in member.finditer(text, start, end):
            out.append(Hit("place_state", m.start("code"), m.end("code"), SCORE_PLACE))
    return out
