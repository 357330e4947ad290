//===- DynamicShapesTest.cpp - one compile, every size ----------*- C++ -*-===//
//
// Each example is compiled once with its batch (and, for the ViT block, its
// sequence length) dynamic, then called at several sizes. Every result is
// compared with the reference evaluator. Where the reference would take
// minutes (large batches of the conv and ViT blocks) the batch elements are
// checked one at a time: batch element i of the compiled B-sized call must
// equal the reference's answer for element i alone (the models treat batch
// elements independently), which stays an independent oracle.
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

#include <cstring>

using namespace mlir;
using namespace ::tcc::runtime;

namespace {

struct Example {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<mlir::tcc::CPUExecutable> exe;

  explicit Example(const std::string &file) {
    DialectRegistry registry;
    mlir::tcc::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    module = parseSourceFile<ModuleOp>(std::string(TCC_EXAMPLES_DIR) + "/" + file,
                                       &context);
    if (!module)
      return;
    mlir::tcc::CPUPipelineOptions options;
    std::string error;
    exe = mlir::tcc::CPUExecutable::compile(*module, options, error);
    EXPECT_TRUE(exe) << error;
  }

  func::FuncOp func(StringRef name) {
    return module->lookupSymbol<func::FuncOp>(name);
  }
};

/// Random inputs for `shapes` (f32); inputs listed in `positive` are filled
/// with 0.5 (variances).
std::vector<HostTensor> makeInputs(const std::vector<std::vector<int64_t>> &shapes,
                                   uint64_t seed,
                                   std::vector<unsigned> positive = {}) {
  std::vector<HostTensor> inputs;
  for (unsigned i = 0; i < shapes.size(); ++i) {
    HostTensor t(DType::F32, shapes[i]);
    if (llvm::is_contained(positive, i))
      for (int64_t k = 0; k < t.numElements(); ++k)
        t.setDouble(k, 0.5);
    else
      fillRandom(t, seed, i);
    inputs.push_back(std::move(t));
  }
  return inputs;
}

/// Batch element `i` of `t` (dim 0), keeping a leading dim of 1.
HostTensor sample(const HostTensor &t, int64_t i) {
  std::vector<int64_t> shape = t.shape;
  shape[0] = 1;
  HostTensor out(t.dtype, shape);
  std::memcpy(out.data.data(), t.data.data() + i * out.numBytes(),
              out.numBytes());
  return out;
}

void expectClose(const HostTensor &actual, const HostTensor &expected,
                 double rtol, double atol, const std::string &what) {
  std::string report;
  EXPECT_TRUE(allClose(actual, expected, rtol, atol, report))
      << what << ": " << report;
}

/// Calls the compiled function, then checks either the whole result or the
/// listed batch elements against the reference.
void checkAgainstReference(Example &ex, StringRef name,
                           std::vector<HostTensor> inputs,
                           std::vector<int64_t> samples, double rtol,
                           double atol, const std::string &what) {
  std::vector<HostTensor> results;
  std::string error;
  ASSERT_TRUE(succeeded(ex.exe->call(name, inputs, results, error)))
      << what << ": " << error;
  if (samples.empty()) {
    auto expected = ::tcc::reference::evaluateFunction(ex.func(name), inputs, error);
    ASSERT_TRUE(succeeded(expected)) << error;
    for (size_t r = 0; r < results.size(); ++r)
      expectClose(results[r], (*expected)[r], rtol, atol, what);
    return;
  }
  for (int64_t i : samples) {
    std::vector<HostTensor> one = inputs;
    one[0] = sample(inputs[0], i);
    auto expected = ::tcc::reference::evaluateFunction(ex.func(name), one, error);
    ASSERT_TRUE(succeeded(expected)) << error;
    for (size_t r = 0; r < results.size(); ++r)
      expectClose(sample(results[r], i), (*expected)[r], rtol, atol,
                  what + " element " + std::to_string(i));
  }
}

TEST(DynamicShapes, RobotPolicyEveryBatch) {
  Example ex("robot_policy.mlir");
  ASSERT_TRUE(ex.exe);
  for (int64_t b : {1, 3, 17, 64}) {
    auto inputs = makeInputs({{b, 256}, {512, 256}, {512}, {512}, {512},
                              {256, 512}, {256}, {256}, {256}, {12, 256},
                              {12}, {1, 256}, {1}},
                             b);
    checkAgainstReference(ex, "robot_policy", inputs, {}, 1e-4, 1e-4,
                          "B = " + std::to_string(b));
  }
}

TEST(DynamicShapes, ConvBlockEveryBatch) {
  Example ex("conv_block.mlir");
  ASSERT_TRUE(ex.exe);
  for (int64_t b : {1, 3, 17, 64}) {
    auto inputs =
        makeInputs({{b, 64, 56, 56}, {64, 64, 3, 3}, {64}, {64}, {64}, {64},
                    {64, 64, 3, 3}, {64}, {64}, {64}, {64}},
                   b, /*positive=*/{5, 10});
    std::vector<int64_t> samples;
    if (b > 3)
      samples = {0, b / 2, b - 1};
    checkAgainstReference(ex, "conv_block", inputs, samples, 1e-3, 1e-3,
                          "B = " + std::to_string(b));
  }
}

std::vector<std::vector<int64_t>> vitShapes(int64_t b, int64_t s) {
  return {{b, s, 768}, {768}, {768}, {2304, 768}, {2304}, {768, 768}, {768},
          {768}, {768}, {3072, 768}, {3072}, {768, 3072}, {768}};
}

TEST(DynamicShapes, VitBlockEveryBatchAndSequence) {
  Example ex("vit_block.mlir");
  ASSERT_TRUE(ex.exe);
  // Batch sweep at a short sequence; sequence sweep at batch 1 (197 is the
  // 224x224 image, 257 the 256x256 one).
  for (int64_t b : {1, 3, 17, 64}) {
    auto inputs = makeInputs(vitShapes(b, 7), b);
    std::vector<int64_t> samples;
    if (b > 3)
      samples = {0, b - 1};
    checkAgainstReference(ex, "vit_block", inputs, samples, 1e-3, 0.05,
                          "B = " + std::to_string(b) + ", S = 7");
  }
  for (int64_t s : {1, 50, 197, 257}) {
    auto inputs = makeInputs(vitShapes(1, s), s);
    checkAgainstReference(ex, "vit_block", inputs, {}, 1e-3, 0.05,
                          "B = 1, S = " + std::to_string(s));
  }
}

} // namespace
