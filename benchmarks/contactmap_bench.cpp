// Family M without the Python module: the added time per MD step of a ContactMapForce (SUM of rational contacts,
// PLUMED's SWITCH={RATIONAL R_0=0.3}: n = 6, m = 12, no cutoff, energy 0.5*k*(s-s0)^2) on the suite's pairs (each
// first atom's partner 0.1-0.6 nm away, 100 atoms/nm^3, periodic), as the suite measures it (massless particles,
// step(K) + an energy of an empty force group, repetitions of the contexts alternating, difference of the medians).
//   g++ -O2 -std=c++17 contactmap_bench.cpp -I<tree>/openmmapi/include -I<openmm>/include -L... -lOpenMMCoordination -lOpenMM
//   ./contactmap_bench <plugin dirs...> -- CUDA single,mixed 1000,10000,100000 [reps]
// With "profile" after the sizes (reps then required), only the map's context runs: 20 steps after a warm-up, for
// Nsight Compute or Systems (its kernels: computeContactMap, or computeContacts and finishContacts).
#include "ContactMapForce.h"
#include "OpenMM.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>
using namespace OpenMM;
using namespace CoordinationPlugin;

static std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ','))
        parts.push_back(part);
    return parts;
}

struct Run {
    std::unique_ptr<System> system;
    std::unique_ptr<VerletIntegrator> integrator;
    std::unique_ptr<Context> context;
    std::vector<double> perStep;
};

static double timeSteps(Run& run, int steps) {
    auto start = std::chrono::steady_clock::now();
    run.integrator->step(steps);
    run.context->getState(State::Energy, false, 1 << 30);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/** The suite's Pair geometry for `contacts` contacts: 2 particles each, the partner 0.1-0.6 nm from its first atom. */
static std::vector<Vec3> pairPositions(int contacts, double edge, std::vector<int>& partners) {
    std::mt19937 generator(1);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::normal_distribution<double> normal;
    std::vector<Vec3> positions(2 * contacts);
    for (Vec3& p : positions)
        p = Vec3(uniform(generator), uniform(generator), uniform(generator)) * edge;
    partners.resize(contacts);
    for (int i = 0; i < contacts; i++)
        partners[i] = contacts + i;
    std::shuffle(partners.begin(), partners.end(), generator);
    for (int i = 0; i < contacts; i++) {
        Vec3 direction(normal(generator), normal(generator), normal(generator));
        direction *= 1.0 / std::sqrt(direction.dot(direction));
        const Vec3 partner = positions[i] + direction * (0.1 + 0.5 * uniform(generator));
        for (int axis = 0; axis < 3; axis++)
            positions[partners[i]][axis] = partner[axis] - edge * std::floor(partner[axis] / edge);
    }
    return positions;
}

int main(int argc, char** argv) {
    int arg = 1;
    Platform::loadPluginsFromDirectory(Platform::getDefaultPluginsDirectory());
    for (; arg < argc && std::string(argv[arg]) != "--"; arg++)
        Platform::loadPluginsFromDirectory(argv[arg]);
    arg++;
    if (argc < arg + 3) {
        fprintf(stderr, "usage: %s <plugin dirs...> -- PLATFORM precisions sizes [reps] [profile]\n", argv[0]);
        return 1;
    }
    const std::string platformName = argv[arg];
    const std::vector<std::string> precisions = split(argv[arg + 1]);
    const std::vector<std::string> sizes = split(argv[arg + 2]);
    const int reps = (argc > arg + 3 ? atoi(argv[arg + 3]) : 15);
    const bool profile = (argc > arg + 4 && std::string(argv[arg + 4]) == "profile");
    if (!profile) {
        printf("| contacts | precision | ContactMapForce added (us) | s |\n");
        printf("|---|---|---|---|\n");
    }
    for (const std::string& size : sizes)
        for (const std::string& precision : precisions) {
            const int contacts = atoi(size.c_str());
            const double edge = std::cbrt(2 * contacts / 100.0);
            std::vector<int> partners;
            const std::vector<Vec3> positions = pairPositions(contacts, edge, partners);
            std::vector<Run> runs(profile ? 1 : 2);
            for (int which = 0; which < (int) runs.size(); which++) {
                Run& run = runs[which];
                run.system.reset(new System());
                for (int i = 0; i < 2 * contacts; i++)
                    run.system->addParticle(0.0);
                run.system->setDefaultPeriodicBoxVectors(Vec3(edge, 0, 0), Vec3(0, edge, 0), Vec3(0, 0, edge));
                if (which == (int) runs.size() - 1) {
                    ContactMapForce* force = new ContactMapForce("0.5*k*(s-s0)^2", ContactMapForce::Sum);
                    force->addGlobalParameter("k", 1.0);
                    force->addGlobalParameter("s0", 0.0);
                    for (int i = 0; i < contacts; i++)
                        force->addContact(i, partners[i], 0.3);
                    force->setUsesPeriodicBoundaryConditions(true);
                    run.system->addForce(force);
                }
                else
                    run.system->addForce(new CustomExternalForce("0"));
                run.integrator.reset(new VerletIntegrator(0.001));
                run.context.reset(new Context(*run.system, *run.integrator, Platform::getPlatformByName(platformName),
                                              {{"Precision", precision}}));
                run.context->setPositions(positions);
            }
            Run& mapped = runs.back();
            if (profile) {
                timeSteps(mapped, 10);
                timeSteps(mapped, 20);
                continue;
            }
            // K steps per repetition: at least 20 ms for the slowest context.
            int steps = 10;
            for (Run& run : runs)
                timeSteps(run, 20);
            while (timeSteps(mapped, steps) < 0.02 && steps < 100000)
                steps *= 2;
            for (int rep = 0; rep < reps; rep++)
                for (Run& run : runs)
                    run.perStep.push_back(timeSteps(run, steps) / steps);
            auto median = [](std::vector<double> values) {
                std::sort(values.begin(), values.end());
                return values[values.size() / 2];
            };
            const double added = (median(mapped.perStep) - median(runs[0].perStep)) * 1e6;
            std::vector<double> values;
            dynamic_cast<const ContactMapForce&>(mapped.system->getForce(0)).getCollectiveVariableValues(*mapped.context, values);
            printf("| %d | %s | %.2f | %.7g |\n", contacts, precision.c_str(), added, values[0]);
            fflush(stdout);
        }
    return 0;
}
