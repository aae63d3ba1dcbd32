"""Meshcat's connection handling: connections are limited (MeshcatParams.max_connections, by
default at most a quarter of the process's open-file limit), the excess gets HTTP 503 and
the server recovers, idle and half-open connections time out; the scene is shared between
browsers (a browser that never reads pins no copy of it), backlogs are capped per browser
and in total, a stuck browser is dropped rather than buffered."""
import os
import socket
import subprocess
import sys
import textwrap
import time
import tracemalloc

import numpy as np
import pytest

from scenegraph import Rgba
from scenegraph.visualization import Meshcat, MeshcatParams
from scenegraph.visualization import meshcat_server
from tests.scenegraph.visualization.scene_reader import fold
from tests.scenegraph.visualization.ws_client import WsClient

UPGRADE = (b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


def _wait(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def _connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=5)


def _get(sock, port) -> bytes:
    sock.sendall(f"GET / HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _stuck_browser(meshcat):
    """A websocket client that completes the handshake and never reads."""
    sock = _connect(meshcat.port())
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n" + UPGRADE + b"\r\n")
    return sock


# --- 1. connection limits ------------------------------------------------------------
def test_connections_beyond_the_limit_get_503_and_the_server_recovers():
    meshcat = Meshcat(MeshcatParams(port=0, max_connections=4))
    port = meshcat.port()
    idle = [_connect(port) for _ in range(4)]       # connected, nothing sent yet
    try:
        assert _wait(lambda: meshcat._server.num_open_connections() == 4)
        with _connect(port) as extra:
            response = _get(extra, port)
        head, body = response.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 503 Service Unavailable")
        assert b"Retry-After: 5" in head
        assert b"too many connections (the limit is 4)" in response
        assert meshcat._server.num_refused_connections == 1
    finally:
        for sock in idle:
            sock.close()
    assert _wait(lambda: meshcat._server.num_open_connections() == 0)
    with _connect(port) as sock:
        assert _get(sock, port).startswith(b"HTTP/1.1 200 OK")
    meshcat._server.stop()


def test_max_connections_is_a_documented_params_field_checked_at_start():
    assert MeshcatParams().max_connections is None
    assert "max_connections" in MeshcatParams.__doc__
    with pytest.raises(RuntimeError, match="max_connections must be a positive int"):
        Meshcat(MeshcatParams(port=0, max_connections=0))


_FILE_LIMIT_SCRIPT = textwrap.dedent("""
    import resource, sys, tempfile
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    from scenegraph.visualization import Meshcat, MeshcatParams
    meshcat = Meshcat(MeshcatParams(port=0))
    print(meshcat.port(), meshcat._server.max_connections, flush=True)
    sys.stdin.readline()                 # the parent has opened its connections
    files = [tempfile.TemporaryFile() for _ in range(100)]
    print("opened", len(files), meshcat._server.num_open_connections(), flush=True)
""")


def test_idle_connections_cannot_use_up_the_programs_files():
    """The issue's case: file limit 256, 300 idle connections; the program's own
    open() must keep working (before, the server accepted all 300 and open()
    failed with EMFILE)."""
    proc = subprocess.Popen([sys.executable, "-c", _FILE_LIMIT_SCRIPT], cwd=REPO,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    socks = []
    try:
        port, limit = map(int, proc.stdout.readline().split())
        assert limit == 64                   # a quarter of 256
        for _ in range(300):
            try:
                socks.append(_connect(port))
            except OSError:
                break
        time.sleep(0.5)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=60)
    finally:
        for sock in socks:
            sock.close()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    opened, count, served = out.split()
    assert (opened, count) == ("opened", "100") and int(served) <= 64


def test_idle_http_connections_time_out(monkeypatch):
    monkeypatch.setattr(meshcat_server, "IDLE_TIMEOUT", 0.3)
    meshcat = Meshcat(MeshcatParams(port=0))
    try:
        with _connect(meshcat.port()) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: loc")   # half a request, then silence
            sock.settimeout(5)
            start = time.monotonic()
            assert sock.recv(1024) == b""                     # closed by the server
            assert time.monotonic() - start < 3
        assert _wait(lambda: meshcat._server.num_open_connections() == 0)
    finally:
        meshcat._server.stop()


def test_a_half_open_websocket_is_closed_and_a_live_one_kept(meshcat):
    server = meshcat._server
    server.ping_interval, server.ping_timeout = 0.2, 0.3
    meshcat.SetObject("box", __import__("scenegraph").Box(1, 1, 1))
    with WsClient(meshcat.ws_url()) as live:
        live.messages(idle=0.05)
        gone = _connect(meshcat.port())        # handshakes, then never answers a ping
        gone.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n" + UPGRADE + b"\r\n")
        try:
            assert _wait(lambda: meshcat.GetNumActiveConnections() == 2)
            deadline = time.monotonic() + 1.5
            while time.monotonic() < deadline:
                live.messages(idle=0.05, limit=0.1)   # reads, and answers pings
            assert meshcat.GetNumActiveConnections() == 1
            assert server.num_dropped_clients == 1
        finally:
            gone.close()


# --- 3. one shared scene, capped backlogs, stuck browsers dropped ----------------------
def _big_scene(meshcat, n=8, size=60000):
    rng = np.random.default_rng(0)
    for k in range(n):
        vertices = rng.normal(size=(3, size))
        faces = rng.integers(0, size, size=(3, size))
        meshcat.SetTriangleMesh(f"/blob/{k}", vertices, faces, Rgba(1, 0, 0, 1))
    return sum(len(m) for m in meshcat._server.replay_messages(True))


def test_browsers_that_never_read_share_one_encoded_scene(meshcat):
    scene_bytes = _big_scene(meshcat)
    assert scene_bytes > 10e6
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        socks = [_stuck_browser(meshcat) for _ in range(12)]
        assert _wait(lambda: meshcat.GetNumActiveConnections() == 12)
        meshcat.Flush(timeout=0.5)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    try:
        # Before: each browser pinned its own joined copy (12 x 11 MB).
        assert grown < 0.2 * scene_bytes, f"{grown / 1e6:.1f} MB for 12 stuck browsers"
    finally:
        for sock in socks:
            sock.close()


def test_a_stuck_browser_is_dropped_not_buffered(meshcat, monkeypatch):
    monkeypatch.setattr(meshcat_server, "STUCK_AFTER", 0.3)
    server = meshcat._server
    server.max_backlog_bytes = 1 << 20
    sock = _stuck_browser(meshcat)
    try:
        assert _wait(lambda: meshcat.GetNumActiveConnections() == 1)
        rng = np.random.default_rng(1)
        deadline = time.monotonic() + 10.0
        while meshcat.GetNumActiveConnections() and time.monotonic() < deadline:
            meshcat.SetTriangleMesh("/blob", rng.normal(size=(3, 4000)),
                                    rng.integers(0, 4000, size=(3, 4000)), Rgba(1, 0, 0, 1))
            time.sleep(0.01)
        assert meshcat.GetNumActiveConnections() == 0
        assert server.num_dropped_clients == 1 and server._backlog_total == 0
        with WsClient(meshcat.ws_url()) as client:     # the others are served
            assert "/blob" in fold(client.messages())["objects"]
    finally:
        sock.close()


def test_backlogs_of_all_browsers_together_are_capped(meshcat, monkeypatch):
    monkeypatch.setattr(meshcat_server, "STUCK_AFTER", 1e9)   # resync, never drop
    server = meshcat._server
    server.max_backlog_bytes = 1 << 20
    server.max_total_backlog_bytes = 2 << 20
    socks = [_stuck_browser(meshcat) for _ in range(4)]
    try:
        assert _wait(lambda: meshcat.GetNumActiveConnections() == 4)
        rng = np.random.default_rng(2)
        peak = 0
        for k in range(40):
            meshcat.SetTriangleMesh(f"/blob/{k % 3}", rng.normal(size=(3, 2000)),
                                    rng.integers(0, 2000, size=(3, 2000)), Rgba(1, 0, 0, 1))
            meshcat.Flush(timeout=0.01)

            def check():                       # on the server thread, between sends
                totals.append((server._backlog_total,
                               sum(h._backlog_bytes for h in server._connections)))
            totals = []
            server._loop.add_callback(check)
            assert _wait(lambda: totals)
            peak = max(peak, totals[0][0])
            assert totals[0][0] == totals[0][1]
        assert peak <= server.max_total_backlog_bytes + 200000
        assert server.num_resyncs >= 4
    finally:
        for sock in socks:
            sock.close()
