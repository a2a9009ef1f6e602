"""A found person's surname written alone elsewhere on the page (redactor.surname_repeats),
on hand-built OCR pages laid out like a memo's responsibility table (funsd-00093726)."""
import pytest

from redactor.model import Span
from memo_pages import page_of, person
from redactor.surname_repeats import propagate_surnames


def repeats(page, found):
    return [page.text[s.start:s.end] for s in propagate_surnames(page, found)[len(found):]]


WRITTEN_BY = [("Written", 10, 150), ("By", 170, 220), ("W.", 240, 280), ("E.", 300, 340),
              ("Routh", 360, 480)]


def test_a_surname_in_a_table_cell_repeats_the_person_named_in_full():
    page = page_of([WRITTEN_BY,
                    [("Shipping", 10, 170), ("Routh", 600, 720)],      # a cell of its own
                    [("Ask", 10, 80), ("Mr.", 100, 150), ("Routh", 170, 290), ("now", 310, 380)]])
    assert repeats(page, [person(page, "W. E. Routh")]) == ["Routh", "Routh"]


def test_a_surname_repeats_in_the_other_case_a_typed_memo_sets_names_in():
    # the header and copy list in capitals, the body in mixed case, and the other way round
    page = page_of([[("TO:", 10, 60), ("W.", 80, 120), ("E.", 140, 180), ("ROUTH", 200, 330)],
                    [("Shipping", 10, 170), ("Routh", 600, 720)],
                    [("Packing", 10, 150), ("rOUTH", 600, 720)]])       # no casing of a name
    assert repeats(page, [person(page, "W. E. ROUTH")]) == ["Routh"]
    page = page_of([WRITTEN_BY, [("Shipping", 10, 170), ("ROUTH", 600, 720)]])
    assert repeats(page, [person(page, "W. E. Routh")]) == ["ROUTH"]


def test_an_inverted_name_gives_its_first_word_as_the_surname():
    page = page_of([[("Routh,", 10, 130), ("W.", 150, 190), ("E.", 210, 250)],
                    [("Shipping", 10, 170), ("Routh", 600, 720)]])
    assert repeats(page, [person(page, "Routh, W. E.")]) == ["Routh"]


@pytest.mark.parametrize("line", [
    [("Routh", 10, 130), ("Industries", 150, 350)],       # part of a firm's name
    [("John", 10, 100), ("Routh", 120, 240)],              # someone else, or a detector's
])
def test_a_surname_beside_another_capitalised_word_is_not_repeated(line):
    page = page_of([WRITTEN_BY, line])
    assert repeats(page, [person(page, "W. E. Routh")]) == []


def test_a_surname_that_is_an_everyday_word_is_not_repeated():
    # a table's "White" is a colour, not Mr. White
    page = page_of([[("By", 10, 60), ("A.", 80, 120), ("White", 140, 260)],
                    [("Labels", 10, 150), ("White", 600, 720)]])
    assert repeats(page, [person(page, "A. White")]) == []


def test_a_repeat_inside_a_span_found_already_keeps_that_span():
    page = page_of([WRITTEN_BY, [("Routh", 10, 130), ("Tobacco", 150, 300), ("Co.", 320, 380)]])
    firm = page.text.index("Routh Tobacco")
    org = Span(firm, firm + len("Routh Tobacco Co."), "ORGANIZATION", 0.9, "rules")
    assert repeats(page, [person(page, "W. E. Routh"), org]) == []


def test_a_one_word_person_gives_no_surname():
    page = page_of([[("Routh", 10, 130)], [("Shipping", 10, 170), ("Routh", 600, 720)]])
    assert repeats(page, [person(page, "Routh")]) == []
