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
/// A constant weight in one format: which view of the address it packs
/// (the user's descriptor) and the packed copy.
struct Packed {
  memory::desc user, packed;
  memory weight;
};
/// Address -> its packed copies (a few per address: one per format and
/// view; row counts that change between calls share them).
std::map<int64_t, std::vector<Packed>> packedWeights; // guarded by packedMutex
} // namespace

memory packedWeight(dnnl::stream &stream, const memory &user,
                    const memory::desc &packed, const dnnl::reorder &reorder,
                    bool constant, int64_t address) {
  if (packed == user.get_desc())
    return user;
  std::unique_lock<std::mutex> lock(packedMutex, std::defer_lock);
  if (constant) {
    lock.lock();
    for (const Packed &p : packedWeights[address])
      if (p.user == user.get_desc() && p.packed == packed)
        return p.weight;
  }
  memory source = user, weight(packed, cpuEngine());
  reorder.execute(stream, source, weight);
  stream.wait();
  if (constant)
    packedWeights[address].push_back({user.get_desc(), packed, weight});
  return weight;
}

} // namespace tcc::dnnl_runtime

extern "C" void tccHostForgetPackedWeights() {
  std::lock_guard<std::mutex> lock(tcc::dnnl_runtime::packedMutex);
  tcc::dnnl_runtime::packedWeights.clear();
}
