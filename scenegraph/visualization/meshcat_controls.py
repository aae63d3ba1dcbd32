"""Sliders and buttons in the viewer's control panel, and viewer scripts.

The bundled viewer adds a dat.gui control for ``{"type": "set_control",
"name", "callback", "value", "min", "max", "step"}`` and ``eval``s the
callback string inside the viewer (``this`` is the viewer, ``msgpack`` is
in scope). As in Drake, the callbacks send the browser's changes back as
msgpack maps: ``{"type": "slider", "name", "value"}`` and ``{"type":
"button", "name"}``. Keyboard shortcuts (Drake's keycodes) are installed by
the same callback.

The control objects live in MeshcatServer.controls; the server thread calls
``receive`` with each message from a browser (under the server lock).
"""
from __future__ import annotations

import json
import math
import struct

from scenegraph.visualization.meshcat_protocol import encode

__all__ = ["Slider", "Button", "viewer_script", "checked_text", "checked_number"]

# One keydown listener per page; each control registers its keys by name.
_KEY_SETUP = """
    window.__sg_keys = window.__sg_keys || {};
    if (!window.__sg_key_listener) {
      window.__sg_key_listener = true;
      document.addEventListener('keydown', (evt) => {
        for (const k of Object.values(window.__sg_keys)) {
          const fn = k[evt.code];
          if (fn) fn();
        }
      });
    }"""


def checked_text(value, method: str, what: str = "name") -> str:
    """A control name or keycode as pydrake accepts it: a str of valid Unicode
    (bytes are decoded as UTF-8, as pybind11 does).

    Raises:
      TypeError: anything else, naming the method, the argument and the value
        (pydrake raises TypeError too) -- before anything is changed.
    """
    if isinstance(value, (bytes, bytearray)):
        try:
            value = bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            raise TypeError(f"Meshcat.{method}(): {what} must be text; got bytes that are "
                            f"not UTF-8: {bytes(value)!r}") from None
    if not isinstance(value, str):
        raise TypeError(f"Meshcat.{method}(): {what} must be a str; got "
                        f"{type(value).__name__} {value!r}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise TypeError(f"Meshcat.{method}(): {what} {value!r} is not valid Unicode text: "
                        f"it holds the lone surrogate {value[exc.start]!r} at index "
                        f"{exc.start}, which cannot be sent to a browser (pydrake refuses "
                        f"it too)") from None
    return value


def checked_number(value, method: str, what: str) -> float:
    """A float argument as pydrake accepts it (no strings).

    Raises:
      TypeError: a str, bytes or a value without a float conversion.
    """
    if isinstance(value, (str, bytes, bytearray)):
        raise TypeError(f"Meshcat.{method}(): {what} must be a number; got "
                        f"{type(value).__name__} {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"Meshcat.{method}(): {what} must be a number; got "
                        f"{type(value).__name__} {value!r}") from None


def _js(value) -> str:
    """A JavaScript literal of a str or number (JSON is valid JavaScript)."""
    return json.dumps(value)


class Slider:
    """A slider control: range [min, max], increment `step`."""

    kind = "slider"

    def __init__(self, name, min, max, step, value, decrement_keycode="", increment_keycode=""):
        self.name = name
        self.min, self.max, self.step = float(min), float(max), float(step)
        if not self.min <= self.max:
            raise RuntimeError(f"Meshcat.AddSlider('{name}'): min ({min}) must be <= max ({max})")
        if not self.step > 0:
            raise RuntimeError(f"Meshcat.AddSlider('{name}'): step must be > 0; got {step}")
        self.keycodes = (decrement_keycode or "", increment_keycode or "")
        self.value = self.quantize(value)

    def quantize(self, value: float) -> float:
        """`value` clamped to [min, max], then rounded to the nearest multiple of
        the step (halves away from zero), as Drake and dat.GUI do: a range that
        is not a multiple of the step keeps 0 (not min) on the grid."""
        value = min(self.max, max(self.min, float(value)))
        x = value / self.step
        return math.copysign(math.floor(abs(x) + 0.5), x) * self.step

    def receive(self, msg: dict) -> None:
        if msg.get("type") == "slider":
            value = msg.get("value")
            if isinstance(value, (int, float)) and math.isfinite(value):
                self.value = self.quantize(value)   # a client may send any number

    def message(self) -> bytes:
        name = _js(self.name)
        keys = ""
        dec, inc = self.keycodes
        if dec or inc:
            keys = _KEY_SETUP + f"""
    const move = (sign) => {{
      const c = this.gui_controllers[{name}];
      if (c) c.setValue(Math.min({self.max!r}, Math.max({self.min!r},
                                  c.getValue() + sign * {self.step!r})));
    }};
    window.__sg_keys[{name}] = {{}};
    if ({_js(dec)}) window.__sg_keys[{name}][{_js(dec)}] = () => move(-1);
    if ({_js(inc)}) window.__sg_keys[{name}][{_js(inc)}] = () => move(1);"""
        callback = f"""(() => {{{keys}
    return (value) => this.connection.send(msgpack.encode(
        {{'type': 'slider', 'name': {name}, 'value': value}}));
}})()"""
        return encode({"type": "set_control", "name": self.name, "callback": callback,
                       "value": self.value, "min": self.min, "max": self.max,
                       "step": self.step})

    def value_message(self) -> bytes:
        """Moves the slider in every browser without echoing the change back."""
        return encode({"type": "set_control_value", "name": self.name, "value": self.value,
                       "invoke_callback": False})


class Button:
    """A button control; counts clicks from every browser."""

    kind = "button"

    def __init__(self, name, keycode=""):
        self.name = name
        self.keycode = keycode or ""
        self.clicks = 0

    def receive(self, msg: dict) -> None:
        if msg.get("type") == "button":
            self.clicks += 1

    def message(self) -> bytes:
        name = _js(self.name)
        keys = ""
        if self.keycode:
            keys = _KEY_SETUP + f"""
    window.__sg_keys[{name}] = {{}};
    window.__sg_keys[{name}][{_js(self.keycode)}] = () => send();"""
        callback = f"""(() => {{
    const send = () => this.connection.send(msgpack.encode(
        {{'type': 'button', 'name': {name}}}));{keys}
    return send;
}})()"""
        return encode({"type": "set_control", "name": self.name, "callback": callback})


def delete_control_message(name: str) -> bytes:
    return encode({"type": "delete_control", "name": name})


def viewer_script(body: str) -> bytes:
    """A command that runs JavaScript `body` in the viewer (``this`` is the
    viewer). It rides on set_control's eval: the helper button it creates
    is removed on the next tick."""
    name = "\u200bscenegraph-script"
    callback = f"""(() => {{
    {body}
    this.set_dirty();
    setTimeout(() => this.delete_control({_js(name)}), 0);
    return () => {{}};
}})()"""
    return encode({"type": "set_control", "name": name, "callback": callback})


# Many transforms in one message: the matrices travel in the command's
# unused "min" field (Float32Array, 16 column-major entries per path) and
# the paths in "max"; set_control's eval sees both as local variables.
_BATCH_NAME = "\u200bscenegraph-transforms"
_BATCH_CALLBACK = """(() => {
    for (let i = 0; i < max.length; ++i) {
        this.set_transform(split_path(max[i]), min.subarray(16 * i, 16 * i + 16));
    }
    this.set_dirty();
    setTimeout(() => this.delete_control(name), 0);
    return () => {};
})()"""
_BATCH_HEAD = encode({"type": "set_control", "name": _BATCH_NAME,
                      "callback": _BATCH_CALLBACK, "min": None})[:-1]   # map of 5, "min" key
_BATCH_HEAD = b"\x85" + _BATCH_HEAD[1:]


def packed_str(text: str) -> bytes:
    """msgpack bytes of one str."""
    return encode(text)


def transform_batch_message(packed_paths: list, matrices: bytes) -> bytes:
    """One command that sets N transforms in the viewer.

    Args:
      packed_paths: N msgpack-packed path strings (``packed_str``).
      matrices: N·64 bytes, each path's 4×4 float32 matrix, column-major.
    """
    n = len(packed_paths)
    ext = b"\xc9" + struct.pack(">I", len(matrices)) + b"\x17"
    array = b"\xdc" + struct.pack(">H", n) if n < 65536 else b"\xdd" + struct.pack(">I", n)
    return _BATCH_HEAD + ext + matrices + b"\xa3max" + array + b"".join(packed_paths)
