#include "internal/CoordinationForceImpl.h"
#include "CoordinationKernels.h"
#include "CoordinationNumberForce.h"
#include "internal/CoordinationNumberResolution.h"
#include "internal/ExpressionVariables.h"
#include "internal/NumberText.h"
#include "lepton/Parser.h"
#include "openmm/OpenMMException.h"
#include "openmm/internal/ContextImpl.h"
#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <set>
#include <utility>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

void fail(const string& message) {
    throw OpenMMException("CoordinationForce: " + message);
}

/**
 * The member id of a group entry (a particle index, or a centre's id -1 - k: numParticles + k), or an
 * OpenMMException naming the entry and what is allowed.
 */
int memberOfEntry(const ResolvedCenters& centers, int entry, const string& groupName, int slot) {
    const int numParticles = centers.numParticles, numCenters = centers.size();
    const string what = "group " + groupName + " entry " + std::to_string(slot) + " is atom index " + std::to_string(entry);
    if (entry >= numParticles)
        fail(what + ", but the System has " + std::to_string(numParticles) + " particles; use indices 0 to " +
             std::to_string(numParticles - 1) + (numCenters > 0 ? ", or a centre's id" : ""));
    if (entry < 0 && -1 - (long long) entry >= numCenters)
        fail(what + ", which is not the id of a centre of this force (it has " + std::to_string(numCenters) +
             (numCenters == 1 ? " centre" : " centres") +
             (numCenters > 0 ? ", ids -1 to " + std::to_string(-numCenters) : "") +
             "); a negative entry stands for a centre: use the id addCenter() returned, or a particle: the System "
             "has " + std::to_string(numParticles) + " particles; use indices 0 to " + std::to_string(numParticles - 1));
    return centers.memberOf(entry, "CoordinationForce: group " + groupName + " entry " + std::to_string(slot));
}

/** The centres' settings as ResolvedCenters::resolve takes them. */
struct CenterSettings {
    vector<vector<int>> particles;
    vector<int> weighting;
    vector<vector<double>> weights;
    vector<bool> makeWhole;
    explicit CenterSettings(const CoordinationForce& force) {
        for (int k = 0; k < force.getNumCenters(); k++) {
            vector<int> members;
            CoordinationForce::CenterWeighting type;
            vector<double> centerWeights;
            bool whole;
            force.getCenterParameters(k, members, type, centerWeights, whole);
            particles.push_back(members);
            weighting.push_back(type);
            weights.push_back(centerWeights);
            makeWhole.push_back(whole);
        }
    }
};

/** The name that starts a message about a force's centres. */
string forceName(const CoordinationForce& force) {
    return (dynamic_cast<const CoordinationNumberForce*>(&force) != nullptr ? "CoordinationNumberForce"
                                                                            : "CoordinationForce");
}

/**
 * Every constant a platform evaluates sigma with is a finite number (the GPU platforms print them into kernel
 * source, which has no spelling for infinity): settings whose constants overflow a double are refused, with
 * the bound that keeps them finite.
 */
void checkConstantsAreFinite(const SwitchingFunctionConstants& c) {
    // (r0 >= 1e-300 nm is checked with the other settings: 1/r0 is finite.)
    if (c.type == CoordinationForce::Cubic && !std::isfinite(c.invLength))
        fail("dmax - d0 = " + numberText(c.dmax - c.d0) + " nm is too small for the Cubic switching function "
             "(1/(dmax - d0) overflows); make dmax - d0 at least 1e-300 nm");
    if (c.isFunctionOfX2() && !std::isfinite(c.inverseR0Squared))
        fail("r0 = " + numberText(c.r0) + " nm is too small for a Custom switching function of x2 (x2 = r^2/r0^2 "
             "and 1/r0^2 overflows); r0 must be at least 1e-150 nm, or write the function of x");
    if (c.type == CoordinationForce::Smap && c.smapA > 1000.0 * c.smapB)
        fail("the Smap exponents a = " + std::to_string(c.smapA) + " and b = " + std::to_string(c.smapB) +
             " are out of range: a/b must be at most 1000 (the function uses 2^(a/b))");
    if (c.type == CoordinationForce::NativeQ && !std::isfinite(c.qCentre))
        fail("the NativeQ centre lambda * reference = " + numberText(c.qCentre) + " nm is not finite; make lambda "
             "and reference smaller (their product must be a finite number of nm)");
}

} // namespace

CoordinationForceImpl::CoordinationForceImpl(const CoordinationForce& owner) : owner(owner) {}

SwitchingFunctionConstants CoordinationForceImpl::resolveSwitching(const CoordinationForce& force) {
    CoordinationForce::SwitchingFunction type = force.getSwitchingFunction();
    // Below 1e-300 nm, 1/r0 approaches the largest double.
    if (!(force.getR0() >= 1e-300) || !std::isfinite(force.getR0()))
        fail("r0 must be a finite number > 0 nm (at least 1e-300 nm), got " + numberText(force.getR0()));
    if (type == CoordinationForce::Rational) {
        if (force.getN() < 1)
            fail("the exponent n must be >= 1, got " + std::to_string(force.getN()));
        if (force.getM() < 0)
            fail("the exponent m must be >= 0 (0 means 2n), got " + std::to_string(force.getM()));
        if (force.getEffectiveM() == force.getN())
            fail("the exponents n and m must differ (the switching function would be 1 everywhere), got n = m = " +
                 std::to_string(force.getN()));
    }
    if (type == CoordinationForce::Smap && (force.getSmapA() < 1 || force.getSmapB() < 1))
        fail("the Smap switching function needs exponents a >= 1 and b >= 1 (PLUMED's A and B), got a = " +
             std::to_string(force.getSmapA()) + ", b = " + std::to_string(force.getSmapB()) +
             "; set them with setSmapExponents()");
    if (type == CoordinationForce::NativeQ) {
        double beta = force.getNativeQBeta(), lambda = force.getNativeQLambda(), reference = force.getNativeQReference();
        if (!(beta > 0.0 && std::isfinite(beta) && lambda > 0.0 && std::isfinite(lambda) && reference > 0.0 &&
              std::isfinite(reference)))
            fail("the NativeQ switching function needs finite beta > 0 (1/nm), lambda > 0 and reference > 0 (nm) "
                 "(PLUMED's BETA, LAMBDA and REF), got beta = " + numberText(beta) + ", lambda = " +
                 numberText(lambda) + ", reference = " + numberText(reference) +
                 "; set them with setNativeQParameters()");
    }
    if (!(force.getD0() >= 0.0) || !std::isfinite(force.getD0()))
        fail("d0 must be a finite number >= 0 nm, got " + numberText(force.getD0()));
    double dmax = force.getDMax();
    if (std::isnan(dmax) || dmax < 0.0)
        fail("dmax must be 0 (automatic), a cutoff > d0, or infinity (no cutoff); got " + numberText(dmax));
    if (dmax > 0.0 && dmax <= force.getD0())
        fail("dmax (" + numberText(dmax) + " nm) must be larger than d0 (" + numberText(force.getD0()) +
             " nm); use 0 for the automatic cutoff or infinity for none");
    if (type == CoordinationForce::Cubic && !(dmax > 0.0 && std::isfinite(dmax)))
        fail("the Cubic switching function goes from 1 at d0 to 0 at dmax, so it needs a finite cutoff; "
             "set it with setDMax() (PLUMED's D_MAX)");
    if (dmax == 0.0 && type == CoordinationForce::Rational && !std::isfinite(force.getEffectiveDMax()))
        fail("the automatic dmax is not finite for these parameters; set dmax explicitly");
    // Every constant of the switching function (a Custom expression is parsed, and checked, here).
    SwitchingFunctionConstants switching = SwitchingFunctionConstants::resolve(force);
    if (switching.stretch) {
        // Stretching divides by sigma(0) - sigma(dmax): that must be a usable number.
        const double stretchFactor = switching.stretchFactor;
        if (!std::isfinite(stretchFactor) || std::fabs(stretchFactor) > 1e6)
            fail("with dmax = " + numberText(force.getEffectiveDMax()) + " nm the switching function at dmax is " +
                 "within 1e-6 of its value at r = 0, so stretching it to reach 0 there would multiply it by " +
                 numberText(stretchFactor) + "; make dmax larger or call setStretch(false)");
    }
    checkConstantsAreFinite(switching);
    return switching;
}

ResolvedCoordinationForce CoordinationForceImpl::resolve(const CoordinationForce& force, const System& system) {
    return resolveWith(force, system.getNumParticles(), [&system](const CoordinationForce& force) {
        const CenterSettings c(force);
        return ResolvedCenters::resolve(system, c.particles, c.weighting, c.weights, c.makeWhole, forceName(force));
    });
}

ResolvedCoordinationForce CoordinationForceImpl::resolve(const CoordinationForce& force, int numParticles) {
    // Room for the centres' member ids after the particles' (the translator checks with INT_MAX particles).
    numParticles = (int) std::min<long long>(numParticles, (long long) INT_MAX - force.getNumCenters());
    return resolveWith(force, numParticles, [numParticles](const CoordinationForce& force) {
        const CenterSettings c(force);
        return ResolvedCenters::resolve(numParticles, false, [](int) { return 1.0; }, c.particles, c.weighting,
                                        c.weights, c.makeWhole, forceName(force));
    });
}

ResolvedCoordinationForce CoordinationForceImpl::resolveWith(
    const CoordinationForce& force, int numParticles,
    const std::function<ResolvedCenters(const CoordinationForce&)>& resolveCenters) {
    auto* numbers = dynamic_cast<const CoordinationNumberForce*>(&force);
    const vector<int>& groupA = force.getGroupA();
    const vector<int>& groupB = force.getGroupB();
    CoordinationForce::Mode mode = force.getMode();
    if (groupA.empty())
        fail("group A is empty; set the atoms with setGroupA()");
    ResolvedCenters centers = resolveCenters(force);
    vector<int> membersA, membersB;
    for (int slot = 0; slot < (int) groupA.size(); slot++)
        membersA.push_back(memberOfEntry(centers, groupA[slot], "A", slot));
    for (int slot = 0; slot < (int) groupB.size(); slot++)
        membersB.push_back(memberOfEntry(centers, groupB[slot], "B", slot));
    if (mode == CoordinationForce::Self && !groupB.empty())
        fail("Self mode uses group A only, but group B has " + std::to_string(groupB.size()) +
             " atoms; use setMode(Dual) for A x B pairs, or clear group B");
    if (mode == CoordinationForce::Dual && groupB.empty())
        fail("Dual mode needs a non-empty group B; set it with setGroupB(), or use Self mode");
    if (mode == CoordinationForce::Pair && groupA.size() != groupB.size())
        fail("Pair mode pairs A[k] with B[k], but group A has " + std::to_string(groupA.size()) +
             " atoms and group B has " + std::to_string(groupB.size()) + "; give both groups the same length");
    ResolvedCoordinationForce resolved;
    resolved.switching = resolveSwitching(force);
    std::set<string> names;
    for (int i = 0; i < force.getNumGlobalParameters(); i++) {
        const string& name = force.getGlobalParameterName(i);
        if (name.empty())
            fail("global parameter " + std::to_string(i) + " has an empty name");
        if (name == "s" && numbers == nullptr)
            fail("a global parameter may not be called \"s\": that is the coordination number; rename it");
        if (!names.insert(name).second)
            fail("the global parameter \"" + name + "\" is defined twice; give each parameter a unique name");
    }
    resolved.energyExpression = force.getEnergyFunction();
    for (int i = 0; i < force.getNumGlobalParameters(); i++)
        resolved.globalParameterNames.push_back(force.getGlobalParameterName(i));
    resolved.energy = parseEnergy(force, resolved.energyDerivative);
    if (numbers != nullptr)
        resolved.numbers = CoordinationNumberResolution::resolve(*numbers, groupA.size(), resolved.energy);
    std::set<string> derivativeNames;
    for (int i = 0; i < force.getNumEnergyParameterDerivatives(); i++) {
        const string& name = force.getEnergyParameterDerivativeName(i);
        if (names.find(name) == names.end())
            fail("an energy derivative is requested for \"" + name + "\", which is not a global parameter of this "
                 "force; add it with addGlobalParameter() first");
        if (!derivativeNames.insert(name).second)
            fail("the energy derivative with respect to \"" + name + "\" is requested twice; request it once");
        resolved.energyParameterDerivativeNames.push_back(name);
        resolved.energyParameterDerivatives.push_back(resolved.energy.differentiate(name).optimize());
    }

    // The groups, and the map of their slots to the unique particles (one gradient row each).
    resolved.mode = mode;
    resolved.periodic = force.usesPeriodicBoundaryConditions();
    resolved.groupA = membersA;
    if (mode != CoordinationForce::Self)
        resolved.groupB = membersB;
    std::set<int> unique(resolved.groupA.begin(), resolved.groupA.end());
    unique.insert(resolved.groupB.begin(), resolved.groupB.end());
    resolved.uniqueParticles.assign(unique.begin(), unique.end());
    std::map<int, int> uniqueIndex;
    for (int i = 0; i < (int) resolved.uniqueParticles.size(); i++)
        uniqueIndex[resolved.uniqueParticles[i]] = i;
    for (int atom : resolved.groupA)
        resolved.uniqueA.push_back(uniqueIndex[atom]);
    for (int atom : resolved.groupB)
        resolved.uniqueB.push_back(uniqueIndex[atom]);
    if (mode == CoordinationForce::Self)
        resolved.sameAtomPossible = (unique.size() != resolved.groupA.size());
    else if (mode == CoordinationForce::Dual) {
        const std::set<int> setA(resolved.groupA.begin(), resolved.groupA.end());
        for (int atom : resolved.groupB)
            resolved.sameAtomPossible = resolved.sameAtomPossible || setA.count(atom) > 0;
    }
    // The coordinates read: the groups' particles and their centres' particles.
    std::set<int> input;
    for (int member : unique) {
        if (!centers.isCenter(member))
            input.insert(member);
        else {
            const vector<int>& particles = centers.particles[member - numParticles];
            input.insert(particles.begin(), particles.end());
        }
    }
    resolved.inputParticles.assign(input.begin(), input.end());
    resolved.centers = std::move(centers);
    return resolved;
}

Lepton::ParsedExpression CoordinationForceImpl::parseEnergy(const CoordinationForce& force,
                                                            Lepton::ParsedExpression& derivative) {
    const string& expression = force.getEnergyFunction();
    Lepton::ParsedExpression energy;
    try {
        energy = Lepton::Parser::parse(expression);
    } catch (const std::exception& error) {
        fail("cannot parse the energy expression \"" + expression + "\": " + error.what());
    }
    std::set<string> allowed;
    for (int i = 0; i < force.getNumCollectiveVariables(); i++)
        allowed.insert(force.getCollectiveVariableName(i));
    for (int i = 0; i < force.getNumGlobalParameters(); i++)
        allowed.insert(force.getGlobalParameterName(i));
    std::set<string> used;
    collectVariables(energy.getRootNode(), used);
    const bool perAtom = (dynamic_cast<const CoordinationNumberForce*>(&force) != nullptr);
    for (const string& variable : used)
        if (allowed.find(variable) == allowed.end())
            fail("the energy expression \"" + expression + "\" uses \"" + variable + "\", which is neither " +
                 (perAtom ? "a reduction's name" : "s") + " nor a global parameter; " +
                 (perAtom ? "add a reduction of that name with addReduction(), or a global parameter with addGlobalParameter()"
                          : "add it with addGlobalParameter()"));
    energy = energy.optimize();
    if (perAtom) {
        derivative = Lepton::Parser::parse("0"); // its derivatives by the reductions are resolved with them
        return energy;
    }
    try {
        derivative = energy.differentiate("s").optimize();
    } catch (const std::exception& error) {
        fail("cannot differentiate the energy expression \"" + expression + "\" with respect to s: " + error.what());
    }
    return energy;
}

void CoordinationForceImpl::checkEnergyUnchanged(const ResolvedCoordinationForce& before,
                                                 const ResolvedCoordinationForce& after) {
    if (after.energyExpression != before.energyExpression)
        fail("updateParametersInContext() cannot change the energy expression (from \"" + before.energyExpression +
             "\" to \"" + after.energyExpression + "\"); call Context.reinitialize() or create a new Context");
    if (after.globalParameterNames != before.globalParameterNames)
        fail("updateParametersInContext() cannot add, remove or rename global parameters; call "
             "Context.reinitialize() or create a new Context");
    vector<string> namesBefore, namesAfter;
    for (const ResolvedReduction& reduction : before.numbers.reductions)
        namesBefore.push_back(reduction.name);
    for (const ResolvedReduction& reduction : after.numbers.reductions)
        namesAfter.push_back(reduction.name);
    if (namesAfter != namesBefore)
        fail("updateParametersInContext() cannot add, remove or rename reductions (the energy's variables); call "
             "Context.reinitialize() or create a new Context");
    if (after.energyParameterDerivativeNames != before.energyParameterDerivativeNames)
        fail("updateParametersInContext() cannot change which energy parameter derivatives are computed; call "
             "Context.reinitialize() or create a new Context");
}

void CoordinationForceImpl::getCollectiveVariableValues(ContextImpl& context, std::vector<double>& values) {
    kernel.getAs<CalcCoordinationForceKernel>().getCollectiveVariableValues(context, values);
}

void CoordinationForceImpl::getCoordinationNumbers(ContextImpl& context, std::vector<double>& values) {
    kernel.getAs<CalcCoordinationForceKernel>().getCoordinationNumbers(context, values);
}

void CoordinationForceImpl::initialize(ContextImpl& context) {
    const System& system = context.getSystem();
    resolved = resolve(owner, system);
    kernel = context.getPlatform().createKernel(CalcCoordinationForceKernel::Name(), context);
    kernel.getAs<CalcCoordinationForceKernel>().initialize(system, resolved);
}

double CoordinationForceImpl::calcForcesAndEnergy(ContextImpl& context, bool includeForces, bool includeEnergy,
                                                  int groups) {
    if ((groups & (1 << owner.getForceGroup())) == 0)
        return 0.0;
    return kernel.getAs<CalcCoordinationForceKernel>().execute(context, includeForces, includeEnergy);
}

std::map<string, double> CoordinationForceImpl::getDefaultParameters() {
    std::map<string, double> parameters;
    for (int i = 0; i < owner.getNumGlobalParameters(); i++)
        parameters[owner.getGlobalParameterName(i)] = owner.getGlobalParameterDefaultValue(i);
    return parameters;
}

std::vector<string> CoordinationForceImpl::getKernelNames() {
    return {CalcCoordinationForceKernel::Name()};
}

double CoordinationForceImpl::getCoordination(ContextImpl& context) {
    return kernel.getAs<CalcCoordinationForceKernel>().getCoordination(context);
}

long long CoordinationForceImpl::getNumCandidatePairs(ContextImpl& context) {
    return kernel.getAs<CalcCoordinationForceKernel>().getNumCandidatePairs(context);
}

void CoordinationForceImpl::updateParametersInContext(ContextImpl& context) {
    ResolvedCoordinationForce next = resolve(owner, context.getSystem());
    checkEnergyUnchanged(resolved, next);
    kernel.getAs<CalcCoordinationForceKernel>().copyParametersToContext(context, next);
    resolved = std::move(next);
    context.systemChanged();
}

CalcCoordinationForceKernel& CoordinationForceImpl::getKernel() {
    return kernel.getAs<CalcCoordinationForceKernel>();
}
