#include "internal/forces/PerAtomForceImpl.h"
#include "internal/peratom/ReductionResolution.h"
#include "openmm/OpenMMException.h"
#include <set>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;

ResolvedPerAtomForce PerAtomForceResolution::resolve(const PerAtomForce& force, ResolvedCenters centers,
                                                     ResolvedPerAtom perAtom, const string& values) {
    ResolvedPerAtomForce resolved;
    static_cast<ResolvedPairGroups&>(resolved) = ResolvedPairGroups::resolve(force, std::move(centers));
    if (force.getMode() == PairSwitchingForce::Pair)
        throw OpenMMException(force.getForceClassName() + ": Pair mode has no per-atom " + values +
                              "; use Self mode (PLUMED's SPECIES) or Dual mode (SPECIESA and SPECIESB)");
    resolved.forceClass = force.getForceClassName();
    resolved.perAtom = std::move(perAtom);
    resolved.numCentral = resolved.groupA.size();
    const PerAtomForce::LocalStep local = force.getLocalStep();
    if (!force.getLocalNeighbors().empty()) {
        if (local == PerAtomForce::NoLocalStep)
            throw OpenMMException(force.getForceClassName() + ": local neighbours (setLocalNeighbors(), " +
                                  std::to_string(force.getLocalNeighbors().size()) + " atoms) are for a local step, "
                                  "and this force has none; set one with setLocalStep(), or clear the list");
        resolved.appendToGroupA(force.getLocalNeighbors(), force.getForceClassName() + ": ",
                                "'local neighbours' (setLocalNeighbors())");
    }
    resolved.numOwnB = resolved.groupB.size();
    if (!force.getLocalNeighborPartners().empty()) {
        if (force.getLocalNeighbors().empty())
            throw OpenMMException(force.getForceClassName() + ": the local neighbours' partners "
                                  "(setLocalNeighborPartners(), " + std::to_string(force.getLocalNeighborPartners().size()) +
                                  " atoms) give local neighbours their values, and this force has none; set them with "
                                  "setLocalNeighbors(), or clear the list");
        resolved.appendToGroupB(force.getLocalNeighborPartners(), force.getForceClassName() + ": ",
                                "'local neighbour partners' (setLocalNeighborPartners())");
    }
    if (local == PerAtomForce::LocalDotProduct && resolved.perAtom.pairTerm != ResolvedPerAtom::PairTerm::SphericalHarmonics)
        throw OpenMMException(force.getForceClassName() + ": the local step LocalDotProduct (PLUMED's LOCAL_Q_l) is of "
                              "a SteinhardtForce's q_l vectors; its " + values + " are numbers: use LocalAverage, or "
                              "NoLocalStep");
    resolved.perAtom.localStep = (local == PerAtomForce::LocalAverage      ? ResolvedPerAtom::LocalStep::Average
                                  : local == PerAtomForce::LocalDotProduct ? ResolvedPerAtom::LocalStep::DotProduct
                                                                           : ResolvedPerAtom::LocalStep::None);
    if (local != PerAtomForce::NoLocalStep) {
        SwitchingFunctionConstants switching = SwitchingFunctionConstants::resolve(
            force.getLocalSwitchingSettings(), force.getForceClassName() + ": the local step's switching function: ");
        // Copied by construction and moved in (ResolvedPairGroups says why).
        ResolvedPairGroups pairs(static_cast<const ResolvedPairGroups&>(resolved));
        pairs.mode = PairSwitchingForce::Self;
        pairs.groupB.clear();
        pairs.uniqueB.clear();
        pairs.sameAtomPossible = (std::set<int>(pairs.groupA.begin(), pairs.groupA.end()).size() != pairs.groupA.size());
        pairs.switching = std::move(switching);
        resolved.localPairs = std::move(pairs);
    }
    resolved.perAtom.reductions = ReductionResolution::resolve(force, force.getGroupA().size());
    for (const ResolvedReduction& reduction : resolved.perAtom.reductions) {
        if (!reduction.vector)
            continue;
        const string what = force.getForceClassName() + ": reduction \"" + reduction.name + "\" (" +
                            (reduction.type == PerAtomForce::VectorMean ? "VectorMean, PLUMED's VMEAN" : "VectorSum, PLUMED's VSUM") + ")";
        if (resolved.perAtom.pairTerm != ResolvedPerAtom::PairTerm::SphericalHarmonics)
            throw OpenMMException(what + " is of a SteinhardtForce's q_l vectors; this force's " + values +
                                  " are numbers: use Mean or Sum");
        if (local != PerAtomForce::NoLocalStep)
            throw OpenMMException(what + " is of the q_l vectors, which a local step replaces by its numbers s_i "
                                  "(PLUMED's LOCAL_Q_l and LOCAL_AVERAGE have no VMEAN or VSUM): use Mean or Sum, or "
                                  "put it on a SteinhardtForce of its own without the local step");
    }
    resolved.energy = ResolvedEnergy::resolve(
        force, {"a reduction's name",
                "add a reduction of that name with addReduction(), or a global parameter with addGlobalParameter()"});
    return resolved;
}


void PerAtomForceResolution::checkUpdatable(const ResolvedPerAtomForce& before, const ResolvedPerAtomForce& after) {
    if (before.perAtom.localStep != after.perAtom.localStep)
        throw OpenMMException(before.forceClass + ": updateParametersInContext cannot change the local step (the "
                              "Context's kernel is chosen by it); create a new Context, or call reinitialize()");
    ResolvedEnergy::checkUpdatable(before.energy, after.energy, before.forceClass,
                                   "cannot add, remove or rename reductions (the energy's variables)");
}
