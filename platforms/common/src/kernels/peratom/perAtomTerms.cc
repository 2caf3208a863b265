/**
 * The per-atom engine's pair terms and per-atom step (kernels/peratom, before perAtomPairs.cc and perAtomFinish.cc):
 * what one counted pair adds to its entry's NUM_COMPONENTS values, its gradient weighted by the entry's dE/dv, and
 * the per-atom step q_i of the values (ResolvedPerAtom, whose host engine ReferencePerAtomEngine is the oracle).
 * - CoordinationNumberForce (NUM_COMPONENTS 1): v = sigma(r) r^p, q_i = v_i.
 * - SteinhardtForce (HARMONICS_DEGREE l, NUM_COMPONENTS 2l + 2): sigma(r), then sigma(r) Y_lm(d) for m = 0 ... l as
 *   Re Y_l0, Re Y_l1, Im Y_l1, ... (component 2m is Re Y_lm, 2m + 1 Im Y_lm); q_i = normOverWeight(v_i).
 * - ShellFunctionForce (SHELL_PARTS parts, SHELL_FIRST_PART 1 where normalised, else 0): sigma(r) where normalised,
 *   then sigma(r) g_p(d) for each part, g_p generated from its expression by the host (CommonPerAtomProgram::addShellFunction); q_i = the
 *   sum of the parts, over sigma's sum where normalised.
 * The pair's bond vector d points from the entry to its neighbour. In Self mode the neighbour's own term is the same
 * pair's at -d: component c times COLUMN_SIGN(c) (Y_lm(-d) = (-1)^l Y_lm(d); a shell part's parity, -1 only for the
 * component SHELL_ODD_COMPONENT).
 * Host defines: MIN_DISTANCE_SQUARED, MIN_SWITCH, R_POWER (where p != 0), HARMONICS_DEGREE, HARMONICS_SCALES
 * (c_lm = (-1)^m sqrt((2l + 1)/(4 pi) (l - m)!/(l + m)!) for m = 0 ... l), HARMONICS_TOP and HARMONICS_DIVISORS
 * (legendreDerivatives), SHELL_FUNCTION, SHELL_PARTS, SHELL_FIRST_PART, SHELL_ODD_COMPONENT, NUM_COMPONENTS
 * (CommonPerAtomProgram).
 */
#if defined(HARMONICS_DEGREE) && HARMONICS_DEGREE % 2 == 1
#define COLUMN_SIGN(c) ((c) == 0 ? 1 : -1)
#elif defined(SHELL_ODD_COMPONENT)
#define COLUMN_SIGN(c) ((c) == SHELL_ODD_COMPONENT ? -1 : 1)
#else
#define COLUMN_SIGN(c) 1
#endif
/* NUMBER_TERM: the one-component sigma(r) r^p, which the local-memory tiles evaluate with numberPair directly. */
#if NUM_COMPONENTS == 1 && !defined(HARMONICS_DEGREE) && !defined(SHELL_FUNCTION)
#define NUMBER_TERM
#endif

/**
 * One pair's v = sigma(r) r^p, and (dv/dr)/r in *dValueOverR; both 0 where the pair does not count (r^2 below
 * MIN_DISTANCE_SQUARED, r beyond the cutoff, sigma below MIN_SWITCH). *delta (second - first) is wrapped to its
 * minimum image if wrap.
 */
DEVICE real numberPair(real3* delta, real* dValueOverR, const bool wrap, BOX_PARAMS) {
#ifdef USE_PERIODIC
    if (wrap)
        *delta = minimumImage(*delta, BOX_ARGS);
#endif
    const real r2 = delta->x * delta->x + delta->y * delta->y + delta->z * delta->z;
    real scale;
#ifdef BRANCHLESS_CUTOFF
    const real sigma = pairSwitch(r2, &scale);
    const bool counts = r2 >= (real) MIN_DISTANCE_SQUARED && r2 <= (real) CUTOFF_SQUARED && !(sigma < (real) MIN_SWITCH);
#else
#ifdef USE_CUTOFF
    if (r2 > (real) CUTOFF_SQUARED || r2 < (real) MIN_DISTANCE_SQUARED) {
#else
    if (r2 < (real) MIN_DISTANCE_SQUARED) {
#endif
        *dValueOverR = 0;
        return 0;
    }
    const real sigma = pairSwitch(r2, &scale);
    const bool counts = !(sigma < (real) MIN_SWITCH); // (a NaN sigma, a Custom function's, counts: c is NaN)
#endif
#ifdef R_POWER
    const real rToPower = pow(r2, (real) (0.5 * R_POWER));
    const real value = sigma * rToPower;
    scale = scale * rToPower + (real) R_POWER * value / r2;
#else
    const real value = sigma;
#endif
    *dValueOverR = (counts ? scale : (real) 0);
    return (counts ? value : (real) 0);
}

/**
 * Whether pass 2 evaluates a pair's gradient: always without guard; with it, where some weight is not 0 (the terms'
 * gradients may not be finite where every weight is 0: a pass without a finite energy has weights 0).
 */
DEVICE bool weightedPair(const real* weights, const bool guard) {
    bool weighted = !guard;
    for (int c = 0; c < NUM_COMPONENTS; c++)
        weighted = weighted || weights[c] != 0;
    return weighted;
}

#if defined(SHELL_FUNCTION)
/**
 * The shell function's parts g_p at the bond vector (x, y, z), r = |d| (> 0), and with gradients their gradients
 * with respect to d: (dg/dx, dg/dy, dg/dz) + dg/dr d/r.
 */
DEVICE void shellParts(const real x, const real y, const real z, const real r, real* parts, real3* gradients) {
    if (gradients == 0) {
        SHELL_VALUES
    }
    else {
        real partialR[SHELL_PARTS];
        SHELL_GRADIENTS
        for (int p = 0; p < SHELL_PARTS; p++) {
            const real radial = partialR[p] / r;
            gradients[p].x += radial * x;
            gradients[p].y += radial * y;
            gradients[p].z += radial * z;
        }
    }
}

/** Pass 1: the pair's terms (v), 0 where it does not count; *delta wrapped as numberPair does. */
DEVICE void pairTerms(real3* delta, real* terms, const bool wrap, BOX_PARAMS) {
    real scale;
    const real sigma = numberPair(delta, &scale, wrap, BOX_ARGS);
    for (int c = 0; c < NUM_COMPONENTS; c++)
        terms[c] = 0;
    if (sigma == 0)
        return; // the pair does not count (r^2 may be 0: no direction)
    const real r = SQRT(delta->x * delta->x + delta->y * delta->y + delta->z * delta->z);
    real parts[SHELL_PARTS];
    shellParts(delta->x, delta->y, delta->z, r, parts, 0);
#if SHELL_FIRST_PART == 1
    terms[0] = sigma;
#endif
    for (int p = 0; p < SHELL_PARTS; p++)
        terms[SHELL_FIRST_PART + p] = sigma * parts[p];
}

/**
 * Pass 2: the gradient with respect to d of sum_c weights[c] terms[c] = (w_0 + sum_p w_p g_p) sigma'(r) d/r + sigma
 * sum_p w_p grad g_p (guard: as for the numbers' pairGradient).
 */
DEVICE real3 pairGradient(real3* delta, const real* weights, const bool guard, const bool wrap, BOX_PARAMS) {
    real scale;
    const real sigma = numberPair(delta, &scale, wrap, BOX_ARGS);
    if (sigma == 0 || !weightedPair(weights, guard))
        return make_real3(0, 0, 0);
    const real r = SQRT(delta->x * delta->x + delta->y * delta->y + delta->z * delta->z);
    real parts[SHELL_PARTS];
    real3 gradients[SHELL_PARTS];
    shellParts(delta->x, delta->y, delta->z, r, parts, gradients);
#if SHELL_FIRST_PART == 1
    real total = weights[0];
#else
    real total = 0;
#endif
    real3 angular = make_real3(0, 0, 0);
    for (int p = 0; p < SHELL_PARTS; p++) {
        const real w = weights[SHELL_FIRST_PART + p];
        if (w != 0) {
            total += w * parts[p];
            angular.x += w * gradients[p].x;
            angular.y += w * gradients[p].y;
            angular.z += w * gradients[p].z;
        }
    }
    const real radial = total * scale;
    return make_real3(delta->x * radial + sigma * angular.x, delta->y * radial + sigma * angular.y,
                      delta->z * radial + sigma * angular.z);
}
#elif !defined(HARMONICS_DEGREE)
/** Pass 1: the pair's terms (v), 0 where it does not count; *delta wrapped as numberPair does. */
DEVICE void pairTerms(real3* delta, real* terms, const bool wrap, BOX_PARAMS) {
    real scale;
    terms[0] = numberPair(delta, &scale, wrap, BOX_ARGS);
}

/**
 * Pass 2: the gradient with respect to d of sum_c weights[c] terms[c]; with guard, 0 where every weight is 0 (the
 * term's gradient may then not be finite: a pass without a finite energy has weights 0).
 */
DEVICE real3 pairGradient(real3* delta, const real* weights, const bool guard, const bool wrap, BOX_PARAMS) {
    real scale;
    numberPair(delta, &scale, wrap, BOX_ARGS);
    const real factor = (guard && weights[0] == 0 ? (real) 0 : weights[0] * scale);
    return make_real3(delta->x * factor, delta->y * factor, delta->z * factor);
}
#else
/**
 * Y_lm(d) = c_lm w^m D_lm(u) with u = z/r, w = (x + iy)/r and D_lm the m-th derivative of the Legendre polynomial
 * P_l: D_lm for m = 0 ... l + 1 into d[], by the recurrence in the order, downward from D_ll = (2l - 1)!!
 * (HARMONICS_TOP) with the factors 1/((l - m)(l + m + 1)) (HARMONICS_DIVISORS), as SphericalHarmonics on the host:
 * l steps, and fewer digits lost than by the expanded polynomial (near l = 12) or the recurrence in the degree.
 */
DEVICE void legendreDerivatives(const real u, real* d) {
    const real divisors[HARMONICS_DEGREE + 1] = {HARMONICS_DIVISORS};
    const real oneMinusSquare = 1 - u * u;
    d[HARMONICS_DEGREE + 1] = 0;
    d[HARMONICS_DEGREE] = (real) HARMONICS_TOP;
    for (int m = HARMONICS_DEGREE - 1; m >= 0; m--)
        d[m] = ((real) (2 * (m + 1)) * u * d[m + 1] - oneMinusSquare * d[m + 2]) * divisors[m];
}

DEVICE void pairTerms(real3* delta, real* terms, const bool wrap, BOX_PARAMS) {
    real scale;
    const real sigma = numberPair(delta, &scale, wrap, BOX_ARGS);
    for (int c = 0; c < NUM_COMPONENTS; c++)
        terms[c] = 0;
    if (sigma == 0)
        return; // the pair does not count (r^2 may be 0: no direction)
    const real invR = RSQRT(delta->x * delta->x + delta->y * delta->y + delta->z * delta->z);
    const real u = delta->z * invR, wx = delta->x * invR, wy = delta->y * invR;
    const real scales[HARMONICS_DEGREE + 1] = {HARMONICS_SCALES};
    real d[HARMONICS_DEGREE + 2];
    legendreDerivatives(u, d);
    terms[0] = sigma;
    real powerRe = 1, powerIm = 0; // w^m
    for (int m = 0; m <= HARMONICS_DEGREE; m++) {
        const real base = sigma * scales[m] * d[m];
        if (m == 0)
            terms[1] = base;
        else {
            terms[2 * m] = base * powerRe;
            terms[2 * m + 1] = base * powerIm;
        }
        const real re = powerRe * wx - powerIm * wy;
        powerIm = powerRe * wy + powerIm * wx;
        powerRe = re;
    }
}

/**
 * The gradient with respect to d of sum_c weights[c] terms[c] (guard: as above). With W_m = weights[2m] + i
 * weights[2m + 1] (W_0 real), sum_c weights[c] grad terms[c] = T sigma'(r) d/r + sigma Re(sum_m conj(W_m) grad Y_lm),
 * T = weights[0] + sum_m Re(conj(W_m) Y_lm), and grad Y_lm = a_m grad w + b_m grad u with a_m = m c_lm D_lm w^(m-1),
 * b_m = c_lm D_l,m+1 w^m: so with A = sum_m conj(W_m) a_m and B = sum_m conj(W_m) b_m,
 * Re(...) = Re A grad Re w - Im A grad Im w + Re B grad u, and grad of (Re w, Im w, u) = (unit axis - e (Re w, Im w, u)) / r.
 */
DEVICE real3 pairGradient(real3* delta, const real* weights, const bool guard, const bool wrap, BOX_PARAMS) {
    real scale;
    const real sigma = numberPair(delta, &scale, wrap, BOX_ARGS);
    if (sigma == 0 || !weightedPair(weights, guard))
        return make_real3(0, 0, 0);
    const real invR = RSQRT(delta->x * delta->x + delta->y * delta->y + delta->z * delta->z);
    const real u = delta->z * invR, wx = delta->x * invR, wy = delta->y * invR;
    const real scales[HARMONICS_DEGREE + 1] = {HARMONICS_SCALES};
    real d[HARMONICS_DEGREE + 2];
    legendreDerivatives(u, d);
    real total = weights[0], aRe = 0, aIm = 0, bRe = 0, bIm = 0;
    real powerRe = 1, powerIm = 0, belowRe = 0, belowIm = 0; // w^m, w^(m-1)
    for (int m = 0; m <= HARMONICS_DEGREE; m++) {
        const real weightRe = weights[m == 0 ? 1 : 2 * m], weightIm = (m == 0 ? (real) 0 : weights[2 * m + 1]);
        // conj(W) z = (W_re z_re + W_im z_im) + i (W_re z_im - W_im z_re)
        const real y = scales[m] * d[m];
        total += y * (weightRe * powerRe + weightIm * powerIm);
        const real a = (real) m * y, b = scales[m] * d[m + 1];
        aRe += a * (weightRe * belowRe + weightIm * belowIm);
        aIm += a * (weightRe * belowIm - weightIm * belowRe);
        bRe += b * (weightRe * powerRe + weightIm * powerIm);
        bIm += b * (weightRe * powerIm - weightIm * powerRe);
        belowRe = powerRe;
        belowIm = powerIm;
        const real re = powerRe * wx - powerIm * wy;
        powerIm = powerRe * wy + powerIm * wx;
        powerRe = re;
    }
    const real along = aRe * wx - aIm * wy + bRe * u;
    const real angular = sigma * invR, radial = total * scale;
    return make_real3(delta->x * radial + angular * (aRe - along * wx), delta->y * radial + angular * (-aIm - along * wy),
                      delta->z * radial + angular * (bRe - along * u));
}
#endif

/**
 * The per-atom step of one entry's values v (in A's order): CoordinationNumberForce q = v_0; ShellFunctionForce the
 * sum of the parts (over N = v_0 where normalised: 0 where N = 0, PLUMED's 0/0); SteinhardtForce
 * q = sqrt(S) / N with N = v_0 and S = v_1^2 + 2 sum_c>1 v_c^2 (the sum over all 2l + 1 orders, Y_l,-m being
 * (-1)^m conj(Y_lm)), 0 where N = 0 or S = 0 (an entry with no neighbour: PLUMED's 0/0). With gradient, dq/dv into it
 * (0 where q is 0 that way).
 */
DEVICE mixed atomStep(const mixed* v, mixed* gradient) {
#if defined(SHELL_FUNCTION)
    mixed sum = 0;
    for (int c = SHELL_FIRST_PART; c < NUM_COMPONENTS; c++)
        sum += v[c];
#if SHELL_FIRST_PART == 1
    const mixed n = v[0];
    const mixed q = (n == 0 ? (mixed) 0 : sum / n);
    if (gradient != 0) {
        gradient[0] = (n == 0 ? (mixed) 0 : -q / n);
        for (int c = 1; c < NUM_COMPONENTS; c++)
            gradient[c] = (n == 0 ? (mixed) 0 : (mixed) 1 / n);
    }
    return q;
#else
    if (gradient != 0)
        for (int c = 0; c < NUM_COMPONENTS; c++)
            gradient[c] = 1;
    return sum;
#endif
#elif defined(HARMONICS_DEGREE)
    mixed s = v[1] * v[1];
    for (int c = 2; c < NUM_COMPONENTS; c++)
        s += 2 * v[c] * v[c];
    const mixed norm = sqrt(s), n = v[0];
    const bool none = (n == 0 || s == 0);
    const mixed q = (none ? (mixed) 0 : norm / n);
    if (gradient != 0) {
        gradient[0] = (none ? (mixed) 0 : -q / n);
        for (int c = 1; c < NUM_COMPONENTS; c++)
            gradient[c] = (none ? (mixed) 0 : (c == 1 ? (mixed) 1 : (mixed) 2) * v[c] / (norm * n));
    }
    return q;
#else
    if (gradient != 0)
        gradient[0] = 1;
    return v[0];
#endif
}

/** The weight of vector component c in a norm or dot product: 1 for c = 0 (m = 0), 2 for the others (m and -m). */
DEVICE mixed vectorMetric(int c) {
    return (c == 0 ? (mixed) 1 : (mixed) 2);
}

#ifdef HARMONICS_DEGREE
/** The size of an entry's vector u = q_lm / N: the real components of the orders m >= 0. */
#define VECTOR_COMPONENTS (2 * HARMONICS_DEGREE + 1)
/**
 * SteinhardtForce's vector u = q_lm / N of an entry's values v (0 where N = 0), which VectorMean, VectorSum and the
 * local step's Average take (PerAtomSteps::averageVector is the host's).
 */
DEVICE void averageVector(const mixed* v, mixed* u) {
    const mixed n = v[0];
    for (int c = 0; c < VECTOR_COMPONENTS; c++)
        u[c] = (n == 0 ? (mixed) 0 : v[1 + c] / n);
}

/** dE/dv of an entry (NUM_COMPONENTS numbers, added to dEdv) from dE/du of its averageVector and its values v. */
DEVICE void averageVectorBackward(const mixed* v, const mixed* dEdu, mixed* dEdv) {
    // u_c = q_c / N: dE/dq_c = dE/du_c / N, dE/dN = -sum_c dE/du_c q_c / N^2.
    const mixed n = v[0];
    if (n == 0)
        return;
    for (int c = 0; c < VECTOR_COMPONENTS; c++) {
        dEdv[1 + c] += dEdu[c] / n;
        dEdv[0] -= dEdu[c] * v[1 + c] / (n * n);
    }
}
#endif

#ifdef LOCAL_STEP
/**
 * The local step (ResolvedPerAtom::LocalStep; LocalSteps is the host's): an entry's local vector u (LOCAL_COMPONENTS
 * numbers) from its values, s from u and its local sums [W, P] (LOCAL_SUMS numbers), and their gradients.
 * LOCAL_VECTORS: u is SteinhardtForce's q_lm over N (LOCAL_STEP_AVERAGE: averageVector) or over |q_l|
 * (LOCAL_STEP_DOT), whose dot product weighs the components by vectorMetric; else u = q_i.
 */
DEVICE mixed localNorm(const mixed* a) {
    mixed sum = 0;
    for (int c = 0; c < LOCAL_COMPONENTS; c++)
        sum += vectorMetric(c) * a[c] * a[c];
    return sqrt(sum);
}

DEVICE void localVector(const mixed* v, mixed* u) {
#if defined(LOCAL_VECTORS) && defined(LOCAL_STEP_AVERAGE)
    averageVector(v, u);
#elif defined(LOCAL_VECTORS)
    const mixed scale = localNorm(v + 1);
    for (int c = 0; c < LOCAL_COMPONENTS; c++)
        u[c] = (scale == 0 ? (mixed) 0 : v[1 + c] / scale);
#else
    u[0] = atomStep(v, 0);
#endif
}

/** dE/dv of an entry (NUM_COMPONENTS numbers, set) from dE/du and its values v. */
DEVICE void localVectorBackward(const mixed* v, const mixed* dEdu, mixed* dEdv) {
#ifdef LOCAL_VECTORS
    for (int c = 0; c < NUM_COMPONENTS; c++)
        dEdv[c] = 0;
#ifdef LOCAL_STEP_AVERAGE
    averageVectorBackward(v, dEdu, dEdv);
#else
    // u_c = q_c / |q|: dE/dq_k = (dE/du_k - metric_k u_k sum_c dE/du_c u_c) / |q|.
    const mixed norm = localNorm(v + 1);
    if (norm == 0)
        return;
    mixed dot = 0;
    for (int c = 0; c < LOCAL_COMPONENTS; c++)
        dot += dEdu[c] * v[1 + c] / norm;
    for (int k = 0; k < LOCAL_COMPONENTS; k++)
        dEdv[1 + k] = (dEdu[k] - vectorMetric(k) * (v[1 + k] / norm) * dot) / norm;
#endif
#else
    atomStep(v, dEdv);
    for (int c = 0; c < NUM_COMPONENTS; c++)
        dEdv[c] *= dEdu[0];
#endif
}

/** s of an entry's u and local sums [W, P]; if dsdu is not 0, ds/du into it and ds/d[W, P] into dsdSums. */
DEVICE mixed localValue(const mixed* u, const mixed* sums, mixed* dsdu, mixed* dsdSums) {
    const mixed w = sums[0];
    if (dsdu != 0)
        for (int c = 0; c < LOCAL_SUMS; c++) {
            dsdSums[c] = 0;
            if (c < LOCAL_COMPONENTS)
                dsdu[c] = 0;
        }
#ifdef LOCAL_STEP_DOT
    // s = u . P / W; 0 where no pair counts.
    if (w == 0)
        return 0;
    mixed dot = 0;
    for (int c = 0; c < LOCAL_COMPONENTS; c++)
        dot += vectorMetric(c) * u[c] * sums[1 + c];
    const mixed s = dot / w;
    if (dsdu != 0) {
        for (int c = 0; c < LOCAL_COMPONENTS; c++) {
            dsdu[c] = vectorMetric(c) * sums[1 + c] / w;
            dsdSums[1 + c] = vectorMetric(c) * u[c] / w;
        }
        dsdSums[0] = -s / w;
    }
    return s;
#else
    // Average: a = u + P over 1 + W; s = a (one number) or its norm (vectors).
    const mixed denominator = 1 + w;
#ifdef LOCAL_VECTORS
    mixed a[LOCAL_COMPONENTS];
    for (int c = 0; c < LOCAL_COMPONENTS; c++)
        a[c] = u[c] + sums[1 + c];
    const mixed norm = localNorm(a);
    const mixed s = norm / denominator;
    if (dsdu != 0 && norm != 0) {
        for (int c = 0; c < LOCAL_COMPONENTS; c++) {
            dsdu[c] = vectorMetric(c) * a[c] / (norm * denominator);
            dsdSums[1 + c] = dsdu[c];
        }
        dsdSums[0] = -s / denominator;
    }
    return s;
#else
    const mixed s = (u[0] + sums[1]) / denominator;
    if (dsdu != 0) {
        dsdu[0] = 1 / denominator;
        dsdSums[1] = dsdu[0];
        dsdSums[0] = -s / denominator;
    }
    return s;
#endif
#endif
}
#endif
