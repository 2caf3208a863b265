#ifndef REFERENCE_COORDINATION_KERNEL_FACTORY_H_
#define REFERENCE_COORDINATION_KERNEL_FACTORY_H_

#include "openmm/KernelFactory.h"

namespace CoordinationPlugin {

/**
 * Creates the CoordinationForce kernel for the Reference platform (and for the CPU platform, whose
 * contexts carry the Reference platform's data).
 */
class ReferenceCoordinationKernelFactory : public OpenMM::KernelFactory {
public:
    OpenMM::KernelImpl* createKernelImpl(std::string name, const OpenMM::Platform& platform,
                                         OpenMM::ContextImpl& context) const override;
};

} // namespace CoordinationPlugin

#endif /*REFERENCE_COORDINATION_KERNEL_FACTORY_H_*/
