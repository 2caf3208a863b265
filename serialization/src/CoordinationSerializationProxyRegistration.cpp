#include "ContactMapForce.h"
#include "CoordinationForce.h"
#include "CoordinationNumberForce.h"
#include "ForceProxy.h"
#include "ShellFunctionForce.h"
#include "SteinhardtForce.h"
#include "openmm/serialization/SerializationProxy.h"

#if defined(WIN32)
#include <windows.h>
extern "C" void registerCoordinationSerializationProxies();
BOOL WINAPI DllMain(HANDLE hModule, DWORD ul_reason_for_call, LPVOID lpReserved) {
    if (ul_reason_for_call == DLL_PROCESS_ATTACH)
        registerCoordinationSerializationProxies();
    return TRUE;
}
#else
extern "C" void __attribute__((constructor)) registerCoordinationSerializationProxies();
#endif

using namespace CoordinationPlugin;
using namespace OpenMM;

// Runs when the library is loaded, so XmlSerializer knows the plugin's forces wherever the plugin is used.
extern "C" void registerCoordinationSerializationProxies() {
    SerializationProxy::registerProxy(typeid(CoordinationForce),
                                      new ForceProxy<CoordinationForce>("CoordinationForce"));
    SerializationProxy::registerProxy(typeid(CoordinationNumberForce),
                                      new ForceProxy<CoordinationNumberForce>("CoordinationNumberForce"));
    SerializationProxy::registerProxy(typeid(SteinhardtForce), new ForceProxy<SteinhardtForce>("SteinhardtForce"));
    SerializationProxy::registerProxy(typeid(ShellFunctionForce),
                                      new ForceProxy<ShellFunctionForce>("ShellFunctionForce"));
    SerializationProxy::registerProxy(typeid(ContactMapForce), new ForceProxy<ContactMapForce>("ContactMapForce"));
}
