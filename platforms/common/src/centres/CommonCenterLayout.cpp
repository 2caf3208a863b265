#include "centres/CommonCenterLayout.h"

using namespace CoordinationPlugin;

CommonCenterLayout CommonCenterLayout::create(const ResolvedCenters& centers, bool periodic, bool blocksMayCompute) {
    CommonCenterLayout layout;
    layout.numAtoms = centers.numParticles;
    layout.numCenters = centers.size();
    for (int k = 0; k < layout.numCenters; k++) {
        layout.numEntries += centers.particles[k].size();
        layout.unwrapped = layout.unwrapped || !periodic || !centers.makeWhole[k];
    }
    layout.inBlock = blocksMayCompute && layout.numCenters > 0 && layout.numEntries <= MaxCenterEntriesInBlock &&
                     layout.numCenters <= MaxCentersInBlock;
    return layout;
}
