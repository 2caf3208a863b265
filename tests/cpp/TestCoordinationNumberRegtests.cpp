/*
 * CoordinationNumberForce against PLUMED's own printed numbers: its symfunc regression tests (tests/data/plumed/
 * symfunc-*), the same trajectory and inputs, the values and forces PLUMED printed.
 */

#include "CoordinationNumberForce.h"
#include "CoordinationTestUtilities.h"
#include "PlumedTestSupport.h"
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;
typedef CoordinationNumberForce Numbers;

namespace {

/** The trajectory's 108 atoms in its periodic box holding the given forces (force group i the i-th), and a Context. */
SystemContext plumedSystem(const std::vector<Numbers*>& forces, double edge) {
    for (size_t i = 0; i < forces.size(); i++)
        forces[i]->setForceGroup(i);
    return SystemContext(unitMasses(108), Box::cube(edge), std::vector<OpenMM::Force*>(forces.begin(), forces.end()));
}

/** PLUMED's atoms first to last (numbered from 1) as particle indices. */
std::vector<int> atoms(int first, int last) { return indices(last - first + 1, first - 1); }

} // namespace

TEST(PlumedSymfuncRegtests, MoreThanOfCoordinationNumbersAndTheForcesOfItsRestraint) {
    // symfunc-rt20: c2: COORDINATIONNUMBER SPECIES=1-5 SWITCH={RATIONAL R_0=0.5} MORE_THAN={EXP R_0=4.0}, and
    // RESTRAINT ARG=c2_morethan AT=0.1 KAPPA=10 (forces.reference: the forces of that bias alone).
    for (int frame = 0; frame < 5; frame++) {
        double edge;
        const std::vector<Vec3> positions = trajectoryFrame(frame, edge);
        auto* force = new Numbers("0.5*10*(c2_morethan-0.1)^2");
        force->setGroupA(atoms(1, 5));
        force->setR0(0.5);
        force->setDMax(Infinity);
        force->setUsesPeriodicBoundaryConditions(true);
        force->addReduction(Numbers::MoreThan, "EXP R_0=4.0", "c2_morethan");
        SystemContext plumed = plumedSystem({force}, edge);
        plumed.getContext().setPositions(positions);
        std::vector<double> values;
        force->getCollectiveVariableValues(plumed.getContext(), values);
        EXPECT_NEAR(values[0], printedValues("symfunc-rt20/colv2.reference", frame)[0], printed(4))
            << "frame " << frame;
        // forces.reference: per frame the atom count, the virial line, then "X fx fy fz" for the 108 atoms.
        std::ifstream in(std::string(COORDINATION_TEST_DATA) + "/plumed/symfunc-rt20/forces.reference");
        std::string line;
        for (int skip = 0; skip < frame * 110 + 2; skip++)
            std::getline(in, line);
        const std::vector<Vec3> forces = plumed.getContext().getState(OpenMM::State::Forces).getForces();
        for (int atom = 0; atom < 108; atom++) {
            std::getline(in, line);
            std::istringstream row(line);
            std::string name;
            Vec3 expected;
            row >> name >> expected[0] >> expected[1] >> expected[2];
            for (int axis = 0; axis < 3; axis++)
                EXPECT_NEAR(forces[atom][axis], expected[axis], printed(4))
                    << "frame " << frame << " atom " << atom + 1;
        }
    }
}

TEST(PlumedSymfuncRegtests, PerAtomNumbersOfSpeciesAWithSpeciesB) {
    // symfunc-rt-single-groupb: c1: COORDINATIONNUMBER SPECIESA=1-5 SPECIESB=6 SWITCH={RATIONAL R_0=1.0}.
    for (int frame = 0; frame < 5; frame++) {
        double edge;
        const std::vector<Vec3> positions = trajectoryFrame(frame, edge);
        auto* force = new Numbers();
        force->setMode(CoordinationForce::Dual);
        force->setGroupA(atoms(1, 5));
        force->setGroupB(atoms(6, 6));
        force->setR0(1.0);
        force->setDMax(Infinity);
        force->setUsesPeriodicBoundaryConditions(true);
        SystemContext plumed = plumedSystem({force}, edge);
        plumed.getContext().setPositions(positions);
        std::vector<double> numbers;
        force->getCoordinationNumbers(plumed.getContext(), numbers);
        const std::vector<double> expected = printedValues("symfunc-rt-single-groupb/colvar.reference", frame);
        ASSERT_EQ(numbers.size(), expected.size());
        for (size_t i = 0; i < numbers.size(); i++)
            EXPECT_NEAR(numbers[i], expected[i], printed(4)) << "frame " << frame << " c1." << i + 1;
    }
}

TEST(PlumedSymfuncRegtests, MeansOfCoordinationNumbersAndOfTheirDistanceMoments) {
    // symfunc-rt-coordination-powers-multi: MEAN of COORDINATIONNUMBER and of COORDINATION_MOMENTS R_POWER=1 and 2,
    // SPECIES=1-10 SWITCH={RATIONAL R_0=1.0 D_MAX=8}.
    for (int frame = 0; frame < 5; frame++) {
        double edge;
        const std::vector<Vec3> positions = trajectoryFrame(frame, edge);
        std::vector<Numbers*> forces;
        for (int power = 0; power < 3; power++) {
            auto* force = new Numbers();
            force->setGroupA(atoms(1, 10));
            force->setR0(1.0);
            force->setDMax(8.0);
            force->setRPower(power);
            force->setUsesPeriodicBoundaryConditions(true);
            force->addReduction(Numbers::Mean);
            forces.push_back(force);
        }
        SystemContext plumed = plumedSystem(forces, edge);
        plumed.getContext().setPositions(positions);
        const std::vector<double> expected =
            printedValues("symfunc-rt-coordination-powers-multi/cn_out.reference", frame);
        for (int power = 0; power < 3; power++) {
            std::vector<double> values;
            forces[power]->getCollectiveVariableValues(plumed.getContext(), values);
            EXPECT_NEAR(values[0], expected[power], printed(6)) << "frame " << frame << " cn" << power << "_mean";
        }
    }
}
