"""openmm-coordination: PLUMED's COORDINATION collective variable as a native OpenMM force.

Importing this package loads the plugin's platform kernels into OpenMM (from ``lib/plugins`` next
to this file) and registers its XML serialization, then exposes :class:`CoordinationForce`,
:class:`CoordinationNumberForce` (per-atom coordination numbers and their reductions),
:class:`SteinhardtForce` (Steinhardt's Q_l per atom and their reductions), :class:`ShellFunctionForce`
(PLUMED's SIMPLECUBIC, TETRAHEDRAL, FCCUBIC and COORDINATION_SHELL_FUNCTION), :class:`ContactMapForce` (PLUMED's
CONTACTMAP), their bases :class:`CoordinationBiasForce`, :class:`PairSwitchingForce` and :class:`PerAtomForce`, :class:`SwitchingSettings` (one switching function) and the PLUMED
translator (:func:`fromPlumedFile`, :func:`fromPlumed`, :func:`toPlumed`).
"""
import os as _os

import openmm as _openmm

_PLUGIN_DIR = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "lib", "plugins")


def _load_plugins():
    loaded = _openmm.Platform.loadPluginsFromDirectory(_PLUGIN_DIR)
    if not loaded:
        failures = [f for f in _openmm.Platform.getPluginLoadFailures() if "Coordination" in f]
        raise ImportError(
            "openmmcoordination: could not load the platform plugins from %s: %s"
            % (_PLUGIN_DIR, "; ".join(failures) or "no plugin libraries found; reinstall with 'pip install .'")
        )
    return loaded


pluginLoadedLibNames = _load_plugins()

from .coordination import (  # noqa: E402
    ContactMapForce,
    CoordinationBiasForce,
    CoordinationForce,
    CoordinationNumberForce,
    PairSwitchingForce,
    PerAtomForce,
    PlumedInput,
    PlumedTranslator,
    ShellFunctionForce,
    SteinhardtForce,
    SwitchingSettings,
    fromPlumed,
    fromPlumedFile,
    toPlumed,
)

__all__ = ["ContactMapForce", "CoordinationBiasForce", "CoordinationForce", "CoordinationNumberForce", "PairSwitchingForce",
           "PerAtomForce", "PlumedInput", "PlumedTranslator", "ShellFunctionForce", "SteinhardtForce", "SwitchingSettings", "fromPlumed",
           "fromPlumedFile", "toPlumed"]
__version__ = "0.2.0"  # also in pyproject.toml and CMakeLists.txt (tests/python/test_packaging.py checks)
