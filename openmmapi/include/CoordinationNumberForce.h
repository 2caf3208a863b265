#ifndef OPENMM_COORDINATIONNUMBERFORCE_H_
#define OPENMM_COORDINATIONNUMBERFORCE_H_

#include "PerAtomForce.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/Context.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * A bias on the coordination numbers of single atoms: PLUMED's COORDINATIONNUMBER (and COORDINATION_MOMENTS)
 * with its reductions (SUM, MEAN, MORE_THAN, LESS_THAN, BETWEEN, MIN, MAX, ALT_MIN, HIGHEST, LOWEST,
 * MOMENTS: PerAtomForce's, which also holds the modes, centres and the rules every per-atom force follows). Each entry
 * i of group A has its coordination number, its q_i:
 * @code
 * c_i = sum over entries j of group B (group A in Self mode), j != i, of sigma(r_ij) * r_ij^p
 * @endcode
 *
 * with sigma the force's switching function (SwitchingSettings: every type, r0, d0, dmax, stretch; the setters of
 * PairSwitchingForce, as for CoordinationForce) and p the power of COORDINATION_MOMENTS (setRPower(), default
 * 0: PLUMED's COORDINATIONNUMBER). A centre in group A has its own c_i, as a virtual atom in PLUMED's SPECIESA does.
 *
 * The force on atom k is -sum_i dE/dc_i dc_i/dx_k. getCollectiveVariableValues() reports the reductions and
 * getCoordinationNumbers() (or getPerAtomValues()) the c_i.
 */
class OPENMM_EXPORT_COORDINATION CoordinationNumberForce : public PerAtomForce {
public:
    /**
     * Create a CoordinationNumberForce: Self mode, no reductions, the default switching function.
     *
     * @param energy   the energy: a Lepton expression of the reductions' names and of global parameters
     *                 (kJ/mol). Default "0".
     */
    explicit CoordinationNumberForce(const std::string& energy = "0");
    /**
     * Get the power p of the distance in c_i = sum sigma(r_ij) r_ij^p.
     *
     * @return p; default 0 (PLUMED's COORDINATIONNUMBER)
     */
    double getRPower() const { return rPower; }
    /**
     * Set the power p of the distance (PLUMED's COORDINATION_MOMENTS R_POWER): c_i = sum sigma(r_ij) r_ij^p,
     * r in nm.
     *
     * @param power   a finite number >= 0; 0 gives the coordination numbers
     */
    void setRPower(double power) { rPower = power; }
    /**
     * Get the coordination numbers c_i at the context's current positions (getPerAtomValues()), computed by the
     * context's platform: one per entry of group A, in its order (on a GPU, they are downloaded). For a force inside a
     * CustomCVForce, pass the Context of the CustomCVForce's System.
     *
     * @param context        a Context whose System contains this force, or a CustomCVForce that holds it
     * @param values    the c_i (unitless; nm^p with an R power p)
     */
    void getCoordinationNumbers(OpenMM::Context& context, std::vector<double>& values) const;
    /**
     * This force's settings as one line of PLUMED input (PlumedTranslator::toPlumed()): a COORDINATIONNUMBER
     * action (COORDINATION_MOMENTS with an R power) with its reductions as PLUMED's keywords.
     *
     * @param label    the action's label (default "c")
     * @return the line
     */
    std::string toPlumed(const std::string& label = "c") const override;

    /**
     * The class's name in messages.
     *
     * @return "CoordinationNumberForce"
     */
    std::string getForceClassName() const override { return "CoordinationNumberForce"; }

protected:
    /**
     * Create the ForceImpl (called by OpenMM when a Context is created).
     *
     * @return a new CoordinationNumberForceImpl
     */
    OpenMM::ForceImpl* createImpl() const override;

private:
    double rPower;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATIONNUMBERFORCE_H_*/
