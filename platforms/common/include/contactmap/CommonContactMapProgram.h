#ifndef COMMON_CONTACTMAP_PROGRAM_H_
#define COMMON_CONTACTMAP_PROGRAM_H_

#include "centres/CommonCenters.h"
#include "contactmap/CommonContactMapPlan.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeProgram.h"
#include <map>
#include <string>

namespace CoordinationPlugin {

/**
 * The GPU program of a ContactMapForce: common.cc, reductions.cc, centers.cc (the centres' defines from
 * CommonCenters), switching.cc once per kind of switching function (its
 * compile-time constants defined around it from the kind's representative by CommonSwitchingDefines, its
 * functions renamed per kind, the per-contact constants read from the contact's parameters), reorder.cc and
 * contactmap.cc, with the energy's code generated from the resolved expressions by OpenMM's ExpressionUtilities.
 */
struct CommonContactMapProgram {
    std::string source;
    std::map<std::string, std::string> defines;

    /** The program's text for `force` (throws an OpenMMException for a setting the precision cannot hold). */
    static CommonContactMapProgram create(OpenMM::ComputeContext& cc, const CommonContactMapPlan& plan,
                                          const ResolvedContactMap& force, const CommonCenters& centers);
    bool operator==(const CommonContactMapProgram& other) const {
        return source == other.source && defines == other.defines;
    }
    OpenMM::ComputeProgram compile(OpenMM::ComputeContext& cc) const { return cc.compileProgram(source, defines); }
};

} // namespace CoordinationPlugin

#endif /*COMMON_CONTACTMAP_PROGRAM_H_*/
