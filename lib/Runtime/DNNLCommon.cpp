//===- DNNLCommon.cpp - what the oneDNN host calls share ------------------===//

#include "DNNLCommon.h"

#include "tcc/Runtime/HostLibrary.h"

#include <cstdio>
#include <cstdlib>

using dnnl::memory;

namespace tcc::dnnl_runtime {

dnnl::engine &cpuEngine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

void fail(const char *what, const std::string &why) {
  std::fprintf(stderr, "tcc %s (oneDNN): %s\n", what, why.c_str());
  std::fflush(stderr);
  std::abort();
}

void *scratchpad(size_t bytes) {
  thread_local std::vector<char> buffer;
  if (buffer.size() < bytes)
    buffer.resize(bytes);
  return buffer.data();
}

namespace {
std::mutex packedMutex;
/// (address, primitive key) -> the constant weight in that format.
std::map<std::pair<int64_t, std::vector<int64_t>>, memory>
    packedWeights; // guarded by packedMutex
} // namespace

memory packedWeight(dnnl::stream &stream, const memory &user,
                    const memory::desc &packed, const dnnl::reorder &reorder,
                    bool constant, int64_t address, std::vector<int64_t> key) {
  if (packed == user.get_desc())
    return user;
  std::unique_lock<std::mutex> lock(packedMutex, std::defer_lock);
  auto id = std::make_pair(address, std::move(key));
  if (constant) {
    lock.lock();
    auto it = packedWeights.find(id);
    if (it != packedWeights.end())
      return it->second;
  }
  memory source = user, weight(packed, cpuEngine());
  reorder.execute(stream, source, weight);
  stream.wait();
  if (constant)
    packedWeights.emplace(std::move(id), weight);
  return weight;
}

} // namespace tcc::dnnl_runtime

extern "C" void tccHostForgetPackedWeights() {
  std::lock_guard<std::mutex> lock(tcc::dnnl_runtime::packedMutex);
  tcc::dnnl_runtime::packedWeights.clear();
}
