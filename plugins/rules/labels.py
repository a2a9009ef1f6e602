"""Label-driven key-value rules: find label phrases ("Acct #", "Name:", "Bill To") on the page
and give their type to the value beside them (right, same line) or under them (next line in
the label's column: form cells and table headers), using the word boxes."""
from __future__ import annotations

import re

from redactor_plugins.rules import contact_values as C
from redactor_plugins.rules import values as V
from redactor_plugins.rules.caption_names import find_caption_name_hits
from redactor_plugins.rules.blocks import lines_under, runs_to_ranges
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.label_geometry import BELOW_GAP, RIGHT_GAP_STRONG, LabelGeometry
from redactor_plugins.rules.label_phrases import JUNK, LabelHit, find_labels, stop_starts
from redactor.plugin_api import UNSURE_CONF, PageView, paragraph_breaks, veto_words
from redactor_plugins.rules.people import NOT_INITIALS, place_with_compass, plausible_name
from redactor_plugins.rules.lexicon import LabelGroup, LabelLexicon, Vocab, normalise_label

MAX_TABLE_ROWS = 40
_CAPTION_WORD_COLON = re.compile(r"[A-Za-z][A-Za-z'’./\-]*:")
MAX_PARTY_LEAD = 3       # name, job title and company lines over a party's street line
MIN_ADDRESS_CHARS = 3    # letters and figures an address value holds at least
MAX_LISTED_NAMES = 8
# kinds of value a label in running text may find at the start of the next line: shapes
# that a value parser checks (digits, an @, a made-up user name), never a person's name
WRAPPED_KINDS = ("id", "phone", "card", "email", "online")
# kinds of value that stand right of their caption only: under a bare "No." heading a
# table's column are its rows' numbers (1, 2, 3), not a reference
RIGHT_ONLY_KINDS = ("number",)
# A strong label's unreadable value (LabelRules._unreadable_value): words read below
# UNSURE_CONF are unsure; at most this many words by kind of value are taken, with at least
# this many letters and digits; the score says "label, but no value shape". A form's "Date
# ____" line is filled in by hand like its name ("6/21/90" read as "A Les [Fo").
UNREADABLE_WORDS = {"name": 3, "phone": 4, "id": 3, "card": 4, "email": 2, "online": 2, "date": 3,
                    "period": 3, "code": 3}
UNREADABLE_MIN_CHARS = 3
UNREADABLE_SCORE = 0.6
COPY_LIST_SCORE = 0.8     # aligned under a copy list's caption, not beside it

FILLERS = {"is", "was", "are", "will", "be", "of", "=", "-", "", "#", "no", "number", "nr", "reads",
           "ending", "in", "on", "file"}
_ADDRESS_AFTER_NAME = re.compile(r"[<(\[][^\s<>()\[\]]+@[^\s<>()\[\]]+[>)\]][;,]?")
_STREETISH = re.compile(r"^(?:\d|(?i:p\.?\s?o\.?\s?box|flat|apt|unit|suite|c/o))")
# what names a company's own department after its name ("Factory Cost Dept."): the
# annotation guide's internal departments are neither people nor organisations
_DEPARTMENT_WORDS = frozenset({"dept", "department", "depts", "departments"})
_UNIT_WORDS = _DEPARTMENT_WORDS | {"center", "centre", "division", "laboratory", "lab", "office", "section"}
_SLASH_DATE = re.compile(r"(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/(?:\d{2}|(?:19|20)\d{2})")
# A memo's copy list: its recipients run down the page under the first one, one a line and
# aligned with it ("cc: RSS / RDC / PHL / Records / Project Leader"), as names or as the staff
# initials memos route copies by; the list ends at the first line that is neither (an office,
# a role: "Records", "Project Leader")
# (as label keys are written: normalised, "copies to" -> "coplesto")
COPY_LIST_KEYS = frozenset(normalise_label(k) for k in ("cc", "ce", "ec", "bcc", "distribution", "distribution list",
                                                        "copies to", "copy to"))
_STAFF_INITIALS = re.compile(r"[A-Z]{2,4}")
# a word in capitals is an everyday word at this frequency ("FILE" 4.8, "MEMO" 3.8, "FYI" 3.5);
# three letters that are someone's initials are rarer strings ("PRC" 3.1, "RDC" 2.3)
INITIALS_ZIPF = 3.5
HEADER_GAP = 4.0   # text heights between two captions of a header row (a table's columns)
# a word of a column's caption: letters, perhaps abbreviated or closed by a colon
_CAPTION_WORD = re.compile(r"[A-Za-z][A-Za-z.'’&/\-]*:?")
_CARD_SHAPE = re.compile(r"\d{13,19}|\d{4}(?:[ \-]\d{4}){2}[ \-]\d{1,7}")
_YEAR = re.compile(r"(?:19|20)\d{2}")
_FULL_DATE = re.compile(r"\d{1,2}[/.\-]\d{1,2}[/.\-](?:19|20)\d{2}")


class LabelRules(LabelGeometry):
    """Runs the label lexicon over one page."""

    def __init__(self, layout: PageView, lex: LabelLexicon, vocab: Vocab):
        self.layout = layout
        self.lex = lex
        self.vocab = vocab
        self.text = layout.page.text
        self.labels = find_labels(layout, lex)
        # where a value must end: the start of a clear label or stop label
        # a weak label only ends a value when it was read surely: "Cc." read unsure at
        # the start of a cell is as likely the initial of "C. Barnes" under its header
        self.terminators = {lh.start for lh in self.labels if lh.strong or
                            (lh.first_on_line and self._read_surely(lh))}
        clear_stops, self.stop_starts = stop_starts(layout, lex)
        self.terminators |= clear_stops
        self.label_words = {w for lh in self.labels if lh.strong for w in lh.words}
        # a label that names nothing where it stands (a strict one-letter label like "W",
        # the work phone's, without its colon: the initial in "Cook, Regina W.") ends nothing
        self.label_starts = {lh.start for lh in self.labels if self._groups(lh)}
        self.terminator_words = {layout.word_at(t) for t in self.terminators} - {None}
        # last words of labels that take the value right of them on their own row
        self.row_label_ends = {lh.words[-1] for lh in self.labels if lh.strong}

    def _ends_paragraph_line(self, lh: LabelHit) -> bool:
        """Whether the label ends a line of a paragraph of prose (``redactor.paragraphs``)."""
        return self.layout.offsets[lh.words[-1]][1] in paragraph_breaks(self.layout)

    def _read_surely(self, lh: LabelHit) -> bool:
        return any(self.layout.words[w].conf >= UNSURE_CONF for w in lh.words)

    # --- values ---------------------------------------------------------------------------
    def _groups(self, lh: LabelHit) -> list[LabelGroup]:
        entries = self.lex.groups_of.get(lh.key) or self.lex.groups_of.get(lh.key.rstrip("."), ())
        groups = [g for g, strict in entries if lh.strong or not strict]
        if lh.has_num and any(g.suffix for g in groups):
            groups = [g for g in groups if g.suffix]
        elif lh.has_num and groups and all(g.value in _NAME_KINDS for g in groups):
            # a party's caption with its number word ("Vendor No.", "Agency ID") asks for
            # the number the party is filed under, not its name
            groups = [g for g, _ in self.lex.groups_of.get("ref", ())]
        return groups

    def _value(self, group: LabelGroup, toks: list[V.Token], strong: bool,
               caption: bool = False, extension: bool = False) -> list[Hit]:
        """The value of ``group``'s kind in ``toks``. ``caption``: the label is a field's
        caption (marked, or opening its line); ``extension``: a phone caption marked as
        one, after which 3 to 5 digits alone are an internal extension."""
        kind = group.value
        if kind not in ("name", "organization"):
            # "Your member ID is 88A-20-1174", "account number: 123"
            while toks and toks[0][2].lower().strip(".:") in FILLERS:
                toks = toks[1:]
        if group.rule == "label_location" and len(toks) > 1 and toks[0][2] == "of":
            toks = toks[1:]    # "County of Floyd", "State of Texas": the place follows "of"
        if not toks:
            return []
        if kind == "name":
            mailbox = C.mailbox_value(toks) if strong else None
            if mailbox is not None:
                return [Hit("label_email", mailbox[0], mailbox[1], group.score)]
            # a name ends where any label begins ("Patient Name DOE JOHN DOB 01/01/1950")
            cut = next((k for k, t in enumerate(toks) if k and t[0] in self.label_starts), len(toks))
            toks = toks[:cut]
            # one name, or a list of them ("To: Samuel Pace; Lawrence Wilkinson")
            hits = []
            while toks and len(hits) < MAX_LISTED_NAMES:
                r = V.name_value(toks, self.vocab, loose=strong)
                if r is None:
                    break
                s, e, org = r
                after = [t for t in toks if t[0] >= e][:1]
                if after and after[0][2].lower().strip(".,;:") in _DEPARTMENT_WORDS:
                    break    # "Copies to: Factory Cost Dept.": a department, no one's name
                rule = "label_organization" if org else group.rule
                if not org and place_with_compass(self.text[s:e]):
                    rule = "label_location"
                elif not org and not plausible_name(self.text[s:e], self.vocab):
                    break
                hits.append(Hit(rule, s, e, group.score))
                rest = [t for t in toks if t[0] >= e]
                if rest and _ADDRESS_AFTER_NAME.fullmatch(rest[0][2]):
                    # "Todd Hardin <toddh@salazar.com>; Gonzales, Gregory": a mail header's
                    # list gives each name its address (the e-mail rule hides that)
                    e, rest = rest[0][1] - (rest[0][2][-1] in ";,"), rest[1:]
                sep = self.text[e:rest[0][0]] if rest else ""
                if not re.fullmatch(r"[ ]?[;:/,&][ ]?|[ ](?:and|&)[ ]", sep):
                    break
                toks = rest
            return hits
        if kind == "organization":
            r = V.organization_value(toks, self.vocab.legal_forms)
            if r is not None and not strong and V.reads_as_clause(self.text[r[0]:r[1]]):
                # a caption's word in a sentence printed in capitals ("... FOR ACCOUNT OF
                # THIS COMPANY UNTIL EXECUTIVE APPROVAL HAS BEEN ..."): the words after it
                # are the sentence's
                r = None
        elif kind in ("id", "code", "number"):
            r = V.id_value(toks, strong, caption=caption) if kind == "id" else \
                V.code_value(toks, strong) if kind == "code" else V.number_value(toks)
            # "Podesta Group 11/5/10": a day, month and year written with slashes are a
            # date (the date rule's), whatever word before them reads as a label
            if r is not None and _SLASH_DATE.fullmatch(self.text[r[0]:r[1]]):
                r = None
        elif kind == "card":
            r = V.id_value(toks, strong, min_digits=4)
            # a card number is digits, masked with X or * at most: letters make it another
            # number the caption shares a name with (India's PAN, "ABCPS1234D", a tax id)
            if r is not None and re.search(r"[A-WYZa-wyz]", self.text[r[0]:r[1]]):
                r = None
        elif kind == "phone":
            r = C.phone_value(toks, extension)
        elif kind == "email":
            r = C.email_value(toks, strong)
        elif kind == "online":
            r = C.online_value(toks, self.vocab) if strong else C.online_value_in_prose(toks, self.vocab)
        elif kind == "date":
            r = V.date_value(toks)
        elif kind == "period":
            r = V.period_value(toks)
        else:
            return []
        return [] if r is None else [Hit(group.rule, r[0], r[1], group.score)]

    def _address_value(self, group: LabelGroup, lh: LabelHit, toks: list[V.Token]) -> list[Hit]:
        if not lh.strong:
            # without a colon or a cell of its own, "billing"/"address" in running text
            # only counts before something that starts like a street line
            if group.value == "party" or not toks or not _STREETISH.match(toks[0][2].lstrip(JUNK)):
                return []
        if toks and any("@" in t[2] for t in toks):
            return []
        run = self._first_run(lh, toks)
        if not run:
            return []
        runs = self._block(lh, run)
        hits = []
        toks_of = [self._run_tokens(lh, r) for r in runs]
        street = next((k for k, rt in enumerate(toks_of[:MAX_PARTY_LEAD + 1])
                       if rt and _STREETISH.match(rt[0][2].lstrip(JUNK))), None)
        # an address caption's block may open with the firm at that address too ("4. Business
        # Address(es)" over "Weber Shandwick / 919 Third Avenue / New York 10022")
        if group.value == "party" or (street is not None and street > 0):
            # the lines before the street line: the person, a job title, the company. A
            # postal address is its delivery line(s) and its city line: the name or company
            # line over them is a party of its own, never part of the address
            lead = 0
            for rtoks in toks_of[:MAX_PARTY_LEAD]:
                if not rtoks or any(c.isdigit() for t in rtoks for c in t[2]) or \
                        _STREETISH.match(rtoks[0][2].lstrip(JUNK)):
                    break
                if rtoks[-1][2].lower().strip(".,;:") in self.vocab.title_words:
                    lead += 1     # "Restaurant Manager": a job title, nobody's name
                    continue
                nv = V.name_value(rtoks, self.vocab, loose=False)
                if nv is not None:
                    s, e, org = nv
                    hits.append(Hit("label_party_organization" if org else "label_party", s, e,
                                    group.score))
                elif street is not None:
                    # a line the name rules do not read ("Ryan, Miranda and Key", "Hunt-Brown
                    # Ltd."), sitting over the street line: the company's name
                    ov = V.organization_value(rtoks, self.vocab.legal_forms)
                    honorific = rtoks[0][2].rstrip(".").lower() in self.vocab.honorifics
                    if ov is not None and not (len(rtoks) == 1 and honorific):
                        hits.append(Hit("label_party_organization", ov[0], ov[1], group.score))
                else:
                    break
                lead += 1
            runs = runs[lead:]
        rule = "label_party_address" if group.value == "party" else group.rule
        if runs:
            # the first run may start with the label itself: begin after it
            ranges = runs_to_ranges(self.layout, runs)
            for s, e in ranges:
                s = max(s, lh.end) if s <= lh.end < e else s
                s, e = _trim(self.text, s, e, JUNK)
                # (a speck OCR read as a letter beside the caption, "H", is no address)
                if e > s and sum(c.isalnum() for c in self.text[s:e]) >= MIN_ADDRESS_CHARS:
                    hits.append(Hit(rule, s, e, group.score))
        return hits

    def _table_rows(self, group: LabelGroup, lh: LabelHit, first_run: list[int]) -> list[Hit]:
        """More values under the first one in the same column (a table under its header)."""
        lay = self.layout
        col = self._column(lh)
        hits = []
        top = max(lay.words[w].bbox[3] for w in first_run)
        for _ in range(MAX_TABLE_ROWS):
            toks, run = self.tokens_below(lh, top, col, BELOW_GAP)
            if not run:
                break
            got = self._value(group, toks, group.value != "name")
            if group.value == "name" and got and len(lay.words_in(got[0].start, got[0].end)) < 2:
                got = []
            if not got:
                break
            hits.extend(got)
            top = max(lay.words[w].bbox[3] for w in run)
        return hits

    def find(self) -> list[Hit]:
        hits: list[Hit] = []
        addresses: list[tuple[int, int]] = []     # values of strong address captions
        weak: list[tuple[LabelHit, list[Hit]]] = []
        for lh in self.labels:
            groups = self._groups(lh)
            if not groups or self._ends_sentence(lh):
                continue
            toks = self.right_tokens(lh)
            if V.is_blank(toks):
                toks = []
            found: list[Hit] = []
            for g in groups:
                if g.value in ("address", "party"):
                    found = self._address_value(g, lh, toks)
                    if lh.strong:
                        addresses.extend((h.start, h.end) for h in found)
                else:
                    found = self._value(g, toks, lh.strong, caption=lh.strong or lh.first_on_line,
                                        extension=lh.has_term or lh.has_num)
                if found:
                    break
            if not found and toks and lh.strong and groups[0].value not in RIGHT_ONLY_KINDS:
                found = self._unreadable_value(groups[0], toks)
            if not found and not toks and (not lh.strong or self._ends_paragraph_line(lh)):
                # "Please use account\n278307-298": running text wrapped between a label
                # and its value; the value opens the next line (also after "account no.":
                # in a paragraph the line under it is the sentence going on, no form cell)
                wrapped = self._wrapped_tokens(lh)
                for g in groups:
                    if g.value in WRAPPED_KINDS:
                        found = self._value(g, wrapped, False)
                        if found:
                            break
            if not found and not lh.strong and lh.first_on_line:
                # a fill-in line's caption without a colon ("Phone     342.660.3585" on a
                # message slip): far from its value, which only a strict shape may then be
                # ("Credit Card      6011 9482 5563 5087": a card's 13-19 digits, which OCR
                # may have misread past its checksum)
                wide = self.right_tokens(lh, RIGHT_GAP_STRONG)
                for g in groups:
                    if g.value == "phone":
                        found = self._value(g, wide, False)
                        break
                    if g.value == "card":
                        found = [h for h in self._value(g, wide, False)
                                 if _CARD_SHAPE.fullmatch(self.text[h.start:h.end])]
                        break
                    if g.value == "date":
                        # ... or a date written whole, a year after a year's caption ("5. Year
                        # of Birth      1974" on a registration form)
                        shape = _YEAR if "year" in lh.key else _FULL_DATE
                        found = [h for h in self._value(g, wide[:1], False)
                                 if shape.fullmatch(self.text[h.start:h.end])]
                        break
            if not found and not lh.strong:
                found = self._typed_capitals(lh, groups)
            if not lh.strong:
                weak.append((lh, found))
                continue
            if found or (toks and not self._far_dirt(lh, toks) and
                         not self._heads_next_column(lh, toks)) or all(g.value in RIGHT_ONLY_KINDS for g in groups):
                hits.extend(found)
                if lh.key in COPY_LIST_KEYS and (found or toks):
                    # (a list may open with a department: "Copies to: Factory Cost Dept.")
                    hits.extend(self._copy_list(*((found[0].start, found[0].end) if found else
                                                  (toks[0][0], toks[-1][1]))))
                continue
            # nothing on the right, or only unsure dirt in the next cell (a smudge read "fo}"
            # 19 text heights away): the value sits under the label (form cell, table column)
            btoks, run = self.tokens_below(lh, lh.line.y1, self._column(lh), BELOW_GAP)
            if not run:
                continue
            for g in groups:
                if g.value in ("address", "party"):
                    continue   # handled above through _first_run
                found = self._value(g, btoks, True, extension=lh.has_term or lh.has_num)
                if found and g.value == "id":
                    found = self._with_comb_rest(found, run)
                if found:
                    hits.extend(found)
                    hits.extend(self._table_rows(g, lh, run) if lh.key not in COPY_LIST_KEYS else
                                self._copy_list(found[0].start, found[0].end))
                    break
            else:
                hits.extend(self._unreadable_value(groups[0], btoks))
                if lh.key in COPY_LIST_KEYS and btoks:
                    # the list under its caption, opening with a department ("Copies to:" over
                    # "Factory Cost Dept." / ... / "Sue Livesay")
                    hits.extend(self._copy_list(btoks[0][0], btoks[-1][1]))
        # a weak label inside an address a caption names is a word of that address, not a
        # label: "Boise, ID 83702" holds Idaho, not an ID number
        for lh, found in weak:
            if not any(s <= lh.start < e for s, e in addresses):
                hits.extend(found)
        # a caption's "value" that is itself a caption: a form's header row of several
        # captions ("NAME, AFFILIATION" over "ADDRESS, CITY, STATE, ZIP") names no value
        return [h for h in hits if not self._only_captions(h)]

    def _ends_sentence(self, lh: LabelHit) -> bool:
        """Whether a label word written in running text ends its sentence ("... transported
        to another hospital. Law enforcement was contacted"): what follows the full stop
        is the next sentence, no value. An abbreviation's stop ("Tel.", "Acct.") is short
        and a marked caption ("No.", ":") is not in running text."""
        if lh.has_term or lh.has_num:
            return False
        m = re.match(r"\.?[ ]+[A-Z]", self.text[lh.end:lh.end + 3])
        words = self.text[lh.start:lh.end + 1].split()
        word = words[-1] if words else ""
        return m is not None and word.endswith(".") and len(word) >= 6 and word[:-1].isalpha() and \
            word[:-1].islower()

    def _heads_next_column(self, lh: LabelHit, toks: list[V.Token]) -> bool:
        """Whether the words right of the label, where no value was found, are the next
        column's caption in a row of captions over a row of values ("Booking ID    Payment
        Mode" over "IBZY2087    Cash at Hotel", a receipt's or an invoice's header row): a
        column apart (HEADER_GAP), up to four capitalised words of letters, with a value
        under it as under the label."""
        lay = self.layout
        h = lh.line.height
        words = [w for t in toks for w in lay.words_in(t[0], t[1])]
        if not words or len(words) > 4 or \
                not all(_CAPTION_WORD.fullmatch(lay.words[w].text) for w in words):
            return False
        x0, x1 = lay.words[words[0]].bbox[0], lay.words[words[-1]].bbox[2]
        if x0 - max(lay.words[w].bbox[2] for w in lh.words) < HEADER_GAP * h or \
                not all(lay.words[w].text[:1].isupper() for w in words):
            return False
        under_label, _ = self.tokens_below(lh, lh.line.y1, self._column(lh), BELOW_GAP)
        return bool(under_label) and bool(lay.lines_below(x0, x1, lh.line.y1, h, BELOW_GAP * h))

    def _only_captions(self, hit: Hit) -> bool:
        """Whether every letter and digit of the hit lies inside a caption's own characters
        (a value glued to its caption, "Ph#555-234-5678", lies outside it)."""
        inside = [False] * (hit.end - hit.start)
        for lh in self.labels:
            for k in range(max(lh.start, hit.start), min(lh.end, hit.end)):
                inside[k - hit.start] = True
        chars = [k for k in range(hit.end - hit.start) if self.text[hit.start + k].isalnum()]
        return bool(chars) and all(inside[k] for k in chars)

    def _copy_list(self, start: int, end: int) -> list[Hit]:
        """The recipients listed under a copy list's first line (text offsets ``start`` to
        ``end``: its first recipient, or the department it opens with), aligned with it."""
        lay = self.layout
        run = lay.words_in(start, end)
        if not run:
            return []
        hits: list[Hit] = []
        wrapped = False    # the line before was neither a recipient nor a unit

        def stop(r) -> bool:
            nonlocal wrapped
            if wrapped:
                # ... which goes on only as the first line of a unit's name wrapped under it
                # ("Writer" over "Development Center")
                wrapped = False
                return not self._unit_line(r)
            hit = self._recipient(r)
            if hit is not None:
                hits.append(hit)
            else:
                wrapped = not self._unit_line(r)
            return False

        lines_under(lay, run, lay.words[run[0]].bbox[0], MAX_LISTED_NAMES, stop,
                    word_stop=self._is_terminator_word)
        return hits

    def _unit_line(self, run) -> bool:
        """Whether a copy list's line names a unit of the firm ("Factory Cost Dept.",
        "Writer Development Center"): copies go to departments and people alike, and the
        list goes on under it."""
        return any(self.layout.words[w].text.lower().strip(".,;:") in _UNIT_WORDS for w in run)

    def _recipient(self, run) -> Hit | None:
        """A copy list's line as a PERSON hit: a name, or staff initials alone ("RDC")."""
        from wordfreq import zipf_frequency
        lay = self.layout
        toks = [(lay.offsets[w][0], lay.offsets[w][1], lay.words[w].text) for w in run]
        if len(toks) == 1 and _STAFF_INITIALS.fullmatch(toks[0][2]) and toks[0][2] not in NOT_INITIALS \
                and toks[0][2] not in veto_words() and zipf_frequency(toks[0][2].lower(), "en") < INITIALS_ZIPF:
            return Hit("label_person", toks[0][0], toks[0][1], COPY_LIST_SCORE)
        if all(V.INITIALS_LIST.fullmatch(t[2]) for t in toks):
            return Hit("label_person", toks[0][0], toks[-1][1], COPY_LIST_SCORE)    # "JEM/DEC PRC/DRS"
        r = V.name_value(toks, self.vocab, loose=False)
        if r is None or r[2] or not plausible_name(self.text[r[0]:r[1]], self.vocab):
            return None
        words = [w.strip(".,;:") for w in self.text[r[0]:r[1]].split()]
        if any(w.upper() in veto_words() for w in words) or \
                (len(words) == 1 and V.is_common_word(words[0].lower())):
            return None     # an office or a role: "Records", "Project Leader", "Files"
        return Hit("label_person", r[0], r[1], COPY_LIST_SCORE)

    def _typed_capitals(self, lh: LabelHit, groups: list[LabelGroup]) -> list[Hit]:
        """A form row's caption printed in mixed case ("Material Tested ... Supplier OWENS
        CORNING") and the value typed into it in capitals: the change of case marks the
        value, farther from its caption than running text's word spacing. Only a name or an
        organisation caption, and only the run of capitals (2+ letters a word) after it."""
        phrase = self.text[lh.start:lh.end]
        if not any(c.islower() for c in phrase):
            return []
        run: list[V.Token] = []
        for t in self.right_tokens(lh, RIGHT_GAP_STRONG):
            letters = [c for c in t[2] if c.isalpha()]
            if len(letters) < 2 or not all(c.isupper() for c in letters) or t[0] in self.stop_starts:
                break
            run.append(t)
        if not run:
            return []
        for g in groups:
            if g.rule in ("label_person", "label_organization"):
                return [h for h in self._value(g, run, True) if h.rule != "label_email"]
        return []

    def _unreadable_value(self, group: LabelGroup, toks: list[V.Token]) -> list[Hit]:
        """The value of a strong label ("To:", "Phone:", a form cell's caption) that OCR
        could not read: the words where it stands are mostly ones OCR was unsure of, so no
        value shape matched. A reader may still make it out on the scan, so it is hidden
        as the label's type all the same (fail closed); confident words are what they say
        and are never taken this way."""
        limit = UNREADABLE_WORDS.get(group.value)
        if limit is None:
            return []
        while toks and not any(c.isalnum() for c in toks[0][2]):
            toks = toks[1:]    # a speck or a dash between the label and the value
        taken: list[tuple[V.Token, float]] = []
        for t in toks[:limit]:
            w = self.layout.word_at(t[0])
            if w is None or (taken and t[0] in self.label_starts) or _CAPTION_WORD_COLON.fullmatch(t[2]):
                break      # (a word and its colon is the next field's caption: "SUBJECT:")
            taken.append((t, self.layout.words[w].conf))
        while taken and not 0 <= taken[-1][1] < UNSURE_CONF:
            taken.pop()        # a confident word after the value is something else
        unsure = [t for t, c in taken if 0 <= c < UNSURE_CONF]
        # what reads as an amount ("471,873.85" after "Committed to Date:", a total so
        # far) was read, however unsurely: an amount, not the label's value
        if any(V.is_money(w) and "," in w for w in (t[2].strip(",;:") for t, _ in taken)):
            return []
        if not taken or 2 * len(unsure) < len(taken) or \
                sum(c.isalnum() for t, _ in taken for c in t[2]) < UNREADABLE_MIN_CHARS:
            return []
        if group.value != "date" and _SLASH_DATE.fullmatch(self.text[taken[0][0][0]:taken[-1][0][1]].strip(".,;:")):
            return []    # read unsurely, but a day, month and year all the same: the date rule's
                         # ("DEADLINE FOR BID RECEIPT: 3/1/91" is no receipt number)
        return [Hit(group.rule, taken[0][0][0], taken[-1][0][1], UNREADABLE_SCORE)]


_NAME_KINDS = frozenset({"name", "organization", "party"})


def _trim(text: str, s: int, e: int, lead: str = "") -> tuple[int, int]:
    while s < e and (text[s] in " \n:#,;-" or text[s] in lead):
        s += 1
    # a bar parts a footer's fields ("... Gurgaon -122001 | Phone: ..."): no value's end
    while e > s and text[e - 1] in " \n,;:|":
        e -= 1
    return s, e


def find_label_hits(layout: PageView, lex: LabelLexicon, vocab: Vocab) -> list[Hit]:
    # names under a caption that names a role ("Name of Registrant", a "Candidate" column)
    return LabelRules(layout, lex, vocab).find() + find_caption_name_hits(layout, vocab)
