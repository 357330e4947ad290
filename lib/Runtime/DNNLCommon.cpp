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

dnnl::stream &threadStream() {
  thread_local dnnl::stream stream(cpuEngine());
  return stream;
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

memory packedWeight(dnnl::stream &stream, const memory::desc &user,
                    const memory::desc &packed, const dnnl::reorder &reorder,
                    bool constant, int64_t address, const char *what) {
  if (packed == user)
    return memory(user, cpuEngine(), at(address));
  std::unique_lock<std::mutex> lock(packedMutex, std::defer_lock);
  if (constant) {
    lock.lock();
    for (const Packed &p : packedWeights[address])
      if (p.user == user && p.packed == packed)
        return p.weight;
  }
  memory source(user, cpuEngine(), at(address)), weight(packed, cpuEngine());
  try {
    reorder.execute(stream, source, weight);
    stream.wait();
  } catch (const dnnl::error &e) {
    fail(what, std::string("cannot reorder the weight: ") + e.what());
  }
  if (constant)
    packedWeights[address].push_back({user, packed, weight});
  return weight;
}

memory scratchpadMemory(const memory::desc &desc, int64_t address,
                        int64_t bytes) {
  size_t needed = desc.get_size();
  void *buffer = address && bytes >= int64_t(needed) ? at(address)
                                                     : scratchpad(needed);
  return memory(desc, cpuEngine(), buffer);
}

void execute(const dnnl::primitive &primitive, dnnl::stream &stream,
             const std::unordered_map<int, memory> &args, const char *what) {
  try {
    primitive.execute(stream, args);
    stream.wait();
  } catch (const dnnl::error &e) {
    fail(what, std::string("the call failed: ") + e.what());
  }
}

} // namespace tcc::dnnl_runtime

extern "C" void tccHostForgetPackedWeights() {
  std::lock_guard<std::mutex> lock(tcc::dnnl_runtime::packedMutex);
  tcc::dnnl_runtime::packedWeights.clear();
}
