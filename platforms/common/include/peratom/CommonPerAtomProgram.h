#ifndef COMMON_PER_ATOM_PROGRAM_H_
#define COMMON_PER_ATOM_PROGRAM_H_

#include "internal/energy/ResolvedEnergy.h"
#include "internal/peratom/ResolvedPerAtom.h"
#include "peratom/CommonPerAtomPlan.h"
#include "openmm/common/ComputeContext.h"
#include <map>
#include <string>

namespace CoordinationPlugin {

/** The per-atom engine's part of the pair traversal's program: its defines and the code generated for its finish. */
struct CommonPerAtomProgram {
    /** perAtom: the engine's composition and reductions; energyOfReductions: the force's energy. */
    static void addToProgram(OpenMM::ComputeContext& cc, const CommonPerAtomPlan& plan, const ResolvedPerAtom& perAtom,
                             const ResolvedEnergy& energyOfReductions, std::map<std::string, std::string>& defines,
                             std::map<std::string, std::string>& replacements);

private:
    /** A ShellFunction's defines and the generated code of its parts. */
    static void addShellFunction(OpenMM::ComputeContext& cc, const ResolvedPerAtom& perAtom,
                                 std::map<std::string, std::string>& defines,
                                 std::map<std::string, std::string>& replacements);
};

} // namespace CoordinationPlugin

#endif /*COMMON_PER_ATOM_PROGRAM_H_*/
