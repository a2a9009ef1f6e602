"""Values that running text wraps over a line's end ("... offices at 400 / Technology Square,
Cambridge, Massachusetts 02139", "Peregrine / Therapeutics Limited"): the shape rules
(patterns, organisation forms, a street and its town) run over the page's paragraphs read as
one line each (``redactor.paragraphs``). Only what crosses a paragraph's line break is new;
the rest the line-based rules found already.
"""
from __future__ import annotations

from redactor.plugin_api import PageView, flowed_text, paragraph_breaks
from redactor_plugins.rules.address_patterns import compile_address_regexes
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.organizations import OrganizationForms, find_organization_hits_in_text
from redactor_plugins.rules.patterns import find_pattern_hits

STREET_TO_TOWN = 3    # characters between a street and its town (", ")


def _addresses(text: str, vocab) -> list[Hit]:
    """A street line and the town after it ("400 / Technology Square, Cambridge,
    Massachusetts 02139", "1 Liberty Plaza, New / York, NY 10006"), as one address: a town
    line alone over a break may be a heading's last words before the town ("Registration
    Statement / Washington, DC 20530")."""
    rx = compile_address_regexes(vocab)
    towns = list(rx.city_line.finditer(text)) + list(rx.uk_postcode.finditer(text))
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
    text = flowed_text(layout, breaks)
    found = find_pattern_hits(text, patterns) + find_organization_hits_in_text(text, org_forms) + \
        _addresses(text, vocab)
    return [h for h in found if any(h.start < b < h.end - 1 for b in breaks)]
