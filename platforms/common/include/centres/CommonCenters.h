#ifndef COMMON_CENTERS_H_
#define COMMON_CENTERS_H_

#include "centres/CommonCenterLayout.h"
#include "engine/CommonKernelArguments.h"
#include "engine/CommonPeriodicBox.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeKernel.h"
#include "openmm/common/ComputeProgram.h"
#include <map>
#include <string>

namespace CoordinationPlugin {

/**
 * The device side of a force's centres (kernels/centres/centers.cc): one layout of arrays, uploaded once per build
 * (per member entry its particle, current atom, centre, w_j / W and T_j / W; per centre its first entry (and the
 * end), whether it is made whole, and its position this evaluation), the program's defines, the kernels' centre
 * arguments (CENTER_KERNEL_PARAMS, CENTER_FINISH_PARAMS) and, for centres too large for every block,
 * computeCenterPositions, launched before the kernels that read positions.
 */
class CommonCenters {
public:
    /**
     * Allocate and upload (array names start with prefix). useDouble: the kernels' real is double;
     * positionCorrection: the program reads posq plus posqCorrection (USE_POSQ_CORRECTION: mixed precision in a
     * program whose real is double).
     */
    void initialize(OpenMM::ComputeContext& cc, const CommonCenterLayout& layout, const ResolvedCenters& centers,
                    bool useDouble, bool positionCorrection, const std::string& prefix);
    /**
     * The defines of centers.cc (none without centres); offsetBase: the row of cellOffsets at which the entries'
     * cell offsets start (where the layout's entries are unwrapped).
     */
    void addDefines(OpenMM::ComputeContext& cc, int offsetBase, std::map<std::string, std::string>& defines) const;
    /** CENTER_KERNEL_PARAMS: the member arrays where every block computes the centres, else their positions. */
    void addPositionArgs(CommonKernelArguments& args);
    /**
     * CENTER_FINISH_PARAMS (the spread of the centres' gradient rows); in a kernel that also has CENTER_KERNEL_PARAMS
     * (withPositionArgs), only what those lack (CENTER_FUSED_FINISH_PARAMS).
     */
    void addFinishArgs(CommonKernelArguments& args, bool withPositionArgs = false);
    /** CENTER_MEMBER_PARAMS: what blockCenterPosition reads. */
    void addMemberArgs(CommonKernelArguments& args);
    /** The entries' particles and current atoms (reorder.cc: CENTER_TRANSLATE_PARAMS). */
    void addTranslateArgs(CommonKernelArguments& args);
    /** Create computeCenterPositions where the layout needs it (cellOffsets: the kernels' cell offsets). */
    void createKernel(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, OpenMM::ComputeArray& cellOffsets);
    /** Compute the centres' positions into centerPositions, where no block computes them itself. */
    void computePositions(const CommonPeriodicBox& box);

    CommonCenterLayout layout;
    OpenMM::ComputeArray centerParticles, centerAtoms, centerOfEntry, centerForceWeights, centerDifferenceWeights;
    OpenMM::ComputeArray centerFirstEntry, centerWhole, centerPositions;

private:
    bool useDouble = false, positionCorrection = false;
    OpenMM::ComputeKernel positionsKernel;
    int positionsBoxArg = -1;
};

} // namespace CoordinationPlugin

#endif /*COMMON_CENTERS_H_*/
