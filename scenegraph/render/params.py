"""Render engine parameters (pydrake.geometry's RenderEngineVtkParams,
RenderEngineGlParams, LightParameter and the VTK options SsaoParameter,
EnvironmentMap, EquirectangularMap, NullTexture, GltfExtension).

They are plain keyword-constructed records, as pydrake's are. This library's
engine (scenegraph.render.RenderEngineCpu) reads ``default_diffuse``,
``default_clear_color`` and ``lights``; the VTK-only options (environment
maps, exposure, SSAO, shadows, PBR, glTF extensions, backend) are kept,
checked where Drake checks them, reported by GetParameterYaml, and not
rendered (a warning says so once per engine when one is set).
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from scenegraph.geometry_properties import Rgba

__all__ = ["LightParameter", "RenderEngineVtkParams", "RenderEngineGlParams", "SsaoParameter",
           "EnvironmentMap", "EquirectangularMap", "NullTexture", "GltfExtension",
           "light_table"]

#: Drake's default clear colour (204, 229, 255)/255.
DEFAULT_CLEAR_RGB = (0.8, 229.0 / 255.0, 1.0)
#: RenderEngineVtk's default diffuse ("bright orange"), measured in pydrake 1.51.1's
#: images: (229, 114, 25)/255 under the head light.
VTK_DEFAULT_DIFFUSE = (0.9, 0.45, 0.1, 1.0)
#: RenderEngineGl's default diffuse.
GL_DEFAULT_DIFFUSE = (0.9, 0.7, 0.2, 1.0)


def _array(value, n, name):
    a = np.asarray(value, dtype=float).reshape(-1)
    if a.shape != (n,):
        raise ValueError(f"{name} must have {n} entries; got {a.size}")
    return a


def _fields_repr(obj) -> str:
    parts = []
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        parts.append(f"{f.name}={value!r}")
    return f"{type(obj).__name__}({', '.join(parts)})"


@dataclasses.dataclass(repr=False)
class LightParameter:
    """A light: ``type`` ('point', 'spot' or 'directional'), ``color`` (Rgba),
    ``attenuation_values`` (constant, linear, quadratic: intensity divided by
    c + l·d + q·d² at distance d [m]; ignored by directional lights),
    ``position`` [m] (point and spot), ``frame`` ('camera' or 'world', the
    frame of position and direction), ``intensity``, ``direction`` (the way
    the light travels; spot and directional) and ``cone_angle`` [degrees]
    (spot: half angle of the lit cone)."""

    type: str = "directional"
    color: Rgba = dataclasses.field(default_factory=lambda: Rgba(1.0, 1.0, 1.0, 1.0))
    attenuation_values: np.ndarray = dataclasses.field(
        default_factory=lambda: np.array([1.0, 0.0, 0.0]))
    position: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(3))
    frame: str = "camera"
    intensity: float = 1.0
    direction: np.ndarray = dataclasses.field(default_factory=lambda: np.array([0.0, 0.0, 1.0]))
    cone_angle: float = 0.0

    def __repr__(self) -> str:
        return _fields_repr(self)


@dataclasses.dataclass(repr=False)
class GltfExtension:
    """How a glTF extension is treated (``warn_unimplemented``)."""
    warn_unimplemented: bool = True

    def __repr__(self) -> str:
        return _fields_repr(self)


@dataclasses.dataclass(repr=False)
class NullTexture:
    """No environment texture."""

    def __repr__(self) -> str:
        return "NullTexture()"


@dataclasses.dataclass(repr=False)
class EquirectangularMap:
    """An equirectangular environment image at ``path``."""
    path: str = ""

    def __repr__(self) -> str:
        return _fields_repr(self)


@dataclasses.dataclass(repr=False)
class EnvironmentMap:
    """An environment map (``skybox``, ``texture``); not rendered here."""
    skybox: bool = True
    texture: object = dataclasses.field(default_factory=NullTexture)

    def __repr__(self) -> str:
        return _fields_repr(self)


@dataclasses.dataclass(repr=False)
class SsaoParameter:
    """Screen-space ambient occlusion settings; not rendered here."""
    radius: float = 0.25
    bias: float = 0.01
    sample_count: int = 128
    intensity_scale: float = 1.0
    intensity_shift: float = 0.0
    blur: bool = True

    def __repr__(self) -> str:
        return _fields_repr(self)


@dataclasses.dataclass(repr=False)
class RenderEngineVtkParams:
    """RenderEngineVtk's construction parameters (see the module docstring for
    what this library renders of them): ``default_diffuse`` ((4,) RGBA or None:
    Drake's orange), ``default_clear_color`` ((3,) RGB background), ``lights``
    (list of LightParameter; none: one directional light along the camera's
    +z), and the VTK-only options."""

    default_diffuse: object = None
    default_clear_color: np.ndarray = dataclasses.field(
        default_factory=lambda: np.array(DEFAULT_CLEAR_RGB))
    lights: list = dataclasses.field(default_factory=list)
    environment_map: object = None
    exposure: object = None
    ssao: object = None
    cast_shadows: bool = False
    shadow_map_size: int = 256
    force_to_pbr: bool = False
    gltf_extensions: dict = dataclasses.field(
        default_factory=lambda: {"KHR_texture_basisu": GltfExtension(warn_unimplemented=False)})
    backend: str = ""

    def __repr__(self) -> str:
        return _fields_repr(self)

    def _diffuse(self) -> np.ndarray:
        if self.default_diffuse is None:
            return np.array(VTK_DEFAULT_DIFFUSE)
        value = self.default_diffuse
        return value.rgba if isinstance(value, Rgba) else _array(value, 4, "default_diffuse")

    def _clear(self) -> np.ndarray:
        value = self.default_clear_color
        if isinstance(value, Rgba):
            return value.rgba[:3]
        return _array(value, 3, "default_clear_color")

    def _unrendered(self) -> list:
        """Names of the set options this library does not render."""
        out = []
        if self.environment_map is not None:
            out.append("environment_map")
        if self.exposure is not None:
            out.append("exposure")
        if self.ssao is not None:
            out.append("ssao")
        if self.cast_shadows:
            out.append("cast_shadows")
        if self.force_to_pbr:
            out.append("force_to_pbr")
        return out

    def _validate(self) -> None:
        if self.backend not in ("", "Cocoa", "EGL", "GLX"):
            raise RuntimeError(f"Unknown value for RenderEngineVtkParams.backend = "
                               f"'{self.backend}'; valid choices are: '' (empty), 'Cocoa', "
                               f"'EGL', or 'GLX'")
        _validate_lights(self.lights, "RenderEngineVtk")
        self._diffuse()
        self._clear()


@dataclasses.dataclass(repr=False)
class RenderEngineGlParams:
    """RenderEngineGl's construction parameters: ``default_diffuse`` (Rgba),
    ``default_clear_color`` (Rgba) and ``lights`` (at most five)."""

    default_diffuse: Rgba = dataclasses.field(default_factory=lambda: Rgba(*GL_DEFAULT_DIFFUSE))
    default_clear_color: Rgba = dataclasses.field(
        default_factory=lambda: Rgba(*DEFAULT_CLEAR_RGB, 1.0))
    lights: list = dataclasses.field(default_factory=list)

    def __repr__(self) -> str:
        return _fields_repr(self)

    def _diffuse(self) -> np.ndarray:
        value = self.default_diffuse
        return value.rgba if isinstance(value, Rgba) else _array(value, 4, "default_diffuse")

    def _clear(self) -> np.ndarray:
        value = self.default_clear_color
        return value.rgba[:3] if isinstance(value, Rgba) else _array(value, 4,
                                                                      "default_clear_color")[:3]

    def _unrendered(self) -> list:
        return []

    def _validate(self) -> None:
        if len(self.lights) > 5:
            raise RuntimeError(f"RenderEngineGl cannot have more than 5 lights; "
                               f"{len(self.lights)} were given")
        _validate_lights(self.lights, "RenderEngineGl")
        self._diffuse()
        self._clear()


def _validate_lights(lights, engine: str) -> None:
    for light in lights:
        if not isinstance(light, LightParameter):
            raise TypeError(f"{engine}: lights must be LightParameter; got "
                            f"{type(light).__name__}")
        if light.type not in ("point", "spot", "directional"):
            raise RuntimeError(f"{engine} given an invalid light type. Expected one of "
                               f"'point', 'spot', or 'directional'. Given '{light.type}'.")
        if light.frame not in ("world", "camera"):
            raise RuntimeError(f"{engine} given an invalid frame for a light. Expected one "
                               f"of 'world' or 'camera'. Given '{light.frame}'.")
        direction = _array(light.direction, 3, "LightParameter.direction")
        if light.type != "point" and not np.linalg.norm(direction) > 0:
            raise RuntimeError(f"{engine}: a {light.type} light needs a non-zero direction")
        _array(light.position, 3, "LightParameter.position")
        attenuation = _array(light.attenuation_values, 3, "LightParameter.attenuation_values")
        if (attenuation < 0).any() or not attenuation.any():
            raise RuntimeError(f"{engine}: a light's attenuation values must be non-negative "
                               f"and not all zero; got {attenuation.tolist()}")
        if not (math.isfinite(float(light.intensity)) and float(light.intensity) >= 0):
            raise RuntimeError(f"{engine}: a light's intensity must be non-negative; got "
                               f"{light.intensity}")


def light_table(lights, R_CW, p_CW) -> np.ndarray:
    """The kernels' (L, 14) light table in the camera frame C (see
    raster_kernels.render_image): kind, rgb·intensity, p_CL, unit direction in
    C, attenuation (constant, linear, quadratic), cos(cone angle). No lights:
    Drake's head light, directional along +Cz."""
    if not lights:
        return np.array([[0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0,
                          -1.0]])
    table = np.zeros((len(lights), 14))
    kinds = {"directional": 0.0, "point": 1.0, "spot": 2.0}
    for i, light in enumerate(lights):
        color = light.color.rgba[:3] if isinstance(light.color, Rgba) else \
            np.asarray(light.color, dtype=float).reshape(-1)[:3]
        position = np.asarray(light.position, dtype=float).reshape(3)
        direction = np.asarray(light.direction, dtype=float).reshape(3)
        norm = np.linalg.norm(direction)
        direction = direction / norm if norm > 0 else np.array([0.0, 0.0, 1.0])
        if light.frame == "world":
            position = R_CW @ position + p_CW
            direction = R_CW @ direction
        table[i, 0] = kinds[light.type]
        table[i, 1:4] = color * float(light.intensity)
        table[i, 4:7] = position
        table[i, 7:10] = direction
        table[i, 10:13] = np.asarray(light.attenuation_values, dtype=float).reshape(3)
        table[i, 13] = math.cos(math.radians(float(light.cone_angle)))
    return table


def params_yaml(params) -> str:
    """The parameters as YAML, prefixed with the parameter type's name (as
    Drake's GetParameterYaml writes them)."""
    lines = [f"{type(params).__name__}:"]

    def scalar(value) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return f"'{value}'" if value == "" else value
        if isinstance(value, Rgba):
            return f"[{', '.join(repr(float(x)) for x in value.rgba)}]"
        if isinstance(value, np.ndarray):
            return f"[{', '.join(repr(float(x)) for x in value.reshape(-1))}]"
        return repr(value)

    def emit(name, value, indent):
        pad = "  " * indent
        if value is None:
            return
        if isinstance(value, list):
            if not value:
                lines.append(f"{pad}{name}: []")
                return
            lines.append(f"{pad}{name}:")
            for item in value:
                fields = [(f.name, getattr(item, f.name)) for f in dataclasses.fields(item)]
                first = True
                for key, sub in fields:
                    prefix = f"{pad}  - " if first else f"{pad}    "
                    first = False
                    if isinstance(sub, Rgba):
                        lines.append(f"{prefix}{key}:")
                        lines.append(f"{pad}      rgba: {scalar(sub)}")
                    else:
                        lines.append(f"{prefix}{key}: {scalar(sub)}")
            return
        if isinstance(value, dict):
            lines.append(f"{pad}{name}:")
            for key, sub in value.items():
                lines.append(f"{pad}  {key}:")
                for f in dataclasses.fields(sub):
                    lines.append(f"{pad}    {f.name}: {scalar(getattr(sub, f.name))}")
            return
        if dataclasses.is_dataclass(value):
            lines.append(f"{pad}{name}:")
            for f in dataclasses.fields(value):
                emit(f.name, getattr(value, f.name), indent + 1)
            return
        if isinstance(value, Rgba) and isinstance(params, RenderEngineGlParams):
            lines.append(f"{pad}{name}:")
            lines.append(f"{pad}  rgba: {scalar(value)}")
            return
        lines.append(f"{pad}{name}: {scalar(value)}")

    for f in dataclasses.fields(params):
        emit(f.name, getattr(params, f.name), 1)
    return "\n".join(lines) + "\n"
