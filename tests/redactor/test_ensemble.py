"""Merging the spans of several detectors: the documented rule, and properties (hypothesis)
that hold for any input: no critical character is ever lost, the output never overlaps."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redactor import registry
from redactor.ensemble import merge_spans as _merge_spans
from redactor.errors import InputError
from redactor.model import PATTERN, STATISTICAL, Span
from redactor.taxonomy import fine_types, is_critical


def _declared(span: Span) -> Span:
    """The span with the evidence its detector declares, as the pipeline fills it in
    (``Detector.evidence_of`` of the real plugin classes)."""
    if span.evidence is not None or not span.detector:
        return span
    tiers = [_tier(d, span) for d in span.detector.split("+")]
    return span.with_(evidence=max(tiers))


def _tier(detector: str, span: Span) -> int:
    from redactor.model import STATISTICAL
    try:
        return registry.plugin_class("detector", detector).evidence_of(span)
    except InputError:       # a name no plugin has: it declares nothing
        return STATISTICAL


def merge_spans(spans, **kw):
    return _merge_spans([_declared(s) for s in spans], **kw)

TEXT = "Call John Smith at 555-123-4567 on 01/02/2024 about account 12345678 today."


def _find(sub: str) -> tuple[int, int]:
    i = TEXT.index(sub)
    return i, i + len(sub)


def test_same_detector_same_type_overlaps_join():
    a = Span(*_find("555-123-4567"), "PHONE", 0.9, "rules")
    b = Span(*_find("4567 on"), "PHONE", 0.5, "rules")
    out = merge_spans([a, b], text=TEXT)
    assert [(s.text, s.type) for s in out] == [("555-123-4567 on", "PHONE")]


def test_same_type_overlap_keeps_the_best_span_and_the_rest_beside_it():
    # two model-based detectors: equal evidence, so the higher score wins
    a = Span(*_find("John Smith"), "PERSON", 0.8, "gliner")
    b = Span(*_find("Smith at"), "PERSON", 0.6, "privacy_filter")
    out = merge_spans([a, b], text=TEXT)
    assert [(s.text, s.type, s.detector, s.score) for s in out] == [
        ("John Smith", "PERSON", "gliner+privacy_filter", 0.8), ("at", "PERSON", "privacy_filter", 0.6)]


def test_evidence_beats_score_across_detectors():
    # a label-driven phone (rules, >= 0.9) beats Presidio's pattern guess scored higher
    phone = Span(*_find("555-123-4567"), "PHONE", 0.9, "rules")
    guess = Span(*_find("555-123-4567"), "ID_NUMBER", 1.0, "presidio")
    out = merge_spans([guess, phone], text=TEXT)
    assert [(s.type, s.text, s.detector) for s in out] == [("PHONE", "555-123-4567", "presidio+rules")]
    # a pattern-only rule (a signature line) beats NER's longer name with the job title
    text = "Jackie Robinson\nEngineer at Acme"
    rules = Span(0, 15, "PERSON", 0.75, "rules")
    ner = Span(0, 24, "PERSON", 0.85, "presidio")
    out = merge_spans([ner, rules], text=text)
    assert [(s.text, s.detector) for s in out] == [("Jackie Robinson", "presidio+rules"),
                                                   ("Engineer", "presidio")]
    # Presidio's pattern recognizer beats the rules' fallback guess for a bare number
    s, e = _find("12345678")
    out = merge_spans([Span(s, e, "REFERENCE_NUMBER", 0.3, "rules"),
                       Span(s, e, "ID_NUMBER", 0.4, "presidio")])
    assert out[0].type == "ID_NUMBER"
    # ...but a label-driven account number of the rules beats it
    out = merge_spans([Span(s, e, "ACCOUNT_NUMBER", 0.9, "rules"),
                       Span(s, e, "REFERENCE_NUMBER", 1.0, "presidio")])
    assert out[0].type == "ACCOUNT_NUMBER"


def test_evidence_tiers_are_declared_by_the_detectors():
    from redactor.ensemble import PATTERN, STATISTICAL, STRUCTURAL, evidence_of
    assert evidence_of(_declared(Span(0, 1, "PHONE", 0.9, "rules"))) == STRUCTURAL
    assert evidence_of(_declared(Span(0, 1, "PHONE", 0.85, "rules"))) == PATTERN
    assert evidence_of(_declared(Span(0, 1, "REFERENCE_NUMBER", 0.3, "rules"))) == STATISTICAL
    assert evidence_of(_declared(Span(0, 1, "PHONE", 1.0, "presidio"))) == PATTERN
    assert evidence_of(_declared(Span(0, 1, "PERSON", 1.0, "presidio"))) == STATISTICAL
    assert evidence_of(_declared(Span(0, 1, "CARD_NUMBER", 1.0, "gliner"))) == STATISTICAL
    assert evidence_of(_declared(Span(0, 1, "PERSON", 0.75, "presidio+rules"))) == PATTERN
    assert evidence_of(Span(0, 1, "PERSON", 0.75, "")) == STATISTICAL
    # the name table is gone: Google DLP's text detector ranks its patterns as patterns
    # (it was spelled "google_dlp" in the table and got the lowest tier)
    assert evidence_of(_declared(Span(0, 1, "PHONE", 0.9, "google-dlp-text"))) == PATTERN
    # a third party's detector declares its own: a span may carry it, whatever its name
    assert evidence_of(Span(0, 1, "PHONE", 0.5, "acme-checksums", evidence=STRUCTURAL)) == STRUCTURAL


def test_a_declared_structural_span_of_any_detector_beats_a_pattern():
    from redactor.ensemble import STRUCTURAL
    s, e = _find("12345678")
    out = _merge_spans([Span(s, e, "ACCOUNT_NUMBER", 0.6, "acme", evidence=STRUCTURAL),
                        _declared(Span(s, e, "REFERENCE_NUMBER", 1.0, "presidio"))])
    assert out[0].type == "ACCOUNT_NUMBER" and out[0].evidence == STRUCTURAL


def test_a_sloppy_span_does_not_widen_the_tight_one():
    tight = Span(*_find("John Smith"), "PERSON", 0.85, "rules")
    sloppy = Span(*_find("Call John Smith at"), "PERSON", 0.85, "presidio")
    out = merge_spans([sloppy, tight], text=TEXT)
    assert [(s.text, s.type) for s in out] == [("Call", "PERSON"), ("John Smith", "PERSON"), ("at", "PERSON")]
    assert out[1].detector == "presidio+rules"


def test_critical_type_beats_contextual_and_keeps_every_critical_char():
    phone = Span(*_find("555-123-4567"), "PHONE", 0.4, "rules")
    date = Span(_find("4567 on")[0], _find("01/02/2024")[1], "DATE", 0.99, "gliner")
    out = merge_spans([phone, date], text=TEXT)
    assert out[0].type == "PHONE" and out[0].text == "555-123-4567"
    # the date's part outside the phone keeps its own type
    assert out[1].type == "DATE" and out[1].text == "on 01/02/2024"


def test_conflicting_critical_types_higher_score_wins_and_loser_keeps_the_rest():
    acct = Span(*_find("account 12345678"), "ACCOUNT_NUMBER", 0.9, "rules")
    phone = Span(*_find("12345678 today"), "PHONE", 0.5, "presidio")
    out = merge_spans([acct, phone], text=TEXT)
    assert [(s.type, s.text) for s in out] == [("ACCOUNT_NUMBER", "account 12345678"), ("PHONE", "today")]
    assert out[0].detector == "presidio+rules"


def test_a_long_span_does_not_retype_a_critical_value_it_touches():
    addr = Span(*_find("John Smith at 555"), "ADDRESS", 0.89, "rules")
    phone = Span(*_find("555-123-4567"), "PHONE", 0.85, "rules")
    out = merge_spans([addr, phone], text=TEXT)
    assert [(s.type, s.text) for s in out] == [("ADDRESS", "John Smith at 555"), ("PHONE", "-123-4567")]


def test_equal_scores_fall_back_to_the_fixed_priority():
    s, e = _find("12345678")
    out = merge_spans([Span(s, e, "PHONE", 0.7, "a"), Span(s, e, "ACCOUNT_NUMBER", 0.7, "b")])
    assert out[0].type == "ACCOUNT_NUMBER"
    out = merge_spans([Span(s, e, "PERSON", 0.7, "a"), Span(s, e, "CARD_NUMBER", 0.7, "b")])
    assert out[0].type == "CARD_NUMBER"


def test_non_overlapping_spans_pass_unchanged_and_input_order_does_not_matter():
    a = Span(*_find("John Smith"), "PERSON", 0.8, "x")
    b = Span(*_find("555-123-4567"), "PHONE", 0.9, "y")
    assert _merge_spans([b, a]) == [a, b]
    assert _merge_spans([a, b]) == _merge_spans([b, a])


def test_bad_offsets_raise_and_empty_spans_vanish():
    with pytest.raises(InputError):
        merge_spans([Span(5, 3, "PERSON")])
    with pytest.raises(InputError):
        merge_spans([Span(0, len(TEXT) + 1, "PERSON")], text=TEXT)
    assert merge_spans([Span(4, 4, "PERSON")]) == []


TYPES = list(fine_types()) + ["SOMETHING_ELSE"]
N = 60


@st.composite
def span_lists(draw):
    spans = []
    for _ in range(draw(st.integers(0, 12))):
        s = draw(st.integers(0, N - 1))
        e = draw(st.integers(s + 1, N))
        spans.append(Span(s, e, draw(st.sampled_from(TYPES)), draw(st.floats(0, 1)),
                          draw(st.sampled_from(["a", "b", "c+d", ""]))))
    return spans


def _covered(spans, pred=lambda s: True):
    out = set()
    for s in spans:
        if pred(s):
            out.update(range(s.start, s.end))
    return out


def _crit(s):
    return s.type in fine_types() and is_critical(s.type)


@settings(max_examples=400, deadline=None)
@given(span_lists())
def test_property_no_critical_character_is_lost(spans):
    out = merge_spans(spans)
    # critical characters stay in critical spans, except names an organisation found by its
    # form holds (the firm's span covers them)
    assert _covered(spans, _crit) <= _covered(out, _crit) | _covered(out, lambda s: s.type == "ORGANIZATION")
    held = _covered(spans, _crit) - _covered(out, _crit)
    assert held <= _covered([s for s in spans if s.type == "PERSON"])


@settings(max_examples=400, deadline=None)
@given(span_lists())
def test_property_every_character_stays_covered_and_output_does_not_overlap(spans):
    out = merge_spans(spans)
    assert _covered(spans) == _covered(out)
    for a, b in zip(out, out[1:]):
        assert a.end <= b.start
    assert merge_spans(out) == out          # merging is idempotent
    assert merge_spans(list(reversed(spans))) == out


@settings(max_examples=200, deadline=None)
@given(span_lists())
def test_property_detectors_are_recorded(spans):
    out = merge_spans(spans)
    named = {d for s in spans for d in s.detector.split("+") if d}
    recorded = {d for s in out for d in s.detector.split("+") if d}
    assert recorded == named


def test_a_word_shared_with_a_weaker_span_goes_to_the_winner():
    text = "Part 664-T29 shipped"
    guess = Span(5, 12, "REFERENCE_NUMBER", 0.3, "rules")     # the fallback's whole word
    pattern = Span(9, 12, "ID_NUMBER", 0.6, "presidio")       # a recognizer's part of it
    out = merge_spans([guess, pattern], text=text)
    assert [(s.type, s.text, s.detector) for s in out] == [("ID_NUMBER", "664-T29", "presidio+rules")]


# ---- name boundaries (with the page text) ----------------------------------------------------

SIGNED = "Sincerely,\nRenee L. Sullivan\nClothing Technologist\nApproved by Patrick Lee. Copies to Dr. Maria Lopez."


def _span(text, sub, typ="PERSON", score=0.85, detector="presidio"):
    i = text.index(sub)
    return Span(i, i + len(sub), typ, score, detector)


def test_a_person_span_over_a_line_break_is_cut_at_it():
    # a model read on from the name into the job title under it
    out = merge_spans([_span(SIGNED, "Renee L. Sullivan\nClothing Technologist")], text=SIGNED)
    assert [(s.type, s.text) for s in out] == [
        ("PERSON", "Renee L. Sullivan"), ("PERSON", "Clothing Technologist")]


def test_a_person_span_over_a_sentence_end_is_cut_there_but_not_at_a_title_or_an_initial():
    out = merge_spans([_span(SIGNED, "Patrick Lee. Copies"), _span(SIGNED, "Dr. Maria Lopez"),
                       _span(SIGNED, "Renee L. Sullivan")], text=SIGNED)
    assert [s.text for s in out] == ["Renee L. Sullivan", "Patrick Lee.", "Copies", "Dr. Maria Lopez"]


def test_a_models_place_over_a_line_break_is_cut_at_it_a_rules_place_is_not():
    # a form's country line and the company line under it ("The Russian Federation" /
    # "Gazpom Export"): a model read on from the place into the next field
    text = "Country: The Russian Federation\nGazpom Export Ltd sells gas. In Ann Arbor. Then"
    out = merge_spans([_span(text, "Russian Federation\nGazpom Export", "LOCATION")], text=text)
    assert [(s.type, s.text) for s in out] == [("LOCATION", "Russian Federation"),
                                               ("LOCATION", "Gazpom Export")]
    # a sentence end does not cut a place ("Ann Arbor. Then" is the model's, kept whole)
    out = merge_spans([_span(text, "Ann Arbor. Then", "LOCATION")], text=text)
    assert [s.text for s in out] == ["Ann Arbor. Then"]
    out = merge_spans([_span(text, "Russian Federation\nGazpom", "LOCATION", 0.9, "rules")], text=text)
    assert [s.text for s in out] == ["Russian Federation\nGazpom"]


def test_other_types_are_not_cut_at_line_breaks():
    text = "Ship to:\n12 Main St\nSpringfield, IL 62701"
    out = merge_spans([_span(text, "12 Main St\nSpringfield, IL 62701", "ADDRESS", 0.9, "rules")], text=text)
    assert [s.text for s in out] == ["12 Main St\nSpringfield, IL 62701"]


def test_last_comma_first_is_one_name():
    text = "To: Anderson, Sarah M. and Lee, Jo\ncc: Smith, Jones"
    spans = [_span(text, "Anderson"), _span(text, "Sarah M."), _span(text, "Lee"), _span(text, "Jo"),
             _span(text, "Smith", detector="rules"), _span(text, "Jones", detector="rules")]
    out = merge_spans(spans, text=text)
    assert [s.text for s in out] == ["Anderson, Sarah M.", "Lee, Jo", "Smith", "Jones"]
    assert out[0].detector == "presidio"
    # two full names in a list stay two
    text = "To: Mary Jones, Sarah Miles"
    out = merge_spans([_span(text, "Mary Jones"), _span(text, "Sarah Miles")], text=text)
    assert [s.text for s in out] == ["Mary Jones", "Sarah Miles"]



def test_pieces_of_one_web_address_broken_by_ocr_are_one_span():
    text = "Web: www.smith U8oper.biz\nSee https:/ /meine: re-chan.com/ today"
    spans = [_span(text, "www.smith", "ONLINE_ID", 0.9, "rules"),
             _span(text, "U8oper.biz", "ONLINE_ID", 0.75, "rules"),
             _span(text, "https:/ /meine", "ONLINE_ID", 0.9, "rules"),
             _span(text, "re-chan.com/", "ONLINE_ID", 0.75, "rules")]
    out = merge_spans(spans, text=text)
    assert [(s.type, s.text) for s in out] == [("ONLINE_ID", "www.smith U8oper.biz"),
                                               ("ONLINE_ID", "https:/ /meine: re-chan.com/")]
    assert out[0].score == 0.9


def test_two_addresses_side_by_side_stay_two():
    text = "Sites: www.a-one.com www.b-two.org\nMail: jo@a.com ann@b.org\nweb.com\nbuyer.net"
    spans = [_span(text, s, t, 0.9, "rules") for s, t in
             [("www.a-one.com", "ONLINE_ID"), ("www.b-two.org", "ONLINE_ID"), ("jo@a.com", "EMAIL"),
              ("ann@b.org", "EMAIL"), ("web.com", "ONLINE_ID"), ("buyer.net", "ONLINE_ID")]]
    out = merge_spans(spans, text=text)
    assert len(out) == 6    # a new "www.", a second @, a line break: separate addresses

WORDY = "Dear Ana Ruiz,\nJo Lee. Call 555-0100\nRe: Kim, Bo. Thanks\nAcct 12 34"


@st.composite
def text_span_lists(draw):
    spans = []
    for _ in range(draw(st.integers(0, 10))):
        s = draw(st.integers(0, len(WORDY) - 1))
        e = draw(st.integers(s + 1, len(WORDY)))
        spans.append(Span(s, e, draw(st.sampled_from(["PERSON", "PERSON", "PHONE", "ADDRESS", "DATE"])),
                          draw(st.floats(0, 1)), draw(st.sampled_from(["rules", "presidio"]))))
    return spans


@settings(max_examples=400, deadline=None)
@given(text_span_lists())
def test_property_with_text_no_critical_letter_or_digit_is_lost(spans):
    out = merge_spans(spans, text=WORDY)

    def letters(ss, pred=lambda s: True):
        return {i for i in _covered(ss, pred) if WORDY[i].isalnum()}
    assert letters(spans, _crit) <= letters(out, _crit)       # no organisation spans here
    assert letters(spans) <= letters(out)
    for a, b in zip(out, out[1:]):
        assert a.end <= b.start


def test_surnames_of_a_firm_are_not_joined_into_one_name():
    text = "a week after Richard, Smith and Taylor's launch"
    out = merge_spans([_span(text, "Richard"), _span(text, "Smith")], text=text)
    assert [s.text for s in out] == ["Richard", "Smith"]


def test_a_firm_found_by_its_form_holds_the_surnames_a_model_guessed():
    text = "Counsel: James, Compton and Becker LLP, 12 Main St"
    firm = _span(text, "James, Compton and Becker LLP", "ORGANIZATION", 0.8, "rules")
    names = [_span(text, "Becker", "PERSON", 0.85, "presidio"),
             _span(text, "James", "PERSON", 0.85, "presidio")]
    out = merge_spans([firm, *names], text=text)
    assert [(s.type, s.text) for s in out] == [("ORGANIZATION", "James, Compton and Becker LLP")]
    # a name with its own evidence (a label, a pattern) is not the firm's to take
    labelled = _span(text, "Becker", "PERSON", 0.9, "rules")
    out = merge_spans([firm, labelled], text=text)
    assert "PERSON" in [s.type for s in out]
    # nor is a firm guessed by a model
    guessed = _span(text, "James, Compton and Becker LLP", "ORGANIZATION", 0.85, "presidio")
    out = merge_spans([guessed, *names], text=text)
    assert "PERSON" in [s.type for s in out]


def test_a_first_name_and_initial_take_the_surname_written_before_them():
    # a form's "Last, First M.I." field where only "Maria L." was tagged
    text = "NAME (Last, First, M.I.)\nWalker, Maria L. 8/3/63\nDear Maria Lopez,"
    out = merge_spans([_span(text, "Maria L."), _span(text, "Maria Lopez")], text=text)
    assert [s.text for s in out] == ["Walker, Maria L.", "Maria Lopez"]


@pytest.mark.parametrize("text,parts", [
    ("Requested by Robert £ Mulhorin today", ("Robert", "Mulhorin")),     # misread initial
    ("Contact: Edwin -- -_—-. Garcia", ("Edwin", "Garcia")),              # fill-in line
])
def test_two_parts_of_a_name_with_only_marks_between_are_one_name(text, parts):
    a, b = (Span(text.index(p), text.index(p) + len(p), "PERSON", 0.85, "presidio") for p in parts)
    out = merge_spans([a, b], text=text)
    assert [(s.type, s.text) for s in out] == [("PERSON", text[a.start:b.end])]


@pytest.mark.parametrize("text", ["Smith / Jones", "Smith, Jones", "Smith & Jones", "Smith\n-- Jones",
                                  "Ann Lee Marie Ray -- Tom Paul Dean"])
def test_names_apart_by_a_separator_or_a_line_or_too_long_stay_apart(text):
    first = text.split()[0]
    if text.startswith("Ann"):
        a = Span(0, len("Ann Lee Marie Ray"), "PERSON", 0.85, "presidio")
    else:
        a = Span(0, len(first), "PERSON", 0.85, "presidio")
    last = text.rsplit(" ", 1)[-1] if not text.startswith("Ann") else "Tom Paul Dean"
    b = Span(len(text) - len(last), len(text), "PERSON", 0.85, "presidio")
    assert len(merge_spans([a, b], text=text)) == 2


@pytest.mark.parametrize("text,head,model,joined", [
    # the rules' initial and given name, the model's whole name: one name, one box
    ("D. Colin Selley, appointed Director", "D. Colin", "D. Colin Selley,", True),
    ("J. Anthony Marsh, appointed Deputy Director", "J. Anthony", "J. Anthony Marsh,", True),
    # a whole name and a caption's word the model read on into ("Phone:" read "Phong")
    ("Heather Thompson Phong +1 760 209 5338", "Heather Thompson", "Heather Thompson Phong", False),
    # a row of names the model read as one
    ("A. H. Tisch F. J. Schultz J. J. Tatulli", "A. H. Tisch", "A. H. Tisch F. J. Schultz J. J. Tatulli", False),
])
def test_a_name_the_merge_cut_keeps_one_span_when_one_detector_read_it_whole(text, head, model, joined):
    """Rule 9: the rules found "D. Colin", the model "D. Colin Selley"; the part of the model's
    span that sticks out of the rules' ("Selley,") is the name's surname, so the name is one
    span (one box), not two."""
    spans = [Span(0, len(head), "PERSON", 0.7, "rules", evidence=PATTERN),
             Span(0, len(model), "PERSON", 0.85, "presidio", evidence=STATISTICAL)]
    out = [(s.type, s.text) for s in _merge_spans(spans, text=text)]
    assert (("PERSON", model) in out) is joined, out
    assert joined or ("PERSON", head) in out, out
