"""Sensors built on SceneGraph queries (extensions beyond pydrake)."""
from scenegraph.sensors.ray_cast_sensor import RayCastSensor
from scenegraph.sensors.tactile_sensor import TactileSensor

__all__ = ["RayCastSensor", "TactileSensor"]
