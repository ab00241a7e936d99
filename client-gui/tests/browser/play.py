#!/usr/bin/env python3
"""The browser client in a real browser: Debian's Chromium, driven by Selenium through
Debian's chromedriver, opens the page a real `trinchera-server --web` serves (started
here on a free loopback port with a temporary data dir). The `trinchera` CLI registers the
account Ana and creates an Asalto game against the random bot for her; the page, in a
fresh browser profile, shows its sign-in screen, signs in as Ana, finds the game among her
games in the lobby (nothing copied from the CLI: the server lists it), sets up at random
and plays until the game ends with the session's token, while a second browser watches
the game live; halfway the server restarts, and both pages carry on by themselves. Then the replay with its fairness verdict, the rules window, and
the spectator's page in Spanish. Before all that, a browser without WebGL is told what is
missing and what to do, in English and in Spanish. Widgets are found by
the labels of egui's accessibility tree, which the page publishes with `?automation`
(client-gui/src/web.rs), and clicked at their place on the canvas, as egui_kittest does
natively. The moves come from the server's legal moves (read with the `trinchera` CLI,
signed in as Ana too): a step is clicked cell by cell, anything else typed in the move box.
Screenshots go to OUT_DIR.

    python play.py --server-bin PATH/trinchera-server --cli PATH/trinchera --out OUT_DIR

Exits 0 when the game ended and the spectator saw it end, non-zero with the reason.
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
RULESET = "asalto"
ACCOUNT, PASSWORD = "Ana", "correct horse battery"
PATIENCE = 60.0  # seconds to wait for any one thing
RECLICK = 10.0  # seconds after which a typed move still in its box is sent again
MOVE_CAP = 400  # my moves before the test gives up on the game ending


def browser(profile: str, webgl: bool = True) -> webdriver.Chrome:
    """A headless Chromium with WebGL on the CPU (SwiftShader), or without WebGL at all (as
    a browser with hardware acceleration turned off may be), nothing fetched from the
    network but the page, its own empty profile."""
    options = Options()
    options.binary_location = CHROMIUM
    graphics = (
        ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
        if webgl
        else ["--disable-webgl", "--disable-3d-apis"]
    )
    for flag in [
        "--headless=new",
        "--no-sandbox",
        *graphics,
        "--window-size=1280,800",
        "--force-device-scale-factor=1",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
    ]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


class Page:
    """One browser's page of the app."""

    def __init__(self, name: str, url: str, out: Path, webgl: bool = True):
        self.name = name
        self.out = out
        self.profile = tempfile.mkdtemp(prefix=f"trinchera-{name}-")
        self.driver = browser(self.profile, webgl)
        self.driver.get(url)

    def widgets(self) -> list:
        text = self.driver.execute_script("return window.trincheraWidgets || '[]'")
        return json.loads(text)

    def texts(self) -> list:
        """What the widgets say: a control's label, a text's value."""
        return [text(w) for w in self.widgets() if text(w)]

    def wait_for(self, what: str, found, timeout: float = PATIENCE):
        """Polls the widgets until `found(widgets)` gives something; that."""
        deadline = time.monotonic() + timeout
        while True:
            got = found(self.widgets())
            if got:
                return got
            if time.monotonic() > deadline:
                self.screenshot(f"failed-{self.name}")
                texts = "\n  ".join(sorted(set(self.texts())))
                sys.exit(f"{self.name}: gave up waiting for {what}; on show:\n  {texts}")
            time.sleep(0.1)

    def widget(
        self, label: str, exact: bool = True, near: str = "", timeout: float = PATIENCE
    ) -> dict:
        """The enabled widget labelled `label` (whose label starts with it, unless
        `exact`); of several, the one nearest the widget labelled `near`."""

        def match(widgets):
            found = [
                w
                for w in widgets
                if (w["label"] == label if exact else w["label"].startswith(label))
                and not w["disabled"]
            ]
            anchor = next((w for w in widgets if w["label"] == near), None) if near else None
            if anchor:
                found.sort(key=lambda w: (w["x"] - anchor["x"]) ** 2 + (w["y"] - anchor["y"]) ** 2)
            return found[0] if found else None

        return self.wait_for(f"a widget labelled {label!r}", match, timeout)

    def click_at(self, x: float, y: float):
        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(int(x), int(y))
        actions.pointer_action.pause(0.05)
        actions.pointer_action.pointer_down()
        actions.pointer_action.pause(0.05)
        actions.pointer_action.pointer_up()
        actions.perform()
        time.sleep(0.15)

    def click(self, label: str, exact: bool = True, near: str = ""):
        """Clicks the widget labelled `label` once it stands still: a panel that just
        changed may move its widgets in the next frame."""
        w = self.widget(label, exact, near)
        for _ in range(20):
            time.sleep(0.1)
            again = self.widget(label, exact, near)
            if (again["x"], again["y"]) == (w["x"], w["y"]):
                break
            w = again
        self.click_at(w["x"], w["y"])

    def click_cell(self, cell: str):
        """The board cell labelled `cell` ("d5"): its label starts with "d5, "."""
        self.click(f"{cell}, ", exact=False)

    def type_into(self, label: str, text: str, secret: bool = False):
        """Types `text` into the empty text field labelled `label`, once a click on it has
        given it the keyboard (egui says which widget has it); a `secret` field shows one
        mask character per character typed."""
        for attempt in range(5):
            self.click(label)
            deadline = time.monotonic() + 1
            while time.monotonic() < deadline:
                if any(w["label"] == label and w["focused"] for w in self.widgets()):
                    break
                time.sleep(0.05)
            else:
                print(f"   attempt {attempt}: {label!r} did not take the keyboard", file=sys.stderr)
                continue
            self.driver.switch_to.active_element.send_keys(text)
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                shown = next((w["value"] for w in self.widgets() if w["label"] == label), "")
                if shown == text or secret and len(shown) == len(text):
                    return
                time.sleep(0.05)
            sys.exit(f"typed {text!r} into {label!r}, which shows {shown!r}")
        self.screenshot(f"failed-{self.name}")
        sys.exit(f"cannot give {label!r} the keyboard")

    def still_typed(self, text: str) -> bool:
        """Whether the move box still holds `text`, with no refusal beside it and Play
        enabled: the click that should have sent it was lost."""
        widgets = self.widgets()
        held = any(w["label"] == "Type a move" and w["value"] == text for w in widgets)
        playable = any(w["label"] == "Play" and not w["disabled"] for w in widgets)
        return held and playable and not self.shows("Refused")

    def shows(self, fragment: str) -> bool:
        return any(fragment in t for t in self.texts())

    def storage(self, key: str):
        text = self.driver.execute_script(f"return window.localStorage.getItem({key!r})")
        return json.loads(text) if text else None

    def screenshot(self, name: str):
        path = self.out / f"{name}.png"
        self.driver.save_screenshot(str(path))
        print(f"   screenshot {path}", file=sys.stderr)

    def close(self):
        self.driver.quit()


def text(widget: dict) -> str:
    """What a widget says: a control's label, a text's value."""
    return widget["label"] or widget["value"]


class Server:
    """A `trinchera-server --web` on a free loopback port with a data dir of its own."""

    def __init__(self, binary: str):
        self.binary = binary
        self.data = tempfile.mkdtemp(prefix="trinchera-browser-data-")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.start()

    def readies(self) -> int:
        log = Path(self.data) / "server.log"
        return log.read_text().count("trinchera-server ready") if log.exists() else 0

    def start(self):
        before = self.readies()
        self.log = open(Path(self.data) / "server.log", "a")
        self.process = subprocess.Popen(
            [self.binary, "--listen", f"127.0.0.1:{self.port}", "--data-dir",
             f"{self.data}/games", "--web", "--bot-delay-ms", "0"],
            stdout=subprocess.DEVNULL, stderr=self.log, env={**os.environ, "NO_COLOR": "1"},
        )
        deadline = time.monotonic() + PATIENCE
        while self.readies() == before:
            if self.process.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"the server did not start:\n{self.tail()}")
            time.sleep(0.1)

    def restart(self):
        """Stops the server as an operator does (SIGTERM: streams end, telling clients to
        come back) and starts it again on the same port and data."""
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=PATIENCE)
        self.start()

    def tail(self) -> str:
        return "".join((Path(self.data) / "server.log").read_text().splitlines(True)[-30:])

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=PATIENCE)
        shutil.rmtree(self.data, ignore_errors=True)


class Cli:
    """The `trinchera` CLI with a config dir of its own (its own machine, as it were)."""

    def __init__(self, binary: str, server: str):
        self.binary, self.server = binary, server
        self.config = tempfile.mkdtemp(prefix="trinchera-cli-config-")
        self.env = {**os.environ, "NO_COLOR": "1", "TRINCHERA_CONFIG_DIR": self.config}

    def run(self, *args, stdin: str = ""):
        """Runs `trinchera ARGS` (with `stdin`), exiting the test if it fails; its output."""
        done = subprocess.run(
            [self.binary, "--server", self.server, *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=self.env,
            check=False,
        )
        if done.returncode != 0:
            sys.exit(f"trinchera {' '.join(args)} failed: {done.stderr}")
        return done.stdout

    def register(self, name: str, password: str):
        """Makes the account `name` and signs in to it."""
        self.run("register", name, "--password-stdin", stdin=password + "\n")

    def json(self, *args):
        return json.loads(self.run("--json", *args))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-bin", required=True, help="the trinchera-server binary")
    parser.add_argument("--cli", required=True, help="the trinchera CLI binary")
    parser.add_argument("--out", default="target/browser", help="screenshots go here")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server = Server(args.server_bin)
    cli = Cli(args.cli, server.url)
    try:
        without_webgl(server, out)
        play(server, cli, out, random.Random(args.seed))
    finally:
        server.stop()
        shutil.rmtree(cli.config, ignore_errors=True)


def without_webgl(server: Server, out: Path):
    """A browser without WebGL: the page says in its language what is missing and what to
    do, with a link to the desktop client, instead of eframe's error."""
    for lang, advice in [("en", "Turn on hardware acceleration"), ("es", "Activa la aceleración")]:
        page = Page(f"no-webgl-{lang}", f"{server.url}/?lang={lang}", out, webgl=False)
        try:
            deadline = time.monotonic() + PATIENCE
            said = ""
            while advice not in said:
                if time.monotonic() > deadline:
                    page.screenshot(f"failed-no-webgl-{lang}")
                    sys.exit(f"without WebGL ({lang}) the page says {said!r}")
                time.sleep(0.1)
                said = page.driver.execute_script(
                    "const p = document.getElementById('loading'); return p ? p.textContent : ''"
                )
            link = page.driver.execute_script(
                "const a = document.querySelector('#loading a'); return a ? a.href : ''"
            )
            # The link leads away from the page, to where the desktop client is told of.
            if "WebGL" not in said or "JsValue" in said or link.startswith(server.url):
                sys.exit(f"without WebGL ({lang}) the page says {said!r}, links to {link!r}")
            page.screenshot(f"browser-no-webgl-{lang}")
            print(f"   without WebGL ({lang}): {said} [{link}]")
        finally:
            page.close()


def play(server: Server, cli: Cli, out: Path, rng: random.Random):
    ruleset = next(r for r in cli.json("rulesets")["rulesets"] if r["id"] == RULESET)
    seat = ruleset["setup_zones"][0]["seat"]
    seat_name = next(s["name"] for s in ruleset["seats"] if s["seat"] == seat)
    # The game begins elsewhere: the CLI, signed in as Ana, creates it for her account.
    cli.register(ACCOUNT, PASSWORD)
    game = cli.json("new", RULESET, "--seat", str(seat), "--bot", "random")["game_id"]
    print(f"   game {game} created by the CLI for the account {ACCOUNT}, seat {seat_name}")

    me = Page("player", f"{server.url}/?automation&lang=en", out)
    spectator = None
    try:
        # A first visit: the sign-in screen, then the lobby of the account.
        me.widget("Play as a guest")
        me.screenshot("browser-sign-in")
        me.type_into("Name", ACCOUNT)
        me.type_into("Password", PASSWORD, secret=True)
        me.click("Sign in")
        me.wait_for("the account in the top bar", lambda ws: me.shows(f"Signed in as {ACCOUNT}"))
        me.widget(f"Continue game {game}")
        me.screenshot("browser-lobby")
        me.click(f"Continue game {game}")
        # The setup, made by the server for the player to adjust, then submitted.
        me.click("Random setup")
        me.wait_for("a whole setup", lambda ws: me.shows("Every piece is placed"))
        me.screenshot("browser-setup")
        me.click("Submit setup")

        # The page keeps the session, and no seat's token: it acts as the account.
        games = me.storage("trinchera/games.json") or {}
        sessions = [s["name"] for s in games.get("accounts", {}).values()]
        held = [
            game
            for server in games.get("servers", {}).values()
            for game, record in server.items()
            if record.get("tokens")
        ]
        if sessions != [ACCOUNT] or held:
            sys.exit(f"the page's localStorage should hold {ACCOUNT}'s session and no seat, "
                     f"not {sessions} and {held}")
        print(f"   the page keeps {ACCOUNT}'s session in localStorage, no seat token")

        spectator = Page("spectator", f"{server.url}/?automation&lang=en&watch={game}", out)
        spectator.wait_for("the spectator's board", lambda ws: spectator.shows("watching as a spectator"))

        moves, shot, restarted = 0, False, False
        deadline = time.monotonic() + 15 * 60
        while True:
            view = cli.json("show", game)["view"]
            if view.get("phase") == "PHASE_FINISHED":
                break
            legal = view.get("legal_moves", [])
            if not legal or view.get("to_move") != seat:
                if time.monotonic() > deadline:
                    sys.exit("the game did not end in 15 minutes")
                time.sleep(0.1)
                continue
            if moves >= MOVE_CAP:
                sys.exit(f"{MOVE_CAP} moves and the game goes on")
            # The page learns of the bot's move from its own stream: act once it shows.
            me.wait_for("my turn on the page", lambda ws: me.shows("Your turn"))
            notation = rng.choice(legal)["notation"]
            step = re.fullmatch(r"([a-z]+\d+)-([a-z]+\d+)", notation)
            if step:
                me.click_cell(step.group(1))
                me.click_cell(step.group(2))
            else:
                me.type_into("Type a move", notation)
                me.click("Play")
            moves += 1
            # The move is made once the server's view moved on.
            version = view["version"]
            waited = clicked = time.monotonic()
            while cli.json("show", game)["view"]["version"] == version:
                if time.monotonic() - waited > PATIENCE:
                    me.screenshot("failed-player")
                    sys.exit(f"move {moves} ({notation}) was not made")
                if not step and time.monotonic() - clicked > RECLICK and me.still_typed(notation):
                    # Under a software renderer a click now and then reaches no frame
                    # (one CI run in several): Play is enabled again only when nothing is
                    # on its way, and the box keeps the text until the move is accepted.
                    print(f"   move {moves}: Play clicked again", file=sys.stderr)
                    me.click("Play")
                    clicked = time.monotonic()
                time.sleep(0.05)
            if moves == 3 and not shot:
                me.screenshot("browser-play")
                spectator.screenshot("browser-spectator")
                shot = True
            if moves == 6 and not restarted:
                # Both pages lose their streams and the server for a moment, and resume
                # from the last version they saw once it is back.
                server.restart()
                restarted = True
                print("   the server restarted", file=sys.stderr)

        result = view.get("result", {})
        print(f"   the game ended after {moves} moves of mine: {result}")
        # Both pages learn the end from their live streams, across the restart, and show
        # the final position the server holds.
        final = cli.json("show", game)["view"]
        labels = {(c["cell"].get("x", 0), c["cell"].get("y", 0)): c["label"]
                  for c in ruleset["board"]["cells"]}
        occupied = sorted(
            labels[(p["cell"].get("x", 0), p["cell"].get("y", 0))] for p in final["pieces"]
        )
        for page in (me, spectator):
            page.wait_for("the result", lambda ws, p=page: p.shows("Game over"))
            shown = sorted(
                t.split(", ")[0]
                for t in page.texts()
                if re.fullmatch(r"[a-z]+\d+, .*", t) and t.split(", ")[1] != "empty"
            )
            if shown != occupied:
                page.screenshot(f"failed-{page.name}")
                sys.exit(f"{page.name} shows pieces on {shown}, the server on {occupied}")
        me.screenshot("browser-finished")
        spectator.screenshot("browser-spectator-finished")
        # The replay of the finished game, fetched over gRPC-web, with the fairness verdict
        # of the shared client library (the setup commitment seen during play, kept in
        # localStorage, against the reveal).
        me.click("Replay this game")
        me.wait_for("the fairness verdict", lambda ws: me.shows("Fair: every check below holds."))
        me.screenshot("browser-replay")
        me.click("Return to live")
        # The rules window.
        me.click("Rules")
        me.wait_for("the rules", lambda ws: me.shows("Writing moves"))
        me.screenshot("browser-rules")
        # The spectator's page in Spanish, by its address.
        spectator.driver.get(f"{server.url}/?automation&lang=es&watch={game}")
        spectator.wait_for("the game in Spanish", lambda ws: spectator.shows("Fin de la partida"))
        spectator.screenshot("browser-spectator-es")
        print(f"browser: game {game}, begun in the CLI, played to its end in the page signed in "
              f"as {ACCOUNT}, watched live, replayed")
    finally:
        me.close()
        if spectator:
            spectator.close()


if __name__ == "__main__":
    main()
