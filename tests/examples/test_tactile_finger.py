"""examples/tactile_finger.py: the skin carries the applied force once the
finger has settled, a few sensors are active, --help works, the script runs
as a process without a terminal, and with Meshcat the skin is drawn."""
import os
import pathlib
import subprocess
import sys

import pytest

from examples import tactile_finger

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _last_row(out: str):
    rows = [line.split() for line in out.splitlines() if line[:6].strip().replace(".", "").isdigit()]
    t, x, applied, f_z, normal, active = rows[-1]
    return float(applied), float(f_z), float(normal), int(active)


def test_skin_force_balances_the_applied_force_at_rest(capsys):
    assert tactile_finger.main(["--duration", "0.5"]) == 0
    applied, f_z, normal, active = _last_row(capsys.readouterr().out)
    assert applied == tactile_finger.F_MAX
    # At rest (t = 0.5 s, before sliding) m·z'' = 0 = −F + f_z − c·ż with ż ≈ 0.
    assert f_z == pytest.approx(applied, rel=1e-3)
    assert normal == pytest.approx(f_z, rel=1e-3)        # contact straight below the tip
    assert 3 <= active <= 40                               # spread_linear over a 4 mm radius


def test_help_and_running_without_a_terminal():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    help_run = subprocess.run([sys.executable, "examples/tactile_finger.py", "--help"],
                              cwd=ROOT, capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL, env=env)
    assert help_run.returncode == 0 and "--meshcat" in help_run.stdout
    run = subprocess.run([sys.executable, "examples/tactile_finger.py", "--duration", "0.4"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    assert run.returncode == 0, run.stderr
    assert "balanced: the skin carries the applied force" in run.stdout


def test_meshcat_draws_the_skin():
    from scenegraph.visualization import Meshcat
    from systems.analysis import Simulator
    meshcat = Meshcat(port=0)
    try:
        diagram, _, _ = tactile_finger.build(meshcat)
        simulator = Simulator(diagram)
        simulator.AdvanceTo(0.1)
        assert meshcat.HasPath("/drake/tactile")
    finally:
        meshcat._server.stop()
