#include "internal/peratom/SphericalHarmonics.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <string>

using namespace CoordinationPlugin;
using OpenMM::Vec3;
using std::complex;

SphericalHarmonics::SphericalHarmonics(int l) : degree(l) {
    if (l < 0 || l > MaxDegree)
        throw OpenMM::OpenMMException("SphericalHarmonics: the degree l must be an integer from 0 to " +
                                      std::to_string(MaxDegree) + ", got " + std::to_string(l));
    for (int m = 0; m <= l; m++) {
        double ratio = 1.0; // (l-m)!/(l+m)!
        for (int i = l - m + 1; i <= l + m; i++)
            ratio /= i;
        scale.push_back((m % 2 == 0 ? 1.0 : -1.0) * std::sqrt((2 * l + 1) / (4 * M_PI) * ratio));
    }
    top = 1.0; // (2l-1)!!
    for (int k = 3; k < 2 * l; k += 2)
        top *= k;
    for (int m = 0; m < l; m++)
        inverseDivisor.push_back(1.0 / ((l - m) * (l + m + 1)));
}

void SphericalHarmonics::legendreDerivatives(double u, double* d) const {
    const int l = degree;
    d[l + 1] = 0.0; // the (l+1)-th derivative of a polynomial of degree l
    d[l] = top;
    const double oneMinusSquare = 1.0 - u * u;
    for (int m = l - 1; m >= 0; m--)
        d[m] = (2 * (m + 1) * u * d[m + 1] - oneMinusSquare * d[m + 2]) * inverseDivisor[m];
}

void SphericalHarmonics::evaluate(const Vec3& d, complex<double>* values, std::array<complex<double>, 3>* gradients) const {
    const double r = std::sqrt(d.dot(d));
    const Vec3 unit = d / r;
    const double u = unit[2];
    const complex<double> w(unit[0], unit[1]);
    double legendre[MaxDegree + 2];
    legendreDerivatives(u, legendre);
    // du/dd, and dw/dd as its real and imaginary parts.
    const Vec3 du = (Vec3(0, 0, 1) - unit * u) / r;
    const Vec3 dwReal = (Vec3(1, 0, 0) - unit * w.real()) / r, dwImag = (Vec3(0, 1, 0) - unit * w.imag()) / r;
    complex<double> wPower(1.0, 0.0), wPowerBelow(0.0, 0.0); // w^m, w^(m-1)
    for (int m = 0; m <= degree; m++) {
        values[m] = wPower * (scale[m] * legendre[m]);
        if (gradients != nullptr) {
            const complex<double> a = wPowerBelow * (m * scale[m] * legendre[m]); // multiplies dw/dd
            const complex<double> b = wPower * (scale[m] * legendre[m + 1]);     // multiplies du/dd
            for (int k = 0; k < 3; k++)
                gradients[m][k] = a * complex<double>(dwReal[k], dwImag[k]) + b * du[k];
        }
        wPowerBelow = wPower;
        // w^(m+1) in real arithmetic (a complex product calls the library's NaN-checking multiplication)
        wPower = complex<double>(wPower.real() * w.real() - wPower.imag() * w.imag(),
                                 wPower.real() * w.imag() + wPower.imag() * w.real());
    }
}

Vec3 SphericalHarmonics::weightedGradient(const Vec3& d, const double* weightRe, const double* weightIm,
                                          double& value) const {
    const double r = std::sqrt(d.dot(d));
    const Vec3 unit = d / r;
    const double u = unit[2], wx = unit[0], wy = unit[1];
    double legendre[MaxDegree + 2];
    legendreDerivatives(u, legendre);
    // conj(W) z = (W_re z_re + W_im z_im) + i (W_re z_im - W_im z_re); A multiplies dw/dd, B du/dd.
    double total = 0.0, aRe = 0.0, aIm = 0.0, bRe = 0.0, bIm = 0.0;
    double powerRe = 1.0, powerIm = 0.0, belowRe = 0.0, belowIm = 0.0; // w^m, w^(m-1)
    for (int m = 0; m <= degree; m++) {
        const double y = scale[m] * legendre[m], a = m * y, b = scale[m] * legendre[m + 1];
        const double re = weightRe[m], im = weightIm[m];
        total += y * (re * powerRe + im * powerIm);
        aRe += a * (re * belowRe + im * belowIm);
        aIm += a * (re * belowIm - im * belowRe);
        bRe += b * (re * powerRe + im * powerIm);
        bIm += b * (re * powerIm - im * powerRe);
        belowRe = powerRe;
        belowIm = powerIm;
        const double next = powerRe * wx - powerIm * wy;
        powerIm = powerRe * wy + powerIm * wx;
        powerRe = next;
    }
    value = total;
    // Re(A dw/dd + B du/dd) with dw/dd = ((1, i, 0) - w e) / r and du/dd = (e_z - u e) / r.
    const double along = aRe * wx - aIm * wy + bRe * u;
    return (Vec3(aRe, -aIm, bRe) - unit * along) / r;
}
