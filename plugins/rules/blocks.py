"""Multi-line value blocks: the lines of an address (or a party block) that sit under one
another, left-aligned, with ordinary line spacing; and turning per-line word runs into
spans (one span over several lines when nothing else lies between them in the text)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

import yaml

from redactor.plugin_api import Line, PageView, mapping_file

Run = list[int]   # word indices of one line, left to right


def run_from(layout: PageView, line: Line, first: int, max_gap_factor: float = 2.0,
             stop: Callable[[int], bool] | None = None) -> Run:
    """Words of ``line`` from word ``first`` to the right while the gap to the next word
    stays under ``max_gap_factor`` text heights and ``stop(word)`` is false."""
    pos = line.words.index(first)
    run = [first]
    for w in line.words[pos + 1:]:
        gap = layout.words[w].bbox[0] - layout.words[run[-1]].bbox[2]
        if gap > max_gap_factor * line.height or (stop and stop(w)):
            break
        run.append(w)
    return run


PHRASE_GAP = 1.0   # text heights: words this close on a line are one phrase ...
PHRASE_CONF = 60.0  # ... when the word before is read as one (a fill-in line's dashes read as
                    # "nnn" are no word)


def lines_under(layout: PageView, top_run: Run, anchor_x0: float, max_lines: int,
                stop: Callable[[Run], bool], max_gap_factor: float = 1.2,
                word_stop: Callable[[int], bool] | None = None) -> list[Run]:
    """The runs of up to ``max_lines`` lines under ``top_run`` that start near ``anchor_x0``
    (left-aligned block), each within ``max_gap_factor`` text heights of the one above.
    ``stop(run)`` ends the block before that run."""
    out: list[Run] = []
    prev = top_run
    for _ in range(max_lines):
        line = layout.line_of_word(prev[0])
        h = line.height
        y1 = max(layout.words[w].bbox[3] for w in prev)
        x1 = max(layout.words[w].bbox[2] for w in prev)
        cands = layout.lines_below(anchor_x0 - h, x1, y1, h, max_gap_factor * h, 0.0)
        if not cands:
            break
        below = cands[0]
        starts = [w for w in below.words if abs(layout.words[w].bbox[0] - anchor_x0) <= 1.5 * h]
        if not starts:
            break
        pos = below.words.index(starts[0])
        before = layout.words[below.words[pos - 1]] if pos else None
        if before is not None and before.conf >= PHRASE_CONF and any(c.isalnum() for c in before.text) and \
                layout.words[starts[0]].bbox[0] - before.bbox[2] <= PHRASE_GAP * h:
            break   # a line written through the block's edge from further left: another field's
        run = run_from(layout, below, starts[0], stop=word_stop)
        if stop(run):
            break
        out.append(run)
        prev = run
    return out


def runs_to_ranges(layout: PageView, runs: list[Run]) -> list[tuple[int, int]]:
    """Character ranges of word runs; consecutive runs become one range when only
    whitespace separates them in the page text."""
    out: list[tuple[int, int]] = []
    for run in runs:
        s, e = layout.span_of_words(run)
        if out and out[-1][1] <= s and layout.contiguous(out[-1][1], s):
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


@lru_cache(maxsize=None)
def vocab_list(key: str) -> tuple[str, ...]:
    """The list ``key`` of mappings/rules/addresses.yaml (empty when it is not there)."""
    data = yaml.safe_load(mapping_file("rules/addresses.yaml").read_text(encoding="utf-8")) or {}
    return tuple(str(s) for s in data.get(key) or [])


def international_lists() -> tuple[tuple[str, ...], frozenset[str]]:
    """The Australian state codes and the country names of mappings/rules/addresses.yaml
    (the country names in capitals, without stops)."""
    countries = frozenset(c.upper().replace(".", "") for c in vocab_list("countries"))
    return vocab_list("au_states"), countries


# The honorific a Malaysian state's full name carries ("Selangor Darul Ehsan", "Kedah Darul
# Aman", "Johor Darul Ta'zim"), as letterheads and receipts print it
_DARUL = re.compile(r"[ ]+DARUL[ ]+[A-Z'’]+$")


@lru_cache(maxsize=1)
def _regions() -> frozenset[str]:
    return frozenset(r.upper().replace(".", "") for r in vocab_list("my_states") + vocab_list("in_states"))


def region_line(layout: PageView, words: list[int]) -> bool:
    """Whether ``words`` are a state's name alone, or with its country: the line a Malaysian
    or Indian block gives its state under the postcode and town ("40400 Shah Alam" /
    "Selangor Darul Ehsan", "Gurugram 122003" / "Haryana, India")."""
    text = " ".join(layout.words[w].text for w in words).strip(" ,.;:").upper().replace(".", "")
    state, _, country = text.partition(",")
    if country.strip() and country.strip() not in international_lists()[1]:
        return False
    return _DARUL.sub("", state.strip()) in _regions()


def country_line(layout: PageView, words: list[int]) -> bool:
    """Whether ``words`` are a country's name and nothing else: the last line of an
    international postal block ("75116 Paris" / "France"), part of the address's box."""
    text = " ".join(layout.words[w].text for w in words).strip(" ,.;:").upper().replace(".", "")
    return text in international_lists()[1]
