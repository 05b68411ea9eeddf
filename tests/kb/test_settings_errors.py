"""A KB_* value that fails validation is bad input: exit 2 and one line naming the variable, what it got and what
is accepted, for every command (the settings are checked before any command runs)."""

from __future__ import annotations

import pytest

from kb.cli.main import main
from kb.settings import Settings, get_settings

FIT = ["fit", "--model", "7b", "--workload", "inference", "--gpu", "rtx-4090"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    get_settings.cache_clear()
    with pytest.raises(SystemExit) as exited:
        main(argv)
    return int(exited.value.code or 0), capsys.readouterr().err


@pytest.mark.parametrize(("name", "value", "says"), [
    ("KB_MFU", "1.5", "less than or equal to 1"),
    ("KB_MFU", "fast", "valid number"),
    ("KB_PORT", "eighty", "valid integer"),
    ("KB_EMBED_WAIT_POLICY", "sometimes", "passive|active|spin:"),
    ("KB_TRUSTED_PROXIES", "10.0.0.0/8,edge", "'edge' is not an IP address or network"),
    ("KB_CORS_ORIGINS", "[not json", "JSON array"),
])
@pytest.mark.parametrize("argv", [FIT, ["serve"], ["ask", "4090 显存多大"], ["index"]],
                         ids=["fit", "serve", "ask", "index"])
def test_a_bad_value_is_exit_2_naming_variable_value_and_what_is_accepted(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, value: str, says: str,
        argv: list[str]) -> None:
    monkeypatch.setenv(name, value)
    code, err = run(argv, capsys)
    assert code == 2, err
    assert err.count("\n") == 1 and f"{name}={value!r}" in err and says in err, err
    assert "unexpected" not in err and "Traceback" not in err


def test_an_empty_api_keys_says_to_unset_it(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KB_API_KEYS", "")
    code, err = run(["serve"], capsys)
    assert code == 2 and "KB_API_KEYS=''" in err and "unset KB_API_KEYS for no keys" in err, err


def test_a_secret_is_never_echoed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KB_API_KEYS", "[\"s3cret-key\"")
    code, err = run(FIT, capsys)
    assert code == 2 and "KB_API_KEYS" in err and "s3cret" not in err, err


@pytest.mark.parametrize(("value", "expected"), [
    ("k1,k2", ["k1", "k2"]), ('["k1", "k2"]', ["k1", "k2"]), (" k1 ", ["k1"]),
])
def test_api_keys_are_a_json_array_or_comma_separated(monkeypatch: pytest.MonkeyPatch, value: str,
                                                       expected: list[str]) -> None:
    monkeypatch.setenv("KB_API_KEYS", value)
    assert [k.get_secret_value() for k in Settings().api_keys] == expected


def test_trusted_proxies_take_addresses_networks_or_a_star(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_TRUSTED_PROXIES", "172.29.0.10, 10.0.0.0/8,::1")
    assert Settings().trusted_proxies == ["172.29.0.10", "10.0.0.0/8", "::1"]
    monkeypatch.setenv("KB_TRUSTED_PROXIES", "")
    assert Settings().trusted_proxies == []
    assert Settings(trusted_proxies=["*"]).trusted_proxies == ["*"]
