"""Reading a meshcat server's scene the way a browser receives it.

``read_scene`` connects a websocket client and collects what the server
sends a new browser; the other helpers fold those decoded commands into the
state a viewer would end up with (objects, transforms, properties).
"""
from __future__ import annotations

import numpy as np

from tests.scenegraph.visualization.ws_client import WsClient


def read_scene(meshcat, idle: float = 0.3) -> list:
    """Decoded commands a newly connected browser receives."""
    with WsClient(meshcat.ws_url()) as client:
        return client.messages(idle=idle)


def matrix(ext) -> np.ndarray:
    """(4, 4) row-major matrix from a column-major Float32Array/list."""
    data = np.frombuffer(ext.data, dtype=np.float32) if hasattr(ext, "data") else np.asarray(ext)
    return np.asarray(data, dtype=float).reshape(4, 4).T


def array(attribute) -> np.ndarray:
    """(N, itemSize) numpy array of a three.js BufferAttribute JSON."""
    dtype = {"Float32Array": np.float32, "Uint32Array": np.uint32}[attribute["type"]]
    data = np.frombuffer(attribute["array"].data, dtype=dtype)
    return data.reshape(-1, attribute["itemSize"])


def fold(messages) -> dict:
    """{'objects': path -> object JSON, 'transforms': path -> 4×4,
    'properties': (path, name) -> value, 'deleted': [paths],
    'animation': last set_animation or None, 'controls': name -> command}."""
    state = {"objects": {}, "transforms": {}, "properties": {}, "deleted": [],
             "animation": None, "controls": {}}
    for m in messages:
        kind = m.get("type")
        if kind == "set_object":
            state["objects"][m["path"]] = m["object"]
        elif kind == "set_transform":
            state["transforms"][m["path"]] = matrix(m["matrix"])
        elif kind == "set_property":
            state["properties"][(m["path"], m["property"])] = m["value"]
        elif kind == "delete":
            state["deleted"].append(m["path"])
            for table in ("objects", "transforms"):
                for path in [p for p in state[table] if p == m["path"] or
                             p.startswith(m["path"] + "/")]:
                    del state[table][path]
        elif kind == "set_animation":
            state["animation"] = m
        elif kind == "set_control" and "scenegraph-transforms" in m["name"]:
            data = np.frombuffer(m["min"].data, dtype=np.float32).reshape(-1, 4, 4)
            for path, X in zip(m["max"], data):
                state["transforms"][path] = np.asarray(X, dtype=float).T
        elif kind == "set_control":
            state["controls"][m["name"]] = m
        elif kind == "delete_control":
            state["controls"].pop(m["name"], None)
    return state
