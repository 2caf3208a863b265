%module(package="openmmcoordination") coordination

%pythonbegin %{
import operator
%}

%import(module="openmm") "swig/OpenMMSwigHeaders.i"
%include "swig/typemaps.i"
%include <std_string.i>
%include <std_vector.i>

%{
#include "CoordinationForce.h"
#include "OpenMM.h"
#include "OpenMMAmoeba.h"
#include "OpenMMDrude.h"
#include "openmm/RPMDIntegrator.h"
#include "openmm/RPMDMonteCarloBarostat.h"
%}

namespace std {
    %template(vectori) vector<int>;
}

/* C++ exceptions (OpenMMException) become Python's OpenMMException, as in OpenMM's own module. */
%exception {
    try {
        $action
    } catch (std::exception& error) {
        static PyObject* openmmException = NULL;
        if (openmmException == NULL) {
            PyObject* module = PyImport_ImportModule("openmm");
            if (module != NULL) {
                openmmException = PyObject_GetAttrString(module, "OpenMMException");
                Py_DECREF(module);
            }
            if (openmmException == NULL) {
                PyErr_Clear();
                openmmException = PyExc_Exception;
            }
        }
        PyErr_SetString(openmmException, const_cast<char*>(error.what()));
        return NULL;
    }
}

/* Groups accept any iterable of integers (lists, ranges, numpy integer arrays); floats are refused. */
%pythonprepend CoordinationPlugin::CoordinationForce::setGroupA %{
    atoms = [operator.index(atom) for atom in atoms]
%}
%pythonprepend CoordinationPlugin::CoordinationForce::setGroupB %{
    atoms = [operator.index(atom) for atom in atoms]
%}

%newobject CoordinationPlugin::CoordinationForce::fromPlumed;

namespace CoordinationPlugin {

class CoordinationForce : public OpenMM::Force {
public:
    enum Mode { Self = 0, Dual = 1, Pair = 2 };
    enum SwitchingFunction { Rational = 0, Exponential = 1, Gaussian = 2, Smap = 3, Cubic = 4, Tanh = 5, Cosinus = 6,
                             NativeQ = 7, Custom = 8 };
    explicit CoordinationForce(const std::string& energy = "s");
    static CoordinationForce* fromPlumed(const std::string& line);
    std::string toPlumed(const std::string& label = "c") const;
    const std::string& getEnergyFunction() const;
    void setEnergyFunction(const std::string& energy);
    Mode getMode() const;
    void setMode(Mode mode);
    const std::vector<int>& getGroupA() const;
    void setGroupA(const std::vector<int>& atoms);
    const std::vector<int>& getGroupB() const;
    void setGroupB(const std::vector<int>& atoms);
    double getR0() const;
    void setR0(double r0);
    int getN() const;
    void setN(int n);
    int getM() const;
    void setM(int m);
    int getEffectiveM() const;
    double getD0() const;
    void setD0(double d0);
    double getDMax() const;
    void setDMax(double dmax);
    double getEffectiveDMax() const;
    bool getStretch() const;
    void setStretch(bool stretch);
    SwitchingFunction getSwitchingFunction() const;
    void setSwitchingFunction(SwitchingFunction type);
    int getSmapA() const;
    int getSmapB() const;
    void setSmapExponents(int a, int b);
    double getNativeQBeta() const;
    double getNativeQLambda() const;
    double getNativeQReference() const;
    void setNativeQParameters(double beta, double lambda, double reference);
    const std::string& getCustomSwitchingFunction() const;
    void setCustomSwitchingFunction(const std::string& expression);
    void setUsesPeriodicBoundaryConditions(bool periodic);
    bool usesPeriodicBoundaryConditions() const;
    int getNumGlobalParameters() const;
    int addGlobalParameter(const std::string& name, double defaultValue);
    const std::string& getGlobalParameterName(int index) const;
    void setGlobalParameterName(int index, const std::string& name);
    double getGlobalParameterDefaultValue(int index) const;
    void setGlobalParameterDefaultValue(int index, double defaultValue);
    void addEnergyParameterDerivative(const std::string& name);
    int getNumEnergyParameterDerivatives() const;
    const std::string& getEnergyParameterDerivativeName(int index) const;
    double getCoordination(OpenMM::Context& context) const;
    void updateParametersInContext(OpenMM::Context& context);

    %extend {
        /** Cast a Force (for example from System.getForce()) to a CoordinationForce. */
        static CoordinationPlugin::CoordinationForce& cast(OpenMM::Force& force) {
            CoordinationPlugin::CoordinationForce* result = dynamic_cast<CoordinationPlugin::CoordinationForce*>(&force);
            if (result == NULL)
                throw OpenMM::OpenMMException("CoordinationForce.cast(): the Force is not a CoordinationForce");
            return *result;
        }
        /** Whether a Force is a CoordinationForce. */
        static bool isinstance(OpenMM::Force& force) {
            return (dynamic_cast<CoordinationPlugin::CoordinationForce*>(&force) != NULL);
        }
    }
};

}
