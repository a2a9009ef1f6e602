"""Checks a redacted page by reading it again: OCR the output, run the same detectors, and
judge what a reader of the published page could still use.

A redaction tool is trusted only if its outputs are clean when read the way an attacker
would read them; this is that reading. It must also be quiet when the output is clean, or
nobody keeps it on: OCR of a page with black boxes reads the boxes and the letters cut by
them as short junk ("iy", "Se Su", "i =6Exp."), and the detectors tag some of that junk as
names, phones or cards. So the re-read yields *candidates* (what the old check reported,
``candidate_findings``) and only those a reader could use are *findings*:

1. **A value the first pass hid, read again** (``hidden value``): the normalised text of a
   run of consecutive words on one line equals a critical value the first pass redacted, up
   to OCR noise (normalised edit distance <= ``FUZZY_MAX_DISTANCE``, digits exact), or
   contains it. This catches a box that missed part of its value, a second occurrence left
   visible, and a detector hit whose text is that value. A hidden value made only of
   ordinary English words ("Requested", "Appendix A": the first pass's own false positives)
   is not looked for, nor is a reading made only of such words ("Total" where the first
   pass hid the misread "Tota]"): they tell a reader nothing about anyone.
2. **A full critical pattern standing on its own** (``pattern``): a detector's critical span
   whose text holds, as whole words, a complete e-mail address, phone number (10+ digits),
   payment card (Luhn), IBAN (mod 97), US SSN or URL/IP ("SSN 123-45-6789" counts: a label
   before the value). Partial shapes never match: a phone's tail beside a box is not a
   phone number.
3. **A full person name** (``name``): a detector's critical span that starts with a name as
   the census lists spell one (``redactor.census_names.reads_as_name``: given name, optional
   middle names or initials, surname; or initials and a census surname or a rare
   capitalised word, "J. S. Wigand"; or a given name and a rare capitalised word, "David
   Cicilline"), its box not overlapping a burned box (``NAME_MAX_COVERED``). Junk read
   beside a box ("Se Su", "ini Hf") and headings re-judged as names ("Description Oty")
   do not have that shape.
4. **A labelled number** (``labelled number``): a linkage number (account, ID, card,
   reference) that a detector read as the value of its label (``LABELLED_SCORE``), one
   token with at least ``MIN_LABELLED_DIGITS`` digits, not touching a burned box.
5. Everything else is dropped, and counted by why: **fragments** (the candidate's box
   overlaps or lies within ``FRAGMENT_GAP`` text heights of a burned box and its text is not
   a full value: OCR's reading of a box edge and of the letters the box cut), and **not a
   value** (away from any box, but none of 1-4: the detectors re-judging unchanged text in
   a changed context, e.g. "Description Oty" as a person), besides those ``under a box``
   (``BURNED_SHARE``).

What the re-read cannot judge: a value the detectors miss on the output as they did on the
input (a short reference number, an extension, initials, a name the NER does not tag) stays
unflagged; the first pass owns that miss. The rules use the census name lists and
``wordfreq`` that the default detectors ship; without them rules 3 and the ordinary-word
filter are off or permissive.

Findings carry the box of the words read, so ``second_pass_redactions`` can burn them too
(only types the run redacts: a type left out with ``--types`` fails the page instead);
``redactor.document`` then renders and verifies again once.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from functools import lru_cache

from PIL import Image

from redactor.model import OcrPage, PageResult, Redaction
from redactor.page_view import page_view
from redactor.taxonomy import is_critical

MIN_VALUE_CHARS = 4        # shorter normalised values ("CA", "12") occur by chance
BURNED_SHARE = 0.9         # a candidate this much under the burned-in boxes is a reading of them
# A candidate whose box comes within this many of its own text heights of a burned box
# touches it: Tesseract merges a box's edge and the cut letters beside it into the
# neighbouring word ("Fc", "ee. ee"), and seen gaps of such readings stay under ~0.6 heights.
FRAGMENT_GAP = 0.75
# Normalised edit distance (edits / length of the hidden value) up to which a reading is the
# hidden value: OCR confuses about one character in five on small or degraded print
# ("Thoynpson"), and a value shorter than 5 characters must match exactly.
FUZZY_MAX_DISTANCE = 0.2
MAX_WINDOW_WORDS = 8       # longest run of words compared with one hidden value
MAX_PATTERN_WORDS = 8      # an IBAN in groups of four is the longest pattern in words
# Zipf frequency (wordfreq) from which a word is ordinary English, as the rules detector
# counts it (plugins/rules/values.py COMMON_WORD_ZIPF); a rare last word of a name is under it.
COMMON_WORD_ZIPF = 3.0
# A linkage number standing alone counts when a detector gave it a label's score (the rules
# detector scores label values 0.9, bare number shapes 0.3): "4111" after "Acct." is an
# account number, "102-178" in a table is anything.
LINKAGE_NUMBER_TYPES = frozenset({"ACCOUNT_NUMBER", "ID_NUMBER", "CARD_NUMBER", "REFERENCE_NUMBER"})
LABELLED_SCORE = 0.9
MIN_LABELLED_DIGITS = 3
# A name-shaped reading that a burned box overlaps is OCR of the box edge and cut letters
# ("Le Le HEE" over a box): names are judged by shape, which such junk can take by chance.
NAME_MAX_COVERED = 0.02
MAX_NAME_WORDS = 4         # given name, two middle names or initials, surname
SECOND_PASS_SOURCE = "verify"

_PHONE = re.compile(r"\+?\(?\d[\d ().\-/]*\d")
_EMAIL = re.compile(r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}")
_SSN = re.compile(r"(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}")
_CARD = re.compile(r"\d(?:[ \-]?\d){12,18}")
_IBAN = re.compile(r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}")
_URL = re.compile(r"(?:https?://|www\.)[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+(?:/\S*)?", re.I)
_IP = re.compile(r"(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)")
_DATE = re.compile(r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{1,4}")
_EDGE_PUNCT = " \t\n.,;:!?'\"()[]{}<>|"


def normalise(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


@dataclass
class Verification:
    ok: bool
    findings: list[dict] = field(default_factory=list)
    dropped: dict = field(default_factory=dict)   # candidates judged unusable, counted by why

    def to_json(self) -> dict:
        return asdict(self)


# -- geometry --------------------------------------------------------------------------------
def _covered_share(box, boxes) -> float:
    """Share of ``box``'s area lying under the union of ``boxes`` (shapely does the union)."""
    from shapely.geometry import box as rect
    from shapely.ops import unary_union

    area = rect(*box).area
    if area <= 0 or not boxes:
        return 0.0
    return rect(*box).intersection(unary_union([rect(*b) for b in boxes])).area / area


def _gap(a, b) -> float:
    """Distance between two boxes (0 when they overlap or touch)."""
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dy = max(b[1] - a[3], a[1] - b[3], 0.0)
    return (dx * dx + dy * dy) ** 0.5


def touches_burned(box, burned) -> bool:
    """The box overlaps a burned box or lies within FRAGMENT_GAP of its own heights of one."""
    reach = FRAGMENT_GAP * max(box[3] - box[1], 1.0)
    return any(_gap(box, b) <= reach for b in burned)


def _union(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


# -- values ----------------------------------------------------------------------------------
try:   # optional: the same distance, faster
    from rapidfuzz.distance.Levenshtein import distance as _rapid_distance
except ImportError:
    _rapid_distance = None


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions)."""
    if _rapid_distance is not None:
        return _rapid_distance(a, b)
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _allowed_edits(value: str) -> int:
    return int(FUZZY_MAX_DISTANCE * len(value))


def matches_value(text: str, value: str) -> bool:
    """``text`` (normalised) is ``value`` (normalised) as OCR may read it, or holds it whole."""
    if len(value) < MIN_VALUE_CHARS or not text:
        return False
    if value in text:
        return True
    k = _allowed_edits(value)
    if k == 0 or abs(len(text) - len(value)) > k:
        return False
    # One digit more or less is another number ("DC 20530" is not "DC 20503"): OCR noise is
    # forgiven in letters and punctuation only.
    if re.sub(r"\D", "", text) != re.sub(r"\D", "", value):
        return False
    return edit_distance(text, value) <= k


def _luhn(digits: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = int(c) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _iban_ok(text: str) -> bool:
    s = text.replace(" ", "")
    s = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in s)) % 97 == 1


def is_full_pattern(type_: str, text: str) -> bool:
    """``text`` holds, as whole words (a label before it is fine: "SSN 123-45-6789"), a
    complete identifier of a shape a reader can use without context: e-mail, 10+-digit
    phone, Luhn card, IBAN, SSN, URL/IP."""
    words = text.split()
    return any(_is_pattern(type_, " ".join(words[i:j]))
               for i in range(len(words))
               for j in range(i + 1, min(len(words), i + MAX_PATTERN_WORDS) + 1))


def _is_pattern(type_: str, text: str) -> bool:
    t = text.strip(_EDGE_PUNCT + "-")
    digits = re.sub(r"\D", "", t)
    if _EMAIL.fullmatch(t) or _URL.fullmatch(t) or _IP.fullmatch(t):
        return True
    if _SSN.fullmatch(t):
        return True
    if _CARD.fullmatch(t) and _luhn(digits):
        return True
    if _IBAN.fullmatch(t.upper()) and _iban_ok(t.upper()):
        return True
    if type_ == "PHONE" and _PHONE.fullmatch(t) and 10 <= len(digits) <= 15:
        return True
    return False


def hidden_values(result: PageResult) -> dict[str, str]:
    """Normalised critical values the first pass hid (long enough to judge) -> their type."""
    out: dict[str, str] = {}
    for r in result.redactions:
        v = normalise(r.value)
        if is_critical(r.type) and len(v) >= MIN_VALUE_CHARS and not ordinary_words(r.value):
            out.setdefault(v, r.type)
    return out


@lru_cache(maxsize=1)
def _word_frequency():
    try:
        from wordfreq import zipf_frequency
    except ImportError:      # without the word list every word counts as rare: nothing dropped
        return None
    return zipf_frequency


def _zipf(word: str) -> float:
    zipf = _word_frequency()
    return zipf(word, "en") if zipf is not None else 0.0


@lru_cache(maxsize=1)
def _census():
    """(reads_as_name, given names, surnames, veto words) of the census name lists that the
    default detectors ship, or None without them (the name rule is then off)."""
    try:
        from redactor import census_names as c
    except ImportError:
        return None
    return c.reads_as_name, c.given_names(), c.surnames(), c.veto_words()


def ordinary_words(value: str) -> bool:
    """Every word of ``value`` is ordinary English and none is a census given name."""
    words = re.findall(r"[^\W\d_]+|\d+", value)
    if not words or any(w.isdigit() for w in words):
        return False
    census = _census()
    given = census[1] if census else frozenset()
    return all(_zipf(w.lower()) >= COMMON_WORD_ZIPF and w.upper() not in given for w in words)


_NAME_WORD = re.compile(r"[A-Z][a-z]+(?:['\-][A-Z]?[a-z]+)*|[A-Z]{2,}(?:['\-][A-Z]+)*|"
                        r"(?:Mc|Mac|O')[A-Z][a-z]+")
_INITIAL = re.compile(r"[A-Z]\.")


def is_labelled_number(span) -> bool:
    """A linkage identifier a detector read as the value of its label ("Account No. 4111"):
    one token with enough digits, at the score the rules detector gives label values."""
    token = span.text.strip(_EDGE_PUNCT)
    if _DATE.fullmatch(token):
        return False     # "03/14/2024" after "Issued": a date, whatever label stood before it
    return (span.type in LINKAGE_NUMBER_TYPES and span.score >= LABELLED_SCORE
            and len(token.split()) == 1 and len(normalise(token)) >= MIN_VALUE_CHARS
            and sum(c.isdigit() for c in token) >= MIN_LABELLED_DIGITS)


def is_full_name(text: str) -> bool:
    """``text`` starts with a person's full name (rule 3 of the module doc); what follows
    the name on its line ("J. S. Wigand R&D Group") does not matter."""
    census = _census()
    if census is None:
        return False
    reads_as_name, given, family, veto = census
    words = text.replace("\n", " ").split()[:MAX_NAME_WORDS]
    for n in range(len(words), 1, -1):
        run = [w.strip(".,;:") if i == n - 1 and not _INITIAL.fullmatch(w) else w.rstrip(",;:")
               for i, w in enumerate(words[:n])]
        if reads_as_name(run):
            return True
        last = run[-1]
        if not _NAME_WORD.fullmatch(last) or len(last) < 3 or last.upper() in veto:
            continue
        if not all(_INITIAL.fullmatch(w) or _NAME_WORD.fullmatch(w) for w in run[:-1]):
            continue
        initials = all(_INITIAL.fullmatch(w) for w in run[:-1])
        if initials and (last.upper() in family or _zipf(last.lower()) < COMMON_WORD_ZIPF):
            return True       # "J. S. Wigand"
        if (len(run[0]) >= 3 and run[0].upper() in given
                and not any(w.upper() in veto for w in run[1:])
                and _zipf(last.lower()) < COMMON_WORD_ZIPF):
            return True       # "David Cicilline": a given name and a rare capitalised word
    return False


# -- candidates ------------------------------------------------------------------------------
def candidate_findings(redactor, page: OcrPage, result: PageResult) -> list[dict]:
    """What the re-read reports before judging (the findings of the earlier, unfiltered
    check): critical detector hits not under the burned boxes, and critical first-pass
    values found in the page text (``recoverable``)."""
    burned = _burned(redactor, result)
    out: list[dict] = []
    # Unfiltered: a critical identifier the run was told to leave (--types) is still a
    # critical identifier on a page about to be published.
    for span in redactor.detect(page, apply_filters=False):
        if not is_critical(span.type):
            continue
        for r in redactor.locate(page, [span]).redactions:
            if _covered_share(r.bbox, burned) >= BURNED_SHARE:
                continue   # OCR's reading of a black box ("iy" after "Contact:"): nothing shows
            out.append({"reason": "detected", "type": span.type, "value": span.text,
                        "bbox": [round(v, 1) for v in r.bbox]})
    text = normalise(page.text)
    for r in result.redactions:
        value = normalise(r.value)
        if is_critical(r.type) and len(value) >= MIN_VALUE_CHARS and value in text:
            out.append({"reason": "recoverable", "type": r.type, "value": r.value,
                        "bbox": [round(v, 1) for v in r.bbox]})
    return out


def _burned(redactor, result: PageResult) -> list[tuple]:
    pad = float(redactor.config.pad or 0.0)
    return [(x0 - pad, y0 - pad, x1 + pad, y1 + pad) for x0, y0, x1, y1 in
            (r.bbox for r in result.redactions)]


def _value_readings(page: OcrPage, hidden: dict[str, str], burned) -> list[dict]:
    """Runs of consecutive words on one line that read as a hidden value."""
    found: list[dict] = []
    for line in page_view(page).lines:
        words = [page.words[i] for i in line.words]
        norm = [normalise(w.text) for w in words]
        for value, type_ in hidden.items():
            best = None
            for i in range(len(words)):
                if not norm[i]:
                    continue
                text = ""
                for j in range(i, min(len(words), i + MAX_WINDOW_WORDS)):
                    text += norm[j]
                    if len(text) > len(value) + _allowed_edits(value) and value not in text:
                        break
                    if matches_value(text, value):
                        best = best or (i, j)
                        if (j - i) < (best[1] - best[0]):
                            best = (i, j)
                        break
            if best is None:
                continue
            box = _union([w.bbox for w in words[best[0]:best[1] + 1]])
            reading = " ".join(w.text for w in words[best[0]:best[1] + 1])
            if _covered_share(box, burned) >= BURNED_SHARE:
                continue
            if ordinary_words(reading):
                continue   # "Total" read where the first pass hid "Tota]": names no one
            found.append({"reason": "hidden value", "type": type_, "value": reading,
                          "bbox": [round(v, 1) for v in box]})
    return found


def judge(redactor, page: OcrPage, result: PageResult) -> Verification:
    """The findings a reader could use on the re-read ``page`` (rules in the module doc)."""
    burned = _burned(redactor, result)
    hidden = hidden_values(result)
    findings = _value_readings(page, hidden, burned)
    dropped: Counter = Counter()
    for span in redactor.detect(page, apply_filters=False):
        if not is_critical(span.type):
            continue
        for r in redactor.locate(page, [span]).redactions:
            if _covered_share(r.bbox, burned) >= BURNED_SHARE:
                dropped["under a box"] += 1
                continue
            text = normalise(span.text)
            if any(matches_value(text, v) for v in hidden) and not ordinary_words(span.text):
                reason = "hidden value"
            elif is_full_pattern(span.type, span.text):
                reason = "pattern"
            elif is_full_name(span.text) and _covered_share(r.bbox, burned) <= NAME_MAX_COVERED:
                reason = "name"
            elif is_labelled_number(span) and not touches_burned(r.bbox, burned):
                reason = "labelled number"
            else:
                dropped["fragment" if touches_burned(r.bbox, burned) else "not a value"] += 1
                continue
            box = [round(v, 1) for v in r.bbox]
            if any(_covered_share(r.bbox, [f["bbox"]]) >= BURNED_SHARE for f in findings):
                continue   # the same reading, already found as a hidden value
            findings.append({"reason": reason, "type": span.type, "value": span.text, "bbox": box})
    return Verification(ok=not findings, findings=findings, dropped=dict(dropped))


def verify_page(redactor, redacted: Image.Image, result: PageResult) -> Verification:
    """Read ``redacted`` with the redactor's own OCR and detectors and judge what it shows."""
    if redactor.ocr is None:   # OCR-free systems: nothing of ours to read the page with
        return Verification(ok=True, findings=[{"note": "no OCR backend to verify with"}])
    return judge(redactor, redactor.read(redacted), result)


def second_pass_redactions(verification: dict | Verification,
                           types: frozenset[str] | None = None) -> list[Redaction]:
    """Boxes that burn what the re-read found (values kept for the audit record only).
    With ``types`` (the run's ``--types``) only findings of those types: a type the user
    chose to leave is reported, and the page fails, but it is not burned behind their back."""
    if isinstance(verification, Verification):
        verification = verification.to_json()
    out = []
    for f in verification.get("findings") or []:
        if types is not None and f.get("type") not in types:
            continue
        if f.get("bbox") and f.get("type"):
            out.append(Redaction(tuple(float(v) for v in f["bbox"]), f["type"],
                                 str(f.get("value") or ""), 1.0, (SECOND_PASS_SOURCE,)))
    return out
