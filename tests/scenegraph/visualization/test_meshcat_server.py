"""The in-process server: ports, hosts, start-up, connections, lifetime, timeouts.

Protocol level only (no browser): a websocket client reads what the server
sends, as a browser would receive it.
"""
import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request

import numpy as np
import pytest

from scenegraph import Box, Rgba
from scenegraph.math import RigidTransform
from scenegraph.visualization import Meshcat, MeshcatParams
from tests.scenegraph.visualization.scene_reader import fold, read_scene
from tests.scenegraph.visualization.ws_client import WsClient


def _port_is_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_starts_fast_on_the_first_free_port_from_7000_bound_to_localhost():
    t0 = time.perf_counter()
    first = Meshcat()
    elapsed = time.perf_counter() - t0
    second = Meshcat()
    try:
        assert elapsed < 0.5, f"Meshcat() took {elapsed:.3f} s"
        assert 7000 <= first.port() < 8000 and 7000 <= second.port() < 8000
        assert first.port() != second.port()
        assert first.web_url() == f"http://localhost:{first.port()}"
        assert first.ws_url() == f"ws://localhost:{first.port()}"
        addresses = {s.getsockname()[0] for s in first._server._http._sockets.values()}
        assert addresses == {"127.0.0.1"}
    finally:
        first._server.stop()
        second._server.stop()


def test_start_meshcat_prints_its_url(capsys):
    from scenegraph.visualization import StartMeshcat
    meshcat = StartMeshcat()
    try:
        assert capsys.readouterr().out == f"Meshcat is now available at {meshcat.web_url()}\n"
    finally:
        meshcat._server.stop()


def test_explicit_ports_taken_ports_and_bad_ports():
    meshcat = Meshcat(MeshcatParams(port=0))
    try:
        port = meshcat.port()
        assert port >= 1024
        with pytest.raises(RuntimeError, match=f"could not bind port {port}"):
            Meshcat(port)
        with pytest.raises(RuntimeError, match="must be 0 or in"):
            Meshcat(MeshcatParams(port=80))
    finally:
        meshcat._server.stop()
    assert _port_is_free(port)


def test_host_and_web_url_pattern_from_params():
    meshcat = Meshcat(MeshcatParams(host="127.0.0.1", port=0,
                                    web_url_pattern="http://{host}:{port}/viewer"))
    try:
        assert meshcat.web_url() == f"http://127.0.0.1:{meshcat.port()}/viewer"
        assert meshcat.ws_url() == f"ws://127.0.0.1:{meshcat.port()}/viewer"
    finally:
        meshcat._server.stop()


def test_serves_the_bundled_viewer_page_and_script(meshcat):
    base = f"http://127.0.0.1:{meshcat.port()}"
    page = urllib.request.urlopen(base + "/", timeout=5).read().decode()
    assert "MeshCat.Viewer" in page and 'src="main.min.js"' in page
    for path in ("/main.min.js", "/static/main.min.js"):
        script = urllib.request.urlopen(base + path, timeout=5).read()
        assert len(script) > 500_000 and b"handle_command" in script
    assert urllib.request.urlopen(base + "/static/", timeout=5).read().decode() == page
    download = urllib.request.urlopen(base + "/download", timeout=5)
    assert "attachment" in download.headers["Content-Disposition"]
    assert b"MeshCat.Viewer" in download.read()


def test_a_new_connection_receives_the_current_scene(meshcat):
    meshcat.SetObject("box", Box(0.1, 0.2, 0.3), Rgba(1, 0, 0, 1))
    meshcat.SetTransform("box", RigidTransform([1.0, 2.0, 3.0]))
    meshcat.SetProperty("/Grid", "visible", False)
    meshcat.SetObject("gone", Box(1, 1, 1))
    meshcat.Delete("gone")
    state = fold(read_scene(meshcat))
    geometry = state["objects"]["/drake/box"]["geometries"][0]
    assert geometry["type"] == "BoxGeometry"
    assert (geometry["width"], geometry["height"], geometry["depth"]) == (0.1, 0.2, 0.3)
    np.testing.assert_allclose(state["transforms"]["/drake/box"][:3, 3], [1, 2, 3])
    assert state["properties"][("/Grid", "visible")] is False
    assert "/drake/gone" not in state["objects"]


def test_live_commands_reach_connected_clients_in_order_without_duplicates(meshcat):
    meshcat.SetObject("a", Box(1, 1, 1))
    with WsClient(meshcat.ws_url()) as client:
        replay = client.messages()
        assert [m["type"] for m in replay] == ["set_object"]
        for k in range(5):
            meshcat.SetTransform("a", RigidTransform([float(k), 0.0, 0.0]))
        meshcat.Delete("a")
        live = client.messages()
    assert [m["type"] for m in live] == ["set_transform"] * 5 + ["delete"]
    xs = [fold([m])["transforms"]["/drake/a"][0, 3] for m in live[:5]]
    assert xs == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_survives_thousands_of_connections(meshcat):
    meshcat.SetObject("box", Box(1, 1, 1))
    for _ in range(2000):
        client = WsClient(meshcat.ws_url())
        client.close()
    state = fold(read_scene(meshcat))
    assert "/drake/box" in state["objects"]
    deadline = time.monotonic() + 5.0
    while meshcat.GetNumActiveConnections() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert meshcat.GetNumActiveConnections() == 0


def test_counts_active_connections(meshcat):
    with WsClient(meshcat.ws_url()) as a, WsClient(meshcat.ws_url()) as b:
        a.messages(idle=0.05)
        b.messages(idle=0.05)
        assert meshcat.GetNumActiveConnections() == 2
    deadline = time.monotonic() + 5.0
    while meshcat.GetNumActiveConnections() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert meshcat.GetNumActiveConnections() == 0


def test_a_stalled_browser_never_blocks_the_caller(meshcat):
    """A client that never reads: sending stays fast, Flush returns at its timeout."""
    stalled = socket.create_connection(("127.0.0.1", meshcat.port()), timeout=5)
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    b"Sec-WebSocket-Version: 13\r\n\r\n")
    try:
        deadline = time.monotonic() + 5.0
        while meshcat.GetNumActiveConnections() == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        paths = [f"p{i}" for i in range(200)]
        X = np.tile(np.eye(4), (200, 1, 1))
        t0 = time.perf_counter()
        for k in range(200):
            meshcat.SetObject(f"big{k % 4}", Box(1, 1, 1))
            X[:, 0, 3] = k
            meshcat.set_transforms(paths, X)
        sending = time.perf_counter() - t0
        t0 = time.perf_counter()
        meshcat.Flush(timeout=0.5)
        flushing = time.perf_counter() - t0
        assert sending < 2.0
        assert 0.4 < flushing < 2.0
    finally:
        stalled.close()


def test_transforms_to_a_backlogged_browser_are_coalesced(meshcat):
    """While a browser's previous write is in flight, later poses of a path
    replace earlier ones: it gets the latest scene, not a growing queue."""
    server = meshcat._server
    paths = [f"p{i}" for i in range(50)]
    X = np.tile(np.eye(4), (50, 1, 1))
    with WsClient(meshcat.ws_url()) as client:
        client.messages(idle=0.05)
        [handler] = list(server._connections)
        handler._backlog = []          # pretend the previous write is in flight
        for k in range(10):
            X[:, 1, 3] = k
            meshcat.set_transforms(paths, X)
        meshcat.SetProperty("/Grid", "visible", False)
        X[:, 1, 3] = 99
        meshcat.set_transforms(paths, X)
        meshcat.Flush(timeout=0.2)
        assert len(handler._backlog) == 3      # batch, property, batch
        server._loop.add_callback(server._resume, handler)
        messages = client.messages()
    assert len(messages) == 3
    state = fold(messages)
    assert all(state["transforms"][f"/drake/{p}"][1, 3] == 99 for p in paths)


def test_stopping_frees_the_port_and_ends_the_thread():
    meshcat = Meshcat(port=0)
    port, thread = meshcat.port(), meshcat._server._thread
    client = WsClient(meshcat.ws_url())
    del meshcat                       # garbage collection stops the server
    thread.join(5.0)
    assert not thread.is_alive()
    client.close()
    assert _port_is_free(port)


def test_no_process_is_left_behind_when_the_program_is_killed():
    code = textwrap.dedent("""
        import sys, time
        from scenegraph.visualization import Meshcat
        m = Meshcat(port=0)
        print(m.port(), flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            cwd=os.path.dirname(os.path.abspath(__file__)) + "/../../..")
    try:
        port = int(proc.stdout.readline())
        children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(proc.pid)],
                                  capture_output=True, text=True).stdout.split()
        assert children == []            # the server is a thread, not a process
        assert not _port_is_free(port)
    finally:
        proc.kill()
        proc.wait(10)
        proc.stdout.close()
    assert _port_is_free(port)


def test_meshcat_serves_a_favicon_and_404_for_missing_files():
    from scenegraph import Meshcat
    meshcat = Meshcat()
    with urllib.request.urlopen(meshcat.web_url() + "/favicon.ico") as response:
        assert response.read(4) == b"\x00\x00\x01\x00"      # an ICO header
    with pytest.raises(Exception, match="HTTP.*404"):
        urllib.request.urlopen(meshcat.web_url() + "/favicon.ico/no_such_file")
