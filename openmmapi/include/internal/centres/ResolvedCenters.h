#ifndef OPENMM_COORDINATION_RESOLVEDCENTERS_H_
#define OPENMM_COORDINATION_RESOLVEDCENTERS_H_

#include "CoordinationBiasForce.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/System.h"
#include "openmm/Vec3.h"
#include <functional>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The centres of a force (CoordinationBiasForce::addCenter(), ContactMapForce::addCenter()), resolved for a System of
 * numParticles particles. In a resolved description a group entry or a contact holds a member id: a particle index
 * below numParticles, or numParticles + k for centre k (the user's id -1 - k).
 *
 * Centre k with particles p_0 .. p_{M-1} and weights w_j (W = sum w_j) is
 * @code
 * without whole-making:  c = sum_j (w_j / W) x_j
 * with whole-making:     c = x_0 + sum_{j >= 1} (T_j / W) image(x_j - x_{j-1}),   T_j = sum_{i >= j} w_i
 * @endcode
 * which is PLUMED's centre of the group made whole atom by atom from the first (x'_j = x'_{j-1} +
 * image(x_j - x_{j-1}), c = sum w_j x'_j / W) written as one weighted sum, so that a GPU sums it in parallel.
 * Either way dc/dx_j = w_j / W: the force on the centre is spread back with forceWeights.
 */
struct OPENMM_EXPORT_COORDINATION ResolvedCenters {
    int numParticles = 0;
    /** Per centre: its particles (repeated entries kept). */
    std::vector<std::vector<int>> particles;
    /** Per centre: w_j / W per entry (the force's spread, and the position's weights without whole-making). */
    std::vector<std::vector<double>> forceWeights;
    /** Per centre: T_j / W per entry (entry 0 unused), the weights of the images of successive differences. */
    std::vector<std::vector<double>> differenceWeights;
    /** Per centre: whether it is made whole (its flag and the System's periodic boundary conditions). */
    std::vector<bool> makeWhole;
    /**
     * Check the centres of a force (CoordinationBiasForce::addCenter()) against a System and resolve them. An
     * OpenMMException, starting with the force's class name, names a bad centre (no particles, an index outside the
     * System, a weight count that differs from the particle count, a weight that is not finite, weights or masses
     * that sum to 0) and says what is allowed.
     */
    static ResolvedCenters resolve(const OpenMM::System& system, const CoordinationBiasForce& force);
    /**
     * The same check without a System (the PLUMED translator checks its input as a Context would): numParticles
     * particles of mass 1, in a System without periodic boundary conditions (numParticles is lowered where the
     * centres' member ids would pass INT_MAX).
     */
    static ResolvedCenters resolve(int numParticles, const CoordinationBiasForce& force);
    /**
     * The check and resolution of both: numParticles particles, periodicSystem whether the System uses periodic
     * boundary conditions, massOf(i) particle i's mass.
     */
    static ResolvedCenters resolve(int numParticles, bool periodicSystem, const std::function<double(int)>& massOf,
                                   const CoordinationBiasForce& force);
    /**
     * The member id of a user's group entry or contact particle: a particle index (0 .. numParticles - 1) is itself,
     * a centre's id -1 - k is numParticles + k. Any other value throws an OpenMMException, whose message starts with
     * what (e.g. "CoordinationForce: group A entry 3") and says what is allowed.
     */
    int memberOf(int entry, const std::string& what) const;
    /** The number of centres. */
    int size() const { return particles.size(); }
    /** Whether a member id is a centre. */
    bool isCenter(int member) const { return member >= numParticles; }
    /**
     * The centres' positions (double precision; the minimum image is the exact one, in any box).
     * @param positions   the System's particle positions
     * @param boxVectors  the periodic box (used by centres that are made whole)
     */
    std::vector<OpenMM::Vec3> computePositions(const std::vector<OpenMM::Vec3>& positions, const OpenMM::Vec3* boxVectors) const;
    /**
     * positions followed by the centres' positions: the member ids index it.
     */
    std::vector<OpenMM::Vec3> extendPositions(const std::vector<OpenMM::Vec3>& positions, const OpenMM::Vec3* boxVectors) const;
    /**
     * Add the forces on the centres (memberForces[numParticles + k]) to their particles, w_j / W each, and the
     * particles' own (memberForces[i], i < numParticles) to forces.
     */
    void spreadForces(const std::vector<OpenMM::Vec3>& memberForces, std::vector<OpenMM::Vec3>& forces) const;

private:
    /** The check and resolution of centre k's particles[k], weighting[k], weights[k], makeWhole[k]. */
    static ResolvedCenters resolve(int numParticles, bool periodicSystem, const std::function<double(int)>& massOf,
                                   const std::vector<std::vector<int>>& particles, const std::vector<int>& weighting,
                                   const std::vector<std::vector<double>>& weights, const std::vector<bool>& makeWhole,
                                   const std::string& forceName);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDCENTERS_H_*/
