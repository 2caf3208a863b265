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
}

void SphericalHarmonics::legendreDerivatives(double u, double* d) const {
    const int l = degree;
    double start = 1.0; // D_mm = (2m-1)!!
    for (int m = 0; m <= l; m++) {
        if (m > 0)
            start *= 2 * m - 1;
        double below = 0.0, value = start; // D_n-1,m and D_nm, from n = m
        for (int n = m + 1; n <= l; n++) {
            const double next = ((2 * n - 1) * u * value - (n + m - 1) * below) / (n - m);
            below = value;
            value = next;
        }
        d[m] = value;
    }
    d[l + 1] = 0.0; // the (l+1)-th derivative of a polynomial of degree l
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
        wPower *= w;
    }
}
