"""examples/demo.py runs and its restraint moves s toward s0."""
import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo.py"


def test_demo_moves_s_toward_s0():
    result = subprocess.run([sys.executable, str(DEMO), "--steps", "1200", "--report", "400"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "s approached s0" in result.stdout.splitlines()[-1], result.stdout
