"""One list of forms of address (mappings/rules/names.yaml ``personal_titles``) serves every
detector: the rules announce a name with it, the language model's names and a surname's
repeats leave it out of the name."""
from memo_pages import page_of, person
from redactor.plugin_api import is_title, personal_titles
from redactor.surname_repeats import propagate_surnames
from redactor_plugins.rules.lexicon import load_vocab


def test_forms_of_address_of_several_countries_are_titles_as_ocr_prints_them():
    for word in ("Mr.", "DR:", "(Smt.", "Shri", "Mme", "Herr", "Messrs."):
        assert is_title(word), word
    # "Sri" opens places as often ("Sri Lanka"); a name is no title
    for word in ("Sri", "Maria", "Judge", "Director"):
        assert not is_title(word), word


def test_the_rules_read_personal_titles_and_ranks_as_honorifics():
    honorifics = {h.lower() for h in load_vocab().honorifics}
    assert personal_titles() <= honorifics
    assert {"judge", "officer", "rev"} <= honorifics
    assert "judge" not in personal_titles()


def test_a_surname_after_an_indian_title_is_a_repeat_of_the_person():
    page = page_of([[("Written", 10, 150), ("By", 170, 220), ("W.", 240, 280), ("E.", 300, 340),
                     ("Routh", 360, 480)],
                    [("Ask", 10, 80), ("Smt.", 100, 170), ("Routh", 190, 310), ("now", 330, 400)]])
    found = [person(page, "W. E. Routh")]
    assert [page.text[s.start:s.end] for s in propagate_surnames(page, found)[1:]] == ["Routh"]
