#include "ReferenceCoordinationKernels.h"
#include "internal/CoordinationForceImpl.h"
#include "openmm/OpenMMException.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/reference/ReferencePlatform.h"
#include <cmath>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

ReferencePlatform::PlatformData& getPlatformData(ContextImpl& context) {
    return *static_cast<ReferencePlatform::PlatformData*>(context.getPlatformData());
}

/**
 * Minimum-image displacement in a periodic box given by OpenMM's reduced box vectors. Wrapping along
 * c, b, a brings the vector into the box's central cell; for a triclinic box the shortest image can
 * still be a neighbouring one, so those 26 are searched too.
 */
class MinimumImage {
public:
    explicit MinimumImage(const Vec3* boxVectors) {
        for (int i = 0; i < 3; i++)
            box[i] = boxVectors[i];
        triclinic = (box[1][0] != 0.0 || box[2][0] != 0.0 || box[2][1] != 0.0);
    }
    Vec3 operator()(Vec3 delta) const {
        delta -= box[2] * std::floor(delta[2] / box[2][2] + 0.5);
        delta -= box[1] * std::floor(delta[1] / box[1][1] + 0.5);
        delta -= box[0] * std::floor(delta[0] / box[0][0] + 0.5);
        if (!triclinic)
            return delta;
        Vec3 best = delta;
        double bestLength2 = delta.dot(delta);
        for (int i = -1; i <= 1; i++)
            for (int j = -1; j <= 1; j++)
                for (int k = -1; k <= 1; k++) {
                    Vec3 image = delta + box[0] * i + box[1] * j + box[2] * k;
                    double length2 = image.dot(image);
                    if (length2 < bestLength2) {
                        bestLength2 = length2;
                        best = image;
                    }
                }
        return best;
    }

private:
    Vec3 box[3];
    bool triclinic;
};

} // namespace

void ReferenceCalcCoordinationForceKernel::initialize(const System& system, const CoordinationForce& force) {
    Lepton::ParsedExpression derivative;
    Lepton::ParsedExpression energy = CoordinationForceImpl::parseEnergy(force, derivative);
    energyExpression = energy.createProgram();
    energyDerivative = derivative.createProgram();
    energyText = force.getEnergyFunction();
    for (int i = 0; i < force.getNumGlobalParameters(); i++)
        globalParameterNames.push_back(force.getGlobalParameterName(i));
    for (const Lepton::ParsedExpression& derivative : CoordinationForceImpl::parseEnergyParameterDerivatives(force))
        energyParameterDerivatives.push_back(derivative.createProgram());
    for (int i = 0; i < force.getNumEnergyParameterDerivatives(); i++)
        energyParameterDerivativeNames.push_back(force.getEnergyParameterDerivativeName(i));
    setPairParameters(force);
}

void ReferenceCalcCoordinationForceKernel::setPairParameters(const CoordinationForce& force) {
    mode = force.getMode();
    groupA = force.getGroupA();
    groupB = force.getGroupB();
    periodic = force.usesPeriodicBoundaryConditions();
    switchingFunction.reset(new SwitchingFunctionEvaluator(CoordinationForceImpl::createSwitchingFunction(force)));
}

void ReferenceCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context,
                                                                   const CoordinationForce& force) {
    CoordinationForceImpl::checkEnergyUnchanged(force, energyText, globalParameterNames, energyParameterDerivativeNames);
    setPairParameters(force);
}

std::map<string, double> ReferenceCalcCoordinationForceKernel::expressionVariables(ContextImpl& context,
                                                                              double s) const {
    std::map<string, double> variables;
    for (const string& name : globalParameterNames)
        variables[name] = context.getParameter(name);
    variables["s"] = s;
    return variables;
}

double ReferenceCalcCoordinationForceKernel::computeCoordination(ContextImpl& context, vector<Vec3>* gradient) const {
    ReferencePlatform::PlatformData& data = getPlatformData(context);
    const vector<Vec3>& positions = *data.positions;
    const MinimumImage minimumImage(data.periodicBoxVectors);
    const SwitchingFunctionEvaluator& sigma = *switchingFunction;
    const double cutoff2 = sigma.getCutoff() * sigma.getCutoff();
    double coordination = 0.0;
    // One term of the sum; first and second are particle indices (a pair of the same atom counts 0).
    auto addPair = [&](int first, int second) {
        if (first == second)
            return;
        Vec3 delta = positions[second] - positions[first];
        if (periodic)
            delta = minimumImage(delta);
        double r2 = delta.dot(delta);
        if (r2 > cutoff2)
            return;
        double r = std::sqrt(r2);
        double dSigmaDr;
        coordination += sigma.evaluate(r, dSigmaDr);
        if (gradient != nullptr && dSigmaDr != 0.0) {
            Vec3 dSigmaDSecond = delta * (dSigmaDr / r);
            (*gradient)[second] += dSigmaDSecond;
            (*gradient)[first] -= dSigmaDSecond;
        }
    };
    const int sizeA = groupA.size(), sizeB = groupB.size();
    if (mode == CoordinationForce::Self) {
        for (int i = 0; i < sizeA; i++)
            for (int j = i + 1; j < sizeA; j++)
                addPair(groupA[i], groupA[j]);
    } else if (mode == CoordinationForce::Dual) {
        for (int i = 0; i < sizeA; i++)
            for (int j = 0; j < sizeB; j++)
                addPair(groupA[i], groupB[j]);
    } else {
        for (int k = 0; k < sizeA; k++)
            addPair(groupA[k], groupB[k]);
    }
    return coordination;
}

double ReferenceCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    if (includeForces)
        gradient.assign(context.getSystem().getNumParticles(), Vec3());
    double s = computeCoordination(context, includeForces ? &gradient : nullptr);
    std::map<string, double> variables = expressionVariables(context, s);
    double energy = (includeEnergy ? energyExpression.evaluate(variables) : 0.0);
    if (!energyParameterDerivatives.empty()) {
        // dE/dlambda at fixed s (s does not depend on the global parameters).
        std::map<string, double>& derivatives = *getPlatformData(context).energyParameterDerivatives;
        for (int i = 0; i < (int) energyParameterDerivatives.size(); i++)
            derivatives[energyParameterDerivativeNames[i]] += energyParameterDerivatives[i].evaluate(variables);
    }
    if (includeForces) {
        double dEnergyDs = energyDerivative.evaluate(variables);
        vector<Vec3>& forces = *getPlatformData(context).forces;
        for (int i = 0; i < (int) forces.size(); i++)
            forces[i] -= gradient[i] * dEnergyDs;
    }
    return energy;
}

double ReferenceCalcCoordinationForceKernel::getCoordination(ContextImpl& context) {
    return computeCoordination(context, nullptr);
}
