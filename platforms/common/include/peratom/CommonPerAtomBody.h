#ifndef COMMON_PER_ATOM_BODY_H_
#define COMMON_PER_ATOM_BODY_H_

#include "energy/CommonEnergyArrays.h"
#include "internal/forces/ResolvedPerAtomForce.h"
#include "pairs/CommonPairBody.h"
#include "peratom/CommonLocalStepArrays.h"
#include "peratom/CommonPerAtomArrays.h"
#include "peratom/CommonPerAtomKernelSet.h"
#include "peratom/CommonPerAtomPlan.h"

namespace CoordinationPlugin {

/**
 * The per-atom engine's body of the pair traversal (kernels/peratom, compiled into the tile kernel as
 * COORDINATION_NUMBERS): pass 1 adds each counted pair's term to its entries' per-atom values, the finish's phases
 * reduce them and evaluate the energy and each entry's weight, pass 2 adds the weighted gradient to the gradient
 * rows, which the traversal's force finish applies (with dE/ds = 1). The entries belong to group A: the groups are
 * never exchanged, and a pair of one member drops out by its distance.
 */
class CommonPerAtomBody : public CommonPairBody {
public:
    CommonPerAtomBody(const ResolvedPerAtomForce& force, CommonEnergyArrays& energy,
                      CommonLocalStepArrays* local = nullptr);
    bool symmetricInGroups() const override { return false; }
    bool needsSameMemberCheck() const override { return false; }
    /** With a local step the finish runs in phases around the local traversal's passes, never in pass 1. */
    bool allowsFusedFinish() const override { return local == nullptr; }
    void initialize(OpenMM::ComputeContext& cc, const CommonPairPlan& plan) override;
    std::string addToProgram(OpenMM::ComputeContext& cc, const CommonPairPlan& plan,
                             std::map<std::string, std::string>& defines,
                             std::map<std::string, std::string>& replacements) override;
    void addPairKernelArgs(CommonKernelArguments& args) override;
    void addGatherArgs(CommonKernelArguments& args, bool groupB) override;
    void createKernels(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonPairPlan& plan,
                       CommonPairArrays& pairs) override;
    /** Which pass the pair kernel runs next (1: the values, 2: the forces). */
    void setPass(OpenMM::ComputeKernel& pairKernel, int pass);
    /** The finish between the passes, where pass 1's last block does not run it. */
    void finish(int parity, bool addEnergy);
    /** With a local step: the local vectors of pass 1's values (before the local traversal's pass 1). */
    void computeLocalVectors(int parity);
    /** With a local step: s, the reductions, E and the local step's weights G (after the local traversal's pass 1). */
    void finishLocalValues(int parity);
    /** With a local step: dE/dv from dE/du (after the local traversal's pass of G), then E into the energy. */
    void finishLocalWeights(bool addEnergy);
    CommonPerAtomArrays& getArrays() { return arrays; }
    const CommonPerAtomPlan& getPlan() const { return plan; }

private:
    const ResolvedPerAtom perAtom;
    const ResolvedEnergy energyOfReductions;
    const std::string forceClass;
    const int numCentral; // the entries with a number (ResolvedPerAtomForce::numCentral)
    const int numOwnB;    // B's entries that pair with the centrals where the neighbours have partners, else -1
    CommonEnergyArrays& energy;
    CommonLocalStepArrays* local; // the local step's arrays (not owned), or null
    CommonPerAtomPlan plan;
    CommonPerAtomArrays arrays;
    CommonPerAtomKernelSet kernels;
    int passArg = -1;
};

} // namespace CoordinationPlugin

#endif /*COMMON_PER_ATOM_BODY_H_*/
