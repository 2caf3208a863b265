#ifndef COORDINATION_TEST_PLUMEDTESTSUPPORT_H_
#define COORDINATION_TEST_PLUMEDTESTSUPPORT_H_

/*
 * PLUMED's side of the tests: input read into forces, and the trajectory and printed values of PLUMED's regression
 * tests (tests/data/plumed) that the forces must reproduce.
 */

#include "PlumedTranslator.h"
#include "TestPlatform.h"
#include "openmm/Force.h"
#include "openmm/Vec3.h"
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace CoordinationTest {

/** The force of one action, read by the class's own fromPlumed() (CoordinationForce, ContactMapForce). */
template <class ForceType> std::unique_ptr<ForceType> fromPlumed(const std::string& input) {
    return std::unique_ptr<ForceType>(ForceType::fromPlumed(input));
}

/** The forces of a whole input (PlumedTranslator::fromPlumedFile), owned, and the actions skipped. */
inline std::vector<std::unique_ptr<OpenMM::Force>> readPlumedFile(const std::string& text,
                                                                  std::vector<std::string>& skipped) {
    std::vector<std::unique_ptr<OpenMM::Force>> forces;
    for (OpenMM::Force* force : CoordinationPlugin::PlumedTranslator::fromPlumedFile(text, skipped))
        forces.emplace_back(force);
    return forces;
}

/** The forces of a whole input, owned, the actions skipped ignored. */
inline std::vector<std::unique_ptr<OpenMM::Force>> readPlumedFile(const std::string& text) {
    std::vector<std::string> skipped;
    return readPlumedFile(text, skipped);
}

/** The forces of a whole input, owned, expecting the given actions to be the ones skipped. */
inline std::vector<std::unique_ptr<OpenMM::Force>> readPlumedFileSkipping(const std::string& text,
                                                                          const std::vector<std::string>& skipped) {
    std::vector<std::string> actual;
    std::vector<std::unique_ptr<OpenMM::Force>> forces = readPlumedFile(text, actual);
    EXPECT_EQ(actual, skipped);
    return forces;
}

/** Frame `frame` of tests/data/plumed/trajectories/trajectory.xyz (its cubic box's edge in edge). */
inline std::vector<OpenMM::Vec3> trajectoryFrame(int frame, double& edge) {
    std::ifstream in(std::string(COORDINATION_TEST_DATA) + "/plumed/trajectories/trajectory.xyz");
    std::vector<OpenMM::Vec3> positions;
    for (int f = 0; f <= frame; f++) {
        int count;
        in >> count >> edge;
        std::string rest;
        std::getline(in, rest);
        positions.assign(count, OpenMM::Vec3());
        for (int i = 0; i < count; i++) {
            std::string name;
            in >> name >> positions[i][0] >> positions[i][1] >> positions[i][2];
        }
    }
    EXPECT_TRUE((bool)in) << "trajectory.xyz frame " << frame;
    return positions;
}

/** The rows of a PLUMED output file of tests/data/plumed (after its #! FIELDS line), as numbers. */
inline std::vector<std::vector<double>> plumedRows(const std::string& path) {
    std::ifstream in(std::string(COORDINATION_TEST_DATA) + "/plumed/" + path);
    EXPECT_TRUE((bool)in) << path;
    std::string line;
    std::getline(in, line);
    std::vector<std::vector<double>> rows;
    while (std::getline(in, line)) {
        std::istringstream row(line);
        std::vector<double> values;
        double value;
        while (row >> value)
            values.push_back(value);
        if (!values.empty())
            rows.push_back(values);
    }
    return rows;
}

/** The values PLUMED printed at frame `frame` of a PRINT file, the time left out. */
inline std::vector<double> printedValues(const std::string& path, int frame) {
    const std::vector<std::vector<double>> rows = plumedRows(path);
    EXPECT_LT(frame, (int)rows.size()) << path;
    if (frame >= (int)rows.size() || rows[frame].size() < 2) {
        ADD_FAILURE() << path << " has no values at frame " << frame;
        return {};
    }
    return std::vector<double>(rows[frame].begin() + 1, rows[frame].end());
}

/**
 * Half a unit in the last printed decimal (times 1 + relativeSlack, for values PLUMED rounded at exactly half a
 * unit), plus the single-precision tolerance on the platforms that have it.
 */
inline double printed(int decimals, double relativeSlack = 0.0) {
    return 0.5 * std::pow(10.0, -decimals) * (1 + relativeSlack) + (Tolerance::Double ? 0.0 : 2e-5);
}

} // namespace CoordinationTest

#endif /*COORDINATION_TEST_PLUMEDTESTSUPPORT_H_*/
