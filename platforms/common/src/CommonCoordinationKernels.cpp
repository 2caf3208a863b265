#include "CommonCoordinationKernels.h"
#include "CoordinationKernelSources.h"
#include "internal/CoordinationForceImpl.h"
#include "openmm/OpenMMException.h"
#include "openmm/common/ContextSelector.h"
#include "openmm/common/ExpressionUtilities.h"
#include "openmm/internal/ContextImpl.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

const int TileSize = 32;
const int WarpsPerBlock = 4;
const int PairBlockSize = 128;
const int FinishBlockSize = 128;

} // namespace

struct CommonCalcCoordinationForceKernel::DeviceData {
    CoordinationForce::Mode mode;
    bool periodic;
    vector<int> groupA, groupB;        // the user's particle indices, one per slot
    vector<int> uniqueParticles;       // every particle in a group, once
    ComputeArray particlesA, particlesB, particles; // the same, on the device (uploaded once)
    ComputeArray positionOfParticle;   // particle -> current atom position (device-side, after reorders)
    ComputeArray atomsA, atomsB;       // slot -> current atom index (follows reordering)
    ComputeArray uniqueA, uniqueB;     // slot -> index into uniqueParticles (gradient row)
    ComputeArray uniqueAtoms;          // unique index -> current atom index
    ComputeArray gradientBuffer;       // ds/dx, 64-bit fixed point, 3 x numUnique
    ComputeArray cellOffsets;          // unique index -> periodic cells OpenMM wrapped it by (non-periodic forces)
    vector<mm_int4> hostCellOffsets;   // what cellOffsets holds
    vector<int> hostPositionOfParticle; // host copy of the current order (updated when atoms are reordered)
    ComputeArray partialSums, globals, results;
    ComputeKernel pairKernel, finishKernel, forceKernel, invertKernel, translateKernel;
    int pairWorkUnits, pairBlockSize, numPartials;
};

class CommonCalcCoordinationForceKernel::ReorderListener : public ComputeContext::ReorderListener {
public:
    explicit ReorderListener(CommonCalcCoordinationForceKernel& owner) : owner(owner) {}
    void execute() override {
        owner.followAtomOrder();
    }

private:
    CommonCalcCoordinationForceKernel& owner;
};

CommonCalcCoordinationForceKernel::CommonCalcCoordinationForceKernel(const string& name, const Platform& platform,
                                                                     ComputeContext& cc)
    : CalcCoordinationForceKernel(name, platform), cc(cc) {}

CommonCalcCoordinationForceKernel::~CommonCalcCoordinationForceKernel() {}

bool CommonCalcCoordinationForceKernel::mixedIsDouble() const {
    return cc.getUseDoublePrecision() || cc.getUseMixedPrecision();
}

void CommonCalcCoordinationForceKernel::initialize(const System& system, const CoordinationForce& force) {
    ContextSelector selector(cc);
    energyText = force.getEnergyFunction();
    for (int i = 0; i < force.getNumGlobalParameters(); i++)
        globalParameterNames.push_back(force.getGlobalParameterName(i));
    build(force);
    cc.addReorderListener(new ReorderListener(*this));
}

void CommonCalcCoordinationForceKernel::build(const CoordinationForce& force) {
    std::unique_ptr<DeviceData> next(new DeviceData());
    DeviceData& d = *next;
    d.mode = force.getMode();
    d.periodic = force.usesPeriodicBoundaryConditions();
    d.groupA = force.getGroupA();
    d.groupB = force.getGroupB();
    std::set<int> unique(d.groupA.begin(), d.groupA.end());
    unique.insert(d.groupB.begin(), d.groupB.end());
    d.uniqueParticles.assign(unique.begin(), unique.end());
    std::map<int, int> uniqueIndex;
    for (int i = 0; i < (int) d.uniqueParticles.size(); i++)
        uniqueIndex[d.uniqueParticles[i]] = i;
    vector<int> slotUniqueA, slotUniqueB;
    for (int atom : d.groupA)
        slotUniqueA.push_back(uniqueIndex[atom]);
    for (int atom : d.groupB)
        slotUniqueB.push_back(uniqueIndex[atom]);
    const int numA = d.groupA.size(), numB = d.groupB.size(), numUnique = d.uniqueParticles.size();

    // Work decomposition.
    const int tilesA = (numA + TileSize - 1) / TileSize, tilesB = (numB + TileSize - 1) / TileSize;
    long long numTiles = 0;
    if (d.mode == CoordinationForce::Self)
        numTiles = (long long) tilesA * (tilesA + 1) / 2;
    else if (d.mode == CoordinationForce::Dual)
        numTiles = (long long) tilesA * tilesB;
    if (numTiles > 2000000000LL)
        throw OpenMMException("CoordinationForce: the groups are too large for the GPU kernel (" +
                              std::to_string(numTiles) + " tiles of 32x32 pairs; at most 2e9)");
    if (d.mode == CoordinationForce::Pair) {
        d.pairBlockSize = PairBlockSize;
        d.pairWorkUnits = std::max(numA, 1);
    }
    else {
        d.pairBlockSize = TileSize * WarpsPerBlock;
        long long groupsNeeded = (numTiles + WarpsPerBlock - 1) / WarpsPerBlock;
        d.pairWorkUnits = (int) std::min<long long>(std::max<long long>(groupsNeeded, 1), cc.getNumThreadBlocks()) *
                          d.pairBlockSize;
    }
    // The platforms launch min(ceil(workUnits/blockSize), numThreadBlocks) blocks.
    d.numPartials = std::min((d.pairWorkUnits + d.pairBlockSize - 1) / d.pairBlockSize, cc.getNumThreadBlocks());

    // Arrays.
    const int mixedSize = (mixedIsDouble() ? sizeof(double) : sizeof(float));
    d.particlesA.initialize<int>(cc, std::max(numA, 1), "coordinationParticlesA");
    d.particlesB.initialize<int>(cc, std::max(numB, 1), "coordinationParticlesB");
    d.particles.initialize<int>(cc, std::max(numUnique, 1), "coordinationParticles");
    d.positionOfParticle.initialize<int>(cc, cc.getPaddedNumAtoms(), "coordinationPositionOfParticle");
    d.atomsA.initialize<int>(cc, std::max(numA, 1), "coordinationAtomsA");
    d.atomsB.initialize<int>(cc, std::max(numB, 1), "coordinationAtomsB");
    d.uniqueA.initialize<int>(cc, std::max(numA, 1), "coordinationUniqueA");
    d.uniqueB.initialize<int>(cc, std::max(numB, 1), "coordinationUniqueB");
    d.uniqueAtoms.initialize<int>(cc, std::max(numUnique, 1), "coordinationUniqueAtoms");
    d.gradientBuffer.initialize<long long>(cc, 3 * std::max(numUnique, 1), "coordinationGradient");
    d.cellOffsets.initialize<mm_int4>(cc, std::max(numUnique, 1), "coordinationCellOffsets");
    d.hostCellOffsets.assign(d.cellOffsets.getSize(), mm_int4(0, 0, 0, 0));
    d.cellOffsets.upload(d.hostCellOffsets);
    d.partialSums.initialize(cc, std::max(d.numPartials, 1), mixedSize, "coordinationPartialSums");
    d.globals.initialize(cc, std::max((int) globalParameterNames.size(), 1), mixedSize, "coordinationGlobals");
    d.results.initialize(cc, 3, mixedSize, "coordinationResults"); // s, dE/ds, E
    if (numA > 0) {
        d.particlesA.upload(d.groupA);
        d.uniqueA.upload(slotUniqueA);
    }
    if (numB > 0) {
        d.particlesB.upload(d.groupB);
        d.uniqueB.upload(slotUniqueB);
    }
    if (numUnique > 0)
        d.particles.upload(d.uniqueParticles);
    d.gradientBuffer.upload(vector<long long>(d.gradientBuffer.getSize(), 0));

    // Program: the switching function's constants are compiled in.
    RationalSwitchingFunction sigma = CoordinationForceImpl::createSwitchingFunction(force);
    const int n = force.getN(), m = force.getEffectiveM();
    const double cutoff = force.getEffectiveDMax();
    std::map<string, string> defines;
    defines["TILE_SIZE"] = cc.intToString(TileSize);
    defines["WARPS_PER_BLOCK"] = cc.intToString(WarpsPerBlock);
    defines["PAIR_BLOCK_SIZE"] = cc.intToString(PairBlockSize);
    defines["FINISH_BLOCK_SIZE"] = cc.intToString(FinishBlockSize);
    defines["NUM_A"] = cc.intToString(numA);
    defines["NUM_B"] = cc.intToString(numB);
    defines["NUM_UNIQUE"] = cc.intToString(numUnique);
    defines["NUM_TILES_A"] = cc.intToString(tilesA);
    defines["NUM_TILES_B"] = cc.intToString(tilesB);
    defines["NUM_TILES"] = cc.intToString((int) numTiles);
    defines["PADDED_NUM_ATOMS"] = cc.intToString(cc.getPaddedNumAtoms());
    defines[d.mode == CoordinationForce::Self ? "MODE_SELF" : (d.mode == CoordinationForce::Dual ? "MODE_DUAL" : "MODE_PAIR")] = "1";
    if (d.periodic)
        defines["USE_PERIODIC"] = "1";
    // A cutoff beyond 1e15 nm excludes nothing and its square does not fit in a float: treat it as none.
    if (std::isfinite(cutoff) && cutoff < 1e15) {
        defines["USE_CUTOFF"] = "1";
        defines["CUTOFF_SQUARED"] = cc.doubleToString(cutoff * cutoff);
    }
    if (!cc.getUseDoublePrecision() && 1.0 / force.getR0() > 1e30)
        throw OpenMMException("CoordinationForce: r0 = " + cc.doubleToString(force.getR0()) +
                              " nm is too small for single or mixed precision; use Precision=double");
    defines["INV_R0"] = cc.doubleToString(1.0 / force.getR0());
    defines["D0"] = cc.doubleToString(force.getD0());
    defines["N_EXP"] = cc.intToString(n);
    defines["M_EXP"] = cc.intToString(m);
    defines["M_IS_2N"] = (m == 2 * n ? "1" : "0");
    defines["N_OVER_M"] = cc.doubleToString(n / (double) m);
    defines["TAYLOR_BAND"] = cc.doubleToString(RationalSwitchingFunction::TaylorBand);
    defines["TAYLOR_FIRST"] = cc.doubleToString(n * (n - m) / (2.0 * m));
    defines["TAYLOR_SECOND"] = cc.doubleToString(n * (m * (double) m - 3.0 * m * (n - 1) + n * (2.0 * n - 3.0)) / (6.0 * m));
    if (!cc.getUseDoublePrecision())
        defines["NEAR_ONE_BAND"] = cc.doubleToString(0.25);
    defines["STRETCH_FACTOR"] = cc.doubleToString(sigma.getStretchFactor());
    defines["SHIFT"] = cc.doubleToString(sigma.getShift());

    // E(s) and dE/ds, generated from the expression; global parameters are read from device memory.
    Lepton::ParsedExpression derivative;
    Lepton::ParsedExpression energy = CoordinationForceImpl::parseEnergy(force, derivative);
    std::map<string, Lepton::ParsedExpression> expressions;
    expressions["energy = "] = energy;
    expressions["dEdS = "] = derivative;
    std::map<string, string> variables;
    variables["s"] = "s";
    for (int i = 0; i < (int) globalParameterNames.size(); i++)
        variables[globalParameterNames[i]] = "globals[" + cc.intToString(i) + "]";
    std::map<string, string> replacements;
    replacements["COMPUTE_ENERGY"] = cc.getExpressionUtilities().createExpressions(
        expressions, variables, vector<const TabulatedFunction*>(), vector<std::pair<string, string>>(), "energyTemp",
        "mixed");
    ComputeProgram program = cc.compileProgram(cc.replaceStrings(CoordinationKernelSources::coordination, replacements), defines);

    d.pairKernel = program->createKernel(d.mode == CoordinationForce::Pair ? "computeCoordinationPairs" : "computeCoordinationTiles");
    d.pairKernel->addArg(cc.getPosq());
    d.pairKernel->addArg(d.atomsA);
    d.pairKernel->addArg(d.atomsB);
    d.pairKernel->addArg(d.uniqueA);
    d.pairKernel->addArg(d.uniqueB);
    d.pairKernel->addArg(d.gradientBuffer);
    d.pairKernel->addArg(d.partialSums);
    d.pairKernel->addArg(1); // computeGradient
    for (int i = 0; i < 5; i++) {
        if (cc.getUseDoublePrecision())
            d.pairKernel->addArg(mm_double4(0, 0, 0, 0));
        else
            d.pairKernel->addArg(mm_float4(0, 0, 0, 0));
    }
    d.pairKernel->addArg(0); // triclinic
    if (cc.getUseDoublePrecision())
        d.pairKernel->addArg(0.0);
    else
        d.pairKernel->addArg(0.0f);
    d.pairKernel->addArg(d.cellOffsets);

    d.finishKernel = program->createKernel("finishCoordination");
    d.finishKernel->addArg(d.partialSums);
    d.finishKernel->addArg(d.numPartials);
    d.finishKernel->addArg(d.globals);
    d.finishKernel->addArg(d.results);
    d.finishKernel->addArg(cc.getEnergyBuffer());
    d.finishKernel->addArg(1); // addEnergy

    d.forceKernel = program->createKernel("applyCoordinationForces");
    d.forceKernel->addArg(d.gradientBuffer);
    d.forceKernel->addArg(d.uniqueAtoms);
    d.forceKernel->addArg(d.results);
    d.forceKernel->addArg(cc.getLongForceBuffer());

    d.invertKernel = program->createKernel("invertAtomOrder");
    d.invertKernel->addArg(cc.getAtomIndexArray());
    d.invertKernel->addArg(d.positionOfParticle);
    d.invertKernel->addArg(cc.getNumAtoms());
    d.translateKernel = program->createKernel("translateParticles");
    d.translateKernel->addArg(d.positionOfParticle);
    d.translateKernel->addArg(d.particlesA);
    d.translateKernel->addArg(d.atomsA);
    d.translateKernel->addArg(d.particlesB);
    d.translateKernel->addArg(d.atomsB);
    d.translateKernel->addArg(d.particles);
    d.translateKernel->addArg(d.uniqueAtoms);

    data = std::move(next);
    followAtomOrder();
    globalParameterValues.clear(); // upload on the next evaluation
}

void CommonCalcCoordinationForceKernel::followAtomOrder() {
    if (!data)
        return;
    ContextSelector selector(cc);
    DeviceData& d = *data;
    if (!d.periodic) {
        // updateCellOffsets() looks up the force's atoms in OpenMM's host-side cell offsets.
        const vector<int>& order = cc.getAtomIndex();
        d.hostPositionOfParticle.assign(order.size(), 0);
        for (int i = 0; i < (int) order.size(); i++)
            d.hostPositionOfParticle[order[i]] = i;
    }
    d.invertKernel->execute(cc.getNumAtoms());
    d.translateKernel->execute(std::max({(int) d.groupA.size(), (int) d.groupB.size(), (int) d.uniqueParticles.size(), 1}));
}

void CommonCalcCoordinationForceKernel::updateCellOffsets() {
    // Only a force without periodic boundary conditions needs them. The offsets change when OpenMM
    // wraps atoms (at reorders, on setPositions): compare on the host, upload only on a change.
    DeviceData& d = *data;
    if (d.periodic || d.uniqueParticles.empty())
        return;
    const vector<mm_int4>& offsets = cc.getPosCellOffsets();
    bool changed = false;
    for (int i = 0; i < (int) d.uniqueParticles.size(); i++) {
        const mm_int4& now = offsets[d.hostPositionOfParticle[d.uniqueParticles[i]]];
        mm_int4& stored = d.hostCellOffsets[i];
        if (now.x != stored.x || now.y != stored.y || now.z != stored.z) {
            stored = mm_int4(now.x, now.y, now.z, 0);
            changed = true;
        }
    }
    if (changed)
        d.cellOffsets.upload(d.hostCellOffsets);
}

void CommonCalcCoordinationForceKernel::updateGlobalParameters(ContextImpl& context) {
    vector<double> values;
    for (const string& name : globalParameterNames)
        values.push_back(context.getParameter(name));
    if (values == globalParameterValues || values.empty())
        return;
    globalParameterValues = values;
    if (mixedIsDouble())
        data->globals.upload(values);
    else
        data->globals.upload(vector<float>(values.begin(), values.end()));
}

void CommonCalcCoordinationForceKernel::launch(bool computeGradient, bool addEnergy) {
    DeviceData& d = *data;
    if (cc.getNumContexts() > 1) {
        // With several devices OpenMM clears this device's force and energy buffers from a worker
        // thread: let that finish before our kernels are queued, or it could erase their results.
        cc.getWorkThread().flush();
    }
    updateCellOffsets();
    d.pairKernel->setArg(7, computeGradient ? 1 : 0);
    Vec3 a, b, c;
    cc.getPeriodicBoxVectors(a, b, c);
    // Half the smallest distance between opposite faces: below it the wrapped vector is the minimum image.
    double volume = a[0] * b[1] * c[2];
    auto length = [](const Vec3& v) { return std::sqrt(v.dot(v)); };
    double width = std::min({volume / length(b.cross(c)), volume / length(c.cross(a)), volume / length(a.cross(b))});
    bool triclinic = (b[0] != 0.0 || c[0] != 0.0 || c[1] != 0.0);
    if (cc.getUseDoublePrecision()) {
        d.pairKernel->setArg(8, mm_double4(a[0], b[1], c[2], 0.0));
        d.pairKernel->setArg(9, mm_double4(1.0 / a[0], 1.0 / b[1], 1.0 / c[2], 0.0));
        d.pairKernel->setArg(10, mm_double4(a[0], a[1], a[2], 0.0));
        d.pairKernel->setArg(11, mm_double4(b[0], b[1], b[2], 0.0));
        d.pairKernel->setArg(12, mm_double4(c[0], c[1], c[2], 0.0));
        d.pairKernel->setArg(14, 0.25 * width * width);
    }
    else {
        d.pairKernel->setArg(8, mm_float4((float) a[0], (float) b[1], (float) c[2], 0.0f));
        d.pairKernel->setArg(9, mm_float4((float) (1.0 / a[0]), (float) (1.0 / b[1]), (float) (1.0 / c[2]), 0.0f));
        d.pairKernel->setArg(10, mm_float4((float) a[0], (float) a[1], (float) a[2], 0.0f));
        d.pairKernel->setArg(11, mm_float4((float) b[0], (float) b[1], (float) b[2], 0.0f));
        d.pairKernel->setArg(12, mm_float4((float) c[0], (float) c[1], (float) c[2], 0.0f));
        // Slightly below the true value so rounding never skips a needed image search.
        d.pairKernel->setArg(14, (float) (0.25 * width * width * 0.999));
    }
    d.pairKernel->setArg(13, triclinic ? 1 : 0);
    d.pairKernel->execute(d.pairWorkUnits, d.pairBlockSize);
    d.finishKernel->setArg(5, addEnergy ? 1 : 0);
    d.finishKernel->execute(FinishBlockSize, FinishBlockSize);
    if (computeGradient)
        d.forceKernel->execute(std::max((int) d.uniqueParticles.size(), 1));
}

double CommonCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    launch(includeForces, true);
    return 0.0; // the energy was added to the context's energy buffer on the device
}

double CommonCalcCoordinationForceKernel::getCoordination(ContextImpl& context) {
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    launch(false, false);
    if (mixedIsDouble()) {
        vector<double> results;
        data->results.download(results);
        return results[0];
    }
    vector<float> results;
    data->results.download(results);
    return results[0];
}

void CommonCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context, const CoordinationForce& force) {
    ContextSelector selector(cc);
    CoordinationForceImpl::checkEnergyUnchanged(force, energyText, globalParameterNames);
    build(force);
}
