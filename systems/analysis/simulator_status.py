"""SimulatorStatus: why AdvanceTo() or Initialize() returned."""
from __future__ import annotations

from enum import IntEnum

__all__ = ["SimulatorStatus"]


class SimulatorStatus:
    """Outcome of ``Simulator.AdvanceTo`` (pydrake's ``SimulatorStatus``)."""

    class ReturnReason(IntEnum):
        kReachedBoundaryTime = 0
        kReachedTerminationCondition = 1
        kEventHandlerFailed = 2

    kReachedBoundaryTime = ReturnReason.kReachedBoundaryTime
    kReachedTerminationCondition = ReturnReason.kReachedTerminationCondition
    kEventHandlerFailed = ReturnReason.kEventHandlerFailed

    def __init__(self, boundary_time: float):
        self._boundary_time = float(boundary_time)
        self._return_time = float(boundary_time)
        self._reason = SimulatorStatus.kReachedBoundaryTime
        self._system = None
        self._message = ""

    def SetReachedTermination(self, termination_time, system, message) -> None:
        """Records that `system` asked to stop at `termination_time` [s] with `message`."""
        self._return_time = float(termination_time)
        self._reason = SimulatorStatus.kReachedTerminationCondition
        self._system = system
        self._message = message

    def SetEventHandlerFailed(self, failure_time, system, message) -> None:
        """Records that an event handler of `system` failed at `failure_time` [s] with
        `message`."""
        self._return_time = float(failure_time)
        self._reason = SimulatorStatus.kEventHandlerFailed
        self._system = system
        self._message = message

    def boundary_time(self) -> float:
        """The time [s] AdvanceTo was asked to reach."""
        return self._boundary_time

    def return_time(self) -> float:
        """The time [s] AdvanceTo returned at."""
        return self._return_time

    def reason(self):
        """Why AdvanceTo returned: kReachedBoundaryTime, kReachedTerminationCondition or
        kEventHandlerFailed."""
        return self._reason

    def system(self):
        """The system that asked to stop or failed (None when the boundary was reached)."""
        return self._system

    def message(self) -> str:
        """The message given by that system ("" when the boundary was reached)."""
        return self._message

    def succeeded(self) -> bool:
        """True if the boundary time was reached with no termination or failure."""
        return self._reason == SimulatorStatus.kReachedBoundaryTime

    def IsIdenticalStatus(self, other: "SimulatorStatus") -> bool:
        """True if every field equals `other`'s (the same system object)."""
        return (self._boundary_time == other._boundary_time
                and self._return_time == other._return_time
                and self._reason == other._reason and self._system is other._system
                and self._message == other._message)

    def _system_id(self) -> str:
        system = self._system
        if system is None:
            return "an unknown System"
        return f"{type(system).__name__} System '{system.GetSystemPathname()}'"

    def FormatMessage(self) -> str:
        """A sentence describing the status, in Drake's words."""
        if self._reason == SimulatorStatus.kReachedBoundaryTime:
            return (f"Simulator successfully reached the boundary time "
                    f"({self._boundary_time}).")
        if self._reason == SimulatorStatus.kReachedTerminationCondition:
            return (f"Simulator returned early at time {self._return_time} because "
                    f"{self._system_id()} requested termination with message: "
                    f"\"{self._message}\"")
        return (f"Simulator stopped at time {self._return_time} because "
                f"{self._system_id()} failed with message: \"{self._message}\"")

    def __repr__(self) -> str:
        return f"SimulatorStatus({self.FormatMessage()})"
