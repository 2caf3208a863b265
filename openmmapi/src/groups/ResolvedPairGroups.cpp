#include "internal/groups/ResolvedPairGroups.h"
#include "openmm/OpenMMException.h"
#include <map>
#include <set>
#include <string>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

namespace {

/**
 * The member id of a group entry (a particle index, or a centre's id -1 - k: numParticles + k), or an
 * OpenMMException, starting with prefix, naming the entry and what is allowed.
 */
int memberOfEntry(const ResolvedCenters& centers, int entry, const string& prefix, const string& groupName, int slot) {
    const int numParticles = centers.numParticles, numCenters = centers.size();
    const string what =
        "group " + groupName + " entry " + std::to_string(slot) + " is atom index " + std::to_string(entry);
    if (entry >= numParticles)
        throw OpenMMException(prefix + what + ", but the System has " + std::to_string(numParticles) +
                              " particles; use indices 0 to " + std::to_string(numParticles - 1) +
                              (numCenters > 0 ? ", or a centre's id" : ""));
    if (entry < 0 && -1 - (long long)entry >= numCenters)
        throw OpenMMException(
            prefix + what + ", which is not the id of a centre of this force (it has " + std::to_string(numCenters) +
            (numCenters == 1 ? " centre" : " centres") +
            (numCenters > 0 ? ", ids -1 to " + std::to_string(-numCenters) : "") +
            "); a negative entry stands for a centre: use the id addCenter() returned, or a particle: "
            "the System has " +
            std::to_string(numParticles) + " particles; use indices 0 to " + std::to_string(numParticles - 1));
    return centers.memberOf(entry, prefix + "group " + groupName + " entry " + std::to_string(slot));
}

/** The member ids of a group's entries, in order (memberOfEntry, whose errors name the group and the entry). */
vector<int> membersOfEntries(const ResolvedCenters& centers, const vector<int>& entries, const string& prefix,
                             const string& groupName) {
    vector<int> members;
    for (int slot = 0; slot < (int)entries.size(); slot++)
        members.push_back(memberOfEntry(centers, entries[slot], prefix, groupName, slot));
    return members;
}

} // namespace

ResolvedPairGroups ResolvedPairGroups::resolve(const PairSwitchingForce& force, ResolvedCenters centers) {
    const string prefix = force.getForceClassName() + ": ";
    auto fail = [&prefix](const string& message) { throw OpenMMException(prefix + message); };
    const vector<int>& groupA = force.getGroupA();
    const vector<int>& groupB = force.getGroupB();
    const PairSwitchingForce::Mode mode = force.getMode();
    if (groupA.empty())
        fail("group A is empty; set the atoms with setGroupA()");
    const vector<int> membersA = membersOfEntries(centers, groupA, prefix, "A");
    const vector<int> membersB = membersOfEntries(centers, groupB, prefix, "B");
    if (mode == PairSwitchingForce::Self && !groupB.empty())
        fail("Self mode uses group A only, but group B has " + std::to_string(groupB.size()) +
             " atoms; use setMode(Dual) for A x B pairs, or clear group B");
    if (mode == PairSwitchingForce::Dual && groupB.empty())
        fail("Dual mode needs a non-empty group B; set it with setGroupB(), or use Self mode");
    if (mode == PairSwitchingForce::Pair && groupA.size() != groupB.size())
        fail("Pair mode pairs A[k] with B[k], but group A has " + std::to_string(groupA.size()) +
             " atoms and group B has " + std::to_string(groupB.size()) + "; give both groups the same length");
    ResolvedPairGroups resolved;
    resolved.switching = SwitchingFunctionConstants::resolve(force.getSwitchingSettings(), prefix);

    resolved.mode = mode;
    resolved.periodic = force.usesPeriodicBoundaryConditions();
    resolved.groupA = membersA;
    if (mode != PairSwitchingForce::Self)
        resolved.groupB = membersB;
    resolved.centers = std::move(centers);
    resolved.indexMembers();
    return resolved;
}

void ResolvedPairGroups::appendToGroupA(const vector<int>& entries, const string& prefix, const string& groupName) {
    if (mode == PairSwitchingForce::Pair)
        throw OpenMMException(prefix + "group " + groupName + " cannot extend a Pair mode's group A");
    const vector<int> members = membersOfEntries(centers, entries, prefix, groupName);
    if (mode == PairSwitchingForce::Self) {
        mode = PairSwitchingForce::Dual;
        groupB = groupA;
    }
    groupA.insert(groupA.end(), members.begin(), members.end());
    indexMembers();
}

void ResolvedPairGroups::appendToGroupB(const vector<int>& entries, const string& prefix, const string& groupName) {
    if (mode != PairSwitchingForce::Dual)
        throw OpenMMException(prefix + "group " + groupName + " extends group B of a Dual mode only");
    const vector<int> members = membersOfEntries(centers, entries, prefix, groupName);
    groupB.insert(groupB.end(), members.begin(), members.end());
    indexMembers();
}

void ResolvedPairGroups::indexMembers() {
    // The map of the slots to the unique members (one gradient row each).
    std::set<int> unique(groupA.begin(), groupA.end());
    unique.insert(groupB.begin(), groupB.end());
    uniqueParticles.assign(unique.begin(), unique.end());
    std::map<int, int> uniqueIndex;
    for (int i = 0; i < (int)uniqueParticles.size(); i++)
        uniqueIndex[uniqueParticles[i]] = i;
    uniqueA.clear();
    uniqueB.clear();
    for (int member : groupA)
        uniqueA.push_back(uniqueIndex[member]);
    for (int member : groupB)
        uniqueB.push_back(uniqueIndex[member]);
    sameAtomPossible = false;
    if (mode == PairSwitchingForce::Self)
        sameAtomPossible = (unique.size() != groupA.size());
    else if (mode == PairSwitchingForce::Dual) {
        const std::set<int> setA(groupA.begin(), groupA.end());
        for (int member : groupB)
            sameAtomPossible = sameAtomPossible || setA.count(member) > 0;
    }
    // The coordinates read: the groups' particles and their centres' particles.
    std::set<int> input;
    for (int member : unique) {
        if (!centers.isCenter(member))
            input.insert(member);
        else {
            const vector<int>& particles = centers.particles[member - centers.numParticles];
            input.insert(particles.begin(), particles.end());
        }
    }
    inputParticles.assign(input.begin(), input.end());
}
