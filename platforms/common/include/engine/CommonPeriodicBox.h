#ifndef COMMON_PERIODIC_BOX_H_
#define COMMON_PERIODIC_BOX_H_

#include "openmm/Vec3.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeKernel.h"

namespace CoordinationPlugin {

/** The periodic box as the kernels receive it (NumArgs arguments), computed once per evaluation. */
struct CommonPeriodicBox {
    static constexpr int NumArgs = 7;
    OpenMM::Vec3 a, b, c;
    double halfWidth2; // (half the smallest distance between opposite faces)^2: below it wrapping is the minimum image
    bool triclinic;

    /** The context's current box. */
    static CommonPeriodicBox current(OpenMM::ComputeContext& cc);
    /** Append the NumArgs box arguments (placeholders; setArgs fills them on each launch). */
    static void addPlaceholders(OpenMM::ComputeKernelImpl& kernel, bool useDouble);
    /** Set the NumArgs box arguments of `kernel` from index `first` on. */
    void setArgs(OpenMM::ComputeKernelImpl& kernel, int first, bool useDouble) const;
};

} // namespace CoordinationPlugin

#endif /*COMMON_PERIODIC_BOX_H_*/
