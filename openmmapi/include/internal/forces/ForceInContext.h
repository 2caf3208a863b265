#ifndef OPENMM_COORDINATION_FORCEINCONTEXT_H_
#define OPENMM_COORDINATION_FORCEINCONTEXT_H_

#include "openmm/Context.h"
#include "openmm/CustomCVForce.h"
#include "openmm/Force.h"
#include "openmm/OpenMMException.h"
#include "openmm/System.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * Where a force of this plugin is evaluated in a Context, for its context methods (CoordinationForce's and
 * ContactMapForce's getCollectiveVariableValues, updateParametersInContext, ...): the context itself if its System
 * holds the force, else the inner context of the CustomCVForce (at any depth) that holds it as a collective variable.
 * An inner System holds copies of its CustomCVForce's variables, in their order.
 */
namespace ForceInContext {

/** The variable indices from a CustomCVForce down to force, through nested CustomCVForces. */
inline bool pathTo(const OpenMM::CustomCVForce& customCV, const OpenMM::Force& force, std::vector<int>& path) {
    for (int j = 0; j < customCV.getNumCollectiveVariables(); j++) {
        const OpenMM::Force& variable = customCV.getCollectiveVariable(j);
        path.push_back(j);
        if (&variable == &force)
            return true;
        auto* nested = dynamic_cast<const OpenMM::CustomCVForce*>(&variable);
        if (nested != nullptr && pathTo(*nested, force, path))
            return true;
        path.pop_back();
    }
    return false;
}

/**
 * Find force in context: where receives the context that evaluates it, copy the inner System's copy of it (nullptr
 * if the context's own System holds force). With syncState, the inner contexts first get the outer one's
 * positions, box and parameters (by evaluating the variables, as a CustomCVForce does). Returns false if neither
 * holds it.
 */
template <class ForceType>
bool find(OpenMM::Context& context, const ForceType& force, bool syncState, OpenMM::Context*& where, ForceType*& copy) {
    const OpenMM::System& system = context.getSystem();
    for (int i = 0; i < system.getNumForces(); i++)
        if (&system.getForce(i) == &force) {
            where = &context;
            copy = nullptr;
            return true;
        }
    for (int i = 0; i < system.getNumForces(); i++) {
        auto* customCV = dynamic_cast<const OpenMM::CustomCVForce*>(&system.getForce(i));
        std::vector<int> path;
        if (customCV == nullptr || !pathTo(*customCV, force, path))
            continue;
        auto* level = const_cast<OpenMM::CustomCVForce*>(customCV);
        if (syncState) {
            std::vector<double> values;
            level->getCollectiveVariableValues(context, values); // nested CustomCVForces pass the state down
        }
        where = &context;
        copy = nullptr;
        for (size_t k = 0; k < path.size(); k++) {
            where = &level->getInnerContext(*where);
            OpenMM::Force& variable = const_cast<OpenMM::System&>(where->getSystem()).getForce(path[k]);
            if (k + 1 < path.size())
                level = &dynamic_cast<OpenMM::CustomCVForce&>(variable);
            else
                copy = dynamic_cast<ForceType*>(&variable);
        }
        return copy != nullptr;
    }
    return false;
}

/** The error of a context method called with a Context that does not hold the force. */
inline OpenMM::OpenMMException notFound(const std::string& className, const std::string& method) {
    return OpenMM::OpenMMException(className + "::" + method + ": this force is not in the Context's System, nor a "
                                   "collective variable of a CustomCVForce in it; pass the Context of the System you "
                                   "added it to (for a CustomCVForce's variables, "
                                   "CustomCVForce::getCollectiveVariableValues(context) also gives their values)");
}

} // namespace ForceInContext
} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_FORCEINCONTEXT_H_*/
