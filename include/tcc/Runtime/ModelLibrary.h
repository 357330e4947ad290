//===- ModelLibrary.h - loads a library built by tcc-compile ----*- C++ -*-===//
//
// Opens a tcc-compile'd shared library (dlopen) and calls its entries on
// HostTensors through the C ABI of tcc_model.h: what `tcc-run --library`
// uses to check a library against the reference evaluator. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_MODELLIBRARY_H
#define TCC_RUNTIME_MODELLIBRARY_H

#include "tcc/Runtime/HostTensor.h"

#include <memory>
#include <string>
#include <vector>

namespace tcc::runtime {

class ModelLibrary {
public:
  /// nullptr with `error` set when `path` cannot be loaded or lacks the ABI.
  static std::unique_ptr<ModelLibrary> open(const std::string &path,
                                            std::string &error);
  ~ModelLibrary();

  /// Runs entry `name`; results are copied into `results`. False with the
  /// library's message in `error` on failure.
  bool call(const std::string &name, const std::vector<HostTensor> &inputs,
            std::vector<HostTensor> &results, std::string &error);

  /// A cuda library's reduce-overhead mode: captures one call of entry
  /// `name` as a CUDA graph (tcc_graph_create), replays it `replays` times
  /// (each timed: getReplaySeconds) and copies the last replay's results.
  bool callGraph(const std::string &name,
                 const std::vector<HostTensor> &inputs, unsigned replays,
                 std::vector<HostTensor> &results, std::string &error);
  const std::vector<double> &getReplaySeconds() const {
    return replaySeconds;
  }

  /// A cuda library's calls and graph replays from now on go to a stream
  /// of this object's (tcc_run_on_stream, tcc_graph_launch_on_stream and a
  /// wait), as a caller with its own stream would. False with `error` if
  /// the library cannot.
  bool useCallerStream(std::string &error);

  std::string manifest() const;
  /// Whether entries take and give device pointers (a cuda library):
  /// call() then copies inputs to the device and results back.
  bool isDeviceLibrary() const;
  std::vector<std::string> entryNames() const;
  /// Seconds the library's tcc_run took in the last call (the compiled code
  /// and its checks, without copying results into HostTensors).
  double getLastCallSeconds() const { return lastCallSeconds; }

private:
  struct Api;
  ModelLibrary() = default;
  bool run(const std::string &name, const std::vector<HostTensor> &inputs,
           std::vector<HostTensor> &results, unsigned replays,
           std::string &error);
  std::vector<double> replaySeconds;
  void *handle = nullptr;
  void *stream = nullptr; // useCallerStream's CUstream
  std::unique_ptr<Api> api;
  double lastCallSeconds = 0;
};

} // namespace tcc::runtime

#endif // TCC_RUNTIME_MODELLIBRARY_H
