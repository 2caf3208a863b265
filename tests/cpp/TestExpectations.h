#ifndef COORDINATION_TEST_EXPECTATIONS_H_
#define COORDINATION_TEST_EXPECTATIONS_H_

/*
 * The assertions of the suite: numbers within a relative tolerance, force arrays against expected ones, exceptions
 * and their messages, and the central differences of an energy that forces are checked against.
 */

#include "TestGeometry.h"
#include "openmm/OpenMMException.h"
#include "openmm/Vec3.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace CoordinationTest {

/** |actual - expected| <= tolerance * max(|expected|, 1). */
inline void expectRelativelyNear(double actual, double expected, double tolerance, const std::string& what = "") {
    EXPECT_NEAR(actual, expected, tolerance * std::max(std::fabs(expected), 1.0)) << what;
}

/** Each value within expectRelativelyNear's tolerance of its expected one, the lists of the same length. */
inline void expectValuesNear(const std::vector<double>& actual, const std::vector<double>& expected, double tolerance,
                             const std::string& what) {
    ASSERT_EQ(actual.size(), expected.size()) << what;
    for (size_t i = 0; i < actual.size(); i++)
        expectRelativelyNear(actual[i], expected[i], tolerance, what + " " + std::to_string(i));
}

/**
 * Every component of actual within relativeTolerance * RMS(expected) of expected (absoluteFloor when the
 * expected forces are all zero).
 */
inline void expectForcesNear(const std::vector<OpenMM::Vec3>& actual, const std::vector<OpenMM::Vec3>& expected,
                             double relativeTolerance, double absoluteFloor = 1e-12) {
    ASSERT_EQ(actual.size(), expected.size());
    double tolerance = std::max(relativeTolerance * rootMeanSquare(expected), absoluteFloor);
    int reported = 0;
    for (size_t i = 0; i < actual.size(); i++)
        for (int axis = 0; axis < 3; axis++)
            if (!(std::fabs(actual[i][axis] - expected[i][axis]) <= tolerance) && reported++ < 5)
                ADD_FAILURE() << "force on particle " << i << " axis " << axis << ": " << actual[i][axis]
                              << " expected " << expected[i][axis] << " (tolerance " << tolerance << ")";
}

inline void expectAllForcesZero(const std::vector<OpenMM::Vec3>& forces) {
    for (size_t i = 0; i < forces.size(); i++)
        EXPECT_EQ(forces[i], OpenMM::Vec3(0, 0, 0)) << "particle " << i;
}

/** Every component finite. */
inline void assertAllFinite(const std::vector<OpenMM::Vec3>& forces) {
    for (size_t i = 0; i < forces.size(); i++)
        for (int axis = 0; axis < 3; axis++)
            ASSERT_TRUE(std::isfinite(forces[i][axis])) << "force on particle " << i << ": " << forces[i][axis];
}

/** Expects action() to throw an OpenMMException whose message contains every one of the given words. */
inline void expectOpenMMExceptionMentioning(const std::function<void()>& action,
                                            const std::vector<std::string>& words) {
    try {
        action();
        ADD_FAILURE() << "expected an OpenMMException mentioning \"" << (words.empty() ? "" : words[0])
                      << "\", but nothing was thrown";
    } catch (const OpenMM::OpenMMException& error) {
        std::string message = error.what();
        for (const std::string& word : words)
            EXPECT_NE(message.find(word), std::string::npos)
                << "the message \"" << message << "\" does not mention \"" << word << "\"";
    } catch (const std::exception& error) {
        ADD_FAILURE() << "expected an OpenMMException, got another exception: " << error.what();
    }
}

/** Each input, read by `read`, throws an OpenMMException that mentions every one of its words. */
inline void expectEachRefused(const std::vector<std::pair<std::string, std::vector<std::string>>>& inputs,
                              const std::function<void(const std::string&)>& read) {
    for (const auto& entry : inputs) {
        SCOPED_TRACE(entry.first);
        expectOpenMMExceptionMentioning([&] { read(entry.first); }, entry.second);
    }
}

/**
 * -dE/dx by central differences of step `step`, for every coordinate of the given particles (all if none are given;
 * the others' entries stay 0). energyAt(positions) returns E at those positions, in double or long double: the
 * differences are taken in its precision.
 */
template <class EnergyFunction>
std::vector<OpenMM::Vec3> centralDifferences(const std::vector<OpenMM::Vec3>& positions, double step,
                                             EnergyFunction energyAt, std::vector<int> particles = {}) {
    using Real = decltype(energyAt(positions));
    if (particles.empty())
        for (int i = 0; i < (int)positions.size(); i++)
            particles.push_back(i);
    std::vector<OpenMM::Vec3> forces(positions.size()), displaced = positions;
    for (int i : particles)
        for (int axis = 0; axis < 3; axis++) {
            displaced[i][axis] = positions[i][axis] + step;
            const Real forward = energyAt(displaced);
            displaced[i][axis] = positions[i][axis] - step;
            const Real backward = energyAt(displaced);
            displaced[i][axis] = positions[i][axis];
            forces[i][axis] = (double)(-(forward - backward) / (2 * (Real)step));
        }
    return forces;
}

} // namespace CoordinationTest

#endif /*COORDINATION_TEST_EXPECTATIONS_H_*/
