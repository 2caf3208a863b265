#include "coordination/CommonSwitchSumBody.h"
#include "energy/CommonEnergyCode.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::map;
using std::string;

string CommonSwitchSumBody::addToProgram(ComputeContext& cc, const CommonPairPlan& plan, map<string, string>& defines,
                                         map<string, string>& replacements) {
    // finish.cc: E(s) and dE/ds (into dEdS), the global parameters read from device memory.
    CommonEnergyCode::addDefines(energy, defines);
    CommonEnergyCode::create(cc, energy, {"s"}, {"dEdS"}, "energyTemp").addReplacements(replacements);
    return "";
}
