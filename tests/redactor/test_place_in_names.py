"""The country that opens a state body's name names the body: the default pipeline (real
rules and Presidio) leaves it readable, and still hides a country written as a value."""
from __future__ import annotations

import pytest
from rules_pages import page_from_rows

from redactor.config import RedactorConfig
from redactor.model import Span
from redactor.pipeline import Redactor
from redactor.place_in_names import opens_body_name


@pytest.mark.parametrize("text,place,body", [
    ("U.S. Department of Justice", "U.S.", True),
    ("under the laws of the United States Code", "United States", True),
    ("UNITED STATES CONGRESS", "UNITED STATES", True),
    ("Bermuda Department of Tourism", "Bermuda", True),
    ("Nationality: U.S.", "U.S.", False),
    ("Japan External Trade Organization", "Japan", False),
    ("assistance to US corporations", "US", False),
    ("a United States court said", "United States", False),     # lower case: prose, not a name
    ("the laws of the United States Code.", "United States Code", True),    # a model took it in
    # a public office's title: the country names the office, not where its holder is
    ("Donna Edwards for Congress (via Act Blue) U.S. Rep. Donna Edwards (MD)", "U.S.", True),
    ("US Sen. Russ Feingold (WI)", "US", True),
    ("the UNITED STATES AMBASSADOR to", "UNITED STATES", True),
    # a statute code's abbreviation read as a place
    ("as amended, 22 U.S.C. § 611 et seq.", "U.S.C.", True),
    # a model's place that stops inside its word, as written or as OCR read it
    ("as amended, 22 U.S.C. § 611 et seq.", "U.S", True),
    ("National Security Division, U.S.. Department of Justice", "U.S", True),
    # the name wrapped after the place, and a caption opening the next line
    ("burden to Chief, Registration Unit, Criminal Division, U.S.\nDepartment of Justice", "U.S.", True),
    ("Nationality: U.S.\nDepartment: Sales", "U.S.", False),
    ("Present Citizenship U.S.", "U.S.", False),
])
def test_a_place_before_a_bodys_head_word_opens_its_name(text, place, body):
    i = text.index(place)
    assert opens_body_name(text, Span(i, i + len(place), "LOCATION", 0.85, "presidio")) is body


def test_the_default_pipeline_leaves_the_country_of_a_body_and_hides_a_nationality():
    page = page_from_rows(["Filed under the laws of the United States Code.", "Nationality: United States"])
    spans = Redactor(RedactorConfig()).detect(page)
    code = page.text.index("United States Code")
    assert not [s for s in spans if s.start <= code < s.end], spans
    value = page.text.rindex("United States")
    assert any(s.type == "LOCATION" and s.start <= value < s.end for s in spans), spans
    # with the option on, the body's country is hidden like any place
    kept = Redactor(RedactorConfig(keep_places_in_body_names=True)).detect(page)
    assert [s for s in kept if s.type == "LOCATION" and s.start <= code < s.end], kept


@pytest.mark.parametrize("text,place,question", [
    ("9. List addresses from which material was transmitted: 10. List states and territories of "
     "the United States to which this material was transmitted", "United States", True),
    ("3. Describe the services rendered in Brazil and Peru during the period", "Brazil", True),
    # the answer after the colon, or typed after the question to the line's end, stays
    ("10. List states and territories of the United States to which: New York", "New York", False),
    ("4. State the country of birth Canada", "Canada", False),
    ("1. Name of registrant Japan External Trade Organization", "Japan", False),
])
def test_a_place_inside_a_form_items_printed_question_is_the_questions(text, place, question):
    from redactor.place_in_names import in_item_question
    i = text.index(place)
    assert in_item_question(text, Span(i, i + len(place), "LOCATION", 0.85, "presidio")) is question

