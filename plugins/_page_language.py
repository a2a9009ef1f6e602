"""The language a page is written in, read from its own words, for the detectors whose
model knows one language (the English NER model of the `presidio` detector).

A business letter or an invoice from Germany, France or the Netherlands is written in that
country's language; an English model reads its capitalised everyday words as names and
places ("Menge Beschreibung", "Aufsichtsrat", "Bankverbindung"). The page's language is the
one in whose everyday vocabulary most of its words are (wordfreq's frequency lists, which
install with the package and load offline), English unless another leads it clearly."""
from __future__ import annotations

import re

LANGUAGES = ("en", "de", "fr", "nl", "es", "it", "pt")
EVERYDAY_ZIPF = 3.5     # wordfreq Zipf of a word a language's writers use every day
MIN_WORDS = 20          # fewer words tell no language apart
MARGIN = 0.1            # another language's share must lead English's by this much
ENGLISH_SURE = 0.65     # a page with this share of everyday English words is English (English
                        # invoices and letters: 0.68-0.84; German, Dutch, French ones 0.25-0.36;
                        # a short French letter 0.53, its names and places being English words
                        # too: "Madame Claire Martin", "Paris", "avenue")
_WORD = re.compile(r"[^\W\d_]{3,}")
_LETTER_WORD = re.compile(r"[^\W\d_]{2,}")


def everyday_in(word: str, language: str) -> bool:
    from wordfreq import zipf_frequency   # on first use: importing stays light

    # other languages from wordfreq's small lists (everyday words are all in them; the large
    # ones would cost some 30 MB a language); English's large list is loaded anyway
    return zipf_frequency(word.lower(), language, wordlist="best" if language == "en" else "small") >= EVERYDAY_ZIPF


def page_language(text: str) -> str:
    """The language code of ``text`` among LANGUAGES ("en" when unsure)."""
    words = [w.lower() for w in _WORD.findall(text)]
    if len(words) < MIN_WORDS:
        return "en"
    english = sum(everyday_in(w, "en") for w in words) / len(words)
    if english >= ENGLISH_SURE:
        return "en"       # the other languages' lists stay unloaded
    shares = {lang: sum(everyday_in(w, lang) for w in words) / len(words) for lang in LANGUAGES[1:]}
    shares["en"] = english
    best = max(shares, key=shares.get)
    return best if shares[best] >= shares["en"] + MARGIN else "en"


def letter_words(value: str) -> list[str]:
    """The words of ``value`` written in letters, two or more of them."""
    return _LETTER_WORD.findall(value)


def everyday_words_of(value: str, language: str) -> bool:
    """Whether every word of ``value`` (``letter_words``) is an everyday word of
    ``language``: a caption or a heading of the page's language, not a name."""
    words = letter_words(value)
    return bool(words) and all(everyday_in(w, language) for w in words)
