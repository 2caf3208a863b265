#include "engine/CommonPeriodicBox.h"
#include <algorithm>
#include <cmath>

using namespace CoordinationPlugin;
using namespace OpenMM;

CommonPeriodicBox CommonPeriodicBox::current(ComputeContext& cc) {
    CommonPeriodicBox box;
    cc.getPeriodicBoxVectors(box.a, box.b, box.c);
    const Vec3 &a = box.a, &b = box.b, &c = box.c;
    double volume = a[0] * b[1] * c[2];
    auto length = [](const Vec3& v) { return std::sqrt(v.dot(v)); };
    double width = std::min({volume / length(b.cross(c)), volume / length(c.cross(a)), volume / length(a.cross(b))});
    box.halfWidth2 = 0.25 * width * width;
    box.triclinic = (b[0] != 0.0 || c[0] != 0.0 || c[1] != 0.0);
    return box;
}

void CommonPeriodicBox::addPlaceholders(ComputeKernelImpl& kernel, bool useDouble) {
    for (int i = 0; i < 5; i++) {
        if (useDouble)
            kernel.addArg(mm_double4(0, 0, 0, 0));
        else
            kernel.addArg(mm_float4(0, 0, 0, 0));
    }
    kernel.addArg(0); // triclinic
    if (useDouble)
        kernel.addArg(0.0);
    else
        kernel.addArg(0.0f);
}

void CommonPeriodicBox::setArgs(ComputeKernelImpl& kernel, int first, bool useDouble) const {
    if (useDouble) {
        kernel.setArg(first, mm_double4(a[0], b[1], c[2], 0.0));
        kernel.setArg(first + 1, mm_double4(1.0 / a[0], 1.0 / b[1], 1.0 / c[2], 0.0));
        kernel.setArg(first + 2, mm_double4(a[0], a[1], a[2], 0.0));
        kernel.setArg(first + 3, mm_double4(b[0], b[1], b[2], 0.0));
        kernel.setArg(first + 4, mm_double4(c[0], c[1], c[2], 0.0));
        kernel.setArg(first + 6, halfWidth2);
    }
    else {
        kernel.setArg(first, mm_float4((float) a[0], (float) b[1], (float) c[2], 0.0f));
        kernel.setArg(first + 1, mm_float4((float) (1.0 / a[0]), (float) (1.0 / b[1]), (float) (1.0 / c[2]), 0.0f));
        kernel.setArg(first + 2, mm_float4((float) a[0], (float) a[1], (float) a[2], 0.0f));
        kernel.setArg(first + 3, mm_float4((float) b[0], (float) b[1], (float) b[2], 0.0f));
        kernel.setArg(first + 4, mm_float4((float) c[0], (float) c[1], (float) c[2], 0.0f));
        // Slightly below the true value so rounding never skips a needed image search.
        kernel.setArg(first + 6, (float) (halfWidth2 * 0.999));
    }
    kernel.setArg(first + 5, triclinic ? 1 : 0);
}
