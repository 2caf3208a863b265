/*
 * The spherical harmonics of the Steinhardt order parameters (internal/peratom/SphericalHarmonics.h) against what
 * does not share their polynomials: closed forms of Y_lm for l <= 2, Unsold's theorem (sum_m |Y_lm|^2 = (2l+1)/4pi)
 * and the addition theorem with P_l from Bonnet's recurrence for every l up to the largest, along the z axis too,
 * and their gradients against central finite differences of the values; a weighted sum's gradient (the CPU
 * kernel's) against the sum of the weighted gradients.
 */

#include "internal/peratom/SphericalHarmonics.h"
#include "openmm/OpenMMException.h"
#include "gtest/gtest.h"
#include <cmath>
#include <complex>
#include <random>
#include <vector>

using CoordinationPlugin::SphericalHarmonics;
using OpenMM::Vec3;
using std::complex;
using std::vector;

namespace {

const int MaxL = SphericalHarmonics::MaxDegree;

vector<complex<double>> harmonics(const SphericalHarmonics& y, const Vec3& d,
                                  vector<std::array<complex<double>, 3>>* gradients = nullptr) {
    vector<complex<double>> values(y.getDegree() + 1);
    if (gradients != nullptr)
        gradients->resize(y.getDegree() + 1);
    y.evaluate(d, values.data(), gradients == nullptr ? nullptr : gradients->data());
    return values;
}

/** Y_l,-m from Y_lm. */
complex<double> negativeOrder(const vector<complex<double>>& values, int m) {
    return (m % 2 == 0 ? 1.0 : -1.0) * std::conj(values[m]);
}

/** P_l(t) by Bonnet's recurrence (n+1) P_n+1 = (2n+1) t P_n - n P_n-1. */
double bonnet(int l, double t) {
    double below = 1.0, value = t;
    if (l == 0)
        return below;
    for (int n = 1; n < l; n++) {
        const double next = ((2 * n + 1) * t * value - n * below) / (n + 1);
        below = value;
        value = next;
    }
    return value;
}

/** Directions and lengths: random ones, the axes (+-z, where the azimuth is undefined) and tiny and large lengths. */
vector<Vec3> vectors() {
    std::mt19937 random(20261128);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> logLength(-3.0, 1.0);
    vector<Vec3> result = {Vec3(0, 0, 0.3), Vec3(0, 0, -2.0), Vec3(1e-3, 0, 0), Vec3(0, 7.5, 0), Vec3(1, 1, 1),
                           Vec3(-0.2, 0.1, 1e-9)};
    for (int i = 0; i < 40; i++) {
        Vec3 d(normal(random), normal(random), normal(random));
        result.push_back(d * (std::pow(10.0, logLength(random)) / std::sqrt(d.dot(d))));
    }
    return result;
}

} // namespace

TEST(SphericalHarmonics, LowDegreesAreTheirClosedForms) {
    for (const Vec3& d : vectors()) {
        const double r = std::sqrt(d.dot(d)), x = d[0] / r, y = d[1] / r, z = d[2] / r;
        const complex<double> w(x, y);
        const double pi = M_PI;
        const vector<complex<double>> y0 = harmonics(SphericalHarmonics(0), d), y1 = harmonics(SphericalHarmonics(1), d),
                                      y2 = harmonics(SphericalHarmonics(2), d);
        const vector<std::pair<complex<double>, complex<double>>> pairs = {
            {y0[0], 0.5 / std::sqrt(pi)},
            {y1[0], std::sqrt(3 / (4 * pi)) * z},
            {y1[1], -std::sqrt(3 / (8 * pi)) * w},
            {y2[0], std::sqrt(5 / (16 * pi)) * (3 * z * z - 1)},
            {y2[1], -0.5 * std::sqrt(15 / (2 * pi)) * w * z},
            {y2[2], 0.25 * std::sqrt(15 / (2 * pi)) * w * w}};
        for (const auto& pair : pairs) {
            EXPECT_NEAR(pair.first.real(), pair.second.real(), 1e-15);
            EXPECT_NEAR(pair.first.imag(), pair.second.imag(), 1e-15);
        }
    }
}

TEST(SphericalHarmonics, EveryDegreeHoldsUnsoldsAndTheAdditionTheorem) {
    const vector<Vec3> all = vectors();
    for (int l = 0; l <= MaxL; l++) {
        const SphericalHarmonics y(l);
        for (size_t i = 0; i < all.size(); i++) {
            const vector<complex<double>> a = harmonics(y, all[i]), b = harmonics(y, all[(i + 7) % all.size()]);
            double norm = 0.0;
            complex<double> addition = 0.0;
            for (int m = -l; m <= l; m++) {
                const complex<double> ya = (m >= 0 ? a[m] : negativeOrder(a, -m));
                const complex<double> yb = (m >= 0 ? b[m] : negativeOrder(b, -m));
                norm += std::norm(ya);
                addition += ya * std::conj(yb);
            }
            const Vec3 &u = all[i], &v = all[(i + 7) % all.size()];
            const double cosine = u.dot(v) / std::sqrt(u.dot(u) * v.dot(v));
            const double scale = (2 * l + 1) / (4 * M_PI);
            // A few rounding errors of the 2l+1 terms (the expanded Legendre polynomial was 1.3e-13 off at l = 11 on the
            // z axis, hence the recurrence).
            EXPECT_NEAR(norm, scale, 1e-14 * scale) << "l = " << l << ", vector " << i;
            EXPECT_NEAR(addition.real(), scale * bonnet(l, cosine), 1e-12 * scale) << "l = " << l << ", vector " << i;
            EXPECT_NEAR(addition.imag(), 0.0, 1e-12 * scale) << "l = " << l << ", vector " << i;
        }
    }
}

TEST(SphericalHarmonics, GradientsAreTheFiniteDifferencesOfTheValues) {
    for (int l = 0; l <= MaxL; l++) {
        const SphericalHarmonics y(l);
        for (const Vec3& d : vectors()) {
            vector<std::array<complex<double>, 3>> gradients;
            harmonics(y, d, &gradients);
            const double r = std::sqrt(d.dot(d)), h = 1e-5 * r;
            for (int k = 0; k < 3; k++) {
                Vec3 step;
                step[k] = h;
                const vector<complex<double>> above = harmonics(y, d + step), below = harmonics(y, d - step);
                for (int m = 0; m <= l; m++) {
                    const complex<double> difference = (above[m] - below[m]) / (2 * h);
                    // |dY/dd| is at most about l^2 |Y|max / r; the central difference's error is O(h^2) of that.
                    const double tolerance = 1e-7 * (1 + l * l) / r;
                    EXPECT_NEAR(gradients[m][k].real(), difference.real(), tolerance) << "l " << l << " m " << m << " k " << k;
                    EXPECT_NEAR(gradients[m][k].imag(), difference.imag(), tolerance) << "l " << l << " m " << m << " k " << k;
                }
            }
        }
    }
}

TEST(SphericalHarmonics, AWeightedGradientIsTheSumOfTheWeightedGradients) {
    std::mt19937 random(29);
    std::uniform_real_distribution<double> weight(-2.0, 2.0);
    for (int l = 0; l <= MaxL; l++) {
        const SphericalHarmonics y(l);
        for (const Vec3& d : vectors()) {
            vector<double> re(l + 1), im(l + 1);
            for (int m = 0; m <= l; m++) {
                re[m] = weight(random);
                im[m] = (m == 0 ? 0.0 : weight(random));
            }
            vector<std::array<complex<double>, 3>> gradients;
            const vector<complex<double>> values = harmonics(y, d, &gradients);
            double expectedValue = 0.0;
            Vec3 expected;
            for (int m = 0; m <= l; m++) {
                const complex<double> w(re[m], -im[m]); // conj(W_m)
                expectedValue += (w * values[m]).real();
                for (int k = 0; k < 3; k++)
                    expected[k] += (w * gradients[m][k]).real();
            }
            double value;
            const Vec3 gradient = y.weightedGradient(d, re.data(), im.data(), value);
            const double r = std::sqrt(d.dot(d)), scale = (1 + l * l) * (2 * l + 2) / r;
            EXPECT_NEAR(value, expectedValue, 1e-13 * (2 * l + 2)) << "l " << l;
            for (int k = 0; k < 3; k++)
                EXPECT_NEAR(gradient[k], expected[k], 1e-13 * scale) << "l " << l << " k " << k;
        }
    }
}

TEST(SphericalHarmonics, ScalingTheVectorChangesNoValue) {
    const SphericalHarmonics y(6);
    for (const Vec3& d : vectors()) {
        const vector<complex<double>> a = harmonics(y, d), b = harmonics(y, d * 1e4);
        for (int m = 0; m <= 6; m++)
            EXPECT_NEAR(std::abs(a[m] - b[m]), 0.0, 1e-14);
    }
}

TEST(SphericalHarmonics, ADegreeOutsideZeroToTwelveIsRefused) {
    for (int l : {-1, MaxL + 1}) {
        try {
            SphericalHarmonics y(l);
            FAIL() << "l = " << l << " was accepted";
        } catch (const OpenMM::OpenMMException& error) {
            EXPECT_NE(std::string(error.what()).find("from 0 to 12"), std::string::npos) << error.what();
        }
    }
}
