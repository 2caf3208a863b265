/*
 * LD_PRELOAD shim that counts host<->device transfers and host synchronizations made through the
 * CUDA driver API and the OpenCL API, to show that a force evaluation adds none per MD step.
 * Build: cc -shared -fPIC -O2 -o libtransfercount.so tools/transfer_count.c -ldl
 * Use:   LD_PRELOAD=./libtransfercount.so python tools/count_transfers.py --platform CUDA
 * The counts are read from Python with ctypes (transfer_count_get / transfer_count_reset).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

enum { UPLOADS, DOWNLOADS, SYNCHRONIZATIONS, NUM_COUNTERS };
static volatile long counters[NUM_COUNTERS];

void transfer_count_reset(void) {
    for (int i = 0; i < NUM_COUNTERS; i++)
        counters[i] = 0;
}

/* uploads, downloads, synchronizations */
void transfer_count_get(long* out) {
    for (int i = 0; i < NUM_COUNTERS; i++)
        out[i] = counters[i];
}

/* The real function: the next definition after this library, or the one in the API's own library
   (OpenMM loads libOpenCL/libcuda after this shim, through its plugins). */
static void* lookup(const char* name, const char* library) {
    void* symbol = dlsym(RTLD_NEXT, name);
    if (symbol == NULL) {
        void* handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
        if (handle == NULL)
            handle = dlopen(library, RTLD_LAZY);
        if (handle != NULL)
            symbol = dlsym(handle, name);
    }
    return symbol;
}

#define FORWARD(library, counter, name, signature, arguments)            \
    typedef int (*name##_type) signature;                                \
    int name signature {                                                 \
        static name##_type real = NULL;                                  \
        if (real == NULL)                                                \
            real = (name##_type) lookup(#name, library);                 \
        __sync_fetch_and_add(&counters[counter], 1);                     \
        return real arguments;                                           \
    }

/* CUDA driver API (what OpenMM's CUDA platform calls). */
typedef uint64_t CUdeviceptr_t;
FORWARD("libcuda.so.1", UPLOADS, cuMemcpyHtoD_v2, (CUdeviceptr_t dst, const void* src, size_t n), (dst, src, n))
FORWARD("libcuda.so.1", UPLOADS, cuMemcpyHtoDAsync_v2, (CUdeviceptr_t dst, const void* src, size_t n, void* stream), (dst, src, n, stream))
FORWARD("libcuda.so.1", DOWNLOADS, cuMemcpyDtoH_v2, (void* dst, CUdeviceptr_t src, size_t n), (dst, src, n))
FORWARD("libcuda.so.1", DOWNLOADS, cuMemcpyDtoHAsync_v2, (void* dst, CUdeviceptr_t src, size_t n, void* stream), (dst, src, n, stream))
FORWARD("libcuda.so.1", SYNCHRONIZATIONS, cuStreamSynchronize, (void* stream), (stream))
FORWARD("libcuda.so.1", SYNCHRONIZATIONS, cuCtxSynchronize, (void), ())
FORWARD("libcuda.so.1", SYNCHRONIZATIONS, cuEventSynchronize, (void* event), (event))

/* OpenCL. */
FORWARD("libOpenCL.so.1", UPLOADS, clEnqueueWriteBuffer,
        (void* queue, void* buffer, unsigned blocking, size_t offset, size_t size, const void* ptr, unsigned numEvents,
         const void* events, void* event),
        (queue, buffer, blocking, offset, size, ptr, numEvents, events, event))
FORWARD("libOpenCL.so.1", DOWNLOADS, clEnqueueReadBuffer,
        (void* queue, void* buffer, unsigned blocking, size_t offset, size_t size, void* ptr, unsigned numEvents,
         const void* events, void* event),
        (queue, buffer, blocking, offset, size, ptr, numEvents, events, event))
FORWARD("libOpenCL.so.1", SYNCHRONIZATIONS, clFinish, (void* queue), (queue))
FORWARD("libOpenCL.so.1", SYNCHRONIZATIONS, clWaitForEvents, (unsigned numEvents, const void* events), (numEvents, events))
