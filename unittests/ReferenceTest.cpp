//===- ReferenceTest.cpp - Tests of the reference evaluator ----*- C++ -*-===//
//
// Every expected number here was computed by hand (or with a calculator for
// the transcendental ones), never by the evaluator itself: the evaluator is
// the oracle of the integration tests, so it must be checked independently.
// Programs are written in MLIR's generic form with unregistered tcc/fusion
// ops, so these tests do not depend on the dialect definitions.
//
//===----------------------------------------------------------------------===//

#include "tcc/Reference/Evaluator.h"
#include "tcc/Runtime/HostTensor.h"
#include "tcc/Runtime/MLIRTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using tcc::runtime::DType;
using tcc::runtime::HostTensor;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

HostTensor makeTensor(DType dtype, std::vector<int64_t> shape,
                      std::vector<double> values) {
  HostTensor t(dtype, std::move(shape));
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.numElements());
  for (size_t i = 0; i < values.size() && i < size_t(t.numElements()); ++i)
    t.setDouble(i, values[i]);
  return t;
}

HostTensor f32(std::vector<int64_t> shape, std::vector<double> values) {
  return makeTensor(DType::F32, std::move(shape), std::move(values));
}

/// Compares dtype, shape and values (relative/absolute tolerance `tol`; NaN
/// matches NaN).
void expectTensor(const HostTensor &t, DType dtype, std::vector<int64_t> shape,
                  std::vector<double> expected, double tol = 1e-6) {
  EXPECT_EQ(tcc::runtime::dtypeName(t.dtype), tcc::runtime::dtypeName(dtype));
  ASSERT_EQ(t.shape, shape);
  ASSERT_EQ(t.numElements(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    double got = t.getDouble(i), want = expected[i];
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << "element " << i << ": got " << got;
      continue;
    }
    if (std::isinf(want)) {
      EXPECT_EQ(got, want) << "element " << i;
      continue;
    }
    EXPECT_NEAR(got, want, tol * std::max(1.0, std::fabs(want)))
        << "element " << i;
  }
}

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "'" << (haystack) << "' does not contain '" << (needle) << "'"

/// A module with one function @f whose body applies `op` to all arguments:
///   "func.func"() <{function_type = (T0, T1) -> R, sym_name = "f"}> ({
///   ^bb0(%a0: T0, %a1: T1):
///     %0 = "op"(%a0, %a1) {attrs} : (T0, T1) -> R
///     "func.return"(%0) : (R) -> ()
///   }) : () -> ()
std::string singleOp(const std::string &op,
                     const std::vector<std::string> &argTypes,
                     const std::string &resultType,
                     const std::string &attrs = "") {
  std::string args, operands, types;
  for (size_t i = 0; i < argTypes.size(); ++i) {
    std::string sep = i ? ", " : "";
    args += sep + "%a" + std::to_string(i) + ": " + argTypes[i];
    operands += sep + "%a" + std::to_string(i);
    types += sep + argTypes[i];
  }
  std::string attrDict = attrs.empty() ? "" : " {" + attrs + "}";
  return "\"func.func\"() <{function_type = (" + types + ") -> " + resultType +
         ", sym_name = \"f\"}> ({\n^bb0(" + args + "):\n  %0 = \"" + op +
         "\"(" + operands + ")" + attrDict + " : (" + types + ") -> " +
         resultType + "\n  \"func.return\"(%0) : (" + resultType +
         ") -> ()\n}) : () -> ()\n";
}

class ReferenceTest : public ::testing::Test {
protected:
  ReferenceTest() {
    context.allowUnregisteredDialects();
    context.loadDialect<func::FuncDialect, arith::ArithDialect,
                        tensor::TensorDialect>();
  }

  /// Parses `source` and evaluates its function @f.
  FailureOr<std::vector<HostTensor>> eval(const std::string &source,
                                          std::vector<HostTensor> inputs,
                                          std::string &error) {
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module) {
      error = "parse error";
      ADD_FAILURE() << "cannot parse:\n" << source;
      return failure();
    }
    auto func = module->lookupSymbol<func::FuncOp>("f");
    if (!func) {
      error = "no @f";
      ADD_FAILURE() << "no function @f";
      return failure();
    }
    return tcc::reference::evaluateFunction(func, inputs, error);
  }

  /// Evaluates and expects success; returns the results.
  std::vector<HostTensor> run(const std::string &source,
                              std::vector<HostTensor> inputs) {
    std::string error;
    FailureOr<std::vector<HostTensor>> results =
        eval(source, std::move(inputs), error);
    EXPECT_TRUE(succeeded(results)) << error;
    if (failed(results))
      return {};
    return *results;
  }

  /// Evaluates a single-result program; returns an empty tensor on failure.
  HostTensor run1(const std::string &source, std::vector<HostTensor> inputs) {
    std::vector<HostTensor> results = run(source, std::move(inputs));
    EXPECT_EQ(results.size(), 1u);
    return results.empty() ? HostTensor() : results[0];
  }

  /// Evaluates and expects failure; returns the error message.
  std::string runError(const std::string &source,
                       std::vector<HostTensor> inputs) {
    std::string error;
    FailureOr<std::vector<HostTensor>> results =
        eval(source, std::move(inputs), error);
    EXPECT_TRUE(failed(results)) << "evaluation unexpectedly succeeded";
    EXPECT_FALSE(error.empty());
    return error;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

//===----------------------------------------------------------------------===//
// MLIR type mapping
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, MLIRTypesRoundTrip) {
  for (int code = 0; code < tcc::runtime::kNumDTypes; ++code) {
    DType d = static_cast<DType>(code);
    Type t = tcc::runtime::mlirTypeFromDType(&context, d);
    ASSERT_TRUE(t);
    EXPECT_EQ(tcc::runtime::dtypeFromMLIRType(t), d);
  }
  Builder b(&context);
  EXPECT_TRUE(tcc::runtime::mlirTypeFromDType(&context, DType::I32)
                  .isSignlessInteger(32));
  EXPECT_FALSE(tcc::runtime::dtypeFromMLIRType(b.getIndexType()));
  // Signless is signed in tcc; unsigned types keep their signedness, si*
  // and odd widths are not tcc types.
  EXPECT_EQ(tcc::runtime::dtypeFromMLIRType(b.getIntegerType(16)), DType::I16);
  EXPECT_EQ(tcc::runtime::dtypeFromMLIRType(
                IntegerType::get(&context, 32, IntegerType::Unsigned)),
            DType::U32);
  EXPECT_FALSE(tcc::runtime::dtypeFromMLIRType(
      IntegerType::get(&context, 32, IntegerType::Signed)));
  EXPECT_FALSE(tcc::runtime::dtypeFromMLIRType(b.getIntegerType(4)));
  EXPECT_FALSE(tcc::runtime::dtypeFromMLIRType(
      IntegerType::get(&context, 1, IntegerType::Unsigned)));
  EXPECT_FALSE(tcc::runtime::dtypeFromMLIRType(
      RankedTensorType::get({2}, b.getF32Type())));
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, AddBroadcastsTrailingDim) {
  // The example from the evaluator's brief.
  std::string src = "\"func.func\"() <{function_type = (tensor<2x3xf32>, "
                    "tensor<3xf32>) -> tensor<2x3xf32>, sym_name = \"f\"}> ({ "
                    "^bb0(%a: tensor<2x3xf32>, %b: tensor<3xf32>): %0 = "
                    "\"tcc.add\"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> "
                    "tensor<2x3xf32> \"func.return\"(%0) : (tensor<2x3xf32>) "
                    "-> () }) : () -> ()";
  HostTensor r =
      run1(src, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3}, {10, 20, 30})});
  expectTensor(r, DType::F32, {2, 3}, {11, 22, 33, 14, 25, 36});
}

TEST_F(ReferenceTest, SubBroadcastsBothOperands) {
  // [2,1] - [1,3] -> [2,3].
  HostTensor r =
      run1(singleOp("tcc.sub", {"tensor<2x1xf32>", "tensor<1x3xf32>"},
                    "tensor<2x3xf32>"),
           {f32({2, 1}, {1, 2}), f32({1, 3}, {10, 20, 30})});
  expectTensor(r, DType::F32, {2, 3}, {-9, -19, -29, -8, -18, -28});
}

TEST_F(ReferenceTest, MulAndDivFloat) {
  HostTensor m = run1(
      singleOp("tcc.mul", {"tensor<3xf32>", "tensor<f32>"}, "tensor<3xf32>"),
      {f32({3}, {1, -2, 3.5}), f32({}, {2})});
  expectTensor(m, DType::F32, {3}, {2, -4, 7});
  HostTensor d = run1(
      singleOp("tcc.div", {"tensor<4xf32>", "tensor<4xf32>"}, "tensor<4xf32>"),
      {f32({4}, {1, -3, 7, 1}), f32({4}, {2, 2, 2, 0})});
  expectTensor(d, DType::F32, {4},
               {0.5, -1.5, 3.5, std::numeric_limits<double>::infinity()});
}

TEST_F(ReferenceTest, IntDivTruncatesTowardZero) {
  HostTensor r = run1(
      singleOp("tcc.div", {"tensor<4xi32>", "tensor<4xi32>"}, "tensor<4xi32>"),
      {makeTensor(DType::I32, {4}, {7, -7, 7, -7}),
       makeTensor(DType::I32, {4}, {2, 2, -2, -2})});
  expectTensor(r, DType::I32, {4}, {3, -3, -3, 3});
}

TEST_F(ReferenceTest, IntDivByZeroIsAnError) {
  std::string err = runError(
      singleOp("tcc.div", {"tensor<2xi32>", "tensor<2xi32>"}, "tensor<2xi32>"),
      {makeTensor(DType::I32, {2}, {1, 2}),
       makeTensor(DType::I32, {2}, {1, 0})});
  EXPECT_CONTAINS(err, "'tcc.div'");
  EXPECT_CONTAINS(err, "division by zero");
}

TEST_F(ReferenceTest, UnsignedTypesDivideCompareAndCastUnsigned) {
  auto u8 = [](std::vector<double> v) {
    return makeTensor(DType::U8, {int64_t(v.size())}, v);
  };
  auto bin = [&](const char *op, const char *result = "tensor<3xui8>") {
    return singleOp(op, {"tensor<3xui8>", "tensor<3xui8>"}, result);
  };
  // 200 + 100 wraps to 44; 250 / 7 = 35; max(200, 100) = 200.
  expectTensor(run1(bin("tcc.add"), {u8({200, 1, 255}), u8({100, 2, 1})}),
               DType::U8, {3}, {44, 3, 0});
  expectTensor(run1(bin("tcc.div"), {u8({250, 255, 7}), u8({7, 16, 8})}),
               DType::U8, {3}, {35, 15, 0});
  expectTensor(run1(bin("tcc.rem"), {u8({250, 255, 7}), u8({7, 16, 8})}),
               DType::U8, {3}, {5, 15, 7});
  expectTensor(run1(bin("tcc.maximum"), {u8({200, 1, 128}), u8({100, 2, 127})}),
               DType::U8, {3}, {200, 2, 128});
  expectTensor(run1(singleOp("tcc.cmp", {"tensor<3xui8>", "tensor<3xui8>"},
                             "tensor<3xi1>", "predicate = \"gt\""),
                    {u8({200, 1, 128}), u8({100, 2, 127})}),
               DType::I1, {3}, {1, 0, 1});
  // relu and abs are the identity.
  expectTensor(run1(singleOp("tcc.relu", {"tensor<3xui8>"}, "tensor<3xui8>"),
                    {u8({200, 0, 128})}),
               DType::U8, {3}, {200, 0, 128});
  // Casts: ui8 200 -> f32 200 and -> i8 -56 (wraps); f32 250.7 -> ui8 250.
  expectTensor(run1(singleOp("tcc.cast", {"tensor<3xui8>"}, "tensor<3xf32>"),
                    {u8({200, 0, 255})}),
               DType::F32, {3}, {200, 0, 255});
  expectTensor(run1(singleOp("tcc.cast", {"tensor<3xui8>"}, "tensor<3xi8>"),
                    {u8({200, 0, 255})}),
               DType::I8, {3}, {-56, 0, -1});
  expectTensor(run1(singleOp("tcc.cast", {"tensor<2xf32>"}, "tensor<2xui8>"),
                    {f32({2}, {250.7, 3.2})}),
               DType::U8, {2}, {250, 3});
  // ui64 beyond 2^63 compares and divides unsigned.
  HostTensor a(DType::U64, {1}), b(DType::U64, {1});
  a.setInt64(0, -2); // 2^64 - 2
  b.setInt64(0, 3);
  HostTensor q = run1(singleOp("tcc.div", {"tensor<1xui64>", "tensor<1xui64>"},
                               "tensor<1xui64>"),
                      {a, b});
  EXPECT_EQ(uint64_t(q.getInt64(0)), 6148914691236517204ull);
  HostTensor m = run1(singleOp("tcc.maximum",
                               {"tensor<1xui64>", "tensor<1xui64>"},
                               "tensor<1xui64>"),
                      {a, b});
  EXPECT_EQ(m.getInt64(0), -2);
}

TEST_F(ReferenceTest, BitwiseAndShifts) {
  auto t = [](DType d, std::vector<double> v) {
    return makeTensor(d, {int64_t(v.size())}, v);
  };
  auto bin = [&](const char *op, const char *type) {
    std::string ty = std::string("tensor<4x") + type + ">";
    return singleOp(op, {ty, ty}, ty);
  };
  expectTensor(run1(bin("tcc.bitwise_and", "ui8"),
                    {t(DType::U8, {0xF0, 0xFF, 3, 0}), t(DType::U8, {0x3C, 1, 6, 9})}),
               DType::U8, {4}, {0x30, 1, 2, 0});
  expectTensor(run1(bin("tcc.bitwise_xor", "i8"),
                    {t(DType::I8, {-1, 5, 3, 0}), t(DType::I8, {1, 1, 6, 9})}),
               DType::I8, {4}, {-2, 4, 5, 9});
  // Amounts of at least the width give 0 (and the sign for signed >>).
  expectTensor(run1(bin("tcc.shift_left", "ui8"),
                    {t(DType::U8, {1, 3, 255, 1}), t(DType::U8, {7, 2, 1, 8})}),
               DType::U8, {4}, {128, 12, 254, 0});
  expectTensor(run1(bin("tcc.shift_right", "ui8"),
                    {t(DType::U8, {128, 255, 16, 200}), t(DType::U8, {7, 4, 1, 9})}),
               DType::U8, {4}, {1, 15, 8, 0});
  expectTensor(run1(bin("tcc.shift_right", "i16"),
                    {t(DType::I16, {-16, 16, -1, -300}),
                     t(DType::I16, {2, 2, 15, 16})}),
               DType::I16, {4}, {-4, 4, -1, -1});
  expectTensor(run1(singleOp("tcc.bitwise_not", {"tensor<2xi1>"}, "tensor<2xi1>"),
                    {t(DType::I1, {1, 0})}),
               DType::I1, {2}, {0, 1});
  expectTensor(run1(singleOp("tcc.bitwise_not", {"tensor<2xui8>"}, "tensor<2xui8>"),
                    {t(DType::U8, {0, 0x0F})}),
               DType::U8, {2}, {255, 0xF0});
}

TEST_F(ReferenceTest, IntArithmeticIsExactAndWraps) {
  // i8: 127 + 1 wraps to -128; 100 * 3 = 300 wraps to 44.
  HostTensor add = run1(
      singleOp("tcc.add", {"tensor<2xi8>", "tensor<2xi8>"}, "tensor<2xi8>"),
      {makeTensor(DType::I8, {2}, {127, -5}),
       makeTensor(DType::I8, {2}, {1, 3})});
  expectTensor(add, DType::I8, {2}, {-128, -2});
  HostTensor mul = run1(
      singleOp("tcc.mul", {"tensor<1xi8>", "tensor<1xi8>"}, "tensor<1xi8>"),
      {makeTensor(DType::I8, {1}, {100}), makeTensor(DType::I8, {1}, {3})});
  expectTensor(mul, DType::I8, {1}, {44});

  // i64 beyond 2^53 must not go through double: (2^53 + 1) + 2 = 2^53 + 3.
  HostTensor big(DType::I64, {1});
  int64_t v = (int64_t(1) << 53) + 1;
  std::memcpy(big.data.data(), &v, sizeof(v));
  HostTensor r = run1(
      singleOp("tcc.add", {"tensor<1xi64>", "tensor<1xi64>"}, "tensor<1xi64>"),
      {big, makeTensor(DType::I64, {1}, {2})});
  int64_t got;
  std::memcpy(&got, r.data.data(), sizeof(got));
  EXPECT_EQ(got, (int64_t(1) << 53) + 3);
}

TEST_F(ReferenceTest, MaximumMinimumPropagateNaN) {
  std::vector<HostTensor> in = {f32({3}, {1, kNaN, -2}), f32({3}, {0, 5, -3})};
  HostTensor mx =
      run1(singleOp("tcc.maximum", {"tensor<3xf32>", "tensor<3xf32>"},
                    "tensor<3xf32>"),
           in);
  expectTensor(mx, DType::F32, {3}, {1, kNaN, -2});
  HostTensor mn =
      run1(singleOp("tcc.minimum", {"tensor<3xf32>", "tensor<3xf32>"},
                    "tensor<3xf32>"),
           in);
  expectTensor(mn, DType::F32, {3}, {0, kNaN, -3});
  HostTensor imx =
      run1(singleOp("tcc.maximum", {"tensor<2xi32>", "tensor<2xi32>"},
                    "tensor<2xi32>"),
           {makeTensor(DType::I32, {2}, {4, -9}),
            makeTensor(DType::I32, {2}, {-1, 7})});
  expectTensor(imx, DType::I32, {2}, {4, 7});
}

TEST_F(ReferenceTest, Pow) {
  HostTensor r = run1(
      singleOp("tcc.pow", {"tensor<3xf32>", "tensor<3xf32>"}, "tensor<3xf32>"),
      {f32({3}, {2, 3, 4}), f32({3}, {3, 2, 0.5})});
  expectTensor(r, DType::F32, {3}, {8, 9, 2});
}

TEST_F(ReferenceTest, BroadcastMismatchIsAnError) {
  std::string err =
      runError(singleOp("tcc.add", {"tensor<2x3xf32>", "tensor<2xf32>"},
                        "tensor<2x3xf32>"),
               {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2})});
  EXPECT_CONTAINS(err, "'tcc.add' at loc(");
  EXPECT_CONTAINS(err, "cannot broadcast 2x3xf32 and 2xf32");
}

TEST_F(ReferenceTest, ResultTypeDisagreeingWithSemanticsIsAnError) {
  // The result type claims 2x4 but broadcasting gives 2x3.
  std::string err =
      runError(singleOp("tcc.add", {"tensor<2x3xf32>", "tensor<3xf32>"},
                        "tensor<2x4xf32>"),
               {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3}, {1, 2, 3})});
  EXPECT_CONTAINS(err, "'tcc.add'");
  EXPECT_CONTAINS(err, "expected shape 2x4xf32, got 2x3xf32");
}

TEST_F(ReferenceTest, DynamicDims) {
  HostTensor r = run1(singleOp("tcc.add", {"tensor<?x3xf32>", "tensor<3xf32>"},
                               "tensor<?x3xf32>"),
                      {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3}, {1, 1, 1})});
  expectTensor(r, DType::F32, {2, 3}, {2, 3, 4, 5, 6, 7});
  // The same program on another size of the dynamic dim.
  HostTensor r1 = run1(singleOp("tcc.add", {"tensor<?x3xf32>", "tensor<3xf32>"},
                                "tensor<?x3xf32>"),
                       {f32({1, 3}, {1, 2, 3}), f32({3}, {1, 1, 1})});
  expectTensor(r1, DType::F32, {1, 3}, {2, 3, 4});
}

TEST_F(ReferenceTest, F16AndBF16ResultsAreRounded) {
  // f16 has a spacing of 0.5 at 1000: 1000 + 0.300048828125 (f16 of 0.3)
  // rounds to 1000.5; 1 + 2^-11 is a tie that rounds to even (1.0).
  HostTensor h = run1(
      singleOp("tcc.add", {"tensor<2xf16>", "tensor<2xf16>"}, "tensor<2xf16>"),
      {makeTensor(DType::F16, {2}, {1000, 1}),
       makeTensor(DType::F16, {2}, {0.3, 0.00048828125})});
  expectTensor(h, DType::F16, {2}, {1000.5, 1.0}, 0);
  // bf16 spacing at 1 is 2^-7: 1 + 3/256 is a tie between 1.0078125 (odd)
  // and 1.015625 (even).
  HostTensor b = run1(singleOp("tcc.add", {"tensor<2xbf16>", "tensor<2xbf16>"},
                               "tensor<2xbf16>"),
                      {makeTensor(DType::BF16, {2}, {1, 1}),
                       makeTensor(DType::BF16, {2}, {3.0 / 256, 1.0 / 256})});
  expectTensor(b, DType::BF16, {2}, {1.015625, 1.0}, 0);
}

TEST_F(ReferenceTest, Cmp) {
  const char *preds[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  std::vector<std::vector<double>> expected = {{0, 1, 0, 0}, {1, 0, 1, 1},
                                               {1, 0, 0, 0}, {1, 1, 0, 0},
                                               {0, 0, 1, 0}, {0, 1, 1, 0}};
  for (int p = 0; p < 6; ++p) {
    HostTensor r = run1(
        singleOp("tcc.cmp", {"tensor<4xf32>", "tensor<1xf32>"}, "tensor<4xi1>",
                 std::string("predicate = \"") + preds[p] + "\""),
        {f32({4}, {1, 2, 3, kNaN}), f32({1}, {2})});
    SCOPED_TRACE(preds[p]);
    expectTensor(r, DType::I1, {4}, expected[p]);
  }
  std::string err =
      runError(singleOp("tcc.cmp", {"tensor<1xf32>", "tensor<1xf32>"},
                        "tensor<1xi1>", "predicate = \"foo\""),
               {f32({1}, {1}), f32({1}, {1})});
  EXPECT_CONTAINS(err, "unknown predicate 'foo'");
}

TEST_F(ReferenceTest, SelectBroadcastsAllThree) {
  HostTensor r =
      run1(singleOp("tcc.select",
                    {"tensor<2x1xi1>", "tensor<2x2xf32>", "tensor<1xf32>"},
                    "tensor<2x2xf32>"),
           {makeTensor(DType::I1, {2, 1}, {1, 0}), f32({2, 2}, {1, 2, 3, 4}),
            f32({1}, {-1})});
  expectTensor(r, DType::F32, {2, 2}, {1, 2, -1, -1});
}

//===----------------------------------------------------------------------===//
// Unary elementwise ops
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, UnaryOps) {
  struct Case {
    const char *op;
    std::vector<double> in, out;
    std::string attrs;
  };
  const double e = 2.718281828459045;
  std::vector<Case> cases = {
      {"tcc.neg", {1, -2}, {-1, 2}, ""},
      {"tcc.exp", {0, 1}, {1, e}, ""},
      {"tcc.log", {1, e}, {0, 1}, ""},
      {"tcc.sqrt", {4, 2}, {2, 1.4142135623730951}, ""},
      {"tcc.rsqrt", {4, 0.25}, {0.5, 2}, ""},
      {"tcc.abs", {-3, 2}, {3, 2}, ""},
      {"tcc.tanh", {0, 1}, {0, 0.7615941559557649}, ""},
      {"tcc.sigmoid", {0, 2}, {0.5, 0.8807970779778823}, ""},
      {"tcc.relu", {-1, 2}, {0, 2}, ""},
      {"tcc.silu", {1, -1}, {0.7310585786300049, -0.2689414213699951}, ""},
      {"tcc.erf", {0, 1}, {0, 0.8427007929497149}, ""},
      {"tcc.gelu", {1, -1}, {0.8413447460685429, -0.15865525393145707}, ""},
      {"tcc.gelu",
       {1, -1},
       {0.8413447460685429, -0.15865525393145707},
       "approximate = \"none\""},
      {"tcc.gelu", {1, 0}, {0.8411919906082768, 0}, "approximate = \"tanh\""},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.op) + " " + c.attrs);
    HostTensor r =
        run1(singleOp(c.op, {"tensor<2xf64>"}, "tensor<2xf64>", c.attrs),
             {makeTensor(DType::F64, {2}, c.in)});
    expectTensor(r, DType::F64, {2}, c.out, 1e-12);
  }
  // Integer neg/abs/relu stay integers.
  HostTensor r = run1(singleOp("tcc.abs", {"tensor<2xi32>"}, "tensor<2xi32>"),
                      {makeTensor(DType::I32, {2}, {-7, 3})});
  expectTensor(r, DType::I32, {2}, {7, 3});
  std::string err =
      runError(singleOp("tcc.gelu", {"tensor<1xf32>"}, "tensor<1xf32>",
                        "approximate = \"fast\""),
               {f32({1}, {1})});
  EXPECT_CONTAINS(err, "unknown approximate mode 'fast'");
}

TEST_F(ReferenceTest, Cast) {
  HostTensor toInt =
      run1(singleOp("tcc.cast", {"tensor<4xf32>"}, "tensor<4xi32>"),
           {f32({4}, {1.7, -1.7, 0, 2.5})});
  expectTensor(toInt, DType::I32, {4}, {1, -1, 0, 2});
  HostTensor toBool =
      run1(singleOp("tcc.cast", {"tensor<4xf32>"}, "tensor<4xi1>"),
           {f32({4}, {1.7, -0.1, 0, kNaN})});
  expectTensor(toBool, DType::I1, {4}, {1, 1, 0, 1});
  HostTensor fromBool =
      run1(singleOp("tcc.cast", {"tensor<2xi1>"}, "tensor<2xf32>"),
           {makeTensor(DType::I1, {2}, {1, 0})});
  expectTensor(fromBool, DType::F32, {2}, {1, 0});
  // f16 spacing at 1 is 2^-10 = 0.0009765625.
  HostTensor toHalf =
      run1(singleOp("tcc.cast", {"tensor<3xf64>"}, "tensor<3xf16>"),
           {makeTensor(DType::F64, {3}, {1.0007, 1.00048828125, 65519})});
  expectTensor(toHalf, DType::F16, {3}, {1.0009765625, 1.0, 65504}, 0);
  // int -> narrower int wraps: 300 = 256 + 44.
  HostTensor narrow =
      run1(singleOp("tcc.cast", {"tensor<2xi32>"}, "tensor<2xi8>"),
           {makeTensor(DType::I32, {2}, {300, -1})});
  expectTensor(narrow, DType::I8, {2}, {44, -1});
  std::string err =
      runError(singleOp("tcc.cast", {"tensor<1xf32>"}, "tensor<1xi32>"),
               {f32({1}, {kNaN})});
  EXPECT_CONTAINS(err, "cannot cast");
}

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, ReduceSum) {
  HostTensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  expectTensor(run1(singleOp("tcc.reduce_sum", {"tensor<2x3xf32>"},
                             "tensor<2xf32>", "axes = array<i64: 1>"),
                    {x}),
               DType::F32, {2}, {6, 15});
  expectTensor(
      run1(singleOp("tcc.reduce_sum", {"tensor<2x3xf32>"}, "tensor<2x1xf32>",
                    "axes = array<i64: 1>, keep_dims = true"),
           {x}),
      DType::F32, {2, 1}, {6, 15});
  expectTensor(run1(singleOp("tcc.reduce_sum", {"tensor<2x3xf32>"},
                             "tensor<3xf32>", "axes = array<i64: -2>"),
                    {x}),
               DType::F32, {3}, {5, 7, 9});
  // Empty axes reduce everything.
  expectTensor(run1(singleOp("tcc.reduce_sum", {"tensor<2x3xf32>"},
                             "tensor<f32>", "axes = array<i64>"),
                    {x}),
               DType::F32, {}, {21});
  // Dynamic input dim, integer accumulation.
  expectTensor(run1(singleOp("tcc.reduce_sum", {"tensor<?x3xi32>"},
                             "tensor<?xi32>", "axes = array<i64: 1>"),
                    {makeTensor(DType::I32, {2, 3}, {1, 2, 3, 4, 5, 6})}),
               DType::I32, {2}, {6, 15});
  std::string err = runError(singleOp("tcc.reduce_sum", {"tensor<2x3xf32>"},
                                      "tensor<2xf32>", "axes = array<i64: 2>"),
                             {x});
  EXPECT_CONTAINS(err, "axis 2 is out of range for rank 2");
}

TEST_F(ReferenceTest, ReduceMeanMaxMin) {
  HostTensor x = f32({2, 3}, {1, 5, 3, 4, 2, 6});
  expectTensor(
      run1(singleOp("tcc.reduce_mean", {"tensor<2x3xf32>"}, "tensor<1x1xf32>",
                    "axes = array<i64: 0, 1>, keep_dims = true"),
           {x}),
      DType::F32, {1, 1}, {3.5});
  expectTensor(run1(singleOp("tcc.reduce_mean", {"tensor<2x3xf32>"},
                             "tensor<3xf32>", "axes = array<i64: 0>"),
                    {x}),
               DType::F32, {3}, {2.5, 3.5, 4.5});
  expectTensor(run1(singleOp("tcc.reduce_max", {"tensor<2x3xf32>"},
                             "tensor<2xf32>", "axes = array<i64: -1>"),
                    {x}),
               DType::F32, {2}, {5, 6});
  expectTensor(run1(singleOp("tcc.reduce_min", {"tensor<2x3xf32>"},
                             "tensor<3xf32>", "axes = array<i64: 0>"),
                    {x}),
               DType::F32, {3}, {1, 2, 3});
  expectTensor(run1(singleOp("tcc.reduce_max", {"tensor<3xf32>"}, "tensor<f32>",
                             "axes = array<i64: 0>"),
                    {f32({3}, {1, kNaN, 2})}),
               DType::F32, {}, {kNaN});
  expectTensor(run1(singleOp("tcc.reduce_min", {"tensor<3xi32>"}, "tensor<i32>",
                             "axes = array<i64>"),
                    {makeTensor(DType::I32, {3}, {4, -8, 2})}),
               DType::I32, {}, {-8});
}

TEST_F(ReferenceTest, SoftmaxAndLogSoftmax) {
  // exp([-2, -1, 0]) / (e^-2 + e^-1 + 1).
  expectTensor(run1(singleOp("tcc.softmax", {"tensor<3xf32>"}, "tensor<3xf32>",
                             "axis = -1 : i64"),
                    {f32({3}, {1, 2, 3})}),
               DType::F32, {3},
               {0.09003057317038046, 0.24472847105479767, 0.6652409557748219});
  expectTensor(run1(singleOp("tcc.log_softmax", {"tensor<3xf32>"},
                             "tensor<3xf32>", "axis = 0 : i64"),
                    {f32({3}, {1, 2, 3})}),
               DType::F32, {3},
               {-2.40760596444438, -1.4076059644443801, -0.4076059644443803});
  // Along axis 0 of a 2x2: columns [1, 1] and [1, 3].
  expectTensor(run1(singleOp("tcc.softmax", {"tensor<2x2xf32>"},
                             "tensor<2x2xf32>", "axis = 0 : i64"),
                    {f32({2, 2}, {1, 1, 1, 3})}),
               DType::F32, {2, 2},
               {0.5, 0.11920292202211755, 0.5, 0.8807970779778823});
  // Large logits must not overflow.
  expectTensor(run1(singleOp("tcc.softmax", {"tensor<2xf32>"}, "tensor<2xf32>",
                             "axis = 0 : i64"),
                    {f32({2}, {1000, 1000})}),
               DType::F32, {2}, {0.5, 0.5});
}

TEST_F(ReferenceTest, LayerNorm) {
  // Row [1, 3]: mean 2, var 1 -> [-1, 1]; row [2, 6]: mean 4, var 4 ->
  // [-1, 1]; then * [1, 2] + [0, 1].
  expectTensor(
      run1(singleOp("tcc.layer_norm",
                    {"tensor<2x2xf32>", "tensor<2xf32>", "tensor<2xf32>"},
                    "tensor<2x2xf32>", "axis = -1 : i64, epsilon = 0.0 : f32"),
           {f32({2, 2}, {1, 3, 2, 6}), f32({2}, {1, 2}), f32({2}, {0, 1})}),
      DType::F32, {2, 2}, {-1, 3, -1, 3});
  // Default epsilon 1e-5: [0, 2] -> [-1, 1] / sqrt(1 + 1e-5).
  expectTensor(
      run1(singleOp("tcc.layer_norm",
                    {"tensor<1x2xf64>", "tensor<2xf64>", "tensor<2xf64>"},
                    "tensor<1x2xf64>", "axis = 1 : i64"),
           {makeTensor(DType::F64, {1, 2}, {0, 2}),
            makeTensor(DType::F64, {2}, {1, 1}),
            makeTensor(DType::F64, {2}, {0, 0})}),
      DType::F64, {1, 2}, {-0.9999950000374997, 0.9999950000374997}, 1e-12);
  // Normalizing over all dims (axis 0) of [[1, 3], [2, 6]]: mean 3, var 3.5.
  double s = std::sqrt(3.5);
  expectTensor(
      run1(singleOp("tcc.layer_norm",
                    {"tensor<2x2xf64>", "tensor<2x2xf64>", "tensor<2x2xf64>"},
                    "tensor<2x2xf64>", "axis = 0 : i64, epsilon = 0.0 : f32"),
           {makeTensor(DType::F64, {2, 2}, {1, 3, 2, 6}),
            makeTensor(DType::F64, {2, 2}, {1, 1, 1, 1}),
            makeTensor(DType::F64, {2, 2}, {0, 0, 0, 0})}),
      DType::F64, {2, 2}, {-2 / s, 0, -1 / s, 3 / s}, 1e-12);
  std::string err = runError(
      singleOp("tcc.layer_norm",
               {"tensor<2x2xf32>", "tensor<3xf32>", "tensor<2xf32>"},
               "tensor<2x2xf32>", "axis = -1 : i64"),
      {f32({2, 2}, {1, 3, 2, 6}), f32({3}, {1, 2, 3}), f32({2}, {0, 1})});
  EXPECT_CONTAINS(err, "weight must have shape 2");
}

TEST_F(ReferenceTest, RmsNorm) {
  // mean([9, 16]) = 12.5; [3, 4] / sqrt(12.5) * [1, 2].
  expectTensor(
      run1(singleOp("tcc.rms_norm", {"tensor<1x2xf32>", "tensor<2xf32>"},
                    "tensor<1x2xf32>", "axis = -1 : i64, epsilon = 0.0 : f32"),
           {f32({1, 2}, {3, 4}), f32({2}, {1, 2})}),
      DType::F32, {1, 2}, {0.848528137423857, 2.262741699796952});
}

TEST_F(ReferenceTest, BatchNorm) {
  // Channel 0: (x - 1) / 2 * 1 + 0; channel 1: (x - 3) / 1 * 2 + 1.
  expectTensor(
      run1(singleOp("tcc.batch_norm",
                    {"tensor<1x2x1x2xf32>", "tensor<2xf32>", "tensor<2xf32>",
                     "tensor<2xf32>", "tensor<2xf32>"},
                    "tensor<1x2x1x2xf32>", "epsilon = 0.0 : f32"),
           {f32({1, 2, 1, 2}, {1, 2, 3, 4}), f32({2}, {1, 2}), f32({2}, {0, 1}),
            f32({2}, {1, 3}), f32({2}, {4, 1})}),
      DType::F32, {1, 2, 1, 2}, {0, 0.5, 1, 3});
}

//===----------------------------------------------------------------------===//
// matmul / linear / conv / pool / attention
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, Matmul) {
  // [[1,2,3],[4,5,6]] @ [[7,8],[9,10],[11,12]] = [[58,64],[139,154]].
  expectTensor(
      run1(singleOp("tcc.matmul", {"tensor<2x3xf32>", "tensor<3x2xf32>"},
                    "tensor<2x2xf32>"),
           {f32({2, 3}, {1, 2, 3, 4, 5, 6}),
            f32({3, 2}, {7, 8, 9, 10, 11, 12})}),
      DType::F32, {2, 2}, {58, 64, 139, 154});
  // Batch dims broadcast: [2,1,2] @ [2,1] -> [2,1,1]; [1,2] @ [5,6] = 17,
  // [3,4] @ [5,6] = 39.
  expectTensor(
      run1(singleOp("tcc.matmul", {"tensor<2x1x2xf32>", "tensor<2x1xf32>"},
                    "tensor<2x1x1xf32>"),
           {f32({2, 1, 2}, {1, 2, 3, 4}), f32({2, 1}, {5, 6})}),
      DType::F32, {2, 1, 1}, {17, 39});
  // [1,1,2] @ [2,2,1]: batch 1 vs 2.
  expectTensor(
      run1(singleOp("tcc.matmul", {"tensor<1x1x2xf32>", "tensor<2x2x1xf32>"},
                    "tensor<2x1x1xf32>"),
           {f32({1, 1, 2}, {1, 2}), f32({2, 2, 1}, {3, 4, 5, 6})}),
      DType::F32, {2, 1, 1}, {11, 17});
  std::string err =
      runError(singleOp("tcc.matmul", {"tensor<2x3xf32>", "tensor<2x2xf32>"},
                        "tensor<2x2xf32>"),
               {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2, 2}, {1, 2, 3, 4})});
  EXPECT_CONTAINS(err, "contraction dims differ");
}

TEST_F(ReferenceTest, Linear) {
  // weight rows [1,0], [0,1], [1,1]: x @ w^T = [x0, x1, x0 + x1].
  std::vector<HostTensor> in = {f32({2, 2}, {1, 2, 3, 4}),
                                f32({3, 2}, {1, 0, 0, 1, 1, 1}),
                                f32({3}, {10, 20, 30})};
  expectTensor(
      run1(singleOp("tcc.linear",
                    {"tensor<2x2xf32>", "tensor<3x2xf32>", "tensor<3xf32>"},
                    "tensor<2x3xf32>"),
           in),
      DType::F32, {2, 3}, {11, 22, 33, 13, 24, 37});
  expectTensor(
      run1(singleOp("tcc.linear", {"tensor<2x2xf32>", "tensor<3x2xf32>"},
                    "tensor<2x3xf32>"),
           {in[0], in[1]}),
      DType::F32, {2, 3}, {1, 2, 3, 3, 4, 7});
}

TEST_F(ReferenceTest, Conv2d) {
  HostTensor x = f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  HostTensor diag = f32({1, 1, 2, 2}, {1, 0, 0, 1});
  // out[i][j] = x[i][j] + x[i+1][j+1].
  expectTensor(run1(singleOp("tcc.conv2d",
                             {"tensor<1x1x3x3xf32>", "tensor<1x1x2x2xf32>"},
                             "tensor<1x1x2x2xf32>"),
                    {x, diag}),
               DType::F32, {1, 1, 2, 2}, {6, 8, 12, 14});
  // Symmetric padding 1, stride 2, bias 0.5: out H = (3+2-1-1)/2+1 = 2.
  expectTensor(
      run1(singleOp(
               "tcc.conv2d",
               {"tensor<1x1x3x3xf32>", "tensor<1x1x2x2xf32>", "tensor<1xf32>"},
               "tensor<1x1x2x2xf32>",
               "strides = array<i64: 2, 2>, padding = array<i64: 1, 1>"),
           {x, diag, f32({1}, {0.5})}),
      DType::F32, {1, 1, 2, 2}, {1.5, 3.5, 7.5, 14.5});
  // Asymmetric padding [top, left, bottom, right] = [0, 1, 0, 0].
  expectTensor(
      run1(singleOp("tcc.conv2d",
                    {"tensor<1x1x3x3xf32>", "tensor<1x1x2x2xf32>"},
                    "tensor<1x1x2x3xf32>", "padding = array<i64: 0, 1, 0, 0>"),
           {x, diag}),
      DType::F32, {1, 1, 2, 3}, {4, 6, 8, 7, 12, 14});
  // Dilation 2 turns a 2x2 all-ones kernel into the four corners.
  expectTensor(
      run1(singleOp("tcc.conv2d",
                    {"tensor<1x1x3x3xf32>", "tensor<1x1x2x2xf32>"},
                    "tensor<1x1x1x1xf32>", "dilations = array<i64: 2, 2>"),
           {x, f32({1, 1, 2, 2}, {1, 1, 1, 1})}),
      DType::F32, {1, 1, 1, 1}, {20});
  // Groups = 2: each output channel sees only its own input channel.
  HostTensor x2 = f32({1, 2, 1, 1}, {2, 3});
  expectTensor(run1(singleOp("tcc.conv2d",
                             {"tensor<1x2x1x1xf32>", "tensor<2x1x1x1xf32>"},
                             "tensor<1x2x1x1xf32>", "groups = 2 : i64"),
                    {x2, f32({2, 1, 1, 1}, {10, 100})}),
               DType::F32, {1, 2, 1, 1}, {20, 300});
  // Groups = 1 mixes them: 2*10 + 3*100.
  expectTensor(run1(singleOp("tcc.conv2d",
                             {"tensor<1x2x1x1xf32>", "tensor<1x2x1x1xf32>"},
                             "tensor<1x1x1x1xf32>"),
                    {x2, f32({1, 2, 1, 1}, {10, 100})}),
               DType::F32, {1, 1, 1, 1}, {320});
  std::string err = runError(
      singleOp("tcc.conv2d", {"tensor<1x2x1x1xf32>", "tensor<2x2x1x1xf32>"},
               "tensor<1x2x1x1xf32>", "groups = 2 : i64"),
      {x2, f32({2, 2, 1, 1}, {1, 2, 3, 4})});
  EXPECT_CONTAINS(err, "input channels per group");
}

TEST_F(ReferenceTest, MaxPool2d) {
  // 4x4 of 1..16, 2x2 windows, stride defaults to the kernel.
  std::vector<double> seq;
  for (int i = 1; i <= 16; ++i)
    seq.push_back(i);
  expectTensor(
      run1(singleOp("tcc.max_pool2d", {"tensor<1x1x4x4xf32>"},
                    "tensor<1x1x2x2xf32>", "kernel_size = array<i64: 2, 2>"),
           {f32({1, 1, 4, 4}, seq)}),
      DType::F32, {1, 1, 2, 2}, {6, 8, 14, 16});
  // Padding is ignored, not treated as 0: all-negative input.
  expectTensor(
      run1(singleOp("tcc.max_pool2d", {"tensor<1x1x2x2xf32>"},
                    "tensor<1x1x3x3xf32>",
                    "kernel_size = array<i64: 2, 2>, strides = array<i64: 1, "
                    "1>, padding = array<i64: 1, 1>"),
           {f32({1, 1, 2, 2}, {-1, -2, -3, -4})}),
      DType::F32, {1, 1, 3, 3}, {-1, -1, -2, -1, -1, -2, -3, -3, -4});
}

TEST_F(ReferenceTest, AvgPool2d) {
  std::vector<double> seq;
  for (int i = 1; i <= 16; ++i)
    seq.push_back(i);
  expectTensor(run1(singleOp("tcc.avg_pool2d", {"tensor<1x1x4x4xf32>"},
                             "tensor<1x1x2x2xf32>",
                             "kernel_size = array<i64: 2, 2>, strides = "
                             "array<i64: 2, 2>"),
                    {f32({1, 1, 4, 4}, seq)}),
               DType::F32, {1, 1, 2, 2}, {3.5, 5.5, 11.5, 13.5});
  // Padded windows divide by the number of real elements only.
  std::string attrs = "kernel_size = array<i64: 2, 2>, strides = array<i64: "
                      "1, 1>, padding = array<i64: 1, 1>";
  HostTensor x = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  expectTensor(run1(singleOp("tcc.avg_pool2d", {"tensor<1x1x2x2xf32>"},
                             "tensor<1x1x3x3xf32>", attrs),
                    {x}),
               DType::F32, {1, 1, 3, 3}, {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
  expectTensor(run1(singleOp("tcc.avg_pool2d", {"tensor<1x1x2x2xf32>"},
                             "tensor<1x1x3x3xf32>",
                             attrs + ", count_include_pad = true"),
                    {x}),
               DType::F32, {1, 1, 3, 3},
               {0.25, 0.75, 0.5, 1, 2.5, 1.5, 0.75, 1.75, 1});
}

TEST_F(ReferenceTest, Attention) {
  // q = [[1], [0]], k = [[0], [1]], v = [[10], [20]], scale 1:
  // row 0 scores [0, 1] -> 10 * 1/(1+e) + 20 * e/(1+e); row 1 -> 15.
  std::vector<HostTensor> qkv = {f32({2, 1}, {1, 0}), f32({2, 1}, {0, 1}),
                                 f32({2, 1}, {10, 20})};
  std::vector<std::string> types = {"tensor<2x1xf32>", "tensor<2x1xf32>",
                                    "tensor<2x1xf32>"};
  expectTensor(run1(singleOp("tcc.attention", types, "tensor<2x1xf32>",
                             "scale = 1.0 : f32"),
                    qkv),
               DType::F32, {2, 1}, {17.31058578630005, 15});
  // Causal: row 0 only sees key 0.
  expectTensor(run1(singleOp("tcc.attention", types, "tensor<2x1xf32>",
                             "scale = 1.0 : f32, is_causal = true"),
                    qkv),
               DType::F32, {2, 1}, {10, 15});

  // Boolean mask: true keeps. Row 0 keeps only key 1.
  std::vector<std::string> maskedTypes = types;
  maskedTypes.push_back("tensor<2x2xi1>");
  std::vector<HostTensor> masked = qkv;
  masked.push_back(makeTensor(DType::I1, {2, 2}, {0, 1, 1, 1}));
  expectTensor(run1(singleOp("tcc.attention", maskedTypes, "tensor<2x1xf32>",
                             "scale = 1.0 : f32"),
                    masked),
               DType::F32, {2, 1}, {20, 15});

  // Float mask [1, 2] broadcast over rows is added: row 0 scores [1, 3],
  // row 1 [1, 2].
  std::vector<std::string> floatTypes = types;
  floatTypes.push_back("tensor<2xf32>");
  std::vector<HostTensor> floatMasked = qkv;
  floatMasked.push_back(f32({2}, {1, 2}));
  expectTensor(run1(singleOp("tcc.attention", floatTypes, "tensor<2x1xf32>",
                             "scale = 1.0 : f32"),
                    floatMasked),
               DType::F32, {2, 1}, {18.807970779778827, 17.31058578630005});

  // A fully masked row is NaN, like torch.
  masked[3] = makeTensor(DType::I1, {2, 2}, {0, 0, 1, 1});
  expectTensor(run1(singleOp("tcc.attention", maskedTypes, "tensor<2x1xf32>",
                             "scale = 1.0 : f32"),
                    masked),
               DType::F32, {2, 1}, {kNaN, 15});
}

TEST_F(ReferenceTest, AttentionDefaultScaleAndBatch) {
  // D = 4 -> scale 1/2; scores [2, 0] -> weight e^2/(e^2+1) on v = 1.
  expectTensor(
      run1(singleOp("tcc.attention",
                    {"tensor<1x4xf32>", "tensor<2x4xf32>", "tensor<2x1xf32>"},
                    "tensor<1x1xf32>"),
           {f32({1, 4}, {1, 1, 1, 1}), f32({2, 4}, {1, 1, 1, 1, 0, 0, 0, 0}),
            f32({2, 1}, {1, 0})}),
      DType::F32, {1, 1}, {0.8807970779778825});
  // Two batches with different v: batch 1 has q = 0, so the mean of v.
  expectTensor(run1(singleOp("tcc.attention",
                             {"tensor<2x1x1xf32>", "tensor<2x2x1xf32>",
                              "tensor<2x2x1xf32>"},
                             "tensor<2x1x1xf32>", "scale = 1.0 : f32"),
                    {f32({2, 1, 1}, {1, 0}), f32({2, 2, 1}, {0, 1, 0, 1}),
                     f32({2, 2, 1}, {10, 20, 30, 50})}),
               DType::F32, {2, 1, 1}, {17.31058578630005, 40});
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, Transpose) {
  expectTensor(
      run1(singleOp("tcc.transpose", {"tensor<2x3xf32>"}, "tensor<3x2xf32>",
                    "permutation = array<i64: 1, 0>"),
           {f32({2, 3}, {1, 2, 3, 4, 5, 6})}),
      DType::F32, {3, 2}, {1, 4, 2, 5, 3, 6});
  // out[i][j][0] = x[j][0][i].
  expectTensor(
      run1(singleOp("tcc.transpose", {"tensor<2x1x3xi32>"}, "tensor<3x2x1xi32>",
                    "permutation = array<i64: 2, 0, 1>"),
           {makeTensor(DType::I32, {2, 1, 3}, {1, 2, 3, 4, 5, 6})}),
      DType::I32, {3, 2, 1}, {1, 4, 2, 5, 3, 6});
  std::string err =
      runError(singleOp("tcc.transpose", {"tensor<2x3xf32>"}, "tensor<3x2xf32>",
                        "permutation = array<i64: 0, 0>"),
               {f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_CONTAINS(err, "invalid permutation");
}

TEST_F(ReferenceTest, Reshape) {
  HostTensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  expectTensor(
      run1(singleOp("tcc.reshape", {"tensor<2x3xf32>"}, "tensor<3x2xf32>"),
           {x}),
      DType::F32, {3, 2}, {1, 2, 3, 4, 5, 6});
  // One dynamic dim, inferred from the element count.
  expectTensor(
      run1(singleOp("tcc.reshape", {"tensor<2x3xf32>"}, "tensor<?x2xf32>"),
           {x}),
      DType::F32, {3, 2}, {1, 2, 3, 4, 5, 6});
  // A shape operand: -1 is inferred, 3 is taken.
  expectTensor(
      run1(singleOp("tcc.reshape", {"tensor<2x3xf32>", "tensor<2xi64>"},
                    "tensor<?x?xf32>"),
           {x, makeTensor(DType::I64, {2}, {-1, 3})}),
      DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  expectTensor(
      run1(singleOp("tcc.reshape", {"tensor<2x3xf32>", "tensor<3xi64>"},
                    "tensor<?x?x?xf32>"),
           {x, makeTensor(DType::I64, {3}, {3, 1, 2})}),
      DType::F32, {3, 1, 2}, {1, 2, 3, 4, 5, 6});
  std::string err = runError(
      singleOp("tcc.reshape", {"tensor<2x3xf32>"}, "tensor<4x2xf32>"), {x});
  EXPECT_CONTAINS(err, "cannot reshape 2x3xf32 (6 elements) to 4x2");
  err = runError(
      singleOp("tcc.reshape", {"tensor<2x3xf32>"}, "tensor<?x?xf32>"), {x});
  EXPECT_CONTAINS(err, "more than one result dim to infer");
}

TEST_F(ReferenceTest, BroadcastTo) {
  expectTensor(
      run1(singleOp("tcc.broadcast_to", {"tensor<3xf32>"}, "tensor<2x3xf32>"),
           {f32({3}, {1, 2, 3})}),
      DType::F32, {2, 3}, {1, 2, 3, 1, 2, 3});
  // Dynamic dims from the shape operand.
  expectTensor(
      run1(singleOp("tcc.broadcast_to", {"tensor<3x1xf32>", "tensor<2xi64>"},
                    "tensor<?x?xf32>"),
           {f32({3, 1}, {1, 2, 3}), makeTensor(DType::I64, {2}, {3, 2})}),
      DType::F32, {3, 2}, {1, 1, 2, 2, 3, 3});
  // Without a shape operand a dynamic dim comes from the aligned input dim.
  expectTensor(
      run1(singleOp("tcc.broadcast_to", {"tensor<?xf32>"}, "tensor<2x?xf32>"),
           {f32({2}, {7, 8})}),
      DType::F32, {2, 2}, {7, 8, 7, 8});
  std::string err =
      runError(singleOp("tcc.broadcast_to", {"tensor<2xf32>"}, "tensor<3xf32>"),
               {f32({2}, {1, 2})});
  EXPECT_CONTAINS(err, "cannot broadcast 2xf32 to 3xf32");
}

TEST_F(ReferenceTest, Concat) {
  expectTensor(
      run1(singleOp("tcc.concat", {"tensor<2x1xf32>", "tensor<2x2xf32>"},
                    "tensor<2x3xf32>", "axis = -1 : i64"),
           {f32({2, 1}, {1, 2}), f32({2, 2}, {3, 4, 5, 6})}),
      DType::F32, {2, 3}, {1, 3, 4, 2, 5, 6});
  expectTensor(
      run1(singleOp("tcc.concat",
                    {"tensor<1x2xf32>", "tensor<1x2xf32>", "tensor<1x2xf32>"},
                    "tensor<3x2xf32>", "axis = 0 : i64"),
           {f32({1, 2}, {1, 2}), f32({1, 2}, {3, 4}), f32({1, 2}, {5, 6})}),
      DType::F32, {3, 2}, {1, 2, 3, 4, 5, 6});
  std::string err =
      runError(singleOp("tcc.concat", {"tensor<2x1xf32>", "tensor<3x1xf32>"},
                        "tensor<5x1xf32>", "axis = 1 : i64"),
               {f32({2, 1}, {1, 2}), f32({3, 1}, {3, 4, 5})});
  EXPECT_CONTAINS(err, "cannot concatenate");
}

TEST_F(ReferenceTest, Slice) {
  std::vector<double> seq;
  for (int i = 0; i < 10; ++i)
    seq.push_back(i);
  HostTensor x = f32({10}, seq);
  expectTensor(run1(singleOp("tcc.slice", {"tensor<10xf32>"}, "tensor<3xf32>",
                             "starts = array<i64: 1>, ends = array<i64: 8>, "
                             "steps = array<i64: 3>"),
                    {x}),
               DType::F32, {3}, {1, 4, 7});
  // Negative start, "to the end" with INT64_MAX.
  expectTensor(run1(singleOp("tcc.slice", {"tensor<10xf32>"}, "tensor<3xf32>",
                             "starts = array<i64: -3>, ends = array<i64: "
                             "9223372036854775807>, steps = array<i64: 1>"),
                    {x}),
               DType::F32, {3}, {7, 8, 9});
  // Out-of-range bounds clamp; an empty range gives size 0.
  expectTensor(run1(singleOp("tcc.slice", {"tensor<10xf32>"}, "tensor<0xf32>",
                             "starts = array<i64: 5>, ends = array<i64: 2>, "
                             "steps = array<i64: 1>"),
                    {x}),
               DType::F32, {0}, {});
  // 2-D: rows 0 and 2, last column.
  std::vector<double> seq12;
  for (int i = 0; i < 12; ++i)
    seq12.push_back(i);
  expectTensor(
      run1(singleOp("tcc.slice", {"tensor<3x4xf32>"}, "tensor<2x1xf32>",
                    "starts = array<i64: 0, -1>, ends = array<i64: "
                    "100, 4>, steps = array<i64: 2, 1>"),
           {f32({3, 4}, seq12)}),
      DType::F32, {2, 1}, {3, 11});
}

TEST_F(ReferenceTest, Gather) {
  // Rows 2 and -3 (= 0) of [[1,2],[3,4],[5,6]].
  expectTensor(run1(singleOp("tcc.gather", {"tensor<3x2xf32>", "tensor<2xi64>"},
                             "tensor<2x2xf32>", "axis = 0 : i64"),
                    {f32({3, 2}, {1, 2, 3, 4, 5, 6}),
                     makeTensor(DType::I64, {2}, {2, -3})}),
               DType::F32, {2, 2}, {5, 6, 1, 2});
  // axis 1 with 2-D indices: out[a][i][j] = x[a][idx[i][j]].
  expectTensor(
      run1(singleOp("tcc.gather", {"tensor<2x3xf32>", "tensor<2x2xi32>"},
                    "tensor<2x2x2xf32>", "axis = 1 : i64"),
           {f32({2, 3}, {1, 2, 3, 4, 5, 6}),
            makeTensor(DType::I32, {2, 2}, {0, 2, 1, -1})}),
      DType::F32, {2, 2, 2}, {1, 3, 2, 3, 4, 6, 5, 6});
}

TEST_F(ReferenceTest, GatherOutOfRangeIsAnError) {
  std::string err = runError(
      singleOp("tcc.gather", {"tensor<3x2xf32>", "tensor<2xi64>"},
               "tensor<2x2xf32>", "axis = 0 : i64"),
      {f32({3, 2}, {1, 2, 3, 4, 5, 6}), makeTensor(DType::I64, {2}, {1, 3})});
  EXPECT_CONTAINS(err, "'tcc.gather' at loc(");
  EXPECT_CONTAINS(err, "index 3 is out of range for axis 0 of size 3");
  err = runError(
      singleOp("tcc.gather", {"tensor<3x2xf32>", "tensor<1xi64>"},
               "tensor<1x2xf32>", "axis = 0 : i64"),
      {f32({3, 2}, {1, 2, 3, 4, 5, 6}), makeTensor(DType::I64, {1}, {-4})});
  EXPECT_CONTAINS(err, "index -4 is out of range");
}

//===----------------------------------------------------------------------===//
// Constants and structural ops
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, Constants) {
  std::string src = R"mlir(
"func.func"() <{function_type = () -> (tensor<2x2xf32>, tensor<1x2xf32>, tensor<2xi32>, tensor<2xi1>, tensor<2xi32>), sym_name = "f"}> ({
  %0 = "tcc.constant"() {value = dense<2.5> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %1 = "tcc.constant"() {value = dense<[[1.0, -2.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
  %2 = "arith.constant"() <{value = dense<[7, -8]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %3 = "arith.constant"() <{value = dense<[true, false]> : tensor<2xi1>}> : () -> tensor<2xi1>
  %4 = "tcc.constant"() {value = dense_resource<blob1> : tensor<2xi32>} : () -> tensor<2xi32>
  "func.return"(%0, %1, %2, %3, %4) : (tensor<2x2xf32>, tensor<1x2xf32>, tensor<2xi32>, tensor<2xi1>, tensor<2xi32>) -> ()
}) : () -> ()
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000"
    }
  }
#-}
)mlir";
  std::vector<HostTensor> r = run(src, {});
  ASSERT_EQ(r.size(), 5u);
  expectTensor(r[0], DType::F32, {2, 2}, {2.5, 2.5, 2.5, 2.5});
  expectTensor(r[1], DType::F32, {1, 2}, {1, -2});
  expectTensor(r[2], DType::I32, {2}, {7, -8});
  expectTensor(r[3], DType::I1, {2}, {1, 0});
  expectTensor(r[4], DType::I32, {2}, {1, 2});
}

TEST_F(ReferenceTest, NarrowFloatConstants) {
  // 0.1 is not representable: f16 holds 0.0999755859375, bf16 0.10009765625.
  std::string src = R"mlir(
"func.func"() <{function_type = () -> (tensor<2xf16>, tensor<2xbf16>), sym_name = "f"}> ({
  %0 = "tcc.constant"() {value = dense<[1.5, 0.1]> : tensor<2xf16>} : () -> tensor<2xf16>
  %1 = "tcc.constant"() {value = dense<[-2.0, 0.1]> : tensor<2xbf16>} : () -> tensor<2xbf16>
  "func.return"(%0, %1) : (tensor<2xf16>, tensor<2xbf16>) -> ()
}) : () -> ()
)mlir";
  std::vector<HostTensor> r = run(src, {});
  ASSERT_EQ(r.size(), 2u);
  expectTensor(r[0], DType::F16, {2}, {1.5, 0.0999755859375}, 0);
  expectTensor(r[1], DType::BF16, {2}, {-2, 0.10009765625}, 0);
}

TEST_F(ReferenceTest, RecursiveCallIsBounded) {
  std::string src = R"mlir(
"func.func"() <{function_type = (tensor<1xf32>) -> tensor<1xf32>, sym_name = "f"}> ({
^bb0(%a: tensor<1xf32>):
  %0 = "func.call"(%a) <{callee = @f}> : (tensor<1xf32>) -> tensor<1xf32>
  "func.return"(%0) : (tensor<1xf32>) -> ()
}) : () -> ()
)mlir";
  std::string err = runError(src, {f32({1}, {1})});
  EXPECT_CONTAINS(err, "'func.call'");
  EXPECT_CONTAINS(err, "call depth limit exceeded");
}

TEST_F(ReferenceTest, FuncCall) {
  std::string src = R"mlir(
"func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, sym_name = "double", sym_visibility = "private"}> ({
^bb0(%x: tensor<2xf32>):
  %0 = "tcc.add"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%0) : (tensor<2xf32>) -> ()
}) : () -> ()
"func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, sym_name = "f"}> ({
^bb0(%a: tensor<2xf32>):
  %0 = "func.call"(%a) <{callee = @double}> : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "func.call"(%0) <{callee = @double}> : (tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%1) : (tensor<2xf32>) -> ()
}) : () -> ()
)mlir";
  expectTensor(run1(src, {f32({2}, {1, -2.5})}), DType::F32, {2}, {4, -10});
}

TEST_F(ReferenceTest, FusionGroup) {
  // (a * b) + a inside a group; extra attributes on the group and the yield
  // are ignored.
  std::string src = R"mlir(
"func.func"() <{function_type = (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>, sym_name = "f"}> ({
^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
  %0 = "fusion.group"(%a, %b) ({
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    %1 = "tcc.mul"(%x, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %2 = "tcc.add"(%1, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "fusion.yield"(%2) {kind = "elementwise", cost = 3 : i64} : (tensor<2xf32>) -> ()
  }) {name = "g0"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = "tcc.neg"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%3) : (tensor<2xf32>) -> ()
}) : () -> ()
)mlir";
  expectTensor(run1(src, {f32({2}, {2, 3}), f32({2}, {4, -1})}), DType::F32,
               {2}, {-10, 0});
}

TEST_F(ReferenceTest, TensorCastAndDim) {
  std::string src = R"mlir(
"func.func"() <{function_type = (tensor<?x3xf32>) -> (tensor<2x3xf32>, index), sym_name = "f"}> ({
^bb0(%a: tensor<?x3xf32>):
  %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
  %0 = "tensor.cast"(%a) : (tensor<?x3xf32>) -> tensor<2x3xf32>
  %1 = "tensor.dim"(%a, %c0) : (tensor<?x3xf32>, index) -> index
  "func.return"(%0, %1) : (tensor<2x3xf32>, index) -> ()
}) : () -> ()
)mlir";
  std::vector<HostTensor> r = run(src, {f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(r.size(), 2u);
  expectTensor(r[0], DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  expectTensor(r[1], DType::I64, {}, {2});
  // Casting a 4x3 value to 2x3 is an error, not garbage.
  std::string err = runError(src, {f32({4, 3}, std::vector<double>(12, 0))});
  EXPECT_CONTAINS(err, "'tensor.cast'");
  EXPECT_CONTAINS(err, "expected shape 2x3xf32, got 4x3xf32");
}

TEST_F(ReferenceTest, PropertiesSyntaxAttributes) {
  // Once the dialect is registered attributes become properties; for an
  // unregistered op the <{...}> form must be readable as well.
  std::string src = R"mlir(
"func.func"() <{function_type = (tensor<3xf32>) -> tensor<3xf32>, sym_name = "f"}> ({
^bb0(%a: tensor<3xf32>):
  %0 = "tcc.softmax"(%a) <{axis = -1 : i64}> : (tensor<3xf32>) -> tensor<3xf32>
  "func.return"(%0) : (tensor<3xf32>) -> ()
}) : () -> ()
)mlir";
  expectTensor(run1(src, {f32({3}, {1, 2, 3})}), DType::F32, {3},
               {0.09003057317038046, 0.24472847105479767, 0.6652409557748219});
}

//===----------------------------------------------------------------------===//
// Input checking and other errors
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, InputChecks) {
  std::string src = singleOp("tcc.add", {"tensor<4x8xf32>", "tensor<4x8xf32>"},
                             "tensor<4x8xf32>");
  HostTensor good = f32({4, 8}, std::vector<double>(32, 1));
  EXPECT_EQ(runError(src, {good, f32({4, 9}, std::vector<double>(36, 1))}),
            "input 1: expected shape 4x8xf32, got 4x9xf32");
  EXPECT_EQ(runError(src, {good}), "expected 2 inputs, got 1");
  EXPECT_EQ(
      runError(src, {makeTensor(DType::F16, {4, 8}, std::vector<double>(32, 1)),
                     good}),
      "input 0: expected type 4x8xf32, got 4x8xf16");
  EXPECT_EQ(
      runError(singleOp("tcc.neg", {"tensor<?x3xf32>"}, "tensor<?x3xf32>"),
               {f32({3}, {1, 2, 3})}),
      "input 0: expected shape ?x3xf32, got 3xf32");
}

TEST_F(ReferenceTest, UnknownOp) {
  std::string err =
      runError(singleOp("tcc.frobnicate", {"tensor<1xf32>"}, "tensor<1xf32>"),
               {f32({1}, {1})});
  EXPECT_CONTAINS(err, "reference evaluator does not support op "
                       "'tcc.frobnicate'");
}

TEST_F(ReferenceTest, MissingAttribute) {
  std::string err =
      runError(singleOp("tcc.softmax", {"tensor<2xf32>"}, "tensor<2xf32>"),
               {f32({2}, {1, 2})});
  EXPECT_CONTAINS(err, "'tcc.softmax'");
  EXPECT_CONTAINS(err, "missing attribute 'axis'");
}

TEST_F(ReferenceTest, EvaluateSingleOp) {
  std::string src =
      singleOp("tcc.mul", {"tensor<2xf32>", "tensor<2xf32>"}, "tensor<2xf32>");
  module = parseSourceString<ModuleOp>(src, &context);
  ASSERT_TRUE(module);
  Operation *mul = nullptr;
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "tcc.mul")
      mul = op;
  });
  ASSERT_TRUE(mul);
  std::vector<HostTensor> results;
  std::string error;
  ASSERT_TRUE(succeeded(tcc::reference::evaluateOp(
      mul, {f32({2}, {3, 4}), f32({2}, {5, 6})}, results, error)))
      << error;
  ASSERT_EQ(results.size(), 1u);
  expectTensor(results[0], DType::F32, {2}, {15, 24});
  EXPECT_TRUE(failed(
      tcc::reference::evaluateOp(mul, {f32({2}, {3, 4})}, results, error)));
  EXPECT_CONTAINS(error, "expected 2 operands, got 1");
}

} // namespace
