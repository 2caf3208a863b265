"""Builds the C++ libraries and the SWIG module with CMake and packages them as `openmmcoordination`.

`pip install .` runs this; the package directory becomes the CMake install prefix, so the plugin
libraries land in openmmcoordination/lib/plugins, where `import openmmcoordination` loads them.
"""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        package_dir = os.path.abspath(os.path.dirname(self.get_ext_fullpath(ext.name)))
        # COORDINATION_BUILD_DIR: build in that CMake build directory, keep it, and build the C++ tests there too
        # (tools/setup.sh test does, so the plugin is compiled once for the wheel and the tests). Otherwise
        # configure afresh in a directory of this build: pip's isolated build environments (where OpenMM is
        # found) are temporary.
        shared_dir = os.environ.get("COORDINATION_BUILD_DIR")
        if shared_dir:
            build_dir = os.path.abspath(shared_dir)
            os.makedirs(build_dir, exist_ok=True)
        else:
            build_dir = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            shutil.rmtree(build_dir, ignore_errors=True)
            os.makedirs(build_dir)
        configure = [
            "cmake", "-S", ROOT, "-B", build_dir,
            "-DCMAKE_BUILD_TYPE=Release",
            "-DCOORDINATION_BUILD_PYTHON=ON",
            "-DCOORDINATION_BUILD_TESTS=" + ("ON" if shared_dir else "OFF"),
            "-DPython3_EXECUTABLE=" + sys.executable,
        ]
        for variable in ("OPENMM_DIR", "CUDA_INCLUDE_DIR"):
            if os.environ.get(variable):
                configure.append(f"-D{variable}={os.environ[variable]}")
        subprocess.check_call(configure)
        jobs = str(os.cpu_count() or 2)
        subprocess.check_call(["cmake", "--build", build_dir, "--parallel", jobs])
        subprocess.check_call(["cmake", "--install", build_dir, "--prefix", package_dir])


def openmm_series():
    """The minor series of the OpenMM the extension is compiled against (its C++ ABI): "8.6"."""
    import openmm.version

    return ".".join(openmm.version.short_version.split(".")[:2])


SERIES = openmm_series()

setup(
    # The wheel requires the OpenMM it was built against, and offers its CUDA packages as extras.
    install_requires=[f"openmm=={SERIES}.*", "numpy"],
    extras_require={f"cuda{major}": [f"openmm-cuda-{major}=={SERIES}.*"] for major in (12, 13)},
    packages=["openmmcoordination"],
    package_dir={"": "python"},
    ext_modules=[CMakeExtension("openmmcoordination._coordination")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
