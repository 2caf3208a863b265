#ifndef OPENMM_CONTACTMAPFORCE_H_
#define OPENMM_CONTACTMAPFORCE_H_

#include "CoordinationForce.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/Context.h"
#include "openmm/Force.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * A bias on a contact map: PLUMED's CONTACTMAP. Each contact n is a pair of particles (or centres, see
 * addCenter()) with its own switching function sigma_n, reference value ref_n and weight w_n, and has the value
 * @code
 * coord_n = w_n * (sigma_n(r_n) - ref_n)
 * @endcode
 *
 * The collective variables follow PLUMED's CONTACTMAP (src/colvar/ContactMap.cpp):
 * @code
 * reduction    PLUMED keyword    variables
 * Sum          SUM               s = sum_n coord_n                     (the fraction of native contacts is s / N)
 * Distance     CMDIST            s = sum_n coord_n^2                   (the weight is squared)
 * Components   (neither)         contact_1, contact_2, ... = coord_n   (PLUMED components contact-1, ...)
 * @endcode
 *
 * The energy is a Lepton expression of these variables and of global parameters, for example
 * "0.5*k*(s/278-q0)^2" for a restraint on the fraction of 278 native contacts. The force on a particle is
 * -sum_v dE/dv dv/dx. Units: nm and kJ/mol.
 *
 * Each contact's switching function is any type of CoordinationForce::SwitchingFunction with PLUMED's definition
 * (see CoordinationForce), with its own r0, d0, dmax, stretch and the type's own parameters: PLUMED's
 * SWITCHn={...}. A Custom function is one expression shared by the whole map (setCustomSwitchingFunction()),
 * each contact keeping its own r0 and d0. The short form of addContact() is PLUMED's SWITCH={RATIONAL R_0=r0}:
 * n = 6, m = 12, d0 = 0 and no cutoff. A contact of the same particle twice, or of two particles closer than
 * 1e-8 nm, has r = 0 (sigma = 1 for the Rational function).
 *
 * Many contacts (thousands to 100,000) are evaluated in one launch on a GPU; write an energy over many contacts
 * with Sum or Distance. Components give one variable per contact and are meant for small maps: on a GPU the
 * energy's code holds every variable and its derivative.
 *
 * PLUMED keyword correspondence: ATOMSn=a,b -> addContact(a - 1, b - 1, ...); SWITCHn={...} -> the contact's
 * switching parameters; REFERENCEn= / REFERENCE= -> reference; WEIGHTn= / WEIGHT= -> weight; SUM -> Sum;
 * CMDIST -> Distance; NOPBC -> setUsesPeriodicBoundaryConditions(false). A COM or CENTER in ATOMSn is a centre
 * (addCenter()).
 *
 * Where there is no finite answer (a coordinate that is not finite, or an energy or derivative that is not) the
 * energy is NaN and no force is applied, on every platform.
 */
class OPENMM_EXPORT_COORDINATION ContactMapForce : public OpenMM::Force {
public:
    /**
     * Which collective variables the contacts give (PLUMED's SUM, CMDIST, or neither).
     */
    enum Reduction {
        /** PLUMED's SUM: one variable s, the sum of coord_n. */
        Sum = 0,
        /** PLUMED's CMDIST: one variable s, the sum of coord_n^2. */
        Distance = 1,
        /** Neither: one variable contact_n = coord_n per contact (n from 1). */
        Components = 2
    };
    /**
     * Create a ContactMapForce.
     *
     * @param energy      a Lepton expression of the variables (see the class comment) and of global parameters, in
     *                    kJ/mol; default "s"
     * @param reduction   Sum (default), Distance or Components
     */
    explicit ContactMapForce(const std::string& energy = "s", Reduction reduction = Sum);
    /**
     * Get the energy expression.
     *
     * @return a Lepton expression of the variables and the global parameters (kJ/mol)
     */
    const std::string& getEnergyFunction() const { return energyExpression; }
    /**
     * Set the energy expression (checked when a Context is created).
     *
     * @param energy   a Lepton expression of the variables and the global parameters, in kJ/mol
     */
    void setEnergyFunction(const std::string& energy) { energyExpression = energy; }
    /**
     * Get the reduction.
     *
     * @return Sum, Distance or Components; default Sum
     */
    Reduction getReduction() const { return reduction; }
    /**
     * Set the reduction (PLUMED's SUM, CMDIST, or neither).
     *
     * @param reduction   Sum, Distance or Components
     */
    void setReduction(Reduction reduction);
    /**
     * Get the number of contacts.
     *
     * @return default 0
     */
    int getNumContacts() const { return contacts.size(); }
    /**
     * Add a contact with PLUMED's SWITCH={RATIONAL R_0=r0}: n = 6, m = 12, d0 = 0, no cutoff.
     *
     * @param particle1   a particle index, or a centre (the id addCenter() returned)
     * @param particle2   a particle index, or a centre
     * @param r0          the switching function's r0, in nm, > 0
     * @param reference   ref_n (PLUMED's REFERENCEn), unitless; default 0
     * @param weight      w_n (PLUMED's WEIGHTn), unitless; default 1
     * @return the index of the contact
     */
    int addContact(int particle1, int particle2, double r0, double reference = 0.0, double weight = 1.0);
    /**
     * Add a contact with a switching function of any type.
     *
     * @param particle1   a particle index, or a centre (the id addCenter() returned)
     * @param particle2   a particle index, or a centre
     * @param type        the switching function's type (CoordinationForce's definitions)
     * @param r0          r0, in nm, > 0 (unused by Cubic and NativeQ, which still need a positive value)
     * @param d0          d0, in nm, >= 0
     * @param dmax        the cutoff in nm, as CoordinationForce::setDMax(): 0 the type's automatic value, infinity
     *                    none, or a value > d0
     * @param stretch     whether sigma is stretched to reach 0 at a finite dmax (PLUMED's default; false is
     *                    NOSTRETCH)
     * @param shape       the type's own parameters: {n, m} for Rational (m = 0 means 2n), {a, b} for Smap,
     *                    {beta (1/nm), lambda, reference (nm)} for NativeQ, empty for the others
     * @param reference   ref_n (PLUMED's REFERENCEn), unitless
     * @param weight      w_n (PLUMED's WEIGHTn), unitless
     * @return the index of the contact
     */
    int addContact(int particle1, int particle2, CoordinationForce::SwitchingFunction type, double r0, double d0,
                   double dmax, bool stretch, const std::vector<double>& shape, double reference, double weight);
    /**
     * Get a contact's settings (the long form of addContact()).
     *
     * @param index       0 .. getNumContacts() - 1 (another index throws an OpenMMException)
     * @param[out] particle1   as in addContact()
     * @param[out] particle2   as in addContact()
     * @param[out] type        as in addContact()
     * @param[out] r0          as in addContact()
     * @param[out] d0          as in addContact()
     * @param[out] dmax        as in addContact()
     * @param[out] stretch     as in addContact()
     * @param[out] shape       as in addContact()
     * @param[out] reference   as in addContact()
     * @param[out] weight      as in addContact()
     */
    void getContactParameters(int index, int& particle1, int& particle2, CoordinationForce::SwitchingFunction& type,
                              double& r0, double& d0, double& dmax, bool& stretch, std::vector<double>& shape,
                              double& reference, double& weight) const;
    /**
     * Change a contact's settings (in a Context: with updateParametersInContext(), which cannot change the number
     * of contacts in Components mode).
     *
     * @param index   0 .. getNumContacts() - 1 (another index throws an OpenMMException)
     * @param particle1   as in addContact()
     * @param particle2   as in addContact()
     * @param type        as in addContact()
     * @param r0          as in addContact()
     * @param d0          as in addContact()
     * @param dmax        as in addContact()
     * @param stretch     as in addContact()
     * @param shape       as in addContact()
     * @param reference   as in addContact()
     * @param weight      as in addContact()
     */
    void setContactParameters(int index, int particle1, int particle2, CoordinationForce::SwitchingFunction type,
                              double r0, double d0, double dmax, bool stretch, const std::vector<double>& shape,
                              double reference, double weight);
    /**
     * Get the expression of the Custom switching function shared by the contacts of type Custom.
     *
     * @return the expression; "" if none was set
     */
    const std::string& getCustomSwitchingFunction() const { return customSwitchingFunction; }
    /**
     * Set the expression of the Custom switching function shared by every contact of type Custom: a Lepton
     * expression of x = (r - d0) / r0 or of x2 = r^2 / r0^2, as CoordinationForce::setCustomSwitchingFunction().
     *
     * @param expression   sigma as a function of x or of x2 (unitless)
     */
    void setCustomSwitchingFunction(const std::string& expression) { customSwitchingFunction = expression; }
    /**
     * Add a centre, a point that stands in a contact where a particle may (PLUMED's CENTER and COM virtual
     * atoms), computed from the positions of its particles at every evaluation; its force is spread back to them
     * by weight. The same as CoordinationForce::addCenter(), which describes the weighting and the periodic
     * boundary conditions.
     *
     * @param particles   the particle indices, at least one (a particle may be listed twice: it counts per entry)
     * @param weighting   GeometricCenter (weights 1), CenterOfMass (the System's masses) or WeightedCenter
     * @param weights     WeightedCenter only: one weight per particle, their sum not 0
     * @param makeWhole   whether the group is made whole (each particle at its minimum image from the one before
     *                    it) when the System uses periodic boundary conditions; false is PLUMED's NOPBC
     * @return the id that stands for the centre in a contact: -1 - its index (-1 for the first centre)
     */
    int addCenter(const std::vector<int>& particles,
                  CoordinationForce::CenterWeighting weighting = CoordinationForce::GeometricCenter,
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
     * @param index   0 .. getNumCenters() - 1 (the centre with id -1 - index)
     * @param[out] particles   as in addCenter()
     * @param[out] weighting   as in addCenter()
     * @param[out] weights     as in addCenter()
     * @param[out] makeWhole   as in addCenter()
     */
    void getCenterParameters(int index, std::vector<int>& particles, CoordinationForce::CenterWeighting& weighting,
                             std::vector<double>& weights, bool& makeWhole) const;
    /**
     * Change a centre's settings.
     *
     * @param index   0 .. getNumCenters() - 1 (the centre with id -1 - index)
     * @param particles   as in addCenter()
     * @param weighting   as in addCenter()
     * @param weights     as in addCenter()
     * @param makeWhole   as in addCenter()
     */
    void setCenterParameters(int index, const std::vector<int>& particles, CoordinationForce::CenterWeighting weighting,
                             const std::vector<double>& weights, bool makeWhole);
    /**
     * Set whether distances use the minimum image convention with the context's periodic box.
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
     * Add a global parameter the energy expression may use (changed in a Context with Context::setParameter()).
     *
     * @param name           the parameter's name (not a variable's name, unique)
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
     * @param name    the new name
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
     * Set the default value of a global parameter.
     *
     * @param index          0 .. getNumGlobalParameters() - 1 (another index throws an OpenMMException)
     * @param defaultValue   its value in Contexts created afterwards
     */
    void setGlobalParameterDefaultValue(int index, double defaultValue);
    /**
     * Request the derivative of the energy with respect to a global parameter (State::getEnergyParameterDerivatives(),
     * as with OpenMM's custom forces). Fixed when a Context is created.
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
     * Get the number of collective variables: 1 for Sum and Distance, the number of contacts for Components.
     *
     * @return the number of variables
     */
    int getNumCollectiveVariables() const;
    /**
     * Get the name of a collective variable, as the energy expression uses it.
     *
     * @param index   0 .. getNumCollectiveVariables() - 1 (another index throws an OpenMMException)
     * @return "s" (Sum, Distance) or "contact_<index + 1>" (Components)
     */
    std::string getCollectiveVariableName(int index) const;
    /**
     * Get the values of the collective variables at the context's current positions, computed by the context's
     * platform, in the order of getCollectiveVariableName(). For a force added to a CustomCVForce, pass the
     * Context of the CustomCVForce's System.
     *
     * @param context        a Context whose System contains this force, or a CustomCVForce that holds it
     * @param values    the values (output)
     */
    void getCollectiveVariableValues(OpenMM::Context& context, std::vector<double>& values) const;
    /**
     * Get every contact's value coord_n = w_n (sigma_n(r_n) - ref_n) at the context's current positions (whatever
     * the reduction), computed by the context's platform.
     *
     * @param context        a Context whose System contains this force, or a CustomCVForce that holds it
     * @param values    one value per contact, in order (output)
     */
    void getContactValues(OpenMM::Context& context, std::vector<double>& values) const;
    /**
     * Copy the contacts (particles, switching functions, references, weights), the centres and the periodic flag
     * into an existing Context. The energy expression, the global parameters, the reduction, the Custom expression
     * and (for Components) the number of contacts cannot be changed this way: an OpenMMException says so.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     */
    void updateParametersInContext(OpenMM::Context& context);
    /**
     * Read PLUMED input holding one CONTACTMAP action (PlumedTranslator::fromPlumed()).
     *
     * @param input   PLUMED input holding one CONTACTMAP action (and the COM/CENTER actions it names)
     * @return a new ContactMapForce (energy "s", or "0" for Components); the caller owns it
     */
    static ContactMapForce* fromPlumed(const std::string& input);
    /**
     * This force's settings as PLUMED input (PlumedTranslator::toPlumed()): a CONTACTMAP action, preceded by a
     * COM or CENTER line per centre, which fromPlumed() reads back to the same settings; the energy expression and
     * global parameters are not part of it.
     *
     * @param label   the action's label (default "cmap")
     * @return the text
     */
    std::string toPlumed(const std::string& label = "cmap") const;

protected:
    /**
     * Create the ForceImpl (called by OpenMM when a Context is created).
     *
     * @return a new ContactMapForceImpl
     */
    OpenMM::ForceImpl* createImpl() const override;

private:
    friend class ContactMapForceImpl;
    class ContactInfo;
    class CenterInfo;
    std::string energyExpression;
    Reduction reduction;
    bool periodic;
    std::vector<ContactInfo> contacts;
    std::vector<CenterInfo> centers;
    std::string customSwitchingFunction;
    std::vector<std::string> globalParameterNames;
    std::vector<double> globalParameterDefaults;
    std::vector<std::string> energyParameterDerivatives;
};

/// @cond INTERNAL
/**
 * One contact of a ContactMapForce.
 */
class ContactMapForce::ContactInfo {
public:
    int particle1 = 0, particle2 = 0;
    CoordinationForce::SwitchingFunction type = CoordinationForce::Rational;
    double r0 = 0.3, d0 = 0.0, dmax = 0.0;
    bool stretch = true;
    std::vector<double> shape;
    double reference = 0.0, weight = 1.0;
};
/**
 * One centre of a ContactMapForce.
 */
class ContactMapForce::CenterInfo {
public:
    std::vector<int> particles;
    CoordinationForce::CenterWeighting weighting = CoordinationForce::GeometricCenter;
    std::vector<double> weights;
    bool makeWhole = true;
};
/// @endcond

} // namespace CoordinationPlugin

#endif /*OPENMM_CONTACTMAPFORCE_H_*/
