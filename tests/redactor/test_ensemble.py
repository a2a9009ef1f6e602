"""Merging the spans of several detectors: the documented rule, and properties (hypothesis)
that hold for any input: no critical character is ever lost, the output never overlaps."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redactor.ensemble import merge_spans
from redactor.errors import InputError
from redactor.model import Span
from redactor.taxonomy import fine_types, is_critical

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
    a = Span(*_find("John Smith"), "PERSON", 0.8, "presidio")
    b = Span(*_find("Smith at"), "PERSON", 0.6, "rules")
    out = merge_spans([a, b], text=TEXT)
    assert [(s.text, s.type, s.detector, s.score) for s in out] == [
        ("John Smith", "PERSON", "presidio+rules", 0.8), ("at", "PERSON", "rules", 0.6)]


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
    addr = Span(*_find("John Smith at 555"), "ADDRESS", 0.95, "rules")
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
    assert merge_spans([b, a]) == [a, b]
    assert merge_spans([a, b]) == merge_spans([b, a])


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
    assert _covered(spans, _crit) <= _covered(out, _crit)


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
