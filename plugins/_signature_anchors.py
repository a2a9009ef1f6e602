"""Where documents put signatures, for the signatures detector (``visual_signatures``): the
label words that announce one ("Signature", "Signed", "By:", "Approved By", letter
closings), the blank after a "By"/"Per" label, a signature line under the ink, the typed
name under a memo's signature, the margin outside the text area where pages are
initialled, and the date captions whose blank holds a date rather than a signature.

Lengths are in units of the body text height h. Pure functions of the OCR words and boxes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from redactor.plugin_api import form_words, union_box
from redactor_plugins.visual_common import CONFIDENT, alnum

# Words that announce a signature on forms, affidavits and letters. Matched on the OCR
# word's letters, lower-cased, so "SIGNATURE(S)", "Signature:" and "Signat" (a word cut by
# a signature running over it) all count.
LABEL_PREFIXES = ("signat", "signed", "signer")
LABEL_WORDS = {"sign", "initial", "initials", "notary", "witness", "sworn",
               # letter closings: the signature goes between the closing and the typed name
               "sincerely", "faithfully", "truly", "cordially", "regards", "respectfully"}
# "By" after a verb is a signature line in contracts and forms ("Approved By")
BY_VERBS = {"approved", "submitted", "prepared", "reviewed", "authorized", "authorised",
            "accepted", "certified", "checked", "verified", "agreed", "witnessed", "signed"}
# "By:" and "Per:" (per procurationem: signed on behalf of) before the blank of a form
BLANK_AFTER = re.compile(r"(?i)^(by|per)[:_]")
FORM_LABEL_GAP = 10.0     # "By ____" / "Per ____": nothing printed after it on its line for
                          # 10 h (the blank the signer fills in)
LABEL_RIGHT = 25.0        # a label's signature lies up to 25 h to its right,
LABEL_ABOVE = 5.0         # up to 5 h above it (a label printed under the line),
LABEL_BELOW = 9.0         # up to 9 h below it (a heading over a cell, a letter closing)
LABEL_LEFT = 6.0
INITIALS = 8.0            # initials are at most 8 text heights long
NAME_GAP = 2.0            # a signature sits within 2 h over the typed name under it
EDGE = 0.5                # ink this close to the page's edge is the scanner's
MARGIN_WORDS = 20         # a text area is known from 20 confidently read words
RULE_ABOVE = 4.0          # a signature sits on its line: its bottom within 4 h above the
RULE_BELOW = 1.0          # rule, or crossing it by up to 1 h
DATE_CAPTIONS = {"date", "dated", "expires", "expiry", "expiration"}
DATE_CAPTION_GAP = 12.0   # a date caption's blank line reaches up to 12 h right of it
BIRTH_DATE_WORDS = {"year", "date"}   # "... of Birth" captions that ask for a date
CAPTION_UNDER = 3.0       # a caption printed under the line stands within 3 h below the ink
PHRASE_GAP = 1.0          # the words of one caption stand a word's space apart


# words that may follow the request to initial ("Initial here", "Initial and date")
_AFTER_INITIAL = {"here", "and", "date", "below", "each", "every", "all", "page", "pages"}


def _names_a_thing(words, i: int, h: float) -> bool:
    """Word i ("Initial") is followed on its line, within a word gap, by a word it qualifies
    ("Initial Statement", the option of a FARA amendment's checkbox)."""
    w = words[i]
    if w.text.rstrip().endswith((":", "_")):
        return False
    for v in words:
        if v is w or v.line != w.line or not alnum(v.text).isalpha():
            continue
        if w.bbox[2] <= v.bbox[0] <= w.bbox[2] + 1.5 * h:
            return alnum(v.text) not in _AFTER_INITIAL
    return False


def _blank_after(words, i: int, h: float) -> bool:
    """No confidently read word follows word i on its line within FORM_LABEL_GAP: the
    blank of a form ("By ________", "Per ______") where the signature goes."""
    w = words[i]
    for v in words:
        if v is w or v.line != w.line or v.conf < CONFIDENT or not alnum(v.text):
            continue
        if w.bbox[2] <= v.bbox[0] <= w.bbox[2] + FORM_LABEL_GAP * h:
            return False
    return True


def is_label(words, i: int, h: float) -> bool:
    t = alnum(words[i].text)
    if not t:
        return False
    if t == "initial" and _names_a_thing(words, i, h):
        return False        # "Initial Statement", "initial cost": the adjective, not the request
    if t.startswith(LABEL_PREFIXES) or t in LABEL_WORDS:
        return True
    raw = words[i].text.strip()
    if BLANK_AFTER.match(raw):
        return True         # "By:", "Per:", or "By____" with the blank line read into the word
    if t == "by" and i > 0 and words[i - 1].line == words[i].line and alnum(words[i - 1].text) in BY_VERBS:
        return True
    # "By ____", "Per. ____" capitalised on a form, the blank after them
    return t in ("by", "per") and raw[:1].isupper() and _blank_after(words, i, h)


def opens_blank(word) -> bool:
    """A "By"/"Per" label: the signature is written in the blank to its right."""
    return alnum(word.text) in ("by", "per") or bool(BLANK_AFTER.match(word.text.strip()))


def letters_box(word):
    """The part of a label word's box its letters take (the label and its stop, not the
    blank OCR read on into it: "By_@~v_" is "By" and five glyphs of the line and the hand)."""
    text = word.text.strip()
    m = re.match(r"\W*\w+[.:]?", text)
    share = len(m.group(0)) / len(text) if m and text else 1.0
    x0, y0, x1, y1 = word.bbox
    return (x0, y0, x0 + share * (x1 - x0), y1)


def print_extent(words):
    """The box of the page's confidently read print (its text area), or None."""
    boxes = [w.bbox for w in words if w.conf >= CONFIDENT and len(alnum(w.text)) >= 2]
    return union_box(boxes) if len(boxes) >= MARGIN_WORDS else None


def typed_names(words) -> list:
    """Boxes of the short title-case lines of print (2 to 4 words, "Kenneth W. Smith"): the
    typed name a letter or a memo puts under its signature."""
    return [union_box([w.bbox for w in ws]) for ws in _typed_name_lines(words)]


def _typed_name_lines(words) -> list[list]:
    """The words of each short title-case line of print (``typed_names``)."""
    lines: dict[int, list] = {}
    for w in words:
        lines.setdefault(w.line, []).append(w)
    out = []
    for ws in lines.values():
        ws = [w for w in ws if alnum(w.text)]
        if not 2 <= len(ws) <= 4 or any(not w.text[:1].isupper() for w in ws) \
                or sum(w.conf >= CONFIDENT for w in ws) < 2:
            continue        # (a middle initial may be misread: "Kenneth WU. Smith")
        if any(alnum(w.text) in _organisation_words() for w in ws):
            continue        # a letterhead's company name under its logo ("LORILLARD TOBACCO COMPANY")
        out.append(ws)
    return out


# a word of two letters or more cut short by a stop is an abbreviation ("LTS.", "Secy."):
# a name abbreviates its initials only, and its suffix ("Jr.")
_ABBREVIATION = re.compile(r"[A-Za-z]{2,}\.,?")
_NAME_SUFFIXES = frozenset({"jr", "sr", "esq"})


def signer_names(signatures, words, h: float) -> list:
    """(box, text) of the typed name under each signature: a signature block is the hand's
    signature, the signer's name typed under it, then their title ("Hiromichi Eguchi" /
    "Executive Director"). The name's line starts in the signature's lower half or within
    NAME_GAP h under it, and lies mostly under it; a line holding a form's or a title's word
    ("Executive Director", "Notary Public"), an abbreviation ("NEWPORT LTS. KS.", a brand)
    or no word of three letters is none."""
    vocabulary = form_words()
    out = []
    for ws in _typed_name_lines(words):
        box = union_box([w.bbox for w in ws])
        if any(set(re.findall(r"[a-z]+", w.text.lower())) & vocabulary for w in ws) or \
                not any(len(alnum(w.text)) >= 3 and alnum(w.text).isalpha() for w in ws) or \
                any(_ABBREVIATION.fullmatch(w.text) and w.text.rstrip(".").lower() not in _NAME_SUFFIXES for w in ws):
            continue
        for x0, y0, x1, y1 in signatures:
            under = min(box[2], x1) - max(box[0], x0) >= 0.5 * (box[2] - box[0])
            if under and (y0 + y1) / 2 <= box[1] <= y1 + NAME_GAP * h:
                out.append((box, " ".join(w.text for w in ws)))
                break
    return out


@lru_cache(maxsize=1)
def _organisation_words() -> frozenset:
    """Organisation words and legal forms (mappings/rules/organizations.yaml), lower case."""
    from redactor_plugins.rules.organizations import load_organization_forms

    return frozenset(w.replace(".", "") for w in load_organization_forms().org_words)


def over_typed_name(box, names, h: float) -> bool:
    """A signature just above the signer's typed name: its bottom from NAME_GAP h over the
    name down to the name's foot (a pen's tail dips into it), the two overlapping across."""
    for x0, y0, x1, y1 in names:
        if min(box[2], x1) - max(box[0], x0) > 0 and y0 - NAME_GAP * h <= box[3] <= y1 and box[1] < y0 - h:
            return True
    return False


def at_edge(box, shape, h: float) -> bool:
    """Ink at the page's edge (within EDGE h) is the scanner's: the shadow of the sheet, a
    punch hole, a smudge from the feeder; a signer writes inside the page."""
    H, W = shape
    edge = EDGE * h
    return box[0] < edge or box[1] < edge or box[2] > W - edge or box[3] > H - edge


def initials_in_margin(box, extent, h: float, shape) -> bool:
    """Initials in a page's margin, outside its text area: contracts and filed copies are
    initialled page by page at the foot, the head or the side of the page."""
    if extent is None or box[2] - box[0] > INITIALS * h:
        return False
    return box[0] >= extent[2] or box[2] <= extent[0] or box[3] <= extent[1] or box[1] >= extent[3]


def after_date_caption(box, words, h: float) -> bool:
    """Handwriting filled in after a form's date caption on its row ("Date ______ 6/21/90",
    "My commission expires ______"): the date of a signing block, not its signature. The
    caption is the confidently read word nearest to the left of the box on its row, within
    DATE_CAPTION_GAP."""
    y0, y1 = box[1], box[3]
    left = [w for w in words if w.conf >= CONFIDENT and w.bbox[2] <= box[0] + 0.5 * h and
            w.bbox[2] >= box[0] - DATE_CAPTION_GAP * h and
            min(w.bbox[3], y1) - max(w.bbox[1], y0) >= 0.5 * (w.bbox[3] - w.bbox[1])]
    if not left:
        return False
    left.sort(key=lambda w: w.bbox[2])
    last = alnum(left[-1].text)
    # "Year of Birth", "Date of Birth" ask for a date; "Place of Birth" does not
    birth = last == "birth" and len(left) >= 3 and alnum(left[-2].text) == "of" and \
        alnum(left[-3].text) in BIRTH_DATE_WORDS
    return last in DATE_CAPTIONS or birth


def over_date_caption(box, words, h: float) -> bool:
    """Handwriting over a date caption printed under its line ("(Date of signature)" under
    a FARA statement's signature block, "Date" under the left rule of a "Signature / Date"
    pair): the date written in. The caption is the phrase of confidently read print right
    under the box (within CAPTION_UNDER), read from its first word: the word under the box
    and the words before it at a word's spacing."""
    under = [w for w in words if w.conf >= CONFIDENT and box[3] - 0.5 * h <= w.bbox[1] <= box[3] + CAPTION_UNDER * h
             and w.bbox[0] < box[2] and w.bbox[2] > box[0]]
    if not under:
        return False
    top = min(w.bbox[1] for w in under)
    row = sorted((w for w in words if w.conf >= CONFIDENT and abs(w.bbox[1] - top) <= 0.5 * h),
                 key=lambda w: w.bbox[0])
    first = min((w for w in under if abs(w.bbox[1] - top) <= 0.5 * h), key=lambda w: w.bbox[0])
    k = row.index(first)
    while k > 0 and row[k].bbox[0] - row[k - 1].bbox[2] <= PHRASE_GAP * h:
        k -= 1
    return alnum(row[k].text) in DATE_CAPTIONS


def near_label(box, labels, h: float) -> bool:
    for w in labels:
        x0, y0, x1, y1 = w.bbox
        if box[2] < x0 - LABEL_LEFT * h or box[0] > x1 + LABEL_RIGHT * h:
            continue
        if box[3] < y0 - LABEL_ABOVE * h or box[1] > y1 + LABEL_BELOW * h:
            continue
        return True
    return False


def on_rule(box, rules, h: float) -> bool:
    bw = box[2] - box[0]
    for x0, x1, y in rules:
        overlap = min(box[2], x1) - max(box[0], x0)
        if overlap < 0.3 * bw:
            continue
        if y - RULE_ABOVE * h <= box[3] <= y + RULE_BELOW * h + (box[3] - box[1]):
            if box[1] <= y + RULE_BELOW * h:
                return True
    return False


@dataclass
class Anchors:
    """What a page offers a signature to stand by: its label words, its text area (for
    initials in the margin) and its typed names (for a memo's signature over its name)."""
    labels: list
    extent: tuple | None
    names: list
