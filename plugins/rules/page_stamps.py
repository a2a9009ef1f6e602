"""Numbers a page carries about itself, which the catch-all for long numbers leaves alone
(labelled values are other rules'):

- the page identifier that archives and litigation productions stamp at a page's edge (a
  Bates number, "91361993" up the right margin or at the foot): it names the sheet in a
  collection, like a page number, not a person's record;
- a government form's own control number, printed in its header ("OMB No. 1105-0004",
  "Budget Bureau No. 43-R226" on older US federal forms): it names the form, the same on
  every copy anyone files;
- the form's own dates beside them: when its approval expires ("Approval Expires Oct. 31,
  1971", "OMB No. 1124-0003; Expires May 31, 2020") and its edition under its designation
  ("FORM CRM-159 / SEP. 89"): dates of the form, not of anything a filer did."""
from __future__ import annotations

import re

from redactor.plugin_api import PageView

EDGE_BAND = 0.18          # within the outer 18 % of the page's width or height (the margin
                          # and the foot, where the stamp goes; body text starts further in)
STAMP_DIGITS = (7, 10)    # a page identifier is a run of 7 to 10 digits, one group


# "OMB No.", "O.M.B. No.", "Budget Bureau No.", as OCR reads them ("OMB Ne.", "OMB Nv.",
# "IMB NO.", "Bud; ureau No.")
FORM_CONTROL = re.compile(r"(?i)(?:(?<![A-Za-z])[OI0]\.?[ ]?M\.?[ ]?B\.?|reau)[ ]?N[a-z0][.,:]?[ ]*$")


# the rest of the control number's line, then the approval's expiry on the next
FORM_EXPIRY_UNDER = re.compile(r"[^\n\w]{0,3}\n+[^\n\w]{0,3}(?i:approval[ ]+expires)")


# what stands before a form's own date: the approval's expiry after the control number, or
# the form's designation right over its edition ("FORM CRM-159" on the line above, as OCR
# reads it with a stray mark between). (A revision date in brackets after a form's own name,
# "SQC-21 (Revised 5/9/61)", is annotated as a date in the real set: it stays.)
FORM_DATE = re.compile(r"(?i)(?:(?:approval[ ]+|(?:[OI0]\.?[ ]?M\.?[ ]?B\.?|reau)[ ]?N[a-z0][.,:]?[ ]*"
                       r"[\w.\-]+[;,.:]?[ ]*)expires[ :]*"
                       r"|(?-i:\b(?:FORM|Form)[ ]+[A-Z]{2,4}-\d{2,3}\b)[.,]?[ ]*\n[^\n\w]{0,3})$")


def is_form_date(text: str, start: int) -> bool:
    """Whether the date at ``start`` is a form's own (its approval's expiry, its edition)."""
    return bool(FORM_DATE.search(text[max(0, start - 60):start]))


def is_form_control_number(text: str, start: int, end: int | None = None) -> bool:
    """Whether the number at ``start`` (to ``end``) follows a form's control-number caption,
    or stands over the approval's expiry ("No. 43-R226" / "Approval Expires Oct. 31, 1981":
    the "Budget Bureau" before it lost to a worn print)."""
    if FORM_CONTROL.search(text[max(0, start - 24):start]):
        return True
    return end is not None and FORM_EXPIRY_UNDER.match(text, end) is not None


def is_page_stamp(layout: PageView, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a page identifier: one group of 7-10 digits (a stray
    mark OCR read beside it aside: "8'7533049"), alone on its line, in the page's edge band."""
    value = layout.page.text[start:end].strip()
    digits = re.sub(r"\D", "", value)
    if not STAMP_DIGITS[0] <= len(digits) <= STAMP_DIGITS[1] or len(value) - len(digits) > 1 \
            or re.search(r"[A-Za-z\s]", value):
        return False
    ids = layout.words_in(start, end)
    if not ids:
        return False
    line = layout.line_of_word(ids[0])
    if any(w not in ids and any(c.isalnum() for c in layout.words[w].text) for w in line.words):
        return False
    boxes = [layout.words[w].bbox for w in ids]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    width, height = layout.page.width, layout.page.height
    return min(x0 / width, 1 - x1 / width, y0 / height, 1 - y1 / height) <= EDGE_BAND
