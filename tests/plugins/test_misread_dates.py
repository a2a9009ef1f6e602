"""Typed dates whose month name OCR misread (plugins/rules/misread_dates.py), as read off
unseen FUNSD forms: a day and a four-figure year beside a month word a letter off make it
a date; the same word without them, or a word merely like a month, is none."""
from __future__ import annotations

import pytest
from rules_pages import page_from_rows

from redactor_plugins.rules.misread_dates import month_of
from redactor_plugins.rules_detector import RulesDetector


@pytest.fixture(scope="module")
def rules():
    return RulesDetector()


def dates(rules, row) -> list[str]:
    return [s.text for s in rules.detect(page_from_rows([row])) if s.type == "DATE"]


@pytest.mark.parametrize("row, date", [
    ("Dete: Ocotber 9, 1968", "Ocotber 9, 1968"),              # two letters swapped
    ("Date) 27 Apri] 1982", "27 Apri] 1982"),                   # "l" read as a bracket
    ("DATE SHIPPED November 2, 1¢65", "November 2, 1¢65"),     # the year's 9 as a cent sign
    ("COMBINED *TEMay 27, 1982", "TEMay 27, 1982"),             # a caption's end glued on
    ("RECEIVED SEPTEMEER 14, 1987", "SEPTEMEER 14, 1987"),      # typed in capitals
])
def test_a_typed_date_with_its_month_misread_is_a_date(rules, row, date):
    assert date in dates(rules, row), rules.detect(page_from_rows([row]))


@pytest.mark.parametrize("row, word", [
    ("Mark 12 1999", "Mark"),                      # a name, not a month a letter off
    ("Ocotber was a good month", "Ocotber"),       # a misread month without day and year
    ("Vol 8, No. 3., Sept. 1952", "3."),           # a journal's issue number, not a day
    ("Marcy 40 units 1988", "Marcy"),              # 40 is no day
])
def test_no_date_without_a_month_word_a_day_and_a_year(rules, row, word):
    assert not [d for d in dates(rules, row) if word in d], rules.detect(page_from_rows([row]))


def test_month_of_reads_damage_but_not_words():
    assert month_of("Ocotber") == "OCTOBER" and month_of("OCt-") == "OCT"
    assert month_of("Apri]") == "APRIL" and month_of("TEMay") == "MAY"
    assert month_of("march") is None        # a verb or a noun in lower case
    assert month_of("Junk") is None and month_of("Mayor") is None
