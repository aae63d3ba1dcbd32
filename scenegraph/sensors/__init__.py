"""Sensors built on SceneGraph queries (extensions beyond pydrake)."""
from scenegraph.sensors.ray_cast_sensor import RayCastSensor

__all__ = ["RayCastSensor"]
