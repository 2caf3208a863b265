#ifndef COORDINATION_TEST_CENTERSCENARIO_H_
#define COORDINATION_TEST_CENTERSCENARIO_H_

/*
 * A force with centres in a System (a Scenario) and its brute force: each centre computed the PLUMED way (each
 * particle placed at the minimum image of the one before it, made whole, then the weighted mean), the pairs summed
 * over the explicit positions, and the centres' forces spread back to their particles.
 */

#include "CoordinationTestUtilities.h"
#include "openmm/NonbondedForce.h"
#include <string>
#include <vector>

namespace CoordinationTest {

/** The particles of a scenario unless it says otherwise. */
const int NumParticles = 24;

/** Distinct masses, so that a centre of mass differs from the geometric centre. */
inline double massOf(int particle) { return 1.0 + 2.5 * (particle % 4) + 0.125 * particle; }

/** A centre as the test gives it to addCenter(). */
struct CenterSpec {
    std::vector<int> particles;
    CoordinationPlugin::CoordinationForce::CenterWeighting weighting =
        CoordinationPlugin::CoordinationForce::GeometricCenter;
    std::vector<double> weights;
    bool makeWhole = true;
};

/** The weights PLUMED gives the centre's particles: 1 (CENTER), the masses (COM) or the given ones (WEIGHTS). */
inline std::vector<long double> weightsOf(const CenterSpec& center) {
    std::vector<long double> weights;
    for (size_t j = 0; j < center.particles.size(); j++)
        weights.push_back(center.weighting == CoordinationPlugin::CoordinationForce::CenterOfMass
                              ? massOf(center.particles[j])
                              : (center.weighting == CoordinationPlugin::CoordinationForce::WeightedCenter
                                     ? center.weights[j]
                                     : 1.0));
    return weights;
}

/** One force with centres, its System's box and the force's own periodic flag. */
struct Scenario {
    std::string name;
    Box box;
    bool forcePeriodic = true;
    CoordinationPlugin::CoordinationForce::Mode mode = CoordinationPlugin::CoordinationForce::Dual;
    std::vector<CenterSpec> centers;
    std::vector<int> groupA, groupB; // particle indices and centre ids (-1 - k)
    SwitchingSettings settings;
    std::string energy = "0.25*s^2+s";
    int numParticles = NumParticles;
    /**
     * A NonbondedForce of zero charges with a periodic cutoff beside the force: the System then uses periodic
     * boundary conditions (System::usesPeriodicBoundaryConditions() asks its forces), and the GPU platforms wrap
     * and reorder its atoms.
     */
    bool periodicCompanion = false;
};

/** The force of a scenario (the ids addCenter() returns are -1, -2, ...: the groups use them). */
inline CoordinationPlugin::CoordinationForce makeCenterForce(const Scenario& scenario) {
    CoordinationPlugin::CoordinationForce force =
        makeForce(scenario.settings, scenario.mode, {0}, {}, scenario.energy, scenario.forcePeriodic);
    for (size_t k = 0; k < scenario.centers.size(); k++) {
        const CenterSpec& c = scenario.centers[k];
        EXPECT_EQ(force.addCenter(c.particles, c.weighting, c.weights, c.makeWhole), -1 - (int)k);
    }
    force.setGroupA(scenario.groupA);
    force.setGroupB(scenario.groupB);
    return force;
}

/**
 * A System of the scenario's particles with the test's masses in its box, holding a force (and the scenario's
 * companion, if any), and a Context for it; its positions are set by the test.
 */
template <class ForceType> TestContext<ForceType> centerContext(const ForceType& force, const Scenario& scenario) {
    std::vector<double> masses;
    for (int i = 0; i < scenario.numParticles; i++)
        masses.push_back(massOf(i));
    std::vector<OpenMM::Force*> others;
    if (scenario.periodicCompanion) {
        auto* nonbonded = new OpenMM::NonbondedForce();
        nonbonded->setNonbondedMethod(OpenMM::NonbondedForce::CutoffPeriodic);
        nonbonded->setCutoffDistance(1.0);
        for (int i = 0; i < scenario.numParticles; i++)
            nonbonded->addParticle(0.0, 0.3, 0.0);
        others.push_back(nonbonded);
    }
    return TestContext<ForceType>(force, std::vector<OpenMM::Vec3>(scenario.numParticles), scenario.box, masses,
                                  others);
}

/** The explicit positions (the particles', then the centres') and the groups over them. */
struct Explicit {
    std::vector<OpenMM::Vec3> positions;
    std::vector<int> groupA, groupB;
};

inline Explicit explicitOf(const Scenario& scenario, const std::vector<OpenMM::Vec3>& positions) {
    Explicit result;
    result.positions = positions;
    for (const CenterSpec& center : scenario.centers) {
        const BruteForce::LongVec x =
            BruteForce::centerOf(center.particles, weightsOf(center), center.makeWhole, positions, scenario.box.cell);
        result.positions.push_back(OpenMM::Vec3((double)x[0], (double)x[1], (double)x[2]));
    }
    auto member = [&](int entry) { return entry >= 0 ? entry : scenario.numParticles + (-1 - entry); };
    for (int entry : scenario.groupA)
        result.groupA.push_back(member(entry));
    for (int entry : scenario.groupB)
        result.groupB.push_back(member(entry));
    return result;
}

/** s and its gradient by the brute force over the explicit positions (the force's own periodicity). */
inline BruteForce::Coordination scenarioBruteForce(const Scenario& scenario, const Explicit& explicitPositions) {
    BruteForce::Cell cell = scenario.box.cell;
    cell.periodic = scenario.box.periodic() && scenario.forcePeriodic;
    return BruteForce::coordination(scenario.settings, scenario.mode, explicitPositions.groupA,
                                    explicitPositions.groupB, explicitPositions.positions, cell);
}

/** E(s) = 0.25 s^2 + s (the scenarios' energy) and dE/ds. */
inline double scenarioEnergy(double s, double& dEnergyDs) {
    dEnergyDs = 0.5 * s + 1.0;
    return 0.25 * s * s + s;
}

/** -dE/dx of the particles: dE/ds times the gradient of s, a centre's share w_j / W to its particle j (chain rule). */
inline std::vector<OpenMM::Vec3> expectedForces(const Scenario& scenario, const BruteForce::Coordination& coordination,
                                                double dEnergyDs) {
    std::vector<OpenMM::Vec3> forces(scenario.numParticles);
    for (int i = 0; i < scenario.numParticles; i++)
        forces[i] = coordination.gradient[i] * -dEnergyDs;
    for (size_t k = 0; k < scenario.centers.size(); k++) {
        const std::vector<long double> weights = weightsOf(scenario.centers[k]);
        long double total = 0.0L;
        for (long double w : weights)
            total += w;
        const OpenMM::Vec3& centerGradient = coordination.gradient[scenario.numParticles + k];
        for (size_t j = 0; j < weights.size(); j++)
            forces[scenario.centers[k].particles[j]] -= centerGradient * (double)(dEnergyDs * weights[j] / total);
    }
    return forces;
}

/**
 * Random positions in the box (in a 2.5 nm cube without one), some of them a box vector outside it, with the
 * particles of centre 0 spread over a cluster that straddles the box's corner (x, y and z near 0 and near the box
 * edge): only a centre made whole is then near the cluster.
 */
inline std::vector<OpenMM::Vec3> scenarioPositions(const Scenario& scenario, unsigned seed) {
    std::vector<OpenMM::Vec3> positions = randomPositions(scenario.numParticles, scenario.box, seed);
    UniformRandom random(seed + 1000);
    if (!scenario.centers.empty() && scenario.box.periodic()) {
        const BruteForce::Cell& cell = scenario.box.cell;
        for (int particle : scenario.centers[0].particles) {
            OpenMM::Vec3 position = OpenMM::Vec3(random(), random(), random()) * 0.3 - OpenMM::Vec3(0.15, 0.15, 0.15);
            for (int axis = 0; axis < 3; axis++)
                if (position[axis] < 0) // the far side of the box along this axis
                    position += (axis == 0 ? cell.a : axis == 1 ? cell.b : cell.c);
            positions[particle] = position;
        }
    }
    return positions;
}

/** The scenarios' switching function: Rational, the given r0 and cutoff. */
inline SwitchingSettings centerSettings(double dmax, double r0 = 0.6) { return rationalSettings(r0, 6, 0, 0.0, dmax); }

inline CenterSpec center(const std::vector<int>& particles,
                         CoordinationPlugin::CoordinationForce::CenterWeighting weighting, bool makeWhole = true,
                         const std::vector<double>& weights = {}) {
    return {particles, weighting, weights, makeWhole};
}

/** A scenario of the given box, mode, centres, groups and switching function (other settings at their defaults). */
inline Scenario scenarioOf(const std::string& name, const Box& box, CoordinationPlugin::CoordinationForce::Mode mode,
                           const std::vector<CenterSpec>& centers, const std::vector<int>& groupA,
                           const std::vector<int>& groupB, const SwitchingSettings& settings) {
    Scenario scenario;
    scenario.name = name;
    scenario.box = box;
    scenario.mode = mode;
    scenario.centers = centers;
    scenario.groupA = groupA;
    scenario.groupB = groupB;
    scenario.settings = settings;
    return scenario;
}

} // namespace CoordinationTest

#endif /*COORDINATION_TEST_CENTERSCENARIO_H_*/
