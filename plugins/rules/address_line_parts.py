"""The words of an address block's lines that lie beside its line hits: a unit, a district
or estate, the delivery part of a block written on one line, a region's or country's line
closing it. Each is the convention of a country's postal blocks (Singapore and Malaysia's
"#24-00", India's "C-14, Sector 62, Noida", Malaysia's "Taman Sri Muda, 40400 Shah Alam",
the UK's "Unit 7, Orwell Business Park"). ``AddressPage`` (address_blocks) asks these."""
from __future__ import annotations

import re

from redactor.plugin_api import form_words
from redactor_plugins.rules.addresses import ENDS_ADDRESS
from redactor_plugins.rules.blocks import country_line, international_lists, region_line

# a Singaporean or Malaysian unit: its floor and its number after a hash ("#24-00", "#03-12A")
_FLOOR_UNIT = re.compile(r"^#\d{1,3}-\d{1,4}[A-Za-z]?,?$")


class BlockLineParts:
    """Queries on the words beside a block's hits; the page's segments (``segs``), their
    hits (``by_seg``), ``layout``, ``text`` and ``vocab`` are the AddressPage's."""

    def opens_with_unit(self, i: int) -> bool:
        """Whether segment i opens with a unit: a unit designator and its number ("Suite
        2208"), or the floor and unit Singapore and Malaysia write after a hash ("#24-00")."""
        ws = [self.layout.words[w].text for w in self.segs[i]]
        return bool(_FLOOR_UNIT.match(ws[0])) or (len(ws) > 1 and self.unit_line(self.segs[i][:2]))

    def line_start_is_address(self, b: int, block: list[int], start: int) -> bool:
        """Whether the words of the block's line b before its hit (at ``start``) are the
        address's too: under the first line, a unit and the building before the city
        ("#24-00 Raffles City Tower, Singapore 179101") or the district or estate before
        the postcode ("Taman Sri Muda, 40400 Shah Alam"); on the first line, a unit alone
        before the street's number ("Unit 7, Orwell Business Park") or, before a town's hit,
        the delivery part of a block written on one line ("C-14, Sector 62, Noida - 201301")."""
        if b != block[0]:
            return self.opens_with_unit(b) or self.district_before(b, start)
        return self.unit_before(b, start) or \
            (self.kinds([b]) <= ENDS_ADDRESS and self.delivery_before(b, start))

    def unit_before(self, i: int, start: int) -> bool:
        """Whether the words of segment i before ``start`` are a unit and its number alone
        ("Unit 7, Orwell Business Park": an industrial estate's unit is the line's only
        number, the street pattern starts after it); "Office:" is a caption."""
        words = [self.layout.words[w].text for w in self.segs[i] if self.layout.offsets[w][1] <= start]
        if len(words) == 1:     # the number opens the street's match ("Unit" | "7, Orwell ...")
            words.append(self.text[start:start + 6].split(" ")[0])
        return len(words) == 2 and not words[0].endswith(":") and \
            words[0].lower().rstrip(".,") in self.vocab.unit_designators and \
            bool(re.fullmatch(r"#?\d{1,5}[A-Za-z]?,?", words[1]))

    def street_and_town(self, i: int) -> bool:
        """Whether segment i holds a delivery line and a town's line after it: the block
        written on one line ("No. 22, Jalan SS 2/55, 47300 Petaling Jaya")."""
        hits = sorted(self.by_seg.get(i, []), key=lambda h: h.start)
        return any(a.kind in {"street", "eu_street", "in_street", "po_box"} and b.kind in ENDS_ADDRESS
                   and b.start >= a.end for a in hits for b in hits)

    def closed_by_region(self, block: list[int]) -> bool:
        """Whether a state's or a country's line closes the block ("Noida - 201301" /
        "Uttar Pradesh"): an international block's structure, not a lone line's shape."""
        return any(b not in self.by_seg and (region_line(self.layout, self.segs[b]) or
                                             country_line(self.layout, self.segs[b])) for b in block[1:])

    def country_closes_line(self, block: list[int]) -> bool:
        """Whether a one-line block's town hit ends with its country's name after a comma
        ("75017 Paris, France"): the last line of an address posted abroad, which names the
        country, written on the line of the postcode and town instead of one of its own."""
        hits = [h for b in block for h in self.by_seg.get(b, []) if h.kind in ENDS_ADDRESS]
        countries = international_lists()[1]
        return any(", " in self.text[h.start:h.end] and
                   self.text[h.start:h.end].rsplit(", ", 1)[1].strip(" .").upper().replace(".", "") in countries
                   for h in hits)

    def delivery_before(self, i: int, start: int) -> bool:
        """Whether the words of segment i before ``start`` (its town's hit) are the delivery
        part of an address written on one line: a house's, a plot's or a block's number and
        its sector or road ("C-14, Sector 62, Noida - 201301"), up to six words, one with a
        figure, ending in a comma."""
        words = [w for w in self.segs[i] if self.layout.offsets[w][1] <= start]
        names = [self.layout.words[w].text.strip(",.") for w in words]
        return 1 <= len(names) <= 6 and self.layout.words[words[-1]].text.endswith(",") and \
            any(c.isdigit() for n in names for c in n) and \
            all(re.fullmatch(r"[A-Z0-9][A-Za-z0-9\-/()]*", n) for n in names) and \
            not any(n.lower() in form_words() for n in names)

    def district_before(self, i: int, start: int) -> bool:
        """Whether the words of segment i before ``start`` (its city hit) are a district's
        or an estate's name and its comma: one to four capitalised words, none the form's
        own vocabulary, as Malaysian, Indian and British blocks put them before the town."""
        words = [w for w in self.segs[i] if self.layout.offsets[w][1] <= start]
        return bool(words) and self.layout.words[words[-1]].text.endswith(",") and self._place_words(words)

    def district_after(self, i: int, end: int) -> bool:
        """Whether the words of segment i after ``end`` (its street hit) are the district the
        delivery line names after its street ("Lot 2, Jalan PJU 1A/20B, Ara Damansara,"):
        after a comma, one to four capitalised words; or the building's floor or suite."""
        words = [w for w in self.segs[i] if self.layout.offsets[w][0] >= end]
        return bool(words) and self.text[end:self.layout.offsets[words[0]][0]].strip() == "," and \
            (self._place_words(words) or self._unit_words(words))

    def _unit_words(self, words: list[int]) -> bool:
        """A building's floor or suite after its street ("1285 Avenue of the Americas, 4th
        Floor", "..., Suite 200"): a unit designator and its number or ordinal."""
        names = [self.layout.words[w].text.strip(",.") for w in words]
        return len(names) <= 3 and any(n.lower() in self.vocab.unit_designators for n in names) and \
            any(re.fullmatch(r"#?\d{1,5}(?:st|nd|rd|th)?[A-Za-z]?", n, re.I) for n in names)

    def _place_words(self, words: list[int]) -> bool:
        names = [self.layout.words[w].text.strip(",.") for w in words]
        return len(names) <= 4 and all(n[:1].isupper() and (n.replace("-", "").isalpha() or n.isdigit())
                                       for n in names) and not any(n.lower() in form_words() for n in names)

    def unit_line(self, seg: list[int]) -> bool:
        """Whether the words of ``seg`` hold a unit designator and its number ("Suite 2208")."""
        ws = [self.layout.words[w].text for w in seg]
        return len(ws) <= 8 and any(a.lower().rstrip(".,:") in self.vocab.unit_designators and
                                    re.match(r"#?\d{1,5}[A-Za-z]?,?$", b) for a, b in zip(ws, ws[1:]))

