//===- DNNLCommon.h - what the oneDNN host calls share ----------*- C++ -*-===//
//
// The engine, the per-thread scratchpad, the primitive caches and the
// prepacked constant weights of lib/Runtime/DNNLConv.cpp and DNNLGemm.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_RUNTIME_DNNLCOMMON_H
#define TCC_LIB_RUNTIME_DNNLCOMMON_H

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tcc::dnnl_runtime {

dnnl::engine &cpuEngine();

/// A call oneDNN cannot make: a message and abort(), as a failed runtime
/// check (cf.assert) in compiled code is.
[[noreturn]] void fail(const char *what, const std::string &why);

/// The calling thread's scratchpad, at least `bytes` long, reused.
void *scratchpad(size_t bytes);

inline void *at(int64_t address) {
  return reinterpret_cast<void *>(static_cast<intptr_t>(address));
}

/// Primitives made once per key (every descriptor field but addresses) and
/// kept: later calls with the same sizes and strides only execute them.
template <typename Key, typename Plan> class PlanCache {
public:
  std::shared_ptr<const Plan> get(const Key &key,
                                  const std::function<Plan()> &make) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = plans.find(key);
    if (it == plans.end())
      it = plans.emplace(key, std::make_shared<const Plan>(make())).first;
    return it->second;
  }

private:
  std::mutex mutex;
  std::map<Key, std::shared_ptr<const Plan>> plans;
};

/// The weight in the primitive's format `packed`: `user` itself when the
/// formats agree; else reordered, once for a module constant (kept, keyed
/// by its address, its view and the format, until
/// tccHostForgetPackedWeights: primitives of other row counts share it)
/// and on every call for anything else.
dnnl::memory packedWeight(dnnl::stream &stream, const dnnl::memory &user,
                          const dnnl::memory::desc &packed,
                          const dnnl::reorder &reorder, bool constant,
                          int64_t address);

} // namespace tcc::dnnl_runtime

#endif // TCC_LIB_RUNTIME_DNNLCOMMON_H
