#ifndef COMMON_CONTACTMAP_KERNEL_SET_H_
#define COMMON_CONTACTMAP_KERNEL_SET_H_

#include "contactmap/CommonContactMapArrays.h"
#include "contactmap/CommonContactMapPlan.h"
#include "energy/CommonEnergyArrays.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeKernel.h"
#include "openmm/common/ComputeProgram.h"

namespace CoordinationPlugin {

/**
 * The kernels of a ContactMapForce's program, with their arguments. Each argument that changes at run time has its
 * index recorded as it is added (the *Arg members; -1 where the kernel does not exist or has no such argument).
 */
struct CommonContactMapKernelSet {
    /** Create the kernels the plan launches from `program`, their arguments pointing at `arrays`. */
    void create(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonContactMapPlan& plan,
                CommonContactMapArrays& arrays, CommonEnergyArrays& energy);

    // SMALL_MAP: everything in one launch.
    OpenMM::ComputeKernel mapKernel;
    int mapComputeGradientArg = -1, mapStoreValuesArg = -1, mapAddEnergyArg = -1, mapBoxArg = -1;
    // Otherwise: the contacts, the finish, the spread (with centres). The centres' positions: CommonCenters.
    OpenMM::ComputeKernel contactsKernel, finishKernel, spreadKernel;
    int contactsComputeGradientArg = -1, contactsStoreValuesArg = -1, contactsBoxArg = -1;
    int finishAddEnergyArg = -1, finishComputeGradientArg = -1, finishStoreValuesArg = -1;
    // Following OpenMM's reordering of the atoms.
    OpenMM::ComputeKernel invertKernel, translateKernel;
};

} // namespace CoordinationPlugin

#endif /*COMMON_CONTACTMAP_KERNEL_SET_H_*/
