#ifndef OPENMM_CONTACTMAPFORCE_H_
#define OPENMM_CONTACTMAPFORCE_H_

#include "CoordinationBiasForce.h"
#include "SwitchingSettings.h"
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
 * Each contact's switching function is a SwitchingSettings of any type, with PLUMED's definition, its own r0, d0,
 * dmax, stretch and the type's own parameters: PLUMED's SWITCHn={...}. The contacts of type Custom share one
 * expression, each keeping its own r0 and d0: a contact's own expression, or the map's (setCustomSwitchingFunction())
 * for a contact that has none; two different expressions in one map are refused when a Context is created. The short form of addContact() is PLUMED's SWITCH={RATIONAL R_0=r0}:
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
class OPENMM_EXPORT_COORDINATION ContactMapForce : public CoordinationBiasForce {
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
     * Add a contact with its switching function.
     *
     * @param particle1   a particle index, or a centre (the id addCenter() returned)
     * @param particle2   a particle index, or a centre
     * @param switching   its switching function (PLUMED's SWITCHn)
     * @param reference   ref_n (PLUMED's REFERENCEn), unitless; default 0
     * @param weight      w_n (PLUMED's WEIGHTn), unitless; default 1
     * @return the index of the contact
     */
    int addContact(int particle1, int particle2, const SwitchingSettings& switching, double reference = 0.0,
                   double weight = 1.0);
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
     * Add a contact with a switching function of any type, its settings one by one (the same as the form that takes
     * a SwitchingSettings).
     *
     * @param particle1   a particle index, or a centre (the id addCenter() returned)
     * @param particle2   a particle index, or a centre
     * @param type        the switching function's type
     * @param r0          r0, in nm, > 0 (unused by Cubic and NativeQ, which still need a positive value)
     * @param d0          d0, in nm, >= 0
     * @param dmax        the cutoff in nm, as SwitchingSettings::setDMax(): 0 the type's automatic value, infinity
     *                    none, or a value > d0
     * @param stretch     whether sigma is stretched to reach 0 at a finite dmax (PLUMED's default; false is
     *                    NOSTRETCH)
     * @param shape       the type's own parameters: {n, m} for Rational (m = 0 means 2n), {a, b} for Smap,
     *                    {beta (1/nm), lambda, reference (nm)} for NativeQ, empty for the others
     * @param reference   ref_n (PLUMED's REFERENCEn), unitless
     * @param weight      w_n (PLUMED's WEIGHTn), unitless
     * @return the index of the contact
     */
    int addContact(int particle1, int particle2, CoordinationBiasForce::SwitchingFunction type, double r0, double d0, double dmax,
                   bool stretch, const std::vector<double>& shape, double reference, double weight);
    /**
     * Get a contact's settings.
     *
     * @param index       0 .. getNumContacts() - 1 (another index throws an OpenMMException)
     * @param particle1   as in addContact()
     * @param particle2   as in addContact()
     * @param switching   its switching function
     * @param reference   as in addContact()
     * @param weight      as in addContact()
     */
    void getContactParameters(int index, int& particle1, int& particle2, SwitchingSettings& switching,
                              double& reference, double& weight) const;
    /**
     * Get a contact's settings, its switching function's one by one (the long form of addContact()).
     *
     * @param index       0 .. getNumContacts() - 1 (another index throws an OpenMMException)
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
    void getContactParameters(int index, int& particle1, int& particle2, CoordinationBiasForce::SwitchingFunction& type, double& r0,
                              double& d0, double& dmax, bool& stretch, std::vector<double>& shape, double& reference,
                              double& weight) const;
    /**
     * Change a contact's settings (in a Context: with updateParametersInContext(), which cannot change the number
     * of contacts in Components mode).
     *
     * @param index       0 .. getNumContacts() - 1 (another index throws an OpenMMException)
     * @param particle1   as in addContact()
     * @param particle2   as in addContact()
     * @param switching   its switching function
     * @param reference   as in addContact()
     * @param weight      as in addContact()
     */
    void setContactParameters(int index, int particle1, int particle2, const SwitchingSettings& switching,
                              double reference, double weight);
    /**
     * Change a contact's settings, its switching function's one by one (the long form of addContact()).
     *
     * @param index       0 .. getNumContacts() - 1 (another index throws an OpenMMException)
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
    void setContactParameters(int index, int particle1, int particle2, CoordinationBiasForce::SwitchingFunction type, double r0, double d0,
                              double dmax, bool stretch, const std::vector<double>& shape, double reference,
                              double weight);
    /**
     * Get the map's Custom expression: that of the Custom contacts without an expression of their own.
     *
     * @return the expression; "" if none was set
     */
    const std::string& getCustomSwitchingFunction() const { return customSwitchingFunction; }
    /**
     * Set the map's Custom expression, that of every contact of type Custom that has no expression of its own: a
     * Lepton expression of x = (r - d0) / r0 or of x2 = r^2 / r0^2, as SwitchingSettings::setCustomExpression().
     *
     * @param expression   sigma as a function of x or of x2 (unitless)
     */
    void setCustomSwitchingFunction(const std::string& expression) { customSwitchingFunction = expression; }
    /**
     * Get the number of collective variables: 1 for Sum and Distance, the number of contacts for Components.
     *
     * @return the number of variables
     */
    int getNumCollectiveVariables() const override;
    /**
     * Get the name of a collective variable, as the energy expression uses it.
     *
     * @param index   0 .. getNumCollectiveVariables() - 1 (another index throws an OpenMMException)
     * @return "s" (Sum, Distance) or "contact_<index + 1>" (Components)
     */
    std::string getCollectiveVariableName(int index) const override;
    /**
     * Get every contact's value coord_n = w_n (sigma_n(r_n) - ref_n) at the context's current positions (whatever
     * the reduction), computed by the context's platform.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     * @param values    one value per contact, in order
     */
    void getContactValues(OpenMM::Context& context, std::vector<double>& values) const;
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
    std::string toPlumed(const std::string& label = "cmap") const override;

    /**
     * The class's name in messages.
     *
     * @return "ContactMapForce"
     */
    std::string getForceClassName() const override { return "ContactMapForce"; }

protected:
    /**
     * Create the ForceImpl (called by OpenMM when a Context is created).
     *
     * @return a new ContactMapForceImpl
     */
    OpenMM::ForceImpl* createImpl() const override;

private:
    class ContactInfo;
    Reduction reduction;
    std::vector<ContactInfo> contacts;
    std::string customSwitchingFunction;
};

/// @cond INTERNAL
/**
 * One contact of a ContactMapForce.
 */
class ContactMapForce::ContactInfo {
public:
    int particle1 = 0, particle2 = 0;
    SwitchingSettings switching;
    double reference = 0.0, weight = 1.0;
};
/// @endcond

} // namespace CoordinationPlugin

#endif /*OPENMM_CONTACTMAPFORCE_H_*/
