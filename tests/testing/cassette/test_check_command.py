"""``kimi cassettes check DIR|FILE [--used FILE]``: key-like strings and unused cassettes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kimi_ext.cli import EXIT_CASSETTES, EXIT_SETUP, main
from kimi_ext.testing import KimiStandIn
from tests.support.cassettes import UPSTREAM_KEY, ask, call, client_for


def kimi(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, exit=lambda code: None)
    return code, out.getvalue()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Two clean cassettes, recorded through the proxy."""
    where = tmp_path / "cassettes"
    with KimiStandIn(api_key=UPSTREAM_KEY) as upstream:
        for name in ("a", "b"):
            with (
                KimiStandIn().record(where / f"{name}.json", upstream.base_url) as proxy,
                client_for(proxy.base_url, UPSTREAM_KEY) as client,
            ):
                call(client, "chat", True, **ask("chat", f"Hello {name}"))
    return where


def test_a_clean_folder_passes(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIMI_API_KEY", UPSTREAM_KEY)
    code, out = kimi("cassettes", "check", str(folder))
    assert code == 0, out
    assert "no secret found" in out


def test_key_like_strings_are_found(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = folder / "a.json"
    document = json.loads(path.read_text())
    document["interactions"][0]["request"]["headers"]["authorization"] = "Bearer abcdefgh12345678"
    document["interactions"][0]["request"]["json"]["messages"][0]["content"] = (
        "use sk-abcdefghij1234567890qrst please"
    )
    path.write_text(json.dumps(document, indent=2))
    code, out = kimi("cassettes", "check", str(folder))
    assert code == EXIT_CASSETTES
    lines = out.splitlines()
    assert any(line.startswith(f"{path}: line ") and "credential header" in line for line in lines)
    assert any("a Bearer/Basic credential" in line for line in lines)
    assert any("a prefixed key" in line for line in lines)
    assert not any(str(folder / "b.json") in line for line in lines)
    assert "problem(s)" in capsys.readouterr().err


def test_a_piece_of_the_key_in_kimi_api_key_is_found(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = folder / "b.json"
    path.write_text(path.read_text().replace("Hello b", f"Hello {UPSTREAM_KEY[10:19]}"))
    monkeypatch.setenv("KIMI_API_KEY", UPSTREAM_KEY)
    code, out = kimi("cassettes", "check", str(folder))
    assert code == EXIT_CASSETTES
    assert f"{path}: holds a piece of the API key" in out
    assert UPSTREAM_KEY[10:19] not in out


def test_one_cassette_file_is_checked_alone(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIMI_API_KEY", UPSTREAM_KEY)
    clean, dirty = folder / "a.json", folder / "b.json"
    dirty.write_text(dirty.read_text().replace("Hello b", f"Hello {UPSTREAM_KEY[10:19]}"))
    assert kimi("cassettes", "check", str(clean)) == (0, f"{clean}: no secret found\n")
    code, out = kimi("cassettes", "check", str(dirty))
    assert (code, out) == (EXIT_CASSETTES, f"{dirty}: holds a piece of the API key\n")
    used = folder / "used.txt"
    used.write_text(f"{clean}\n")
    assert kimi("cassettes", "check", str(clean), "--used", str(used))[0] == 0
    code, out = kimi("cassettes", "check", str(dirty), "--used", str(used))
    assert f"{dirty}: no test used it" in out


def test_unused_and_broken_cassettes(folder: Path, tmp_path: Path) -> None:
    used = tmp_path / "used.txt"
    used.write_text(f"{folder / 'a.json'}\n")
    (folder / "old").mkdir()
    (folder / "old" / "broken.json").write_text("{not json")
    code, out = kimi("cassettes", "check", str(folder), "--used", str(used))
    assert code == EXIT_CASSETTES
    assert f"{folder / 'b.json'}: no test used it" in out
    assert f"{folder / 'old' / 'broken.json'}: not a usable cassette" in out
    assert f"{folder / 'a.json'}: no test used it" not in out


def test_setup_mistakes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = kimi("cassettes", "check", str(tmp_path / "nowhere"))
    assert code == EXIT_SETUP
    assert "nowhere: no such folder or cassette file" in capsys.readouterr().err
    code, _ = kimi("cassettes", "check", str(tmp_path), "--used", str(tmp_path / "missing.txt"))
    assert code == EXIT_SETUP
    assert "cannot read" in capsys.readouterr().err


def test_the_kimi_command_runs_it(folder: Path) -> None:
    env_free = {"PATH": str(Path(sys.executable).parent), "HOME": str(folder)}
    run = subprocess.run(
        [str(Path(sys.executable).parent / "kimi"), "cassettes", "check", str(folder)],
        capture_output=True, text=True, env=env_free, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "no secret found" in run.stdout
