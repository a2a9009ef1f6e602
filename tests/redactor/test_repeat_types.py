"""A value repeated over the page keeps the type its evidence gives it: a repeat of a model's
guess that lands inside a value found by its form is merged by the ensemble's rule, so a
firm's name is not hidden as a person's in part (default pipeline: real rules, real
Presidio)."""
from __future__ import annotations

import pytest
from rules_pages import page_from_rows

from redactor.pipeline import Redactor


@pytest.fixture(scope="module")
def redactor():
    return Redactor()


@pytest.mark.parametrize("rows, firm, person", [
    # a FARA filing's list of expenditures names its printer by its legal form, its prose the
    # man the printer is named for
    (["(1) Printing of promotional material: Ardlee Service, Inc., New York",
      "The campaign was planned with Mr. Ardlee last year."], "Ardlee Service, Inc.", "Ardlee"),
    (["Payment to Henry Milo Associates, New York", "Henry Milo will present the programs."],
     "Henry Milo Associates", "Henry Milo")])
def test_a_models_name_repeated_into_a_firms_name_takes_the_firms_type(redactor, rows, firm, person):
    page = page_from_rows(rows)
    spans = redactor.detect(page)
    shown = [(s.type, page.text[s.start:s.end], s.detector) for s in spans]
    at = page.text.index(firm)
    assert ("ORGANIZATION", firm) in [(t, v) for t, v, _ in shown], shown
    # no person's name is left inside the firm's (the model's guess, repeated there, was)
    assert not [s for s in spans if s.type != "ORGANIZATION" and at <= s.start < at + len(firm)], shown
    # the person the prose names stays a person
    alone = page.text.rindex(person)
    assert [s for s in spans if s.type == "PERSON" and s.start <= alone < s.end], shown
