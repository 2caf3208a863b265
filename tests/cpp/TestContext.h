#ifndef COORDINATION_TEST_CONTEXT_H_
#define COORDINATION_TEST_CONTEXT_H_

/*
 * The Systems the tests evaluate: a System of particles holding forces with a Context on the platform under test
 * (SystemContext), one holding a copy of the force under test (TestContext, for every class of force), and one
 * whose force is a CustomCVForce with the force under test as its collective variable (CollectiveVariableContext).
 */

#include "ContactMapForce.h"
#include "CoordinationForce.h"
#include "CoordinationNumberForce.h"
#include "TestExpectations.h"
#include "TestGeometry.h"
#include "TestPlatform.h"
#include "openmm/Context.h"
#include "openmm/CustomCVForce.h"
#include "openmm/Platform.h"
#include "openmm/State.h"
#include "openmm/System.h"
#include "openmm/VerletIntegrator.h"
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace CoordinationTest {

/** Masses of 1 for `count` particles. */
inline std::vector<double> unitMasses(size_t count) { return std::vector<double>(count, 1.0); }

/**
 * A System of particles of the given masses in the box (its vectors the System's default), holding the given forces
 * (the System owns them), and a Context for it on a platform.
 */
class SystemContext {
public:
    SystemContext(const std::vector<double>& masses, const Box& box, const std::vector<OpenMM::Force*>& forces,
                  const PlatformCase& platformCase = testPlatform())
        : integrator(0.001) {
        for (double mass : masses)
            system.addParticle(mass);
        if (box.periodic())
            system.setDefaultPeriodicBoxVectors(box.cell.a, box.cell.b, box.cell.c);
        for (OpenMM::Force* force : forces)
            system.addForce(force);
        context.reset(new OpenMM::Context(
            system, integrator, OpenMM::Platform::getPlatformByName(platformCase.platform), platformCase.properties()));
    }
    OpenMM::Context& getContext() { return *context; }
    OpenMM::System& getSystem() { return system; }
    OpenMM::VerletIntegrator& getIntegrator() { return integrator; }
    /** The energy of the given force groups at the current positions. */
    double energy(int groups = -1) {
        return context->getState(OpenMM::State::Energy, false, groups).getPotentialEnergy();
    }
    /** The energy at the given positions (which the Context keeps). */
    double energyAt(const std::vector<OpenMM::Vec3>& positions) {
        context->setPositions(positions);
        return energy();
    }

private:
    OpenMM::System system;
    OpenMM::VerletIntegrator integrator;
    std::unique_ptr<OpenMM::Context> context;
};

/** What a Context reports for a CoordinationForce: its energy, its forces and getCoordination() (NaN for another
 * force). */
struct Evaluation {
    double energy;
    double s;
    std::vector<OpenMM::Vec3> forces;
};

/** What a Context reports for a contact map. */
struct ContactMapEvaluation {
    double energy;
    std::vector<OpenMM::Vec3> forces;
    std::vector<double> contactValues, variables;
};

/** What a Context reports for each class of force (TestContext::evaluate()). */
inline Evaluation evaluationOf(OpenMM::Context& context, const CoordinationPlugin::CoordinationForce& force,
                               int groups) {
    const OpenMM::State state = context.getState(OpenMM::State::Energy | OpenMM::State::Forces, false, groups);
    return {state.getPotentialEnergy(), force.getCoordination(context), state.getForces()};
}

inline Evaluation evaluationOf(OpenMM::Context& context, const CoordinationPlugin::CoordinationNumberForce&,
                               int groups) {
    // A CoordinationNumberForce has no single s (its values: getCollectiveVariableValues()).
    const OpenMM::State state = context.getState(OpenMM::State::Energy | OpenMM::State::Forces, false, groups);
    return {state.getPotentialEnergy(), std::numeric_limits<double>::quiet_NaN(), state.getForces()};
}

inline ContactMapEvaluation evaluationOf(OpenMM::Context& context, const CoordinationPlugin::ContactMapForce& force,
                                         int groups) {
    const OpenMM::State state = context.getState(OpenMM::State::Energy | OpenMM::State::Forces, false, groups);
    ContactMapEvaluation result{state.getPotentialEnergy(), state.getForces(), {}, {}};
    force.getContactValues(context, result.contactValues);
    force.getCollectiveVariableValues(context, result.variables);
    return result;
}

/**
 * s, the energy and the forces of two evaluations of a CoordinationForce: the first finite, then each within its
 * tolerance of the other's (s and the energy relative to max(|expected|, 1); the forces relative to their RMS, with
 * a floor).
 */
inline void expectSameEvaluation(const Evaluation& actual, const Evaluation& expected, double sTolerance,
                                 double energyTolerance, double forceTolerance, double forceFloor) {
    ASSERT_TRUE(std::isfinite(actual.s)) << "s = " << actual.s;
    ASSERT_TRUE(std::isfinite(actual.energy)) << "energy = " << actual.energy;
    assertAllFinite(actual.forces);
    expectRelativelyNear(actual.s, expected.s, sTolerance, "getCoordination()");
    expectRelativelyNear(actual.energy, expected.energy, energyTolerance, "energy");
    expectForcesNear(actual.forces, expected.forces, forceTolerance, forceFloor);
}

/**
 * A System of particles (masses 1 unless given) holding a copy of a force (CoordinationForce, CoordinationNumberForce
 * or ContactMapForce) and any other forces given after it, and a Context for it at the given positions on the
 * platform under test (or the one given).
 */
template <class ForceType> class TestContext : public SystemContext {
public:
    TestContext(const ForceType& prototype, const std::vector<OpenMM::Vec3>& positions, const Box& box = Box::none(),
                const PlatformCase& platformCase = testPlatform())
        : TestContext(prototype, positions, box, unitMasses(positions.size()), {}, platformCase) {}
    TestContext(const ForceType& prototype, const std::vector<OpenMM::Vec3>& positions, const Box& box,
                const std::vector<double>& masses, const std::vector<OpenMM::Force*>& others,
                const PlatformCase& platformCase = testPlatform())
        : SystemContext(masses, box, withFirst(new ForceType(prototype), others), platformCase),
          force(&dynamic_cast<ForceType&>(getSystem().getForce(0))) {
        getContext().setPositions(positions);
    }
    /** The force in the System (the one updateParametersInContext() reads). */
    ForceType& getForce() { return *force; }
    /** The energy, the forces and the force's own values, of the given force groups. */
    auto evaluate(int groups = -1) { return evaluationOf(getContext(), *force, groups); }

private:
    static std::vector<OpenMM::Force*> withFirst(OpenMM::Force* first, std::vector<OpenMM::Force*> others) {
        others.insert(others.begin(), first);
        return others;
    }
    ForceType* force;
};

using CoordinationContext = TestContext<CoordinationPlugin::CoordinationForce>;
using CoordinationNumberContext = TestContext<CoordinationPlugin::CoordinationNumberForce>;
using ContactMapContext = TestContext<CoordinationPlugin::ContactMapForce>;

/**
 * A System of unit-mass particles whose one force is a CustomCVForce of the given energy with a copy of a force as
 * its collective variable `name`, and a Context for it at the given positions on the platform under test.
 */
template <class ForceType> class CollectiveVariableContext : public SystemContext {
public:
    CollectiveVariableContext(const std::string& energy, const std::string& name, const ForceType& variable,
                              const std::vector<OpenMM::Vec3>& positions)
        : SystemContext(unitMasses(positions.size()), Box::none(), {customCV(energy, name, variable)}) {
        getContext().setPositions(positions);
    }
    OpenMM::CustomCVForce& getCustomCV() { return dynamic_cast<OpenMM::CustomCVForce&>(getSystem().getForce(0)); }
    /** The CustomCVForce's copy of the force. */
    ForceType& getVariable() { return dynamic_cast<ForceType&>(getCustomCV().getCollectiveVariable(0)); }

private:
    static OpenMM::Force* customCV(const std::string& energy, const std::string& name, const ForceType& variable) {
        auto* force = new OpenMM::CustomCVForce(energy);
        force->addCollectiveVariable(name, new ForceType(variable));
        return force;
    }
};

/** Central finite differences of a Context's energy: -dE/dx for every coordinate of every particle. */
inline std::vector<OpenMM::Vec3> finiteDifferenceForces(SystemContext& system,
                                                        const std::vector<OpenMM::Vec3>& positions,
                                                        double step = Tolerance::FiniteDifferenceStep) {
    const std::vector<OpenMM::Vec3> forces =
        centralDifferences(positions, step, [&](const std::vector<OpenMM::Vec3>& at) { return system.energyAt(at); });
    system.getContext().setPositions(positions);
    return forces;
}

} // namespace CoordinationTest

#endif /*COORDINATION_TEST_CONTEXT_H_*/
