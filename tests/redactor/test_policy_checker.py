"""The value leak checker: its golden table (each row checked on its own; documented
misses are strict xfails so a fix shows up), the traps, and properties: a value rendered in
many styles is always found; moved past the shown precision it never is."""
from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import ROUND_HALF_EVEN, Decimal

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from redactor_eval.benchmarks.bench_policy_checker import GOLDEN_2 as GOLDEN_2_PATH, evaluate, load_golden
from redactor.cli import main as cli_main
from redactor.errors import InputError
from redactor.policy.checker import check
from redactor.policy.guard import guard_text, split_claims
from redactor.policy.model import load_policies, policies_from_data, policy_from_dict
from redactor.policy.values import find_quantities, parse_value

GOLDEN = load_golden()
GOLDEN_2 = load_golden(GOLDEN_2_PATH)


def _documented_miss(row) -> bool:
    return row.known_miss


def _policy(value, **kw):
    return policy_from_dict({"id": "p", "target": "x", "values": [value], **kw})


@pytest.mark.parametrize("row", [
    pytest.param(r, id=r.note[:60],
                 marks=[pytest.mark.xfail(strict=True, reason="documented miss")]
                 if _documented_miss(r) else [])
    for r in GOLDEN])
def test_golden_row(row):
    res = check(row.policy, row.text)
    assert res.leaked == row.leaked
    if row.derivable is not None:
        assert res.derivable == row.derivable


def test_golden_table_is_substantial_and_scored():
    out = evaluate(GOLDEN)
    assert len(GOLDEN) >= 100
    assert out["leaked"]["tp"] + out["leaked"]["fn"] >= 50      # positives
    assert out["leaked"]["tn"] + out["leaked"]["fp"] >= 30      # negatives, traps among them
    assert len(out["errors"]) == sum(_documented_miss(r) for r in GOLDEN)


@pytest.mark.parametrize("golden", [GOLDEN, GOLDEN_2], ids=["table-1", "table-2"])
def test_both_golden_tables_reach_the_bar(golden):
    """Issue 34: precision >= 0.97 and recall >= 0.95 on the own table and on the one
    written independently (its rows are never relabelled to fit)."""
    c = evaluate(golden)["leaked"]
    assert c["precision"] >= 0.97 and c["recall"] >= 0.95, c


def test_traps():
    assert not check(_policy("42%"), "We have 42 employees.").leaked
    assert not check(_policy("42 employees"), "Margin was 42 %.").leaked
    assert not check(_policy("2,023"), "In 2023 revenue grew.").leaked
    assert not check(_policy("2023"), "We sold 2,023 units.").leaked
    assert check(_policy("2,023"), "We sold 2,023 units.").leaked


def test_spans_point_at_the_value_and_say_how():
    text = "Total: $100 million. Middle East: five million dollars (5%)."
    pol = _policy("$5,000,000", derivations=[{"op": "product", "operands": ["5%", "$100 million"]}])
    res = check(pol, text)
    assert res.leaked and res.derivable
    got = {(s.text, s.role, s.match) for s in res.spans}
    assert ("five million dollars", "value", "converted") in got
    assert ("$100 million", "operand", "exact") in got
    assert ("5%", "operand", "exact") in got
    for s in res.spans:
        assert text[s.start:s.end] == s.text


def test_policy_set_reports_each_policy():
    ps = policies_from_data({"policies": [
        {"id": "a", "target": "A", "values": ["$5 million"]},
        {"id": "b", "target": "B", "values": ["Project Falcon"]}]})
    res = check(ps, "Project Falcon cost $7 million.")
    assert res.leaked and res.leaked_policies == ("b",)


@pytest.mark.parametrize("data, message", [
    ({"target": "x"}, "no protected 'values'"),
    ({"values": ["$5"]}, "'target' is missing"),
    ({"target": "x", "values": ["$5 million"],
      "derivations": [{"op": "product", "operands": ["5%", "$10 million"]}]},
     "gives 500000"),
    ({"target": "x", "values": ["$5 million"], "derivations": [{"op": "power", "operands": ["1", "2"]}]},
     "unknown derivation op"),
    ({"target": "x", "values": ["$5 million"], "tolerance": 2}, "tolerance must be in"),
    ({"target": "x", "values": ["$5 million"], "type": "SHOE"}, "type 'SHOE'"),
])
def test_bad_policies_are_one_line_input_errors(data, message):
    with pytest.raises(InputError, match=message):
        policies_from_data(data)


def test_policy_files(tmp_path):
    good = tmp_path / "p.yaml"
    good.write_text("policies:\n  - id: r\n    target: revenue\n    values: ['$5 million']\n")
    assert [p.id for p in load_policies(good)] == ["r"]
    bad = tmp_path / "p.json"
    bad.write_text("{not json")
    with pytest.raises(InputError, match="not valid JSON"):
        load_policies(bad)
    empty = tmp_path / "e.yaml"
    empty.write_text("")
    with pytest.raises(InputError):
        load_policies(empty)


def test_number_words_keep_offsets():
    text = "Revenue of two point five billion euros and forty-two percent margin"
    qs = find_quantities(text)
    assert [(q.text, q.kind) for q in qs] == [("two point five billion euros", "amount"),
                                              ("forty-two percent", "ratio")]
    assert qs[0].value == Decimal("2.5e9") and qs[0].currency == "EUR"
    assert parse_value("March 5, 2024").precision == "day"
    assert parse_value("several things and 3 more and 4") is None


# --- the grammar of quantities (issue 34): one test per principle -------------------------

def _leaks(value, text, **kw) -> bool:
    return check(_policy(value, **kw), text).leaked


def test_shares_are_one_dimension_whatever_the_unit():
    # percent, per mille, basis points and percentage points convert into one another
    assert _leaks("40 bp", "The margin widened by 0.4 percentage points.")
    assert _leaks("1.25 percentage points", "EBITDA margin contracted by 125 bps.")
    assert _leaks("25 bp", "The lender cut the margin by 0.25%.")
    assert not _leaks("40 bp", "The margin rose by 4 percentage points.")
    assert not _leaks("8%", "Returns were 8‰ of shipments.")
    assert not _leaks("40 bp", "The fund holds 40 bonds.")


def test_points_are_percentage_points_beside_a_rate_only():
    assert _leaks("30 bp", "The yield rose 0.3 points to 4.2%.")
    assert not _leaks("30 bp", "The team scored 0.3 points per game.")


def test_number_words_with_fractions_and_connectives():
    assert _leaks("€3.5 billion", "Revenue reached three and a half billion euros.")
    assert _leaks("$1.5 million", "Capex came to a million and a half dollars.")
    assert _leaks("£750,000", "The pool was three-quarters of a million pounds.")
    assert _leaks("€2.75 million", "Spend was two and three-quarter million euros.")
    assert _leaks("50 bp", "Margins improved by half a percentage point.")
    assert _leaks("25 bps", "Rates were cut by a quarter point, to 3%.")
    assert _leaks("€1.5 million", "The grant was €1½ million.")
    assert _leaks("1,250 units", "The plant shipped twelve hundred and fifty units.")
    assert not _leaks("$600,000", "The budget was two-thirds of a million dollars.")
    assert not _leaks("$1.25 million", "It cost one and a half million dollars.")


def test_counts_compare_by_what_they_count():
    for text in ("The subsidiary had 17 staff.", "17 people work there.", "All 17 positions "
                 "were filled.", "Workforce: 17 FTEs.", "It runs with a team of 17.",
                 "The office has 17 team members."):
        assert _leaks("17 employees", text), text
    for text in ("The company operates 17 offices.", "It serves 17 client accounts.",
                 "It shipped 17 units.", "It has existed for 17 years."):
        assert not _leaks("17 employees", text), text
    assert not _leaks("240 units", "The plant employs 240 people.")
    assert _leaks("30 customers", "We served 30 clients.")


def test_shares_as_decimals_and_as_n_in_m():
    assert _leaks("12%", "The Middle East accounted for 0.12 of total revenue.")
    assert _leaks("20%", "One in five customers is based in the Gulf.")
    assert _leaks("8%", "Eight out of every hundred shipments were returned.")
    assert not _leaks("12%", "About 12 in every 1,000 customers churned.")
    assert not _leaks("41.5%", "Gross margin was 0.45 of sales.")
    assert not _leaks("20%", "Revenue per share was $0.2 of profit.")


def test_header_scales_apply_to_the_bare_numbers_under_them():
    assert _leaks("€7,500", "All amounts in € thousands. Consulting fees: 7.5; travel: 12.3.")
    assert not _leaks("€7,500", "All amounts in € millions. Consulting fees: 7.5.")
    assert _leaks("$5.2 million", "Revenue by region (USD millions): Europe 21.4, Middle East 5.2.")
    assert not _leaks("$5.2 million", "Revenue (USD thousands): Europe 21.4, Middle East 5.2.")
    table = "Region | Revenue ($000s) | Staff\nEurope | 21,400 | 212\nMiddle East | 5,000 | 17"
    assert _leaks("$5 million", table)
    assert not _leaks("$17,000", table)            # the staff column is not in $000s
    assert _leaks("12%", "Region | Share of revenue\nEurope | 0.47\nMiddle East | 0.12")
    # money without a scale word of its own takes the header's scale
    assert _leaks("$5.2 million", "Net revenue (in millions): $5.2, up from $4.9.")


def test_number_formats_by_their_grouping():
    assert _leaks("€7,500,000", "Revenue amounted to 7 500 000 €.")
    assert _leaks("€7.5 million", "Revenue was reported as 7.500.000 €.")
    assert _leaks("€7,500", "The advisory fee was 7.500,00 €.")
    assert _leaks("€3.4 million", "Revenue was 3,4 Mio. € in 2023.")
    assert not _leaks("€3.4 million", "Revenue was 3,4 Mrd. € in 2023.")
    assert not _leaks("€3.4 million", "Revenue was 3,4 Tsd. € in 2023.")
    assert _leaks("₹7,500,000", "Profit was ₹75 lakh.")
    assert _leaks("₹100 million", "Revenue was ₹10 crore.")
    assert not _leaks("€7,500,000", "The grant amounted to 7 500 €.")
    assert not _leaks("212,340", "Europe 212 340 17")     # table columns never merge
    assert not _leaks("212,340", "Europe 212 340\nAsia 17")


def test_labels_and_spelled_units_are_not_amounts():
    assert not _leaks("1,250", "Call investor relations at extension 1250.")
    assert not _leaks("$7,500", "The office occupies 7,500 square feet.")
    assert _leaks("2,400 sq ft", "The showroom has 2,400 square feet.")
    assert not _leaks("€3.4 million", "The fleet covered 3.4 million kilometres.")


def test_rounding_half_a_step_and_tolerance_windows():
    # exactly halfway at the policy's precision is not a rounding of the policy value
    assert not _leaks("$5 million", "Revenue was $5.5 million.")
    assert _leaks("$5 million", "Revenue was $4.6 million.")
    # the tolerance is a window of its own, not added to the rounding
    assert not _leaks("$5,213,000", "Revenue was about $5.5 million.", tolerance=0.05)
    assert _leaks("$5,213,000", "Revenue was about $5.5 million.", tolerance=0.1)


def test_other_currencies_agree_to_the_precision_of_a_conversion():
    rates = {"USD": 1, "EUR": 1.08}
    assert _leaks("$5 million", "Revenue was €4.63 million.", rates=rates)
    assert not _leaks("$5 million", "Revenue was €5 million.", rates=rates)


def test_numeric_month_and_year_and_days_without_a_year():
    assert _leaks("March 2024", "The product launched in 03/2024.")
    assert not _leaks("March 2024", "The product launched in 04/2024.")
    # "17 March" is a day, not a count; month-first needs the ordinal to be one
    assert not _leaks("17 employees", "The office opened on 17 March.")
    assert _leaks("17 employees", "In March 17 people joined the office.")


# --- properties ----------------------------------------------------------------------------

_SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def words(n: int) -> str:
    """English words for 0 <= n < 1000 (the test's own renderer, not the code under test)."""
    if n < 20:
        return _SMALL[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else "-" + _SMALL[n % 10])
    rest = n % 100
    return _SMALL[n // 100] + " hundred" + ("" if rest == 0 else " and " + words(rest))


SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9}


def _q(value: Decimal, step: Decimal) -> Decimal:
    return (value / step).quantize(Decimal(1), rounding=ROUND_HALF_EVEN) * step


def money_renderings(value: int) -> list[tuple[str, Decimal]]:
    """(text, shown step in dollars) for many ways to write ``value`` dollars."""
    v = Decimal(value)
    out = [(f"${value:,}", Decimal(1)), (f"${value}", Decimal(1)), (f"USD {value:,}", Decimal(1)),
           (f"{value:,} USD", Decimal(1)), (f"US${value:,}.00", Decimal("0.01"))]
    for word, scale in SCALES.items():
        if v < scale:
            continue
        for decimals in (0, 1, 2):
            step = Decimal(scale).scaleb(-decimals)
            shown = _q(v, step) / scale
            num = f"{shown:.{decimals}f}"
            out.append((f"${num} {word}", step))
            out.append((f"{num} {word} dollars", step))
            short = {"thousand": "k", "million": "m", "billion": "bn"}[word]
            out.append((f"${num}{short}", step))
            out.append((f"USD {num}{short}", step))
        whole = _q(v, Decimal(scale)) / scale
        if 0 < whole < 1000:
            out.append((f"{words(int(whole))} {word} dollars", Decimal(scale)))
    return out


amounts = st.integers(min_value=1_000, max_value=999_000_000_000)


@settings(max_examples=150, deadline=None)
@given(amounts, st.sampled_from(["The region earned {}.", "{} came from the Middle East",
                                 "Revenue: {}\nCosts: 12 %"]))
def test_money_in_any_style_is_found(value, frame):
    policy = _policy(f"${value:,}")
    for text, _ in money_renderings(value):
        res = check(policy, frame.format(text))
        assert res.leaked, text


@settings(max_examples=150, deadline=None)
@given(amounts, st.integers(min_value=1, max_value=3), st.booleans())
def test_money_past_the_shown_precision_is_never_found(value, k, up):
    policy = _policy(f"${value:,}")
    for text, step in money_renderings(value):
        if step == Decimal("0.01"):
            step = Decimal(1)
        near = _q(Decimal(value), step)
        moved = near + (k if up else -k) * step
        if abs(moved - value) <= step / 2 or moved <= 0:
            moved = near + (k + 1) * step
        res = check(policy, f"It was ${moved:,.2f} in total.")
        assert not res.leaked, (text, moved)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=1, max_value=999), st.sampled_from([0, 1]))
def test_percentages_in_any_style_are_found_and_neighbours_not(tenths, decimals):
    value = Decimal(tenths) / 10                 # 0.1 .. 99.9 %
    policy = _policy(f"{value:.1f}%")          # shown to a tenth: the tolerance is the text's
    step = Decimal(1).scaleb(-decimals)
    shown = _q(value, step)
    styles = [f"{shown:.{decimals}f}%", f"{shown:.{decimals}f} %", f"{shown:.{decimals}f} percent",
              f"{shown:.{decimals}f} per cent", f"{value:.2f}%"]
    if decimals == 0 and shown < 100:
        styles.append(f"{words(int(shown))} percent")
    for text in styles:
        assert check(policy, f"The share was {text} last year.").leaked, text
    far = shown + 2 * step if shown + 2 * step < 100 else shown - 2 * step
    assert not check(policy, f"The share was {far:.{decimals}f}% last year.").leaked
    # the same digits counting people are never the percentage
    assert not check(policy, f"We had {shown:.{decimals}f} employees.").leaked


DATE_STYLES = ["{d:%B} {d.day}, {d.year}", "{d.day} {d:%B} {d.year}", "{d:%Y-%m-%d}",
               "{d:%b}. {d.day}, {d.year}", "the {d.day}th of {d:%B} {d.year}",
               "{d:%m}/{d:%d}/{d.year}", "{d:%d}.{d:%m}.{d.year}"]


@settings(max_examples=150, deadline=None)
@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2150, 12, 31)),
       st.integers(min_value=1, max_value=400))
def test_dates_in_any_style_are_found_and_other_days_not(day, shift):
    policy = _policy(day.isoformat())
    for style in DATE_STYLES:
        assert check(policy, "Closing date: " + style.format(d=day) + ".").leaked, style
    other = day + timedelta(days=shift)
    for style in DATE_STYLES[:5]:          # unambiguous styles only (03/05 reads both ways)
        assert not check(policy, "Closing date: " + style.format(d=other) + ".").leaked


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1800, max_value=2199))
def test_years_and_counts_never_meet(n):
    assert not check(_policy(f"{n:,}"), f"In {n} we grew.").leaked
    assert not check(_policy(str(n)), f"We sold {n:,} units.").leaked
    assert check(_policy(f"{n:,}"), f"We sold {n:,} units.").leaked


# --- answer guarding (the checker as DVA's verifier) ---------------------------------------

GUARD_POLICY = """policies:
  - id: me
    target: Middle East revenue
    values: ["$5 million"]
    derivations: [{op: product, operands: ["5%", "$100 million"]}]
"""
ANSWER = ("Total revenue was $100 million in 2024. The Middle East accounted for 5% of it; "
          "Europe grew 3.5%.\n- Middle East revenue: five million dollars\n- Asia revenue: $40 million")


def test_claims_split_on_sentences_clauses_and_items_not_decimals():
    claims = [c.text for c in split_claims("Sales were $5.2 million. Costs rose; margin fell.\n- Item one")]
    assert claims == ["Sales were $5.2 million.", "Costs rose;", "margin fell.", "- Item one"]


def test_guard_removes_value_claims_then_breaks_the_derivation():
    g = guard_text(policies_from_data(yaml.safe_load(GUARD_POLICY)), ANSWER)
    assert g.before.leaked and g.before.derivable
    assert not g.after.leaked and not g.after.derivable
    assert g.text == "Total revenue was $100 million in 2024. Europe grew 3.5%.\n- Asia revenue: $40 million"
    kept = guard_text(policies_from_data(yaml.safe_load(GUARD_POLICY)), ANSWER,
                      break_derivations=False)
    assert "5% of it" in kept.text and "five million" not in kept.text


def test_guard_cli(tmp_path, capsys):
    pol = tmp_path / "p.yaml"
    pol.write_text(GUARD_POLICY)
    ans = tmp_path / "a.txt"
    ans.write_text(ANSWER)
    out = tmp_path / "g.txt"
    report = tmp_path / "r.json"
    assert cli_main(["guard", "--policy", str(pol), "--answer", str(ans), "--out", str(out),
                     "--report", str(report)]) == 0
    assert "five million" not in out.read_text() and "$40 million" in out.read_text()
    assert len(json.loads(report.read_text())["removed"]) == 2
    assert "removed 2 of 5 claims" in capsys.readouterr().err
    assert cli_main(["guard", "--policy", str(tmp_path / "none.yaml"), "--answer", str(ans)]) == 2
    assert "cannot read policy file" in capsys.readouterr().err
    assert not (tmp_path / "none.txt").exists()
