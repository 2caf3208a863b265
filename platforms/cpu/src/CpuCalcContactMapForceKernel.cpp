#include "CpuCoordinationKernels.h"
#include "openmm/cpu/CpuPlatform.h"
#include "openmm/internal/ThreadPool.h"
#include <algorithm>
#include <atomic>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

namespace {

/** Contacts per work item: below this a thread's start costs more than it saves. */
const int ContactsPerItem = 2048;

} // namespace

void CpuCalcContactMapForceKernel::computeRange(ContextImpl& context, const vector<Vec3>& members, const Vec3* box,
                                                int numContacts, double* values, Vec3* gradients) {
    const int numItems = (numContacts + ContactsPerItem - 1) / ContactsPerItem;
    if (numItems <= 1) {
        ContactMapHostKernel::computeRange(context, members, box, numContacts, values, gradients);
        return;
    }
    const ContactMapHostEvaluator& evaluator = getEvaluator();
    ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
    std::atomic<int> nextItem(0);
    threads.execute([&](ThreadPool& pool, int thread) {
        for (int item = nextItem++; item < numItems; item = nextItem++) {
            const int first = item * ContactsPerItem;
            evaluator.computeContacts(members, box, first, std::min(first + ContactsPerItem, numContacts), values,
                                      gradients);
        }
    });
    threads.waitForThreads();
}
