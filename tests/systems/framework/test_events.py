"""EventStatus.KeepMoreSevere prefers failure, then termination, then success."""

from systems.framework import EventStatus


def test_keep_more_severe_prefers_failure_then_termination_then_success():
    succeeded = EventStatus.Succeeded()
    failed = EventStatus.Failed(None, "broken")
    done = EventStatus.ReachedTermination(None, "done")
    assert EventStatus.DidNothing().KeepMoreSevere(succeeded) is succeeded
    assert succeeded.KeepMoreSevere(done) is done
    assert done.KeepMoreSevere(failed) is failed
    assert failed.KeepMoreSevere(done) is failed
    assert failed.message() == "broken" and failed.failed()
