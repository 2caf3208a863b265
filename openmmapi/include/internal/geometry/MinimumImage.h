#ifndef OPENMM_COORDINATION_MINIMUMIMAGE_H_
#define OPENMM_COORDINATION_MINIMUMIMAGE_H_

#include "openmm/Vec3.h"
#include <cmath>

namespace CoordinationPlugin {

/**
 * The minimum image of a displacement in a periodic box given by OpenMM's reduced box vectors (PLUMED's
 * true minimum image), for the CPU-side kernels. Its three forms, one definition each:
 *
 *  - operator()(delta), the Reference kernel's: the floor formula d - L floor(d/L + 0.5) along c, b, a
 *    (whole box vectors), which brings the vector into the box's central cell; for a triclinic box the
 *    shortest image can still be a neighbouring one, so those 26 are searched too.
 *  - wrapNear(d, axis), the CPU kernel's vectorized loops': one component of a displacement in a
 *    rectangular box that is shorter than 1.5 boxes, by comparisons: d >= L/2 -> d - L and d < -L/2 ->
 *    d + L (an exact half-box tie goes the way the floor formula takes it), no floor call, branch-free.
 *  - shortest(delta), the CPU kernel's scalar loop's: any displacement; in a rectangular box wrapNear
 *    per component within 1.5 boxes and the floor formula beyond, in a triclinic box operator().
 *
 * The forms are kept apart, not merged, because merging would change results in the last bit: the
 * floor formula's d/L + 0.5 can round up just below a half box where the comparisons do not shift.
 */
class MinimumImage {
public:
    explicit MinimumImage(const OpenMM::Vec3* boxVectors) {
        for (int i = 0; i < 3; i++) {
            box[i] = boxVectors[i];
            length[i] = box[i][i];
            half[i] = 0.5 * length[i];
            far[i] = 1.5 * length[i];
        }
        triclinic = (box[1][0] != 0.0 || box[2][0] != 0.0 || box[2][1] != 0.0);
    }
    bool isTriclinic() const { return triclinic; }
    /** Whether displacements along axis spanning `span` (not NaN) are all shorter than 1.5 boxes: wrapNear applies. */
    bool isNear(double span, int axis) const { return span < far[axis]; }

    /** The Reference kernel's minimum image (see the class comment). */
    OpenMM::Vec3 operator()(OpenMM::Vec3 delta) const {
        delta -= box[2] * std::floor(delta[2] / box[2][2] + 0.5);
        delta -= box[1] * std::floor(delta[1] / box[1][1] + 0.5);
        delta -= box[0] * std::floor(delta[0] / box[0][0] + 0.5);
        if (!triclinic)
            return delta;
        OpenMM::Vec3 best = delta;
        double bestLength2 = delta.dot(delta);
        for (int i = -1; i <= 1; i++)
            for (int j = -1; j <= 1; j++)
                for (int k = -1; k <= 1; k++) {
                    OpenMM::Vec3 image = delta + box[0] * i + box[1] * j + box[2] * k;
                    double length2 = image.dot(image);
                    if (length2 < bestLength2) {
                        bestLength2 = length2;
                        best = image;
                    }
                }
        return best;
    }

    /**
     * Component d along axis of a rectangular box, |d| < 1.5 boxes (see the class comment). Vectorizable
     * under `omp simd`: both members are read unconditionally and only the shifts are selected (a member
     * read in one arm of a select is a conditional load, which GCC will not if-convert: the loop would
     * stay scalar).
     */
    inline double wrapNear(double d, int axis) const {
        const double boxLength = length[axis], halfBox = half[axis];
        return d - (d >= halfBox ? boxLength : 0.0) + (d < -halfBox ? boxLength : 0.0);
    }

    /**
     * Any displacement (see the class comment); NaN and infinite components give NaN, as the floor
     * formula does. (Within 1.5 boxes an unshifted -0.0 comes back as +0.0, as in wrapNear.)
     */
    inline OpenMM::Vec3 shortest(OpenMM::Vec3 delta) const {
        if (triclinic)
            return (*this)(delta);
        for (int axis = 0; axis < 3; axis++) {
            const double d = delta[axis], boxLength = length[axis];
            delta[axis] =
                (std::fabs(d) < far[axis] ? wrapNear(d, axis) : d - boxLength * std::floor(d / boxLength + 0.5));
        }
        return delta;
    }

private:
    OpenMM::Vec3 box[3];
    double length[3], half[3], far[3];
    bool triclinic;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_MINIMUMIMAGE_H_*/
