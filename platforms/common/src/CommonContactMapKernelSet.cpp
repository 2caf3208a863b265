#include "CommonContactMapKernelSet.h"
#include "CommonCoordinationBox.h"
#include <type_traits>

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

/** Adds a kernel's arguments in order (contactmap.cc's parameter lists); each add returns the index it got. */
class Arguments {
public:
    Arguments(ComputeKernel& kernel, CommonContactMapArrays& arrays) : kernel(kernel), a(arrays) {}
    int add(ArrayInterface& array) {
        kernel->addArg(array);
        return count++;
    }
    template <class T>
    typename std::enable_if<std::is_trivially_copyable<T>::value, int>::type add(const T& value) {
        kernel->addArg(value);
        return count++;
    }
    /** The box's placeholders (CommonCoordinationBox::setArgs fills them); returns the first's index. */
    int addBox(bool useDouble) {
        CommonCoordinationBox::addPlaceholders(*kernel, useDouble);
        const int first = count;
        count += CommonCoordinationBox::NumArgs;
        return first;
    }
    /** GEOMETRY_PARAMS: the box and its vectors' rounding (setGeometryArgs fills them); returns the first's index. */
    int addGeometry(bool useDouble) {
        const int first = addBox(useDouble);
        for (int i = 0; i < 3; i++) {
            if (useDouble)
                add(mm_double4(0, 0, 0, 0));
            else
                add(mm_float4(0, 0, 0, 0));
        }
        return first;
    }
    /** PARTICLE_PARAMS (posqCorrection: posq where there is none; it is then not read). */
    void addParticles(ComputeContext& cc) {
        add(cc.getPosq());
        add(cc.getUseMixedPrecision() ? cc.getPosqCorrection() : cc.getPosq());
        add(a.cellOffsets);
    }
    /** CENTER_GEOMETRY_PARAMS. */
    void addCenterGeometry() {
        add(a.centerPositions);
        add(a.centerOffsets);
        add(a.centerCells);
    }
    /** CONTACT_PARAMS. */
    void addContacts(ComputeContext& cc) {
        addParticles(cc);
        add(a.contactAtoms);
        add(a.contactParams0);
        add(a.contactParams1);
        add(a.contactOrder);
        add(a.contactGradients);
        add(a.contactValues);
    }
    /** CENTER_PARAMS. */
    void addCenters() {
        add(a.centerRanges);
        add(a.centerEntries);
        add(a.centerEntryAtoms);
        add(a.centerWeights);
        add(a.centerForces);
    }
    /** ENERGY_PARAMS; returns addEnergy's index. */
    int addEnergy(ComputeContext& cc) {
        add(a.globals);
        add(a.results);
        add(cc.getEnergyBuffer());
        const int addEnergyArg = add(1);
        add(a.variableDerivatives);
        return addEnergyArg;
    }
    /** DERIVATIVE_PARAMS (OpenMM's buffer is a placeholder until the first evaluation); returns its index. */
    int addParameterDerivatives(const CommonContactMapPlan& plan) {
        if (plan.numParameterDerivatives == 0)
            return -1;
        const int first = add(a.parameterDerivativePlaceholder);
        add(a.parameterDerivativeIndices);
        return first;
    }

private:
    ComputeKernel& kernel;
    CommonContactMapArrays& a;
    int count = 0;
};

} // namespace

void CommonContactMapKernelSet::create(ComputeContext& cc, ComputeProgram& program, const CommonContactMapPlan& plan,
                                       CommonContactMapArrays& a) {
    if (plan.smallMap) {
        mapKernel = program->createKernel("computeContactMap");
        Arguments args(mapKernel, a);
        args.addContacts(cc);
        args.addCenters();
        args.addCenterGeometry();
        mapAddEnergyArg = args.addEnergy(cc);
        args.add(cc.getLongForceBuffer());
        mapComputeGradientArg = args.add(1);
        mapStoreValuesArg = args.add(0);
        mapBoxArg = args.addGeometry(plan.useDouble);
        mapParameterDerivativesArg = args.addParameterDerivatives(plan);
    }
    else {
        if (plan.numCenters > 0) {
            centersKernel = program->createKernel("computeCenterPositions");
            Arguments centers(centersKernel, a);
            centers.addParticles(cc);
            centers.addCenters();
            centers.addCenterGeometry();
            centersBoxArg = centers.addGeometry(plan.useDouble);
            spreadKernel = program->createKernel("spreadCenterForces");
            Arguments spread(spreadKernel, a);
            spread.add(a.centerEntries);
            spread.add(a.centerEntryAtoms);
            spread.add(a.centerWeights);
            spread.add(a.centerForces);
            spread.add(cc.getLongForceBuffer());
        }
        contactsKernel = program->createKernel("computeContacts");
        Arguments contacts(contactsKernel, a);
        contacts.addContacts(cc);
        contacts.addCenterGeometry();
        contacts.add(a.partialSums);
        contacts.add(a.partialFlags);
        contactsComputeGradientArg = contacts.add(1);
        contactsStoreValuesArg = contacts.add(0);
        contactsBoxArg = contacts.addGeometry(plan.useDouble);
        finishKernel = program->createKernel("finishContacts");
        Arguments finish(finishKernel, a);
        finish.add(a.partialSums);
        finish.add(a.partialFlags);
        finish.add(plan.numPartials);
        finish.add(a.centerPositions);
        finishAddEnergyArg = finish.addEnergy(cc);
        finish.add(a.contactAtoms);
        finish.add(a.contactOrder);
        finish.add(a.contactGradients);
        finish.add(a.contactValues);
        finish.add(cc.getLongForceBuffer());
        finish.add(a.centerForces);
        finishComputeGradientArg = finish.add(1);
        finishStoreValuesArg = finish.add(0);
        finishParameterDerivativesArg = finish.addParameterDerivatives(plan);
    }
    invertKernel = program->createKernel("invertAtomOrder");
    Arguments invert(invertKernel, a);
    invert.add(cc.getAtomIndexArray());
    invert.add(a.positionOfParticle);
    invert.add(cc.getNumAtoms());
    translateKernel = program->createKernel("translateContactMembers");
    Arguments translate(translateKernel, a);
    translate.add(a.positionOfParticle);
    translate.add(a.contactParticles);
    translate.add(a.contactAtoms);
    translate.add(a.centerEntries);
    translate.add(a.centerEntryAtoms);
}
