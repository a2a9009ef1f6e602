"""A notary's commission number: the "No." of a notary's block is the notary's own licence
number, an identifier of a person (ID_NUMBER), not a document's reference.

The convention of US jurats and acknowledgments: the notary signs over a stamp or typed
block "Notary Public, State of New York / No. 43-4521780 / Qualified in Richmond County /
Commission Expires March 30, 1984"; the number is the one the state issued to that notary.
Pure functions on the page text and the rules' hits."""
from __future__ import annotations

import re

from redactor_plugins.rules.hits import Hit

# Words that open or close a notary's block; a number caption within NOTARY_REACH characters
# of one of them is the notary's.
_BLOCK = re.compile(r"(?i)notary|commission[ ]expires|qualified[ ]in[ ][A-Z]")
NOTARY_REACH = 160
# "No." / "No:" / "Reg. No." / "Commission No." and the number after it (OCR may glue them)
_NUMBER = re.compile(r"(?<![A-Za-z])(?:(?:Reg(?:istration)?|Commission)\.?[ ])?N[oO][.:]?[ ]?#?[ ]?"
                     r"(?P<value>[0-9A-Z]{2}[0-9A-Z\-]{3,14})(?![\w\-])")
LABEL_SCORE = 0.9


def notary_numbers(text: str, hits: list[Hit], id_rule: str = "label_id") -> list[Hit]:
    """``hits`` with the numbers of a notary's block as ``id_rule`` hits: a number hit of
    another rule over the same characters is replaced, a number no rule found is added."""
    blocks = [m.start() for m in _BLOCK.finditer(text)]
    if not blocks:
        return hits
    found = []
    for m in _NUMBER.finditer(text):
        s, e = m.span("value")
        if sum(c.isdigit() for c in m.group("value")) < 4:
            continue
        if not any(abs(b - s) <= NOTARY_REACH for b in blocks):
            continue
        # the block's own caption opens a line or follows a stop ("expires 9/5/69. No:"),
        # not another record's name ("Invoice No.")
        before = text[:m.start()].rstrip(" ")
        if before and before[-1] not in "\n.,;:)}_|":
            continue
        found.append(Hit(id_rule, s, e, LABEL_SCORE))
    if not found:
        return hits
    kept = [h for h in hits if not any(f.start < h.end and h.start < f.end for f in found)
            or not re.search(r"\d", text[h.start:h.end])]
    return kept + found
