#ifndef COMMON_CELL_OFFSETS_H_
#define COMMON_CELL_OFFSETS_H_

#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeVectorTypes.h"
#include <vector>

namespace CoordinationPlugin {

/**
 * The periodic cells by which OpenMM wrapped the particles a kernel reads where it must see them as the user gave
 * them (a force without periodic boundary conditions, a centre that is not made whole): OpenMM's host-side cell
 * offsets change when it wraps atoms (at reorders, on setPositions), so they are compared on the host every
 * evaluation and uploaded only on a change, into a device array of int4 per row.
 */
class CommonCellOffsets {
public:
    CommonCellOffsets() = default;
    /** particles: the particle of each row of the device array (-1: none); rows: the array's size. */
    CommonCellOffsets(const std::vector<int>& particles, int rows);
    /** Whether there is anything to follow. */
    bool empty() const { return particles.empty(); }
    /** After a reordering of the atoms (and at the first build): where each particle is now. */
    void followAtomOrder(OpenMM::ComputeContext& cc);
    /** Upload the rows' offsets if any changed since the last upload. */
    void update(OpenMM::ComputeContext& cc, OpenMM::ComputeArray& cellOffsets);

private:
    std::vector<int> particles;
    std::vector<int> positionOfParticle;     // each particle's current atom (host copy of the order)
    std::vector<OpenMM::mm_int4> uploaded;   // per row, as the device holds them
};

} // namespace CoordinationPlugin

#endif /*COMMON_CELL_OFFSETS_H_*/
