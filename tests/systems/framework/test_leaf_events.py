"""Event declarations: periods and offsets are validated."""
import pytest

from systems.framework import LeafSystem


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
