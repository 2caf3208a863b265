#ifndef COORDINATION_TEST_SAMESETTINGS_H_
#define COORDINATION_TEST_SAMESETTINGS_H_

/*
 * What a round trip (XML, PLUMED input) must keep: assertions that two forces have the same settings, part by part,
 * and the XML round trip itself.
 */

#include "ContactMapForce.h"
#include "CoordinationBiasForce.h"
#include "PairSwitchingForce.h"
#include "TestContext.h"
#include "openmm/serialization/XmlSerializer.h"
#include <gtest/gtest.h>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace CoordinationTest {

/** A force's XML, as XmlSerializer writes an OpenMM::Force. */
inline std::string xmlOf(const OpenMM::Force& force) {
    std::stringstream stream;
    OpenMM::XmlSerializer::serialize<OpenMM::Force>(&force, "Force", stream);
    return stream.str();
}

/** The force an XML text describes. */
inline std::unique_ptr<OpenMM::Force> forceFromXml(const std::string& xml) {
    std::stringstream stream(xml);
    return std::unique_ptr<OpenMM::Force>(OpenMM::XmlSerializer::deserialize<OpenMM::Force>(stream));
}

/** A force's copy written to XML as an OpenMM::Force and read back: null (a failure) if it reads back as another class.
 */
template <class ForceType> std::unique_ptr<ForceType> throughXml(const ForceType& force) {
    std::unique_ptr<OpenMM::Force> read = forceFromXml(xmlOf(force));
    auto* copy = dynamic_cast<ForceType*>(read.get());
    EXPECT_NE(copy, nullptr) << "the XML reads back as another class of force";
    if (copy != nullptr)
        read.release();
    return std::unique_ptr<ForceType>(copy);
}

/** The XML with the first occurrence of `from` (which must be there) replaced by `to`. */
inline std::string edited(std::string xml, const std::string& from, const std::string& to) {
    const size_t position = xml.find(from);
    EXPECT_NE(position, std::string::npos) << "the XML has no " << from << ":\n" << xml;
    if (position != std::string::npos)
        xml.replace(position, from.size(), to);
    return xml;
}

/** The XML with the value of the first attribute `property` (which must be there) replaced. */
inline std::string withProperty(std::string xml, const std::string& property, const std::string& value) {
    const std::string key = " " + property + "=\"";
    const size_t start = xml.find(key);
    EXPECT_NE(start, std::string::npos) << property;
    const size_t valueStart = start + key.size();
    return xml.replace(valueStart, xml.find('"', valueStart) - valueStart, value);
}

/**
 * The System of a Context written to XML and read back, and a Context of its own at the given positions on the
 * platform under test: what a simulation saved and loaded again computes.
 */
class ReloadedContext {
public:
    ReloadedContext(SystemContext& original, const std::vector<OpenMM::Vec3>& positions) : integrator(0.001) {
        std::stringstream stream;
        OpenMM::XmlSerializer::serialize<OpenMM::System>(&original.getSystem(), "System", stream);
        system.reset(OpenMM::XmlSerializer::deserialize<OpenMM::System>(stream));
        context.reset(new OpenMM::Context(*system, integrator,
                                          OpenMM::Platform::getPlatformByName(testPlatform().platform),
                                          testPlatform().properties()));
        context->setPositions(positions);
    }
    OpenMM::System& getSystem() { return *system; }
    OpenMM::Context& getContext() { return *context; }

private:
    std::unique_ptr<OpenMM::System> system;
    OpenMM::VerletIntegrator integrator;
    std::unique_ptr<OpenMM::Context> context;
};

/** The same energy expression, global parameters (names and defaults), requested derivatives, force group and name. */
inline void expectSameEnergySettings(const CoordinationPlugin::CoordinationBiasForce& copy,
                                     const CoordinationPlugin::CoordinationBiasForce& original) {
    EXPECT_EQ(copy.getEnergyFunction(), original.getEnergyFunction());
    ASSERT_EQ(copy.getNumGlobalParameters(), original.getNumGlobalParameters());
    for (int i = 0; i < original.getNumGlobalParameters(); i++) {
        EXPECT_EQ(copy.getGlobalParameterName(i), original.getGlobalParameterName(i));
        EXPECT_EQ(copy.getGlobalParameterDefaultValue(i), original.getGlobalParameterDefaultValue(i));
    }
    ASSERT_EQ(copy.getNumEnergyParameterDerivatives(), original.getNumEnergyParameterDerivatives());
    for (int i = 0; i < original.getNumEnergyParameterDerivatives(); i++)
        EXPECT_EQ(copy.getEnergyParameterDerivativeName(i), original.getEnergyParameterDerivativeName(i));
    EXPECT_EQ(copy.getForceGroup(), original.getForceGroup());
    EXPECT_EQ(copy.getName(), original.getName());
}

/** A centre's settings, as getCenterParameters() gives them. */
struct CenterSettings {
    std::vector<int> particles;
    CoordinationPlugin::CoordinationBiasForce::CenterWeighting weighting;
    std::vector<double> weights;
    bool makeWhole;
};

inline CenterSettings centerOf(const CoordinationPlugin::CoordinationBiasForce& force, int index) {
    CenterSettings c;
    force.getCenterParameters(index, c.particles, c.weighting, c.weights, c.makeWhole);
    return c;
}

/** The same particles, weighting, weights and whole-making. */
inline void expectSameCenter(const CenterSettings& copy, const CenterSettings& original) {
    EXPECT_EQ(copy.particles, original.particles);
    EXPECT_EQ(copy.weighting, original.weighting);
    EXPECT_EQ(copy.weights, original.weights);
    EXPECT_EQ(copy.makeWhole, original.makeWhole);
}

/** The same centres. */
inline void expectSameCenters(const CoordinationPlugin::CoordinationBiasForce& copy,
                              const CoordinationPlugin::CoordinationBiasForce& original) {
    ASSERT_EQ(copy.getNumCenters(), original.getNumCenters());
    for (int k = 0; k < original.getNumCenters(); k++) {
        SCOPED_TRACE("centre " + std::to_string(k));
        expectSameCenter(centerOf(copy, k), centerOf(original, k));
    }
}

/**
 * The same mode, groups, switching function (every setting of it, doubles bit for bit) and periodicity: every
 * setting but the energy, parameters, group and name.
 */
inline void expectSameCoordinationSettings(const CoordinationPlugin::PairSwitchingForce& copy,
                                           const CoordinationPlugin::PairSwitchingForce& original) {
    EXPECT_EQ(copy.getMode(), original.getMode());
    EXPECT_EQ(copy.getGroupA(), original.getGroupA());
    EXPECT_EQ(copy.getGroupB(), original.getGroupB());
    EXPECT_EQ(copy.getSwitchingSettings(), original.getSwitchingSettings());
    EXPECT_EQ(copy.usesPeriodicBoundaryConditions(), original.usesPeriodicBoundaryConditions());
}

/** One contact's settings, as getContactParameters() gives them. */
struct ContactSettings {
    int particle1, particle2;
    CoordinationPlugin::CoordinationBiasForce::SwitchingFunction type;
    double r0, d0, dmax;
    bool stretch;
    std::vector<double> shape;
    double reference, weight;
};

inline ContactSettings contactOf(const CoordinationPlugin::ContactMapForce& force, int index) {
    ContactSettings c;
    force.getContactParameters(index, c.particle1, c.particle2, c.type, c.r0, c.d0, c.dmax, c.stretch, c.shape,
                               c.reference, c.weight);
    return c;
}

/**
 * The same reduction, periodicity, Custom expression and contacts, each with the same particles, switching
 * function, reference and weight; a Cubic contact's r0 (unused) too unless cubicR0Unused.
 */
inline void expectSameContacts(const CoordinationPlugin::ContactMapForce& copy,
                               const CoordinationPlugin::ContactMapForce& original, bool cubicR0Unused = false) {
    EXPECT_EQ(copy.getReduction(), original.getReduction());
    EXPECT_EQ(copy.usesPeriodicBoundaryConditions(), original.usesPeriodicBoundaryConditions());
    EXPECT_EQ(copy.getCustomSwitchingFunction(), original.getCustomSwitchingFunction());
    ASSERT_EQ(copy.getNumContacts(), original.getNumContacts());
    for (int i = 0; i < copy.getNumContacts(); i++) {
        SCOPED_TRACE("contact " + std::to_string(i));
        const ContactSettings a = contactOf(copy, i), b = contactOf(original, i);
        EXPECT_EQ(a.particle1, b.particle1);
        EXPECT_EQ(a.particle2, b.particle2);
        EXPECT_EQ(a.type, b.type);
        if (!cubicR0Unused || b.type != CoordinationPlugin::CoordinationBiasForce::Cubic)
            EXPECT_EQ(a.r0, b.r0);
        EXPECT_EQ(a.d0, b.d0);
        EXPECT_EQ(a.dmax, b.dmax);
        EXPECT_EQ(a.stretch, b.stretch);
        EXPECT_EQ(a.shape, b.shape);
        EXPECT_EQ(a.reference, b.reference);
        EXPECT_EQ(a.weight, b.weight);
    }
}

} // namespace CoordinationTest

#endif /*COORDINATION_TEST_SAMESETTINGS_H_*/
