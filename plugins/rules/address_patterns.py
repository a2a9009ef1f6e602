"""The patterns of postal address lines, compiled once per vocabulary: US street lines, PO
boxes, city-state-ZIP lines (also as OCR damages them), UK and Canadian postcodes, EU street
and "12345 City" lines, and the lines of Australian, Singaporean, Malaysian and Indian
blocks. ``addresses`` finds them per line segment; ``address_blocks`` joins them."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from redactor_plugins.rules.blocks import international_lists, vocab_list
from redactor_plugins.rules.lexicon import Vocab


def _alt(words, escape=True) -> str:
    ws = sorted({w for w in words if w}, key=len, reverse=True)
    return "|".join(re.escape(w) if escape else w for w in ws)


@dataclass(frozen=True)
class AddressRegexes:
    street: re.Pattern
    po_box: re.Pattern
    city_line: re.Pattern
    city_line_loose: re.Pattern
    uk_postcode: re.Pattern
    ca_postcode: re.Pattern
    eu_street: re.Pattern
    eu_city: re.Pattern
    eu_city_coded: re.Pattern
    state_zip: re.Pattern
    au_city: re.Pattern
    sg_city: re.Pattern
    in_city: re.Pattern
    in_street: re.Pattern
    town_under_street: re.Pattern


def _misread_suffix(word: str) -> str:
    """A street suffix as OCR reads it in a letterhead's small capitals: a D's bowl read as
    an O, an O as a zero ("CLASSEN BLVO.", "PARK R0AD"); words of four letters or more, so
    that "Rd" and "Dr" stay what they are."""
    if len(word) < 4 or not word.isalpha():
        return re.escape(word)
    return "".join("[d0o]" if c == "d" else "[o0]" if c == "o" else re.escape(c) for c in word.lower())


@lru_cache(maxsize=4)
def compile_address_regexes(vocab: Vocab) -> AddressRegexes:
    suffix = _alt([_misread_suffix(w) for w in vocab.street_suffixes], escape=False)
    unit = _alt(vocab.unit_designators)
    dirs = _alt(vocab.directionals)
    states = _alt(vocab.us_states)
    # letterheads and envelopes print the whole address in capitals, as the USPS asks
    # ("MIAMI, FLORIDA 33131")
    state_names = _alt([*vocab.us_state_names, *(n.upper() for n in vocab.us_state_names)])
    provs = _alt(vocab.ca_provinces)
    # "N.Y." is typed "N. Y." as often; OCR drops or doubles the stops
    trad = "|".join(r"\.?[ ]?".join(re.escape(p) for p in a.rstrip(".").split(".")) + r"\.?"
                    for a in sorted(vocab.us_state_traditional, key=len, reverse=True)) or "(?!)"
    # OCR reads a zero in small capitals or a worn letterhead as the letter O ("2OO PARK
    # AVENUE"): after a first figure, an O stands for a zero
    number = r"(?:\d[\dO]{0,5}[A-Za-z]?(?:[\-/]\d{1,5}[A-Za-z]?)?)"
    name_word = r"(?:[A-Z0-9][\w'’.\-]*|(?i:of|the|de|la|del))"
    # OCR reads the unit's stop as a comma ("Apt, 492")
    # ... and a Singaporean unit is its floor and number ("#01-4567")
    # ... or an ordinal floor ("1 Liberty Plaza, 35th Floor"); OCR reads the number sign's
    # two bars as "=" ("SUITE =801")
    # ... and its 8 or 5 as "$" ("Suite $00" for "Suite 800")
    # ... and the comma before the unit as a semicolon ("Avenue NW; Suite. 500"), or the
    # unit glued to the quadrant's stop, its space lost ("1800 K St NW.SUITE 1010")
    unit_part = (rf"(?:[ ]?[,;.]?[ ]?(?i:{unit})[.,]?[ ]?[#=]?[ ]?(?:\$(?=\d))?[A-Za-z0-9][\w\-]{{0,7}}"
                 r"|[ ]?,?[ ]?\d{1,3}(?i:st|nd|rd|th)[ ](?i:floor|fl\.?)(?![\w]))")
    # the unit or floor may open the line ("Level 5, 1 Martin Place", "Suite 200, 1 Main
    # Street"), as Australian and British addresses write it
    lead_unit = rf"(?:(?i:{unit})[.,]?[ ]?#?[ ]?\d{{1,5}}[A-Za-z]?,?[ ]+)?"
    # a form's "ADDRESS" caption with the street typed against it reads as one word
    # ("DDRESS1875 Eye Street", its A lost): the number starts after the caption's letters
    street = re.compile(
        rf"(?:(?<![\w$.,/])|(?<=(?i:DDRESS))){lead_unit}"
        rf"(?:(?i:blk|block)\.?[ ])?(?P<num>{number})[ ]?,?[ ]+(?:(?i:{dirs})[.,]?[ ]+)?"
        rf"(?:{name_word}[ ]+){{1,5}}(?P<suffix>(?i:{suffix}))\.?(?![\w])"
        # Singapore numbers the streets of a town ("Ang Mo Kio Avenue 6", "Jurong West Street 41")
        rf"(?:[ ]\d{{1,3}}[A-Z]?(?![\w/.,]\d))?"
        # the quadrant after the suffix, after a comma too and with its stops ("Ave., N.W.")
        rf"(?:,?[ ]+(?:[NSns]\.[ ]?[EWew]\.|(?i:{dirs})\.?)(?![\w]))?{unit_part}?")
    # OCR reads the O as a zero ("P.0. Box") and the dots as commas or colons
    po_box = re.compile(
        r"(?<![\w])(?i:p[ .,:]{0,2}[o0][ .,:]{0,2}box\.?|post[ ]office[ ]box|pob|pmb|postfach|apartado"
        r"|b\.?p\.?)"
        r"[ ]*#?[ ]*\d{1,7}(?![\w])")
    # OCR sometimes splits a ZIP ("MA 4361 1"): five digits with at most one space inside
    zip_us = r"(?:\d{5}|\d{4}[ ]\d|\d[ ]\d{4}|\d{3}[ ]\d{2}|\d{2}[ ]\d{3})(?:[ ]?-[ ]?\d{4})?"
    ca_pc = r"[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ ]?\d[ABCEGHJ-NPRSTV-Z]\d"
    # OCR splits a long city name ("Lake Ky leton, NM"): a lower-case last piece right
    # before the comma, after a capitalised word
    # The letters whose small form is the capital made smaller (c o s u v w x z) lose
    # their case where OCR has no capital beside them to compare, as a line's first
    # letter ("south Adam, AL 27219"): the first of a place's several words may start
    # with one when at least four letters long.
    first = r"(?:[A-Z]|[cosuvwxz](?=[a-z]{3}))"
    place = (rf"(?:{first}[A-Za-z.'’\-]*[ ](?:[A-Z][A-Za-z.'’\-]*[ ]){{0,2}}[A-Z][A-Za-z.'’\-]*"
             rf"|[A-Z][A-Za-z.'’\-]*"
             rf"|{first}[A-Za-z.'’\-]*[ ](?:[A-Z][A-Za-z.'’\-]*[ ]){{0,2}}[a-z]{{2,}}(?=,))")
    # OCR specks glue to a word's edge ("_New Robertview", "‘IA 22868")
    speck = r"[_‘’'`´|.]?"
    # (a comma OCR read as a stop glued to the state: "NEW YORK.N. Y. 10103")
    city_line = re.compile(
        rf"(?<![\w])(?<!_){speck}(?:{place}[ ]?[,|][ ]?|{place}[ ]+|{place}\.(?=[A-Z])){speck}"
        rf"(?:(?:{states})\.?|{state_names}|(?:{provs})|(?:{trad}))[ ]?[,|]?[ ]+(?:{zip_us}|{ca_pc})(?![\w])")
    # The city line as OCR damages it on a bad scan: the state code misread ("Nj", "VP",
    # "HW"), the ZIP with letters for digits ("[5658", "O8917"; at least three real digits).
    # Only ever taken beside or under a street line (kind "city_line_loose" needs company).
    # "City, ST" without a ZIP is not taken: that is how a place (LOCATION) is written.
    # A misread state code may grow a letter where a "U" is read as "Li" ("UT" -> "Lip").
    zipish = r"[0-9OoIlSsBZzG$£\[(|]{5}(?:[ ]?-[ ]?\d{4})?"
    city_line_loose = re.compile(
        rf"(?<![\w]){speck}{place}[ ]?[,.][ ]?(?:[A-Za-z]{{2}}|L[il1][A-Za-z])\.?[ ]?[,.]?[ ]+{zipish}(?![\w])")
    uk_postcode = re.compile(r"(?<![\w])[A-Z]{1,2}\d[A-Z\d]?[ ]?\d[ABD-HJLNP-UW-Z]{2}(?![\w])")
    ca_postcode = re.compile(rf"(?<![\w]){ca_pc}(?![\w])")
    endings = _alt(vocab.eu_street_endings)
    lead_words = _alt(vocab.eu_street_words)
    eu_street = re.compile(
        rf"(?<![\w])(?:[A-ZÄÖÜ][\wäöüßéèàç.\-]*(?i:{endings})[ ]?,?[ ]?"
        rf"\d{{1,4}}[a-zA-Z]?(?:[\-/]\d{{1,4}})?"
        rf"|(?:(?i:No)\.?[ ]?|(?i:Lot)[ ])?\d{{1,4}}[a-zA-Z]?,?[ ](?i:{lead_words})(?:[ ][\w'’.\-/]+){{1,4}}"
        # ... a name and its number after the street word ("Via Roma 10", "Calle Mayor 5"):
        # written with its capital, so that prose ("place of business at 1200") is none
        rf"|(?=[A-ZÄÖÜ])(?i:{lead_words})(?:[ ][\w'’.\-]+){{1,4}}?,?[ ]\d{{1,4}}[a-zA-Z]?)(?![\w])")
    # ... and a Malaysian one its state after the town ("81000 Kulai, Johor")
    # ... and the country after the town when the block is written on fewer lines
    # ("75002 Paris, France")
    my_states = _alt(vocab_list("my_states")) or r"(?!x)x"
    countries = _alt(vocab_list("countries")) or r"(?!x)x"
    eu_city = re.compile(
        # a Dutch postcode's four figures and two letters, and its town of up to three words
        # ("2517 AB Den Haag", "5211 AB 's-Hertogenbosch", "4611 AA Bergen op Zoom")
        r"(?<![\w.,/\-])\d{4}[ ]?[A-Z]{2}[ ](?:'s-)?[A-Z][\w\-]+(?:[ ](?:op[ ]|aan[ ](?:de[ ])?)?[A-Z][\w\-]+)?"
        rf"(?:,[ ](?i:{countries}))?(?![\w])|"
        # (a Malaysian receipt may put a comma after the five figures: "53200, KUALA LUMPUR")
        r"(?<![\w.,/\-])(?:[A-Z]{1,2}[ ]?-[ ]?)?(?:\d{4,5}|\d{5},)[ ][A-ZÄÖÜÉ][\wäöüßéèàç\-]+"
        # ... a German town named for its river or region ("Frankfurt am Main", "Freiburg im
        # Breisgau", "Neustadt an der Weinstraße")
        r"(?:[ ](?:(?:am|an[ ]der|im|in[ ]der|ob[ ]der|bei)[ ])?[A-ZÄÖÜ][\wäöüßéèàç\-]+)?"
        rf"(?:,?[ ](?i:{my_states}))?(?:,[ ](?i:{countries}))?(?![\w])")
    # European letters wrote the country's code before the postcode ("CH-2003 Neuchâtel",
    # "D-8000 München 40", "F-75008 Paris": the CEPT convention, before 1990s postcodes
    # went national): a postcode so marked is a town line on its own, under a firm's
    # name as much as under a street
    eu_codes = "CH|D|F|I|A|B|NL|L|DK|S|N|SF|FIN|E|P|GR|IRL|FL|H|PL|CS|CZ|YU|M"
    eu_city_coded = re.compile(
        rf"(?<![\w.,/\-])(?:{eu_codes})[ ]?-[ ]?\d{{4,5}}[ ][A-ZÄÖÜÉ][\wäöüßéèàçâ\-]{{2,}}"
        rf"(?:[ ][A-ZÄÖÜ][\wäöüßéèàç\-]+|[ ]\d{{1,2}})?(?:,[ ](?i:{countries}))?(?![\w])")
    # State and ZIP read right after a city name OCR garbled ("mort hina FL 91568": the
    # city and the street line above run together); only taken where the cell's words
    # before it are unsure and none reads as a place word (_garbled_place).
    state_zip = re.compile(rf"(?<![\w])(?:{states})[ ]?,?[ ]+\d{{5}}(?:-\d{{4}})?(?![\w])")
    au_states, _ = international_lists()
    # "Sydney NSW 2000": a town, an Australian state and a four-digit postcode
    au_city = re.compile(rf"(?<![\w])(?:{place})[ ]?,?[ ]+(?:{_alt(au_states)})(?<![.])\.?[ ]+\d{{4}}(?![\w])")
    # "Singapore 179101", "Singapore (179101)": the city state and its six-digit code
    sg_city = re.compile(r"(?<![\w])(?i:singapore)[ ]?,?[ ]?\(?\d{6}\)?(?![\w])")
    # "Bangalore 560001", "Mumbai - 400 021": a town and India's six-digit PIN; the town
    # may stand before its state ("Gurugram, Haryana 122003")
    in_states = _alt(vocab_list("in_states")) or r"(?!x)x"
    in_city = re.compile(rf"(?<![\w])(?:{place},[ ](?=(?i:{in_states})[ ,\-–]))?(?:{place})[ ]?(?:[\-–,][ ]?)?"
                         rf"[1-9]\d{{2}}[ ]?\d{{3}}"
                         rf"(?:,?[ ](?i:{in_states}))?(?![\w])")
    # An Indian delivery line: a flat's, house's or plot's number ("Flat No. 302, Sai
    # Residency", "Plot 14, Sector 21, Kharghar"); the whole line is the address's
    # ("H.No. 221, Sector 15": a house number as Indian addresses abbreviate it)
    in_street = re.compile(r"(?<![\w])(?:(?i:flat|house|plot|door|shop|bungalow)[ ]?(?:(?i:no)\.?[ ]?)?"
                           r"|(?i:h)\.?[ ]?(?i:no)\.?[ ]?)#?"
                           r"\d{1,5}[A-Za-z]?(?:[/\-]\d{1,4})?(?![\w])")
    # Under a street line the town line needs no readable ZIP: the street has opened the
    # block, and letterheads and forms print the town and state there with the ZIP missing
    # ("Miami, Florida") or read as letters ("New York, New York IOOI7", "Wasnmogron, DC
    # ZOCO5-3502": C and D for 0 too). Only ever matched on the line under a street line.
    # ... its five figures perhaps split by a space, a speck read as one more ("[O01 66-4193"),
    # or glued to the state where OCR lost the spaces ("Kansas City,MO64112")
    zip_glyph = r"[0-9OoIlSsBZzGCDQ$£\[(|]"
    zip_misread = (rf"(?=[^ ]*\d)(?:{zip_glyph}{{5,6}}|{zip_glyph}{{2,4}}[ ]{zip_glyph}{{1,3}})"
                   r"(?:[ ]?-[ ]?[0-9OoIlSsBZzGCDQ]{4})?")
    town_under_street = re.compile(
        rf"{speck}{place}[ ]?[,.][ ]?(?:(?:{states})\.?|{state_names}|(?:{provs})|(?:{trad}))"
        rf"(?:[ ]?[,.]?[ ]*{zip_misread})?[ ,.;]*")
    return AddressRegexes(street, po_box, city_line, city_line_loose, uk_postcode, ca_postcode,
                          eu_street, eu_city, eu_city_coded, state_zip, au_city, sg_city, in_city, in_street,
                          town_under_street)
