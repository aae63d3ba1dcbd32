"""Meshcat as a server on a shared machine: a browser that stops reading costs bounded
memory (its backlog is coalesced into a resync of the latest scene, and it is dropped
after drop_after seconds without progress); requests whose Host header does not name the
server (DNS rebinding) are refused."""
import os
import socket
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

from scenegraph import Rgba
from scenegraph.visualization import Meshcat, MeshcatParams
from tests.scenegraph.visualization.scene_reader import fold
from tests.scenegraph.visualization.ws_client import WsClient

UPGRADE = (b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")


@pytest.fixture
def meshcat():
    m = Meshcat(port=0)
    yield m
    m._server.stop()


def _rss_mb() -> float:
    with open(f"/proc/{os.getpid()}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024.0
    raise AssertionError("no VmRSS")  # pragma: no cover


def _stalled_browser(meshcat, host=b"localhost"):
    """A websocket client that completes the handshake and never reads."""
    sock = socket.create_connection(("127.0.0.1", meshcat.port()), timeout=5)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: " + host + b"\r\n" + UPGRADE + b"\r\n")
    deadline = time.monotonic() + 5.0
    while meshcat.GetNumActiveConnections() == 0 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert meshcat.GetNumActiveConnections() == 1
    return sock


def _mesh(k: int, n: int = 4000):
    """A ~100 KB set_object payload that differs on every call."""
    rng = np.random.default_rng(k)
    vertices = rng.normal(size=(n, 3))
    faces = rng.integers(0, n, size=(n, 3))
    return vertices, faces


def test_memory_stays_flat_with_a_browser_that_never_reads(meshcat):
    server = meshcat._server
    sock = _stalled_browser(meshcat)
    try:
        sent = 0
        for k in range(40):                      # warm up: fill the socket buffers
            vertices, faces = _mesh(k)
            meshcat.SetTriangleMesh(f"/blob/{k % 5}", vertices.T, faces.T, Rgba(1, 0, 0, 1))
        meshcat.Flush(timeout=0.2)
        before = _rss_mb()
        for k in range(40, 1240):                # ~120 MB of commands
            vertices, faces = _mesh(k % 40)
            vertices[0, 0] = k
            meshcat.SetTriangleMesh(f"/blob/{k % 5}", vertices.T, faces.T, Rgba(1, 0, 0, 1))
            sent += 3 * 8 * 4000 * 2
        meshcat.Flush(timeout=0.2)
        growth = _rss_mb() - before
        assert sent > 100e6
        assert server.num_resyncs >= 1
        # Resynced (its backlog discarded) or, once stuck, dropped.
        for handler in list(server._connections):
            assert handler._backlog is not None and handler._resync
            assert handler._backlog_bytes <= server.max_backlog_bytes
        assert growth < 40.0, f"RSS grew by {growth:.1f} MB for {sent / 1e6:.0f} MB sent"
    finally:
        sock.close()


def test_a_resynced_browser_ends_with_exactly_the_latest_scene(meshcat):
    server = meshcat._server
    server.max_backlog_bytes = 4096
    paths = [f"p{i}" for i in range(20)]
    X = np.tile(np.eye(4), (20, 1, 1))
    with WsClient(meshcat.ws_url()) as client:
        client.messages(idle=0.05)
        [handler] = list(server._connections)
        handler._backlog = []                  # pretend the previous write is in flight
        handler._blocked_since = time.monotonic()
        for k in range(200):
            meshcat.SetProperty(f"/thing{k % 7}", "visible", bool(k % 2))
            X[:, 2, 3] = k
            meshcat.set_transforms(paths, X)
        meshcat.Flush(timeout=0.2)
        assert handler._resync and handler._backlog == []
        server._loop.add_callback(server._resume, handler)
        state = fold(client.messages())
    assert all(state["transforms"][f"/drake/{p}"][2, 3] == 199 for p in paths)
    for j in range(7):
        last = max(k for k in range(200) if k % 7 == j)
        assert state["properties"][(f"/thing{j}", "visible")] == bool(last % 2)


def test_a_browser_without_progress_is_dropped_after_the_limit(meshcat):
    server = meshcat._server
    server.drop_after = 0.5
    sock = _stalled_browser(meshcat)
    try:
        vertices, faces = _mesh(0)
        deadline = time.monotonic() + 10.0
        while meshcat.GetNumActiveConnections() and time.monotonic() < deadline:
            meshcat.SetTriangleMesh("/blob", vertices.T, faces.T, Rgba(1, 0, 0, 1))
            time.sleep(0.05)
        assert meshcat.GetNumActiveConnections() == 0
        assert server.num_dropped_clients == 1
        # The server keeps serving others.
        with WsClient(meshcat.ws_url()) as client:
            assert "/blob" in fold(client.messages())["objects"]
    finally:
        sock.close()


def _get(meshcat, path, host):
    request = urllib.request.Request(f"http://127.0.0.1:{meshcat.port()}{path}",
                                     headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def _upgrade_status(meshcat, host, origin=None):
    with socket.create_connection(("127.0.0.1", meshcat.port()), timeout=5) as sock:
        extra = b"Origin: " + origin + b"\r\n" if origin else b""
        sock.sendall(b"GET / HTTP/1.1\r\nHost: " + host + b"\r\n" + extra + UPGRADE + b"\r\n")
        head = b""
        while b"\r\n" not in head:
            head += sock.recv(4096)
    return int(head.split(b" ")[1])


@pytest.mark.parametrize("path", ["/", "/index.html", "/static/main.min.js", "/download"])
def test_requests_for_another_host_name_are_refused(meshcat, path):
    port = meshcat.port()
    assert _get(meshcat, path, f"localhost:{port}") == 200
    assert _get(meshcat, path, f"127.0.0.1:{port}") == 200
    for bad in (f"attacker.example:{port}", "attacker.example", f"localhost.evil.com:{port}"):
        assert _get(meshcat, path, bad) == 403


def test_websocket_upgrades_for_another_host_or_origin_are_refused(meshcat):
    port = str(meshcat.port()).encode()
    assert _upgrade_status(meshcat, b"localhost:" + port) == 101
    assert _upgrade_status(meshcat, b"rebound.attacker.example:" + port) == 403
    assert _upgrade_status(meshcat, b"localhost:" + port,
                           origin=b"http://attacker.example") == 403
    assert meshcat._server.num_refused_requests >= 1
    assert meshcat.GetNumActiveConnections() == 0


def test_a_server_on_every_interface_accepts_ip_literals_but_not_foreign_names():
    meshcat = Meshcat(MeshcatParams(host="*", port=0))
    try:
        port = meshcat.port()
        for good in (f"127.0.0.1:{port}", f"[::1]:{port}", f"10.1.2.3:{port}",
                     f"{socket.gethostname()}:{port}"):
            assert _get(meshcat, "/", good) == 200, good
        assert _get(meshcat, "/", f"attacker.example:{port}") == 403
    finally:
        meshcat._server.stop()


def test_the_host_of_a_custom_web_url_pattern_is_accepted():
    meshcat = Meshcat(MeshcatParams(port=0, web_url_pattern="http://viewer.lab:{port}"))
    try:
        assert _get(meshcat, "/", f"viewer.lab:{meshcat.port()}") == 200
        assert _get(meshcat, "/", f"other.lab:{meshcat.port()}") == 403
    finally:
        meshcat._server.stop()
