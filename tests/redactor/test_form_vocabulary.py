"""The form vocabulary (captions, organisation words, legal forms) that vetoes a capitalised
run as a person's name: its phrases' words, less the particles joining them."""
from redactor.census_names import veto_words
from redactor.form_vocabulary import form_words, only_form_words


def test_a_legal_forms_particle_is_no_form_word():
    """Mexico's "S.A. de C.V." adds its abbreviations, not the "de" of "Maria de Souza"."""
    assert {"cv", "sab"} <= form_words()
    assert "de" not in form_words() and "DE" not in veto_words()
    assert not only_form_words("de")
    # a single lower-case letter is an abbreviation's ("e.V."), still vocabulary
    assert "e" in form_words()
