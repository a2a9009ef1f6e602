"""Everyday words as OCR misreads them: whether a word a model took for a name is an
everyday English word with a letter or two read wrong ("Genera!", "Nationa?", "Tota]",
"SECPET", "Promoton").

OCR misreads a word's letters in two ways: glyphs of the same shape stand in for one another
(an "l" read as "!", "?", "]", "|" or "1", an "o" as "0", an "s" as "5" or "$"), and a worn
or broken letter is read as another or dropped. A small NER model sees a capitalised word
it does not know and calls it a person. A name whose letters are the census's is a name
whatever it looks like; any other word that is an everyday word once its look-alike glyphs
are put back, or that is one letter away from a frequent word, is that word misread.
Pure functions; wordfreq is imported on first use."""
from __future__ import annotations

import re
import string

# glyphs OCR reads for a letter of the same shape
_LOOK_ALIKES = str.maketrans({"!": "l", "?": "l", "]": "l", "[": "l", "|": "l", "1": "l", "0": "o",
                              "5": "s", "$": "s"})
MIN_LETTERS = 5         # shorter words have too many everyday neighbours ("Routh": "south")
COMMON_ZIPF = 3.5       # wordfreq: an everyday word, the bound the name filters use
NEIGHBOUR_MIN = 6       # a word one letter off is looked at from this length on ...
NEIGHBOUR_ZIPF = 4.0    # ... and is misread when that neighbour is this frequent ("general" 5.3)


def _edits1(word: str) -> set[str]:
    """Every string one deletion, substitution or insertion of a letter away from ``word``."""
    letters = string.ascii_lowercase
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in splits if b} |
            {a + c + b[1:] for a, b in splits if b for c in letters} |
            {a + c + b for a, b in splits for c in letters})


def misread_common_word(word: str) -> str | None:
    """The everyday word ``word`` reads as once OCR's look-alike glyphs are put back, or one
    letter away; None when it reads as no such word (or is too short to tell). Whether the
    word is a census name is the caller's to ask first."""
    from wordfreq import zipf_frequency

    letters = re.sub(r"[^a-z]", "", word.strip(".,;:()\"'“”‘’").translate(_LOOK_ALIKES).lower())
    if len(letters) < MIN_LETTERS:
        return None
    if zipf_frequency(letters, "en") >= COMMON_ZIPF:
        return letters
    if len(letters) >= NEIGHBOUR_MIN:
        best = max(_edits1(letters), key=lambda w: zipf_frequency(w, "en"))
        if zipf_frequency(best, "en") >= NEIGHBOUR_ZIPF:
            return best
    return None
