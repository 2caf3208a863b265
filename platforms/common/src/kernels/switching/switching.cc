/**
 * sigma(r), the switching function, of the type the host selects (CommonSwitchingDefines in
 * platforms/common/src/switching/CommonSwitchingDefines.cpp, from the force's SwitchingFunctionConstants): one of
 * SWITCH_RATIONAL, SWITCH_EXPONENTIAL, SWITCH_GAUSSIAN, SWITCH_SMAP, SWITCH_CUBIC, SWITCH_TANH,
 * SWITCH_COSINUS, SWITCH_NATIVEQ, SWITCH_CUSTOM. PLUMED's definitions, as SwitchingFunctionEvaluator
 * (openmmapi/src/switching/SwitchingFunctionEvaluator.cpp) and RationalSwitchingFunction have them.
 *
 * Defines: D0, INV_LENGTH (1/r0; Cubic: 1/(dmax - d0)), STRETCH_FACTOR, SHIFT; Rational: N_EXP, M_EXP,
 * M_IS_2N, N_OVER_M, TAYLOR_BAND, TAYLOR_FIRST, TAYLOR_SECOND, NEAR_ONE_BAND (single and mixed precision),
 * DIRECT_POWER_LIMIT, DIRECT_POWERS_SUFFICE, R2_PATH, INV_R0_SQUARED, R2_BAND; Smap: SMAP_A, SMAP_B, SMAP_C, SMAP_EXPONENT; Cosinus: COSINUS_PI,
 * COSINUS_MINUS_HALF_PI; NativeQ: NATIVEQ_BETA, NATIVEQ_CENTRE; Custom: SWITCH_OF_X2 and INV_R0_SQUARED
 * for an expression of x2. The Custom expression is Lepton-generated on the host and replaces
 * CUSTOM_SWITCHING_FUNCTION (it sets value and customDerivative from v).
 *
 * The per-pair constants (D0, INV_LENGTH, STRETCH_FACTOR, SHIFT, INV_R0_SQUARED, NATIVEQ_BETA, NATIVEQ_CENTRE) are
 * literals for a CoordinationForce. A ContactMapForce (contactmap.cc) compiles this file once per kind of switching
 * function in its map, its functions renamed per kind, with those constants read from each contact's parameters:
 * it defines SWITCH_PARAMS (extra parameters of the functions that read them) and SWITCH_ARGS (the same, passed on),
 * and the constants as names of those parameters. Empty otherwise.
 */
#ifndef SWITCH_PARAMS
#define SWITCH_PARAMS
#define SWITCH_ARGS
#endif

/**
 * x^k for a compile-time k >= 0.
 */
DEVICE real integerPower(real x, int k) {
    real result = 1;
    while (k > 0) {
        if (k & 1)
            result *= x;
        x *= x;
        k >>= 1;
    }
    return result;
}

#ifdef SWITCH_RATIONAL
/**
 * x^(n-m) of x > 0 with y = 1/x (n, m compile-time constants), without overflow where x^(n-m) is finite: a power of
 * y for m > n, of x for m < n; *overX receives x^(n-m-1).
 */
DEVICE real powerNMinusM(real x, real y, const int n, const int m, real* overX) {
    if (m > n) {
        const real power = integerPower(y, m - n);
        *overX = power * y;
        return power;
    }
    *overX = integerPower(x, n - m - 1);
    return *overX * x;
}

/**
 * 1/(1 + x^n) of x > 0 (n a compile-time constant), with *inverse and *slopePower such that its x-derivative is
 * -n * slopePower * inverse * inverse, in forms that cannot overflow (RationalSwitchingFunction::closedForm and
 * ofInverse), selected rather than branched on: while x^n <= DIRECT_POWER_LIMIT, inverse = 1/(1 + x^n) and
 * slopePower = x^(n-1); beyond, with y = 1/x, sigma = y^n/(1 + y^n), inverse = 1/(1 + y^n), slopePower = y^(n+1).
 */
DEVICE real evenRational(real x, const int n, real* inverse, real* slopePower) {
    const real xNMinus1 = integerPower(x, n - 1), xN = xNMinus1 * x;
#ifdef DIRECT_POWERS_SUFFICE
    // Every pair within the cutoff has x^n <= DIRECT_POWER_LIMIT (the host checked): the direct form only.
    *inverse = RECIP(1 + xN);
    *slopePower = xNMinus1;
    return *inverse;
#else
    const bool inverted = !(xN <= (real) DIRECT_POWER_LIMIT);
    const real y = RECIP(x), yN = integerPower(y, n);
    *inverse = RECIP(1 + (inverted ? yN : xN));
    *slopePower = (inverted ? yN * y : xNMinus1);
    return (inverted ? yN * *inverse : *inverse);
#endif
}

/**
 * (1 - x^n) / (1 - x^m) of x > 0, m != 2n (compile-time constants), and *dSigmaDx its x-derivative, in forms
 * that cannot overflow (RationalSwitchingFunction::closedForm and ofInverse): powers of x while they are at most
 * DIRECT_POWER_LIMIT, of y = 1/x beyond,
 *     sigma = y^(m-n) (1 - y^n) / (1 - y^m),  dsigma/dx = -((m-n) y^(m-n+1) - m (1 - sigma) y^(m+1)) / (1 - y^m),
 * y^(m-n) taken as x^(n-m) for m < n. Near x = 1 it loses digits to cancellation: the callers take it outside
 * their bands around 1 only.
 */
DEVICE real rationalClosedForm(real x, const int n, const int m, real* dSigmaDx) {
    const real xNMinus1 = integerPower(x, n - 1), xMMinus1 = integerPower(x, m - 1);
    const real xN = xNMinus1 * x, xM = xMMinus1 * x;
    if (xN <= (real) DIRECT_POWER_LIMIT && xM <= (real) DIRECT_POWER_LIMIT) {
        const real inverseDenominator = RECIP(1 - xM);
        const real value = (1 - xN) * inverseDenominator;
        *dSigmaDx = (-n * xNMinus1 + value * m * xMMinus1) * inverseDenominator;
        return value;
    }
    const real y = RECIP(x), yN = integerPower(y, n), yM = integerPower(y, m);
    real outerTimesY; // y^(m-n+1)
    const real outer = powerNMinusM(x, y, n, m, &outerTimesY);
    const real inverseDenominator = RECIP(1 - yM);
    const real value = outer * (1 - yN) * inverseDenominator;
    *dSigmaDx = -((m - n) * outerTimesY - m * ((1 - value) * (yM * y))) * inverseDenominator;
    return value;
}

/**
 * PLUMED's rational switching function of r (r <= dmax), stretched; *dSigmaDr receives its derivative.
 * Mirrors RationalSwitchingFunction::evaluate() in openmmapi/include/internal/switching/RationalSwitchingFunction.h,
 * plus NEAR_ONE_BAND: in single/mixed precision the direct ratio loses digits near x = 1 wider than the
 * Taylor band, so there sigma = (1+x+...+x^(n-1)) / (1+x+...+x^(m-1)), the same function without the
 * cancellation (above 1 in powers of 1/x, which cannot overflow).
 */
DEVICE real switchingFunction(real r, real* dSigmaDr SWITCH_PARAMS) {
    real x = (r - (real) D0) * (real) INV_LENGTH;
    real value, dSigmaDx;
    if (x <= 0) {
        value = 1;
        dSigmaDx = 0;
    }
    else {
#if M_IS_2N
        real inverse, slopePower;
        value = evenRational(x, N_EXP, &inverse, &slopePower);
        dSigmaDx = -N_EXP * slopePower * inverse * inverse;
#else
        real e = x - 1;
        if (fabs(e) < (real) TAYLOR_BAND) {
            value = (real) N_OVER_M + e * ((real) TAYLOR_FIRST + (real) 0.5 * (real) TAYLOR_SECOND * e);
            dSigmaDx = (real) TAYLOR_FIRST + (real) TAYLOR_SECOND * e;
        }
#ifdef NEAR_ONE_BAND
        else if (fabs(e) < (real) NEAR_ONE_BAND) {
            // Horner for G_k(z) = sum_{i<k} z^i and G_k'(z) at z = x below 1 and at z = 1/x above, so that no sum
            // exceeds k (x^k overflows float for k of a few hundred): G_k(x) = x^(k-1) G_k(1/x), hence with
            // R = G_n(z)/G_m(z), sigma = x^(n-m) R and dsigma/dx = x^(n-m-1) ((n-m) R - z R'(z)) above 1.
            const bool above = (x > 1);
            const real z = (above ? RECIP(x) : x);
            real gN = 0, dgN = 0, gM = 0, dgM = 0;
            for (int i = 0; i < N_EXP; i++) {
                dgN = dgN * z + gN;
                gN = gN * z + 1;
            }
            for (int i = 0; i < M_EXP; i++) {
                dgM = dgM * z + gM;
                gM = gM * z + 1;
            }
            const real inverseGM = RECIP(gM);
            const real ratio = gN * inverseGM, dRatio = (dgN - ratio * dgM) * inverseGM;
            if (above) {
                real outerOverX;
                const real outer = powerNMinusM(x, z, N_EXP, M_EXP, &outerOverX);
                value = outer * ratio;
                dSigmaDx = outerOverX * ((real) (N_EXP - M_EXP) * ratio - z * dRatio);
            }
            else {
                value = ratio;
                dSigmaDx = dRatio;
            }
        }
#endif
        else
            value = rationalClosedForm(x, N_EXP, M_EXP, &dSigmaDx);
#endif
    }
    *dSigmaDr = dSigmaDx * (real) INV_LENGTH * (real) STRETCH_FACTOR;
    return value * (real) STRETCH_FACTOR + (real) SHIFT;
}

/**
 * sigma(r) (stretched) of a pair at squared distance r2; *scale receives dsigma/dr / r, so the gradient
 * with respect to the second atom is delta * scale.
 * R2_PATH (d0 = 0, n and m even): sigma is a function of y = r^2/r0^2 (x^n = y^(n/2)), so most pairs need
 * no square root. Near x = 1, where the rational form needs its special cases, it falls back to
 * switchingFunction(r).
 */
DEVICE real pairSwitch(real r2, real* scale SWITCH_PARAMS) {
#ifdef R2_PATH
    const real y = r2 * (real) INV_R0_SQUARED;
#if M_IS_2N
    real inverse, slopePower;
    const real value = evenRational(y, N_EXP / 2, &inverse, &slopePower);
    *scale = (real) (-N_EXP * INV_R0_SQUARED * STRETCH_FACTOR) * slopePower * inverse * inverse;
    return value * (real) STRETCH_FACTOR + (real) SHIFT;
#else
    if (fabs(y - 1) >= (real) R2_BAND) {
        real dSigmaDy;
        const real value = rationalClosedForm(y, N_EXP / 2, M_EXP / 2, &dSigmaDy);
        *scale = (real) (2 * INV_R0_SQUARED * STRETCH_FACTOR) * dSigmaDy;
        return value * (real) STRETCH_FACTOR + (real) SHIFT;
    }
#endif
#endif
#if !defined(R2_PATH) || !M_IS_2N
    const real r = SQRT(r2);
    real dSigmaDr;
    const real value = switchingFunction(r, &dSigmaDr SWITCH_ARGS);
    *scale = (r > 0 ? dSigmaDr / r : (real) 0);
    return value;
#endif
}
#else
/**
 * The other switching functions: sigma as a function of its variable v (x = (r - d0)/r0 > 0, Cubic
 * x = (r - d0)/(dmax - d0); r for NativeQ; x2 = r^2/r0^2 for a Custom function of x2); *dValue receives
 * dsigma/dv.
 */
DEVICE real switchOfVariable(real v, real* dValue SWITCH_PARAMS) {
    real value;
#if defined(SWITCH_EXPONENTIAL)
    value = EXP(-v);
    *dValue = -value;
#elif defined(SWITCH_GAUSSIAN)
    value = EXP((real) -0.5 * v * v);
    *dValue = -v * value;
#elif defined(SWITCH_SMAP)
    // An overflowing x^a (astronomically far) is sigma's limit, 0, not inf/inf. The derivative
    // -b sx/x value/(1 + sx) is grouped as -b (sx/(1 + sx)) value/x: b sx alone can overflow in float
    // while sx is finite (and inf times a value flushed to 0 is NaN).
    const real sx = (real) SMAP_C * integerPower(v, SMAP_A);
    if (isinf(sx)) {
        value = 0;
        *dValue = 0;
    }
    else {
        const real onePlusSx = 1 + sx;
        value = POW(onePlusSx, (real) SMAP_EXPONENT);
        *dValue = (real) -SMAP_B * (sx / onePlusSx) * value / v;
    }
#elif defined(SWITCH_CUBIC)
    const real xMinus1 = v - 1, onePlus2X = 1 + 2 * v;
    value = xMinus1 * xMinus1 * onePlus2X;
    *dValue = 2 * xMinus1 * onePlus2X + 2 * xMinus1 * xMinus1;
#elif defined(SWITCH_TANH)
    // Through exp, not tanh: CUDA compiles kernels with fast math, where tanh is the approximate hardware
    // instruction (relative error ~1e-5 against Reference). With a = exp(-2|v|): 1 - tanh(v) is
    // 2a/(1 + a) for v >= 0 and 2/(1 + a) for v < 0, its derivative -4a/(1 + a)^2; no cancellation, no overflow.
    const real a = EXP(-2 * fabs(v)), onePlusA = 1 + a;
    value = (v >= 0 ? 2 * a : (real) 2) / onePlusA;
    *dValue = -4 * a / (onePlusA * onePlusA);
#elif defined(SWITCH_COSINUS)
    if (v > 1) {
        value = 0;
        *dValue = 0;
    }
    else {
        value = (real) 0.5 * (COS(v * (real) COSINUS_PI) + 1);
        *dValue = (real) COSINUS_MINUS_HALF_PI * SIN(v * (real) COSINUS_PI);
    }
#elif defined(SWITCH_NATIVEQ)
    // exp overflowing (far out) gives value 0 and derivative 0; underflowing, 1 and 0: never NaN.
    const real e = EXP((real) NATIVEQ_BETA * (v - (real) NATIVEQ_CENTRE));
    value = RECIP(1 + e);
    *dValue = (real) -NATIVEQ_BETA / (e + 2 + RECIP(e));
#elif defined(SWITCH_CUSTOM)
    real customDerivative = 0;
    CUSTOM_SWITCHING_FUNCTION
    *dValue = customDerivative;
#else
#error "no switching function type defined (SWITCH_*)"
#endif
    return value;
}

/**
 * A Custom function's value, or NaN (and a scale of 0) where it or its scale is not finite: the pair has no
 * coordination number, and s becomes NaN (SwitchingFunctionEvaluator::evaluate does the same). Other types pass.
 */
DEVICE real customFiniteOrNaN(real value, real* scale) {
#ifdef SWITCH_CUSTOM
    if (!REAL_IS_FINITE(value) || !REAL_IS_FINITE(*scale)) {
        *scale = 0;
        return NOT_A_NUMBER_REAL;
    }
#endif
    return value;
}

/**
 * sigma(r) (stretched) of a pair at squared distance r2; *scale receives dsigma/dr / r. PLUMED's rules:
 * sigma = 1 for r <= d0 (not for x2), stretched sigma' = sigma * STRETCH_FACTOR + SHIFT.
 */
DEVICE real pairSwitch(real r2, real* scale SWITCH_PARAMS) {
#ifdef SWITCH_OF_X2
    real dValue;
    const real value = switchOfVariable(r2 * (real) INV_R0_SQUARED, &dValue SWITCH_ARGS);
    // Coincident atoms (r = 0) get no force, whatever the derivative there (1/(1+sqrt(x2)) has none).
    *scale = (r2 > 0 ? (real) (2 * INV_R0_SQUARED * STRETCH_FACTOR) * dValue : (real) 0);
    return customFiniteOrNaN(value * (real) STRETCH_FACTOR + (real) SHIFT, scale);
#else
    const real r = SQRT(r2);
    real value, dSigmaDr = 0;
#ifdef SWITCH_NATIVEQ
    if (r <= (real) D0)
        value = 1;
    else
        value = switchOfVariable(r, &dSigmaDr SWITCH_ARGS);
#else
    const real x = (r - (real) D0) * (real) INV_LENGTH;
    if (x <= 0)
        value = 1;
    else {
        value = switchOfVariable(x, &dSigmaDr SWITCH_ARGS);
        dSigmaDr *= (real) INV_LENGTH;
    }
#endif
    *scale = (r > 0 ? dSigmaDr * (real) STRETCH_FACTOR / r : (real) 0);
    return customFiniteOrNaN(value * (real) STRETCH_FACTOR + (real) SHIFT, scale);
#endif
}
#endif

/**
 * The contribution of one pair: sigma(r) and its gradient with respect to the second atom's position.
 * Returns false if the pair contributes nothing. wrap: take the minimum image of delta (with PBC); false
 * where the caller has put both atoms at images whose difference is the minimum image of every pair within
 * the cutoff (processTile's single periodic copy). zeroBeyondCutoff (the tile loops): where sigma is
 * straight-line code (BRANCHLESS_CUTOFF), a pair beyond the cutoff is evaluated too and returned as exactly 0
 * (sigma and gradient), instead of branching around it: nearly every step of a listed tile has some lane
 * within the cutoff, so the branch saved nothing and cost its reconvergence before the warp's next shuffle.
 * Adding those zeros leaves every sum bitwise the same. Periodic forces only: there delta is a minimum image
 * (or the single copy's), so it is finite or NaN; without periodicity an infinite coordinate would give an
 * infinite delta, whose zeroed gradient (inf * 0) would be NaN where the branch gave 0.
 */
#if defined(USE_CUTOFF) && defined(USE_PERIODIC) && defined(SWITCH_RATIONAL) && defined(R2_PATH)
#if M_IS_2N
#define BRANCHLESS_CUTOFF
#endif
#endif
DEVICE bool evaluatePair(real3 delta, real* sigma, real3* dSigmaDSecond, const bool wrap, const bool zeroBeyondCutoff,
        BOX_PARAMS SWITCH_PARAMS) {
#ifdef USE_PERIODIC
    if (wrap) {
#ifdef GROUPS_SWAPPED
        // delta is (user's A) - (user's B): wrap it as the Reference platform wraps B - A, so that a pair exactly
        // half a box apart takes the same image (and its force the same sign).
        const real3 image = minimumImage(make_real3(-delta.x, -delta.y, -delta.z), BOX_ARGS);
        delta = make_real3(-image.x, -image.y, -image.z);
#else
        delta = minimumImage(delta, BOX_ARGS);
#endif
    }
#endif
    real r2 = delta.x * delta.x + delta.y * delta.y + delta.z * delta.z;
#ifdef BRANCHLESS_CUTOFF
    if (zeroBeyondCutoff) {
        // (A NaN distance counts as inside, as below, so that it reaches s.)
        const bool inside = !(r2 > (real) CUTOFF_SQUARED);
        real scale;
        const real value = pairSwitch(r2, &scale SWITCH_ARGS);
        *sigma = (inside ? value : (real) 0);
        scale = (inside ? scale : (real) 0);
        *dSigmaDSecond = make_real3(delta.x * scale, delta.y * scale, delta.z * scale);
        return true;
    }
#endif
#ifdef USE_CUTOFF
    if (r2 > (real) CUTOFF_SQUARED)
        return false;
#endif
    real scale;
    *sigma = pairSwitch(r2, &scale SWITCH_ARGS);
    *dSigmaDSecond = make_real3(delta.x * scale, delta.y * scale, delta.z * scale);
    return true;
}
