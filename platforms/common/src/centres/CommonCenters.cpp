#include "centres/CommonCenters.h"
#include "openmm/common/ComputeVectorTypes.h"
#include <algorithm>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

void CommonCenters::initialize(ComputeContext& cc, const CommonCenterLayout& layout, const ResolvedCenters& centers,
                               bool useDouble, bool positionCorrection, const string& prefix) {
    this->layout = layout;
    this->useDouble = useDouble;
    this->positionCorrection = positionCorrection;
    if (layout.numCenters == 0)
        return;
    vector<int> particles, ofEntry, firstEntry, whole;
    vector<double> forceWeights, differenceWeights;
    for (int k = 0; k < centers.size(); k++) {
        firstEntry.push_back(particles.size());
        whole.push_back(centers.makeWhole[k] ? 1 : 0);
        particles.insert(particles.end(), centers.particles[k].begin(), centers.particles[k].end());
        ofEntry.insert(ofEntry.end(), centers.particles[k].size(), k);
        forceWeights.insert(forceWeights.end(), centers.forceWeights[k].begin(), centers.forceWeights[k].end());
        differenceWeights.insert(differenceWeights.end(), centers.differenceWeights[k].begin(),
                                 centers.differenceWeights[k].end());
    }
    firstEntry.push_back(particles.size());
    const int entries = particles.size();
    centerParticles.initialize<int>(cc, entries, prefix + "CenterParticles");
    centerParticles.upload(particles);
    centerAtoms.initialize<int>(cc, entries, prefix + "CenterAtoms");
    centerAtoms.upload(particles); // translated at every reordering, the first included
    centerOfEntry.initialize<int>(cc, entries, prefix + "CenterOfEntry");
    centerOfEntry.upload(ofEntry);
    centerFirstEntry.initialize<int>(cc, firstEntry.size(), prefix + "CenterFirstEntry");
    centerFirstEntry.upload(firstEntry);
    centerWhole.initialize<int>(cc, whole.size(), prefix + "CenterWhole");
    centerWhole.upload(whole);
    const int realSize = (useDouble ? sizeof(double) : sizeof(float));
    const int real4Size = (useDouble ? sizeof(mm_double4) : sizeof(mm_float4));
    centerForceWeights.initialize(cc, entries, realSize, prefix + "CenterForceWeights");
    centerDifferenceWeights.initialize(cc, entries, realSize, prefix + "CenterDifferenceWeights");
    if (useDouble) {
        centerForceWeights.upload(forceWeights);
        centerDifferenceWeights.upload(differenceWeights);
    }
    else {
        centerForceWeights.upload(vector<float>(forceWeights.begin(), forceWeights.end()));
        centerDifferenceWeights.upload(vector<float>(differenceWeights.begin(), differenceWeights.end()));
    }
    centerPositions.initialize(cc, centers.size(), real4Size, prefix + "CenterPositions");
}

void CommonCenters::addDefines(ComputeContext& cc, int offsetBase, std::map<string, string>& defines) const {
    if (layout.numCenters == 0)
        return;
    defines["HAS_CENTERS"] = "1";
    defines["NUM_ATOMS"] = cc.intToString(layout.numAtoms);
    defines["NUM_CENTERS"] = cc.intToString(layout.numCenters);
    defines["NUM_CENTER_ENTRIES"] = cc.intToString(layout.numEntries);
    defines["CENTER_LANES"] = cc.intToString(CommonCenterLayout::CenterLanes);
    defines["CENTER_BATCH"] = cc.intToString(CommonCenterLayout::CenterBatch);
    if (layout.inBlock)
        defines["CENTERS_IN_BLOCK"] = "1";
    defines["CENTER_OFFSET_BASE"] = cc.intToString(offsetBase);
    if (layout.unwrapped)
        defines["CENTER_OFFSETS"] = "1";
}

void CommonCenters::addMemberArgs(CommonKernelArguments& args) {
    args.add(centerAtoms, centerFirstEntry, centerForceWeights, centerDifferenceWeights, centerWhole);
}

void CommonCenters::addPositionArgs(CommonKernelArguments& args) {
    if (layout.numCenters == 0)
        return;
    if (layout.inBlock)
        addMemberArgs(args);
    else
        args.add(centerPositions);
}

void CommonCenters::addFinishArgs(CommonKernelArguments& args, bool withPositionArgs) {
    if (layout.numCenters == 0)
        return;
    if (withPositionArgs && layout.inBlock) {
        args.add(centerOfEntry);
        return;
    }
    args.add(centerAtoms, centerOfEntry, centerForceWeights);
}

void CommonCenters::addTranslateArgs(CommonKernelArguments& args) {
    if (layout.numCenters == 0)
        return;
    args.add(centerParticles, centerAtoms);
}

void CommonCenters::createKernel(ComputeContext& cc, ComputeProgram& program, ComputeArray& cellOffsets) {
    if (layout.numCenters == 0 || layout.inBlock)
        return;
    positionsKernel = program->createKernel("computeCenterPositions");
    CommonKernelArguments args(positionsKernel);
    args.add(cc.getPosq());
    if (positionCorrection)
        args.add(cc.getPosqCorrection());
    args.add(cellOffsets);
    addMemberArgs(args);
    args.add(centerPositions);
    positionsBoxArg = args.addBox(useDouble);
}

void CommonCenters::computePositions(const CommonPeriodicBox& box) {
    if (!positionsKernel)
        return;
    box.setArgs(*positionsKernel, positionsBoxArg, useDouble);
    positionsKernel->execute(layout.numCenters * CommonCenterLayout::CenterBlockSize, CommonCenterLayout::CenterBlockSize);
}
