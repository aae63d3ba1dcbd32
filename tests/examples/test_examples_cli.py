"""Every example is a command: ``--help`` describes it, it runs to the end and
exits 0 with no terminal attached (stdin not a tty, as under CI or a pipe)
instead of waiting for input, and it prints what it shows."""
import importlib
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.stem for p in (ROOT / "examples").glob("*.py") if not p.stem.startswith("_"))


def test_examples_are_only_commands():
    # Library code lives in the package (scenegraph.rigid_bodies), not in examples/.
    assert "rigid_bodies" not in EXAMPLES
    assert {"quickstart", "hydroelastic_contact", "collision_avoidance", "pendulum_pd",
            "arm_avoidance"} <= set(EXAMPLES)


@pytest.mark.parametrize("name", EXAMPLES)
def test_help_describes_the_example_and_exits_0(name, capsys):
    module = importlib.import_module(f"examples.{name}")
    with pytest.raises(SystemExit) as exit_:
        module.main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: ")
    description = out.split("\n\n")[1]
    assert len(description.split()) >= 5, description


@pytest.mark.parametrize("args, shows", [
    (["examples/hydroelastic_contact.py", "--meshcat"], "Meshcat viewer: http://"),
    (["examples/quickstart.py", "--duration", "0.1", "--html", "{tmp}/q.html"],
     "real-time factor"),
    (["examples/arm_avoidance.py", "--meshcat", "--duration", "0.2"], "minimum clearance"),
    (["examples/robot_collision_avoidance.py", "--no-wait", "--duration", "0.2"],
     "real-time factor"),
])
def test_runs_to_the_end_without_a_terminal(args, shows, tmp_path):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = subprocess.run([sys.executable, *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert shows in result.stdout
    assert "Traceback" not in result.stderr and "Warning" not in result.stderr
