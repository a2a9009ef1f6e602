"""The Presidio recognizer that reports as PERSON the names a small NER model files as
places or organisations, by the census name lists (``redactor.census_names``)."""
from __future__ import annotations

from redactor.plugin_api import (CENSUS_NAME_SCORE, CENSUS_RETAGGED_LABELS, given_names, reads_as_name,
                                surnames, veto_words)
from redactor_plugins.rules.gazetteer import known_place

def census_name_recognizer(language: str = "en"):
    """A Presidio recognizer that reports as PERSON the spaCy entities of CENSUS_RETAGGED_LABELS
    that read as a name (``reads_as_name``). It reads the model's own labels from the
    parsed document, so it works whether or not Presidio is told to ignore organisations."""
    from presidio_analyzer import EntityRecognizer, RecognizerResult

    class CensusNameRecognizer(EntityRecognizer):
        def load(self) -> None:
            given_names(), surnames(), veto_words()

        def analyze(self, text, entities, nlp_artifacts=None):
            if nlp_artifacts is None or nlp_artifacts.tokens is None or "PERSON" not in entities:
                return []
            out = []
            for ent in nlp_artifacts.tokens.ents:
                if ent.label_ in CENSUS_RETAGGED_LABELS and "\n" not in ent.text and \
                        reads_as_name(ent.text.split()) and not known_place(ent.text):
                    out.append(RecognizerResult("PERSON", ent.start_char, ent.end_char, CENSUS_NAME_SCORE))
            return out

    return CensusNameRecognizer(supported_entities=["PERSON"], name="CensusNameRecognizer",
                                supported_language=language)
