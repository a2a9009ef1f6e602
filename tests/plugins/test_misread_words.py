"""Everyday words as OCR misreads them are no names; names stay names (real wordfreq, real
census lists)."""
from __future__ import annotations

import pytest

from redactor_plugins._misread_words import misread_common_word
from redactor_plugins._presidio_spans import _name_words


@pytest.mark.parametrize("word,meant", [
    ("Genera!", "general"), ("Nationa?", "national"), ("Tota]", "total"),      # look-alike glyphs
    ("SECPET", "secret"), ("Promoton", "promotion"),                           # a letter off
])
def test_an_everyday_word_read_with_a_letter_wrong_is_found(word, meant):
    assert misread_common_word(word) == meant


@pytest.mark.parametrize("word", ["Kamnit", "Kastenbawm", "Feingold", "Yunis", "EPRP", "Routh", "Lisa"])
def test_names_and_short_words_are_no_misread_everyday_word(word):
    assert misread_common_word(word) is None


@pytest.mark.parametrize("text,kept", [
    ("Genera!", []), ("Nationa?", []), ("SECPET", []),
    ("Kowalski", ["Kowalski"]),
    # a census surname is a name whatever word it is near ("Harper": "harder")
    ("Harper", ["Harper"]),
])
def test_a_models_one_word_person_that_ocr_misread_from_an_everyday_word_is_dropped(text, kept):
    assert [text[a:b] for a, b in _name_words(text, 0, len(text))] == kept
