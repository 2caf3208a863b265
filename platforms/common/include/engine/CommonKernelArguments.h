#ifndef COMMON_KERNEL_ARGUMENTS_H_
#define COMMON_KERNEL_ARGUMENTS_H_

#include "energy/CommonEnergyArrays.h"
#include "engine/CommonPeriodicBox.h"
#include "openmm/common/ArrayInterface.h"
#include "openmm/common/ComputeKernel.h"
#include <type_traits>

namespace CoordinationPlugin {

/**
 * Adds a kernel's arguments in the order of its parameter list; each add returns the index the argument got, so that
 * the arguments that change at run time are set through recorded indices. Every GPU kernel of the plugin creates its
 * kernels' arguments with it.
 */
class CommonKernelArguments {
public:
    explicit CommonKernelArguments(OpenMM::ComputeKernel& kernel) : kernel(kernel) {}
    int add(OpenMM::ArrayInterface& array) {
        kernel->addArg(array);
        return count++;
    }
    template <class T>
    typename std::enable_if<std::is_trivially_copyable<T>::value, int>::type add(const T& value) {
        kernel->addArg(value);
        return count++;
    }
    /** Several arguments in order (arrays and trivially copyable values). */
    template <class First, class Second, class... Rest>
    void add(First&& first, Second&& second, Rest&&... rest) {
        add(first);
        add(second, rest...);
    }
    /** BOX_PARAMS: the box's placeholders (CommonPeriodicBox::setArgs fills them); returns the first's index. */
    int addBox(bool useDouble) {
        CommonPeriodicBox::addPlaceholders(*kernel, useDouble);
        const int first = count;
        count += CommonPeriodicBox::NumArgs;
        return first;
    }
    /**
     * DERIVATIVE_PARAMS, where the energy has parameter derivatives: OpenMM's buffer (a placeholder until the first
     * evaluation connects it: CommonBiasKernelBase) and the indices into it.
     */
    void addParameterDerivatives(CommonEnergyArrays& energy) {
        if (energy.numParameterDerivatives == 0)
            return;
        energy.parameterDerivativeUsers.push_back({kernel, add(energy.parameterDerivativePlaceholder)});
        add(energy.parameterDerivativeIndices);
    }
    /** The kernel the arguments are added to. */
    OpenMM::ComputeKernel& getKernel() { return kernel; }

private:
    OpenMM::ComputeKernel& kernel;
    int count = 0;
};

} // namespace CoordinationPlugin

#endif /*COMMON_KERNEL_ARGUMENTS_H_*/
