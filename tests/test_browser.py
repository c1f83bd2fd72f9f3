"""The game notebook's widgets in a real browser: JupyterLab + headless Chromium.

Starts JupyterLab on localhost with a parameterised copy of ``01_game.ipynb``, opens
it in Debian's Chromium driven by Playwright (``executable_path``, no browser
download), runs all cells, steps through the recorded game and plays a move against
the agent with the widgets, checks that the board picture changes each time, and
saves a screenshot. Skips, saying why, where Chromium or Playwright is missing
(``.ci/run`` installs both).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from chameleon_lab.workbench import notebook_dir

CHROMIUM = os.environ.get("CHAMELEON_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab(tmp_path):
    """A JupyterLab server on localhost serving a prepared copy of the game notebook."""
    import papermill as pm

    work = tmp_path / "lab"
    work.mkdir()
    pm.execute_notebook(
        str(notebook_dir() / "01_game.ipynb"),
        str(work / "game.ipynb"),
        parameters={
            "figures_dir": str(tmp_path / "figures"),
            "data_dir": str(tmp_path / "data"),
            "agent_depth": 1,
        },
        prepare_only=True,
    )
    # render every cell (no windowing, so widgets above the viewport stay in the DOM)
    # and ask for no news: the settings live in a folder of the test's own
    settings = tmp_path / "settings" / "@jupyterlab"
    for ext, name, value in (
        ("notebook-extension", "tracker", {"windowingMode": "none"}),
        ("apputils-extension", "notification", {"fetchNews": "false"}),
    ):
        (settings / ext).mkdir(parents=True)
        (settings / ext / f"{name}.jupyterlab-settings").write_text(json.dumps(value))
    port, token = _free_port(), secrets.token_hex(16)
    jupyter = Path(sys.executable).with_name("jupyter")
    cmd = [
        str(jupyter),
        "lab",
        "--no-browser",
        "--allow-root",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={work}",
    ]
    log = tmp_path / "jupyterlab.log"
    server = subprocess.Popen(
        cmd,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        env={
            **os.environ,
            "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg"),
            "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
        },
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                pytest.fail("JupyterLab did not start within 60 s:\n" + log.read_text()[-2000:])
            time.sleep(0.5)
    yield url, token, tmp_path
    server.terminate()
    server.wait(timeout=30)


def _click_and_see_the_board_change(page, widget_class: str, button: str):
    """Wait for the widget, click its button, wait until its board SVG differs."""
    widget = page.locator(f".{widget_class}")
    widget.wait_for(timeout=180_000)
    before = widget.locator("svg").first.inner_html()
    widget.get_by_role("button", name=button).click()
    page.wait_for_function(
        f"b => document.querySelector('.{widget_class} svg').innerHTML !== b",
        arg=before,
        timeout=60_000,
    )
    return widget


@pytest.mark.slow
def test_widgets_step_through_a_game_and_play_a_move(lab):
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        pytest.skip(
            f"no Chromium at {CHROMIUM}: install Debian's chromium (.ci/run does) "
            "or set CHAMELEON_CHROMIUM"
        )
    playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    url, token, tmp_path = lab
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/lab/tree/game.ipynb?token={token}")
        page.locator(".jp-Notebook-cell").first.wait_for(timeout=60_000)
        # the kernel must be up before "Run All Cells" does anything
        page.wait_for_function(
            "() => (document.querySelector('#jp-main-statusbar') || {innerText: ''})"
            ".innerText.includes('Idle')",
            timeout=60_000,
        )
        page.locator(".jp-Notebook-cell").first.click()
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_text("Run All Cells", exact=True).click()

        viewer = _click_and_see_the_board_change(page, "chameleon-game-viewer", "next")
        # the label is a widget of its own: its update may reach the page after the board's
        viewer.get_by_text("position 1 of").wait_for(timeout=60_000)
        game = _click_and_see_the_board_change(page, "chameleon-play-against", "play")
        game.get_by_text("agent's last move").wait_for(timeout=60_000)
        shot = tmp_path / "jupyterlab-game-widgets.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        browser.close()
