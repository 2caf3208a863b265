"""How the documentation runs the examples as tutorials (sphinx-gallery, configured in docs/conf.py).

Each script of examples/ runs once per build, in the Sphinx process, on the CPU platform with settings small
enough for a 2-core machine; files a script writes go to build/docs/gallery-output/<script>/, and the PNG
pictures it saves there are shown on its page below its printed output.
"""
import builtins
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "build" / "docs" / "gallery-output"

# The page order and each script's command-line arguments ({out}: the script's output folder).
ARGV = {
    "demo.py": ["--steps", "400", "--platform", "CPU"],
    "nacl_metadynamics.py": ["--platform", "CPU", "--ps", "4", "--out", "{out}"],
    "lj_cluster_growth.py": ["--platform", "CPU", "--atoms", "200", "--ps", "20", "--target", "20", "--out", "{out}"],
    "lj_crystallisation_q6.py": ["--platform", "CPU", "--atoms", "256", "--ps", "40", "--out", "{out}"],
    "native_contacts_q.py": ["--platform", "CPU", "--ps", "2", "--target", "0.8", "--out", "{out}"],
    "multiple_walkers.py": ["--smoke", "--out", "{out}"],
    "customcv_example.py": ["--platform", "CPU", "--steps", "500"],
    "from_plumed.py": ["--platforms", "Reference,CPU"],
    "from_customcv.py": ["--platforms", "Reference,CPU", "--box", "2.0", "--reps", "3", "--equilibrate", "0.2"],
}


def reset_argv(gallery_conf, script_vars):
    """The arguments of one script; a fresh output folder for it."""
    source = Path(script_vars["src_file"])
    if source.name not in ARGV:
        raise RuntimeError(f"docs/_ext/gallery.py: no arguments for {source.name}: add it to ARGV")
    out = OUTPUT / source.stem
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    # The scripts find their neighbours through __file__, as under `python examples/X.py`; sphinx-gallery runs
    # them without one, so the name resolves through builtins to the running script.
    builtins.__file__ = str(source)
    return [argument.format(out=out) for argument in ARGV[source.name]]


class TutorialOrder:
    """The tutorials in the order of ARGV."""

    def __init__(self, src_dir):
        self.src_dir = src_dir

    def __call__(self, filename):
        names = list(ARGV)
        return (names.index(filename) if filename in names else len(names), filename)

    def __repr__(self):
        return "TutorialOrder"


_shown = set()


def output_images(block, block_vars, gallery_conf):
    """An image scraper: the PNG files the script wrote into its output folder (e.g. the NaCl free energy)."""
    from sphinx_gallery.scrapers import figure_rst

    folder = OUTPUT / Path(block_vars["src_file"]).stem
    images = []
    for picture in sorted(folder.glob("*.png")):
        if picture in _shown:
            continue
        _shown.add(picture)
        target = next(block_vars["image_path_iterator"])
        shutil.copyfile(picture, target)
        images.append(target)
    return figure_rst(images, gallery_conf["src_dir"])
