/**
 * sigma(r), the switching function: Rational here (SWITCH_RATIONAL), the other types generated on the host
 * (SWITCH_VALUE_AND_DERIVATIVE); and one pair's contribution (evaluatePair).
 */

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
 * PLUMED's rational switching function of r (r <= dmax), stretched; *dSigmaDr receives its derivative.
 * Mirrors RationalSwitchingFunction::evaluate() in openmmapi/include/internal/RationalSwitchingFunction.h,
 * plus NEAR_ONE_BAND: in single/mixed precision the direct ratio loses digits near x = 1 wider than the
 * Taylor band, so there sigma = (1+x+...+x^(n-1)) / (1+x+...+x^(m-1)), the same function without the
 * cancellation.
 */
DEVICE real switchingFunction(real r, real* dSigmaDr) {
    real x = (r - (real) D0) * (real) INV_R0;
    real value, dSigmaDx;
    if (x <= 0) {
        value = 1;
        dSigmaDx = 0;
    }
    else {
#if M_IS_2N
        real xNMinus1 = integerPower(x, N_EXP - 1);
        real inverse = RECIP(1 + xNMinus1 * x);
        value = inverse;
        dSigmaDx = -N_EXP * xNMinus1 * inverse * inverse;
#else
        real e = x - 1;
        if (fabs(e) < (real) TAYLOR_BAND) {
            value = (real) N_OVER_M + e * ((real) TAYLOR_FIRST + (real) 0.5 * (real) TAYLOR_SECOND * e);
            dSigmaDx = (real) TAYLOR_FIRST + (real) TAYLOR_SECOND * e;
        }
#ifdef NEAR_ONE_BAND
        else if (fabs(e) < (real) NEAR_ONE_BAND) {
            // Horner for G_k(x) = sum_{i<k} x^i and G_k'(x).
            real gN = 0, dgN = 0, gM = 0, dgM = 0;
            for (int i = 0; i < N_EXP; i++) {
                dgN = dgN * x + gN;
                gN = gN * x + 1;
            }
            for (int i = 0; i < M_EXP; i++) {
                dgM = dgM * x + gM;
                gM = gM * x + 1;
            }
            real inverseGM = RECIP(gM);
            value = gN * inverseGM;
            dSigmaDx = (dgN - value * dgM) * inverseGM;
        }
#endif
        else {
            real xNMinus1 = integerPower(x, N_EXP - 1);
            real xMMinus1 = integerPower(x, M_EXP - 1);
            real xM = xMMinus1 * x;
            if (isinf(xM)) {
                // x is astronomically large: the ratio's limit for m > n.
                value = 0;
                dSigmaDx = 0;
            }
            else {
                real inverseDenominator = RECIP(1 - xM);
                value = (1 - xNMinus1 * x) * inverseDenominator;
                dSigmaDx = (-N_EXP * xNMinus1 + value * M_EXP * xMMinus1) * inverseDenominator;
            }
        }
#endif
    }
    *dSigmaDr = dSigmaDx * (real) INV_R0 * (real) STRETCH_FACTOR;
    return value * (real) STRETCH_FACTOR + (real) SHIFT;
}

/**
 * sigma(r) (stretched) of a pair at squared distance r2; *scale receives dsigma/dr / r, so the gradient
 * with respect to the second atom is delta * scale.
 * R2_PATH (d0 = 0, n and m even): sigma is a function of y = r^2/r0^2 (x^n = y^(n/2)), so most pairs need
 * no square root. Near x = 1, where the rational form needs its special cases, it falls back to
 * switchingFunction(r).
 */
DEVICE real pairSwitch(real r2, real* scale) {
#ifdef R2_PATH
#if M_IS_2N
#ifdef USE_CUTOFF
    const real y = r2 * (real) INV_R0_SQUARED;
#else
    // Without a cutoff y is unbounded: beyond Y_MAX (y^(n/2) = 1e30, sigma = 1e-30) it is clamped, so
    // that y^(n/2) never overflows (inf * 0 below would be NaN). A NaN stays NaN.
    const real unclamped = r2 * (real) INV_R0_SQUARED;
    const real y = (unclamped > (real) Y_MAX ? (real) Y_MAX : unclamped);
#endif
    const real yHalfNMinus1 = integerPower(y, N_EXP / 2 - 1);
    const real inverse = RECIP(1 + yHalfNMinus1 * y);
    *scale = (real) (-N_EXP * INV_R0_SQUARED * STRETCH_FACTOR) * yHalfNMinus1 * inverse * inverse;
    return inverse * (real) STRETCH_FACTOR + (real) SHIFT;
#else
    const real y = r2 * (real) INV_R0_SQUARED;
    if (fabs(y - 1) >= (real) R2_BAND) {
        const real yHalfNMinus1 = integerPower(y, N_EXP / 2 - 1);
        const real yHalfMMinus1 = integerPower(y, M_EXP / 2 - 1);
        const real yHalfM = yHalfMMinus1 * y;
        if (isinf(yHalfM)) {
            *scale = 0;
            return (real) SHIFT;
        }
        const real inverseDenominator = RECIP(1 - yHalfM);
        const real value = (1 - yHalfNMinus1 * y) * inverseDenominator;
        *scale = (real) (INV_R0_SQUARED * STRETCH_FACTOR) * (-N_EXP * yHalfNMinus1 + value * M_EXP * yHalfMMinus1) *
                 inverseDenominator;
        return value * (real) STRETCH_FACTOR + (real) SHIFT;
    }
#endif
#endif
#if !defined(R2_PATH) || !M_IS_2N
    const real r = SQRT(r2);
    real dSigmaDr;
    const real value = switchingFunction(r, &dSigmaDr);
    *scale = (r > 0 ? dSigmaDr / r : (real) 0);
    return value;
#endif
}
#else
/**
 * The other switching functions (CoordinationForce::SwitchingFunction other than Rational): sigma as a
 * function of its variable v (x = (r - d0)/r0 > 0; r for NativeQ; x2 = r^2/r0^2 for a Custom function of
 * x2), generated on the host per type (SWITCH_VALUE_AND_DERIVATIVE sets value and dValue = dsigma/dv).
 * Mirrors SwitchingFunctionEvaluator (openmmapi/src/SwitchingFunctionEvaluator.cpp).
 */
DEVICE real switchOfVariable(real v, real* dValue) {
    real value;
    SWITCH_VALUE_AND_DERIVATIVE
    return value;
}

/**
 * sigma(r) (stretched) of a pair at squared distance r2; *scale receives dsigma/dr / r. PLUMED's rules:
 * sigma = 1 for r <= d0 (not for x2), stretched sigma' = sigma * STRETCH_FACTOR + SHIFT.
 */
DEVICE real pairSwitch(real r2, real* scale) {
#ifdef SWITCH_OF_X2
    real dValue;
    const real value = switchOfVariable(r2 * (real) INV_R0_SQUARED, &dValue);
    *scale = (real) (2 * INV_R0_SQUARED * STRETCH_FACTOR) * dValue;
    return value * (real) STRETCH_FACTOR + (real) SHIFT;
#else
    const real r = SQRT(r2);
    real value, dSigmaDr = 0;
#ifdef SWITCH_OF_R
    if (r <= (real) D0)
        value = 1;
    else
        value = switchOfVariable(r, &dSigmaDr);
#else
    const real x = (r - (real) D0) * (real) INV_R0;
    if (x <= 0)
        value = 1;
    else {
        value = switchOfVariable(x, &dSigmaDr);
        dSigmaDr *= (real) INV_R0;
    }
#endif
    *scale = (r > 0 ? dSigmaDr * (real) STRETCH_FACTOR / r : (real) 0);
    return value * (real) STRETCH_FACTOR + (real) SHIFT;
#endif
}
#endif

/**
 * The contribution of one pair: sigma(r) and its gradient with respect to the second atom's position.
 * Returns false if the pair contributes nothing.
 */
DEVICE bool evaluatePair(real3 delta, real* sigma, real3* dSigmaDSecond, BOX_PARAMS) {
#ifdef USE_PERIODIC
    delta = minimumImage(delta, BOX_ARGS);
#endif
    real r2 = delta.x * delta.x + delta.y * delta.y + delta.z * delta.z;
#ifdef USE_CUTOFF
    if (r2 > (real) CUTOFF_SQUARED)
        return false;
#endif
    real scale;
    *sigma = pairSwitch(r2, &scale);
    *dSigmaDSecond = make_real3(delta.x * scale, delta.y * scale, delta.z * scale);
    return true;
}
