#ifndef COORDINATION_TEST_GEOMETRY_H_
#define COORDINATION_TEST_GEOMETRY_H_

/*
 * The geometry of the test systems: periodic boxes, deterministic random positions, positions as single and mixed
 * precision hold them, and sums over force arrays.
 */

#include "BruteForceCoordination.h"
#include "openmm/Vec3.h"
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace CoordinationTest {

/** A periodic cell in OpenMM's reduced form, or none; `name` describes it in test output. */
struct Box {
    std::string name;
    BruteForce::Cell cell;

    static Box none() { return {"NoPBC", {false, OpenMM::Vec3(), OpenMM::Vec3(), OpenMM::Vec3()}}; }
    static Box rectangular() {
        return {"Rectangular", {true, OpenMM::Vec3(2.4, 0, 0), OpenMM::Vec3(0, 2.7, 0), OpenMM::Vec3(0, 0, 3.0)}};
    }
    /** Reduced triclinic: |bx| <= ax/2, |cx| <= ax/2, |cy| <= by/2, every off-diagonal element nonzero. */
    static Box triclinic() {
        return {"Triclinic", {true, OpenMM::Vec3(2.5, 0, 0), OpenMM::Vec3(0.8, 2.4, 0), OpenMM::Vec3(-1.1, 0.9, 2.2)}};
    }
    /** A cube of the given edge (nm). */
    static Box cube(double edge) {
        return {"Cube", {true, OpenMM::Vec3(edge, 0, 0), OpenMM::Vec3(0, edge, 0), OpenMM::Vec3(0, 0, edge)}};
    }
    bool periodic() const { return cell.periodic; }
};

/** One of the boxes of the setting matrices by its name: "NoPBC", "Rectangular" or "Triclinic". */
inline Box boxNamed(const std::string& name) {
    if (name == "Rectangular")
        return Box::rectangular();
    if (name == "Triclinic")
        return Box::triclinic();
    return Box::none();
}

/** Deterministic uniform numbers in [0, 1): std::mt19937 is specified exactly, unlike the distributions. */
class UniformRandom {
public:
    explicit UniformRandom(unsigned seed) : engine(seed) {}
    double operator()() { return engine() / 4294967296.0; }

private:
    std::mt19937 engine;
};

/**
 * Random positions: inside the cell for a periodic box (a few of them one cell length outside, so that
 * wrapping is exercised), in a 2.5 nm cube otherwise.
 */
inline std::vector<OpenMM::Vec3> randomPositions(int count, const Box& box, unsigned seed) {
    UniformRandom random(seed);
    std::vector<OpenMM::Vec3> positions;
    for (int i = 0; i < count; i++) {
        double u = random(), v = random(), w = random();
        if (!box.periodic()) {
            positions.push_back(OpenMM::Vec3(u, v, w) * 2.5);
            continue;
        }
        OpenMM::Vec3 position = box.cell.a * u + box.cell.b * v + box.cell.c * w;
        if (i % 7 == 3)
            position += box.cell.a - box.cell.c;
        positions.push_back(position);
    }
    return positions;
}

/**
 * A vector rounded to float, as single and mixed precision contexts store positions: with the brute force given
 * the same numbers, steep functions do not turn the 1e-7 nm rounding of a coordinate into a difference.
 */
inline OpenMM::Vec3 roundedToFloat(const OpenMM::Vec3& v) {
    return OpenMM::Vec3((float)v[0], (float)v[1], (float)v[2]);
}

inline std::vector<OpenMM::Vec3> roundedToFloat(std::vector<OpenMM::Vec3> positions) {
    for (OpenMM::Vec3& position : positions)
        position = roundedToFloat(position);
    return positions;
}

inline Box roundedToFloat(Box box) {
    for (OpenMM::Vec3* v : {&box.cell.a, &box.cell.b, &box.cell.c})
        *v = roundedToFloat(*v);
    return box;
}

/**
 * `count` random positions in [0, extent) per axis, rounded to float, no two closer than 0.12 nm (as in matter: the
 * direction of a shorter distance has a relative error of ~1e-7 nm / r from float coordinates, which functions with
 * a slope at r -> 0 turn into force differences beyond the single-precision tolerance), measured through the
 * periodic cell of that extent if `periodic`; each candidate is rounded before it is tested (roundCandidates) or
 * after the set is drawn.
 */
inline std::vector<OpenMM::Vec3> spacedPositions(int count, const OpenMM::Vec3& extent, unsigned seed,
                                                 bool periodic = false, bool roundCandidates = true) {
    UniformRandom random(seed);
    std::vector<OpenMM::Vec3> positions;
    while ((int)positions.size() < count) {
        const OpenMM::Vec3 u(random(), random(), random());
        OpenMM::Vec3 candidate(u[0] * extent[0], u[1] * extent[1], u[2] * extent[2]);
        if (roundCandidates)
            candidate = roundedToFloat(candidate);
        bool tooClose = false;
        for (const OpenMM::Vec3& other : positions) {
            OpenMM::Vec3 delta = candidate - other;
            if (periodic)
                for (int axis = 0; axis < 3; axis++)
                    delta[axis] -= std::round(delta[axis] / extent[axis]) * extent[axis];
            tooClose = tooClose || delta.dot(delta) < 0.12 * 0.12;
        }
        if (!tooClose)
            positions.push_back(candidate);
    }
    for (OpenMM::Vec3& position : positions)
        position = roundedToFloat(position);
    return positions;
}

inline double rootMeanSquare(const std::vector<OpenMM::Vec3>& vectors) {
    double sum = 0.0;
    for (const OpenMM::Vec3& v : vectors)
        sum += v.dot(v);
    return vectors.empty() ? 0.0 : std::sqrt(sum / vectors.size());
}

inline std::vector<OpenMM::Vec3> scaled(const std::vector<OpenMM::Vec3>& vectors, double factor) {
    std::vector<OpenMM::Vec3> result;
    for (const OpenMM::Vec3& v : vectors)
        result.push_back(v * factor);
    return result;
}

} // namespace CoordinationTest

#endif /*COORDINATION_TEST_GEOMETRY_H_*/
