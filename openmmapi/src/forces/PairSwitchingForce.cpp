#include "PairSwitchingForce.h"
#include "openmm/OpenMMException.h"

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;

PairSwitchingForce::PairSwitchingForce(const std::string& energy) : CoordinationBiasForce(energy), mode(Self) {}

void PairSwitchingForce::setMode(Mode mode) {
    if (mode != Self && mode != Dual && mode != Pair)
        throw OpenMMException(getForceClassName() + ": unknown mode " + std::to_string((int)mode) + "; use " +
                              getForceClassName() + "::Self, Dual or Pair");
    this->mode = mode;
}

void PairSwitchingForce::setN(int n) {
    SwitchingSettings::checkExponent(getForceClassName() + "::setN", "n", n, 1);
    switching.setN(n);
}

void PairSwitchingForce::setM(int m) {
    SwitchingSettings::checkExponent(getForceClassName() + "::setM", "m", m, 0, " (0 means 2n)");
    switching.setM(m);
}

void PairSwitchingForce::setSwitchingFunction(CoordinationBiasForce::SwitchingFunction type) {
    try {
        switching.setType(type);
    } catch (const OpenMMException& error) {
        throw OpenMMException(getForceClassName() + ": " + error.what());
    }
}

void PairSwitchingForce::setSmapExponents(int a, int b) {
    if (a != 0 || b != 0) { // (0, 0): unset, the default
        SwitchingSettings::checkExponent(getForceClassName() + "::setSmapExponents", "a", a, 1,
                                         " (or a = b = 0: unset)");
        SwitchingSettings::checkExponent(getForceClassName() + "::setSmapExponents", "b", b, 1,
                                         " (or a = b = 0: unset)");
    }
    switching.setSmapExponents(a, b);
}
