"""Sphinx configuration of the openmm-coordination documentation site.

Built by tools/build-docs.sh into build/docs/html (Doxygen XML first, for the C++ reference); the tutorials are the
scripts of examples/, run while the site builds (sphinx-gallery, CPU platform, small settings: docs/_ext/gallery.py).
"""
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "_ext"))

import openmmcoordination  # noqa: E402

project = "openmm-coordination"
author = "the openmm-coordination authors"
copyright = "the openmm-coordination authors, MIT license"
release = version = openmmcoordination.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "breathe",
    "sphinx_gallery.gen_gallery",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_ext", "migration", "multiple-walkers/*.md", "api/Doxyfile", "tutorials/*.ipynb", "tutorials/*.py",
                    "showcase/native-contacts-table.md"]  # a table written by examples/native_contacts_q.py --markdown
nitpicky = True
nitpick_ignore_regex = [
    # OpenMM's own classes and the standard library's: documented by OpenMM, Python and C++, not here.
    ("py:class", r"(openmm|os)\..*"),
    ("py:class", "optional"),  # "str, optional": an argument with a default value
    ("cpp:identifier", r"(OpenMM|std)(::.*)?"),
    # The namespace of a documented base class (CoordinationNumberForce : CoordinationPlugin::CoordinationForce).
    ("cpp:identifier", "CoordinationPlugin"),
]

# Markdown pages (MyST): anchors for the headings, so that links such as page.md#section resolve.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# Python API: autodoc of the installed package (the docstrings carry the C++ documentation, with units).
autodoc_member_order = "bysource"
autodoc_default_options = {"exclude-members": "thisown"}

# C++ API: breathe over the Doxygen XML that tools/build-docs.sh writes (doxygen docs/api/Doxyfile).
breathe_projects = {"coordination": str(ROOT / "build" / "docs" / "doxygen" / "xml")}
breathe_default_project = "coordination"
breathe_default_members = ("members",)

# Tutorials: every script of examples/, executed on the CPU platform with small settings.
os.environ.setdefault("TQDM_DISABLE", "1")  # progress bars are for terminals; the pages show the printed lines
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "tutorials",
    "filename_pattern": r"\.py$",
    "ignore_pattern": r"__init__\.py$",
    "within_subsection_order": "gallery.TutorialOrder",
    "reset_argv": "gallery.reset_argv",
    "image_scrapers": ("matplotlib", "gallery.output_images"),
    "run_stale_examples": True,
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "download_all_examples": False,
    "write_computation_times": False,
    "remove_config_comments": True,
    "min_reported_time": 3600,
}

html_theme = "furo"
html_title = f"openmm-coordination {release}"
html_static_path = []
html_show_sourcelink = False
smartquotes = False  # options such as --platform stay as typed
html_copy_source = False
