"""Repeats of a labelled identifier: an identifier printed twice on a page is one identifier,
whether its copy stands bare ("A652287" in a header corner) or OCR damaged it ("INV-6 054").
Both take the type the label gave the first."""
from __future__ import annotations

import difflib
import re

from redactor.plugin_api import PageView

from redactor_plugins.rules.hits import Hit

# label rules whose value is a number of some record
NUMBER_LABEL_RULES = frozenset({"label_id", "label_account", "label_reference", "label_business_id",
                                "label_card"})


def label_repeats(text: str, hits: list[Hit]) -> list[Hit]:
    """An identifier repeated on a page is one identifier: where a label typed it ("Invoice
    No. A652287"), its bare repeats ("A652287" in a header corner) get the label's type."""
    out = []
    seen = set()
    for h in hits:
        value = text[h.start:h.end]
        if h.rule not in NUMBER_LABEL_RULES or (h.rule, value) in seen or len(value) < 5 or \
                not any(c.isdigit() for c in value) or "\n" in value:
            continue
        seen.add((h.rule, value))
        for m in re.finditer(r"(?<![\w\-/.])" + re.escape(value) + r"(?![\w\-/]|\.\d)", text):
            if m.start() != h.start:
                out.append(Hit(h.rule, m.start(), m.end(), h.score))
    return out


# A copy of a labelled identifier that OCR damaged: this alike (difflib ratio of the
# letters and digits), of nearly the same length, with a word OCR was unsure of in it.
REPEAT_LIKENESS = 0.75
REPEAT_UNSURE_CONF = 80.0
REPEAT_SCORE = 0.7


def _key(text: str) -> str:
    return "".join(c for c in text.upper() if c.isalnum())


def damaged_repeats(layout: PageView, hits: list[Hit]) -> list[Hit]:
    """An identifier printed twice (the invoice number in the header and in the remit
    line) may be read right once and damaged once ("INV-60054" and "INV-6 054", one of
    its words unsure). Runs of up to three words of one line that are nearly the labelled
    value, with a word OCR was unsure of, get its type: a confidently read different number
    ("INV-60055" in a list of invoices) is another identifier and is left alone."""
    text = layout.page.text
    known = {}
    for h in hits:
        value = text[h.start:h.end]
        k = _key(value)
        if h.rule in NUMBER_LABEL_RULES and "\n" not in value and len(k) >= 6 and \
                sum(c.isdigit() for c in k) >= 4:
            known.setdefault(k, h)
    if not known:
        return []
    out = []
    for line in layout.lines:
        ws = line.words
        taken_to = -1
        for i in range(len(ws)):
            if i <= taken_to:
                continue
            best = None
            for j in range(i, min(i + 3, len(ws))):
                run = ws[i:j + 1]
                if j > i and layout.words[run[-1]].bbox[0] - layout.words[run[-2]].bbox[2] > \
                        2.0 * line.height:
                    break
                k = _key(" ".join(layout.words[w].text for w in run))
                if sum(c.isdigit() for c in k) < 3 or \
                        all(layout.words[w].conf >= REPEAT_UNSURE_CONF for w in run):
                    continue
                for v, h in known.items():
                    if abs(len(k) - len(v)) > 2 or k == v:
                        continue
                    r = difflib.SequenceMatcher(None, k, v).ratio()
                    if r >= REPEAT_LIKENESS and (best is None or r > best[0]):
                        best = (r, j, h)
            if best is not None:
                r, j, h = best
                s, e = layout.offsets[ws[i]][0], layout.offsets[ws[j]][1]
                # a run reaching into any finding is that finding with a word beside it
                # (the value itself and its label), not a copy
                if not any(o.start < e and s < o.end for o in hits):
                    out.append(Hit(h.rule, s, e, REPEAT_SCORE))
                    taken_to = j
    return out
