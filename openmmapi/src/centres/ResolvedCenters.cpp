#include "internal/centres/ResolvedCenters.h"
#include "CoordinationBiasForce.h"
#include <algorithm>
#include <climits>
#include "internal/geometry/MinimumImage.h"
#include "openmm/OpenMMException.h"
#include <cmath>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

ResolvedCenters ResolvedCenters::resolve(const System& system, const CoordinationBiasForce& force) {
    return resolve(system.getNumParticles(), system.usesPeriodicBoundaryConditions(),
                   [&system](int particle) { return system.getParticleMass(particle); }, force);
}

ResolvedCenters ResolvedCenters::resolve(int numParticles, const CoordinationBiasForce& force) {
    // Room for the centres' member ids after the particles' (the translator checks with INT_MAX particles).
    numParticles = (int) std::min<long long>(numParticles, (long long) INT_MAX - force.getNumCenters());
    return resolve(numParticles, false, [](int) { return 1.0; }, force);
}

ResolvedCenters ResolvedCenters::resolve(int numParticles, bool periodicSystem, const std::function<double(int)>& massOf,
                                         const CoordinationBiasForce& force) {
    vector<vector<int>> particles(force.getNumCenters());
    vector<vector<double>> weights(force.getNumCenters());
    vector<int> weighting(force.getNumCenters());
    vector<bool> makeWhole(force.getNumCenters());
    for (int k = 0; k < force.getNumCenters(); k++) {
        CoordinationBiasForce::CenterWeighting centerWeighting;
        bool whole;
        force.getCenterParameters(k, particles[k], centerWeighting, weights[k], whole);
        weighting[k] = centerWeighting;
        makeWhole[k] = whole;
    }
    return resolve(numParticles, periodicSystem, massOf, particles, weighting, weights, makeWhole,
                   force.getForceClassName());
}

ResolvedCenters ResolvedCenters::resolve(int numParticles, bool periodicSystem, const std::function<double(int)>& massOf,
                                         const vector<vector<int>>& particles, const vector<int>& weighting,
                                         const vector<vector<double>>& weights, const vector<bool>& makeWhole,
                                         const string& forceName) {
    ResolvedCenters centers;
    centers.numParticles = numParticles;
    for (size_t k = 0; k < particles.size(); k++) {
        const string name = forceName + ": centre " + std::to_string(k) + " (id " + std::to_string(-1 - (int) k) + ")";
        const vector<int>& members = particles[k];
        if (members.empty())
            throw OpenMMException(name + " has no particles; give it at least one");
        for (size_t j = 0; j < members.size(); j++)
            if (members[j] < 0 || members[j] >= numParticles)
                throw OpenMMException(name + ": particle entry " + std::to_string(j) + " is " + std::to_string(members[j]) +
                                      ", but the System has " + std::to_string(numParticles) +
                                      " particles; use indices 0 to " + std::to_string(numParticles - 1) +
                                      " (a centre cannot hold another centre)");
        vector<double> w(members.size(), 1.0);
        if (weighting[k] != CoordinationBiasForce::WeightedCenter && !weights[k].empty())
            throw OpenMMException(name + " has weights but is not a WeightedCenter; use CoordinationBiasForce::WeightedCenter "
                                  "or give no weights");
        if (weighting[k] == CoordinationBiasForce::CenterOfMass) {
            for (size_t j = 0; j < members.size(); j++)
                w[j] = massOf(members[j]);
        }
        else if (weighting[k] == CoordinationBiasForce::WeightedCenter) {
            if (weights[k].size() != members.size())
                throw OpenMMException(name + " has " + std::to_string(members.size()) + " particles but " +
                                      std::to_string(weights[k].size()) + " weights; give one weight per particle");
            w = weights[k];
        }
        double total = 0.0;
        for (size_t j = 0; j < w.size(); j++) {
            if (!std::isfinite(w[j]))
                throw OpenMMException(name + ": the weight of entry " + std::to_string(j) + " is not finite; use finite weights");
            total += w[j];
        }
        if (total == 0.0 || !std::isfinite(total))
            throw OpenMMException(name + (weighting[k] == CoordinationBiasForce::CenterOfMass
                                              ? ": its particles' masses sum to 0; a centre of mass needs mass"
                                              : ": its weights sum to " + std::to_string(total) +
                                                    "; use weights whose sum is finite and not 0"));
        vector<double> forceWeights(w.size()), differenceWeights(w.size(), 0.0);
        double tail = 0.0;
        for (size_t j = w.size(); j-- > 0;) {
            forceWeights[j] = w[j] / total;
            tail += w[j];
            differenceWeights[j] = (j == 0 ? 1.0 : tail / total);
        }
        centers.particles.push_back(members);
        centers.forceWeights.push_back(forceWeights);
        centers.differenceWeights.push_back(differenceWeights);
        centers.makeWhole.push_back(makeWhole[k] && periodicSystem);
    }
    return centers;
}

int ResolvedCenters::memberOf(int entry, const string& what) const {
    if (entry >= 0 && entry < numParticles)
        return entry;
    if (entry < 0 && -1 - (long long) entry < (long long) particles.size())
        return numParticles + (-1 - entry);
    if (entry >= 0)
        throw OpenMMException(what + " is particle index " + std::to_string(entry) + ", but the System has " +
                              std::to_string(numParticles) + " particles; use indices 0 to " +
                              std::to_string(numParticles - 1) + (particles.empty() ? "" : ", or a centre's id"));
    throw OpenMMException(what + " is " + std::to_string(entry) + ", which is not the id of a centre of this force (it has " +
                          std::to_string(particles.size()) + " centres" +
                          (particles.empty() ? "" : ", ids -1 to " + std::to_string(-(int) particles.size())) +
                          "); a negative entry stands for a centre: use the id addCenter() returned");
}

vector<Vec3> ResolvedCenters::computePositions(const vector<Vec3>& positions, const Vec3* boxVectors) const {
    vector<Vec3> result(particles.size());
    for (size_t k = 0; k < particles.size(); k++) {
        const vector<int>& members = particles[k];
        Vec3 center;
        if (makeWhole[k]) {
            const MinimumImage image(boxVectors);
            center = positions[members[0]];
            for (size_t j = 1; j < members.size(); j++)
                center += image(positions[members[j]] - positions[members[j - 1]]) * differenceWeights[k][j];
        }
        else
            for (size_t j = 0; j < members.size(); j++)
                center += positions[members[j]] * forceWeights[k][j];
        result[k] = center;
    }
    return result;
}

vector<Vec3> ResolvedCenters::extendPositions(const vector<Vec3>& positions, const Vec3* boxVectors) const {
    vector<Vec3> extended(positions.begin(), positions.begin() + numParticles);
    if (!particles.empty()) {
        vector<Vec3> centers = computePositions(positions, boxVectors);
        extended.insert(extended.end(), centers.begin(), centers.end());
    }
    return extended;
}

void ResolvedCenters::spreadForces(const vector<Vec3>& memberForces, vector<Vec3>& forces) const {
    for (int i = 0; i < numParticles; i++)
        forces[i] += memberForces[i];
    for (size_t k = 0; k < particles.size(); k++) {
        const Vec3& force = memberForces[numParticles + k];
        for (size_t j = 0; j < particles[k].size(); j++)
            forces[particles[k][j]] += force * forceWeights[k][j];
    }
}
