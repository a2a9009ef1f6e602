"""A government's department named after its state: "Bermuda Department of Tourism",
"Ontario Ministry of Health", "New York State Department of Labor", "India Office of
Tourism". Real-document convention: countries, states and provinces name their ministries,
departments and offices "<place> <Department|Ministry|...> of <field>", and a filing, a
letter or an invoice that names one names an organisation (the body that receives, pays or
writes), not a place. Without the place, "Department of Chemistry" is as often a company's
or a university's own unit, which the rule leaves alone (``prefix_heads`` has no
"Department").

The United States' own federal bodies are left out (``publisher_states`` in
mappings/rules/organizations.yaml): a US federal form prints them as its publisher and in
its instructions ("U.S. Department of Justice, Washington, DC 20530") on every copy filed,
the form's own print rather than data about anyone (the real set's GUIDE leaves it out)."""
from __future__ import annotations

import re

from redactor.plugin_api import PageView
from redactor_plugins.rules.gazetteer import Gazetteer, bare_word, place_at, fold
from redactor_plugins.rules.hits import Hit

SCORE_STATE_BODY = 0.8     # a name's form, like the legal-form rule
MAX_FIELD_WORDS = 4
# a body "of" its field; the words as typed or in a heading's capitals
_HEADS = frozenset({"department", "dept", "ministry", "office", "bureau", "board", "agency",
                    "authority", "commission", "directorate"})
# "New York State Department of Labor", "Quebec Provincial Ministry of ..."
_LEVELS = frozenset({"state", "city", "county", "province", "provincial", "federal", "national",
                     "government"})
_JOINERS = frozenset({"and", "&", "of", "the"})
_BREAK_AFTER = ",;:)]|/"


def _capitalised(word: str) -> bool:
    w = bare_word(word)
    return w[:1].isupper() and any(c.isalpha() for c in w)


def _field_end(raw: list[str], j: int) -> int:
    """Index after the last word of the field's name that starts at raw[j]: capitalised
    words, joined by "and", "&", "of", "the"; it ends at a comma or at a lower-case word."""
    end, k, words = 0, j, 0
    while k < len(raw) and words < MAX_FIELD_WORDS:
        w = bare_word(raw[k]).rstrip(".")
        if _capitalised(raw[k]) and w.lower() not in _JOINERS:
            end, words = k + 1, words + 1
            if raw[k][-1:] in _BREAK_AFTER or raw[k].endswith("."):
                break
        elif w.lower() not in _JOINERS or (end == 0 and w.lower() != "the"):
            break
        k += 1
    return end


def state_body_hits(layout: PageView, gaz: Gazetteer, state_names: frozenset[str],
                    publisher_states: frozenset[str], segs: list[list[int]]) -> list[Hit]:
    """"<place> [State] <head> of <Field>" inside one segment of a line (``segs``: the
    page's ``line_segments``); the place a country, a large city or a capital (the
    gazetteer) or a US state's name."""
    text = layout.page.text
    out = []
    for seg in segs:
        raw = [layout.words[w].text for w in seg]
        for i in range(len(raw)):
            if i and _capitalised(raw[i - 1]) and raw[i - 1][-1:] not in _BREAK_AFTER:
                continue     # a word inside a longer name ("Bank of Bermuda Department ...")
            n = place_at(gaz, raw, i, True) or _state_name_at(raw, i, state_names)
            if not n or fold(" ".join(bare_word(w) for w in raw[i:i + n])).lower() in publisher_states:
                continue
            j = i + n
            if j < len(raw) and bare_word(raw[j]).lower() in _LEVELS:
                j += 1
            if j + 2 >= len(raw) or bare_word(raw[j]).rstrip(".").lower() not in _HEADS or \
                    raw[j - 1][-1:] in _BREAK_AFTER or raw[j + 1].lower() != "of":
                continue
            end = _field_end(raw, j + 2)
            if not end:
                continue
            start, stop = layout.offsets[seg[i]][0], layout.offsets[seg[end - 1]][1]
            while start < stop and not text[start].isalnum():
                start += 1
            while stop > start and text[stop - 1] in _BREAK_AFTER + ".\"'”’":
                stop -= 1
            out.append(Hit("org_state_body", start, stop, SCORE_STATE_BODY))
    return out


def _state_name_at(raw: list[str], i: int, state_names: frozenset[str]) -> int:
    """Words from raw[i] that are a US state's name ("New York", "Ohio"), 0 if none."""
    for n in (2, 1):
        words = " ".join(bare_word(w) for w in raw[i:i + n])
        if len(raw) - i >= n and words.lower() in state_names and _capitalised(raw[i]):
            return n
    return 0


def publisher_forms(words) -> frozenset[str]:
    return frozenset(re.sub(r"\s+", " ", fold(str(w))).lower() for w in words)
