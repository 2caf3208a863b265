"""Cases S0-S5 (and S2's moving rows), N (per-atom numbers), Q (Steinhardt's Q6, LOCAL_Q6, LOCAL_AVERAGE, the shell functions), M (contact maps), V (a centre in a group), T (switching types) and C (the CPU
platform): Case, define_cases, the positions and groups of a case, the count of the pairs in the sum."""
import dataclasses
import importlib.util
import math

import numpy as np

DENSITY = 100.0  # atoms per nm^3 (water-like)
#: Case T's switching functions: name -> the setter calls (method, arguments) after the default Rational 6/12.
SWITCHING_TYPES = {
    "Rational 6/12": (),
    "Rational 6/10": (("setM", (10,)),),
    "Rational 5/11, d0 0.05": (("setN", (5,)), ("setM", (11,)), ("setD0", (0.05,))),
    "Exponential": (("setSwitchingFunction", ("Exponential",)),),
    "Gaussian": (("setSwitchingFunction", ("Gaussian",)),),
    "Smap 6/2": (("setSwitchingFunction", ("Smap",)), ("setSmapExponents", (6, 2))),
    "Tanh": (("setSwitchingFunction", ("Tanh",)),),
    "Cosinus": (("setSwitchingFunction", ("Cosinus",)),),
    "NativeQ": (("setSwitchingFunction", ("NativeQ",)), ("setNativeQParameters", (50.0, 1.5, 0.3))),
    "Custom 1/(1+x^6)": (("setCustomSwitchingFunction", ("1/(1+x^6)",)),),
    "Custom 1/(1+x2^3)": (("setCustomSwitchingFunction", ("1/(1+x2^3)",)),),
    "Cubic": (("setSwitchingFunction", ("Cubic",)),),  # needs a cutoff: timed with dmax = 1 nm only
}
KDTREE_PAIR_LIMIT = 1e8  # count pairs with cKDTree when about this many are expected, or fewer
BRUTE_FORCE_PAIR_LIMIT = 2e7  # without scipy: brute force up to this many candidate pairs


@dataclasses.dataclass(frozen=True)
class Case:
    """One system of the cases: the pairs of a mode over groups of the given sizes, and the switching function
    (Rational n/m by default; a name of SWITCHING_TYPES otherwise)."""

    family: str
    label: str
    mode: str  # "Self", "Dual" or "Pair"
    sizes: tuple  # Self: (N,); Dual: (NA, NB); Pair: (pairs,)
    geometry: str = "random"  # "random" (box at DENSITY), "lattice" (1 nm simple cubic) or "fluid" (fluid.py)
    r0: float = 0.3
    n: int = 6
    m: int = 12
    d0: float = 0.0
    dmax: float = 0.0  # 0: automatic; math.inf: no cutoff
    stretch: bool = True
    pbc: bool = True
    seed: int = 1
    switching: str = ""
    numbers: bool = False  # a CoordinationNumberForce (SPECIES: MoreThan and Mean of the c_i) instead of s
    steinhardt: int = 0  # a SteinhardtForce of this degree l (SPECIES: Mean and MoreThan of the Q_l(i)) instead of s
    local: str = ""  # a SteinhardtForce's local step: "LocalDotProduct" (LOCAL_Q_l) or "LocalAverage" (LOCAL_AVERAGE)
    shell: str = ""  # a ShellFunctionForce of this function (SimpleCubic, ...; SPECIES: Mean and MoreThan) instead of s
    contacts: bool = False  # Pair: a ContactMapForce (SUM), one contact per pair, instead of CoordinationForce
    cluster: int = 0  # Dual: a compact cluster of this many more particles, the first of them group A's atom
    center: bool = False  # group A's slot is the cluster's centre of mass (PLUMED's COM) instead of its first atom


    @property
    def particles(self):
        """Particles of the System: disjoint groups, two per pair in Pair mode."""
        if self.cluster:
            return self.sizes[1] + self.cluster
        return {"Self": self.sizes[0], "Dual": sum(self.sizes), "Pair": 2 * self.sizes[0]}[self.mode]

    @property
    def moving(self):
        """Whether the particles move (an LJ fluid in MD) instead of staying in place."""
        return self.geometry == "fluid"

    @property
    def effective_dmax(self):
        """dmax in nm, PLUMED's automatic value d0 + r0 * 1e-5^(1/(n-m)) for 0."""
        if self.dmax == 0:
            return self.d0 + self.r0 * 1e-5 ** (1.0 / (self.n - self.m))
        return self.dmax

    @property
    def candidate_pairs(self):
        """The pairs of the groups, whatever their distance."""
        if self.mode == "Self":
            return self.sizes[0] * (self.sizes[0] - 1) // 2
        return self.sizes[0] * self.sizes[1] if self.mode == "Dual" else self.sizes[0]

    @property
    def atoms(self):
        """The group sizes as the table shows them."""
        if self.mode == "Dual":
            return f"{self.sizes[0]} x {self.sizes[1]}"
        return f"{self.sizes[0]} pairs" if self.mode == "Pair" else f"{self.sizes[0]}"


def short_count(value):
    """1000 -> 1k, 131072 -> 128k, 1000000 -> 1M."""
    if value >= 1000000 and value % 1000000 == 0:
        return f"{value // 1000000}M"
    if value >= 1000 and value % 1000 == 0:
        return f"{value // 1000}k"
    if value >= 1024 and value % 1024 == 0:
        return f"{value // 1024}k"
    return str(value)


def dmax_label(dmax):
    """'none', 'auto' or the value in nm."""
    return "none" if math.isinf(dmax) else "auto" if dmax == 0 else f"{dmax:g} nm"


def define_cases(quick):
    """Cases S0-S5 in run order, S2's moving rows after S2's static ones, then T and C.

    S2 at dmax = 1 nm has no stretch (the function the anchors sum). --quick: sizes small enough for PoCL and the
    Reference platform; S3 then uses dmax = 1 nm, so that its small boxes (>= 2 nm) still allow OpenMM's
    periodic cutoff, and the moving row has 1000 atoms (a 2.15 nm box: the fluid's 1 nm cutoff fits).
    """
    s0 = [125, 1000] if quick else [1000, 16000, 128000]
    s1 = [256, 1024] if quick else [1024, 4096, 16384, 32768, 65536, 131072]
    s2 = [2000] if quick else [10000, 100000, 1000000]
    s2_moving = [1000] if quick else [100000, 1000000]
    s3 = ([(1000, 1000), (10, 1000), (1, 1000), (1000, 1), (300, 1000)] if quick
          else [(1000, 1000), (100, 100000), (1, 100000), (100000, 1), (10000, 10000)])
    s4 = [100, 1000] if quick else [1000, 100000, 1000000]
    s5_box = s2[0]
    cases = [Case("S0", f"S0 lattice N={short_count(n)}", "Self", (n,), geometry="lattice", r0=1.0, pbc=False)
             for n in s0]
    cases += [Case("S1", f"S1 all pairs N={short_count(n)}", "Self", (n,), dmax=math.inf, pbc=False) for n in s1]
    cases += [Case("S2", f"S2 N={short_count(n)} dmax={dmax_label(d)}", "Self", (n,), dmax=d, stretch=d == 0.0)
              for n in s2 for d in (1.0, 0.0)]
    cases += [Case("S2", f"S2 N={short_count(n)} dmax=1 nm moving", "Self", (n,), geometry="fluid", dmax=1.0,
                   stretch=False) for n in s2_moving]
    s3_dmax = 1.0 if quick else 0.0
    cases += [Case("S3", f"S3 {short_count(a)} x {short_count(b)}" + (" dmax=1 nm" if quick else ""), "Dual", (a, b),
                   dmax=s3_dmax) for a, b in s3]
    cases += [Case("S4", f"S4 {short_count(p)} pairs", "Pair", (p,)) for p in s4]
    s5 = [dict(n=6, m=10), dict(d0=0.1), dict(n=5, m=11)]
    cases += [Case("S5", f"S5 N={short_count(s5_box)} " + " ".join(f"{k}={v:g}" for k, v in variant.items()),
                   "Self", (s5_box,), **variant) for variant in s5]
    # N: per-atom numbers (PLUMED's COORDINATIONNUMBER SPECIES, MoreThan + Mean), each next to CoordinationForce Self
    # on the same atoms (S2's geometry and function at dmax = 1 nm).
    n_sizes = [500, 1000] if quick else [1000, 10000, 100000]
    cases += [Case("N", f"N {kind} N={short_count(n)} dmax=1 nm", "Self", (n,), dmax=1.0, stretch=False,
                   numbers=kind == "SPECIES") for n in n_sizes for kind in ("s", "SPECIES")]
    # Q: Steinhardt's Q6 per atom (PLUMED's Q6 SPECIES, Mean + MoreThan), on N's atoms and function, next to its
    # CoordinationNumberForce rows.
    cases += [Case("Q", f"Q Q6 SPECIES N={short_count(n)} dmax=1 nm", "Self", (n,), dmax=1.0, stretch=False,
                   steinhardt=6) for n in n_sizes]
    # ... PLUMED's LOCAL_Q6 and LOCAL_AVERAGE of that Q6 (the local switching function the same as the Q6's) ...
    cases += [Case("Q", f"Q {name} SPECIES N={short_count(n)} dmax=1 nm", "Self", (n,), dmax=1.0, stretch=False,
                   steinhardt=6, local=step) for n in n_sizes
              for name, step in (("LOCAL_Q6", "LocalDotProduct"), ("LOCAL_AVERAGE Q6", "LocalAverage"))]
    # ... and PLUMED's SIMPLECUBIC and TETRAHEDRAL SPECIES (ShellFunctionForce, Mean + MoreThan) on the same atoms.
    cases += [Case("Q", f"Q {function.upper()} SPECIES N={short_count(n)} dmax=1 nm", "Self", (n,), dmax=1.0,
                   stretch=False, shell=function) for n in n_sizes for function in ("SimpleCubic", "Tetrahedral")]
    # M: contact maps (PLUMED's CONTACTMAP SUM), one contact per pair of S4's geometry (partners 0.1-0.6 nm apart in a
    # box at DENSITY), each PLUMED's SWITCH={RATIONAL R_0=0.3} (n = 6, m = 12, no cutoff).
    m_sizes = [100, 1000] if quick else [1000, 10000, 100000]
    cases += [Case("M", f"M {short_count(p)} contacts", "Pair", (p,), dmax=math.inf, contacts=True) for p in m_sizes]
    # V: a centre in a group (PLUMED's COM in GROUPA), next to the same force with the centre's first atom in its
    # place; the same System (B at water density, a compact cluster for the centre) in both rows.
    v_cluster, v_others = (100, 1000) if quick else (1000, 10000)
    cases += [Case("V", f"V {'COM of ' + short_count(v_cluster) if center else 'atom'} x {short_count(v_others)} "
                        f"dmax=1 nm", "Dual", (1, v_others), dmax=1.0, cluster=v_cluster, center=center)
              for center in (False, True)]
    # T: every switching type, Self over a random box, with no cutoff (every pair) and with dmax = 1 nm (stretched).
    t_atoms = 2000 if quick else 16384
    cases += [Case("T", f"T {name} dmax={dmax_label(dmax)}", "Self", (t_atoms,), dmax=dmax, switching=name)
              for name in SWITCHING_TYPES for dmax in (math.inf, 1.0) if name != "Cubic" or math.isfinite(dmax)]
    # C: the CPU platform (Reference and CPU at several thread counts): water-density boxes with the automatic
    # cutoff (2.04 nm) and dmax = 1 nm, an unbalanced Dual, PLUMED's lattice (as S0) ...
    c_atoms = 2000 if quick else 20000
    cases += [Case("C", f"C N={short_count(c_atoms)} dmax={dmax_label(d)}", "Self", (c_atoms,), dmax=d) for d in (1.0, 0.0)]
    cases.append(Case("C", f"C Dual {short_count(c_atoms // 10)} x {short_count(c_atoms - c_atoms // 10)}", "Dual",
                      (c_atoms // 10, c_atoms - c_atoms // 10)))
    cases += [Case("C", f"C lattice N={short_count(n)}", "Self", (n,), geometry="lattice", r0=1.0, pbc=False)
              for n in ([125, 1000] if quick else [1000, 16000])]
    # ... and family Q's Q6 SPECIES (Mean + MoreThan, dmax = 1 nm) at 10k atoms, whose harmonics are most of the work.
    c_q6 = 1000 if quick else 10000
    cases.append(Case("C", f"C Q6 SPECIES N={short_count(c_q6)} dmax=1 nm", "Self", (c_q6,), dmax=1.0, stretch=False,
                      steinhardt=6))
    return cases


@dataclasses.dataclass
class Geometry:
    """Positions (nm), the cubic box edge (None: no box) and the two groups of particle indices."""

    positions: np.ndarray
    edge: float
    group_a: list
    group_b: list
    cluster: list = dataclasses.field(default_factory=list)  # family V: the centre's particles (group A: the first)

    def center_position(self):
        """The cluster's centre of mass, weighted by water's masses (cluster_masses; the cluster lies inside the box)."""
        weights = cluster_masses(len(self.cluster))
        return np.sum(weights[:, None] * self.positions[self.cluster], axis=0) / np.sum(weights)


def cluster_masses(count):
    """Water's masses (O, H, H, ...) for a cluster of `count` particles: the weights of family V's centre of mass."""
    return np.resize(np.array([15.999, 1.008, 1.008]), count)


def lattice_sites(num_atoms):
    """Sites along an edge of the smallest simple-cubic lattice with at least num_atoms sites."""
    edge = int(round(num_atoms ** (1.0 / 3.0)))
    while edge ** 3 < num_atoms:
        edge += 1
    while (edge - 1) ** 3 >= num_atoms:
        edge -= 1
    return edge


def lattice_positions(num_atoms):
    """PLUMED's benchmark lattice: atom k at (i, j, l) nm, i fastest, edge ceil(N^(1/3)) sites."""
    edge = lattice_sites(num_atoms)
    k = np.arange(num_atoms)
    return np.stack([k % edge, (k // edge) % edge, k // (edge * edge)], axis=1).astype(float)


def fluid_positions(num_atoms, edge, rng):
    """The moving rows' start: N sites, in random order, of a simple-cubic lattice that fills the periodic box
    (spacing 0.215 nm at DENSITY, so no two atoms clash and no minimization is needed)."""
    sites = lattice_sites(num_atoms)
    grid = lattice_positions(sites ** 3) * (edge / sites)
    return grid[rng.choice(len(grid), size=num_atoms, replace=False)]


def make_geometry(case):
    """Positions and groups of a case (random boxes are seeded, so S5 reuses S2's box)."""
    if case.geometry == "lattice":
        return Geometry(lattice_positions(case.sizes[0]), None, list(range(case.sizes[0])), [])
    rng = np.random.default_rng(case.seed)
    edge = (case.particles / DENSITY) ** (1.0 / 3.0)
    if case.moving:
        return Geometry(fluid_positions(case.particles, edge, rng), edge, list(range(case.particles)), [])
    positions = rng.random((case.particles, 3)) * edge
    if case.cluster:
        # B everywhere at DENSITY, the cluster at the same density in a cube at the box's centre.
        others = case.sizes[1]
        edge = (others / DENSITY) ** (1.0 / 3.0)
        positions[:others] = rng.random((others, 3)) * edge
        side = (case.cluster / DENSITY) ** (1.0 / 3.0)
        positions[others:] = 0.5 * (edge - side) + rng.random((case.cluster, 3)) * side
        cluster = list(range(others, case.particles))
        return Geometry(positions, edge, cluster[:1], list(range(others)), cluster)
    if case.mode == "Self":
        return Geometry(positions, edge, list(range(case.sizes[0])), [])
    first = case.sizes[0]
    if case.mode == "Dual":
        return Geometry(positions, edge, list(range(first)), list(range(first, case.particles)))
    # Pair: each first atom's partner (a random particle of the second half) sits 0.1-0.6 nm away, as
    # the contacts a pair restraint watches do.
    partners = first + rng.permutation(first)
    directions = rng.normal(size=(first, 3))
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    positions[partners] = (positions[:first] + directions * rng.uniform(0.1, 0.6, size=(first, 1))) % edge
    return Geometry(positions, edge, list(range(first)), partners.tolist())


# ---------------------------------------------------------------------------------------------------
# Counting the pairs in the sum
# ---------------------------------------------------------------------------------------------------

def periodic_fraction(distance, edge):
    """Fraction of a periodic cube's minimum-image cell within `distance` of a point."""
    if distance <= edge / 2:
        return 4.0 / 3.0 * math.pi * distance ** 3 / edge ** 3
    if distance >= math.sqrt(3.0) / 2 * edge:
        return 1.0
    grid = (np.arange(64) + 0.5) / 64 - 0.5  # midpoint rule on 64^3 points
    x, y, z = np.meshgrid(grid, grid, grid, indexing="ij", sparse=True)
    return float(np.mean(x * x + y * y + z * z <= (distance / edge) ** 2))


def estimated_pairs(case, geometry, dmax):
    """Pairs within dmax expected at uniform density (no edge correction without PBC)."""
    if geometry.edge is not None and case.pbc:
        fraction = periodic_fraction(dmax, geometry.edge)
    else:
        volume = np.prod(np.ptp(geometry.positions, axis=0) + 1.0)
        fraction = min(1.0, 4.0 / 3.0 * math.pi * dmax ** 3 / volume)
    return case.candidate_pairs * fraction


def minimum_image(delta, edge):
    """Minimum-image displacement in a cube of edge `edge` (None: unchanged)."""
    return delta if edge is None else delta - edge * np.round(delta / edge)


def brute_force_pairs(case, geometry, dmax):
    """Pairs within dmax, by checking every candidate pair in row chunks."""
    points_a = geometry.positions[geometry.group_a]
    others = points_a if case.mode == "Self" else geometry.positions[geometry.group_b]
    edge = geometry.edge if case.pbc else None
    total = 0
    for start in range(0, len(points_a), 256):
        delta = minimum_image(others[None, :, :] - points_a[start:start + 256, None, :], edge)
        within = np.einsum("ijk,ijk->ij", delta, delta) <= dmax * dmax
        if case.mode == "Self":
            within &= np.arange(len(others))[None, :] > np.arange(start, start + len(within))[:, None]
        total += int(np.count_nonzero(within))
    return total


def kdtree_pairs(case, geometry, dmax):
    """Pairs within dmax with scipy's cKDTree (periodic when the case uses PBC)."""
    from scipy.spatial import cKDTree
    box = geometry.edge if case.pbc and geometry.edge is not None else None
    points = geometry.positions if box is None else np.mod(geometry.positions, box)
    tree_a = cKDTree(points[geometry.group_a], boxsize=box)
    if case.mode == "Self":
        return (int(tree_a.count_neighbors(tree_a, dmax)) - len(geometry.group_a)) // 2
    return int(tree_a.count_neighbors(cKDTree(points[geometry.group_b], boxsize=box), dmax))


def have_scipy():
    """Whether scipy (for cKDTree) is installed."""
    return importlib.util.find_spec("scipy") is not None


def count_unique_pairs(case, geometry):
    """(pairs in the sum, how they were counted)."""
    dmax = case.effective_dmax
    if case.center:  # group A's slot is the cluster's centre
        geometry = Geometry(np.vstack([geometry.positions, geometry.center_position()]), geometry.edge,
                            [len(geometry.positions)], geometry.group_b)
    if math.isinf(dmax):
        return case.candidate_pairs, "all pairs"
    if case.mode == "Pair":
        delta = minimum_image(geometry.positions[geometry.group_b] - geometry.positions[geometry.group_a],
                              geometry.edge if case.pbc else None)
        return int(np.count_nonzero(np.einsum("ij,ij->i", delta, delta) <= dmax * dmax)), "exact"
    expected = estimated_pairs(case, geometry, dmax)
    if have_scipy() and expected <= KDTREE_PAIR_LIMIT:
        return kdtree_pairs(case, geometry, dmax), "exact (cKDTree)"
    if case.candidate_pairs <= BRUTE_FORCE_PAIR_LIMIT:
        return brute_force_pairs(case, geometry, dmax), "exact (brute force)"
    return int(round(expected)), "estimate (uniform density)"
