#include "internal/energy/ExpressionConstants.h"
#include <cmath>

using std::string;

const std::map<string, double>& CoordinationPlugin::plumedNamedConstants() {
    const double pi = 3.14159265358979323846;
    static const std::map<string, double> constants = {
        {"e", std::exp(1.0)}, {"log2e", 1.0 / std::log(2.0)}, {"log10e", 1.0 / std::log(10.0)},
        {"ln2", std::log(2.0)}, {"ln10", std::log(10.0)}, {"pi", pi}, {"pi_2", 0.5 * pi}, {"pi_4", 0.25 * pi},
        {"sqrt2", std::sqrt(2.0)}, {"sqrt1_2", std::sqrt(0.5)}};
    return constants;
}
