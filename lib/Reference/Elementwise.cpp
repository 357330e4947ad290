//===- Elementwise.cpp - Reference elementwise ops --------------*- C++ -*-===//
//
// Kernels of the elementwise tcc ops: binary arithmetic with numpy
// broadcasting, cmp, select, the unary math ops and cast. Integer-only
// computations (all operands and the result integers) are done in exact
// int64 arithmetic with wrap-around; everything else in double.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorInternal.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tcc::reference::detail {

static bool allInts(std::initializer_list<const HostTensor *> tensors) {
  for (const HostTensor *t : tensors)
    if (!isIntDType(t->dtype))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

namespace {
enum class BinaryKind {
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Maximum,
  Minimum,
  Pow,
  BitAnd,
  BitOr,
  BitXor,
  ShiftLeft,
  ShiftRight
};
} // namespace

static double applyFloat(BinaryKind kind, double a, double b) {
  switch (kind) {
  case BinaryKind::Add:
    return a + b;
  case BinaryKind::Sub:
    return a - b;
  case BinaryKind::Mul:
    return a * b;
  case BinaryKind::Div:
    return a / b;
  case BinaryKind::Rem:
    return std::fmod(a, b);
  case BinaryKind::Maximum:
    // Like torch.maximum: NaN wins (std::max would depend on operand order).
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    return std::max(a, b);
  case BinaryKind::Minimum:
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    return std::min(a, b);
  case BinaryKind::Pow:
    return std::pow(a, b);
  default: // Bitwise ops have integer operands (the verifier says so).
    break;
  }
  return 0.0;
}

/// Exact integer arithmetic on operands read by getInt (sign- or
/// zero-extended, ui64 as its bits); add/sub/mul wrap (done in uint64 to
/// avoid signed-overflow UB), the result is then wrapped to the result
/// width (`bits`). Unsigned types divide and compare unsigned.
static int64_t applyInt(BinaryKind kind, int64_t a, int64_t b, bool isUnsigned,
                        int bits) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  // A shift amount outside [0, bits): negative ones are huge unsigned.
  bool shiftOut = ub >= static_cast<uint64_t>(bits);
  switch (kind) {
  case BinaryKind::Add:
    return static_cast<int64_t>(ua + ub);
  case BinaryKind::Sub:
    return static_cast<int64_t>(ua - ub);
  case BinaryKind::Mul:
    return static_cast<int64_t>(ua * ub);
  case BinaryKind::Div:
    if (isUnsigned)
      return static_cast<int64_t>(ua / ub);
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return a;   // Wraps.
    return a / b; // C++ truncates toward zero, like torch's trunc division.
  case BinaryKind::Rem:
    if (isUnsigned)
      return static_cast<int64_t>(ua % ub);
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return 0;
    return a % b; // The sign of a, like C and torch.fmod.
  case BinaryKind::Maximum:
    return isUnsigned ? static_cast<int64_t>(std::max(ua, ub))
                      : std::max(a, b);
  case BinaryKind::Minimum:
    return isUnsigned ? static_cast<int64_t>(std::min(ua, ub))
                      : std::min(a, b);
  case BinaryKind::BitAnd:
    return static_cast<int64_t>(ua & ub);
  case BinaryKind::BitOr:
    return static_cast<int64_t>(ua | ub);
  case BinaryKind::BitXor:
    return static_cast<int64_t>(ua ^ ub);
  case BinaryKind::ShiftLeft:
    return shiftOut ? 0 : static_cast<int64_t>(ua << ub);
  case BinaryKind::ShiftRight:
    if (isUnsigned) // ua is zero-extended: a logical shift.
      return shiftOut ? 0 : static_cast<int64_t>(ua >> ub);
    // Arithmetic (a is sign-extended; >> of a negative int64 is arithmetic
    // since C++20).
    return shiftOut ? (a < 0 ? -1 : 0) : a >> ub;
  case BinaryKind::Pow:
    break;
  }
  return 0;
}

template <BinaryKind kind> static LogicalResult evalBinary(OpState &s) {
  if (failed(s.checkArity(2, 2)))
    return failure();
  const HostTensor &lhs = s.operands[0], &rhs = s.operands[1];
  std::optional<Shape> shape = broadcastShapes(lhs.shape, rhs.shape);
  if (!shape)
    return s.fail("cannot broadcast " + lhs.typeString() + " and " +
                  rhs.typeString());
  HostTensor *out = s.makeResult(0, *shape);
  if (!out)
    return failure();

  bool intPath = allInts({&lhs, &rhs, out});
  bool isUnsigned = runtime::isUnsignedDType(lhs.dtype);
  int bits = 8 * static_cast<int>(runtime::dtypeSize(lhs.dtype));
  if (kind == BinaryKind::Pow && !runtime::isFloatDType(out->dtype))
    return s.fail("pow requires a floating-point result, got " +
                  llvm::Twine(runtime::dtypeName(out->dtype)));
  return forEachBroadcast(
      *shape, {&lhs, &rhs}, [&](int64_t i, ArrayRef<int64_t> src) {
        if (intPath) {
          int64_t a = getInt(lhs, src[0]), b = getInt(rhs, src[1]);
          if ((kind == BinaryKind::Div || kind == BinaryKind::Rem) && b == 0)
            return s.fail("integer division by zero");
          setInt(*out, i, applyInt(kind, a, b, isUnsigned, bits));
        } else {
          out->setDouble(i, applyFloat(kind, lhs.getDouble(src[0]),
                                       rhs.getDouble(src[1])));
        }
        return success();
      });
}

/// tcc.cmp: `predicate` is eq/ne/lt/le/gt/ge; comparisons with NaN are false
/// except ne.
static LogicalResult evalCmp(OpState &s) {
  if (failed(s.checkArity(2, 2)))
    return failure();
  FailureOr<std::string> predicate = s.getString("predicate");
  if (failed(predicate))
    return failure();
  static const char *const names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  int pred = -1;
  for (int i = 0; i < 6; ++i)
    if (*predicate == names[i])
      pred = i;
  if (pred < 0)
    return s.fail("unknown predicate '" + *predicate + "'");

  const HostTensor &lhs = s.operands[0], &rhs = s.operands[1];
  std::optional<Shape> shape = broadcastShapes(lhs.shape, rhs.shape);
  if (!shape)
    return s.fail("cannot broadcast " + lhs.typeString() + " and " +
                  rhs.typeString());
  HostTensor *out = s.makeResult(0, *shape);
  if (!out)
    return failure();

  auto compare = [pred](auto a, auto b) {
    switch (pred) {
    case 0:
      return a == b;
    case 1:
      return a != b;
    case 2:
      return a < b;
    case 3:
      return a <= b;
    case 4:
      return a > b;
    default:
      return a >= b;
    }
  };
  bool intPath = allInts({&lhs, &rhs});
  bool isUnsigned = runtime::isUnsignedDType(lhs.dtype);
  return forEachBroadcast(
      *shape, {&lhs, &rhs}, [&](int64_t i, ArrayRef<int64_t> src) {
        int64_t a = intPath ? getInt(lhs, src[0]) : 0;
        int64_t b = intPath ? getInt(rhs, src[1]) : 0;
        bool r = !intPath
                     ? compare(lhs.getDouble(src[0]), rhs.getDouble(src[1]))
                 : isUnsigned ? compare(uint64_t(a), uint64_t(b))
                              : compare(a, b);
        setInt(*out, i, r ? 1 : 0);
        return success();
      });
}

/// tcc.select(cond, onTrue, onFalse), all three broadcast together.
static LogicalResult evalSelect(OpState &s) {
  if (failed(s.checkArity(3, 3)))
    return failure();
  const HostTensor &cond = s.operands[0], &a = s.operands[1],
                   &b = s.operands[2];
  std::optional<Shape> shape = broadcastShapes(cond.shape, a.shape);
  if (shape)
    shape = broadcastShapes(*shape, b.shape);
  if (!shape)
    return s.fail("cannot broadcast " + cond.typeString() + ", " +
                  a.typeString() + " and " + b.typeString());
  HostTensor *out = s.makeResult(0, *shape);
  if (!out)
    return failure();
  return forEachBroadcast(
      *shape, {&cond, &a, &b}, [&](int64_t i, ArrayRef<int64_t> src) {
        bool pick = isIntDType(cond.dtype) ? getInt(cond, src[0]) != 0
                                           : cond.getDouble(src[0]) != 0.0;
        copyElement(pick ? a : b, pick ? src[1] : src[2], *out, i);
        return success();
      });
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

static double geluErf(double x) {
  return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}

static double geluTanh(double x) {
  const double kPi = 3.14159265358979323846;
  return 0.5 * x *
         (1.0 + std::tanh(std::sqrt(2.0 / kPi) * (x + 0.044715 * x * x * x)));
}

/// Runs `f` on every element in double. `intF`, when given, is used instead
/// if input and result are both integers (neg, abs, relu stay exact).
/// `unsignedF` replaces intF for unsigned element types (abs and relu are
/// the identity there).
static LogicalResult evalUnary(OpState &s, double (*f)(double),
                               int64_t (*intF)(int64_t) = nullptr,
                               int64_t (*unsignedF)(int64_t) = nullptr) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  const HostTensor &x = s.operands[0];
  HostTensor *out = s.makeResult(0, x.shape);
  if (!out)
    return failure();
  if (unsignedF && runtime::isUnsignedDType(x.dtype))
    intF = unsignedF;
  bool intPath = intF && allInts({&x, out});
  for (int64_t i = 0, e = x.numElements(); i < e; ++i) {
    if (intPath)
      setInt(*out, i, intF(getInt(x, i)));
    else
      out->setDouble(i, f(x.getDouble(i)));
  }
  return success();
}

static LogicalResult evalGelu(OpState &s) {
  FailureOr<std::string> approximate = s.getString("approximate", "none");
  if (failed(approximate))
    return failure();
  if (*approximate == "none")
    return evalUnary(s, geluErf);
  if (*approximate == "tanh")
    return evalUnary(s, geluTanh);
  return s.fail("unknown approximate mode '" + *approximate + "'");
}

/// tcc.cast: float->int truncates toward zero (out-of-range or NaN is an
/// error rather than garbage), anything->i1 is v != 0, int->int wraps.
static LogicalResult evalCast(OpState &s) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  const HostTensor &x = s.operands[0];
  HostTensor *out = s.makeResult(0, x.shape);
  if (!out)
    return failure();
  for (int64_t i = 0, e = x.numElements(); i < e; ++i) {
    if (out->dtype == DType::I1) {
      bool nonZero = isIntDType(x.dtype) ? getInt(x, i) != 0
                                         : x.getDouble(i) != 0.0; // NaN: true.
      setInt(*out, i, nonZero);
    } else if (isIntDType(out->dtype) && isIntDType(x.dtype)) {
      setInt(*out, i, getInt(x, i));
    } else if (isIntDType(out->dtype)) {
      double v = std::trunc(x.getDouble(i));
      // [-2^(w-1), 2^(w-1)) for signed types, [0, 2^w) for unsigned ones.
      int bits = 8 * static_cast<int>(runtime::dtypeSize(out->dtype));
      bool isUnsigned = runtime::isUnsignedDType(out->dtype);
      double lo = isUnsigned ? 0.0 : -std::ldexp(1.0, bits - 1);
      double hi = std::ldexp(1.0, isUnsigned ? bits : bits - 1);
      if (!(v >= lo && v < hi))
        return s.fail("cannot cast " + std::to_string(x.getDouble(i)) + " to " +
                      runtime::dtypeName(out->dtype));
      setInt(*out, i,
             v >= 0x1p63 ? static_cast<int64_t>(static_cast<uint64_t>(v))
                         : static_cast<int64_t>(v));
    } else {
      // To float: getDouble is exact for every source type except i64 beyond
      // 2^53, where it is rounded once.
      out->setDouble(i, x.getDouble(i));
    }
  }
  return success();
}

void registerElementwiseKernels(KernelTable &t) {
  t["tcc.add"] = evalBinary<BinaryKind::Add>;
  t["tcc.sub"] = evalBinary<BinaryKind::Sub>;
  t["tcc.mul"] = evalBinary<BinaryKind::Mul>;
  t["tcc.div"] = evalBinary<BinaryKind::Div>;
  t["tcc.rem"] = evalBinary<BinaryKind::Rem>;
  t["tcc.maximum"] = evalBinary<BinaryKind::Maximum>;
  t["tcc.minimum"] = evalBinary<BinaryKind::Minimum>;
  t["tcc.pow"] = evalBinary<BinaryKind::Pow>;
  t["tcc.bitwise_and"] = evalBinary<BinaryKind::BitAnd>;
  t["tcc.bitwise_or"] = evalBinary<BinaryKind::BitOr>;
  t["tcc.bitwise_xor"] = evalBinary<BinaryKind::BitXor>;
  t["tcc.shift_left"] = evalBinary<BinaryKind::ShiftLeft>;
  t["tcc.shift_right"] = evalBinary<BinaryKind::ShiftRight>;
  t["tcc.bitwise_not"] = [](OpState &s) {
    if (failed(s.checkArity(1, 1)))
      return failure();
    const HostTensor &x = s.operands[0];
    HostTensor *out = s.makeResult(0, x.shape);
    if (!out)
      return failure();
    bool isBool = x.dtype == DType::I1; // ~ is logical not there.
    for (int64_t i = 0, e = x.numElements(); i < e; ++i)
      setInt(*out, i, isBool ? !getInt(x, i) : ~getInt(x, i));
    return success();
  };
  t["tcc.cmp"] = evalCmp;
  t["tcc.select"] = evalSelect;
  t["tcc.cast"] = evalCast;
  t["tcc.gelu"] = evalGelu;

  // Captureless lambdas convert to the Kernel function pointer type.
  t["tcc.neg"] = [](OpState &s) {
    return evalUnary(
        s, [](double x) { return -x; },
        [](int64_t x) {
          return static_cast<int64_t>(0 - static_cast<uint64_t>(x));
        });
  };
  t["tcc.abs"] = [](OpState &s) {
    return evalUnary(
        s, [](double x) { return std::fabs(x); },
        [](int64_t x) {
          return x < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(x)) : x;
        },
        [](int64_t x) { return x; });
  };
  t["tcc.relu"] = [](OpState &s) {
    return evalUnary(
        s,
        // NaN < 0 is false, so NaN propagates like torch.relu.
        [](double x) { return x < 0.0 ? 0.0 : x; },
        [](int64_t x) { return x < 0 ? int64_t(0) : x; },
        [](int64_t x) { return x; });
  };
  t["tcc.exp"] = [](OpState &s) {
    return evalUnary(s, [](double x) { return std::exp(x); });
  };
  t["tcc.log"] = [](OpState &s) {
    return evalUnary(s, [](double x) { return std::log(x); });
  };
  t["tcc.sqrt"] = [](OpState &s) {
    return evalUnary(s, [](double x) { return std::sqrt(x); });
  };
  t["tcc.rsqrt"] = [](OpState &s) {
    return evalUnary(s, [](double x) { return 1.0 / std::sqrt(x); });
  };
  t["tcc.tanh"] = [](OpState &s) {
    return evalUnary(s, [](double x) { return std::tanh(x); });
  };
  t["tcc.sigmoid"] = [](OpState &s) { return evalUnary(s, sigmoid); };
  t["tcc.silu"] = [](OpState &s) {
    return evalUnary(s, [](double x) { return x * sigmoid(x); });
  };
  t["tcc.erf"] = [](OpState &s) {
    return evalUnary(s, [](double x) { return std::erf(x); });
  };
  // Unary ops that are one libm function, computed in double.
#define TCC_LIBM(NAME, EXPR)                                                   \
  t["tcc." #NAME] = [](OpState &s) {                                           \
    return evalUnary(s, [](double x) { return EXPR; });                        \
  };
  TCC_LIBM(sin, std::sin(x))
  TCC_LIBM(cos, std::cos(x))
  TCC_LIBM(tan, std::tan(x))
  TCC_LIBM(asin, std::asin(x))
  TCC_LIBM(acos, std::acos(x))
  TCC_LIBM(atan, std::atan(x))
  TCC_LIBM(sinh, std::sinh(x))
  TCC_LIBM(cosh, std::cosh(x))
  TCC_LIBM(asinh, std::asinh(x))
  TCC_LIBM(acosh, std::acosh(x))
  TCC_LIBM(atanh, std::atanh(x))
  TCC_LIBM(floor, std::floor(x))
  TCC_LIBM(ceil, std::ceil(x))
  // nearbyint in the default rounding mode: halves to even.
  TCC_LIBM(round, std::nearbyint(x))
#undef TCC_LIBM
}

} // namespace tcc::reference::detail
