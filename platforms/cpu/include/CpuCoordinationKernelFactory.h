#ifndef CPU_COORDINATION_KERNEL_FACTORY_H_
#define CPU_COORDINATION_KERNEL_FACTORY_H_

#include "openmm/KernelFactory.h"

namespace CoordinationPlugin {

/**
 * Creates the CPU platform's kernels: CoordinationForce's, CoordinationNumberForce's and ContactMapForce's.
 */
class CpuCoordinationKernelFactory : public OpenMM::KernelFactory {
public:
    OpenMM::KernelImpl* createKernelImpl(std::string name, const OpenMM::Platform& platform,
                                         OpenMM::ContextImpl& context) const override;
};

} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_KERNEL_FACTORY_H_*/
