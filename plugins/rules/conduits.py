"""The intermediary a payment went through, written "(via X)" after the payee: the conduit
that contribution reports name for an earmarked gift ("Van Hollen for Congress (via Act
Blue)"), and the processor or carrier an invoice or a remittance names ("(via PayPal)",
"(via Western Union)", "(via FedEx)"). Real-document convention: a payment passed on by
another party names that party in brackets after the payee, and that party is an
organisation. The channels a document is sent by ("(via fax)", "(via E-mail)", "(via
Certified Mail)") and a person passing it on ("(via John Smith)", a given name first) are
no such party. Pure function on the page text."""
from __future__ import annotations

import re

from redactor.plugin_api import given_names
from redactor_plugins.rules.hits import Hit

SCORE = 0.8     # a name's form, like the legal-form rule: the bracket names its role
MAX_WORDS = 4
# "(via Act Blue)", "(through ActBlue)": the name starts capitalised and fills the bracket
_CONDUIT = re.compile(r"\((?:via|through)[ ]+(?P<name>[A-Z][\w&'’.\-]*(?:[ ][A-Z&][\w&'’.\-]*){0,%d})\)"
                      % (MAX_WORDS - 1))
# how a document itself travels: no party to a payment
CHANNELS = frozenset({"email", "e-mail", "fax", "facsimile", "telefax", "telex", "mail", "post", "courier",
                      "hand", "phone", "telephone", "internet", "web", "online", "wire", "check", "cheque",
                      "cash", "credit", "debit", "card", "messenger", "certified", "registered", "express",
                      "overnight", "airmail", "air", "sea", "ground", "bank", "transfer", "ach", "eft"})


def conduit_hits(text: str) -> list[Hit]:
    out = []
    for m in _CONDUIT.finditer(text):
        words = m.group("name").split()
        if any(w.lower().strip(".") in CHANNELS for w in words):
            continue
        if len(words) > 1 and words[0].upper() in given_names():
            continue    # a person who passed it on
        out.append(Hit("org_conduit", m.start("name"), m.end("name"), SCORE))
    return out
