#ifndef OPENMM_COORDINATION_SPHERICALHARMONICS_H_
#define OPENMM_COORDINATION_SPHERICALHARMONICS_H_

#include "internal/windowsExportCoordination.h"
#include "openmm/Vec3.h"
#include <array>
#include <complex>
#include <vector>

namespace CoordinationPlugin {

/**
 * The spherical harmonics of a bond vector that PLUMED's Steinhardt order parameters sum (Q_l, LOCAL_Q_l): for one
 * degree l, Y_lm(d) for m = 0 .. l and their gradients with respect to d, in double precision.
 *
 * Y_lm are the orthonormal complex harmonics with the Condon-Shortley phase (sum over m = -l..l of |Y_lm|^2 is
 * (2l+1)/(4 pi)); the negative orders follow from Y_l,-m = (-1)^m conj(Y_lm). Each is written as a polynomial in the
 * components of the unit vector, with no angle:
 * @code
 * Y_lm(d) = c_lm w^m D_lm(u),   u = z/r,  w = (x + i y)/r,  D_lm = d^m P_l / du^m,
 * c_lm = (-1)^m sqrt((2l+1)/(4 pi) (l-m)!/(l+m)!)
 * @endcode
 * so it is defined along the z axis (where the polar angle's azimuth is not), and its gradient is
 * @code
 * dY_lm/dd = c_lm (m w^(m-1) D_lm(u) dw/dd + w^m D_l,m+1(u) du/dd),
 * du/dd = (e_z - u d/r) / r,  dw/dd = ((1, i, 0) - w d/r) / r.
 * @endcode
 * D_lm(u) comes from the recurrence in the order of Legendre's equation differentiated m times, downward from
 * D_ll = (2l-1)!! and D_l,l+1 = 0:
 * @code
 * (l-m)(l+m+1) D_lm = 2(m+1) u D_l,m+1 - (1-u^2) D_l,m+2,
 * @endcode
 * l steps for all the orders (the recurrence in the degree takes l(l+1)/2), which keeps every digit where the
 * expanded polynomial would cancel (near u = +-1 at large l) and rounds less than the recurrence in the degree.
 */
class OPENMM_EXPORT_COORDINATION SphericalHarmonics {
public:
    /** The largest degree (PLUMED's Q_l go up to l = 6; the API allows up to 12). */
    static const int MaxDegree = 12;
    /** The harmonics of degree l (0 .. MaxDegree; another l throws an OpenMMException). */
    explicit SphericalHarmonics(int l);
    /** The degree l. */
    int getDegree() const { return degree; }
    /** c_lm for m = 0 .. l (the GPU kernels' constants). */
    const std::vector<double>& getScales() const { return scale; }
    /** D_ll = (2l-1)!!, where the recurrence in the order starts (a GPU kernel's constant). */
    double getTopDerivative() const { return top; }
    /** 1/((l-m)(l+m+1)) for m = 0 .. l-1, the recurrence's factors (the GPU kernels' constants). */
    const std::vector<double>& getInverseDivisors() const { return inverseDivisor; }
    /**
     * Y_lm(d) into values[m] and, if gradients is not null, dY_lm/dd (x, y, z) into gradients[m], for m = 0 .. l; d
     * must not be 0 (the harmonics are not defined there).
     */
    void evaluate(const OpenMM::Vec3& d, std::complex<double>* values,
                  std::array<std::complex<double>, 3>* gradients) const;
    /**
     * A weighted sum of the harmonics and its gradient without the harmonics' own gradients: with W_m = weightRe[m] +
     * i weightIm[m] for m = 0 .. l, returns sum_m Re(conj(W_m) dY_lm/dd) and sets value = sum_m Re(conj(W_m) Y_lm),
     * written as c_lm (m w^(m-1) D_lm dw/dd + w^m D_l,m+1 du/dd) summed over m first (two complex sums), in real
     * arithmetic. d must not be 0.
     */
    OpenMM::Vec3 weightedGradient(const OpenMM::Vec3& d, const double* weightRe, const double* weightIm,
                                  double& value) const;

private:
    int degree;
    /** c_lm for m = 0 .. l. */
    std::vector<double> scale;
    /** (2l-1)!!, and 1/((l-m)(l+m+1)) for m = 0 .. l-1. */
    double top;
    std::vector<double> inverseDivisor;
    /** D_lm(u) for m = 0 .. l + 1 (D_l,l+1 = 0) into d. */
    void legendreDerivatives(double u, double* d) const;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_SPHERICALHARMONICS_H_*/
