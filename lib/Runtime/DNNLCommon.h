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
#include <unordered_map>
#include <vector>

namespace tcc::dnnl_runtime {

dnnl::engine &cpuEngine();

/// The calling thread's stream on cpuEngine(), made once (a stream per
/// call cost a few microseconds of each small convolution).
dnnl::stream &threadStream();

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
/// `make` throws (std::exception) when oneDNN cannot make one.
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
  /// For a call: what cannot be made is `what`'s message and abort().
  std::shared_ptr<const Plan> getOrFail(const Key &key,
                                        const std::function<Plan()> &make,
                                        const char *what) {
    try {
      return get(key, make);
    } catch (const std::exception &e) {
      fail(what, e.what());
    }
  }
  /// For a compile-time question: the scratchpad bytes, 0 when the plan
  /// cannot be made (the call itself will say why).
  int64_t scratchpadBytes(const Key &key, const std::function<Plan()> &make) {
    try {
      return get(key, make)->scratchpad.get_size();
    } catch (const std::exception &) {
      return 0;
    }
  }

private:
  std::mutex mutex;
  std::map<Key, std::shared_ptr<const Plan>> plans;
};

/// The weight at `address`, laid out as `user`, in the primitive's format
/// `packed`: the user's memory itself when the formats agree; else
/// reordered, once for a module constant (kept, keyed by its address, its
/// view and the format, until tccHostForgetPackedWeights: primitives of
/// other row counts share it) and on every call for anything else. A
/// failed reorder is `what`'s message and abort().
dnnl::memory packedWeight(dnnl::stream &stream,
                          const dnnl::memory::desc &user,
                          const dnnl::memory::desc &packed,
                          const dnnl::reorder &reorder, bool constant,
                          int64_t address, const char *what);

/// The scratchpad memory of a call: the call's own (`address`, `bytes`:
/// reserved at compile time) when large enough, else the thread's.
dnnl::memory scratchpadMemory(const dnnl::memory::desc &desc, int64_t address,
                              int64_t bytes);

/// Runs `primitive` with `args` and waits; a failure is `what`'s message
/// and abort().
void execute(const dnnl::primitive &primitive, dnnl::stream &stream,
             const std::unordered_map<int, dnnl::memory> &args,
             const char *what);

} // namespace tcc::dnnl_runtime

#endif // TCC_LIB_RUNTIME_DNNLCOMMON_H
