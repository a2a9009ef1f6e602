"""A form's printed columns of places to tick are its options, not data: the default
pipeline (real rules and Presidio) leaves them readable, and still finds a place written
in a field or in prose."""
from __future__ import annotations

import pytest

from redactor.config import RedactorConfig
from redactor.model import OcrPage, WordBox
from redactor.pipeline import Redactor

STATES = [["Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado"],
          ["Louisiana", "Maine", "Maryland", "Michigan", "Minnesota", "Missouri"],
          ["Oklahoma", "Oregon", "Pennsylvania", "Tennessee", "Vermont", "Virginia"]]


def _words(rows: list[list[tuple[int, str]]]) -> OcrPage:
    """Rows of (x, text) cells; every row is one OCR line, 11 px a character."""
    words = []
    for n, row in enumerate(rows):
        for x, text in row:
            for w in text.split():
                words.append(WordBox(w, (x, 40 + 30 * n, x + 11 * len(w), 58 + 30 * n), 92.0, n, 0))
                x += 11 * len(w) + 11
    return OcrPage(1200, 80 + 30 * len(rows), tuple(words), "test")


def _form(with_marks: bool = True) -> OcrPage:
    rows = [[(40, "1. STATES SELECTED TO RECEIVE PRODUCT:")]]
    for i in range(6):
        row = []
        for c, column in enumerate(STATES):
            row.append((60 + 380 * c, column[i]))
            if with_marks and i % 2 == 0:
                row.append((60 + 380 * c + 200, "x"))
        rows.append(row)
    rows.append([(40, "Shipped from our warehouse in Chicago to Mary Jones on Monday.")])
    rows.append([(40, "Place of birth: Boston")])
    return _words(rows)


@pytest.fixture(scope="module")
def redactor():
    return Redactor(RedactorConfig())


def test_a_printed_list_of_states_to_tick_is_left_and_written_places_are_found(redactor):
    page = _form()
    places = [s.text for s in redactor.detect(page) if s.type == "LOCATION"]
    assert not set(places) & {n for column in STATES for n in column}, places
    assert "Chicago" in places and "Boston" in places, places
    kept = [s.text for s in Redactor(RedactorConfig(keep_option_lists=True)).detect(page)
            if s.type == "LOCATION"]
    assert len(set(kept) & {n for column in STATES for n in column}) >= 8, kept


def test_a_few_places_one_per_line_are_no_option_list(redactor):
    page = _words([[(60, "Offices:")], [(60, "Boston")], [(60, "Chicago")], [(60, "Denver")]])
    places = {s.text for s in redactor.detect(page) if s.type == "LOCATION"}
    assert {"Boston", "Chicago", "Denver"} <= places, places


def test_a_place_written_elsewhere_does_not_bring_its_option_back(redactor):
    """"Place of birth: Oregon" is hidden, and so are its repeats, but not the printed
    option "Oregon" in the list to tick."""
    rows = [[(40, "1. STATES SELECTED TO RECEIVE PRODUCT:")]]
    rows += [[(60 + 380 * c, column[i]) for c, column in enumerate(STATES)] for i in range(6)]
    rows.append([(40, "Place of birth: Oregon")])
    page = _words(rows)
    spans = [s for s in redactor.detect(page) if s.type == "LOCATION"]
    written = page.text.rindex("Oregon")
    assert any(s.start <= written < s.end for s in spans), spans
    option = page.text.index("Oregon")
    assert not [s for s in spans if s.start <= option < s.end], spans
