"""Organisation names found by their form (legal form, organisation words, firm of partners)."""
import pytest

from redactor.plugin_api import page_view

from redactor_plugins.rules.organizations import (find_organization_hits, find_organization_hits_in_text,
                                         load_organization_forms)
from redactor.model import OcrPage, WordBox


@pytest.fixture(scope="module")
def forms():
    return load_organization_forms()


def found(text, forms):
    return [(text[h.start:h.end], h.rule) for h in find_organization_hits_in_text(text, forms)]


@pytest.mark.parametrize("text, name", [
    ("Walters Associates\n97919 Jones Port", "Walters Associates"),
    ("HARDIN INC", "HARDIN INC"),
    ("Remit to Acme Widgets GmbH, Berlin", "Acme Widgets GmbH"),
    ("Thank you for choosing Duncan Marketing.", "Duncan Marketing"),
    ("Hammond Printing Co.", "Hammond Printing Co."),
    ("Bill To Smith Media Group", "Smith Media Group"),
    ("Davis and Sons", "Davis and Sons"),
    ("Order placed by Berg Advertising today", "Berg Advertising"),
    ("Paid for by Simmons for Senate", "Simmons for Senate"),
])
def test_legal_forms_and_organisation_words_after_capitalised_names(forms, text, name):
    assert name in [v for v, _ in found(text, forms)]


def test_firm_of_partners_only_on_a_line_of_its_own(forms):
    assert found("Bird, York and Herrera", forms) == [("Bird, York and Herrera", "org_firm")]
    assert found("BARTON, WHITE AND LOPEZ", forms) == [("BARTON, WHITE AND LOPEZ", "org_firm")]
    assert found("Invited: Tom, Anna and Lee came to the meeting", forms) == []
    assert found("Dear Smith, Solis and Smith", forms) == []


def test_headings_and_plain_words_are_not_organisations(forms):
    assert found("APPLICATION FOR GROUP INSURANCE", forms) == []     # capitals need a legal form
    assert found("our group of services", forms) == []               # names must be capitalised
    assert found("Mr. John Smith", forms) == []


def test_broken_data_file_is_reported(tmp_path):
    (tmp_path / "organizations.yaml").write_text("legal_forms: Inc\n")
    with pytest.raises(ValueError, match="legal_forms must be a list"):
        load_organization_forms(str(tmp_path))


def test_a_name_does_not_run_across_the_cells_of_a_form_row(forms):
    # "Advertiser | James Consulting | Agency": OCR joins the row into one line of text
    cells = [("Advertiser", 10, 160), ("James", 600, 690), ("Consulting", 700, 860), ("Agency", 1300, 1410)]
    page = OcrPage(2000, 400, tuple(WordBox(t, (x0, 100, x1, 130), 95.0, 1, 1) for t, x0, x1 in cells), "t")
    hits = find_organization_hits(page_view(page), forms)
    assert [page.text[h.start:h.end] for h in hits] == ["James Consulting"]


@pytest.mark.parametrize("text, person, org", [
    ("A copy was sent to Robin Meyers of Steele Associates.", "Robin Meyers", "Steele Associates"),
    ("We met Carlos J. Diaz of Smith Group yesterday", "Carlos J. Diaz", "Smith Group"),
])
def test_a_person_of_a_firm_is_a_person_and_a_firm(forms, text, person, org):
    got = found(text, forms)
    assert (person, "name_of_organization") in got and (org, "org_form") in got, got


@pytest.mark.parametrize("text", ["Bank of America Holdings", "Young Insurance of Ohio Group",
                                  "First Bank of Springfield Group"])
def test_an_organisation_named_with_of_stays_whole(forms, text):
    assert found(text, forms) == [(text, "org_form")]
