"""Headless Chromium driven over the DevTools protocol, for viewer tests.

One browser process tree (closed through CDP, then every remaining
process of the tree killed by pid), started headless with the flags a
sandbox without a GPU or network needs (no GPU, no sandbox as root, no
background networking, a fresh profile); pages are loaded, scripted and
screenshotted through CDP with our small websocket client. Every wait has
a timeout.
"""
from __future__ import annotations

import base64
import io
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

import numpy as np

from tests.scenegraph.visualization.ws_client import WsClient

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-unsafe-swiftshader", "--hide-scrollbars", "--mute-audio",
         "--disable-crash-reporter", "--disable-breakpad"]
WIDTH, HEIGHT = 640, 480


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """A headless Chromium with one page, driven over CDP."""

    def __init__(self, executable: str, timeout: float = 20.0):
        self.profile = tempfile.mkdtemp(prefix="sg-chromium-")
        self.port = _free_port()
        self.proc = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile}",
             f"--remote-debugging-port={self.port}", f"--window-size={WIDTH},{HEIGHT}",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self._ids = itertools.count(1)
        try:
            self.ws = WsClient(self._page_ws_url(timeout), timeout=timeout)
            self.call("Page.enable")
            self.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT,
                      deviceScaleFactor=1, mobile=False)
        except Exception:
            self.close()
            raise

    def _page_ws_url(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"chromium exited with code {self.proc.returncode}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list",
                                            timeout=1.0) as r:
                    pages = [t for t in json.load(r) if t.get("type") == "page"]
                if pages:
                    return pages[0]["webSocketDebuggerUrl"]
            except OSError:
                pass
            time.sleep(0.1)
        raise TimeoutError("chromium's DevTools endpoint did not come up")

    def call(self, method: str, timeout: float = 20.0, **params):
        """Sends one CDP command and returns its result (events are skipped)."""
        ident = next(self._ids)
        self.ws.send({"id": ident, "method": method, "params": params}, binary=False)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            opcode, payload = self.ws.recv_frame(max(0.01, deadline - time.monotonic()))
            if opcode != 1:
                continue
            msg = json.loads(payload)
            if msg.get("id") == ident:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
        raise TimeoutError(f"CDP {method} timed out")

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"JS error in {expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 15.0):
        """Polls a JS expression until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except RuntimeError:
                value = None
            if value:
                return value
            time.sleep(0.05)
        raise TimeoutError(f"waited {timeout} s for {expression}")

    def open(self, url: str, min_messages: int = 0) -> None:
        """Loads `url`; waits for the viewer and (for a live server) for at
        least `min_messages` commands to have arrived."""
        self.call("Page.navigate", url=url)
        self.wait_for("typeof viewer !== 'undefined' && viewer.scene_tree !== undefined "
                      "&& document.readyState === 'complete'")
        if min_messages:
            self.wait_for(f"viewer.num_messages_received >= {min_messages}")

    def screenshot(self) -> np.ndarray:
        """(H, W, 3) uint8 RGB of the page after the next rendered frame."""
        from PIL import Image
        self.evaluate("new Promise(r => { viewer.set_dirty(); "
                      "requestAnimationFrame(() => requestAnimationFrame(r)); })")
        data = self.call("Page.captureScreenshot", format="png")["data"]
        image = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
        return np.asarray(image)

    def _descendants(self) -> list:
        """Pids of every live process below the browser (from /proc)."""
        children = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as f:
                        ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                children.setdefault(ppid, []).append(int(entry))
        out, stack = [], [self.proc.pid]
        while stack:
            for child in children.get(stack.pop(), []):
                out.append(child)
                stack.append(child)
        return out

    def close(self) -> None:
        """Closes the browser (CDP Browser.close), then kills whatever of its
        process tree is left, by pid."""
        descendants = self._descendants() if self.proc.poll() is None else []
        ws = getattr(self, "ws", None)
        if ws is not None:
            try:
                self.call("Browser.close", timeout=2.0)
            except Exception:
                pass
            ws.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for pid in [self.proc.pid] + descendants:
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if b"chrom" not in f.read():
                        continue          # gone, and the pid reused by someone else
                os.kill(pid, signal.SIGKILL)
            except (OSError, ProcessLookupError):
                pass
        if self.proc.poll() is None:
            self.proc.wait(timeout=10)
        shutil.rmtree(self.profile, ignore_errors=True)
