#ifndef CPU_MINIMUM_IMAGES_H_
#define CPU_MINIMUM_IMAGES_H_

/*
 * The forms of the minimum image that the CPU platform's pair loops (src/CpuPairLoops.h) are instantiated with.
 * Internal linkage and always-inlined members, for the reason src/CpuInstructionSets.h gives.
 */

#include "CpuInstructionSets.h"
#include "internal/geometry/MinimumImage.h"
#include "openmm/Vec3.h"

namespace CoordinationPlugin {
namespace {

using OpenMM::Vec3;

/*
 * Minimum images of a displacement (second - first), all from MinimumImage. Simd images apply
 * wrap(d, axis) per component in the vectorized loops; every image has operator()(delta) on the whole
 * vector for the scalar loop.
 */

/** No periodicity. */
struct NoImage {
    static constexpr bool Simd = true;
    COORDINATION_ALWAYS_INLINE double wrap(double d, int axis) const { return d; }
    inline Vec3 operator()(const Vec3& delta) const { return delta; }
};

/**
 * A rectangular box where every displacement component is shorter than 1.5 boxes (checked per
 * evaluation): MinimumImage::wrapNear, on a copy of the image that the simd loop reads.
 */
class RectangularImage {
public:
    static constexpr bool Simd = true;
    explicit RectangularImage(const MinimumImage& minimumImage) : minimumImage(minimumImage) {}
    COORDINATION_ALWAYS_INLINE double wrap(double d, int axis) const { return minimumImage.wrapNear(d, axis); }
    inline Vec3 operator()(Vec3 delta) const {
        for (int axis = 0; axis < 3; axis++)
            delta[axis] = wrap(delta[axis], axis);
        return delta;
    }

private:
    const MinimumImage minimumImage;
};

/** Any box, any displacement, scalar: MinimumImage::shortest, or without PBC the displacement as it is. */
class ExactImage {
public:
    static constexpr bool Simd = false;
    ExactImage(const MinimumImage& minimumImage, bool periodic) : minimumImage(minimumImage), periodic(periodic) {}
    inline Vec3 operator()(const Vec3& delta) const { return (periodic ? minimumImage.shortest(delta) : delta); }

private:
    const MinimumImage& minimumImage;
    const bool periodic;
};

} // namespace
} // namespace CoordinationPlugin

#endif /*CPU_MINIMUM_IMAGES_H_*/
