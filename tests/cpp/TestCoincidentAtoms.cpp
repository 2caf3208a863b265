/*
 * Coincident atoms (r = 0) count sigma(0) and get no force from their pair (it has no direction), for every
 * switching function, Custom ones of x and of x2 included (1/(1+sqrt(x2)) has no derivative at 0): the same
 * finite numbers on every platform, checked against the long double brute force.
 */

#include "CoordinationTestUtilities.h"

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

std::vector<SwitchingSettings> everySwitchingFunction() {
    std::vector<SwitchingSettings> all;
    auto add = [&](CoordinationForce::SwitchingFunction type, const std::string& custom = "") {
        SwitchingSettings settings = typedSettings(type, 0.25, 0.0, 0.8, true);
        if (type == CoordinationForce::Smap) {
            settings.setSmapExponents(6, 4);
        }
        if (type == CoordinationForce::NativeQ)
            settings.setNativeQParameters(settings.getNativeQBeta(), settings.getNativeQLambda(), 0.3);
        if (type == CoordinationForce::Custom)
            settings.setCustomExpression(custom);
        all.push_back(settings);
    };
    for (int type = CoordinationForce::Rational; type < CoordinationForce::Custom; type++)
        add((CoordinationForce::SwitchingFunction) type);
    add(CoordinationForce::Custom, "exp(-x)");
    add(CoordinationForce::Custom, "1/(1+sqrt(x2))");
    add(CoordinationForce::Custom, "1/(1+x2^3)");
    SwitchingSettings rationalOfR = all.front(); // d0 > 0 and m != 2n: the distance path
    rationalOfR.setD0(0.05);
    rationalOfR.setM(10);
    all.push_back(rationalOfR);
    return all;
}

class CoincidentAtoms : public ::testing::TestWithParam<SwitchingSettings> {};

} // namespace

TEST_P(CoincidentAtoms, CountSigmaOfZeroAndGetNoForceFromTheirPair) {
    // Atoms 0, 1 and 3 at one point; atom 2 0.2 nm away: three coincident pairs and three pairs at 0.2 nm.
    const std::vector<Vec3> positions = {Vec3(0.5, 0.5, 0.5), Vec3(0.5, 0.5, 0.5), Vec3(0.7, 0.5, 0.5),
                                         Vec3(0.5, 0.5, 0.5)};
    for (const Box& box : {Box::none(), Box::rectangular()}) {
        SCOPED_TRACE(describe(GetParam()) + ", " + box.name);
        CoordinationForce force = makeForce(GetParam(), CoordinationForce::Self, {0, 1, 2, 3}, {}, "s", box.periodic());
        CoordinationContext system(force, positions, box);
        const Evaluation result = system.evaluate();
        const BruteForce::Coordination expected = bruteForceOf(force, positions, box);
        ASSERT_TRUE(std::isfinite(result.energy));
        expectRelativelyNear(result.s, expected.s, Tolerance::Coordination, "s");
        for (const Vec3& f : result.forces)
            for (int axis = 0; axis < 3; axis++)
                ASSERT_TRUE(std::isfinite(f[axis]));
        // (GPU platforms add each pair's force in fixed point: a few of its 2^-32 steps per atom)
        expectForcesNear(result.forces, scaled(expected.gradient, -1.0), Tolerance::ForceRelativeToRms,
                         Tolerance::ForceResolution * 8);
        // The coincident atoms' forces all point along the line to atom 2: nothing comes from their own pairs.
        for (int atom : {0, 1, 3})
            for (int axis : {1, 2})
                EXPECT_EQ(result.forces[atom][axis], 0.0);
    }
}

INSTANTIATE_TEST_SUITE_P(EverySwitchingFunction, CoincidentAtoms, ::testing::ValuesIn(everySwitchingFunction()),
                         [](const ::testing::TestParamInfo<SwitchingSettings>& info) {
                             return "Case" + std::to_string(info.index);
                         });
