#ifndef OPENMM_COORDINATION_CONTACTMAPHOSTEVALUATOR_H_
#define OPENMM_COORDINATION_CONTACTMAPHOSTEVALUATOR_H_

#include "internal/energy/EnergyEvaluator.h"
#include "internal/contactmap/ResolvedContactMap.h"
#include "internal/switching/SwitchingFunctionEvaluator.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/Vec3.h"
#include "openmm/internal/ContextImpl.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * A ContactMapForce evaluated on the host, in double precision: the Reference platform's kernel, and the CPU
 * platform's, which runs computeContacts() over ranges of contacts on its threads. Each contact n of members p1, p2:
 * @code
 * d = x_p2 - x_p1 (its minimum image when periodic),  r = |d| (0 below 1e-8 nm),
 * coord_n = w_n (sigma_n(r) - ref_n),  dcoord_n/dx_p2 = w_n sigma_n'(r) d / r = -dcoord_n/dx_p1 (0 at r = 0)
 * @endcode
 * then the variables (Sum, Distance, Components), the energy and the forces, the centres' spread back to their
 * particles.
 */
class OPENMM_EXPORT_COORDINATION ContactMapHostEvaluator {
public:
    /** The switching functions and the energy's programs of a resolved map. */
    explicit ContactMapHostEvaluator(const ResolvedContactMap& force);
    const ResolvedContactMap& getResolved() const { return resolved; }
    int getNumContacts() const { return resolved.getNumContacts(); }
    /** Whether a particle that the map uses has a coordinate that is infinite or NaN (then nothing is finite). */
    bool hasNonFinitePosition(const std::vector<OpenMM::Vec3>& positions) const;
    /**
     * The members' positions (the particles, then the centres): positions itself without centres, else storage
     * filled by ResolvedCenters::extendPositions.
     */
    const std::vector<OpenMM::Vec3>& memberPositions(const std::vector<OpenMM::Vec3>& positions,
                                                     const OpenMM::Vec3* boxVectors,
                                                     std::vector<OpenMM::Vec3>& storage) const;
    /**
     * coord_n of contacts first .. last - 1 into values[n], and dcoord_n/dx_p2 into gradients[n] if gradients is
     * not null (members from memberPositions()).
     */
    void computeContacts(const std::vector<OpenMM::Vec3>& members, const OpenMM::Vec3* boxVectors, int first,
                         int last, double* values, OpenMM::Vec3* gradients) const;
    /** The variables of the contacts' values, in the order of the resolved variableNames. */
    void computeVariables(const std::vector<double>& values, std::vector<double>& variables) const;
    /**
     * The energy of the contacts' values and gradients; adds the forces to forces (if not null) and the requested
     * energy-parameter derivatives to derivatives (if not null). Where there is no finite answer (a value, variable,
     * energy, derivative or force that is not finite) the energy and the parameter derivatives are NaN and no force
     * is added.
     */
    double computeEnergy(OpenMM::ContextImpl& context, const std::vector<double>& values,
                         const std::vector<OpenMM::Vec3>& gradients, std::vector<OpenMM::Vec3>* forces,
                         std::map<std::string, double>* derivatives) const;
    /** The energy where a used coordinate is not finite: NaN, and NaN parameter derivatives. */
    double nonFiniteEnergy(std::map<std::string, double>* derivatives) const;

private:
    /** Zero the member forces of computeEnergy() again (only the contacts' members are ever non-zero). */
    void clearMemberForces() const;
    const ResolvedContactMap resolved;
    std::vector<std::unique_ptr<SwitchingFunctionEvaluator>> switchings;
    EnergyEvaluator energyFunction;
    /** Per member, the forces of one computeEnergy() (kept zero between calls: a large System costs no clearing). */
    mutable std::vector<OpenMM::Vec3> memberForceBuffer;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_CONTACTMAPHOSTEVALUATOR_H_*/
