"""What a value of each kind looks like: given the tokens that follow a label (or sit under
it), return the character range of the value, or None when the tokens do not look like one.

Tokens are (start, end, text) triples in page-text characters, in reading order of one
line. Kinds: name, organization, id, code, number, date, period; the contact kinds (phone,
e-mail, web address, user name) are in ``contact_values``."""
from __future__ import annotations

import re

from redactor_plugins.rules.lexicon import Vocab, normalise_label

Token = tuple[int, int, str]

# brackets, quotes, stops and fill-in marks around a value are not part of it
STRIP = " ,;:()[]{}\"'`_‘’“”|•·~^"
# A currency sign before an amount whose digit groups are well formed (or before no digit:
# "$", "$USD"); before a broken grouping ("€2,25097") the sign is a misread letter (E, S)
# of a code, not money.
_AMOUNT = r"(?:\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?|\d+(?:[.,]\d{1,2})?)"
_MONEY = re.compile(r"^[(\-]?[$€£¥](?:\D|$)|^[(\-]?[$€£¥]\s?-?" + _AMOUNT + r"[kKmMbB]?\)?[.,;:*]?$"
                    r"|^\(?-?\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?\)?$|^-?\d+\.\d{2}$|%$"
                    r"|^(?:USD|EUR|GBP)$")
_NAME_WORD = re.compile(r"^[A-Z][A-Za-z'’\-–—]*\.?$|^[A-Z]\.(?:[A-Z]\.)*$")
_LOWER_WORD = re.compile(r"^[a-z][a-z'’\-]+$")
# '@' is how OCR often reads a 0 in a number, '=' or '~' a hyphen on a noisy scan
# ("69231=72", "69~1351")
_ID_TOKEN = re.compile(r"^[#@]?[A-Za-z0-9*][A-Za-z0-9*\-/._#:@=~]*$")
# A currency sign stuck to a bare run of digits and capitals ("$244292", "£15897") after an
# identifier's label: OCR's reading of a leading S, 5 or E. An amount has separators or
# decimals ("$1,234.00") or sits under an amount's label, not an identifier's.
_MISREAD_SIGN = re.compile(r"^[$£€§][A-Z0-9]*\d[A-Z0-9,]*$")
# ... also ISO 8601's basic form, as systems print a date into a form ("Invoice Date 20180312")
_DATE_TOKEN = re.compile(
    r"^(?:[0-9OoIl]{1,4}(?:[/.\-][0-9OoIl]{1,4}){0,2}(?:st|nd|rd|th)?|[A-Za-z]{3,9}\.?"
    r"|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))$")
_MONTHS = {"jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june",
           "jul", "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov",
           "november", "dec", "december"}
_ORG_JOINERS = ("of", "and", "&", "the", "de", "für", "du", "la")
_EMPTY = re.compile(r"^[_.\-–—:|/\\]*$")


def strip_token(tok: Token, chars: str = STRIP) -> Token | None:
    s, e, t = tok
    while s < e and t and t[0] in chars:
        s, t = s + 1, t[1:]
    while e > s and t and t[-1] in chars:
        e, t = e - 1, t[:-1]
    return (s, e, t) if t else None


def is_blank(tokens: list[Token]) -> bool:
    """Only fill-in lines, dots or punctuation: an empty form field."""
    return all(_EMPTY.match(t[2]) for t in tokens)


def is_money(text: str) -> bool:
    return bool(_MONEY.search(text.strip()))


_INITIAL = re.compile(r"[A-Z]\.")
_ORDINAL = re.compile(r"\d{1,3}(?:st|nd|rd|th|ST|ND|RD|TH)")
_INITIALS = re.compile(r"(?:[A-Z]\.)+")    # "J.", "J.R.": no sentence ends at their stop


def name_value(tokens: list[Token], vocab: Vocab, loose: bool,
               comma_ends: bool = False) -> tuple[int, int, bool] | None:
    """A person's (or organisation's) name: capitalised words, initials, particles, "Smith,
    John"; honorifics are skipped. ``loose`` (after a strong label) also accepts lower-case
    words; ``comma_ends`` (a salutation, "Dear Ms. Murphy,") ends the name at its first
    comma. Returns (start, end, is_organization)."""
    words: list[Token] = []
    org = False
    i = 0
    honorifics = {h.lower() for h in vocab.honorifics}
    # a dash or a bar before the name ("To: - Kim, Richard") is punctuation, not a word
    while i < len(tokens) - 1 and not any(c.isalnum() for c in tokens[i][2]) and \
            not _MISREAD_INITIAL.fullmatch(tokens[i][2]):
        i += 1
    titles = honorifics | vocab.offices
    # (a signature block brackets the signer's name with its title: "(Smt. Lakshmi ...)")
    while i < len(tokens) and tokens[i][2].lstrip("(").rstrip(".").lower() in titles and len(tokens) > i + 1:
        i += 1
    if i < len(tokens) and INITIALS_LIST.fullmatch(tokens[i][2].strip(STRIP)):
        return tokens[i][0], tokens[i][1], False    # "cc: BMC/RMI/EPB": staff by their initials
    comma_used = False
    stop_at = len(tokens)
    for k in range(i, len(tokens)):
        tok = tokens[k]
        raw = tok[2]
        stop_at = k
        if len(words) <= 1 and _MISREAD_INITIAL.fullmatch(raw) and k + 1 < len(tokens) and \
                _NAME_WORD.match(tokens[k + 1][2].strip(STRIP)):
            words.append(tok)    # "&. Ray", "PERCY £. SMITH": an initial OCR could not read
            continue
        if not words and INITIALS_RUN_TOGETHER.fullmatch(raw) and raw[:2] not in _TWO_LETTER_ABBREVIATIONS \
                and k + 1 < len(tokens) and _SURNAME_WORD.fullmatch(tokens[k + 1][2].strip(STRIP)):
            words.append(tok)    # "cc: RE. KLEIN": two initials, the first one's dot lost
            continue
        if not words and _INITIALS_LAST_COMMA.fullmatch(raw) and k + 1 < len(tokens) and \
                _SURNAME_WORD.fullmatch(tokens[k + 1][2].strip(STRIP)):
            words.append(tok)    # "B.R, Pellett": the last initial's stop read as a comma
            continue
        if words and _MISREAD_I.fullmatch(raw.rstrip(",")) and \
                (k + 1 == len(tokens) or not tokens[k + 1][2][:1].islower()):
            words.append(tok)    # "Robinson, Jillian |.": the middle initial I read as a bar
            continue
        if words and raw[:1] in "([{":
            break   # "Dr. Schultz (Greensboro)": what a bracket opens is said about the name
        initials = _INITIALS.fullmatch(raw.strip(",;")) is not None
        if initials and not words and len(raw.strip(",;")) > 2 and raw.rstrip().endswith(","):
            break    # a title's letters, not a name's: "C. M. WIECHMANN, D.M., LUBBOCK"
        st = strip_token(tok, STRIP + ".") if not initials else strip_token(tok, STRIP)
        if st is None:
            break
        t = st[2]
        key = t.lower().rstrip(".")
        # "A." is an initial ("A. Stuart"), not the article the stop list means
        surname = len(words) == 1 and not comma_used and k == len(tokens) - 1 and \
            t[:1].isupper() and t[1:].islower() and len(key) >= 4
        # "M. May", "A. Love": after an initial, a capitalised word is the surname whatever
        # the word means elsewhere
        surname = surname or (len(words) == 1 and _INITIAL.fullmatch(words[0][2]) is not None
                              and t[:1].isupper() and t[1:].islower() and len(key) >= 2)
        # "To: Matthew ALL; Jennifer Cole": in a list of names the word a ';' ends is the
        # surname, however OCR read it ("Ali")
        surname = surname or (len(words) == 1 and not comma_used and raw.rstrip().endswith(";")
                              and t[:1].isupper() and t.isalpha() and len(key) >= 2)
        # "Nguyen Van An", "Maria de Sol": after a name's particle a capitalised word is its
        # last name whatever the word means elsewhere (Vietnamese names put the given name
        # last, after the middle name Van or Thi)
        surname = surname or (len(words) >= 2 and words[-1][2].lower() in vocab.particles
                              and t[:1].isupper() and t[1:].islower() and len(key) >= 2)
        # "DOE, JOHN A": a capital letter after an inverted name's given name is its middle
        # initial (a patient's or an employee's record), not the article
        surname = surname or (comma_used and len(words) >= 2 and re.fullmatch(r"[A-Z]", t) is not None
                              and (k + 1 == len(tokens) or not tokens[k + 1][2][:1].islower()))
        # "Cristina Page": a word of the stop list after a first name, ending the line, is
        # a surname
        if any(c.isdigit() for c in t) or "@" in t or \
                key in vocab.not_names and not org and not _INITIAL.fullmatch(t) and not surname:
            break
        if normalise_label(t) in vocab.company_words and words:
            org = True
            words.append(st)
        elif _NAME_WORD.match(t) or (words and key in vocab.particles) or (t == "&" and words) or \
                (words and _CAPITALS_BANG.fullmatch(t)) or \
                (loose and _LOWER_WORD.match(t) and all(w[2][:1].islower() for w in words)) or \
                (k == len(tokens) - 1 and _misread_capital(t, words)):
            # lower case only for names written all in lower case (handwriting, OCR)
            words.append(st)
        elif loose and words and raw[:1].isalpha() and _split_rest(t, words):
            # the rest of a name OCR cut in two ("Jeremy Da niel", handwriting): no English
            # word, one piece per word
            words.append(st)
        else:
            break
        if len(words) >= 6:
            break
        if raw.rstrip().endswith((";", ":", "/")):
            break   # a list of names: "To: Samuel Pace; Lawrence Wilkinson"
        if raw.rstrip().endswith(".") and len(key) > 2 and not initials and key not in honorifics and \
                key not in vocab.particles and key not in _NAME_SUFFIXES:
            break   # "approved by Patrick Lee. Copies of ...": the sentence ends the name
        if raw.rstrip().endswith(","):
            if _INITIAL_COMMA.fullmatch(raw.strip()) and len(words) >= 2 and k + 1 < len(tokens) \
                    and tokens[k + 1][2][:1].isupper():
                continue   # "Richard P, Lopez": OCR read the initial's dot as a comma
            # "Smith, John" continues; "John Smith, MD" / a list of names ends here
            if comma_ends or comma_used or len(words) > 1:
                break
            comma_used = True
    else:
        stop_at = len(tokens)
    if comma_used and not org and stop_at + 1 < len(tokens) and \
            tokens[stop_at][2].lower() in ("and", "&") and tokens[stop_at + 1][2][:1].isupper():
        # "Ryan, Miranda and Key": surnames listed with a comma and "and" name a firm
        last = strip_token(tokens[stop_at + 1], STRIP + ".")
        if last is not None:
            words.append(last)
            org = True
    while words and (words[-1][2].lower().rstrip(".") in vocab.particles or words[-1][2] == "&"):
        words.pop()
    if not words:
        return None
    if len(words) == 1:
        w = words[0][2].rstrip(".")
        if len(w) < 2 or (w.isupper() and len(w) <= 2):
            return None
    return words[0][0], words[-1][1], org


def _split_rest(t: str, words: list[Token]) -> bool:
    """Whether ``t`` can be the lower-case rest of the capitalised word before it (which is
    then no such rest itself)."""
    prev = words[-1][2]
    return prev[:1].isupper() and prev.isalpha() and t.isalpha() and t.islower() and \
        len(t) >= 3 and not is_common_word(t)


_INITIAL_COMMA = re.compile(r"[A-Z],")
_INITIALS_LAST_COMMA = re.compile(r"(?:[A-Z]\.)+[A-Z],")
# an initial OCR could not read: a sign for the letter, or a capital whose lower case has
# the same shape read twice ("Cc." for "C.")
_MISREAD_INITIAL = re.compile(r"[&$%§©®@8|l£€]\.|Cc\.|Oo\.|Ss\.|Vv\.|Ww\.|Xx\.|Zz\.")
# two initials whose first dot the scan lost ("RE. KLEIN" for "R. E. KLEIN"), before a
# surname of three letters or more; not the abbreviations memos print before a word
INITIALS_RUN_TOGETHER = re.compile(r"[A-Z]{2}\.")
_TWO_LETTER_ABBREVIATIONS = frozenset({"ST", "MT", "FT", "NO", "CO", "DR", "MR", "MS", "JR", "SR", "PO", "TO",
                                       "RM", "PT", "VP", "GM", "US", "UK"})
_SURNAME_WORD = re.compile(r"[A-Z][a-z]{2,}|[A-Z]{3,}")
# a surname in capitals whose last letter, an I, OCR read as "!" ("S.A. RAPISARLD!")
_CAPITALS_BANG = re.compile(r"[A-Z]{3,}!")
# staff named by their initials, several to a word ("BMC/RMI/EPB" in a memo's copy list)
INITIALS_LIST = re.compile(r"[A-Z]{2,4}(?:/[A-Z]{2,4})+/?")
_MISREAD_I = re.compile(r"[|l!]\.")    # the initial I as OCR reads a thin capital
_NAME_SUFFIXES = frozenset({"jr", "sr", "esq", "phd", "md"})
# letters whose capital OCR often reads as the lower-case form of the same shape
_SAME_SHAPE = frozenset("cosvwxz")


def _misread_capital(t: str, words: list[Token]) -> bool:
    """"Michael white": the last word of a capitalised name, read with a lower-case first
    letter whose capital has the same shape."""
    return bool(words) and len(t) >= 3 and t[0] in _SAME_SHAPE and t.isalpha() and t[1:].islower() \
        and all(w[2][:1].isupper() for w in words)


# A word that continues a caption, not a name it asks for: "ORGANIZATION, OR THEATER USING",
# "(BY BRAND OR COMPANY)"; an organisation's name opens with a name word, "The" at most
_CAPTION_CONTINUATIONS = frozenset({"or", "and", "by", "nor", "if", "as", "to", "per", "vs"})
# a party's caption continued by the word for its number asks for the number, not the
# name ("Supplier Code No(s).  E.30639", "Vendor ID", "Agency No."): no name follows
_NUMBER_CAPTION_WORDS = frozenset({"code", "no", "nr", "num", "number", "id", "ref", "n/a"})


def _closes_name(token: str, nxt: str, legal: frozenset[str]) -> bool:
    """A legal form and a comma close a company's name ("Riverside Logistics LLC, EIN
    84-2231907": what follows is another field), unless a second legal form follows
    ("Acme Co., Inc."). ``legal``: the legal forms, lower case, without their stops."""
    return token.endswith(",") and token.rstrip(",").strip(".").lower() in legal and \
        nxt.strip(".,").lower() not in legal


def organization_value(tokens: list[Token], legal: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    words: list[Token] = []
    for k, tok in enumerate(tokens):
        st = strip_token(tok)
        if st is None:
            break
        t = st[2]
        if "@" in t or "%" in t or sum(c.isdigit() for c in t) >= 3 or "(" in tok[2]:
            break
        if t.lower() == "for" and words:
            # a committee or a cause named "<name> for <name>" ("Obama for America",
            # "Americans for Prosperity"): only before a capitalised word
            nxt = tokens[k + 1][2] if k + 1 < len(tokens) else ""
            if not (nxt[:1].isupper() and nxt[:1].isalpha()):
                break
            words.append(st)
        elif t[0].isupper() or t[0].isdigit() or t.lower() in _ORG_JOINERS:
            words.append(st)
        elif words and words[-1][2][:1].isupper() and t.isalpha() and len(t) >= 3 and \
                not is_common_word(t):
            # the rest of a capitalised word OCR cut in two ("Jeff reybury"): no English
            # word ("Acme located" stops), one piece per word
            words.append(st)
        else:
            break
        if len(words) >= 8 or _closes_name(tok[2], tokens[k + 1][2] if k + 1 < len(tokens) else "", legal):
            break
        if _ends_sentence(tok[2]):
            break    # "... to the State of Israel. Registrant will": the stop ends the sentence
    while words and words[-1][2].lower() in _ORG_JOINERS:
        words.pop()
    if words and words[0][2].lower().strip(",.") in _CAPTION_CONTINUATIONS:
        return None     # the rest of a caption's list of alternatives ("STATION, ORGANIZATION, OR THEATER")
    if not words or words[0][2].lower().rstrip(".:#") in _NUMBER_CAPTION_WORDS or \
            (len(words) == 1 and len(words[0][2].rstrip(".")) < 2):
        return None
    return words[0][0], words[-1][1]


# digits written into a form's comb boxes, the box walls read as bars and dashes between
# them ("499|58_—" for "499 | 58 | ...")
_COMB_DIGITS = re.compile(r"\d+(?:[|_\-–—]+\d+)+[|_\-–—]*")


# A series prefix in capitals joined by a hyphen to its number ("LRC-5A", a laboratory's
# protocol; "QC-4B", a batch): a designator with one digit is still no word, even without a colon.
_PREFIXED_CODE = re.compile(r"[A-Z]{2,}-\d[A-Z0-9]*")


MAX_GROUPS = 8     # groups of figures an identifier printed in short groups runs to
_BRACKETED_CHECK = re.compile(r"([A-Za-z0-9][A-Za-z0-9\-/.]*\d\([0-9A-Za-z]\))[.,;:]?\s*$")


def id_value(tokens: list[Token], strong: bool, min_digits: int = 1,
             caption: bool = False) -> tuple[int, int] | None:
    """An identifier: one to five tokens of letters, digits and -/._# (up to MAX_GROUPS
    groups of figures alone), with digits (OCR confusions count only as letters); amounts
    and percentages are not identifiers.
    ``caption``: the label is a field's caption (``strong``, or opening its line), before
    which a currency sign stuck to bare digits is a misread character, not money."""
    picked: list[Token] = []
    for k, tok in enumerate(tokens):
        if not picked and _EMPTY.match(tok[2].strip()):
            # a dash between the label and its value ("Account No. — 2572593572"), or the
            # fill-in line the value was typed on ("Sample NO, _ 5031")
            continue
        checked = None if picked else _BRACKETED_CHECK.match(tok[2].lstrip())
        if checked:
            # "HKID: A123456(7)": the check digit in brackets is part of the number
            lead = len(tok[2]) - len(tok[2].lstrip())
            picked.append((tok[0] + lead, tok[0] + lead + len(checked.group(1)), checked.group(1)))
            break
        # ... and one glued to the value ("PROJECT # -306"): the dash typed between them, or
        # the stroke left of a letter the scan lost; no identifier after a caption opens
        # with a dash (a negative amount is no identifier either)
        dash = re.match(r"[\-–—]+(?=\w)", tok[2]) if not picked and strong else None
        if dash:
            tok = (tok[0] + dash.end(), tok[1], tok[2][dash.end():])
        st = strip_token(tok, STRIP + ".")
        if st is None:
            if tok[2].strip() in (":", "#", "-", "|", "/"):
                continue   # separators, and the box lines of a form read as "|"
            break
        t = st[2]
        # "36 -51393": OCR put a space before the separator inside one identifier
        continued = bool(picked) and re.fullmatch(r"[\-/=~][A-Za-z0-9][A-Za-z0-9\-/]*", t) is not None
        # ... after any label when no amount is written so ("€2,25097": a comma where no
        # thousands grouping puts one)
        # (after a marked caption two figures do: "Registration No.__$33", a 5 read as "$")
        misread = not picked and _MISREAD_SIGN.match(t) is not None and \
            sum(c.isdigit() for c in t) >= (2 if strong else 3) and \
            (not is_money(t) or ((strong or caption or t[0] == "§") and "," not in tok[2]))
        if not misread and (is_money(t) or not (_ID_TOKEN.match(t) or continued or
                                                _COMB_DIGITS.fullmatch(t))):
            break
        has_digit = any(c.isdigit() for c in t)
        masked = "*" in t or re.fullmatch(r"[Xx]{3,}", t) is not None
        if not has_digit and not masked:
            # a short upper-case prefix ("AB 123456") is part of the id; a word is not; nor
            # is a check letter closing digit groups ("QQ 12 34 56 C", a UK National
            # Insurance number), which is
            nxt = tokens[k + 1][2] if k + 1 < len(tokens) else ""
            check_letter = bool(picked) and len(t) == 1 and t.isupper() and \
                picked[-1][2].isdigit() and not nxt[:1].isalnum()
            if not picked and t.lower() in _NUMBER_CAPTION_WORDS and \
                    (tok[2].strip().endswith(":") or any(c.isdigit() for c in nxt)):
                continue   # the caption's own number word ("AUTH CODE: 083142", "ACCOUNT CODE 10-320")
            if not check_letter and (picked or not (t.isupper() and len(t) <= 5 and any(c.isdigit() for c in nxt))):
                break
        picked.append(st)
        if dash:
            break   # ... the one word the dash is glued to ("SAMPLE: —240 VICEROY/125")
        # a number printed in short groups of figures runs to more of them ("1 85 05 78 006
        # 084 36": a French social security number; "1234 5678 9012")
        if len(picked) >= (MAX_GROUPS if all(re.fullmatch(r"\d{1,4}", p[2]) for p in picked) else 5):
            break
    if not picked:
        return None
    value = " ".join(t[2] for t in picked)
    digits = sum(c.isdigit() for c in value)
    if digits < min_digits or re.fullmatch(r"[0\W]+", value) or _ORDINAL.fullmatch(value):
        return None     # (zeros alone name nothing: an amount's thousands, "$220, 000"; nor
                        # does an ordinal: "SPORTS REGISTRATION / 37TH ANNUAL MEETING")
    if not strong and ((digits < 2 and not _PREFIXED_CODE.fullmatch(value)) or
                       len(re.sub(r"\W", "", value)) < 4):
        return None
    after = [t for t in tokens if t[0] >= picked[-1][1]][:1]
    if after and value.isdigit() and len(value) <= 4 and after[0][2].lower().strip(".,;:") in _COUNT_WORDS:
        return None     # a quantity, not a number that names ("PERSONNEL: 24 per day")
    return picked[0][0], picked[-1][1]


# the words after a count that make it a quantity: a rate or a unit of time or of things
_COUNT_WORDS = frozenset({"per", "each", "times", "hours", "hrs", "days", "weeks", "months", "years", "pages",
                          "people", "persons", "units", "pieces", "pcs", "percent", "%"})


# A code written in capitals, letters only or with a hyphen ("PMRM", "BD-FF."): 2 to 8
# characters with 2+ capitals; "N/A", "NONE" and "TBD" say there is none.
_CAPITALS_CODE = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*")
_NO_CODE = frozenset({"NA", "N/A", "NONE", "TBD", "NIL"})


def code_value(tokens: list[Token], strong: bool) -> tuple[int, int] | None:
    """The value of a code caption ("Project Code"): an identifier, or, after a caption
    marked as one (``strong``), a short run of capitals alone ("PMRM")."""
    r = id_value(tokens, strong)
    if r is not None or not strong:
        return r
    toks = [t for t in tokens if not _EMPTY.match(t[2].strip())]
    st = strip_token(toks[0], STRIP + ".") if toks else None
    if st is None or st[2] in _NO_CODE or not 2 <= len(st[2]) <= 8 or \
            not _CAPITALS_CODE.fullmatch(st[2]) or sum(c.isalpha() for c in st[2]) < 2:
        return None
    if len(toks) > 1 and toks[1][2][:1].isalnum():
        return None   # "CODE NEW YORK OFFICE": words, not a code
    return st[0], st[1]


def number_value(tokens: list[Token]) -> tuple[int, int] | None:
    """The value of a bare number caption ("No. C-40", "No, 69~1351", "No. 27"): an
    identifier with 2+ digits; "No. 1", an item of a list, is none."""
    return id_value(tokens, True, min_digits=2)


# Zipf frequency (log10 of uses per billion words) at and above which a token is a word of
# English ("guide" 4.8, "admin" 3.9) rather than a name somebody made up ("kbrown" 0).
COMMON_WORD_ZIPF = 3.0


def is_common_word(token: str) -> bool:
    """Whether ``token`` is an ordinary English word (wordfreq's frequency lists)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(token, "en") >= COMMON_WORD_ZIPF


def _amount_rest(text: str) -> bool:
    """Whether ``text`` is the rest of an amount after its first group: thousands and cents."""
    return re.fullmatch(r"\d{3}(?:,\d{3})*\.\d{2}", text.strip(",;:")) is not None


def date_value(tokens: list[Token]) -> tuple[int, int] | None:
    picked: list[Token] = []
    for k, tok in enumerate(tokens):
        st = strip_token(tok, " ,;:()[]")
        if st is None:
            if tok[2].strip() == "," and picked and k + 1 < len(tokens):
                continue    # "August 3 , 2014": OCR read the comma apart from the day
            break
        t = st[2]
        if t.endswith(".") and t[:1].isdigit() and _DATE_TOKEN.match(t[:-1]):
            st = (st[0], st[1] - 1, t[:-1])    # "YEAR COVERED: 1985.": a full stop ends it
            t = st[2]
        if not _DATE_TOKEN.match(t):
            break
        # a word of letters must be a month; a figure OCR read as its letter look-alike
        # ("l2/4/80": a handwritten or worn 1 read as l) still opens a date
        if t.rstrip(".").isalpha() and t.lower().rstrip(".") not in _MONTHS and t.lower() != "of":
            break
        picked.append(st)
        if len(picked) >= 4:
            break
    while picked and not any(c.isdigit() for c in picked[-1][2]) and \
            picked[-1][2].lower().rstrip(".") not in _MONTHS:
        picked.pop()
    if not picked or not any(c.isdigit() for t in picked for c in t[2]):
        return None
    # an amount is no date, whole or in part ("Committed to Date: 1, 471,873.85": a total
    # so far, its thousands split by OCR)
    if is_money(" ".join(t[2] for t in picked)) or any(is_money(t[2]) and "," in t[2] for t in picked):
        return None
    # one or two figures before an amount are the amount's first group, split off by OCR
    # ("1, 233,308.08"); alone in a date column they are a date that lost its slash ("45")
    after = [t for t in tokens if t[0] >= picked[-1][1]]
    if len(picked) == 1 and re.fullmatch(r"\d{1,2}", picked[0][2]) and after and \
            _amount_rest(after[0][2]):
        return None
    return picked[0][0], picked[-1][1]


# Words between a period caption and its value that say which period ("Month of", "Year
# ending"), and a year as forms write one alone (1985, 1985-86, 1985/1986).
_PERIOD_WORDS = frozenset({"month", "year", "week", "quarter", "of", "for", "the", "ending",
                           "ended", "beginning", "fiscal", "calendar", "on"})
_YEAR = re.compile(r"(?:19|20)\d{2}(?:[-/](?:\d{2}|(?:19|20)\d{2}))?")


def period_value(tokens: list[Token]) -> tuple[int, int] | None:
    """The value of a period caption ("Reporting Period: Month of May", "YEAR COVERED:
    1985."): a date, or a month's name (with its year when written), or a year alone."""
    k = 0
    while k < len(tokens) and (tokens[k][2].lower().strip(".,:") in _PERIOD_WORDS or
                               _EMPTY.match(tokens[k][2].strip())):
        k += 1
    rest = tokens[k:]
    r = date_value(rest)
    if r is not None:
        # a date written as one ("6/30/85", "June 30, 1985") or a year; a bare count is a
        # duration ("the period beginning 60 days prior")
        value = " ".join(t[2][max(0, r[0] - t[0]):r[1] - t[0]] for t in rest if t[0] < r[1] and r[0] < t[1])
        if any(c.isalpha() for c in value) or re.search(r"\d[/.\-]\d", value) or \
                _YEAR.fullmatch(value.strip(".")):
            return r
        return None
    st = strip_token(rest[0], STRIP + ".") if rest else None
    if st is None:
        return None
    if st[2].lower() in _MONTHS and st[2][:1].isupper():
        return st[0], st[1]
    if _YEAR.fullmatch(st[2]):
        return st[0], st[1]
    return None


def reads_as_clause(text: str) -> bool:
    """Whether ``text`` holds a word that opens or carries a clause ("UNTIL", "HAS BEEN"):
    a firm's name joins its words with "of", "and", "&", "for" at most."""
    return any(w.strip(".,;:()").lower() in _CLAUSE_WORDS for w in text.split())


# (not "all", "any", "may", "will": firms are named so, "All Nippon", "May Department Stores")
_CLAUSE_WORDS = frozenset({"until", "unless", "has", "have", "had", "been", "is", "are", "was", "were", "shall",
                           "must", "should", "would", "not", "this", "that", "these", "those", "which", "when",
                           "if", "being", "be"})


def _ends_sentence(raw: str) -> bool:
    """Whether a word's stop ends a sentence: a whole word of five letters or more ("Israel.",
    "Company."), not an abbreviation's stop ("Dept.", "Corp.", "Assoc.", "U.S.": short or
    no dictionary word)."""
    if not raw.endswith(".") or raw.endswith(".."):
        return False
    word = raw.rstrip(".").strip(STRIP)
    return len(word) >= 5 and word.isalpha() and is_common_word(word.lower())
