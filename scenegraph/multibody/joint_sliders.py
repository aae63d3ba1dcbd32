"""JointSliders (pydrake.multibody.meshcat's): one Meshcat slider per position of a
MultibodyPlant, and a LeafSystem whose output is those positions.

Connect ``sliders.get_output_port()`` to the plant's extension input port
``commanded_positions`` and the plant's q follows the sliders in a simulation;
or call ``Run(diagram)``, which, as pydrake's, sets the plant's positions in a
context of its own whenever a slider moves and publishes the diagram (so a
MeshcatVisualizer redraws the robot) until the "Stop JointSliders" button is
clicked or the timeout passes.

Slider names, ranges and steps are pydrake's (multibody/meshcat/joint_sliders.cc):
the joint's name for a one-position joint, ``<joint>_<suffix>`` ("base_qw",
"base_x", ...) for the positions of a multi-position joint, each followed by
``/<model instance name>`` when two would otherwise share a name; the range is
the joint's position limits intersected with [lower_limit, upper_limit]
(default [-10, 10]); the step 0.01.
"""
from __future__ import annotations

import logging
import time
import weakref

import numpy as np

from systems.framework import LeafSystem

__all__ = ["JointSliders"]

_log = logging.getLogger("scenegraph.meshcat")
_STOP_BUTTON = "Stop JointSliders"


def _broadcast(what: str, default: float, nq: int, value) -> np.ndarray:
    """`value` as (nq,): None -> default everywhere, a number -> it everywhere, a
    vector -> itself (checked for size)."""
    if value is None:
        return np.full(nq, float(default))
    if np.ndim(value) == 0:
        return np.full(nq, float(value))
    array = np.asarray(value, dtype=float).reshape(-1)
    if array.size != nq:
        raise RuntimeError(f"Expected {what} of size {nq}, but got size {array.size} instead")
    return array


def _slider_names(plant, with_instance: bool) -> list:
    """Slider name of every position, in q order."""
    names = [None] * plant.num_positions()
    for index in plant.GetJointIndices():
        joint = plant.get_joint(index)
        n = joint.num_positions()
        for j in range(n):
            name = joint.name() if n == 1 else f"{joint.name()}_{joint.position_suffix(j)}"
            if with_instance:
                name += f"/{plant.GetModelInstanceName(joint.model_instance())}"
            names[joint.position_start() + j] = name
    return names


def _delete_sliders(meshcat, controls, registered) -> None:
    """Deletes the sliders once (Delete() and the finalizer share `registered`),
    each only while it is still the one added (not a later slider of that name)."""
    if registered[0]:
        registered[0] = False
        for name, control in controls:
            if meshcat._server.controls.get(name) is control:
                meshcat.DeleteSlider(name, strict=False)


class JointSliders(LeafSystem):
    """Meshcat sliders for every position of a MultibodyPlant (pydrake's
    ``pydrake.multibody.meshcat.JointSliders``).

    Args:
      meshcat: the Meshcat to add the sliders to.
      plant: a finalized MultibodyPlant.
      initial_value: (nq,) initial slider values; None: the plant's default
        positions.
      lower_limit: None, a number or (nq,): each slider's range is the joint's
        limits intersected with [lower_limit, upper_limit] (default -10).
      upper_limit: None, a number or (nq,) (default 10; see lower_limit).
      step: None (0.01), a number or (nq,).
      decrement_keycodes: empty, or nq keycodes moving each slider down one step
        (JavaScript KeyboardEvent.code values).
      increment_keycodes: empty, or nq keycodes moving each slider up one step.

    Raises:
      RuntimeError: a vector of the wrong size (Drake's message), or a slider
        name already used by another control of `meshcat`.
      TypeError: a keycode that is not text.

    Output port ``positions`` (nq): the sliders' values while the sliders exist,
    else (after Delete) the values last given (initial_value / SetPositions),
    read afresh at every evaluation.
    """

    def __init__(self, meshcat, plant, initial_value=None, lower_limit=None,
                 upper_limit=None, step=None, decrement_keycodes=[],
                 increment_keycodes=[]):
        super().__init__()
        if meshcat is None or plant is None:
            raise RuntimeError("JointSliders: meshcat and plant must not be None")
        nq = plant.num_positions()
        if initial_value is not None:
            nominal = np.asarray(initial_value, dtype=float).reshape(-1)
            if nominal.size != nq:
                raise RuntimeError(f"Expected initial_value of size {nq}, but got size "
                                   f"{nominal.size} instead")
        else:
            nominal = np.asarray(plant.GetPositions(plant.CreateDefaultContext()),
                                 dtype=float).reshape(-1)
        lower = np.maximum(_broadcast("lower_limit", -10.0, nq, lower_limit),
                           plant.GetPositionLowerLimits())
        upper = np.minimum(_broadcast("upper_limit", 10.0, nq, upper_limit),
                           plant.GetPositionUpperLimits())
        steps = _broadcast("step", 0.01, nq, step)
        keycodes = []
        for what, codes in (("decrement_keycodes", decrement_keycodes),
                            ("increment_keycodes", increment_keycodes)):
            codes = list(codes or [])
            if codes and len(codes) != nq:
                raise RuntimeError(f"Expected {what} of size zero or {nq}, but got size "
                                   f"{len(codes)} instead")
            keycodes.append(codes or [""] * nq)
        names = _slider_names(plant, False)
        if len(set(names)) != len(names):
            names = _slider_names(plant, True)
        taken = [n for n in names if n in set(meshcat.GetSliderNames())
                 or n in set(meshcat.GetButtonNames())]
        if taken:
            raise RuntimeError(f"JointSliders: Meshcat already has a control named "
                               f"'{taken[0]}'")
        self._meshcat = meshcat
        self._plant = plant
        self._names = names
        self._nominal = nominal.copy()
        self._registered = [True]
        added = []
        try:
            for i, name in enumerate(names):
                meshcat.AddSlider(name, lower[i], upper[i], steps[i], nominal[i],
                                  keycodes[0][i], keycodes[1][i])
                added.append(name)
        except Exception:
            for name in added:                 # nothing half-added stays behind
                meshcat.DeleteSlider(name, strict=False)
            raise
        # Drake deletes the sliders in the destructor; here when this object is
        # garbage collected (or at Delete()).
        self._controls = [(n, meshcat._server.controls.get(n)) for n in names]
        weakref.finalize(self, _delete_sliders, meshcat, self._controls, self._registered)
        # The values change with the browser, not with the context: the port is
        # recomputed at every evaluation, and what depends on it is invalidated
        # whenever time moves (a simulation step), not at every state change.
        port = self.DeclareVectorOutputPort("positions", nq, self._calc_positions,
                                            {self.time_ticket()})
        port.disable_caching_by_default()

    def _calc_positions(self, context, output) -> None:
        output.SetFromVector(self._values())

    def _values(self) -> np.ndarray:
        """(nq,) the sliders' values, or the nominal values after Delete()."""
        if not self._registered[0]:
            return self._nominal.copy()
        return np.array([self._meshcat.GetSliderValue(n) for n in self._names])

    def DoGetGraphvizFragment(self, params):
        """Drake's drawing: a dashed edge from Meshcat into this system."""
        from scenegraph.visualization.meshcat_graphviz import meshcat_graphviz_fragment
        result = meshcat_graphviz_fragment(super().DoGetGraphvizFragment, params, "")
        result.fragments.pop()          # JointSliders only reads from Meshcat
        node = params.node_id
        result.fragments.append("meshcat_out [label=Meshcat, color=magenta];\n"
                                f"meshcat_out -> {node}:w [style=dashed, color=magenta]\n")
        return result

    def Delete(self) -> None:
        """Removes the sliders from Meshcat (once); the output port then reports
        the nominal values."""
        _delete_sliders(self._meshcat, self._controls, self._registered)

    def SetPositions(self, q) -> None:
        """Sets the nominal values to `q` (nq,) and moves the sliders there (each
        clamped to its range and rounded to its step).

        Raises:
          RuntimeError: `q` has the wrong size.
        """
        q = np.asarray(q, dtype=float).reshape(-1)
        nq = len(self._names)
        if q.size != nq:
            raise RuntimeError(f"Expected q of size {nq}, but got size {q.size} instead")
        self._nominal = q.copy()
        if self._registered[0]:
            for name, value in zip(self._names, q):
                self._meshcat.SetSliderValue(name, value)

    def Run(self, diagram, timeout=None, stop_button_keycode="Escape"):
        """Publishes `diagram` whenever the sliders move, setting the plant's
        positions from them, until the "Stop JointSliders" button is clicked (or
        its keycode pressed) or `timeout` [s] (None: no limit) has passed.

        `diagram` must be the root diagram holding the plant and this system
        (the output port need not be connected). Returns the plant's positions
        (nq,) as last published.
        """
        root_context = diagram.CreateDefaultContext()
        plant_context = self._plant.GetMyMutableContextFromRoot(root_context)
        meshcat = self._meshcat
        key = f" or press '{stop_button_keycode}'" if stop_button_keycode else ""
        _log.info("Press the '%s' button in Meshcat%s to continue.", _STOP_BUTTON, key)
        meshcat.AddButton(_STOP_BUTTON, stop_button_keycode)
        try:
            start = time.monotonic()
            diagram.ExecuteInitializationEvents(root_context)
            self._plant.SetPositions(plant_context, self._values())
            diagram.ForcedPublish(root_context)
            while meshcat.GetButtonClicks(_STOP_BUTTON) < 1:
                if timeout is not None and time.monotonic() - start >= timeout:
                    break
                q = self._values()
                if np.array_equal(q, self._plant.GetPositions(plant_context)):
                    time.sleep(0.001)
                    continue
                self._plant.SetPositions(plant_context, q)
                diagram.ForcedPublish(root_context)
        finally:
            meshcat.DeleteButton(_STOP_BUTTON, strict=False)
        return np.array(self._plant.GetPositions(plant_context), dtype=float)
