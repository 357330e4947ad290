//===- GuardFuzzTest.cpp - wrong shapes never run ---------------*- C++ -*-===//
//
// Feeds a compiled function many random input shapes, valid and invalid,
// with the host-side checks off so that only the compiled entry guards stand
// between a wrong shape and the kernels. Every call must either be rejected
// with the message the guard list words for those shapes, or run and match
// the reference evaluator. Built with AddressSanitizer (see CMakeLists.txt):
// the runtime's descriptor and result handling is checked for every call.
//
//===----------------------------------------------------------------------===//

#include "tcc/ExecutionEngine/CPUExecutable.h"
#include "tcc/InitAll.h"
#include "tcc/Reference/Evaluator.h"
#include "tcc/Runtime/InputSpec.h"
#include "tcc/Runtime/TensorUtils.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace ::tcc::runtime;

namespace {

// Guards of every kind: static dims, dims tied by name, dims equal to a conv
// output expression, a range, a divisibility fact.
const char *kModule = R"mlir(
func.func @f(%obs: tensor<?x16xf32> {tcc.shape = #tcc.shape<[B, 16]>, tcc.name = "obs"},
             %h: tensor<?x?x4xf32> {tcc.shape = #tcc.shape<[B, T, 4]>, tcc.name = "h"},
             %img: tensor<?x3x?x?xf32> {tcc.shape = #tcc.shape<[B, 3, H, W]>, tcc.name = "img"},
             %w: tensor<8x3x3x3xf32>,
             %z: tensor<?x8x?x?xf32>)
    -> (tensor<?x8x?x?xf32>, tensor<?x16xf32>, tensor<?x4xf32>)
    attributes {tcc.constraints = ["1 <= B <= 16", "T % 4 == 0"]} {
  %c = tcc.conv2d %img, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>}
      : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>
  %r0 = tcc.add %c, %z : (tensor<?x8x?x?xf32>, tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32>
  %r1 = tcc.relu %obs : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %r2 = tcc.reduce_sum %h {axes = array<i64: 1>} : (tensor<?x?x4xf32>) -> tensor<?x4xf32>
  return %r0, %r1, %r2 : tensor<?x8x?x?xf32>, tensor<?x16xf32>, tensor<?x4xf32>
}
)mlir";

TEST(GuardFuzz, WrongShapesAreRejectedBeforeAnythingRuns) {
  MLIRContext context;
  DialectRegistry registry;
  mlir::tcc::registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kModule, &context);
  ASSERT_TRUE(module);
  mlir::tcc::CPUPipelineOptions options;
  std::string error;
  auto exe = mlir::tcc::CPUExecutable::compile(*module, options, error);
  ASSERT_TRUE(exe) << error;
  const mlir::tcc::FunctionSignature *sig = exe->lookup("f");
  ASSERT_TRUE(sig);
  auto func = module->lookupSymbol<func::FuncOp>("f");

  std::mt19937_64 rng(12345);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  unsigned rejected = 0, ran = 0;
  for (int iter = 0; iter < 400; ++iter) {
    int64_t b = uniform(1, 16), t = 4 * uniform(0, 3), hh = uniform(3, 12),
            ww = uniform(3, 12);
    std::vector<std::vector<int64_t>> shapes = {
        {b, 16}, {b, t, 4}, {b, 3, hh, ww}, {8, 3, 3, 3},
        {b, 8, (hh - 1) / 2 + 1, (ww - 1) / 2 + 1}};
    // Break 0-2 dims (a third of the calls stay valid).
    int64_t breaks = uniform(0, 2);
    for (int64_t k = 0; k < breaks; ++k) {
      auto &s = shapes[uniform(0, shapes.size() - 1)];
      s[uniform(0, s.size() - 1)] = uniform(0, 40);
    }
    std::vector<HostTensor> inputs;
    for (unsigned i = 0; i < shapes.size(); ++i) {
      HostTensor x(DType::F32, shapes[i]);
      fillRandom(x, iter, i);
      inputs.push_back(std::move(x));
    }
    auto expected = sig->guards.check(shapes);
    std::vector<HostTensor> results;
    std::string callError;
    LogicalResult called =
        exe->call("f", inputs, results, callError, /*hostChecks=*/false);
    if (expected) {
      ++rejected;
      EXPECT_TRUE(failed(called)) << "iteration " << iter
                                  << ": ran although " << expected->second;
      EXPECT_EQ(callError, expected->second) << "iteration " << iter;
      EXPECT_TRUE(results.empty());
      continue;
    }
    ++ran;
    ASSERT_TRUE(succeeded(called)) << "iteration " << iter << ": " << callError;
    auto reference = ::tcc::reference::evaluateFunction(func, inputs, error);
    ASSERT_TRUE(succeeded(reference)) << error;
    for (size_t r = 0; r < results.size(); ++r) {
      std::string report;
      EXPECT_TRUE(allClose(results[r], (*reference)[r], 1e-4, 1e-4, report))
          << "iteration " << iter << " result " << r << ": " << report;
    }
  }
  // Both paths were exercised many times.
  EXPECT_GT(rejected, 100u);
  EXPECT_GT(ran, 50u);
}

} // namespace
