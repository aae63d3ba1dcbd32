"""The in-process meshcat server: a tornado app on a background thread.

It serves the viewer bundled in the ``meshcat`` package (``index.html`` and
``main.min.js``, no internet needed) and speaks meshcat's msgpack-over-
websocket protocol on ``ws://host:port/``. There is no zmq and no server
process: the caller's thread edits the scene state under a lock and queues
the encoded commands; the server thread writes them to every browser. A
browser that connects is sent the whole current scene first (tree, camera
scripts, animation, controls), then every later command, with nothing
missed or duplicated.

Measured defects of meshcat-python's own server avoided here
(../shared/DEPENDENCIES.md): no subprocess to orphan (M2), nothing is
printed per connection, so no pipe fills up after ~535 connections (M3),
and every wait has a timeout (M4).

A server on a shared machine (docs/meshcat.md, "Serving safely"):

* Each browser has a bounded send queue. While its previous write is in
  flight, later commands wait in its backlog (consecutive transform batches
  merged, so only the latest pose of each path is kept). A backlog above
  ``max_backlog_bytes`` (8 MiB) is discarded and the browser is marked for a
  resync: when its socket drains it receives the whole current scene
  instead, so a slow browser skips intermediate states but ends up exact. A
  browser whose write has made no progress for ``drop_after`` seconds (60)
  is disconnected. Memory per browser is therefore bounded by one write in
  flight plus the backlog limit, however long it stops reading.
* Every request's ``Host`` header must name this server: the bound host or
  address, localhost/127.0.0.1/[::1], the machine's own names, or the host
  of web_url(); for a server bound to every interface ("*"), also any IP
  address literal. Anything else (a DNS-rebinding page, whose requests carry
  the attacker's domain) gets 403 before any page, file or websocket is
  served. Websocket upgrades must also come from a page of the same origin
  (tornado's check_origin).
"""
from __future__ import annotations

import asyncio
import atexit
import base64
import importlib.util
import json
import os
import socket
import struct
import threading
import time
import weakref

import tornado.httpserver
import tornado.ioloop
import tornado.iostream
import tornado.web
import tornado.websocket

from scenegraph.visualization.meshcat_controls import transform_batch_message
from scenegraph.visualization.meshcat_protocol import SceneTree, decode

__all__ = ["MeshcatServer", "TransformBatch", "viewer_dist_dir"]

_LIVE_SERVERS = weakref.WeakSet()
_SHORT_HEADERS = [bytes([0x82, n]) for n in range(126)]
_SEND_BUFFER = 1 << 17   # bytes of kernel send buffer per browser
MAX_BACKLOG_BYTES = 8 << 20   # per browser, beyond one write in flight (then: resync)
DROP_AFTER = 60.0             # s without write progress before a browser is dropped
_TRANSFORM_BYTES = 96         # estimated bytes per path in a queued transform batch


def viewer_dist_dir() -> str:
    """Directory of the viewer shipped in the meshcat package (found without
    importing meshcat, whose import pulls in IPython and PIL)."""
    spec = importlib.util.find_spec("meshcat")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("Meshcat: the 'meshcat' package (its bundled viewer) is not installed")
    return os.path.join(list(spec.submodule_search_locations)[0], "viewer", "dist")


class TransformBatch:
    """Transforms queued as one command: path -> (packed path, 64 bytes of
    float32 column-major matrix). Later entries for a path replace earlier
    ones when batches are merged (a backlogged browser gets only the latest
    pose of each path)."""

    __slots__ = ("entries", "_encoded")

    def __init__(self, entries: dict):
        self.entries = entries
        self._encoded = None

    def merged(self, later: "TransformBatch") -> "TransformBatch":
        entries = dict(self.entries)
        entries.update(later.entries)
        return TransformBatch(entries)

    def encode(self) -> bytes:
        if self._encoded is None:
            packed = [e[0] for e in self.entries.values()]
            self._encoded = transform_batch_message(packed, b"".join(
                e[1] for e in self.entries.values()))
        return self._encoded


def _size(item) -> int:
    """Bytes a queued command holds (estimated for a transform batch)."""
    return len(item) if isinstance(item, bytes) else _TRANSFORM_BYTES * len(item.entries)


def _append(queue: list, item) -> int:
    """Appends a command (bytes) or a TransformBatch, merging consecutive
    batches; returns by how many bytes the queue grew."""
    if isinstance(item, TransformBatch) and queue and isinstance(queue[-1], TransformBatch):
        before = _size(queue[-1])
        queue[-1] = queue[-1].merged(item)
        return _size(queue[-1]) - before
    queue.append(item)
    return _size(item)


def _host_name(header: str) -> str:
    """The host part of a Host header ("name:port", "[v6]:port"), lower case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _is_ip_literal(name: str) -> bool:
    for family in (socket.AF_INET, socket.AF_INET6):
        try:
            socket.inet_pton(family, name)
            return True
        except (OSError, ValueError):
            pass
    return False


def allowed_host_names(host: str, address: str, extra=()) -> frozenset:
    """Host-header names a server bound to `host` (resolved to `address`)
    answers to (see the module docstring)."""
    names = {"localhost", "127.0.0.1", "::1", host.lower(), address}
    names.update(name.lower() for name in extra if name)
    if address != "127.0.0.1":
        for name in (socket.gethostname(), socket.getfqdn()):
            names.add(name.lower())
    names.discard("")
    names.discard("*")
    return frozenset(names)


def _frames(items) -> bytes:
    """Unmasked binary websocket frames (server → browser), concatenated."""
    parts = []
    for item in items:
        m = item if isinstance(item, bytes) else item.encode()
        n = len(m)
        if n < 126:
            parts.append(_SHORT_HEADERS[n])
        elif n <= 0xFFFF:
            parts.append(struct.pack("!BBH", 0x82, 126, n))
        else:
            parts.append(struct.pack("!BBQ", 0x82, 127, n))
        parts.append(m)
    return b"".join(parts)


def _listen(address: str, port: int):
    """A listening, non-blocking IPv4 socket, or None if the port is taken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((address, port))
        sock.listen(128)
    except OSError:
        sock.close()
        return None
    sock.setblocking(False)
    return sock


def _address(host: str) -> str:
    return {"": "127.0.0.1", "localhost": "127.0.0.1", "*": "0.0.0.0"}.get(host, host)


def _bind(host: str, port):
    """[listening socket], port on (host, port); port None: first free from 7000."""
    address = _address(host)
    if port is not None:
        port = int(port)
        if port != 0 and not 1024 <= port <= 65535:
            raise RuntimeError(f"Meshcat: the port must be 0 or in [1024, 65535]; got {port}")
        candidates = [port]
    else:
        candidates = range(7000, 8000)
    for candidate in candidates:
        sock = _listen(address, candidate)
        if sock is not None:
            return [sock], sock.getsockname()[1]
    wanted = f"port {port}" if port is not None else "any port in [7000, 7999]"
    raise RuntimeError(f"Meshcat: could not bind {wanted} on host '{host}' (in use?)")


class _HostChecked:
    """Refuses (403) a request whose Host header does not name this server."""

    def prepare(self):
        if not self._server.host_allowed(self.request.headers.get("Host", "")):
            self._server.num_refused_requests += 1
            self.set_status(403)
            self.finish("Meshcat: this server does not answer to that Host name")


class _Handler(_HostChecked, tornado.websocket.WebSocketHandler):
    """'/' : the viewer page for a plain GET, the websocket for an upgrade."""

    def initialize(self, server):
        self._server = server
        self._backlog = None    # commands waiting for the previous write (None: idle)
        self._backlog_bytes = 0
        self._resync = False    # backlog discarded: send the whole scene when drained
        self._blocked_since = 0.0

    async def get(self, *args, **kwargs):
        if self.request.headers.get("Upgrade", "").lower() != "websocket":
            self._server._serve_page(self, "index")
            return
        await super().get(*args, **kwargs)

    def open(self, *args, **kwargs):
        self.set_nodelay(True)
        try:  # a small kernel buffer bounds how far a slow browser lags behind
            self.ws_connection.stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF,
                                                        _SEND_BUFFER)
        except (AttributeError, OSError):  # pragma: no cover
            pass
        self._server._on_open(self)

    def on_message(self, message):
        self._server._on_message(message)

    def on_close(self):
        self._server._on_close(self)


class _Page(_HostChecked, tornado.web.RequestHandler):
    def initialize(self, server, page):
        self._server = server
        self._page = page

    def get(self, *args):
        self._server._serve_page(self, self._page)


class MeshcatServer:
    """Scene state plus the server thread (internal to Meshcat).

    Callers hold ``lock`` while they edit ``tree``, ``controls``, ``scripts``
    or ``animation``, and queue the matching commands with ``enqueue`` inside
    the same critical section.
    """

    def __init__(self, host: str, port, allowed_hosts=()):
        """Serves on (host, port); `allowed_hosts`: more Host-header names to
        answer to (e.g. the host of a custom web_url pattern)."""
        self.lock = threading.RLock()
        self.max_backlog_bytes = MAX_BACKLOG_BYTES
        self.drop_after = DROP_AFTER
        self.num_dropped_clients = 0
        self.num_resyncs = 0
        self.num_refused_requests = 0
        self.tree = SceneTree()
        self.controls = {}         # name -> meshcat_controls control
        self.scripts = {}          # key -> set_control command running viewer JS
        self.animation = None      # bytes of the last set_animation command
        self.num_client_messages = 0
        self._outbox = []
        self._drain_scheduled = False
        self._connections = set()
        self._files = {}
        self._dist = viewer_dist_dir()
        sockets, self.port = _bind(host, port)
        address = _address(host)
        self._allowed_hosts = allowed_host_names(host, address, allowed_hosts)
        self._any_ip_literal = address in ("0.0.0.0", "::")
        self._running = True
        self._loop = None
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(sockets, ready),
                                        name=f"meshcat-server:{self.port}", daemon=True)
        self._thread.start()
        if not ready.wait(10.0):
            raise RuntimeError("Meshcat: the server thread did not start within 10 s")
        _LIVE_SERVERS.add(self)

    # --- server thread -------------------------------------------------------------
    def _run(self, sockets, ready) -> None:
        asyncio.set_event_loop(asyncio.new_event_loop())
        self._loop = tornado.ioloop.IOLoop.current()
        app = tornado.web.Application([
            (r"/", _Handler, {"server": self}),
            (r"/(?:static/?|index\.html|meshcat\.html)", _Page, {"server": self, "page": "index"}),
            (r"/(?:static/)?main\.min\.js", _Page, {"server": self, "page": "js"}),
            (r"/download", _Page, {"server": self, "page": "download"}),
            (r"/favicon\.ico", _Page, {"server": self, "page": "favicon"}),
        ], websocket_ping_interval=None)
        self._http = tornado.httpserver.HTTPServer(app)
        self._http.add_sockets(sockets)
        tornado.ioloop.PeriodicCallback(self._drop_stalled, 1000.0).start()
        ready.set()
        try:
            self._loop.start()
        finally:
            self._loop.close(all_fds=True)

    def _file(self, name: str) -> bytes:
        data = self._files.get(name)
        if data is None:
            with open(os.path.join(self._dist, name), "rb") as f:
                data = self._files[name] = f.read()
        return data

    def _serve_page(self, handler, page: str) -> None:
        handler.set_header("Cache-Control", "no-store, no-cache, must-revalidate, max-age=0")
        if page == "index":
            handler.set_header("Content-Type", "text/html; charset=utf-8")
            handler.finish(self._file("index.html"))
        elif page == "js":
            handler.set_header("Content-Type", "application/javascript")
            handler.finish(self._file("main.min.js"))
        elif page == "download":
            handler.set_header("Content-Type", "text/html; charset=utf-8")
            handler.set_header("Content-Disposition", 'attachment; filename="meshcat.html"')
            handler.finish(self.static_html())
        else:
            handler.set_status(204)
            handler.finish()

    def host_allowed(self, header: str) -> bool:
        """True if a request with this Host header may be answered."""
        name = _host_name(header)
        return name in self._allowed_hosts or (self._any_ip_literal and _is_ip_literal(name))

    def _send(self, handler, items) -> None:
        """Writes commands to one browser, or queues them (merging transform
        batches) while its previous write is still in flight; a backlog over
        the limit is replaced by a resync (module docstring)."""
        if handler._backlog is not None:
            if handler._resync:
                return              # the whole scene follows when the socket drains
            for item in items:
                handler._backlog_bytes += _append(handler._backlog, item)
            if handler._backlog_bytes > self.max_backlog_bytes:
                handler._backlog = []
                handler._backlog_bytes = 0
                handler._resync = True
                self.num_resyncs += 1
            return
        conn = handler.ws_connection
        if conn is None or conn.is_closing() or not items:
            return
        try:
            future = conn.stream.write(_frames(items))
        except tornado.iostream.StreamClosedError:
            return
        if not future.done():
            handler._backlog = []
            handler._backlog_bytes = 0
            handler._blocked_since = time.monotonic()
            future.add_done_callback(lambda f: self._resume(handler, f))

    def _resume(self, handler, future=None) -> None:
        if future is not None and not future.cancelled():
            future.exception()     # a closed stream's error is expected; mark it seen
        backlog, handler._backlog = handler._backlog, None
        handler._backlog_bytes = 0
        if handler._resync:
            handler._resync = False
            with self.lock:
                if handler not in self._connections:
                    return
                pending = self._take_outbox()
                others = [h for h in self._connections if h is not handler]
                backlog = self.replay_messages(include_controls=True)
            for other in others:
                self._send(other, pending)
        if backlog:
            self._send(handler, backlog)

    def _drop_stalled(self) -> None:
        """Disconnects every browser whose write has made no progress for
        `drop_after` seconds (runs once a second on the server thread)."""
        now = time.monotonic()
        with self.lock:
            stalled = [h for h in self._connections if h._backlog is not None
                       and now - h._blocked_since > self.drop_after]
        for handler in stalled:
            self.num_dropped_clients += 1
            self._on_close(handler)
            conn = handler.ws_connection
            if conn is not None and conn.stream is not None:
                conn.stream.close()   # frees the unsent data at once

    def _take_outbox(self) -> list:
        items, self._outbox = self._outbox, []
        return items

    def _drain(self) -> None:
        with self.lock:
            self._drain_scheduled = False
            items = self._take_outbox()
            connections = list(self._connections)
        if items:
            for handler in connections:
                self._send(handler, items)

    def _on_open(self, handler) -> None:
        with self.lock:
            pending = self._take_outbox()
            others = list(self._connections)
            replay = self.replay_messages(include_controls=True)
            self._connections.add(handler)
        if pending:
            for other in others:
                self._send(other, pending)
        self._send(handler, replay)

    def _on_message(self, message) -> None:
        try:
            msg = decode(message) if isinstance(message, bytes) else json.loads(message)
        except Exception:  # malformed input from a client is ignored
            return
        if not isinstance(msg, dict):
            return
        with self.lock:
            self.num_client_messages += 1
            control = self.controls.get(msg.get("name"))
            if control is not None:
                control.receive(msg)

    def _on_close(self, handler) -> None:
        with self.lock:
            self._connections.discard(handler)
        handler._backlog = None

    # --- caller side -----------------------------------------------------------------
    def enqueue(self, items) -> None:
        """Queues commands (bytes or TransformBatch) for every browser; call
        with ``lock`` held."""
        for item in items:
            _append(self._outbox, item)
        if not self._drain_scheduled and self._running:
            self._drain_scheduled = True
            self._loop.add_callback(self._drain)

    def replay_messages(self, include_controls: bool) -> list:
        """The commands that rebuild the current scene (call with ``lock`` held)."""
        messages = self.tree.messages()
        messages.extend(self.scripts.values())
        if self.animation is not None:
            messages.append(self.animation)
        if include_controls:
            messages.extend(c.message() for c in self.controls.values())
        return messages

    def num_connections(self) -> int:
        with self.lock:
            return len(self._connections)

    def flush(self, timeout: float = 10.0) -> bool:
        """Waits until queued commands are handed to the OS for every browser;
        False if that took longer than `timeout` [s]."""
        if not self._running:
            return True
        done = threading.Event()

        async def flush_now():
            try:
                self._drain()
                deadline = time.monotonic() + timeout
                while time.monotonic() < deadline and any(
                        h._backlog is not None for h in list(self._connections)):
                    await asyncio.sleep(0.002)
            finally:
                done.set()
        self._loop.add_callback(flush_now)
        return done.wait(timeout)

    def static_html(self) -> str:
        """A self-contained page that replays the current scene with no server."""
        with self.lock:
            messages = self.replay_messages(include_controls=False)
        commands = ",\n".join(f'"{base64.b64encode(m).decode("ascii")}"' for m in messages)
        js = self._file("main.min.js").decode("utf-8")
        return _STATIC_TEMPLATE.replace("@@VIEWER_JS@@", js).replace("@@COMMANDS@@", commands)

    def stop(self, timeout: float = 5.0) -> None:
        """Closes every connection and the listening sockets; joins the thread."""
        if not self._running:
            return
        self._running = False

        def shutdown():
            self._http.stop()
            for handler in list(self._connections):
                handler.close()
            self._loop.stop()
        try:
            self._loop.add_callback(shutdown)
        except RuntimeError:  # loop already closed
            return
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def running(self) -> bool:
        return self._running and self._thread.is_alive()


@atexit.register
def _stop_all_servers() -> None:
    for server in list(_LIVE_SERVERS):
        server.stop(timeout=1.0)


_STATIC_TEMPLATE = """<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>MeshCat</title></head>
<body>
<div id="meshcat-pane"></div>
<script>
@@VIEWER_JS@@
</script>
<script>
var viewer = new MeshCat.Viewer(document.getElementById("meshcat-pane"));
(function () {
  var commands = [
@@COMMANDS@@
  ];
  for (var i = 0; i < commands.length; ++i) {
    var raw = atob(commands[i]);
    var bytes = new Uint8Array(raw.length);
    for (var j = 0; j < raw.length; ++j) bytes[j] = raw.charCodeAt(j);
    try { viewer.handle_command_bytearray(bytes); } catch (e) { console.error(e); }
  }
})();
</script>
<style>
body { margin: 0; }
#meshcat-pane { width: 100vw; height: 100vh; overflow: hidden; }
</style>
</body>
</html>
"""
