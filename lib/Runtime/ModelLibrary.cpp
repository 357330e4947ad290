//===- ModelLibrary.cpp - loads a library built by tcc-compile --*- C++ -*-===//

#include "tcc/Runtime/ModelLibrary.h"
#include "tcc/Runtime/tcc_model.h"

#include <chrono>
#include <cstring>
#include <dlfcn.h>

using namespace tcc::runtime;

struct ModelLibrary::Api {
  decltype(&::tcc_run) run;
  decltype(&::tcc_release) release;
  decltype(&::tcc_last_error) lastError;
  decltype(&::tcc_manifest) manifest;
  decltype(&::tcc_num_entries) numEntries;
  decltype(&::tcc_entry_name) entryName;
  decltype(&::tcc_entry_arity) arity;
};

std::unique_ptr<ModelLibrary> ModelLibrary::open(const std::string &path,
                                                 std::string &error) {
  // A path without a slash would be searched for on the library path.
  std::string where = path.find('/') == std::string::npos ? "./" + path : path;
  void *handle = dlopen(where.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error = std::string("cannot load ") + path + ": " + dlerror();
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
  return lib;
}

ModelLibrary::~ModelLibrary() {
  if (handle)
    dlclose(handle);
}

bool ModelLibrary::call(const std::string &name,
                        const std::vector<HostTensor> &inputs,
                        std::vector<HostTensor> &results, std::string &error) {
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
  std::vector<tcc_tensor> out(numResults);
  auto start = std::chrono::steady_clock::now();
  int rc = api->run(name.c_str(), in.data(), (int)in.size(), out.data(),
                    numResults);
  lastCallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (rc != 0) {
    error = api->lastError();
    return false;
  }
  results.clear();
  for (tcc_tensor &t : out) {
    HostTensor h(static_cast<DType>(t.dtype),
                 std::vector<int64_t>(t.shape, t.shape + t.rank));
    if (h.numBytes())
      std::memcpy(h.data.data(), t.data, h.numBytes());
    api->release(&t);
    results.push_back(std::move(h));
  }
  return true;
}

std::string ModelLibrary::manifest() const { return api->manifest(); }

std::vector<std::string> ModelLibrary::entryNames() const {
  std::vector<std::string> names;
  for (int i = 0, n = api->numEntries(); i < n; ++i)
    names.push_back(api->entryName(i));
  return names;
}
