"""Event declarations: period/offset validation, EventStatus severity rules."""
import pytest

from systems.framework import EventStatus, LeafSystem


@pytest.mark.parametrize("period", [0.0, -0.1, float("nan"), float("inf")])
def test_non_positive_or_non_finite_periods_are_rejected(period):
    system = LeafSystem()
    with pytest.raises(ValueError, match=f"period_sec must be positive and finite; got {period}"):
        system.DeclarePeriodicPublishEvent(period, 0.0, lambda context: None)
    assert system._periodic_events == []


def test_negative_offsets_are_rejected():
    system = LeafSystem()
    with pytest.raises(ValueError, match="offset_sec must be non-negative and finite; got -1.0"):
        system.DeclarePeriodicDiscreteUpdateEvent(0.1, -1.0, lambda context, xd: None)


def test_keep_more_severe_prefers_failure_then_termination_then_success():
    succeeded = EventStatus.Succeeded()
    failed = EventStatus.Failed(None, "broken")
    done = EventStatus.ReachedTermination(None, "done")
    assert EventStatus.DidNothing().KeepMoreSevere(succeeded) is succeeded
    assert succeeded.KeepMoreSevere(done) is done
    assert done.KeepMoreSevere(failed) is failed
    assert failed.KeepMoreSevere(done) is failed
    assert failed.message() == "broken" and failed.failed()
