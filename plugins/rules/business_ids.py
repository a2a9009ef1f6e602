"""Registration numbers of organisations (BUSINESS_ID) that the label rules do not place:

- the number filled in under the last caption of a form's caption row ("1. Name of
  Registrant      2. Registration No." over "Arab Information Center        876"): the last
  caption of a row heads the cell that runs from it to the page's right edge, and a typist
  puts the number anywhere in that cell, often right of where the caption ends;
- a company's registration number in brackets right after its name, as Malaysian and
  Singaporean companies print it ("Maju Jaya Sdn Bhd (654321-K)", "(201901012345
  (1234567-K))", a sole proprietor's business registration "(JM0123456-X)").
"""
from __future__ import annotations

import re

from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.label_phrases import item_number_before
from redactor_plugins.rules.lexicon import LabelLexicon, normalise_label
from redactor.plugin_api import PageView

SCORE_CELL = 0.9        # a caption names the value: label evidence
SCORE_BRACKETED = 0.85  # a shape beside a company's name
BUSINESS_RULE = "label_business_id"
BELOW_LINES = 4.0       # how far under the caption its filled-in row may lie (text heights)
LEFT_SLACK = 1.0        # the cell starts this many text heights left of the caption
_NUMBER = re.compile(r"[A-Z]{0,3}[-/]?\d[\d\-/]{1,13}[A-Z]?")
# after the name on its line, or centred on the line under it as a receipt's or a
# letterhead's header prints it
# (the check letter after a hyphen, or after a space alone: "(139386 X)")
_BRACKETED = re.compile(r"[ ]?(?:\n\n?)?[ ]?\((?P<id>(?:\d{12}[ ]?\()?[A-Z]{0,3}\d{5,10}(?:[ ]?-[ ]?|[ ])[A-Z]\)?)\)")


def _business_captions(layout: PageView, lex: LabelLexicon) -> list[list[int]]:
    """Words of each business-id caption with a number word ("Registration No.",
    "Company No.") that is the last text on its line."""
    text = layout.page.text
    out = []
    for m in lex.regex.finditer(text):
        groups = lex.groups_of.get(normalise_label(m.group("phrase")), ())
        if not m.group("num") or not any(g.rule == BUSINESS_RULE for g, _ in groups):
            continue
        words = layout.words_in(m.start(), m.end())
        if words and len({layout.word_line[w] for w in words}) == 1 and not _text_right_of(layout, words[-1]):
            out.append(words)
    return out


def _text_right_of(layout: PageView, word: int) -> bool:
    """Whether any word stands right of ``word`` on its row (OCR may read a row's far
    cells as lines of their own)."""
    x1 = layout.words[word].bbox[2]
    return any(layout.words[b].bbox[0] > x1 for b in layout.row_of(word))


def caption_cell_hits(layout: PageView, lex: LabelLexicon) -> list[Hit]:
    """The number in the cell under the last caption of a caption row: on the first line
    below (within BELOW_LINES text heights) that has words from the caption's left edge
    rightwards, the words there, when they are one number."""
    out = []
    for words in _business_captions(layout, lex):
        line = layout.line_of_word(words[0])
        h = line.height
        item = item_number_before(layout, words[0])
        if item is not None:
            words = [item] + words    # "2. Registration No.": the item's number opens the cell
        x0 = layout.words[words[0]].bbox[0] - LEFT_SLACK * h
        below = layout.lines_below(x0, float("inf"), line.y1, h, BELOW_LINES * h)
        if not below:
            continue
        cell = [w for w in below[0].words if layout.words[w].bbox[0] >= x0]
        if len(cell) != 1 or not _NUMBER.fullmatch(layout.words[cell[0]].text.strip(".,;:")):
            continue
        s, e = layout.span_of_words(cell)
        value = layout.page.text[s:e]
        e = s + len(value.rstrip(".,;:"))
        out.append(Hit(BUSINESS_RULE, s, e, SCORE_CELL))
    return out


def bracketed_registration_hits(text: str, orgs: list[Hit]) -> list[Hit]:
    """"Maju Jaya Sdn Bhd (654321-K)": the number in brackets right after a company's
    name (an ORGANIZATION hit), on its line or the next, is its registration number."""
    out = []
    for h in orgs:
        m = _BRACKETED.match(text, h.end)
        if m is not None:
            out.append(Hit(BUSINESS_RULE, m.start("id"), m.end("id"), SCORE_BRACKETED))
    return out
