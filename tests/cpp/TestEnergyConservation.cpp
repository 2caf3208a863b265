/*
 * Constant-energy dynamics of a Lennard-Jones fluid with and without a coordination restraint: forces
 * that are the exact gradient of the energy conserve the total energy as well as the fluid alone does.
 */

#include "CoordinationTestUtilities.h"
#include "openmm/NonbondedForce.h"
#include <iostream>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

// Argon: 39.9 amu, sigma 0.34 nm, epsilon 0.997 kJ/mol; 125 atoms on a 5 x 5 x 5 lattice in a 2.2 nm box.
const int LatticeSide = 5;
const double LatticeSpacing = 0.44;
const double BoxSize = LatticeSide * LatticeSpacing;
const double TimeStep = 0.002; // ps: about 1/1000 of argon's Lennard-Jones time (2.2 ps)
const int EquilibrationSteps = 1000;
const int MeasuredSteps = 3000;
const int StepsPerSample = 10;
const int RestraintGroup = 1;

/** A linear fit to the total energy: its slope and the RMS of the residuals. */
struct EnergyDrift {
    double slope;          // kJ/mol/ps
    double fluctuation;    // kJ/mol
    double restraintRange; // max - min of the restraint's energy, kJ/mol
};

OpenMM::System argonSystem() {
    OpenMM::System system;
    system.setDefaultPeriodicBoxVectors(Vec3(BoxSize, 0, 0), Vec3(0, BoxSize, 0), Vec3(0, 0, BoxSize));
    OpenMM::NonbondedForce* lennardJones = new OpenMM::NonbondedForce();
    lennardJones->setNonbondedMethod(OpenMM::NonbondedForce::CutoffPeriodic);
    lennardJones->setCutoffDistance(1.0);
    // A smooth switch to zero, so that the cutoff itself does not spoil energy conservation.
    lennardJones->setUseSwitchingFunction(true);
    lennardJones->setSwitchingDistance(0.85);
    lennardJones->setUseDispersionCorrection(false);
    for (int i = 0; i < LatticeSide * LatticeSide * LatticeSide; i++) {
        system.addParticle(39.9);
        lennardJones->addParticle(0.0, 0.34, 0.997);
    }
    system.addForce(lennardJones);
    return system;
}

std::vector<Vec3> latticePositions() {
    std::vector<Vec3> positions;
    for (int i = 0; i < LatticeSide; i++)
        for (int j = 0; j < LatticeSide; j++)
            for (int k = 0; k < LatticeSide; k++)
                positions.push_back(Vec3(i + 0.5, j + 0.5, k + 0.5) * LatticeSpacing);
    return positions;
}

/** A restraint E = 0.5 k (s - s0)^2 on the coordination of 20 atoms (PLUMED's defaults otherwise: NOPBC). */
CoordinationForce* restraint() {
    CoordinationForce* force = new CoordinationForce("0.5*k*(s-s0)^2");
    std::vector<int> group;
    for (int atom = 0; atom < 125; atom += 6)
        group.push_back(atom);
    force->setGroupA(group);
    force->setR0(0.5);
    force->addGlobalParameter("k", 10.0);
    force->addGlobalParameter("s0", 0.0);
    force->setForceGroup(RestraintGroup);
    return force;
}

/** Runs from the given state and fits a line to the total energy. */
EnergyDrift measureDrift(OpenMM::System& system, const OpenMM::State& start, bool restrained) {
    OpenMM::VerletIntegrator integrator(TimeStep);
    OpenMM::Context context(system, integrator, OpenMM::Platform::getPlatformByName(testPlatform().platform),
                            testPlatform().properties());
    context.setState(start);
    if (restrained) {
        // Pull s two units away from its value at the start: the restraint does real work on the fluid.
        double s = dynamic_cast<const CoordinationForce&>(system.getForce(1)).getCoordination(context);
        context.setParameter("s0", s + 2.0);
    }
    std::vector<double> times, energies;
    double restraintMin = 0.0, restraintMax = 0.0;
    for (int sample = 0; sample <= MeasuredSteps / StepsPerSample; sample++) {
        if (sample > 0)
            integrator.step(StepsPerSample);
        OpenMM::State state = context.getState(OpenMM::State::Energy);
        times.push_back(state.getTime());
        energies.push_back(state.getPotentialEnergy() + state.getKineticEnergy());
        double restraintEnergy =
            context.getState(OpenMM::State::Energy, false, 1 << RestraintGroup).getPotentialEnergy();
        restraintMin = (sample == 0 ? restraintEnergy : std::min(restraintMin, restraintEnergy));
        restraintMax = (sample == 0 ? restraintEnergy : std::max(restraintMax, restraintEnergy));
    }
    double meanT = 0, meanE = 0;
    for (size_t i = 0; i < times.size(); i++) {
        meanT += times[i] / times.size();
        meanE += energies[i] / times.size();
    }
    double covariance = 0, variance = 0;
    for (size_t i = 0; i < times.size(); i++) {
        covariance += (times[i] - meanT) * (energies[i] - meanE);
        variance += (times[i] - meanT) * (times[i] - meanT);
    }
    double slope = covariance / variance;
    double residuals = 0;
    for (size_t i = 0; i < times.size(); i++) {
        double residual = energies[i] - (meanE + slope * (times[i] - meanT));
        residuals += residual * residual;
    }
    return {slope, std::sqrt(residuals / times.size()), restraintMax - restraintMin};
}

} // namespace

TEST(Dynamics, RestraintConservesEnergyAsWellAsTheFluidAlone) {
    OpenMM::System fluid = argonSystem();
    OpenMM::State start;
    {
        OpenMM::VerletIntegrator integrator(TimeStep);
        OpenMM::Context context(fluid, integrator, OpenMM::Platform::getPlatformByName(testPlatform().platform),
                            testPlatform().properties());
        context.setPositions(latticePositions());
        context.setVelocitiesToTemperature(100.0, 2024);
        integrator.step(EquilibrationSteps);
        start = context.getState(OpenMM::State::Positions | OpenMM::State::Velocities | OpenMM::State::Parameters);
    }
    OpenMM::System restrained = argonSystem();
    restrained.addForce(restraint());

    EnergyDrift alone = measureDrift(fluid, start, false);
    EnergyDrift withRestraint = measureDrift(restrained, start, true);
    std::cout << "fluid alone: slope " << alone.slope << " kJ/mol/ps, fluctuation " << alone.fluctuation
              << " kJ/mol; with restraint: slope " << withRestraint.slope << ", fluctuation "
              << withRestraint.fluctuation << ", restraint energy range " << withRestraint.restraintRange << std::endl;

    // The restraint must actually exchange energy with the fluid, or the comparison proves nothing.
    EXPECT_GT(withRestraint.restraintRange, 5.0);
    // Verlet's error for a smooth force that is the exact gradient of the energy stays bounded and
    // oscillates; a force that is not the gradient makes the restraint's work (here ~20 kJ/mol) show up
    // as a steady drift and extra scatter in the total energy. The restraint is soft compared with the
    // Lennard-Jones walls, so it may add at most as much again as the fluid's own error (factor 2),
    // plus a floor for when the fluid's own numbers happen to be tiny: 1e-3 kJ/mol/ps of drift and
    // 1e-3 kJ/mol of scatter (about 1e-5 of the kinetic energy). The fluid alone gives ~1e-4 and
    // ~7e-4; a force off by 0.1% of the gradient already breaks the bound.
    EXPECT_LE(std::fabs(withRestraint.slope), 2 * std::fabs(alone.slope) + 1e-3);
    EXPECT_LE(withRestraint.fluctuation, 2 * alone.fluctuation + 1e-3);
}
