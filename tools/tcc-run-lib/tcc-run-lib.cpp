//===- tcc-run-lib.cpp - runs a tcc-compile library, no MLIR ----*- C++ -*-===//
//
//   tcc-run-lib libmodel.so --function=NAME --input=@x.npy|SPEC ...
//       [--expected_output=@y.npy]... [--rtol=R --atol=A] (default: as
//       tcc-run, 1e-4 / 1e-5, 2e-2 for f16 and bf16 results)
//       [--output=@y.npy]... [--benchmark=N] [--graph] [--stream]
//
// What tcc-run --library does, for machines without MLIR (the GPU machine
// tcc's cuda libraries are checked on): inputs as .npy files or tcc-run's
// inline specs, results compared with .npy files (numpy.allclose), saved,
// and timed. A cuda library gets its inputs copied to the device and its
// results back (ModelLibrary); --stream runs calls and replays on a stream
// of the tool's own (tcc_run_on_stream, tcc_graph_launch_on_stream), as
// a caller with its own stream would. Exit code 1 on any error or mismatch.
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/InputSpec.h"
#include "tcc/Runtime/ModelLibrary.h"
#include "tcc/Runtime/Npy.h"
#include "tcc/Runtime/TensorUtils.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace tcc::runtime;

static int fail(const std::string &message) {
  std::fprintf(stderr, "tcc-run-lib: error: %s\n", message.c_str());
  return 1;
}

static bool startsWith(const char *arg, const char *prefix, std::string &rest) {
  size_t n = std::strlen(prefix);
  if (std::strncmp(arg, prefix, n) != 0)
    return false;
  rest = arg + n;
  return true;
}

int main(int argc, char **argv) {
  std::string library, function, value;
  std::vector<std::string> inputSpecs, expected, outputs;
  // Negative: the default for the result's dtype (defaultTolerances, as
  // tcc-run compares).
  double rtol = -1, atol = -1;
  unsigned benchmark = 0;
  bool graph = false, onStream = false;
  uint64_t seed = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (startsWith(a, "--function=", value))
      function = value;
    else if (startsWith(a, "--input=", value))
      inputSpecs.push_back(value);
    else if (startsWith(a, "--expected_output=", value))
      expected.push_back(value);
    else if (startsWith(a, "--output=", value))
      outputs.push_back(value);
    else if (startsWith(a, "--rtol=", value))
      rtol = std::atof(value.c_str());
    else if (startsWith(a, "--atol=", value))
      atol = std::atof(value.c_str());
    else if (startsWith(a, "--benchmark=", value))
      benchmark = std::atoi(value.c_str());
    else if (std::strcmp(a, "--graph") == 0)
      graph = true;
    else if (std::strcmp(a, "--stream") == 0)
      onStream = true;
    else if (startsWith(a, "--seed=", value))
      seed = std::strtoull(value.c_str(), nullptr, 10);
    else if (a[0] != '-' && library.empty())
      library = a;
    else
      return fail(std::string("unknown argument '") + a +
                  "' (usage: tcc-run-lib LIB.so --function=NAME "
                  "--input=... [--expected_output=@y.npy] [--output=@y.npy] "
                  "[--rtol=R] [--atol=A] [--benchmark=N] [--graph] [--stream])");
  }
  if (library.empty())
    return fail("no library given");
  std::string error;
  auto lib = ModelLibrary::open(library, error);
  if (!lib)
    return fail(error);
  if (onStream && !lib->useCallerStream(error))
    return fail(error);
  if (function.empty()) {
    std::vector<std::string> names = lib->entryNames();
    if (names.size() != 1)
      return fail("the library has " + std::to_string(names.size()) +
                  " entries: name one with --function=NAME");
    function = names.front();
  }
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < inputSpecs.size(); ++i) {
    HostTensor t;
    if (!parseInputSpec(inputSpecs[i], i, seed, t, error))
      return fail(error);
    inputs.push_back(std::move(t));
  }
  // --graph: the call captured as a CUDA graph and replayed (3 warm-up
  // replays, then --benchmark timed ones); the results checked are the
  // last replay's.
  std::vector<HostTensor> results;
  if (graph) {
    if (!lib->callGraph(function, inputs, 3 + std::max(benchmark, 1u),
                        results, error))
      return fail(error);
  } else if (!lib->call(function, inputs, results, error)) {
    return fail(error);
  }

  int status = 0;
  for (size_t r = 0; r < results.size(); ++r) {
    if (r < expected.size()) {
      std::string path = expected[r];
      if (!path.empty() && path[0] == '@')
        path = path.substr(1);
      HostTensor want;
      if (!readNpy(path, want, error))
        return fail(error);
      adoptAsBF16IfBits(want, results[r].dtype);
      std::string report;
      Tolerances tol = defaultTolerances(want.dtype, rtol, atol);
      bool ok = allClose(results[r], want, tol.rtol, tol.atol, report);
      std::printf("[%s] result[%zu] %s the expected output (%s)%s%s\n",
                  ok ? "SUCCESS" : "FAILURE", r,
                  ok ? "matches" : "does not match",
                  results[r].typeString().c_str(), ok ? "" : ": ",
                  ok ? "" : report.c_str());
      status |= ok ? 0 : 1;
    } else {
      Checksum c = checksum(results[r]);
      std::printf("result[%zu]: %s sum %.6g abs-sum %.6g\n", r,
                  results[r].typeString().c_str(), c.sum, c.absSum);
    }
    if (r < outputs.size()) {
      std::string path = outputs[r];
      if (!path.empty() && path[0] == '@')
        path = path.substr(1);
      if (!writeNpy(path, results[r], error))
        return fail(error);
    }
  }
  if (benchmark > 0 && graph) {
    std::vector<double> times;
    for (double t : lib->getReplaySeconds())
      times.push_back(t * 1e6);
    times.erase(times.begin(), times.begin() + 3);
    std::sort(times.begin(), times.end());
    std::printf("graph replay (tcc_graph_launch, waits for the end): median "
                "%.1f us, min %.1f us, over %zu replays (capture call %.1f "
                "us)\n",
                times[times.size() / 2], times.front(), times.size(),
                lib->getLastCallSeconds() * 1e6);
  } else if (benchmark > 0) {
    std::vector<double> times;
    for (unsigned i = 0; i < benchmark + 3; ++i) {
      if (!lib->call(function, inputs, results, error))
        return fail(error);
      if (i >= 3)
        times.push_back(lib->getLastCallSeconds() * 1e6);
    }
    std::sort(times.begin(), times.end());
    std::printf("library call (tcc_run, device copies excluded): median %.1f "
                "us, min %.1f us, over %u calls\n",
                times[times.size() / 2], times.front(), benchmark);
  }
  return status;
}
