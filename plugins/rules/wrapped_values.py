"""Values that running text wraps over a line's end.

A contract, a letter or a memo sets its paragraphs justified or ragged-right, and a value
falls where the line ends: "... having its principal offices at 400 / Technology Square,
Cambridge, Massachusetts 02139", "... and Peregrine / Therapeutics Limited, a company",
"dated March / 3, 2011". The line-based rules see two halves, each too little to be a value.
Here a paragraph's lines are read as one: the line break between two lines of prose is read
as the space it stands for, and the shape rules (patterns, organisation forms, a street and
its town) run over that text. Only what crosses such a break is new; the rest the line-based
rules found already.

Two lines are one paragraph's when the second follows close under the first (at most one
text height of leading), starts at or left of the first's start (the paragraph's margin; the
first line may be indented), both are lines of prose (long, several words, most of them words
of letters: a table's rows of figures are no paragraph) and the first does not end a caption
(":"). Offsets are unchanged: the flowed text replaces each such "\\n" by " ".
"""
from __future__ import annotations

from redactor.plugin_api import PageView
from redactor_plugins.rules.addresses import compile_address_regexes
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.organizations import OrganizationForms, find_organization_hits_in_text
from redactor_plugins.rules.patterns import find_pattern_hits

PROSE_WIDTH = 20.0    # text heights: a line of running text is at least this long ...
PROSE_WORDS = 5       # ... and holds at least this many words
LEADING = 1.0         # text heights of space at most between a paragraph's lines
MARGIN = 1.0          # the next line starts at most this far right of the line's start
WORD_SHARE = 0.6     # ... most of them words of letters ...
CELL_GAP = 3.0       # ... no two this many text heights apart (a row's cells; a typed justified
                     # line spaces its words up to two heights apart)
STREET_TO_TOWN = 3    # characters between a street and its town (", ")


def _prose(layout: PageView, line) -> bool:
    """Whether a line is running text: mostly words of letters (a table's row is figures),
    set with word spaces only (a form's or a table's row has cells apart)."""
    words = [layout.words[w].text.strip(".,;:()\"'“”‘’") for w in line.words]
    boxes = [layout.words[w].bbox for w in line.words]
    gaps = [b[0] - a[2] for a, b in zip(boxes, boxes[1:])]
    return sum(len(w) >= 2 and w.isalpha() for w in words) >= WORD_SHARE * len(words) and \
        all(g <= CELL_GAP * line.height for g in gaps)


def paragraph_breaks(layout: PageView) -> list[int]:
    """Offsets of the line breaks inside the page's paragraphs of prose."""
    text = layout.page.text
    out = []
    lines = sorted(layout.lines, key=lambda ln: layout.offsets[ln.words[0]][0])
    for a, b in zip(lines, lines[1:]):
        h = a.height
        end, start = layout.offsets[a.words[-1]][1], layout.offsets[b.words[0]][0]
        if text[end:start] != "\n" or len(a.words) < PROSE_WORDS or a.x1 - a.x0 < PROSE_WIDTH * h or \
                not (_prose(layout, a) and _prose(layout, b)):
            continue
        if not 0 <= b.y0 - a.y1 <= LEADING * h or b.x0 > a.x0 + MARGIN * h or \
                not 0.7 <= b.height / max(h, 1e-6) <= 1.4:
            continue
        if layout.words[a.words[-1]].text.endswith(":"):
            continue
        out.append(end)
    return out


def _addresses(text: str, vocab) -> list[Hit]:
    """A street line and the town after it ("400 / Technology Square, Cambridge,
    Massachusetts 02139", "1 Liberty Plaza, New / York, NY 10006"), as one address: a town
    line alone over a break may be a heading's last words before the town ("Registration
    Statement / Washington, DC 20530")."""
    rx = compile_address_regexes(vocab)
    towns = [m for m in rx.city_line.finditer(text)] + [m for m in rx.uk_postcode.finditer(text)]
    out = []
    for s in rx.street.finditer(text):
        for t in towns:
            if 0 <= t.start() - s.end() <= STREET_TO_TOWN and not text[s.end():t.start()].strip(" ,"):
                out.append(Hit("address_street", s.start(), t.end(), 0.85))
    return out


def wrapped_hits(layout: PageView, patterns, org_forms: OrganizationForms, vocab) -> list[Hit]:
    """The values that cross a paragraph's line break."""
    breaks = paragraph_breaks(layout)
    if not breaks:
        return []
    chars = list(layout.page.text)
    for b in breaks:
        chars[b] = " "
    text = "".join(chars)
    found = find_pattern_hits(text, patterns) + find_organization_hits_in_text(text, org_forms) + \
        _addresses(text, vocab)
    return [h for h in found if any(h.start < b < h.end - 1 for b in breaks)]
