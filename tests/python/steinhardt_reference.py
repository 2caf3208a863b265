"""An independent brute-force model of PLUMED's Steinhardt family in long double (numpy.longdouble).

It is the oracle of the plugin's Steinhardt-type forces: every quantity is computed from its definition, for all
pairs at once (no neighbour lists, no cutoff other than the switching function's own), in 80-bit extended
precision on x86 (numpy.longdouble, machine epsilon 1.1e-19), so that its round-off is far below what any double-
precision implementation can reach. Nothing here is taken from the plugin's C++ code. It is checked against PLUMED's
own printed regression data by test_steinhardt_reference.py.

Sources: the definitions that came with PLUMED's regtests symfunc/rt-q6, rt-averaged-q6, rt-localav-test and
rt-simplecubic (copied unchanged to tests/data/plumed-steinhardt/, see its README), which reproduce every printed value and
dumped force of those tests, and PLUMED's documentation and shortcut actions (plumed/plumed2: src/symfunc/
Steinhardt.cpp, LocalSteinhardt.cpp, LocalAverage.cpp, SimpleCubic.cpp, Tetrahedral.cpp, Fccubic.cpp,
CoordShellVectorFunction.cpp, src/multicolvar/MultiColvarShortcuts.cpp, src/function/{LessThan,MoreThan,Highest}.cpp,
src/tools/SwitchingFunction.cpp).

Definitions (lengths in nm; atoms are indices into the positions array, from 0)
-------------------------------------------------------------------------------
- Switching function (RATIONAL): sigma(r) = (1 - x^n)/(1 - x^m), x = (r - d0)/r0, m = 0 meaning 2n; sigma = 1 for
  r <= d0. The removable singularity at x = 1 (value n/m) needs no special case here: for integer n, m the ratio
  is evaluated as the quotient of the geometric sums (1 + x + ... + x^(n-1)) / (1 + x + ... + x^(m-1)), which is
  the same function without cancellation (PLUMED uses a Taylor expansion for |x - 1| < ~1e-5 instead), in 1/x
  for x > 1.
  With a cutoff dmax: sigma = 0 for r > dmax, and unless NOSTRETCH the function is stretched,
  sigma'(r) = (sigma(r) - sigma(dmax)) / (sigma(0) - sigma(dmax)). `SWITCH={RATIONAL ...}` has no cutoff unless
  D_MAX is given. The keyword form (`R_0= NN= MM= D_0=`, no SWITCH) always has dmax = d0 + r0 (1e-5)^(1/(n - m))
  and is always stretched (Rational.keyword).
- Bond vectors: r_ij = minimum image of r_j - r_i (from the central atom i to its neighbour j) in an orthorhombic
  box (or plain r_j - r_i without periodic boundaries). Weights w_ij = sigma(|r_ij|), set to 0 where
  |r_ij|^2 < DBL_EPSILON (2.2e-16: an atom and itself, or two atoms at one place) or sigma < DBL_EPSILON.
- Species: SPECIES=A: the central atoms are A, their neighbours are A. SPECIESA=A SPECIESB=B: central atoms A,
  neighbours B; an atom in both lists never counts itself (its distance is 0).
- Y_lm: the orthonormal complex spherical harmonics with the Condon-Shortley phase,
  Y_lm = sqrt((2l+1)/(4 pi) (l-m)!/(l+m)!) P_l^m(cos theta) e^(i m phi), Y_l,-m = (-1)^m conj(Y_lm), so that
  sum_m |Y_lm|^2 = (2l+1)/(4 pi).
- Q_l (Q1, Q3, Q4, Q6): q_lm(i) = sum_j w_ij Y_lm(r_ij), N_i = sum_j w_ij, Q_l(i) = ||q(i)|| / N_i (NaN where N_i = 0,
  as in PLUMED). N_i is COORDINATIONNUMBER's c_i.
- LOCAL_Q_l (SPECIES = the label of a Q_l action): with unit vectors q^ = q/||q|| (0 where q = 0),
  s_i = sum_j w'_ij Re(sum_m conj(q^_i,m) q^_j,m) / sum_j w'_ij, with LOCAL_Q's own switching function w'; j runs
  over the neighbours other than i (the own vector is not in the sum); 0/0 gives 0. In PLUMED's SPECIESA/SPECIESB
  form a neighbour with q = 0 and w'_ij > 0 gives NaN (an artefact of PLUMED's transpose), reproduced here.
- LOCAL_AVERAGE: of a scalar c, s_i = (c_i + sum_j w_ij c_j) / (1 + sum_j w_ij); of a Q_l action, the same average
  of the vectors q/N (0 where N = 0), then s_i = its norm. With SPECIESA != SPECIESB the "self" term of row i is the
  i-th atom of the SPECIESB list, not the central atom.
- Cubic shell functions: COORDINATION_SHELL_FUNCTION s_i = sum_j w_ij f(x, y, z, r) (unnormalised, any f);
  SIMPLECUBIC, TETRAHEDRAL and FCCUBIC are the normalised s_i = sum_j w_ij f(r_ij) / sum_j w_ij (0/0 gives 0) with
  f = (x^4 + y^4 + z^4)/r^4; ((x+y+z)/r)^3 + ((x-y-z)/r)^3 + ((-x+y-z)/r)^3 + ((-x-y+z)/r)^3 (odd: the direction i->j
  matters); a [(x^4 y^4 + x^4 z^4 + y^4 z^4)/r^8 - alpha x^4 y^4 z^4/r^12] + b with a = 80080/(2717 + 16 alpha),
  b = 16 (alpha - 143)/(2717 + 16 alpha), alpha = 3 by default (also FCCUBIC_FUNC's function of x, y, z).
  PLUMED's vector with such an action's own label is the numerator only; its MEAN etc. are of the normalised s_i.
- Reductions over the per-atom values s_i: MEAN sum/count, SUM, LOWEST and HIGHEST (plain min and max),
  LESS_THAN={switch} sum sigma(s_i), MORE_THAN={switch} sum (1 - sigma(s_i)) (sigma that switching function of the
  value, no stretch unless it has a D_MAX). VMEAN and VSUM of Q_l (Steinhardt.cpp's shortcut): the norm of the mean,
  respectively of the sum, over the central atoms of the normalised vectors q(i)/N_i (an atom with N_i = 0 is
  taken to add 0: assumed, no regtest has one).
- Forces: -dE/dx by central finite differences of a long-double energy function of the positions; the virial that
  PLUMED's driver dumps is dE/d(strain) (diagonal: x_a -> (1 + epsilon) x_a for positions and box).
"""
import math
from dataclasses import dataclass

import numpy as np

LD = np.longdouble
#: pi in long double.
PI = 4 * np.arctan(LD(1))
#: PLUMED's epsilon: pairs with r^2 below it, or a weight below it, are dropped (DBL_EPSILON, in length units).
DBL_EPSILON = LD(np.finfo(np.float64).eps)
#: The keyword form's cutoff is where the unstretched function has fallen to about this value.
KEYWORD_TOLERANCE = LD("1e-5")


def ld(values):
    """values as a numpy.longdouble array (doubles are converted exactly)."""
    return np.asarray(values, dtype=LD)


# ---------------------------------------------------------------------------------------------------
# Switching functions
# ---------------------------------------------------------------------------------------------------


def _geometric_sum(x, count):
    """1 + x + ... + x^(count - 1), by Horner's rule."""
    total = np.ones_like(x)
    for _ in range(count - 1):
        total = total * x + 1
    return total


def _integer_power(x, exponent):
    """x^exponent for an integer exponent >= 0, by repeated squaring (numpy's long-double ** calls powl)."""
    result, factor = np.ones_like(x), x
    while exponent:
        if exponent & 1:
            result = result * factor
        factor, exponent = factor * factor, exponent >> 1
    return result


def _exponents(n, m):
    if int(n) != n or int(m) != m or n < 1 or m < 0:
        raise ValueError(f"PLUMED's RATIONAL takes integer NN >= 1 and MM >= 0 (0 meaning 2 NN), got {n}, {m}")
    n = int(n)
    return n, (2 * n if m == 0 else int(m))


def _rational_unstretched(r, r0, d0, n, m):
    """(1 - x^n)/(1 - x^m), x = (r - d0)/r0, 1 for x <= 0, without cancellation or overflow: the quotient of the
    geometric sums S_k(x) = 1 + x + ... + x^(k-1) = (1 - x^k)/(1 - x) (no 0/0 at x = 1, where it is n/m) for
    0 < x <= 1, and y^(m-n) S_n(y)/S_m(y) with y = 1/x for x > 1."""
    x = (ld(r) - LD(d0)) / LD(r0)
    z = np.where(x > 1, 1 / np.where(x > 1, x, LD(1)), np.maximum(x, LD(0)))  # x, or 1/x above 1: z in [0, 1]
    ratio = _geometric_sum(z, n) / _geometric_sum(z, m)
    scale = _integer_power(z, m - n) if m >= n else 1 / _integer_power(z, n - m)
    return np.where(x <= 0, LD(1), np.where(x <= 1, ratio, ratio * scale))


def rational_switch(r, r0, d0=0.0, n=6, m=0, dmax=math.inf, stretch=False):
    """PLUMED's RATIONAL switching function sigma(r) in long double (see the module docstring).

    m = 0 means 2n; sigma = 1 for r <= d0; sigma = 0 for r > dmax; stretch: (sigma - sigma(dmax)) / (sigma(0) -
    sigma(dmax)) below dmax (`SWITCH={RATIONAL ... D_MAX=...}` is stretched, with NOSTRETCH it is not).
    """
    n, m = _exponents(n, m)
    r = ld(r)
    value = _rational_unstretched(r, r0, d0, n, m)
    if math.isfinite(dmax):
        if stretch:
            at_zero = _rational_unstretched(LD(0), r0, d0, n, m)
            at_dmax = _rational_unstretched(LD(dmax), r0, d0, n, m)
            value = (value - at_dmax) / (at_zero - at_dmax)
        value = np.where(r > LD(dmax), LD(0), value)
    return value


def keyword_dmax(r0, d0=0.0, n=6, m=0):
    """The keyword form's cutoff, d0 + r0 (1e-5)^(1/(n - m)) (m = 0 meaning 2n)."""
    n, m = _exponents(n, m)
    return LD(d0) + LD(r0) * KEYWORD_TOLERANCE ** (LD(1) / LD(n - m))


def keyword_switch(r, r0, d0=0.0, n=6, m=0):
    """The keyword form `R_0= D_0= NN= MM=` (no SWITCH): cutoff keyword_dmax, always stretched."""
    return rational_switch(r, r0, d0, n, m, dmax=keyword_dmax(r0, d0, n, m), stretch=True)


@dataclass(frozen=True)
class Rational:
    """A RATIONAL switching function as a callable r -> sigma(r): `SWITCH={RATIONAL R_0= D_0= NN= MM= D_MAX=
    [NOSTRETCH]}` (no D_MAX: dmax = inf), or the keyword form via Rational.keyword."""

    r0: float
    d0: float = 0.0
    n: int = 6
    m: int = 0
    dmax: float = math.inf
    stretch: bool = True

    @classmethod
    def keyword(cls, r0, d0=0.0, n=6, m=0):
        """The keyword form `R_0= D_0= NN= MM=`: automatic cutoff, stretched."""
        return cls(r0, d0, n, m, keyword_dmax(r0, d0, n, m), True)

    def __call__(self, r):
        return rational_switch(r, self.r0, self.d0, self.n, self.m, self.dmax, self.stretch)


# ---------------------------------------------------------------------------------------------------
# Geometry: minimum image, bond vectors, weights
# ---------------------------------------------------------------------------------------------------


def minimum_image(delta, box_lengths=None):
    """Minimum-image displacements in an orthorhombic box of edges box_lengths (None: no periodic boundaries)."""
    delta = ld(delta)
    if box_lengths is None:
        return delta
    box_lengths = ld(box_lengths)
    return delta - box_lengths * np.rint(delta / box_lengths)


@dataclass
class Shell:
    """The neighbourhoods of central atoms: bond vectors (centres x neighbours x 3, from centre to neighbour),
    their lengths and the weights w_ij of a switching function (0 for dropped pairs)."""

    vectors: np.ndarray
    distances: np.ndarray
    weights: np.ndarray

    @property
    def counts(self):
        """N_i = sum_j w_ij (COORDINATIONNUMBER's c_i)."""
        return self.weights.sum(axis=1)


def shell(positions, switch, centres, neighbours=None, box_lengths=None):
    """Bond vectors r_ij = minimum image of r_j - r_i for i in centres, j in neighbours (default: centres, i.e.
    PLUMED's SPECIES form) and weights w_ij = switch(|r_ij|), with PLUMED's epsilon rules."""
    positions = ld(positions)
    centres = np.asarray(centres, dtype=int)
    neighbours = centres if neighbours is None else np.asarray(neighbours, dtype=int)
    vectors = minimum_image(positions[None, neighbours, :] - positions[centres, None, :], box_lengths)
    squared = np.sum(vectors * vectors, axis=-1)
    distances = np.sqrt(squared)
    weights = ld(switch(distances))
    weights = np.where((squared < DBL_EPSILON) | (weights < DBL_EPSILON), LD(0), weights)
    return Shell(vectors, distances, weights)


def _divide_or_zero(numerator, denominator):
    """numerator / denominator, 0 where the denominator is 0 (PLUMED's 0/0 cases that give 0)."""
    safe = np.where(denominator == 0, LD(1), denominator)
    return np.where(denominator == 0, LD(0), numerator / safe)


# ---------------------------------------------------------------------------------------------------
# Spherical harmonics
# ---------------------------------------------------------------------------------------------------


def associated_legendre_reduced(l, t):
    """P~_l^m(t) for m = 0..l (array of shape (l+1,) + t.shape), where the associated Legendre function with the
    Condon-Shortley phase is P_l^m(t) = P~_l^m(t) (1 - t^2)^(m/2).

    Stable upward recurrences in l at fixed m: P~_m^m = (-1)^m (2m-1)!!, P~_(m+1)^m = (2m+1) t P~_m^m,
    (k - m) P~_k^m = (2k-1) t P~_(k-1)^m - (k+m-1) P~_(k-2)^m (the factor (1 - t^2)^(m/2) is common to all terms).
    """
    t = ld(t)
    values = np.empty((l + 1,) + t.shape, dtype=LD)
    diagonal = np.ones_like(t)
    for m in range(l + 1):
        if m > 0:
            diagonal = diagonal * LD(-(2 * m - 1))
        previous, current = np.zeros_like(t), diagonal
        for k in range(m + 1, l + 1):
            previous, current = current, (LD(2 * k - 1) * t * current - LD(k + m - 1) * previous) / LD(k - m)
        values[m] = current
    return values


def harmonic_parts(l, vectors):
    """(real, imaginary) parts of Y_lm(r^) for m = -l..l (last axis, index m + l), in long double: the work of
    spherical_harmonics in real arithmetic. For m >= 0, Y_lm = K_lm P~_l^m(z/r) ((x + i y)/r)^m with
    K_lm = sqrt((2l+1)/(4 pi) (l-m)!/(l+m)!), which is polynomial in the unit vector (no angles, no singularity at
    the poles), and Y_l,-m = (-1)^m conj(Y_lm). A zero vector is given the direction +z (PLUMED gives such a pair
    weight 0)."""
    vectors = ld(vectors)
    x, y, z = vectors[..., 0], vectors[..., 1], vectors[..., 2]
    r = np.sqrt(x * x + y * y + z * z)
    zero = r == 0
    r = np.where(zero, LD(1), r)
    x, y, z = x / r, y / r, np.where(zero, LD(1), z / r)
    legendre = associated_legendre_reduced(l, z)
    real = np.empty(vectors.shape[:-1] + (2 * l + 1,), dtype=LD)
    imaginary = np.empty_like(real)
    power_real, power_imaginary = np.ones_like(x), np.zeros_like(x)  # ((x + i y)/r)^m, m = 0
    for m in range(l + 1):
        ratio = LD(1)
        for k in range(l - m + 1, l + m + 1):
            ratio = ratio / LD(k)  # (l - m)! / (l + m)!
        radial = np.sqrt(LD(2 * l + 1) / (4 * PI) * ratio) * legendre[m]
        real[..., l + m] = radial * power_real
        imaginary[..., l + m] = radial * power_imaginary
        if m > 0:
            sign = LD((-1) ** m)
            real[..., l - m] = sign * real[..., l + m]
            imaginary[..., l - m] = -sign * imaginary[..., l + m]
        power_real, power_imaginary = power_real * x - power_imaginary * y, power_real * y + power_imaginary * x
    return real, imaginary


def spherical_harmonics(l, vectors):
    """Y_lm(r^) for m = -l..l (last axis, index m + l) of the directions of vectors (..., 3): complex long double
    (numpy.clongdouble), orthonormal, with the Condon-Shortley phase (see harmonic_parts)."""
    real, imaginary = harmonic_parts(l, vectors)
    result = np.empty(real.shape, dtype=np.clongdouble)
    result.real, result.imag = real, imaginary
    return result


# ---------------------------------------------------------------------------------------------------
# Per-atom quantities
# ---------------------------------------------------------------------------------------------------


def coordination_numbers(positions, switch, centres, neighbours=None, box_lengths=None):
    """COORDINATIONNUMBER: c_i = sum_j w_ij."""
    return shell(positions, switch, centres, neighbours, box_lengths).counts


def shell_steinhardt_vectors(neighbourhood, l):
    """q_lm(i) = sum_j w_ij Y_lm(r_ij) of a Shell: centres x (2l+1), complex long double (m = -l..l)."""
    real, imaginary = harmonic_parts(l, neighbourhood.vectors)
    weights = neighbourhood.weights[:, None, :]
    q = np.empty((len(weights), 2 * l + 1), dtype=np.clongdouble)
    q.real, q.imag = (weights @ real)[:, 0, :], (weights @ imaginary)[:, 0, :]
    return q


def steinhardt_vectors(positions, l, switch, centres, neighbours=None, box_lengths=None):
    """(q, N): q_lm(i) = sum_j w_ij Y_lm(r_ij) (centres x (2l+1), complex) and N_i = sum_j w_ij."""
    neighbourhood = shell(positions, switch, centres, neighbours, box_lengths)
    return shell_steinhardt_vectors(neighbourhood, l), neighbourhood.counts


def vector_norms(q):
    """||q|| = sqrt(sum_m |q_m|^2) over the last axis."""
    return np.sqrt(np.sum(q.real * q.real + q.imag * q.imag, axis=-1))


def steinhardt(positions, l, switch, centres, neighbours=None, box_lengths=None):
    """Q_l(i) = ||q(i)|| / N_i (NaN where N_i = 0, as PLUMED)."""
    q, counts = steinhardt_vectors(positions, l, switch, centres, neighbours, box_lengths)
    with np.errstate(invalid="ignore", divide="ignore"):
        return vector_norms(q) / counts


def unit_vectors(q):
    """q / ||q||, 0 where q = 0."""
    norms = vector_norms(q)[..., None]
    return np.where(norms == 0, LD(0), q / np.where(norms == 0, LD(1), norms))


def shell_local_steinhardt(neighbourhood, q, q_neighbours=None):
    """LOCAL_Q_l over a Shell of LOCAL_Q's own switching function: s_i = sum_j w'_ij Re(conj(q^_i) . q^_j) /
    sum_j w'_ij (0/0: 0). q: the Q_l vectors of the central atoms (unnormalised or not: only their directions
    count). q_neighbours None: the SPECIES form, the neighbours are the central atoms with their own vectors (one
    without neighbours, q = 0, adds nothing but counts in sum_j w'_ij). Otherwise the SPECIESA/SPECIESB form with
    the vectors of the neighbour atoms, where a neighbour with q = 0 and w'_ij > 0 gives NaN (its 0/0 unit vector),
    as in PLUMED (whose dot products are only evaluated where w'_ij > 0)."""
    centre_directions = unit_vectors(q)
    if q_neighbours is None:
        neighbour_directions = centre_directions
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            neighbour_directions = q_neighbours / vector_norms(q_neighbours)[..., None]
    weights = neighbourhood.weights
    with np.errstate(invalid="ignore"):
        products = (np.conj(centre_directions) @ neighbour_directions.T).real
    terms = np.where(weights > 0, weights * products, LD(0))
    return _divide_or_zero(np.sum(terms, axis=1), neighbourhood.counts)


def local_steinhardt(positions, q, local_switch, centres, neighbours=None, q_neighbours=None, box_lengths=None):
    """LOCAL_Q_l with LOCAL_Q's own switching function local_switch (see shell_local_steinhardt). SPECIES form:
    neighbours and q_neighbours None. SPECIESA/SPECIESB form: the neighbour atoms and their vectors q_neighbours."""
    if (neighbours is None) != (q_neighbours is None):
        raise ValueError("the SPECIESA/SPECIESB form needs both the neighbour atoms and their vectors")
    return shell_local_steinhardt(shell(positions, local_switch, centres, neighbours, box_lengths), q, q_neighbours)


def local_average(positions, values, switch, centres, neighbours=None, neighbour_values=None, box_lengths=None):
    """LOCAL_AVERAGE: s_i = (v_self + sum_j w_ij v_j) / (1 + sum_j w_ij), of scalars (shape (n,)) or vectors
    (shape (n, k), then the result is the averaged vector). values are those of the central atoms; SPECIES form:
    neighbours None (v_self = v_i). SPECIESA/SPECIESB form: neighbour_values of the neighbour atoms, and v_self of
    row i is the i-th entry of neighbour_values (PLUMED's self term)."""
    if (neighbours is None) != (neighbour_values is None):
        raise ValueError("the SPECIESA/SPECIESB form needs both the neighbour atoms and their values")
    neighbourhood = shell(positions, switch, centres, neighbours, box_lengths)
    weights = neighbourhood.weights
    neighbour_values = np.asarray(values if neighbours is None else neighbour_values)
    if len(neighbour_values) < len(weights):
        raise ValueError("PLUMED's self term of row i is the i-th SPECIESB value: SPECIESB needs at least as many "
                         "atoms as SPECIESA")
    own = neighbour_values[:len(weights)]
    total = own + np.tensordot(weights, neighbour_values, axes=(1, 0))
    denominator = 1 + neighbourhood.counts
    return total / (denominator if total.ndim == 1 else denominator[:, None])


def normalised_steinhardt_vectors(q, counts):
    """q / N, the vectors LOCAL_AVERAGE, VMEAN and VSUM use; 0 where N = 0 (PLUMED's LOCAL_AVERAGE gives 0 there;
    for VMEAN and VSUM this is assumed, no regtest has such an atom)."""
    return np.where(counts[:, None] == 0, LD(0), q / np.where(counts == 0, LD(1), counts)[:, None])


def local_average_steinhardt(positions, l, switch, local_switch, centres, q_neighbours=None, box_lengths=None):
    """`LOCAL_AVERAGE SPECIES=<Q_l action>`: the norm of the local average (with LOCAL_AVERAGE's own switching
    function local_switch, over the central atoms) of the vectors q/N of a Q_l action with switching function
    switch, `SPECIES=centres` (q_neighbours None) or `SPECIESA=centres SPECIESB=q_neighbours`."""
    q, counts = steinhardt_vectors(positions, l, switch, centres, q_neighbours, box_lengths)
    averaged = local_average(positions, normalised_steinhardt_vectors(q, counts), local_switch, centres,
                             box_lengths=box_lengths)
    return vector_norms(averaged)


def shell_function_values(neighbourhood, function, normalise=False):
    """sum_j w_ij f(x, y, z, r) over a Shell's bond vectors r_ij = (x, y, z), r = |r_ij| (function: a callable of
    long-double arrays); normalise: divided by sum_j w_ij (0/0: 0)."""
    vectors = neighbourhood.vectors
    r = np.where(neighbourhood.distances == 0, LD(1), neighbourhood.distances)  # dropped pairs: any finite value
    values = ld(function(vectors[..., 0], vectors[..., 1], vectors[..., 2], r))
    numerator = np.sum(neighbourhood.weights * values, axis=1)
    return _divide_or_zero(numerator, neighbourhood.counts) if normalise else numerator


def shell_function(positions, function, switch, centres, neighbours=None, box_lengths=None, normalise=False):
    """COORDINATION_SHELL_FUNCTION: s_i = sum_j w_ij f(x, y, z, r) of the bond vector r_ij = (x, y, z), r = |r_ij|
    (function: a callable of long-double arrays). normalise: divide by sum_j w_ij (0/0: 0), as SIMPLECUBIC,
    TETRAHEDRAL and FCCUBIC do."""
    return shell_function_values(shell(positions, switch, centres, neighbours, box_lengths), function, normalise)


def _fourth_powers(x, y, z, r):
    """(x/r)^4, (y/r)^4, (z/r)^4 by multiplications (numpy's long-double ** calls powl, which is slow)."""
    squares = [(c / r) * (c / r) for c in (x, y, z)]
    return [s * s for s in squares]


def _cube(value):
    return value * value * value


def simple_cubic_function(x, y, z, r):
    """SIMPLECUBIC's f = (x^4 + y^4 + z^4) / r^4."""
    x4, y4, z4 = _fourth_powers(x, y, z, r)
    return x4 + y4 + z4


def tetrahedral_function(x, y, z, r):
    """TETRAHEDRAL's f = ((x+y+z)/r)^3 + ((x-y-z)/r)^3 + ((-x+y-z)/r)^3 + ((-x-y+z)/r)^3."""
    return _cube((x + y + z) / r) + _cube((x - y - z) / r) + _cube((-x + y - z) / r) + _cube((-x - y + z) / r)


def fccubic_function(alpha=3.0):
    """FCCUBIC's (and FCCUBIC_FUNC's) f = a [(x^4 y^4 + x^4 z^4 + y^4 z^4)/r^8 - alpha x^4 y^4 z^4/r^12] + b,
    a = 80080/(2717 + 16 alpha), b = 16 (alpha - 143)/(2717 + 16 alpha)."""
    alpha = LD(alpha)
    a = LD(80080) / (LD(2717) + 16 * alpha)
    b = 16 * (alpha - 143) / (LD(2717) + 16 * alpha)

    def function(x, y, z, r):
        x4, y4, z4 = _fourth_powers(x, y, z, r)
        return a * (x4 * y4 + x4 * z4 + y4 * z4 - alpha * x4 * y4 * z4) + b

    return function


def simple_cubic(positions, switch, centres, neighbours=None, box_lengths=None):
    """SIMPLECUBIC: the normalised s_i."""
    return shell_function(positions, simple_cubic_function, switch, centres, neighbours, box_lengths, True)


def tetrahedral(positions, switch, centres, neighbours=None, box_lengths=None):
    """TETRAHEDRAL: the normalised s_i."""
    return shell_function(positions, tetrahedral_function, switch, centres, neighbours, box_lengths, True)


def fccubic(positions, switch, centres, neighbours=None, box_lengths=None, alpha=3.0):
    """FCCUBIC (ALPHA=alpha): the normalised s_i."""
    return shell_function(positions, fccubic_function(alpha), switch, centres, neighbours, box_lengths, True)


# ---------------------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------------------


def mean(values):
    return np.sum(values) / LD(len(values))


def total(values):
    return np.sum(values)


def lowest(values):
    return np.min(values)


def highest(values):
    return np.max(values)


def less_than(values, switch):
    """LESS_THAN={switch}: sum_i sigma(s_i)."""
    return np.sum(switch(values))


def more_than(values, switch):
    """MORE_THAN={switch}: sum_i (1 - sigma(s_i))."""
    return np.sum(1 - switch(values))


def vector_mean(q, counts):
    """VMEAN: || mean over the central atoms of q(i)/N_i || (Steinhardt.cpp: MEAN of each component of q/N, then
    the norm)."""
    return vector_norms(np.sum(normalised_steinhardt_vectors(q, counts), axis=0) / LD(len(q)))


def vector_sum(q, counts):
    """VSUM: || sum over the central atoms of q(i)/N_i || (Steinhardt.cpp: SUM of each component of q/N, then the
    norm; the normalised vectors, not the raw sums q)."""
    return vector_norms(np.sum(normalised_steinhardt_vectors(q, counts), axis=0))


# ---------------------------------------------------------------------------------------------------
# Biases and their derivatives
# ---------------------------------------------------------------------------------------------------


def restraint(value, at, kappa):
    """PLUMED's RESTRAINT (no slope): 0.5 kappa (value - at)^2."""
    return LD(kappa) / 2 * (value - LD(at)) ** 2


def finite_difference_forces(energy, positions, step=1e-6):
    """-dE/dx of energy(positions) (long double, N x 3) by central differences of step (nm); error O(step^2)."""
    positions = ld(positions)
    step = LD(step)
    forces = np.empty_like(positions)
    for atom in range(positions.shape[0]):
        for axis in range(3):
            shifted = positions.copy()
            shifted[atom, axis] += step
            plus = energy(shifted)
            shifted[atom, axis] -= 2 * step
            forces[atom, axis] = -(plus - energy(shifted)) / (2 * step)
    return forces


def finite_difference_virial_diagonal(energy, positions, box_lengths, step=1e-6):
    """dE/d(epsilon_aa) for the deformations x_a -> (1 + epsilon) x_a of positions and orthorhombic box edges,
    where energy is a function of (positions, box_lengths): the diagonal of the virial PLUMED's driver dumps."""
    positions, box_lengths = ld(positions), ld(box_lengths)
    step = LD(step)
    virial = np.empty(3, dtype=LD)
    for axis in range(3):
        scale = np.ones(3, dtype=LD)
        scale[axis] += step
        plus = energy(positions * scale, box_lengths * scale)
        scale[axis] -= 2 * step
        virial[axis] = (plus - energy(positions * scale, box_lengths * scale)) / (2 * step)
    return virial
