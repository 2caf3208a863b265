"""`python -m openmmcoordination`: one line naming the OpenMM platforms this plugin serves here.

A platform is served when OpenMM has it and one of the plugin's libraries registered the force's kernel
on it. A plugin library that is installed but could not be loaded (the CUDA plugin without the
openmm-cuda-13 wheel or an NVIDIA driver, say) is named on a second line with OpenMM's reason.
"""
import os
import re
import sys

import openmm as mm

import openmmcoordination


def served_platforms():
    platforms = (mm.Platform.getPlatform(i) for i in range(mm.Platform.getNumPlatforms()))
    return [p.getName() for p in platforms if p.supportsKernels(["CalcCoordinationForce"])]


def unloaded_plugins():
    """{library file name: OpenMM's load failure} for the plugin's libraries that did not load."""
    failures = {}
    for failure in mm.Platform.getPluginLoadFailures():
        match = re.match(r"Error loading library (\S+?): (.*)", failure)
        if match and os.path.dirname(match.group(1)) == openmmcoordination._PLUGIN_DIR:
            failures[os.path.basename(match.group(1))] = match.group(2)
    return failures


def main():
    print("openmm-coordination platforms: " + " ".join(served_platforms()))
    for name, failure in sorted(unloaded_plugins().items()):
        hint = ""
        if "libOpenMMCUDA" in failure:
            hint = "; OpenMM's CUDA platform is not installed: pip install 'openmmcoordination[cuda13]' where an NVIDIA driver is"
        print("  installed but not loadable here: %s (%s%s)" % (name, failure, hint))
    return 0 if served_platforms() else 1


if __name__ == "__main__":
    sys.exit(main())
