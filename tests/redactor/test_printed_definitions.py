"""A statute's definition a government form prints (the FARA signature page's footnote) is
the form's own text: the default pipeline (real rules and Presidio) leaves its country and
government readable, and still hides a place or an organisation the filer wrote, and one a
question about the term is answered with."""
from __future__ import annotations

import pytest
from memo_pages import page_of_lines as _page

from redactor.config import RedactorConfig
from redactor.model import Span
from redactor.pipeline import Redactor
from redactor.printed_definitions import definition_sentences, drop_in_printed_definitions

# the footnote as OCR read it on a dev page of the real set (its "1(o)" read "1(0)")
FOOTNOTE = [
    "their entirety true and accurate to the best of his/her knowledge and belief.",
    "Footnote: \u201cPolitical activity,\" as defined in Section 1(0) of the Act, means any activity which the",
    "any agency or official of the Government of the United States or any section of the public within the",
    "United States with reference to formulating, adopting, or changing the domestic or foreign policies of",
    "the United States or with reference to the political or public interests, policies, or relations of a",
    "government of a foreign country or a foreign political party.",
    "Received by NSD/FARA Registration Unit 07/24/2017 11:40:19 AM",
]



@pytest.fixture(scope="module")
def redactor():
    return Redactor(RedactorConfig())


def test_the_definition_is_one_sentence_from_its_term_to_its_stop():
    text = "\n".join(FOOTNOTE)
    (a, b), = definition_sentences(text)
    assert text[a:b].lstrip().startswith("Footnote:") and text[a:b].endswith("foreign political party.")


@pytest.mark.parametrize("text", [
    # a question that uses the term: the answer may follow it
    "12. Do any of the above described services include political activity as defined in Section 1(o) "
    "of the Act and in the footnote below? Yes No\nIf yes, describe: meetings with the Embassy of Japan",
    # no statute's definition at all
    "Our offices in the United States and the Government of Japan met.",
])
def test_no_definition_in_a_question_or_in_prose(text):
    assert definition_sentences(text) == []


def test_only_places_and_organisations_inside_it_are_dropped():
    text = "\n".join(FOOTNOTE)
    inside = text.index("Government of the United States")
    spans = [Span(inside, inside + 31, "ORGANIZATION"), Span(inside, inside + 31, "PERSON"),
             Span(text.index("07/24/2017"), text.index("07/24/2017") + 10, "DATE")]
    assert [s.type for s in drop_in_printed_definitions(text, spans)] == ["PERSON", "DATE"]


def test_the_default_pipeline_leaves_the_footnote_and_hides_the_filers_values(redactor):
    page = _page(["Name of registrant: Ketchum Public Relations, New York", "Nationality: United States"] +
                 FOOTNOTE)
    found = {(s.type, s.text) for s in redactor.detect(page)}
    in_footnote = [s for s in redactor.detect(page) if s.type in ("LOCATION", "ORGANIZATION") and
                   page.text.index("Footnote") <= s.start < page.text.index("Received by")]
    assert in_footnote == [], in_footnote
    assert ("LOCATION", "United States") in found, found
    assert ("DATE", "07/24/2017 11:40:19 AM") in found, found
    kept = Redactor(RedactorConfig(keep_places_in_body_names=True)).detect(page)
    assert any(s.type in ("LOCATION", "ORGANIZATION") and "United States" in s.text and
               s.start > page.text.index("Footnote") for s in kept)
