//===- ModelLibrary.cpp - loads a library built by tcc-compile --*- C++ -*-===//

#include "tcc/Runtime/ModelLibrary.h"
#include "tcc/Runtime/tcc_model.h"

#include <chrono>
#include <cstring>
#include <dlfcn.h>

using namespace tcc::runtime;

namespace {

/// The few driver calls that stage tensors of a cuda library between host
/// and device, from libcuda.so.1 opened at run time (tcc's runtime does not
/// link against CUDA; only device libraries need it).
struct Driver {
  using CUresult = int;
  CUresult (*init)(unsigned);
  CUresult (*deviceGet)(int *, int);
  CUresult (*retain)(void **, int);
  CUresult (*setCurrent)(void *);
  CUresult (*alloc)(uint64_t *, size_t);
  CUresult (*free)(uint64_t);
  CUresult (*htod)(uint64_t, const void *, size_t);
  CUresult (*dtoh)(void *, uint64_t, size_t);
  CUresult (*sync)(void);
  CUresult (*streamCreate)(void **, unsigned);
  CUresult (*streamSync)(void *);
  CUresult (*streamDestroy)(void *);

  static Driver *get(std::string &error) {
    static Driver driver;
    static std::string loadError = [] {
      void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
      if (!h)
        return std::string("a cuda library needs the NVIDIA driver: ") +
               dlerror();
      auto bind = [&](auto &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
            dlsym(h, name));
        return fn != nullptr;
      };
      if (!bind(driver.init, "cuInit") ||
          !bind(driver.deviceGet, "cuDeviceGet") ||
          !bind(driver.retain, "cuDevicePrimaryCtxRetain") ||
          !bind(driver.setCurrent, "cuCtxSetCurrent") ||
          !bind(driver.alloc, "cuMemAlloc_v2") ||
          !bind(driver.free, "cuMemFree_v2") ||
          !bind(driver.htod, "cuMemcpyHtoD_v2") ||
          !bind(driver.dtoh, "cuMemcpyDtoH_v2") ||
          !bind(driver.sync, "cuCtxSynchronize") ||
          !bind(driver.streamCreate, "cuStreamCreate") ||
          !bind(driver.streamSync, "cuStreamSynchronize") ||
          !bind(driver.streamDestroy, "cuStreamDestroy_v2"))
        return std::string("libcuda.so.1 lacks a driver API function");
      int device = 0;
      void *context = nullptr;
      const char *env = std::getenv("TCC_CUDA_DEVICE");
      if (driver.init(0) != 0 ||
          driver.deviceGet(&device, env ? std::atoi(env) : 0) != 0 ||
          driver.retain(&context, device) != 0 ||
          driver.setCurrent(context) != 0)
        return std::string("no usable CUDA device");
      return std::string();
    }();
    if (!loadError.empty()) {
      error = loadError;
      return nullptr;
    }
    return &driver;
  }
};

} // namespace

struct ModelLibrary::Api {
  decltype(&::tcc_run) run;
  decltype(&::tcc_release) release;
  decltype(&::tcc_last_error) lastError;
  decltype(&::tcc_manifest) manifest;
  decltype(&::tcc_num_entries) numEntries;
  decltype(&::tcc_entry_name) entryName;
  decltype(&::tcc_entry_arity) arity;
  // Optional (libraries before CUDA graphs lack them).
  decltype(&::tcc_graph_create) graphCreate = nullptr;
  decltype(&::tcc_graph_launch) graphLaunch = nullptr;
  decltype(&::tcc_graph_destroy) graphDestroy = nullptr;
  decltype(&::tcc_run_on_stream) runOnStream = nullptr;
  decltype(&::tcc_graph_launch_on_stream) graphLaunchOnStream = nullptr;
};

std::unique_ptr<ModelLibrary> ModelLibrary::open(const std::string &path,
                                                 std::string &error) {
  // A path without a slash would be searched for on the library path.
  std::string where = path.find('/') == std::string::npos ? "./" + path : path;
  void *handle = dlopen(where.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    std::string why = dlerror();
    error = "cannot load " + path + ": " + why;
    // A cuda library on a machine without the NVIDIA driver.
    if (why.find("libcuda.so.1") != std::string::npos)
      error += " (a cuda library needs the NVIDIA driver and a GPU)";
    return nullptr;
  }
  auto lib = std::unique_ptr<ModelLibrary>(new ModelLibrary());
  lib->handle = handle;
  lib->api = std::make_unique<Api>();
  auto bind = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(handle, name));
    if (!fn)
      error = path + " is not a tcc-compile library (no " + name + ")";
    return fn != nullptr;
  };
  Api &a = *lib->api;
  if (!bind(a.run, "tcc_run") || !bind(a.release, "tcc_release") ||
      !bind(a.lastError, "tcc_last_error") ||
      !bind(a.manifest, "tcc_manifest") ||
      !bind(a.numEntries, "tcc_num_entries") ||
      !bind(a.entryName, "tcc_entry_name") ||
      !bind(a.arity, "tcc_entry_arity"))
    return nullptr;
  a.graphCreate = reinterpret_cast<decltype(a.graphCreate)>(
      dlsym(handle, "tcc_graph_create"));
  a.graphLaunch = reinterpret_cast<decltype(a.graphLaunch)>(
      dlsym(handle, "tcc_graph_launch"));
  a.graphDestroy = reinterpret_cast<decltype(a.graphDestroy)>(
      dlsym(handle, "tcc_graph_destroy"));
  a.runOnStream = reinterpret_cast<decltype(a.runOnStream)>(
      dlsym(handle, "tcc_run_on_stream"));
  a.graphLaunchOnStream = reinterpret_cast<decltype(a.graphLaunchOnStream)>(
      dlsym(handle, "tcc_graph_launch_on_stream"));
  return lib;
}

ModelLibrary::~ModelLibrary() {
  if (stream) {
    std::string ignored;
    if (Driver *driver = Driver::get(ignored))
      driver->streamDestroy(stream);
  }
  if (handle)
    dlclose(handle);
}

bool ModelLibrary::useCallerStream(std::string &error) {
  if (!isDeviceLibrary() || !api->runOnStream || !api->graphLaunchOnStream) {
    error = "--stream needs a cuda library with tcc_run_on_stream";
    return false;
  }
  Driver *driver = Driver::get(error);
  if (!driver)
    return false;
  if (!stream && driver->streamCreate(&stream, /*CU_STREAM_NON_BLOCKING=*/1))
    return error = "cuStreamCreate failed", false;
  return true;
}

bool ModelLibrary::call(const std::string &name,
                        const std::vector<HostTensor> &inputs,
                        std::vector<HostTensor> &results, std::string &error) {
  return run(name, inputs, results, /*replays=*/0, error);
}

bool ModelLibrary::callGraph(const std::string &name,
                             const std::vector<HostTensor> &inputs,
                             unsigned replays,
                             std::vector<HostTensor> &results,
                             std::string &error) {
  if (!api->graphCreate) {
    error = "the library has no tcc_graph_create (built before CUDA graphs)";
    return false;
  }
  return run(name, inputs, results, replays, error);
}

bool ModelLibrary::run(const std::string &name,
                       const std::vector<HostTensor> &inputs,
                       std::vector<HostTensor> &results, unsigned replays,
                       std::string &error) {
  bool graphMode = api->graphCreate && replays > 0;
  replaySeconds.clear();
  std::vector<tcc_tensor> in(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const HostTensor &t = inputs[i];
    if (t.shape.size() > TCC_MAX_RANK) {
      error = "input " + std::to_string(i) + " has rank " +
              std::to_string(t.shape.size()) + ", the ABI allows " +
              std::to_string(TCC_MAX_RANK);
      return false;
    }
    in[i].data = const_cast<uint8_t *>(t.data.data());
    in[i].dtype = static_cast<int32_t>(t.dtype);
    in[i].rank = static_cast<int32_t>(t.shape.size());
    std::copy(t.shape.begin(), t.shape.end(), in[i].shape);
  }
  int numInputs = 0, numResults = 0;
  if (api->arity(name.c_str(), &numInputs, &numResults) != 0) {
    error = "the library has no entry named '" + name + "'";
    return false;
  }
  // A cuda library takes and gives device pointers: inputs go to the
  // device first, results come back after.
  Driver *driver = nullptr;
  std::vector<uint64_t> deviceInputs;
  auto freeInputs = [&] {
    for (uint64_t p : deviceInputs)
      if (p)
        driver->free(p);
  };
  if (isDeviceLibrary()) {
    driver = Driver::get(error);
    if (!driver)
      return false;
    for (size_t i = 0; i < inputs.size(); ++i) {
      uint64_t p = 0;
      size_t bytes = inputs[i].numBytes();
      if (bytes && (driver->alloc(&p, bytes) != 0 ||
                    driver->htod(p, inputs[i].data.data(), bytes) != 0)) {
        freeInputs();
        error = "copying input " + std::to_string(i) + " to the device failed";
        return false;
      }
      deviceInputs.push_back(p);
      in[i].data = reinterpret_cast<void *>(p);
    }
  }
  std::vector<tcc_tensor> out(numResults);
  auto start = std::chrono::steady_clock::now();
  tcc_graph *graph = nullptr;
  int rc = graphMode ? api->graphCreate(name.c_str(), in.data(),
                                        (int)in.size(), out.data(),
                                        numResults, &graph)
                     : stream ? api->runOnStream(name.c_str(), in.data(),
                                                 (int)in.size(), out.data(),
                                                 numResults, stream)
                              : api->run(name.c_str(), in.data(),
                                         (int)in.size(), out.data(),
                                         numResults);
  lastCallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  // Graph mode: replays of the captured call, each timed; the results are
  // the last replay's (the graph's buffers).
  for (unsigned i = 0; rc == 0 && graph && i < replays; ++i) {
    auto t = std::chrono::steady_clock::now();
    // On the caller's stream the replay is queued; the wait is timed too.
    rc = stream ? api->graphLaunchOnStream(graph, stream) ||
                      driver->streamSync(stream)
                : api->graphLaunch(graph);
    replaySeconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t)
            .count());
  }
  if (rc != 0) {
    error = api->lastError();
    if (graph)
      api->graphDestroy(graph);
    if (driver)
      freeInputs();
    return false;
  }
  results.clear();
  bool copied = true;
  for (tcc_tensor &t : out) {
    HostTensor h(static_cast<DType>(t.dtype),
                 std::vector<int64_t>(t.shape, t.shape + t.rank));
    if (h.numBytes()) {
      if (driver)
        copied &= driver->dtoh(h.data.data(),
                               reinterpret_cast<uint64_t>(t.data),
                               h.numBytes()) == 0;
      else
        std::memcpy(h.data.data(), t.data, h.numBytes());
    }
    api->release(&t); // a graph's results have no owner: a no-op
    results.push_back(std::move(h));
  }
  if (graph)
    api->graphDestroy(graph);
  if (driver)
    freeInputs();
  if (!copied) {
    error = "copying a result from the device failed";
    return false;
  }
  return true;
}

bool ModelLibrary::isDeviceLibrary() const {
  return manifest().find("\"memory\": \"device\"") != std::string::npos;
}

std::string ModelLibrary::manifest() const { return api->manifest(); }

std::vector<std::string> ModelLibrary::entryNames() const {
  std::vector<std::string> names;
  for (int i = 0, n = api->numEntries(); i < n; ++i)
    names.push_back(api->entryName(i));
  return names;
}
