"""kb.numbers: the one reader of numbers (the verifier, the records' checker and the corpus tests use it)."""

from __future__ import annotations

import re

from kb.answer.verify import unsupported
from kb.numbers import number_values, read_numbers


def test_multipliers_in_both_languages_and_a_shared_range_multiplier() -> None:
    assert {19000.0, 1.9} <= number_values("约1.9万元")
    assert 2e9 in number_values("2 billion parameters") and 3e12 in number_values("3万亿 token")
    assert {10000.0, 20000.0} <= number_values("1-2万元")  # the range's 1 is 10,000 too
    assert [n.text for n in read_numbers("1-2万元")] == ["1", "2万"]


def test_names_are_not_figures() -> None:
    assert number_values("A100 的 FP16、x16、H100") == set()
    assert number_values("RTX 4090") == {4090.0}


def test_the_verifier_reads_numbers_as_the_records_checker_does() -> None:
    figures = number_values("A100 80GB 约15万元，带宽 2.0 TB/s")
    assert unsupported("A100 80GB 价格约 15万元 [1]", figures) == []
    assert unsupported("带宽 2,000 GB/s [1]", figures) == []  # TB/s → GB/s is a unit change a reader redoes
    assert unsupported("约 16万元 [1]", figures) == ["16万"]


def test_english_counts_reach_the_hundreds() -> None:
    from kb.understand.numerals import EN_COUNT, to_int

    assert [to_int(w) for w in ("a hundred", "one hundred", "two hundred and fifty", "three hundred twelve",
                                "ninety-nine")] == [100, 100, 250, 312, 99]
    assert re.fullmatch(EN_COUNT, "two hundred and fifty") and not re.search(EN_COUNT, "hundredth")


def test_a_thousands_comma_with_decimals_is_one_number() -> None:
    assert [n.text for n in read_numbers("about 2,434.5 days.")] == ["2,434.5"]
    assert [n.text for n in read_numbers("1,234,567.8 x, then 2,434.56.")] == ["1,234,567.8", "2,434.56"]
    assert unsupported("about 2,434.5 days [F1]", {2434.450676638177}) == []
