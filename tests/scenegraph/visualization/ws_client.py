"""A tiny synchronous websocket client for protocol-level tests.

It speaks just enough RFC 6455 to read what a meshcat server sends a new
browser and to send messages the way the viewer does (masked frames); it
answers pings while it reads, as a browser does. Every read has a timeout.
"""
from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
from urllib.parse import urlparse

import umsgpack


class WsClient:
    def __init__(self, ws_url: str, timeout: float = 5.0):
        url = urlparse(ws_url)
        host = "127.0.0.1" if url.hostname in ("localhost", None) else url.hostname
        self.sock = socket.create_connection((host, url.port), timeout=timeout)
        self.sock.settimeout(timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {url.path or '/'} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\n"
                   f"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        self._buffer = b""
        while b"\r\n\r\n" not in self._buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed during the handshake")
            self._buffer += chunk
        head, self._buffer = self._buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.decode(errors="replace"))

    def _read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("server closed the connection")
            self._buffer += chunk
        data, self._buffer = self._buffer[:n], self._buffer[n:]
        return data

    def recv_frame(self, timeout: float):
        """(opcode, payload) of the next frame; raises socket.timeout. A ping is
        answered with a pong (as a browser does) and not returned."""
        while True:
            self.sock.settimeout(timeout)
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            opcode, payload = b0 & 0x0F, self._read(n)
            if opcode != 9:
                return opcode, payload
            self._send_frame(0xA, payload)

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        n = len(payload)
        header = bytes([0x80 | opcode])
        if n < 126:
            header += bytes([0x80 | n])
        elif n <= 0xFFFF:
            header += struct.pack("!BH", 0x80 | 126, n)
        else:
            header += struct.pack("!BQ", 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def messages(self, idle: float = 0.3, limit: float = 10.0) -> list:
        """Decoded messages until none arrives for `idle` seconds."""
        out = []
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                opcode, payload = self.recv_frame(idle)
            except (socket.timeout, TimeoutError):
                break
            if opcode == 2:
                out.append(umsgpack.unpackb(payload))
            elif opcode == 1:
                out.append(json.loads(payload))
            elif opcode == 8:
                break
        return out

    def send(self, message: dict, binary: bool = True) -> None:
        """Sends `message` as the viewer does: msgpack (binary) or JSON text."""
        payload = umsgpack.packb(message) if binary else json.dumps(message).encode()
        self._send_frame(0x2 if binary else 0x1, payload)

    def close(self) -> None:
        try:
            self.sock.sendall(bytes([0x88, 0x80]) + os.urandom(4))
        except OSError:
            pass
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
