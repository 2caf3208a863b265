#include "contactmap/CommonContactMapKernelSet.h"
#include "engine/CommonKernelArguments.h"

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

typedef CommonKernelArguments Arguments;

/** GEOMETRY_PARAMS: the box and its vectors' rounding (setGeometryArgs fills them); returns the first's index. */
int addGeometry(Arguments& args, bool useDouble) {
    const int first = args.addBox(useDouble);
    for (int i = 0; i < 3; i++) {
        if (useDouble)
            args.add(mm_double4(0, 0, 0, 0));
        else
            args.add(mm_float4(0, 0, 0, 0));
    }
    return first;
}

/** PARTICLE_PARAMS (posqCorrection: posq where there is none; it is then not read). */
void addParticles(Arguments& args, ComputeContext& cc, CommonContactMapArrays& a) {
    args.add(cc.getPosq(), cc.getUseMixedPrecision() ? cc.getPosqCorrection() : cc.getPosq(), a.cellOffsets);
}

/** CONTACT_PARAMS. */
void addContacts(Arguments& args, ComputeContext& cc, CommonContactMapArrays& a) {
    addParticles(args, cc, a);
    args.add(a.contactAtoms, a.contactParams0, a.contactParams1, a.contactOrder, a.contactGradients, a.contactValues);
}

/** MAP_CENTER_PARAMS: the centres' arrays (CommonCenters) and their forces; nothing without centres. */
void addMapCenters(Arguments& args, CommonContactMapArrays& a) {
    if (a.centers.layout.numCenters == 0)
        return;
    a.centers.addMemberArgs(args);
    args.add(a.centers.centerOfEntry, a.centers.centerPositions, a.centerForces);
}

/** ENERGY_PARAMS; returns addEnergy's index. */
int addEnergy(Arguments& args, ComputeContext& cc, CommonContactMapArrays& a, CommonEnergyArrays& energy) {
    args.add(energy.globals, a.results, cc.getEnergyBuffer());
    const int addEnergyArg = args.add(1);
    args.add(a.variableDerivatives);
    return addEnergyArg;
}

} // namespace

void CommonContactMapKernelSet::create(ComputeContext& cc, ComputeProgram& program, const CommonContactMapPlan& plan,
                                       CommonContactMapArrays& a, CommonEnergyArrays& energy) {
    if (plan.smallMap) {
        mapKernel = program->createKernel("computeContactMap");
        Arguments args(mapKernel);
        addContacts(args, cc, a);
        addMapCenters(args, a);
        mapAddEnergyArg = addEnergy(args, cc, a, energy);
        args.add(cc.getLongForceBuffer());
        mapComputeGradientArg = args.add(1);
        mapStoreValuesArg = args.add(0);
        mapBoxArg = addGeometry(args, plan.useDouble);
        args.addParameterDerivatives(energy);
    }
    else {
        contactsKernel = program->createKernel("computeContacts");
        Arguments contacts(contactsKernel);
        addContacts(contacts, cc, a);
        addMapCenters(contacts, a);
        contacts.add(a.partialSums, a.partialFlags);
        contactsComputeGradientArg = contacts.add(1);
        contactsStoreValuesArg = contacts.add(0);
        contactsBoxArg = addGeometry(contacts, plan.useDouble);
        finishKernel = program->createKernel("finishContacts");
        Arguments finish(finishKernel);
        finish.add(a.partialSums, a.partialFlags, plan.numPartials);
        finishAddEnergyArg = addEnergy(finish, cc, a, energy);
        finish.add(a.contactAtoms, a.contactOrder, a.contactGradients, a.contactValues, cc.getLongForceBuffer());
        finishComputeGradientArg = finish.add(1);
        finishStoreValuesArg = finish.add(0);
        addMapCenters(finish, a);
        finish.addParameterDerivatives(energy);
        if (plan.numCenters > 0) {
            spreadKernel = program->createKernel("spreadContactCenterForces");
            Arguments spread(spreadKernel);
            spread.add(cc.getLongForceBuffer());
            addMapCenters(spread, a);
        }
    }
    a.centers.createKernel(cc, program, a.cellOffsets);
    invertKernel = program->createKernel("invertAtomOrder");
    Arguments invert(invertKernel);
    invert.add(cc.getAtomIndexArray(), a.positionOfParticle, cc.getNumAtoms());
    translateKernel = program->createKernel("translateContactMembers");
    Arguments translate(translateKernel);
    translate.add(a.positionOfParticle, a.contactParticles, a.contactAtoms);
    a.centers.addTranslateArgs(translate);
}
