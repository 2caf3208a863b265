#ifndef OPENMM_WINDOWSEXPORTCOORDINATION_H_
#define OPENMM_WINDOWSEXPORTCOORDINATION_H_

// Export macro for the CoordinationForce library (a no-op except on Windows).
#if defined(_MSC_VER)
#if defined(OPENMM_COORDINATION_BUILDING_SHARED_LIBRARY)
#define OPENMM_EXPORT_COORDINATION __declspec(dllexport)
#else
#define OPENMM_EXPORT_COORDINATION __declspec(dllimport)
#endif
#else
#define OPENMM_EXPORT_COORDINATION __attribute__((visibility("default")))
#endif

#endif /*OPENMM_WINDOWSEXPORTCOORDINATION_H_*/
