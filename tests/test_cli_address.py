"""`muster app --address`: where the companion listens (issue 30), checked before the server starts."""

from __future__ import annotations

import pytest

from companion import cli, server


@pytest.mark.parametrize("address", ["no.such.host.invalid", "10.254.254.254"])
def test_an_address_this_machine_does_not_have_is_refused(address: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["app", "--address", address, "--port", "8599"]) == 2
    assert f"muster: --address {address} is not an address of this machine" in capsys.readouterr().err


def test_the_address_reaches_streamlit_and_the_phones_link(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(server.PUBLIC_URL_ENV, raising=False)
    assert server.check_port(8599, "127.0.0.1") == 8599
    command = server.streamlit_command(9000, "127.0.0.1")
    assert command[command.index("--server.address") + 1] == "127.0.0.1"
    assert server.streamlit_command(9000)[command.index("--server.address") + 1] == "0.0.0.0"
    assert cli._public_url(None, 9000, "127.0.0.1") == "http://127.0.0.1:9000"
    assert cli._public_url(None, 9000, "::1") == "http://[::1]:9000"
