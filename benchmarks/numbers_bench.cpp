// Added time per MD step of CoordinationNumberForce (SPECIES, MoreThan + Mean) against CoordinationForce Self on
// the same atoms, as the suite measures it (massless particles, step(K) + an energy of an empty force group,
// repetitions of the contexts alternating, difference of the medians). For a machine without the Python module:
//   g++ -O2 -std=c++17 numbers_bench.cpp -I<tree>/openmmapi/include -I<openmm>/include -L... -lOpenMMCoordination -lOpenMM
//   ./numbers_bench <plugin dirs...> -- CUDA single,mixed 1000,10000,100000
#include "CoordinationNumberForce.h"
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

int main(int argc, char** argv) {
    int arg = 1;
    Platform::loadPluginsFromDirectory(Platform::getDefaultPluginsDirectory());
    for (; arg < argc && std::string(argv[arg]) != "--"; arg++)
        Platform::loadPluginsFromDirectory(argv[arg]);
    arg++;
    const std::string platformName = argv[arg];
    const std::vector<std::string> precisions = split(argv[arg + 1]);
    const std::vector<std::string> sizes = split(argv[arg + 2]);
    const int reps = (argc > arg + 3 ? atoi(argv[arg + 3]) : 15);
    printf("| N | precision | CoordinationForce Self (us) | CoordinationNumberForce (us) | ratio | mean | morethan |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (const std::string& size : sizes)
        for (const std::string& precision : precisions) {
            const int n = atoi(size.c_str());
            const double edge = std::cbrt(n / 100.0);
            std::mt19937 generator(1);
            std::uniform_real_distribution<double> uniform(0.0, edge);
            std::vector<Vec3> positions(n);
            for (Vec3& p : positions)
                p = Vec3(uniform(generator), uniform(generator), uniform(generator));
            std::vector<int> group(n);
            for (int i = 0; i < n; i++)
                group[i] = i;
            std::vector<Run> runs(3);
            for (int which = 0; which < 3; which++) {
                Run& run = runs[which];
                run.system.reset(new System());
                for (int i = 0; i < n; i++)
                    run.system->addParticle(0.0);
                run.system->setDefaultPeriodicBoxVectors(Vec3(edge, 0, 0), Vec3(0, edge, 0), Vec3(0, 0, edge));
                CoordinationForce* force = nullptr;
                if (which == 1)
                    force = new CoordinationForce("0.5*k*(s-s0)^2");
                else if (which == 2) {
                    CoordinationNumberForce* numbers = new CoordinationNumberForce("0.5*k*(mean-s0)^2+k*morethan");
                    numbers->addReduction(CoordinationNumberForce::Mean);
                    numbers->addReduction(CoordinationNumberForce::MoreThan, "RATIONAL R_0=4");
                    force = numbers;
                }
                if (force != nullptr) {
                    force->addGlobalParameter("k", 1.0);
                    force->addGlobalParameter("s0", 0.0);
                    force->setGroupA(group);
                    force->setR0(0.3);
                    force->setDMax(1.0);
                    force->setStretch(false);
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
            // K steps per repetition: at least 20 ms for the slowest context.
            int steps = 10;
            for (Run& run : runs)
                timeSteps(run, 20);
            while (timeSteps(runs[2], steps) < 0.02 && steps < 100000)
                steps *= 2;
            for (int rep = 0; rep < reps; rep++)
                for (Run& run : runs)
                    run.perStep.push_back(timeSteps(run, steps) / steps);
            auto median = [](std::vector<double> values) {
                std::sort(values.begin(), values.end());
                return values[values.size() / 2];
            };
            const double base = median(runs[0].perStep);
            const double s = (median(runs[1].perStep) - base) * 1e6, numbers = (median(runs[2].perStep) - base) * 1e6;
            std::vector<double> values;
            dynamic_cast<const CoordinationForce&>(runs[2].system->getForce(0)).getCollectiveVariableValues(*runs[2].context, values);
            printf("| %d | %s | %.2f | %.2f | %.2f | %.5g | %.5g |\n", n, precision.c_str(), s, numbers, numbers / s,
                   values[0], values[1]);
            fflush(stdout);
        }
    return 0;
}
