#ifndef COMMON_PER_ATOM_PLAN_H_
#define COMMON_PER_ATOM_PLAN_H_

#include "internal/energy/ResolvedEnergy.h"
#include "internal/peratom/ResolvedPerAtom.h"
#include "pairs/CommonPairPlan.h"
#include "openmm/common/ComputeContext.h"
#include <string>

namespace CoordinationPlugin {

/**
 * What the per-atom engine's GPU finish (kernels/peratom) builds, decided once from the resolved force and the pair
 * traversal's plan: its phases' blocks over the entries of A and its reductions.
 */
struct CommonPerAtomPlan {
    /**
     * The threads of the finish's blocks: the phases in one block (the energy, its addition) have BlockSize; those
     * over the entries one block of partBlockSize (64, 128 or BlockSize) per part.
     */
    static constexpr int BlockSize = 256;
    /**
     * The most reductions of one force: each is compiled into the finish's kernels, whose compilation time grows
     * faster than their count (docs/DESIGN.md, the per-atom engine).
     */
    static constexpr int MaxReductions = 32;

    /**
     * energy: the energy of the reductions; pairs: the traversal's plan; numCentral: the entries with a number
     * (ResolvedPerAtomForce::numCentral); forceClass: the force's class (messages).
     */
    static CommonPerAtomPlan create(const ResolvedPerAtom& perAtom, const ResolvedEnergy& energy,
                                    const CommonPairPlan& pairs, int numCentral, int numOwnB, OpenMM::ComputeContext& cc,
                                    const std::string& forceClass);

    int numA = 0;                 // the entries (group A's slots)
    int numCentral = 0;           // the first entries, those with a number (all but the local step's neighbours)
    int numB = 0;
    int numOwnB = -1;             // with the local neighbours' own partners: B's entries that pair with the centrals
                                  // (ResolvedPerAtomForce::countsPair), else -1
    bool hasNeighborPartners() const { return numOwnB >= 0; }
    int numComponents = 1;        // values per entry (ResolvedPerAtom::numComponents)
    int numReductions = 0;
    int numVectorComponents = 0;  // the size of the entries' vectors where VectorMean or VectorSum needs them, else 0
    int numParameterDerivatives = 0;
    int numParts = 0;             // blocks of the phases over the entries (a partial sum each)
    int partBlockSize = BlockSize; // their threads: the fewest of 64, 128, 256 with numParts <= getNumThreadBlocks()
    bool secondPass = false;      // a reduction of c_i - mean or a log-sum-exp (an extra phase)
    bool useDouble = false, mixedIsDouble = false;
    bool fusedFinish = false;     // pass 1's last block runs every phase (the traversal's fused finish)
};

} // namespace CoordinationPlugin

#endif /*COMMON_PER_ATOM_PLAN_H_*/
