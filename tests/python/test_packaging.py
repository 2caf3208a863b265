"""Release basics: one version everywhere, and the installed package's metadata."""
import re
import tomllib
from pathlib import Path

import openmmcoordination

ROOT = Path(__file__).resolve().parents[2]


def test_the_version_is_the_same_in_pyproject_cmake_and_the_module():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    cmake = re.search(r"project\(OpenMMCoordination VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)
    assert openmmcoordination.__version__ == pyproject == cmake == "0.2.0"


def test_the_changelog_and_citation_name_this_version():
    assert "## 0.2.0" in (ROOT / "CHANGELOG.md").read_text()
    assert re.search(r"^version: ['\"]?0\.2\.0", (ROOT / "CITATION.cff").read_text(), re.M)


def test_the_module_exports_the_forces_and_the_plumed_translator():
    assert openmmcoordination.__all__ == ["ContactMapForce", "CoordinationBiasForce", "CoordinationForce",
                                          "CoordinationNumberForce", "PairSwitchingForce", "PerAtomForce", "PlumedInput",
                                          "PlumedTranslator", "ShellFunctionForce", "SteinhardtForce",
                                          "SwitchingSettings", "fromPlumed", "fromPlumedFile", "toPlumed"]
    assert all(hasattr(openmmcoordination, name) for name in openmmcoordination.__all__)
    assert openmmcoordination.PlumedInput._fields == ("forces", "skipped")
    assert openmmcoordination.fromPlumedFile is openmmcoordination.PlumedTranslator.fromPlumedFile
