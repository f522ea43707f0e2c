"""The command line under abuse (issue 12): each case ends in its message and exit status, never a
traceback, and `muster app` leaves no process behind when it is killed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from postgres_server import free_port

from cards.load import CARDS_ROOT

MUSTER = [sys.executable, "-m", "companion.cli"]


def muster(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MUSTER, *args], capture_output=True, text=True, timeout=300, **kw)  # type: ignore[call-overload]


@pytest.mark.parametrize(("args", "message"), [
    (["build", "warfare", "--companion-url", "http://" + "a" * 3000],
     "muster: --companion-url is 3,007 characters long; a QR code on a card holds at most 200\n"),
    (["build", "warfare", "--companion-url", "http://"],
     "muster: --companion-url 'http://' must start with http:// or https://, then a host name, "
     "like http://192.168.1.20:8501\n"),
    (["build", "warfare", "--companion-url", "http://host:99999"],
     "muster: --companion-url 'http://host:99999' is not a valid URL (Port out of range 0-65535)\n"),
    (["build", "warfare", "--cards", "/no/such/folder"], "muster: --cards: '/no/such/folder' is not a folder\n"),
    (["cards", "warfare", "--cards", "/no/such/folder"], "muster: --cards: '/no/such/folder' is not a folder\n"),
    (["app", "--port", "0", "--cards", "/no/such/folder"], "muster: --port 0 is out of range; use a number from 1 "
                                                          "to 65535 (default 8501)\n"),
    (["cards", "../warfare"], f"muster: 1 problem(s) in the game data:\n  {CARDS_ROOT}/../warfare/game.toml: "
                              "no game '../warfare' here (games: hexbattle, imperial, medieval, warfare, waterloo)\n"),
])
def test_bad_arguments_get_their_message_and_exit_2(args: list[str], message: str) -> None:
    result = muster(*args)
    assert (result.returncode, result.stderr) == (2, message)


def test_the_companion_url_from_the_environment_is_checked_too() -> None:
    result = muster("build", "warfare", env={**os.environ, "MUSTER_COMPANION_URL": "ftp://x"})
    assert (result.returncode, result.stderr) == (
        2, "muster: $MUSTER_COMPANION_URL 'ftp://x' must start with http:// or https://, then a host name, "
           "like http://192.168.1.20:8501\n")


@pytest.mark.parametrize(("url", "env", "message"), [
    ("ftp://muster.example.org", False, "--public-url 'ftp://muster.example.org' must start with http:// or https://, "
                                        "then a host name, like http://192.168.1.20:8501"),
    ("https://muster.example.org/?club=1", False,
     "--public-url 'https://muster.example.org/?club=1' must not have a query or #fragment: links add their own "
     "(?table=…), so give the address only, like https://muster.example.org"),
    ("https://muster.example.org:0x50", True,
     "$MUSTER_PUBLIC_URL 'https://muster.example.org:0x50' is not a valid URL (Port could not be cast to integer "
     "value as '0x50')"),
])
def test_a_bad_public_url_is_refused_before_the_server_starts(tmp_path: Path, url: str, env: bool, message: str) -> None:
    args = ["app", "--port", str(free_port()), "--data-dir", str(tmp_path)]
    result = muster(*args, env={**os.environ, "MUSTER_PUBLIC_URL": url}) if env else muster(*args, "--public-url", url)
    assert (result.returncode, result.stderr) == (2, f"muster: {message}\n")


def test_a_public_url_without_the_base_path_is_refused(tmp_path: Path) -> None:
    """Streamlit serves the companion under `server.baseUrlPath` (here from ~/.streamlit/config.toml): an address
    that does not end with it would hand the phones links that miss the companion."""
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "config.toml").write_text('[server]\nbaseUrlPath = "/muster/"\n', encoding="utf-8")
    result = muster("app", "--port", str(free_port()), "--data-dir", str(tmp_path / "data"), "--public-url",
                    "https://club.example/", env={**os.environ, "HOME": str(tmp_path)})
    assert (result.returncode, result.stderr) == (
        2, "muster: --public-url 'https://club.example' does not end with /muster, the path Streamlit serves the "
           "companion under (server.baseUrlPath in its config.toml), so its links would miss the companion; give the "
           "address phones open it at, like https://club.example/muster\n")


def test_streamlits_base_path_variable_is_refused_saying_where_the_option_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The companion's server (an `st.App` under uvicorn) does not read Streamlit's `STREAMLIT_*` variables, so
    this one would leave the companion at the root while the proxy sends phones to the path."""
    from companion import cli, server

    monkeypatch.setenv(server.BASE_PATH_ENV, "/muster/")
    with pytest.raises(cli.UsageError) as refused:  # the address is worked out before the server starts
        cli._public_url(None, 8501)
    assert str(refused.value) == (
        "$STREAMLIT_SERVER_BASE_URL_PATH is not read by the companion's server; set the path in Streamlit's "
        'config file instead: [server] baseUrlPath = "muster" in .streamlit/config.toml in the folder you start muster '
        "from (or in ~/.streamlit/config.toml)")
    monkeypatch.setenv(server.BASE_PATH_ENV, "/")  # no path: the root, as the companion serves it anyway
    assert server.base_path() == ""


def test_a_streamlit_config_file_that_is_not_toml_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Streamlit skips such a file with a traceback in its log, so the server would not be where its options say."""
    from companion import cli

    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "config.toml").write_text('[server\nbaseUrlPath = "muster"\n', encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(cli.UsageError) as refused:
        cli._public_url(None, 8501)
    assert str(refused.value) == (
        f"Streamlit's config file {tmp_path}/.streamlit/config.toml is not valid TOML (Expected ']' at the end "
        "of a table declaration (at line 1, column 8)); fix it, or remove it")


def test_a_cards_folder_from_the_environment_is_checked_too() -> None:
    result = muster("check", env={**os.environ, "MUSTER_CARDS_DIR": "/no/such/folder"})
    assert (result.returncode, result.stderr) == (
        2, "muster: 1 problem(s) in the game data:\n  /no/such/folder: not a folder (the cards folder comes from "
           "--cards or $MUSTER_CARDS_DIR)\n")


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """`muster cards warfare --format json | head -1`: exit 141 (a closed pipe, as SIGPIPE would give), silence.

    The reader is gone before muster writes (its end of the pipe is closed first), so the write must
    meet a closed pipe whatever the machine's speed: the listing (26 kB) would fit a pipe's buffer."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([*MUSTER, "cards", "warfare", "--format", "json"], stdout=write_end,
                              stderr=subprocess.PIPE, timeout=600)
    finally:
        os.close(write_end)
    assert (proc.returncode, proc.stderr) == (141, b"")


def test_a_full_disk_while_building_is_a_message(tmp_path: Path) -> None:
    """`ulimit -f` stands in for a full disk: writes past 16 KiB fail (Python ignores SIGXFSZ)."""
    out = tmp_path / "out"
    result = subprocess.run(["bash", "-c", 'ulimit -f 16; exec "$@"', "bash", *MUSTER, "build", "warfare",
                             "--format", "pdf", "--profile", "home-a4", "--out", str(out)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2
    assert result.stderr.startswith(f"muster: cannot write the printables to '{out}' (File too large: ")
    assert result.stderr.endswith("); free some space or choose another --out\n")


def test_cards_and_build_read_a_copy_given_with_cards(tmp_path: Path) -> None:
    root = tmp_path / "cards"
    shutil.copytree(CARDS_ROOT / "warfare", root / "warfare")
    csv = root / "warfare" / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Grenadiers", "Fusilier Guards"), encoding="utf-8")
    listed = muster("cards", "warfare", "--format", "csv", "--cards", str(root))
    assert listed.returncode == 0 and "Fusilier Guards" in listed.stdout
    built = muster("build", "warfare", "--format", "svg", "--profile", "home-a4", "--cards", str(root),
                   "--out", str(tmp_path / "out"))
    assert built.returncode == 0, built.stderr
    assert "Fusilier Guards" in (tmp_path / "out" / "warfare" / "svg" / "warfare-cards-home-a4-p01.svg").read_text()


def _copy_with(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A cards folder holding warfare and `name` (layouts.toml or profiles.toml) with its first `old` made `new`."""
    root = tmp_path / "cards"
    shutil.copytree(CARDS_ROOT / "warfare", root / "warfare")
    text = (CARDS_ROOT / name).read_text(encoding="utf-8")
    assert old in text
    (root / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def test_check_refuses_a_copy_whose_layouts_toml_is_broken(tmp_path: Path) -> None:
    root = _copy_with(tmp_path, "layouts.toml", 'ink = "#1f1b16"', 'ink = "black"')
    line = (root / "layouts.toml").read_text(encoding="utf-8").splitlines().index("[layouts.card]") + 1
    result = muster("check", "--cards", str(root))
    assert result.returncode == 2
    assert result.stderr.splitlines()[1] == (f"  {root}/layouts.toml:{line}: [layouts.card.colours.ink = 'black'] "
                                             "String should match pattern '^#[0-9a-fA-F]{6}$'")


def test_check_refuses_a_copy_whose_profiles_toml_is_broken(tmp_path: Path) -> None:
    root = _copy_with(tmp_path, "profiles.toml", "margin = 5.0", "margin = -5.0")
    line = (root / "profiles.toml").read_text(encoding="utf-8").splitlines().index("margin = -5.0") + 1
    result = muster("check", "--cards", str(root))
    assert (result.returncode, result.stderr) == (
        2, f"muster: 1 problem(s) in the game data:\n  {root}/profiles.toml:{line}: [profiles.home-a4.sheet.margin "
           "= -5.0] Input should be greater than or equal to 0\n")


def test_check_refuses_a_copy_whose_rules_text_is_broken(tmp_path: Path) -> None:
    """The booklet's text is data too: a rule constant that does not exist is named with its file and line."""
    root = tmp_path / "cards"
    shutil.copytree(CARDS_ROOT / "waterloo", root / "waterloo")
    rules = root / "waterloo" / "rules.md"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text + "\nEach player takes {no_such_rule} chips.\n", encoding="utf-8")
    result = muster("check", "--cards", str(root))
    assert (result.returncode, result.stderr) == (
        2, f"muster: 1 problem(s) in the game data:\n  {rules}:{len(text.splitlines()) + 2}: "
           "'{no_such_rule}' names no rule constant of waterloo\n")


def test_build_draws_with_the_copys_layouts_and_profiles(tmp_path: Path) -> None:
    """A changed card ink (layouts.toml) and cut-mark colour (profiles.toml) of the copy reach the printed page."""
    root = _copy_with(tmp_path, "profiles.toml", 'colour = "#000000"', 'colour = "#123456"')  # home-a4's cut marks
    (root / "layouts.toml").write_text((CARDS_ROOT / "layouts.toml").read_text(encoding="utf-8")
                                       .replace('ink = "#1f1b16"', 'ink = "#0a0b0c"', 1), encoding="utf-8")
    assert muster("check", "--cards", str(root)).returncode == 0
    built = muster("build", "warfare", "--format", "svg", "--profile", "home-a4", "--cards", str(root),
                   "--out", str(tmp_path / "out"))
    assert built.returncode == 0, built.stderr
    page = (tmp_path / "out" / "warfare" / "svg" / "warfare-cards-home-a4-p01.svg").read_text(encoding="utf-8")
    assert ("#123456" in page, "#0a0b0c" in page, "#1f1b16" in page) == (True, True, False)


def test_app_refuses_a_cards_copy_with_problems(tmp_path: Path) -> None:
    root = tmp_path / "cards"
    shutil.copytree(CARDS_ROOT / "warfare", root / "warfare")
    (root / "warfare" / "cards.csv").write_text("", encoding="utf-8")
    result = muster("app", "--port", str(free_port()), "--data-dir", str(tmp_path / "data"), "--cards", str(root))
    assert (result.returncode, result.stderr) == (
        2, f"muster: 1 problem(s) in the game data:\n  {root}/warfare/cards.csv:1: empty file: the first line must "
           "name the columns\n")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's prctl")
def test_killing_muster_app_with_sigkill_stops_streamlit(tmp_path: Path) -> None:
    app = subprocess.Popen([*MUSTER, "app", "--port", str(free_port()), "--data-dir", str(tmp_path)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: list[int] = []
    for _ in range(600):  # until Streamlit is started (a bounded wait, not a timing assertion)
        children = [int(c) for c in Path(f"/proc/{app.pid}/task/{app.pid}/children").read_text().split()]
        if children:
            break
        time.sleep(0.1)
    assert children, "muster app started no Streamlit process"
    app.send_signal(signal.SIGKILL)
    app.wait(timeout=30)
    for _ in range(300):
        if not _alive(children[0]):
            break
        time.sleep(0.1)
    assert not _alive(children[0]), "Streamlit outlived muster app"
