//===- CUDARuntime.cpp - what cuda-pipeline host code calls -----*- C++ -*-===//
//
// The host side of the cuda pipeline lowers kernel launches, device
// allocations and copies to calls of `mgpu*` functions (MLIR's
// gpu-to-llvm ABI; Debian ships no mlir_cuda_runtime). This implements
// them on the CUDA driver API, for tcc-compile's cuda libraries.
//
// Device blocks and streams are cached and handed out again (the host
// code allocates its results and makes a stream per launch on every call).
//
// Errors do not abort: the first failing driver call's message (naming
// the call and, for launches, the kernel) is kept until tccCudaTakeError()
// collects it, and tcc_run returns it. A failed allocation returns null
// and later calls on that stream are skipped by the driver's own error
// state, so a call fails cleanly instead of crashing.
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/CUDARuntime.h"
#include "CUDARuntimeInternal.h"

#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::mutex mutex;
std::string pendingError;              // guarded by mutex
std::map<CUfunction, std::string> names; // kernel names, for messages

// Freed device blocks by size, reused by later allocations of about the
// same size (a call's result and intermediates come back every call;
// cuMemAlloc/cuMemFree cost tens of microseconds and synchronize).
std::multimap<size_t, CUdeviceptr> freeBlocks; // guarded by mutex
std::map<CUdeviceptr, size_t> blockSizes;      // live and cached blocks
size_t cachedBytes = 0;
constexpr size_t kMaxCachedBytes = size_t(16) << 30;

// Streams handed back by mgpuStreamDestroy, handed out again: every
// launch and copy of the lowered host code makes one and synchronizes it.
std::vector<CUstream> idleStreams; // guarded by mutex

/// CUDA graphs of one call (tccCudaBeginCapture .. tccCudaEndCapture):
/// each stream the host code makes is captured from its creation to its
/// synchronization, which instantiates that segment and runs it once (the
/// host code waits between its streams, so the segments replay in order on
/// one stream). Every device block the window allocates belongs to the
/// graph (replays write to them) and goes back to the cache only when the
/// graph is destroyed. Work on a stream that is not being captured (two
/// streams at once) fails the capture rather than be left out of replays.
struct Graph {
  CUstream stream = nullptr; // the segment being captured
  std::vector<CUgraphExec> execs;
  std::vector<CUdeviceptr> owned;
  bool failed = false;
};

thread_local Graph *capturing = nullptr;

} // namespace

namespace tcc::cuda {

void record(const std::string &message) {
  std::lock_guard<std::mutex> lock(mutex);
  if (pendingError.empty())
    pendingError = message;
}

/// Whether work queued on `stream` would escape the capture.
bool escapesCapture(CUstream stream) {
  if (!capturing || stream == capturing->stream)
    return false;
  if (!capturing->failed)
    record("work on a stream outside the captured one: the call cannot be "
           "a CUDA graph");
  capturing->failed = true;
  return true;
}

void *openVendorLibrary(const char *envVar,
                        std::initializer_list<const char *> names,
                        const char *what, std::string &error) {
  std::string tried;
  const char *env = std::getenv(envVar);
  std::vector<const char *> candidates;
  if (env)
    candidates.push_back(env);
  candidates.insert(candidates.end(), names.begin(), names.end());
  for (const char *name : candidates) {
    if (void *so = dlopen(name, RTLD_NOW | RTLD_LOCAL))
      return so;
    tried += std::string(tried.empty() ? "" : ", ") + name;
  }
  error = std::string("cannot load ") + what + " (tried " + tried +
          "): put its directory on LD_LIBRARY_PATH or name the file in " +
          envVar;
  return nullptr;
}

bool isCapturing(CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return cuStreamIsCapturing(stream, &status) != CUDA_SUCCESS ||
         status != CU_STREAM_CAPTURE_STATUS_NONE;
}

int64_t pointerAlignment(int64_t address) {
  int64_t a = 1;
  while (a < 256 && address % (a * 2) == 0)
    a *= 2;
  return a;
}

/// Checks a driver call; records "cuFoo failed (CUDA_ERROR_X: text)".
bool check(CUresult r, const char *call, const std::string &detail) {
  if (r == CUDA_SUCCESS)
    return true;
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  record(std::string(call) + " failed" +
         (detail.empty() ? "" : " (" + detail + ")") + ": " +
         (name ? name : "unknown error") + (text ? std::string(": ") + text
                                                : std::string()));
  return false;
}

/// The primary context of device 0 (or TCC_CUDA_DEVICE), made current on
/// the calling thread.
bool ensureContext() {
  static CUcontext context = nullptr;
  static CUresult initResult = [] {
    CUresult r = cuInit(0);
    if (r != CUDA_SUCCESS)
      return r;
    int ordinal = 0;
    if (const char *env = std::getenv("TCC_CUDA_DEVICE"))
      ordinal = std::atoi(env);
    CUdevice device;
    r = cuDeviceGet(&device, ordinal);
    if (r != CUDA_SUCCESS)
      return r;
    return cuDevicePrimaryCtxRetain(&context, device);
  }();
  if (!check(initResult, "CUDA initialization (cuInit / primary context)"))
    return false;
  return check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

} // namespace tcc::cuda

using namespace tcc::cuda;

extern "C" {

CUmodule mgpuModuleLoad(void *data, size_t /*size*/) {
  if (!ensureContext())
    return nullptr;
  CUmodule module = nullptr;
  check(cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!ensureContext())
    return nullptr;
  CUmodule module = nullptr;
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)),
                    log, reinterpret_cast<void *>(sizeof(log))};
  check(cuModuleLoadDataEx(&module, data, 3, options, values),
        "cuModuleLoadDataEx (PTX JIT)", log);
  return module;
}

void mgpuModuleUnload(CUmodule module) {
  if (module)
    cuModuleUnload(module);
}

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  if (!module)
    return nullptr; // the load failed and said so
  CUfunction function = nullptr;
  if (check(cuModuleGetFunction(&function, module, name),
            "cuModuleGetFunction", name)) {
    std::lock_guard<std::mutex> lock(mutex);
    names.emplace(function, name);
  }
  return function;
}

void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, CUstream stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  if (!function) {
    // A failed load said why already; a load that never ran (the
    // library's constructors were not run) must not pass silently.
    record("a kernel launch without a loaded kernel (its module was not "
           "loaded)");
    return;
  }
  std::string name;
  {
    std::lock_guard<std::mutex> lock(mutex);
    name = names[function];
  }
  if (gridX > INT32_MAX || gridY > 65535 || gridZ > 65535) {
    record("kernel " + name + ": grid " + std::to_string(gridX) + " x " +
           std::to_string(gridY) + " x " + std::to_string(gridZ) +
           " exceeds the device's limits");
    return;
  }
  if (escapesCapture(stream))
    return;
  check(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                       smem, stream, params, extra),
        "cuLaunchKernel", "kernel " + name);
}

/// The caller's stream for this thread's calls (tcc_run_on_stream).
thread_local bool hasCallerStream = false;
thread_local CUstream callerStream = nullptr;

static CUstream takeStream() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!idleStreams.empty()) {
      CUstream stream = idleStreams.back();
      idleStreams.pop_back();
      return stream;
    }
  }
  CUstream stream = nullptr;
  check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return stream;
}

CUstream mgpuStreamCreate() {
  if (!ensureContext())
    return nullptr;
  if (capturing && capturing->stream && !capturing->failed) {
    record("the call uses two streams at once: it cannot be a CUDA graph");
    capturing->failed = true;
  }
  // On the caller's stream, every segment of the call queues there, in
  // order (the host code waits between its streams).
  if (hasCallerStream && !capturing)
    return callerStream;
  CUstream stream = takeStream();
  // Each stream of a capture window is a segment of the call. Relaxed
  // mode: the host code may still allocate (a cache miss).
  if (stream && capturing && !capturing->stream && !capturing->failed) {
    if (check(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_RELAXED),
              "cuStreamBeginCapture"))
      capturing->stream = stream;
    else
      capturing->failed = true;
  }
  return stream;
}

void mgpuStreamDestroy(CUstream stream) {
  if (!stream || (hasCallerStream && stream == callerStream))
    return;
  std::lock_guard<std::mutex> lock(mutex);
  idleStreams.push_back(stream);
}

void mgpuStreamSynchronize(CUstream stream) {
  if (!stream)
    return;
  if (capturing && stream == capturing->stream) {
    // The end of the captured call: instantiate, then run it once so the
    // call has its results.
    capturing->stream = nullptr;
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
    if (!check(cuStreamEndCapture(stream, &graph), "cuStreamEndCapture") ||
        !check(cuGraphInstantiate(&exec, graph, 0), "cuGraphInstantiate")) {
      capturing->failed = true;
      if (graph)
        cuGraphDestroy(graph);
      return;
    }
    cuGraphDestroy(graph);
    capturing->execs.push_back(exec);
    if (!check(cuGraphLaunch(exec, stream), "cuGraphLaunch"))
      capturing->failed = true;
  }
  check(cuStreamSynchronize(stream), "cuStreamSynchronize",
        "a kernel or copy on this stream failed");
}

void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (stream && event)
    check(cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

CUevent mgpuEventCreate() {
  if (!ensureContext())
    return nullptr;
  CUevent event = nullptr;
  check(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return event;
}

void mgpuEventDestroy(CUevent event) {
  if (event)
    cuEventDestroy(event);
}

void mgpuEventSynchronize(CUevent event) {
  if (event)
    check(cuEventSynchronize(event), "cuEventSynchronize");
}

void mgpuEventRecord(CUevent event, CUstream stream) {
  if (event)
    check(cuEventRecord(event, stream), "cuEventRecord");
}

static void *cachedAlloc(uint64_t bytes) {
  CUdeviceptr ptr = 0;
  {
    // The smallest cached block that fits, if it wastes at most a quarter.
    std::lock_guard<std::mutex> lock(mutex);
    auto it = freeBlocks.lower_bound(bytes);
    if (it != freeBlocks.end() && it->first - bytes <= it->first / 4) {
      ptr = it->second;
      cachedBytes -= it->first;
      freeBlocks.erase(it);
      return reinterpret_cast<void *>(ptr);
    }
  }
  if (!check(cuMemAlloc(&ptr, bytes), "cuMemAlloc",
             std::to_string(bytes) + " bytes"))
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  blockSizes[ptr] = bytes;
  return reinterpret_cast<void *>(ptr);
}

/// Device memory for the host code: from the cache or the driver, owned by
/// the graph being captured, if any.
static void *allocate(uint64_t bytes) {
  void *ptr = cachedAlloc(bytes);
  if (ptr && capturing)
    capturing->owned.push_back(reinterpret_cast<CUdeviceptr>(ptr));
  return ptr;
}

void *mgpuMemAlloc(uint64_t bytes, CUstream stream, bool isHostShared) {
  if (!ensureContext() || bytes == 0)
    return nullptr;
  (void)stream;
  if (isHostShared) {
    CUdeviceptr ptr = 0;
    check(cuMemAllocManaged(&ptr, bytes, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged", std::to_string(bytes) + " bytes");
    return reinterpret_cast<void *>(ptr);
  }
  return allocate(bytes);
}

/// A block back to the cache (or the driver, past the cache's limit).
static void release(CUdeviceptr p) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = blockSizes.find(p);
    if (it != blockSizes.end() && cachedBytes + it->second <= kMaxCachedBytes) {
      freeBlocks.emplace(it->second, p);
      cachedBytes += it->second;
      return;
    }
    if (it != blockSizes.end())
      blockSizes.erase(it);
  }
  check(cuMemFree(p), "cuMemFree");
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, CUstream stream) {
  if (bytes && !escapesCapture(stream))
    check(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                        reinterpret_cast<CUdeviceptr>(src), bytes, stream),
          "cuMemcpyAsync", std::to_string(bytes) + " bytes");
}

void mgpuMemset32(void *dst, unsigned int value, size_t count,
                  CUstream stream) {
  if (!escapesCapture(stream))
    check(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream),
        "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  CUstream stream) {
  if (!escapesCapture(stream))
    check(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream),
        "cuMemsetD16Async");
}

void mgpuSetDefaultDevice(int32_t device) {
  (void)device; // the context is device 0's (TCC_CUDA_DEVICE picks another)
}

//===----------------------------------------------------------------------===//
// For tcc_run (CUDARuntime.h)
//===----------------------------------------------------------------------===//

void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  if (!ptr)
    return;
  auto p = reinterpret_cast<CUdeviceptr>(ptr);
  // The graph being captured keeps its blocks: its replays use them.
  if (capturing && std::find(capturing->owned.begin(),
                              capturing->owned.end(),
                              p) != capturing->owned.end())
    return;
  release(p);
}

void tccCudaFree(void *ptr) { mgpuMemFree(ptr, nullptr); }

void tccCudaBeginCapture(void) {
  delete capturing;
  capturing = new Graph();
}

void *tccCudaEndCapture(void) {
  Graph *graph = capturing;
  capturing = nullptr;
  if (!graph)
    return nullptr;
  if (graph->stream) { // the call never synchronized its stream
    CUgraph g = nullptr;
    cuStreamEndCapture(graph->stream, &g);
    if (g)
      cuGraphDestroy(g);
    record("the captured call did not end with a synchronization");
    graph->failed = true;
  }
  if (graph->failed || graph->execs.empty()) {
    if (!graph->failed)
      record("the captured call launched nothing on the device");
    tccCudaGraphDestroy(graph);
    return nullptr;
  }
  return graph;
}

int tccCudaGraphLaunch(void *handle) {
  auto *graph = static_cast<Graph *>(handle);
  if (!graph || !ensureContext())
    return 1;
  CUstream stream = takeStream();
  bool ok = stream != nullptr;
  for (CUgraphExec exec : graph->execs)
    ok = ok && check(cuGraphLaunch(exec, stream), "cuGraphLaunch");
  ok = ok && check(cuStreamSynchronize(stream), "cuStreamSynchronize",
                   "a kernel or copy of the graph failed");
  if (stream)
    mgpuStreamDestroy(stream);
  return ok ? 0 : 1;
}

int tccCudaGraphLaunchOn(void *handle, void *stream) {
  auto *graph = static_cast<Graph *>(handle);
  if (!graph || !ensureContext())
    return 1;
  bool ok = true;
  for (CUgraphExec exec : graph->execs)
    ok = ok && check(cuGraphLaunch(exec, static_cast<CUstream>(stream)),
                     "cuGraphLaunch");
  return ok ? 0 : 1;
}

void tccCudaSetStream(void *stream, int set) {
  hasCallerStream = set != 0;
  // Null: the legacy default stream (a null handle would mean "no stream"
  // to the host code's calls).
  callerStream = !set ? nullptr : stream ? static_cast<CUstream>(stream) : CU_STREAM_LEGACY;
}

void tccCudaGraphDestroy(void *handle) {
  auto *graph = static_cast<Graph *>(handle);
  if (!graph)
    return;
  for (CUgraphExec exec : graph->execs)
    cuGraphExecDestroy(exec);
  for (CUdeviceptr p : graph->owned)
    release(p);
  delete graph;
}

void *tccCudaAlloc(size_t bytes) {
  return mgpuMemAlloc(bytes, nullptr, false);
}

int tccCudaCopy(void *dst, const void *src, size_t bytes) {
  if (!ensureContext())
    return 1;
  return check(cuMemcpy(reinterpret_cast<CUdeviceptr>(dst),
                        reinterpret_cast<CUdeviceptr>(src), bytes),
               "cuMemcpy")
             ? 0
             : 1;
}

const char *tccCudaTakeError(void) {
  static thread_local std::string taken;
  std::lock_guard<std::mutex> lock(mutex);
  taken.swap(pendingError);
  pendingError.clear();
  return taken.empty() ? nullptr : taken.c_str();
}

} // extern "C"
