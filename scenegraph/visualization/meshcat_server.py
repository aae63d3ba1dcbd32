"""The in-process meshcat server: a tornado app on a background thread.

It serves the viewer bundled in the ``meshcat`` package (``index.html`` and
``main.min.js``, no internet needed) and speaks meshcat's msgpack-over-
websocket protocol on ``ws://host:port/``. There is no zmq and no server
process: the caller's thread edits the scene state under a lock and queues
the encoded commands; the server thread writes them to every browser. A
browser that connects is sent the whole current scene first (tree, camera
scripts, animation, controls), then every later command, with nothing
missed or duplicated.

Defects of meshcat-python's own server, measured, that this one avoids: it
starts no subprocess (meshcat-python's can outlive the program, orphaned);
it prints nothing per connection (meshcat-python's output pipe fills up
after ~535 connections and the server blocks); and every wait has a
timeout (meshcat-python's can wait forever).

A server on a shared machine (docs/meshcat.md, "Serving safely"):

* Connections are limited: at most ``max_connections`` open TCP connections
  (pages, scripts, websockets and connections that have sent nothing yet;
  MeshcatParams.max_connections, by default 100 but at most a quarter of the
  process's open-file limit). The excess is answered ``503 Service
  Unavailable`` (with Retry-After) and closed; beyond 16 refusals in progress
  excess connections are closed at once. An HTTP connection that has not sent
  a complete request within ``IDLE_TIMEOUT`` (10 s; also an idle keep-alive
  connection) is closed. A websocket that has been silent for
  ``PING_INTERVAL`` (10 s) is pinged and closed when no pong comes within
  ``PING_TIMEOUT`` (10 s) while nothing is being written to it (a half-open
  connection: the peer is gone).
* Encoded commands are shared: every command is encoded once, and a large
  one (16 KiB or more: objects, meshes, textures) is handed to every socket as
  that same bytes object (tornado keeps a view of it, not a copy), whether it
  is broadcast or part of the scene a new browser is sent. A browser that
  stops reading therefore pins no copy of the scene of its own: at most the
  commands it is waiting for, which the scene and the other browsers share
  while they are current.
* Each browser has a bounded send queue. While its previous write is in
  flight, later commands wait in its backlog (consecutive transform batches
  merged, so only the latest pose of each path is kept). A backlog above
  ``max_backlog_bytes`` (8 MiB per browser) is discarded and the browser is
  marked for a resync: when its socket drains it receives the whole current
  scene instead, so a slow browser skips intermediate states but ends up
  exact; when the backlogs of all browsers together pass
  ``max_total_backlog_bytes`` (32 MiB) the largest are discarded that way.
  A browser that is stuck — its socket has taken nothing for ``STUCK_AFTER``
  seconds (2) since its backlog passed the limit, or for ``drop_after``
  seconds (20) at all — is disconnected rather than buffered (reloading the
  page reconnects). Memory is therefore bounded by the shared scene plus
  32 MiB of backlogs in all, however many browsers stop reading.
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
import datetime
import importlib.util
import json
import os
import socket
import struct
import threading
import time
import weakref

import tornado.gen
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
MAX_TOTAL_BACKLOG_BYTES = 32 << 20   # all browsers' backlogs together (then: resync)
DROP_AFTER = 20.0             # s without write progress before a browser is dropped
IDLE_TIMEOUT = 10.0           # s for an HTTP connection to send a complete request
PING_INTERVAL = 10.0          # s of websocket silence before a ping
PING_TIMEOUT = 10.0           # s for the pong, while nothing is written to the browser
MAX_CONNECTIONS = 100         # default limit of open TCP connections
_MAX_REFUSING = 16            # refusals in progress; more excess is closed at once
_REFUSAL = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Retry-After: 5\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s")
_TRANSFORM_BYTES = 96         # estimated bytes per path in a queued transform batch
_SHARED_BYTES = 1 << 14       # commands this large are written without a copy
STUCK_AFTER = 2.0             # s without progress that make an overflowing browser stuck


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


def _header(n: int) -> bytes:
    """The header of an unmasked binary websocket frame of n payload bytes."""
    if n < 126:
        return _SHORT_HEADERS[n]
    if n <= 0xFFFF:
        return struct.pack("!BBH", 0x82, 126, n)
    return struct.pack("!BBQ", 0x82, 127, n)


def _write_frames(stream, items):
    """Writes commands to a tornado IOStream as binary websocket frames; returns
    the future of the last write.

    A large command (>= _SHARED_BYTES) is written as its header and then the
    command's own bytes object, which the stream keeps as a view: the bytes a
    browser waits for are the same object the scene tree and every other
    browser hold, never a copy per browser. Small commands are joined.
    """
    future, small = None, []
    for item in items:
        m = item if isinstance(item, bytes) else item.encode()
        if len(m) >= _SHARED_BYTES:
            small.append(_header(len(m)))
            stream.write(b"".join(small))
            small = []
            future = stream.write(m)
        else:
            small.append(_header(len(m)))
            small.append(m)
    if small:
        future = stream.write(b"".join(small))
    return future


def default_max_connections() -> int:
    """MAX_CONNECTIONS, but at most a quarter of the process's open-file limit
    (at least 4)."""
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):  # pragma: no cover - not POSIX
        return MAX_CONNECTIONS
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(4, min(MAX_CONNECTIONS, soft // 4))


def refusal_response(limit: int) -> bytes:
    """The 503 response sent to a connection beyond the limit."""
    body = (f"Meshcat: too many connections (the limit is {limit}); close other viewer "
            f"tabs, or raise MeshcatParams.max_connections\n").encode()
    return _REFUSAL % (len(body), body)


class _LimitedHTTPServer(tornado.httpserver.HTTPServer):
    """An HTTPServer that refuses connections beyond its MeshcatServer's limit."""

    def handle_stream(self, stream, address) -> None:
        server = self.meshcat_server
        if not server._admit(stream):
            server._loop.add_callback(server._refuse, stream)
            return
        super().handle_stream(stream, address)


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
        self._blocked_since = 0.0   # time of the last write progress while blocked
        self._written = 0           # bytes the socket had taken at that time
        self._heard = time.monotonic()   # last message or pong from the browser
        self._ping_sent = None

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
        self._heard = time.monotonic()
        self._server._on_message(message)

    def on_pong(self, data):
        self._heard = time.monotonic()
        self._ping_sent = None

    def on_close(self):
        self._server._on_close(self)


def _favicon() -> bytes:
    """A 16 x 16 ICO (a grey disc on transparency), so /favicon.ico has a body as
    pydrake's Meshcat serves one."""
    import struct
    size = 16
    pixels = bytearray()
    for row in range(size - 1, -1, -1):             # BMP rows are bottom-up
        for col in range(size):
            inside = (row - 7.5) ** 2 + (col - 7.5) ** 2 <= 7.0 ** 2
            pixels += bytes((0x60, 0x60, 0x60, 0xFF if inside else 0x00))  # BGRA
    mask = bytes(4 * size)                          # AND mask, rows padded to 32 bits
    header = struct.pack("<IiiHHIIiiII", 40, size, 2 * size, 1, 32, 0,
                         len(pixels) + len(mask), 0, 0, 0, 0)
    image = header + bytes(pixels) + mask
    directory = struct.pack("<HHH", 0, 1, 1) + struct.pack(
        "<BBBBHHII", size, size, 0, 0, 1, 32, len(image), 6 + 16)
    return directory + image


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

    def __init__(self, host: str, port, allowed_hosts=(), max_connections=None):
        """Serves on (host, port); `allowed_hosts`: more Host-header names to
        answer to (e.g. the host of a custom web_url pattern);
        `max_connections`: open TCP connections served at once (None:
        default_max_connections())."""
        if max_connections is None:
            max_connections = default_max_connections()
        if isinstance(max_connections, bool) or not isinstance(max_connections, int) \
                or max_connections < 1:
            raise RuntimeError(f"MeshcatParams.max_connections must be a positive int or "
                               f"None; got {max_connections!r}")
        self.max_connections = max_connections
        self.lock = threading.RLock()
        self.max_backlog_bytes = MAX_BACKLOG_BYTES
        self.max_total_backlog_bytes = MAX_TOTAL_BACKLOG_BYTES
        self.drop_after = DROP_AFTER
        self.ping_interval = PING_INTERVAL
        self.ping_timeout = PING_TIMEOUT
        self.num_dropped_clients = 0
        self.num_resyncs = 0
        self.num_refused_requests = 0
        self.num_refused_connections = 0
        self._streams = set()        # open TCP connections (tornado IOStreams)
        self._refusing = 0
        self.tree = SceneTree()
        self.controls = {}         # name -> meshcat_controls control
        self.scripts = {}          # key -> set_control command running viewer JS
        self.animation = None      # bytes of the last set_animation command
        self.num_client_messages = 0
        self._outbox = []
        self._drain_scheduled = False
        self._connections = set()
        self._backlog_total = 0      # bytes in every browser's backlog together
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
        self._http = _LimitedHTTPServer(app, idle_connection_timeout=IDLE_TIMEOUT,
                                        body_timeout=IDLE_TIMEOUT)
        self._http.meshcat_server = self
        self._http.add_sockets(sockets)
        tornado.ioloop.PeriodicCallback(self._check_connections, 250.0).start()
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
        elif page == "favicon":
            handler.set_header("Content-Type", "image/x-icon")
            handler.finish(_favicon())
        else:
            handler.set_status(204)
            handler.finish()

    def host_allowed(self, header: str) -> bool:
        """True if a request with this Host header may be answered."""
        name = _host_name(header)
        return name in self._allowed_hosts or (self._any_ip_literal and _is_ip_literal(name))

    # --- connections ----------------------------------------------------------------
    def _admit(self, stream) -> bool:
        """Counts a new TCP connection in; False when it is beyond the limit. (A new
        set each time: other threads may be counting the published one.)"""
        streams = {s for s in self._streams if not s.closed()}
        admitted = len(streams) < self.max_connections
        if admitted:
            streams.add(stream)
        else:
            self.num_refused_connections += 1
        self._streams = streams
        return admitted

    async def _refuse(self, stream) -> None:
        """Reads the request (for a short while) of a connection beyond the limit,
        answers 503 and closes it (at once when many refusals are in progress)."""
        if self._refusing >= _MAX_REFUSING:
            stream.close()
            return
        self._refusing += 1
        try:
            try:
                await tornado.gen.with_timeout(
                    datetime.timedelta(seconds=2.0),
                    stream.read_until_regex(b"\r?\n\r?\n", max_bytes=1 << 16),
                    quiet_exceptions=(tornado.iostream.StreamClosedError,))
            except Exception:   # timeout, a closed or oversized request: answer anyway
                pass
            if not stream.closed():
                await stream.write(refusal_response(self.max_connections))
        except Exception:       # the client went away
            pass
        finally:
            stream.close()
            self._refusing -= 1

    def num_open_connections(self) -> int:
        """Open TCP connections counted against max_connections (server thread's view)."""
        return sum(1 for s in list(self._streams) if not s.closed())

    def _send(self, handler, items) -> None:
        """Writes commands to one browser, or queues them (merging transform
        batches) while its previous write is still in flight. A backlog over
        the limit is replaced by a resync, or, when the browser has taken
        nothing for STUCK_AFTER seconds, the browser is dropped (module
        docstring)."""
        if handler._backlog is not None:
            if handler._resync:     # the whole scene follows when the socket drains,
                if self._stalled_for(handler) > STUCK_AFTER:
                    self._drop(handler)     # unless it is stuck
                return
            grown = 0
            for item in items:
                grown += _append(handler._backlog, item)
            handler._backlog_bytes += grown
            self._backlog_total += grown
            if handler._backlog_bytes > self.max_backlog_bytes:
                if self._stalled_for(handler) > STUCK_AFTER:
                    self._drop(handler)     # stuck: dropped, not buffered
                else:
                    self._discard_backlog(handler)
            elif self._backlog_total > self.max_total_backlog_bytes:
                for other in sorted(self._connections, key=lambda h: -h._backlog_bytes):
                    if self._backlog_total <= self.max_total_backlog_bytes:
                        break
                    if other._backlog:
                        self._discard_backlog(other)
            return
        conn = handler.ws_connection
        if conn is None or conn.is_closing() or not items:
            return
        stream = conn.stream
        try:
            future = _write_frames(stream, items)
        except tornado.iostream.StreamClosedError:
            return
        if future is not None and not future.done():
            handler._backlog = []
            handler._backlog_bytes = 0
            handler._blocked_since = time.monotonic()
            handler._written = getattr(stream, "_total_write_done_index", 0)
            future.add_done_callback(lambda f: self._resume(handler, f))

    def _stalled_for(self, handler) -> float:
        """Seconds since a blocked browser's socket last took data."""
        conn = handler.ws_connection
        written = getattr(getattr(conn, "stream", None), "_total_write_done_index", 0)
        now = time.monotonic()
        if written != handler._written:
            handler._written, handler._blocked_since = written, now
        return now - handler._blocked_since

    def _discard_backlog(self, handler) -> None:
        """Drops a browser's backlog; it gets the whole scene when it drains."""
        self._backlog_total -= handler._backlog_bytes
        handler._backlog = []
        handler._backlog_bytes = 0
        handler._resync = True
        self.num_resyncs += 1

    def _resume(self, handler, future=None) -> None:
        if future is not None and not future.cancelled():
            future.exception()     # a closed stream's error is expected; mark it seen
        backlog, handler._backlog = handler._backlog, None
        self._backlog_total -= handler._backlog_bytes
        handler._backlog_bytes = 0
        if handler._resync:
            handler._resync = False
            with self.lock:
                if handler not in self._connections:
                    return
                pending = self._take_outbox()
                others = [h for h in self._connections if h is not handler]
                backlog = self.replay_messages(include_controls=True)
            self._broadcast(others, pending)
        if backlog:
            self._send(handler, backlog)

    def _check_connections(self) -> None:
        """Runs four times a second on the server thread: disconnects every browser
        whose write has made no progress for `drop_after` seconds (stuck), pings
        the silent ones and closes those whose pong is overdue while nothing is
        being written to them (half-open)."""
        now = time.monotonic()
        with self.lock:
            handlers = list(self._connections)
        for handler in handlers:
            conn = handler.ws_connection
            stream = None if conn is None else conn.stream
            if stream is None or stream.closed():
                continue
            if handler._backlog is not None:           # a write in flight
                stalled = self._stalled_for(handler)
                if stalled > self.drop_after or (handler._resync and stalled > STUCK_AFTER):
                    self._drop(handler)
                continue
            if handler._ping_sent is not None:
                if now - handler._ping_sent > self.ping_timeout:
                    self._drop(handler)
            elif now - handler._heard > self.ping_interval:
                handler._ping_sent = now
                try:
                    conn.write_ping(b"")
                except Exception:  # pragma: no cover - closed meanwhile
                    self._drop(handler)

    def _drop(self, handler) -> None:
        self.num_dropped_clients += 1
        self._on_close(handler)
        conn = handler.ws_connection
        if conn is not None and conn.stream is not None:
            conn.stream.close()   # frees the unsent data at once

    def _broadcast(self, handlers, items) -> None:
        """Sends `items` to every handler (large commands are shared, see
        _write_frames)."""
        if items:
            for handler in handlers:
                self._send(handler, items)

    def _take_outbox(self) -> list:
        items, self._outbox = self._outbox, []
        return items

    def _drain(self) -> None:
        with self.lock:
            self._drain_scheduled = False
            items = self._take_outbox()
            connections = list(self._connections)
        self._broadcast(connections, items)

    def _on_open(self, handler) -> None:
        with self.lock:
            pending = self._take_outbox()
            others = list(self._connections)
            replay = self.replay_messages(include_controls=True)
            self._connections.add(handler)
        self._broadcast(others, pending)
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
            name = msg.get("name")
            control = self.controls.get(name) if isinstance(name, str) else None
            if control is not None:
                control.receive(msg)

    def _on_close(self, handler) -> None:
        with self.lock:
            self._connections.discard(handler)
        if handler._backlog is not None:
            self._backlog_total -= handler._backlog_bytes
        handler._backlog = None
        handler._backlog_bytes = 0

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
        commands = ",\n".join(  # data URLs, as pydrake's page embeds its commands
            f'"data:application/octet-binary;base64,{base64.b64encode(m).decode("ascii")}"'
            for m in messages)
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
    var raw = atob(commands[i].slice(commands[i].indexOf(",") + 1));
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
