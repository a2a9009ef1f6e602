"""The catch-all for long numbers leaves a page's own identifier alone: the Bates number an
archive or a litigation production stamps at a page's edge names the sheet, not a person."""
from __future__ import annotations

import pytest

from redactor_plugins.rules_detector import RulesDetector
from redactor_plugins.rules.page_stamps import is_page_stamp
from redactor.plugin_api import page_view
from rules_pages import page_from_rows

BODY = ["The committee met on the second floor to review the test results."] * 10


@pytest.fixture(scope="module")
def det():
    return RulesDetector()


def _numbers(det, page):
    return {s.text for s in det.detect(page) if s.type == "REFERENCE_NUMBER"}


def test_a_number_alone_at_the_page_edge_is_the_pages_own(det):
    page = page_from_rows(BODY[:5] + [[(900, "40626513")]] + BODY[5:] + [[(1800, "91361993")]])
    got = _numbers(det, page)
    # the same shape in the body is still guessed an identifier; at the foot it is the page's
    assert "40626513" in got and "91361993" not in got
    view = page_view(page)
    start = page.text.index("91361993")
    assert is_page_stamp(view, start, start + 8)


@pytest.mark.parametrize("row", [
    "Acct 91361993",                          # a caption beside it: a value of the form
    [(1800, "9136 1993")],                    # two groups: a phone or an account, not a stamp
    [(1800, "AB361993")],                     # letters: a code
])
def test_a_stamp_is_one_group_of_digits_alone_on_its_line(det, row):
    page = page_from_rows(BODY + [row])
    value = row.split()[-1] if isinstance(row, str) else row[-1][1]
    start = page.text.index(value)
    assert not is_page_stamp(page_view(page), start, start + len(value))


@pytest.mark.parametrize("caption", ["OMB No.", "OMB Ne.", "OMB Nv.", "O.M.B. No.", "Budget Bureau No,"])
def test_a_federal_forms_control_number_is_the_forms_own(det, caption):
    head = f"U.S. Department of Justice Dissemination Report {caption} 1105-0006"
    got = _numbers(det, page_from_rows(BODY[:3] + [head] + BODY[3:]))
    assert "1105-0006" not in got
    # the same number without the caption is still guessed an identifier
    assert "1105-0006" in _numbers(det, page_from_rows(BODY[:3] + ["Dissemination Report 1105-0006"] + BODY[3:]))


def test_a_control_number_over_the_approvals_expiry_is_the_forms_own(det):
    """A worn 1970s FARA form: "Budget Bureau" lost, "No. 43-R226" stands over "Approval
    Expires Oct. 31, 1981"; the same number over anything else stays a reference."""
    got = _numbers(det, page_from_rows(BODY[:3] + ["No. 43-R226", "Approval Expires Oct. 31, 1981"] + BODY[3:]))
    assert "43-R226" not in got
    assert "43-R226" in _numbers(det, page_from_rows(BODY[:3] + ["No. 43-R226", "Received by the Unit"] + BODY[3:]))
