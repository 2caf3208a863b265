#include "engine/CommonCellOffsets.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

CommonCellOffsets::CommonCellOffsets(const vector<int>& particles, int rows)
    : particles(particles), uploaded(rows, mm_int4(0, 0, 0, 0)) {}

void CommonCellOffsets::followAtomOrder(ComputeContext& cc) {
    if (particles.empty())
        return;
    const vector<int>& order = cc.getAtomIndex();
    positionOfParticle.assign(order.size(), 0);
    for (int i = 0; i < (int) order.size(); i++)
        positionOfParticle[order[i]] = i;
}

void CommonCellOffsets::update(ComputeContext& cc, ComputeArray& cellOffsets) {
    if (particles.empty())
        return;
    const vector<mm_int4>& offsets = cc.getPosCellOffsets();
    bool changed = false;
    for (int i = 0; i < (int) particles.size(); i++) {
        if (particles[i] < 0)
            continue;
        const mm_int4& now = offsets[positionOfParticle[particles[i]]];
        mm_int4& stored = uploaded[i];
        if (now.x != stored.x || now.y != stored.y || now.z != stored.z) {
            stored = mm_int4(now.x, now.y, now.z, 0);
            changed = true;
        }
    }
    if (changed)
        cellOffsets.upload(uploaded);
}
