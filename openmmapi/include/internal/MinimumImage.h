#ifndef OPENMM_COORDINATION_MINIMUMIMAGE_H_
#define OPENMM_COORDINATION_MINIMUMIMAGE_H_

#include "openmm/Vec3.h"
#include <cmath>

namespace CoordinationPlugin {

/**
 * Minimum-image displacement in a periodic box given by OpenMM's reduced box vectors (the CPU-side
 * kernels' definition, PLUMED's true minimum image). Wrapping along c, b, a brings the vector into the
 * box's central cell; for a triclinic box the shortest image can still be a neighbouring one, so those
 * 26 are searched too.
 */
class MinimumImage {
public:
    explicit MinimumImage(const OpenMM::Vec3* boxVectors) {
        for (int i = 0; i < 3; i++)
            box[i] = boxVectors[i];
        triclinic = (box[1][0] != 0.0 || box[2][0] != 0.0 || box[2][1] != 0.0);
    }
    bool isTriclinic() const { return triclinic; }
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

private:
    OpenMM::Vec3 box[3];
    bool triclinic;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_MINIMUMIMAGE_H_*/
