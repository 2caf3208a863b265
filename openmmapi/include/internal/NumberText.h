#ifndef OPENMM_COORDINATION_NUMBERTEXT_H_
#define OPENMM_COORDINATION_NUMBERTEXT_H_

#include <cstdio>
#include <string>

namespace CoordinationPlugin {

/**
 * A number as messages print it ("%g"). Formatted with snprintf, not a stringstream: formatting a double
 * through iostreams in this library can crash inside libstdc++'s locale code where OpenMM's CUDA plugin is
 * loaded and the machine's libstdc++ differs from the one the library was built with.
 */
inline std::string numberText(double value) {
    char text[64];
    std::snprintf(text, sizeof(text), "%g", value);
    return text;
}

/** A number in parentheses as Lepton reads it back exactly (17 digits), for expressions written as text. */
inline std::string exactNumberText(double value) {
    char text[64];
    std::snprintf(text, sizeof(text), "(%.17g)", value);
    return text;
}

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_NUMBERTEXT_H_*/
