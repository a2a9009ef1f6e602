"""What a contact value looks like after its label: a phone number (or an internal
extension), an e-mail address (or one whose @ OCR lost), a web address or a user name.
Same contract as ``values``: tokens in, the value's character range out, or None."""
from __future__ import annotations

import re

from redactor.plugin_api import WEB_ADDRESS_START
from redactor_plugins.rules import checksums as cs
from redactor_plugins.rules.lexicon import Vocab
from redactor_plugins.rules.values import STRIP, Token, is_common_word, is_money, strip_token

# '$' and '§' are how OCR reads a 5 or 8 on a noisy scan; B/G/Z a 8/6/2; '_' the fill-in
# line the number was typed on, read into it ("202/_457-4850")
# (a typewriter's figure read as a cent sign, "TELEPHONE (306) ¢84-0800", is a digit too)
_PHONE_TOKEN = re.compile(r"^[+(]?[0-9OoIlSBGZ$§¢|()\-.,/_]*[0-9][0-9OoIlSBGZ$§¢|()\-.,/_]*$")
# An internal extension: the 3 to 5 digits a corporate form gives after its phone caption
# ("Telephone # 6926", "Phone Number: 7970"), the switchboard being the company's own.
_EXTENSION = re.compile(r"(?:(?:ext\.?|x)[ ]?)?\d{3,5}", re.I)
_EXT_TOKEN = re.compile(r"^(?:ext\.?|x|extension|#)(?:\d{1,6})?$", re.I)


def phone_value(tokens: list[Token], extension: bool = False) -> tuple[int, int] | None:
    """A phone number of 7+ digits; ``extension`` (after a phone caption marked as one)
    also an internal extension of 3 to 5 digits standing alone."""
    if extension and tokens:
        # "ext. 4411" as OCR splits it: the marker and the digits are one value
        n = 2 if len(tokens) > 1 and re.fullmatch(r"(?i)ext\.?|x", tokens[0][2]) else 1
        first = strip_token(tokens[0], " ,;:[]{}\"'.")
        last = strip_token(tokens[n - 1], " ,;:[]{}\"'.")
        if first is not None and last is not None and \
                _EXTENSION.fullmatch(" ".join(t[2] for t in tokens[:n]).rstrip(" ,;:.")) and \
                (len(tokens) == n or not any(c.isdigit() for c in tokens[n][2])):
            return first[0], last[1]
    picked: list[Token] = []
    for tok in tokens:
        st = strip_token(tok, " ,;:[]{}\"'")
        if st is None:
            break
        t = st[2]
        if _PHONE_TOKEN.match(t) or (picked and _EXT_TOKEN.match(t)) or t == "+" or \
                (picked and t in ("-", ".")):
            picked.append(st)
        else:
            break
        if len(picked) >= 7:
            break
    while picked and not any(c.isdigit() for c in picked[-1][2]):
        picked.pop()
    if not picked:
        return None
    value = "".join(t[2] for t in picked)
    main = re.split(r"(?i)ext|x", value)[0]
    # "$58/625-8129": a misread leading 5 or 8; an amount never has '/' or '-' inside
    money = is_money(value) and not re.search(r"\d[\-/]\d", value)
    if len(cs.ocr_digits(main)) < 7 or cs.real_digit_share(main) < 0.7 or money:
        return None
    return picked[0][0], picked[-1][1]


def email_value(tokens: list[Token], strong: bool) -> tuple[int, int] | None:
    # a domain never ends with a dot: "jo@x.org." ends a sentence
    toks = [t for t in (strip_token(t, " ,;:()[]<>\"'") for t in tokens[:5]) if t]
    if toks and "@" in toks[-1][2] and toks[-1][2].endswith("."):
        toks[-1] = strip_token(toks[-1], ".") or toks[-1]
    for k, tok in enumerate(toks):
        if "@" in tok[2]:
            first = k - 1 if tok[2].startswith("@") and k > 0 else k
            last = k + 1 if tok[2].endswith("@") and k + 1 < len(toks) else k
            # a captioned field holds one address, which has no spaces: lower-case pieces
            # before the @ are its user part, split where a handwritten or italic hand left
            # gaps ("na thanw@gmail.com"); in prose they are words ("email me at jo@x.org")
            while strong and first > 0 and first > k - 3 and _USER_PIECE.fullmatch(toks[first - 1][2]):
                first -= 1
            if last + 1 < len(toks) and toks[last][2].endswith(".") and \
                    re.fullmatch(r"[a-z]{2,6}", toks[last + 1][2]):
                last += 1    # "thanw@gmail. com"
            return toks[first][0], toks[last][1]
    # OCR dropped the @ ("jsmith©example.com", "jsmith example.com"): trust a strong label
    if strong and toks and re.search(r"\.[A-Za-z]{2,6}$", toks[0][2]) and len(toks[0][2]) >= 6:
        return toks[0][0], toks[0][1]
    # ... also when it left a gap where the @ was: a user name, then a domain
    if strong and len(toks) > 1 and re.fullmatch(r"[\w.+\-]{2,40}", toks[0][2]) and \
            _DOMAIN.fullmatch(toks[1][2]) and not _DOMAIN.fullmatch(toks[0][2]):
        return toks[0][0], toks[1][1]
    return None


_DOMAIN = re.compile(r"[A-Za-z0-9][\w\-]*(?:\.[\w\-]+)*\.[A-Za-z]{2,6}")
_USER_PIECE = re.compile(r"[a-z0-9][a-z0-9._+\-]*")


# A mailbox whose @ OCR lost, as a person label's value: one word ending in a lower-case
# top-level domain ("cupaynedbecker-avila.com", "dramirezGrodriquez.com"), or a lower-case
# user name, a gap, and a domain ("jadams benton-walsh.org").
_MAILBOX_GLUED = re.compile(r"[A-Za-z0-9][\w+\-]*(?:\.[\w+\-]+)*[\w\-]{3}\.[a-z]{2,6}")
_MAIL_USER = re.compile(r"[a-z0-9][a-z0-9._+\-]{1,39}")


def mailbox_value(tokens: list[Token]) -> tuple[int, int] | None:
    """The value of a person label ("From:", "To:", "Cc:") that is an e-mail address OCR
    read without its @. A person's name never ends in ".com"; a web address ("www.",
    "http") after "From:" is left to the URL rules."""
    toks = [t for t in (strip_token(t, " ,;:()[]<>\"'") for t in tokens[:2]) if t]
    if not toks or "@" in toks[0][2] or WEB_ADDRESS_START.match(toks[0][2]):
        return None
    if _MAILBOX_GLUED.fullmatch(toks[0][2]):
        return toks[0][0], toks[0][1]
    if len(toks) > 1 and _MAIL_USER.fullmatch(toks[0][2]) and "@" not in toks[1][2] and \
            not WEB_ADDRESS_START.match(toks[1][2]) and _MAILBOX_GLUED.fullmatch(toks[1][2]):
        return toks[0][0], toks[1][1]
    return None


def online_value(tokens: list[Token], vocab: Vocab) -> tuple[int, int] | None:
    toks = [t for t in (strip_token(t) for t in tokens[:3]) if t]
    if not toks:
        return None
    t = toks[0][2]
    if len(t) < 3 or t.lower() in vocab.not_names or not re.fullmatch(r"[\w.\-@/:~+%?=&#]+", t):
        return None
    if len(toks) > 1 and re.fullmatch(r"(?i)(?:https?://|ftp://|www\.|https?:|www)", t) and \
            re.fullmatch(r"[\w.\-@/:~+%?=&#]+", toks[1][2]):
        return toks[0][0], toks[1][1]    # "www. shepard.com": OCR cut the address after its prefix
    return toks[0][0], toks[0][1]


# A user name, handle or host as running text writes it: lower-case letters and digits,
# perhaps with . _ - ("jdoe42", "m.lopez", "kbrown").
_HANDLE = re.compile(r"[a-z0-9][a-z0-9._\-]{2,31}")


def online_value_in_prose(tokens: list[Token], vocab: Vocab) -> tuple[int, int] | None:
    """The value of an online-id label in running text, written without its colon ("the
    vendor portal: user kbrown."): only the next token, and only when it can be nothing
    but an identifier (lower case letters, digits and . _ -, no English word), so that "user
    guide" or "login page" stay text."""
    st = strip_token(tokens[0], STRIP + ".!?") if tokens else None
    if st is None:
        return None
    t = st[2]
    if not _HANDLE.fullmatch(t) or t in vocab.not_names or is_common_word(t.strip("._-")):
        return None
    return st[0], st[1]
