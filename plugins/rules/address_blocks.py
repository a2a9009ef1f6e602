"""Postal blocks: the address line hits of a page (``addresses``) grown into one value per
block, the way a letterhead, an envelope window or a form prints an address: a delivery line
(house number, PO box, a room or suite) over a city line, the lines of one block aligned
(left, centred or right), a city line that OCR cut into parts along its row, a building or
unit line between street and city, a country line closing an international block, and the
addressee's name above it."""
from __future__ import annotations

import re

from redactor.plugin_api import ADDRESS_FIELD_CAPTIONS, PageView, form_words, is_address_caption, only_form_words
from redactor_plugins.rules.address_line_parts import BlockLineParts
from redactor_plugins.rules.address_patterns import compile_address_regexes
from redactor_plugins.rules.addresses import (CITY_TAIL_GAP, ENDS_ADDRESS, HOUSE_NUMBER_CONFUSIONS, JUNK_LEAD,
                                              NEEDS_COMPANY, ROW_CHAIN, RULES, SCORES, SEGMENT_GAP, WHOLE_LINE, LineHit,
                                              addressee_above, line_segments, raw_hits, seg_runs, word_x0)
from redactor_plugins.rules.blocks import country_line, region_line
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.lexicon import Vocab


# The head of a government body's name ("Department of Justice", "MINISTRY OF LABOUR")
_BODY_NAME = re.compile(r"(?i)\b(?:department|dept\.?|ministry|bureau|agency)[ ]+of\b")
# Postcodes that close a block on a line of their own or after the town.
POSTCODES = frozenset({"uk_postcode", "ca_postcode"})
# text heights: a form's City | State | ZIP cells on one fill-in line lie up to this far apart
FORM_CELL_GAP = 12.0


class AddressPage(BlockLineParts):
    """One page's address segments (cells of its lines) and the line hits on them, with the
    neighbourhood queries that grow a block from them."""

    def __init__(self, layout: PageView, vocab: Vocab, label_regex: re.Pattern | None = None):
        self.layout, self.vocab = layout, vocab
        self.rx = compile_address_regexes(vocab)
        self.segs, self.seg_of = line_segments(layout)
        self.by_seg: dict[int, list[LineHit]] = {}
        for h in raw_hits(layout, self.rx, self.segs, self.seg_of, label_regex):
            self.by_seg.setdefault(h.seg, []).append(h)
        self.text = layout.page.text
        # street lines whose city the line under carries on with its state and ZIP: their
        # value runs to the line's end (``state_zip_under_tail``)
        self.wrapped: set[int] = set()
        # lines that read "Town, State" (perhaps with a ZIP OCR garbled) and hold no hit:
        # a city line only under a delivery line (``town_blocks``)
        self.town_segs = [j for j, seg in enumerate(self.segs) if j not in self.by_seg and
                          self.rx.town_under_street.fullmatch(self.seg_text(j))]

    def seg_text(self, i: int) -> str:
        return self.text[self.layout.offsets[self.segs[i][0]][0]:
                         self.layout.offsets[self.segs[i][-1]][1]].replace("\n", " ").strip()

    def seg_box(self, i):
        ws = self.segs[i]
        return (min(self.layout.words[w].bbox[0] for w in ws), min(self.layout.words[w].bbox[1] for w in ws),
                max(self.layout.words[w].bbox[2] for w in ws), max(self.layout.words[w].bbox[3] for w in ws))

    def seg_below(self, i: int, anchor: float) -> int | None:
        """The nearest segment under segment i that starts near ``anchor``."""
        x0, y0, x1, y1 = self.seg_box(i)
        h = self.layout.line_of_word(self.segs[i][0]).height
        best = None
        for j, seg in enumerate(self.segs):
            bx0, by0, bx1, by1 = self.seg_box(j)
            if (by0 + by1) / 2 <= y1 or by0 - y1 > 1.2 * h:
                continue
            starts = [w for w in seg if abs(self.layout.words[w].bbox[0] - anchor) <= 1.5 * h]
            hit_starts = [hh for hh in self.by_seg.get(j, [])
                          if abs(word_x0(self.layout, hh.start) - anchor) <= 1.5 * h]
            # letterheads centre or right-align their lines: an address line of such a
            # block lies under the middle (or the right end) of the one above
            # (a receipt centres each line by its own length: the shorter line lies within
            # the longer one's width, their centres as far apart as a character or two)
            centred = j in self.by_seg and (abs((bx0 + bx1) / 2 - (x0 + x1) / 2) <= 1.5 * h or
                                            abs(bx1 - x1) <= 1.5 * h or
                                            (abs((bx0 + bx1) / 2 - (x0 + x1) / 2) <= 3 * h and
                                             (x0 - h <= bx0 and bx1 <= x1 + h or bx0 - h <= x0 and x1 <= bx1 + h)))
            if not starts and not hit_starts and not centred:
                continue
            if best is None or by0 < self.seg_box(best)[1]:
                best = j
        return best

    def seg_right(self, i: int) -> int | None:
        """A city line that continues street line i on its row ("30420 Paula Plains, New
        Jessicaland, SD 49285" that OCR cut into two lines): the address segment just right
        of it, overlapping it vertically, closer than a cell gap."""
        x0, y0, x1, y1 = self.seg_box(i)
        h = self.layout.line_of_word(self.segs[i][0]).height
        for j in self.by_seg:
            bx0, by0, bx1, by1 = self.seg_box(j)
            # the city line may start after the unit number the street line left over
            # ("77427 Sylvia Falls Apt." | "892, Lowerymouth, NV 89856")
            heads = {self.segs[j][0]} | ({self.segs[j][1]} if len(self.segs[j]) > 1 and re.fullmatch(
                r"#?\d{1,5}[A-Za-z]?,?", self.layout.words[self.segs[j][0]].text) else set())
            if j != i and 0 <= bx0 - x1 <= SEGMENT_GAP * h and \
                    min(y1, by1) - max(y0, by0) >= 0.5 * min(y1 - y0, by1 - by0) and \
                    any(hh.kind == "city_line" and self.layout.word_at(hh.start) in heads
                        for hh in self.by_seg[j]):
                return j
        return None

    def row_chain(self, i: int, gap: float = SEGMENT_GAP, aligned: bool = False) -> list[int]:
        """The segments that continue segment i to its right on its row, nearest first:
        OCR cut one printed line into several ("21925 Cynthia Cliff, Lake Diana," | "ND
        34590"), often giving each its own line and putting other text between them.
        ``aligned``: a segment whose middle is level with the last one's (within 0.4 h)
        goes first, so a caption printed close under a form's row is not taken for it."""
        chain: list[int] = []
        cur = i
        while len(chain) < ROW_CHAIN:
            x0, y0, x1, y1 = self.seg_box(cur)
            h = self.layout.line_of_word(self.segs[cur][0]).height

            def rank(j):
                bx0, by0, bx1, by1 = self.seg_box(j)
                return (aligned and abs((by0 + by1) - (y0 + y1)) / 2 > 0.4 * h, bx0)

            best = None
            for j in range(len(self.segs)):
                if j == i or j in chain:
                    continue
                bx0, by0, bx1, by1 = self.seg_box(j)
                if 0 <= bx0 - x1 <= gap * h and \
                        min(y1, by1) - max(y0, by0) >= 0.5 * min(y1 - y0, by1 - by0) and \
                        (best is None or rank(j) < rank(best)):
                    best = j
            if best is None:
                break
            chain.append(best)
            cur = best
        return chain

    def city_continuation(self, i: int, start: int, wide: bool = False) -> list[int]:
        """The segments right of segment i that, read after its text from ``start`` on,
        make a city line ("Lake Diana," + "ND 34590"); empty when they do not. ``wide``:
        the next segment only, up to CITY_TAIL_GAP away, where OCR dropped the end of the
        city's name and its comma ("Victoriah" ... "CA 91444")."""
        tail = self.text[start:self.layout.offsets[self.segs[i][-1]][1]]
        chain = self.row_chain(i, CITY_TAIL_GAP)[:1] if wide else self.row_chain(i)
        for k, j in enumerate(chain):
            tail += " " + self.text[self.layout.offsets[self.segs[j][0]][0]:self.layout.offsets[self.segs[j][-1]][1]]
            if self.rx.city_line.fullmatch(tail.strip(" ,;|").replace("\n", " ")):
                return chain[:k + 1]
        return []

    def form_row_continuation(self, i: int, start: int) -> list[int]:
        """The cells right of segment i on a form's address row that, read after its text
        from ``start`` on, make a city line, its ZIP perhaps misread ("S. SAN FRANCISCO." |
        "CA" | "$4080"): a form prints the row's field captions ("City State Zip Code")
        under its fill-in line, so a caption under the cells is asked for; empty otherwise."""
        tail = self.text[start:self.layout.offsets[self.segs[i][-1]][1]]
        chain = self.row_chain(i, FORM_CELL_GAP, aligned=True)
        for k, j in enumerate(chain):
            tail += " " + self.seg_text(j)
            if self.rx.city_line_loose.fullmatch(tail.strip(" ,;|").replace("\n", " ")) and \
                    self._captioned_below([i, *chain[:k + 1]]):
                return chain[:k + 1]
        return []

    def _captioned_below(self, segs: list[int]) -> bool:
        """Whether an address field's caption stands just under these segments of a row."""
        x0 = min(self.seg_box(j)[0] for j in segs)
        x1 = max(self.seg_box(j)[2] for j in segs)
        y0 = min(self.seg_box(j)[1] for j in segs)
        y1 = max(self.seg_box(j)[3] for j in segs)
        h = self.layout.line_of_word(self.segs[segs[0]][0]).height
        # a skewed scan's caption may start above the row's lowest cell's foot
        return any(x0 - h <= w.bbox[0] and w.bbox[2] <= x1 + h and w.bbox[1] >= y0 + 0.5 * h and
                   w.bbox[1] - y1 <= 1.5 * h and
                   re.sub(r"[^a-z]", "", w.text.lower()) in ADDRESS_FIELD_CAPTIONS
                   for w in self.layout.words)

    def state_zip_under_tail(self, i: int, used: set[int]) -> int | None:
        """The state and ZIP a narrow column wrapped under the city that ends street line i
        ("Chicago Ctr, 233 Nr Michigan Ave., Chicago" / "IL 60611", the second line starting
        under the first one's last words, or at the cell's left edge as left-aligned text
        wraps: "545 BOYLSTON STREET, SUITE 801 BOSTON" / "MA 02116" in a filing's address
        cell): the segment right below, read after those words, makes a city line."""
        x0, y0, x1, y1 = self.seg_box(i)
        h = self.layout.line_of_word(self.segs[i][0]).height
        words = [self.layout.words[w].text for w in self.segs[i]]
        for j, seg in enumerate(self.segs):
            if j == i or j in used or len(seg) > 3:
                continue
            bx0, by0, bx1, by1 = self.seg_box(j)
            below = self.seg_text(j)
            under_tail = x0 < bx0 <= x1 and bx1 >= x1 - h
            # at the left edge only a state and ZIP alone: any other line there is the
            # block's next line ("Suite 1100" under "1455 Pennsylvania Avenue, N.W.")
            wrapped = abs(bx0 - x0) <= h and self.rx.state_zip.fullmatch(below.strip(" ,;|")) is not None
            if (by0 + by1) / 2 <= y1 or by0 - y1 > 1.2 * h or not (under_tail or wrapped):
                continue
            for k in (1, 2, 3):
                if k < len(words) and self.rx.city_line.fullmatch(
                        (" ".join(words[-k:]) + " " + below).strip(" ,;|")):
                    return j
        return None

    def delivery_line_above(self, i: int) -> int | None:
        """The line right over a city line that opens its address on its own: the
        delivery line (house number or PO box first) that the street patterns did not read
        ("935. Manning Mall: Apt:.. 922"), aligned with the city line (left, centre or
        right) at ordinary line spacing."""
        x0, y0, x1, y1 = self.seg_box(i)
        h = self.layout.line_of_word(self.segs[i][0]).height
        # the city line's own left edge: a form's caption may share its cell ("Address
        # New York, NY 10019" under "1285 Avenue of the Americas")
        x0 = min([word_x0(self.layout, hh.start) for hh in self.by_seg.get(i, []) if hh.kind in ENDS_ADDRESS]
                 or [x0])
        best = None
        for j, seg in enumerate(self.segs):
            bx0, by0, bx1, by1 = self.seg_box(j)
            if j == i or (by0 + by1) / 2 >= y0 or y0 - by1 > 1.2 * h or by1 < y0 - 3 * h:
                continue
            if not (abs(bx0 - x0) <= 1.5 * h or abs((bx0 + bx1) - (x0 + x1)) / 2 <= 1.5 * h or
                    abs(bx1 - x1) <= 1.5 * h):
                continue
            if best is None or by1 > self.seg_box(best)[3]:
                best = j
        # a line the patterns only guessed at ("27320 Brittany Croasing" read like a
        # postcode and town) is still the delivery line a city line under it completes
        if best is None or len(self.segs[best]) > 8 or \
                (best in self.by_seg and not {hh.kind for hh in self.by_seg[best]} <= NEEDS_COMPANY):
            return None
        words = [self.layout.words[w].text for w in self.segs[best]]
        first = words[0].lstrip(JUNK_LEAD)
        # the house number as OCR may read it ("$367", "S42" for 5367, 542): a real digit
        # in it, the rest digit-like; a number before a colon is a caption's misread ("10:"
        # for "TO:") or a time
        if any(c.isdigit() for c in first):
            first = first.translate(HOUSE_NUMBER_CONFUSIONS)
        # ... or the room, suite or floor of a building that has no street number of its own
        # ("Room 43, State House" over "Providence, Rhode Island 02903")
        unit = first.lower().rstrip(".,:") in self.vocab.unit_designators and len(words) > 1 and \
            re.match(r"#?\d{1,5}[A-Za-z]?,?$", words[1]) is not None
        if any("@" in w for w in words) or \
                not (unit or re.match(r"\d{1,6}\b(?![/.\-]\d|:)|(?i:p\W{0,3}o\W{0,3}box)", first)) or \
                not any(c.isalpha() for w in words[1:] for c in w):
            return None
        # a form's numbered item is no house number: "1. Name of registrant" over its
        # answer "JETRO, New York" (the item's number, then only the form's own words)
        if re.fullmatch(r"\d{1,2}[.,)]", first) and only_form_words(" ".join(words[1:])):
            return None
        # a government body's name over its city line is the form's letterhead ("UNITED
        # STATES DEPARTMENT OF JUSTICE / WASHINGTON, D.C. 20530", a stamp's stray figure
        # before it): no delivery line
        if _BODY_NAME.search(" ".join(words)):
            return None
        return best

    def town_blocks(self, used: set[int]) -> list[Hit]:
        """A "Town, State" line right under a delivery line the patterns did not read as a
        street ("414 Biscayne Building" over "Miami, Florida"): a building's address in a
        letter or on a form, the two lines one block. Only what ``used`` left."""
        out = []
        for j in self.town_segs:
            above = self.delivery_line_above(j)
            if j in used or above is None or above in used:
                continue
            used.update((above, j))
            ranges = [self.layout.span_of_words(self.segs[b]) for b in (above, j)]
            if not self.text[ranges[0][1]:ranges[1][0]].strip(" \n,;|"):
                ranges = [(ranges[0][0], ranges[1][1])]
            out.extend(Hit("address_block", ss, ee, SCORES["street"]) for ss, ee in ranges)
        return out

    def kinds(self, block) -> set[str]:
        return {h.kind for b in block for h in self.by_seg.get(b, [])}

    def row_links(self, order: list[int]) -> dict[int, list[int]]:
        """Street segment -> the city segment(s) right of it on its row."""
        row_next: dict[int, list[int]] = {}
        for si in order:
            kinds = self.kinds([si])
            if kinds & {"street", "po_box"} and not kinds & ENDS_ADDRESS:
                nxt = self.seg_right(si)
                if nxt is not None:
                    row_next[si] = [nxt]
                else:
                    chain = self.city_continuation(si, max(h.end for h in self.by_seg[si]))
                    if chain:
                        row_next[si] = chain
        return row_next

    def grow_block(self, si: int, anchor: float, used: set[int],
                   row_next: dict[int, list[int]]) -> tuple[list[int], int | None]:
        """The segments of the block that segment si opens (its delivery line above when si
        is a city line), and that delivery line (None)."""
        block, delivery = [si], None
        if self.kinds([si]) <= ENDS_ADDRESS:
            above = self.delivery_line_above(si)
            if above is not None and above not in used:
                block.insert(0, above)
                delivery = above
        cur, closed = si, False
        if si in row_next and not used.intersection(row_next[si]):
            block.extend(row_next[si])
            cur = row_next[si][-1]
            closed = cur not in self.by_seg   # a city line made of row parts
        while not closed:
            cur = self._next_lines(block, cur, anchor, used)
            closed = cur is None
        # an international block closes with its state's line ("40400 Shah Alam" / "Selangor
        # Darul Ehsan") and its country's ("75116 Paris" / "France")
        for closing in (region_line, country_line):
            # (under the line's start when the town stands after the delivery part on it)
            last = (self.seg_below(block[-1], anchor) or self.seg_below(block[-1], self.seg_box(block[-1])[0])) \
                if self.kinds(block) & ENDS_ADDRESS else None
            if last is not None and last not in used and last not in self.by_seg and \
                    closing(self.layout, self.segs[last]):
                block.append(last)
        return block, delivery

    def _next_lines(self, block: list[int], cur: int, anchor: float, used: set[int]) -> int | None:
        """Extend ``block`` below segment ``cur``; the segment to go on from, None when the
        block is closed."""
        if self.kinds([cur]) & ENDS_ADDRESS:
            return None   # the city/postcode line closes an address: what follows is not it
        wrapped = self.state_zip_under_tail(cur, used)
        if wrapped is not None:
            self.wrapped.add(cur)
            block.append(wrapped)
            return None
        nxt = self.seg_below(cur, anchor)
        if nxt is None or nxt in used:
            return None
        if nxt in self.by_seg:
            block.append(nxt)
            return nxt
        # under a street line, a place and a real state code and ZIP on the next line are
        # its city line even across the gap of words OCR did not read
        start = self.layout.offsets[self.segs[nxt][0]][0]
        chain = self.city_continuation(nxt, start) or self.city_continuation(nxt, start, wide=True)
        if not chain and self.kinds([cur]) & {"street", "po_box"}:
            chain = self.form_row_continuation(nxt, start)
        if chain and not used.intersection(chain):
            block.extend([nxt, *chain])   # "Brownchester," | "NJ 41041": a city line in parts
            return None
        if self.kinds([cur]) & {"street", "po_box"} and nxt in self.town_segs:
            block.append(nxt)   # "245 Park Avenue" / "New York, New York IOOI7"
            return None
        nxt2 = self.seg_below(nxt, anchor)
        # a short line, or a building's line with its suite or floor ("Marquis One Tower,
        # Suite 2208"), between the street line and the city line is the block's
        if nxt2 is not None and nxt2 in self.by_seg and \
                (len(self.segs[nxt]) <= 4 or self.unit_line(self.segs[nxt])) and \
                not any("@" in self.layout.words[w].text for w in self.segs[nxt]):
            block.extend([nxt, nxt2])
            return nxt2
        # a British block gives its town and its county a line each before the postcode
        # ("Harrogate" / "North Yorkshire" / "HG1 5JP")
        if nxt2 is not None and nxt2 not in used and nxt2 not in self.by_seg and \
                self.place_line(nxt) and self.place_line(nxt2):
            nxt3 = self.seg_below(nxt2, anchor)
            if nxt3 is not None and nxt3 not in used and self.kinds([nxt3]) & POSTCODES:
                block.extend([nxt, nxt2, nxt3])
                return None
        return None

    def place_line(self, i: int) -> bool:
        """A line that is a town's or a county's name alone: one to three capitalised words,
        at most half of them the form's own vocabulary ("North Yorkshire", not "Total Due")."""
        words = [self.layout.words[w].text.strip(",.") for w in self.segs[i]]
        return 1 <= len(words) <= 3 and all(w[:1].isupper() and w.replace("-", "").isalpha() for w in words) \
            and 2 * sum(w.lower() in form_words() for w in words) <= len(words)

    def _after_caption(self, seg: list[int]) -> list[int]:
        """A line's words without the "Address" caption opening it: a form prints its field's
        caption at the start of the value's line (a filing's "Name ... Address Kansas City,
        MO 64112"), and the caption is the form's, no part of the address (OCR may misread
        its first letters: "4dress")."""
        words = self.layout.page.words
        k = 0
        while k < len(seg) - 1 and is_address_caption(words[seg[k]].text):
            k += 1
        return seg[k:]

    def block_hits(self, block: list[int], delivery: int | None, rows: set[int], anchor: float) -> list[Hit]:
        """The block's hits: its lines joined into one value where only separators lie
        between them in the text, and the addressee above it. ``rows``: segments that are
        parts of one printed row (taken whole, like the delivery line)."""
        kinds = self.kinds(block)
        score = max(SCORES[k] for k in kinds)
        if len(block) > 1:
            score = min(0.89, score + 0.04)   # still a pattern: below the label band (0.9)
        runs = []
        for b in block:
            # a postcode's line in a block is the block's city line: its town and province
            # are the address's too ("Montréal (Québec) H3B 4W8")
            if b in rows or b == delivery or b not in self.by_seg or self.kinds([b]) & WHOLE_LINE or \
                    (len(block) > 1 and self.kinds([b]) <= POSTCODES):
                runs.append(self.layout.span_of_words(self._after_caption(self.segs[b])))
            else:
                seg_r = seg_runs(self.text, self.by_seg[b])
                if b in self.wrapped:   # the city that its state and ZIP under it complete
                    seg_r[-1] = (seg_r[-1][0], self.layout.offsets[self.segs[b][-1]][1])
                if self.line_start_is_address(b, block, seg_r[0][0]):
                    seg_r[0] = (self.layout.offsets[self.segs[b][0]][0], seg_r[0][1])
                if b != block[-1] and self.district_after(b, seg_r[-1][1]):
                    seg_r[-1] = (seg_r[-1][0], self.layout.offsets[self.segs[b][-1]][1])
                runs.extend(seg_r)
        ranges: list[tuple[int, int]] = []
        for ss, ee in runs:
            if ranges and ranges[-1][1] <= ss and not self.text[ranges[-1][1]:ss].strip(" \n,;|"):
                ranges[-1] = (ranges[-1][0], ee)
            else:
                ranges.append((ss, ee))
        out = []
        if block[0] not in self.by_seg or any(self.kinds([b]) & {"street", "po_box"} for b in block):
            out.extend(addressee_above(self.layout, self.vocab, self.segs, self.seg_box, block[0], anchor))
        rule = "address_block" if len(block) > 1 else RULES[sorted(kinds)[0]]
        return out + [Hit(rule, ss, ee, score) for ss, ee in ranges]


def find_address_hits(layout: PageView, vocab: Vocab, label_regex: re.Pattern | None = None) -> list[Hit]:
    """Address hits of the page; ``label_regex`` (the label lexicon's) vetoes city lines
    that are really a label and its value."""
    page = AddressPage(layout, vocab, label_regex)
    order = sorted(page.by_seg, key=lambda i: (page.seg_box(i)[1], page.seg_box(i)[0]))
    row_next = page.row_links(order)
    row_prev = {v: k for k, vs in row_next.items() for v in vs}
    rows = set(row_next) | set(row_prev)
    out: list[Hit] = []
    used: set[int] = set()
    for si in order:
        if si in row_prev and row_prev[si] not in used:
            si = row_prev[si]   # a block starts at its street line, not at the city beside it
        if si in used:
            continue
        # a block's lines align with its first line's start: the hit's, or the unit's before
        # it ("Unit 7, Orwell Business Park" / "Ipswich IP3 9QR")
        anchor = page.seg_box(si)[0] if page.opens_with_unit(si) else \
            word_x0(layout, min(h.start for h in page.by_seg[si]))
        block, delivery = page.grow_block(si, anchor, used, row_next)
        if not [k for k in page.kinds(block) if k not in NEEDS_COMPANY] and \
                len([b for b in block if b in page.by_seg]) < 2 and not page.street_and_town(block[0]) and \
                not page.closed_by_region(block) and not page.country_closes_line(block):
            continue   # a lone EU-style line is too weak on its own (a city line under it may
                       # still take it as its delivery line)
        used.update(block)
        out.extend(page.block_hits(block, delivery, rows, anchor))
    return out + page.town_blocks(used)
