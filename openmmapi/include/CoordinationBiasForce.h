#ifndef OPENMM_COORDINATION_COORDINATIONBIASFORCE_H_
#define OPENMM_COORDINATION_COORDINATIONBIASFORCE_H_

#include "internal/windowsExportCoordination.h"
#include "openmm/Context.h"
#include "openmm/Force.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * What every force of this plugin shares: a bias energy E(v_1, ..., v_k), a Lepton expression of the force's
 * collective variables and of global parameters, whose forces are -sum_j dE/dv_j dv_j/dx; the global parameters
 * and the energy-parameter derivatives (as OpenMM's custom forces have them); periodic boundary conditions; the
 * centres that stand where a particle may (PLUMED's COM and CENTER); and the reading of the variables in a Context.
 * Its subclasses are CoordinationForce (one variable s), CoordinationNumberForce (the reductions of per-atom
 * coordination numbers) and ContactMapForce (the contacts' sum, distance or components); it is not created itself.
 *
 * The energy is checked when a Context is created: a syntax error, or a variable that is neither one of the force's
 * collective variables (getCollectiveVariableName()) nor a global parameter, throws an OpenMMException there. Where
 * there is no finite answer (a coordinate that is not finite, or a variable, the energy or one of its derivatives
 * that is not), the energy is NaN and no force is applied, on every platform.
 *
 * Centres (PLUMED's COM and CENTER virtual atoms): addCenter() defines a point computed from the positions of a
 * list of particles at every evaluation, and returns the id (-1 for the first centre, -2 for the second, ...) that
 * stands for it wherever the force takes a particle index (a group entry, a contact's particle):
 * @code
 * int ligand = force.addCenter(ligandAtoms, CoordinationForce::CenterOfMass);   // PLUMED: c1: COM ATOMS=...
 * force.setGroupA({ligand});                                                  // GROUPA=c1
 * @endcode
 *
 * The centre is sum_k w_k x_k / sum_k w_k with w_k = 1 (GeometricCenter, PLUMED's CENTER), the System's masses
 * (CenterOfMass: COM, or CENTER MASS) or given weights (WeightedCenter: CENTER WEIGHTS=). As PLUMED does unless
 * NOPBC, when the System uses periodic boundary conditions (System::usesPeriodicBoundaryConditions(): one of its
 * forces does) the group is first made whole: each particle is placed at the minimum image of the one before it in
 * the list; a centre not made whole takes the positions as the Context holds them. The force on the centre is spread
 * back to its particles, w_k / sum w of it to particle k. A centre is one member wherever its id appears: listed
 * twice, its pair with itself counts 0, as an atom's does; a centre and one of its own particles are two members. A
 * non-finite coordinate of a centre's particle is a non-finite position of the force (NaN energy and no force).
 */
class OPENMM_EXPORT_COORDINATION CoordinationBiasForce : public OpenMM::Force {
public:
    /**
     * The type of a switching function sigma(r) (PLUMED's SWITCH types; SwitchingSettings gives each definition).
     */
    enum SwitchingFunction {
        /** PLUMED's RATIONAL: (1 - x^n) / (1 - x^m) (the default). */
        Rational = 0,
        /** PLUMED's EXP: exp(-x). */
        Exponential = 1,
        /** PLUMED's GAUSSIAN: exp(-x^2 / 2). */
        Gaussian = 2,
        /** PLUMED's SMAP: (1 + (2^(a/b) - 1) x^a)^(-b/a). */
        Smap = 3,
        /** PLUMED's CUBIC: (x - 1)^2 (1 + 2x) with x = (r - d0) / (dmax - d0). */
        Cubic = 4,
        /** PLUMED's TANH: 1 - tanh(x). */
        Tanh = 5,
        /** PLUMED's COSINUS: (cos(pi x) + 1) / 2 for x <= 1, 0 beyond. */
        Cosinus = 6,
        /** PLUMED's Q (native contacts): 1 / (1 + exp(beta (r - lambda ref))). */
        NativeQ = 7,
        /** PLUMED's CUSTOM: a Lepton expression of x or of x2 = r^2 / r0^2. */
        Custom = 8
    };
    /**
     * How a centre (addCenter()) weighs its particles.
     */
    enum CenterWeighting {
        /** Weights 1: the geometric centre (PLUMED's CENTER). */
        GeometricCenter = 0,
        /** The System's particle masses: the centre of mass (PLUMED's COM, or CENTER MASS). */
        CenterOfMass = 1,
        /** Weights given per particle (PLUMED's CENTER WEIGHTS=). */
        WeightedCenter = 2
    };
    /**
     * The largest exponent of a switching function (SwitchingSettings::MaxExponent): 2^24 = 16777216.
     */
    static const int MaxExponent = 16777216;
    /** Destroy the force (a System that holds it destroys it). */
    ~CoordinationBiasForce() override;
    /**
     * Get the energy expression.
     *
     * @return a Lepton expression of the collective variables and the global parameters (kJ/mol)
     */
    const std::string& getEnergyFunction() const { return energyExpression; }
    /**
     * Set the energy expression. Checked when a Context is created (an unknown variable or a syntax error throws an
     * OpenMMException there).
     *
     * @param energy   a Lepton expression of the collective variables (getCollectiveVariableName()) and of the global
     *                 parameters, in kJ/mol
     */
    void setEnergyFunction(const std::string& energy) { energyExpression = energy; }
    /**
     * Get the number of collective variables, the variables the energy expression may use, as OpenMM's
     * CustomCVForce counts its own.
     *
     * @return the number of variables
     */
    virtual int getNumCollectiveVariables() const = 0;
    /**
     * Get the name of a collective variable: the variable the energy expression uses for it.
     *
     * @param index   0 .. getNumCollectiveVariables() - 1 (another index throws an OpenMMException)
     * @return its name
     */
    virtual std::string getCollectiveVariableName(int index) const = 0;
    /**
     * Get the values of the collective variables at the context's current positions, computed by the context's
     * platform, in the order of getCollectiveVariableName() (as CustomCVForce's method of this name). For a force
     * added to a CustomCVForce as a collective variable (app.Metadynamics does so), pass the Context of the
     * CustomCVForce's System: the values are computed in its inner context.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     * @param values    the values
     */
    void getCollectiveVariableValues(OpenMM::Context& context, std::vector<double>& values) const;
    /**
     * Copy this force's settings into an existing Context, as if it had been created anew. The energy expression,
     * the global parameters (names and number), the requested energy-parameter derivatives and the collective
     * variables' names cannot be changed this way (an OpenMMException says so): create a new Context for that.
     * Parameter values are changed with Context::setParameter(). For a collective variable of a CustomCVForce, the
     * settings go to the CustomCVForce's inner context.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     */
    void updateParametersInContext(OpenMM::Context& context);
    /**
     * Set whether distances use the minimum image convention with the context's periodic box (rectangular or
     * triclinic).
     *
     * @param periodic   default false (PLUMED's NOPBC); the PLUMED translator sets true unless NOPBC is given
     */
    void setUsesPeriodicBoundaryConditions(bool periodic) { this->periodic = periodic; }
    /**
     * Get whether distances use periodic boundary conditions.
     *
     * @return default false
     */
    bool usesPeriodicBoundaryConditions() const override { return periodic; }
    /**
     * Get the number of global parameters the energy expression may use.
     *
     * @return default 0
     */
    int getNumGlobalParameters() const { return globalParameterNames.size(); }
    /**
     * Add a global parameter the energy expression may use. Its value in a Context is changed with
     * Context::setParameter().
     *
     * @param name           the parameter's name (not a collective variable's name, and unique)
     * @param defaultValue   its value in a new Context
     * @return the index of the parameter
     */
    int addGlobalParameter(const std::string& name, double defaultValue);
    /**
     * Get the name of a global parameter.
     *
     * @param index   0 .. getNumGlobalParameters() - 1 (another index throws an OpenMMException)
     * @return its name
     */
    const std::string& getGlobalParameterName(int index) const;
    /**
     * Rename a global parameter (before a Context is created).
     *
     * @param index   0 .. getNumGlobalParameters() - 1 (another index throws an OpenMMException)
     * @param name    the new name (not a collective variable's name, and unique)
     */
    void setGlobalParameterName(int index, const std::string& name);
    /**
     * Get the default value of a global parameter.
     *
     * @param index   0 .. getNumGlobalParameters() - 1 (another index throws an OpenMMException)
     * @return its value in a new Context
     */
    double getGlobalParameterDefaultValue(int index) const;
    /**
     * Set the default value of a global parameter (its value in Contexts created afterwards).
     *
     * @param index          0 .. getNumGlobalParameters() - 1 (another index throws an OpenMMException)
     * @param defaultValue   the value
     */
    void setGlobalParameterDefaultValue(int index, double defaultValue);
    /**
     * Request the derivative of the energy with respect to a global parameter: it is reported by
     * State::getEnergyParameterDerivatives() when a State is created with getEnergy = true (as with OpenMM's custom
     * forces), in kJ/mol per unit of the parameter. Fixed when a Context is created.
     *
     * @param name   one of this force's global parameters, requested at most once
     */
    void addEnergyParameterDerivative(const std::string& name) { energyParameterDerivatives.push_back(name); }
    /**
     * Get the number of global parameters whose energy derivative is requested.
     *
     * @return default 0
     */
    int getNumEnergyParameterDerivatives() const { return energyParameterDerivatives.size(); }
    /**
     * Get the name of a requested energy parameter derivative.
     *
     * @param index   0 .. getNumEnergyParameterDerivatives() - 1 (another index throws an OpenMMException)
     * @return the global parameter's name
     */
    const std::string& getEnergyParameterDerivativeName(int index) const;
    /**
     * Add a centre: a point that stands where a particle may (PLUMED's CENTER and COM virtual atoms), computed from
     * its particles' positions at every evaluation, its force spread back to them by weight (see the class comment).
     *
     * @param particles   the particle indices, at least one (a particle listed twice counts per entry)
     * @param weighting   GeometricCenter (weights 1, the default), CenterOfMass (the System's masses) or
     *                    WeightedCenter
     * @param weights     WeightedCenter only (empty otherwise): one weight per particle, their sum not 0
     * @param makeWhole   whether the group is first made whole (each particle at its minimum image from the one
     *                    before it) when the System uses periodic boundary conditions: true (the default) as PLUMED
     *                    does, false is PLUMED's NOPBC
     * @return the id that stands for the centre: -1 - its index (-1 for the first centre)
     */
    int addCenter(const std::vector<int>& particles, CenterWeighting weighting = GeometricCenter,
                  const std::vector<double>& weights = std::vector<double>(), bool makeWhole = true);
    /**
     * Get the number of centres.
     *
     * @return default 0
     */
    int getNumCenters() const { return centers.size(); }
    /**
     * Get a centre's settings.
     *
     * @param index       0 .. getNumCenters() - 1: the centre whose id is -1 - index
     * @param particles   its particle indices
     * @param weighting   its weighting
     * @param weights     its weights (WeightedCenter; empty otherwise)
     * @param makeWhole   whether the group is made whole under periodic boundary conditions
     */
    void getCenterParameters(int index, std::vector<int>& particles, CenterWeighting& weighting,
                             std::vector<double>& weights, bool& makeWhole) const;
    /**
     * Change a centre's settings (in a Context: with updateParametersInContext()).
     *
     * @param index       0 .. getNumCenters() - 1: the centre whose id is -1 - index
     * @param particles   as in addCenter()
     * @param weighting   as in addCenter()
     * @param weights     as in addCenter()
     * @param makeWhole   as in addCenter()
     */
    void setCenterParameters(int index, const std::vector<int>& particles, CenterWeighting weighting,
                             const std::vector<double>& weights, bool makeWhole);
    /**
     * This force's settings as PLUMED input (PlumedTranslator::toPlumed()), which the translator reads back to the
     * same settings; the energy expression and the global parameters are not part of it.
     *
     * @param label   the action's label
     * @return the text
     */
    virtual std::string toPlumed(const std::string& label) const = 0;
    /**
     * The name of the force's class, which starts its messages ("CoordinationForce").
     *
     * @return the name
     */
    virtual std::string getForceClassName() const = 0;

protected:
    /**
     * A force with the given energy expression and nothing else set.
     *
     * @param energy   the energy expression
     */
    explicit CoordinationBiasForce(const std::string& energy);
    /**
     * An index into one of the force's lists: another index throws an OpenMMException that names the method, the
     * index and the valid range.
     *
     * @param method     the method, named in the message
     * @param index      the index given
     * @param size       the length of the list
     * @param singular   the name of one entry ("global parameter")
     * @param plural     the name of several ("global parameters")
     */
    void checkIndex(const std::string& method, int index, size_t size, const std::string& singular,
                    const std::string& plural) const;

private:
    friend class CoordinationBiasForceImpl; // finds the force's Impl in a Context (or a CustomCVForce's inner one)
    class CenterInfo;
    std::string energyExpression;
    bool periodic;
    std::vector<std::string> globalParameterNames;
    std::vector<double> globalParameterDefaults;
    std::vector<std::string> energyParameterDerivatives;
    std::vector<CenterInfo> centers;
};

/// @cond INTERNAL
/**
 * A centre of a force (addCenter()).
 */
class CoordinationBiasForce::CenterInfo {
public:
    /** The particle indices. */
    std::vector<int> particles;
    /** How they are weighed. */
    CenterWeighting weighting = GeometricCenter;
    /** WeightedCenter's weights. */
    std::vector<double> weights;
    /** Whether the group is made whole under periodic boundary conditions. */
    bool makeWhole = true;
};
/// @endcond

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_COORDINATIONBIASFORCE_H_*/
