"""The address of the public authority that issued a form, printed by the form's publisher
(its mailing address, and its web address).

Government forms print the issuing body's mailing address in their header and in their
instructions ("U.S. Department of Justice / Washington, DC 20530", "... to the Office of
Management and Budget, Washington, DC 20503"): the same text on every copy anyone files,
like the form's OMB number, so not data about anyone (the real set's GUIDE leaves it out as
the form's own print). Its town and state are found as places and its city line as an
address by every detector; this module finds those city lines so that the pipeline drops
the spans that lie inside them. A filer's own address ("Foley, Hoag &
Eliot LLP / 1747 Pennsylvania Ave., N.W. / Washington, D.C. 20006") follows no authority's
name and stays.

Pure functions on the page text."""
from __future__ import annotations

import re
from typing import Sequence

from redactor.model import Span

# The name of a government body: a department, an office, a bureau, an agency or a service
# named "of" its field, or a national revenue or immigration service.
# (a name hyphenated at a line's end, "De-\npartment", is one word)
_AUTHORITY = (r"(?:Department|De-\s?partment|Dept\.?|DEPARTMENT|DEPT\.?)\s+[Oo][Ff]\s+(?:[Tt]he\s+)?[A-Z][A-Za-z]+"
              r"|(?:Office|OFFICE|Bureau|BUREAU|Agency|AGENCY|Administration)\s+[Oo][Ff]\s+[A-Z][A-Za-z]+"
              r"(?:\s+(?:and|&)\s+[A-Z][A-Za-z]+)?"
              r"|Internal\s+Revenue\s+Service|Social\s+Security\s+Administration")
# Its city line: a town, a state (a two-letter code or D.C. as typed or read), a ZIP.
# (a town name hyphenated at a line's end, "Washing-\nton", is one word)
_CITY_LINE = (r"[A-Z][A-Za-z]+(?:-\n[a-z]+)?(?:\s[A-Z][A-Za-z]+)?,?\s*(?:D\.?\s?C\.?|[A-Z]\.?\s?[A-Z]\.?)\s*[,.]?"
              r"\s*\d{5}(?:-\d{4})?")
# Between the two: at most this many words (the form's title printed beside the body's name
# in the header, a comma-separated sequence of the body's units) and one blank line.
_BETWEEN = r"(?P<between>[,;]?(?:[ \t]+[^\s]+){0,8}?[,;]?\s{1,3})"
_AUTHORITY_CITY = re.compile(rf"(?:{_AUTHORITY}){_BETWEEN}(?P<city>{_CITY_LINE})")
# A street line between them is an office's own address ("Bermuda Department of Tourism,
# 630 Fifth Avenue, New York"): a body that receives visitors, not the form's publisher.
_HOUSE_NUMBER = re.compile(r"(?<![\w.])\d{1,5}[A-Za-z]?[ ]+[A-Z]")


# A federal form's header block prints the authority's name, the form's title, its control
# number and the expiry of its approval, and the city line under them: the city line right
# under the control number or the approval's expiry is the publisher's too ("OMB No.
# 1105-0006 / Approval Expires Nov. 30, 1993 / Washington, DC 20530").
_HEADER_CITY = re.compile(rf"(?i:approval\s+expires|\bO\.?M\.?B\.?\s+N[oe]\.?)[^\n]{{0,40}}\n{{1,3}}"
                          rf"(?P<city>{_CITY_LINE})")


# The authority's seat its instructions name, without a ZIP: "the posted business hours of
# the Registration Unit in Washington, D.C.". A government's named unit ("Registration
# Unit", "Counterespionage Section"), "in" or "at", its town and state. A department named
# with its town ("Department of Tourism, Atlanta, GA") is an office that receives visitors,
# and its town stays a place.
_UNIT = r"[A-Z][A-Za-z]+\s+(?:Unit|UNIT|Section|SECTION)"
_AUTHORITY_SEAT = re.compile(rf"{_UNIT}\s+(?:in|at)\s+"
                             rf"(?P<city>[A-Z][A-Za-z]+,?\s*(?:D\.?\s?C\.?|[A-Z]\.?\s?[A-Z]\.?))(?![A-Za-z])")


def authority_city_lines(text: str) -> list[tuple[int, int]]:
    """Character ranges of the city lines that follow a public authority's name, or its
    form's control number or approval in the form's header, and of the seat its instructions
    name after it."""
    lines = {m.span("city") for m in _AUTHORITY_CITY.finditer(text)
             if not _HOUSE_NUMBER.search(m.group("between"))}
    lines |= {m.span("city") for m in _HEADER_CITY.finditer(text)}
    lines |= {m.span("city") for m in _AUTHORITY_SEAT.finditer(text)}
    return sorted(lines)


# A government's own web address: the domains states keep for their public bodies (.gov
# and .mil, a country's .gov.xx/.govt.xx/.gouv.xx, Canada's .gc.ca). Forms and official
# letters print the authority's site for their instructions and e-filing ("www.fara.gov") on
# every copy; it names the authority, nobody who filed. OCR spaces and breaks such an
# address ("http://www. fara.gov.", "bitps.//www. fara" + " gov." after it), so the test
# reads the span's text and the word after it, a space read as the dot it may have been.
_GOVERNMENT_HOST = re.compile(r"\.(?:gov|mil)(?:\.[a-z]{2})?(?![a-z0-9])|\.(?:govt|gouv|gob)\.[a-z]{2}(?![a-z0-9])"
                              r"|\.gc\.ca(?![a-z0-9])", re.IGNORECASE)
_URL_TAIL = 12    # characters after the span that may hold the rest of its host


def is_government_web_address(text: str, span: Span) -> bool:
    rest = text[span.end:span.end + _URL_TAIL].split("\n")[0].split()
    # a space inside is a dot OCR lost or a break it added ("www. fara gov.")
    host = re.sub(r"\s+", ".", " ".join([text[span.start:span.end]] + rest[:1]))
    return "@" not in host and _GOVERNMENT_HOST.search(host) is not None


def drop_authority_addresses(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` without those inside an authority's city line (its places, its address,
    and what a model made of its ZIP: "DC 20530" as a date), and without a government's own
    web address (``is_government_web_address``; an e-mail address stays)."""
    lines = authority_city_lines(text)
    return [s for s in spans if not any(a <= s.start and s.end <= b for a, b in lines) and
            not (s.type == "ONLINE_ID" and is_government_web_address(text, s))]
