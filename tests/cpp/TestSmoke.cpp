#include "CoordinationForce.h"
#include "openmm/Context.h"
#include "openmm/Platform.h"
#include "openmm/System.h"
#include "openmm/VerletIntegrator.h"
#include <gtest/gtest.h>

extern "C" void registerCoordinationReferenceKernelFactories();

using namespace CoordinationPlugin;
using namespace OpenMM;

TEST(Smoke, TwoAtomsAtR0GiveOneHalf) {
    registerCoordinationReferenceKernelFactories();
    System system;
    system.addParticle(1.0);
    system.addParticle(1.0);
    CoordinationForce* force = new CoordinationForce("s");
    force->setGroupA({0, 1});
    force->setR0(0.3);
    force->setDMax(std::numeric_limits<double>::infinity());
    system.addForce(force);
    VerletIntegrator integrator(0.001);
    Context context(system, integrator, Platform::getPlatformByName("Reference"));
    context.setPositions({Vec3(0, 0, 0), Vec3(0.3, 0, 0)});
    EXPECT_NEAR(force->getCoordination(context), 0.5, 1e-12);
}
