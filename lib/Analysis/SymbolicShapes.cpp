//===- SymbolicShapes.cpp - size expressions of every tensor dim -*- C++
//-*-===//

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tcc;

static constexpr int64_t kNoMax = INT64_MAX;

static std::optional<int64_t> constantOf(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  return std::nullopt;
}

static std::string rangeStr(int64_t min, int64_t max) {
  return "[" + (min == INT64_MIN ? std::string("-inf") : std::to_string(min)) +
         ", " + (max == kNoMax ? std::string("inf") : std::to_string(max)) +
         "]";
}

//===----------------------------------------------------------------------===//
// Symbols, bindings, facts
//===----------------------------------------------------------------------===//

unsigned SymbolicShapeAnalysis::addSymbol(StringRef name, bool fromInputs) {
  names.push_back(name.str());
  SizeSymbol s;
  s.name = name.str();
  s.fromInputs = fromInputs;
  symbols.push_back(s);
  binding.push_back(AffineExpr());
  return symbols.size() - 1;
}

bool SymbolicShapeAnalysis::isInputExpr(AffineExpr e) const {
  bool all = true;
  e.walk([&](AffineExpr s) {
    if (auto sym = dyn_cast<AffineSymbolExpr>(s))
      all &= symbols[sym.getPosition()].fromInputs;
  });
  return all;
}

std::string SymbolicShapeAnalysis::str(AffineExpr e) const {
  return printSymbolicExpr(e, names);
}

AffineExpr SymbolicShapeAnalysis::resolve(AffineExpr e) {
  for (size_t iter = 0; iter <= binding.size(); ++iter) {
    SmallVector<AffineExpr> repl;
    for (unsigned i = 0; i < binding.size(); ++i)
      repl.push_back(binding[i] ? binding[i] : getAffineSymbolExpr(i, ctx));
    AffineExpr next =
        simplifyAffineExpr(e.replaceSymbols(repl), 0, binding.size());
    if (next == e)
      return e;
    e = next;
  }
  return e;
}

/// Lower and upper bounds of `e` from the symbols' ranges (sizes are never
/// negative); kNoMax when unbounded.
std::pair<int64_t, int64_t> SymbolicShapeAnalysis::bounds(AffineExpr e) {
  if (auto c = constantOf(e))
    return {*c, *c};
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return {symbols[s.getPosition()].min, symbols[s.getPosition()].max};
  auto bin = cast<AffineBinaryOpExpr>(e);
  auto [llo, lhi] = bounds(bin.getLHS());
  auto [rlo, rhi] = bounds(bin.getRHS());
  auto sat = [](int64_t a, int64_t b, bool mul) -> int64_t {
    int64_t r;
    if (a == kNoMax || b == kNoMax)
      return kNoMax;
    if (mul ? __builtin_mul_overflow(a, b, &r)
            : __builtin_add_overflow(a, b, &r))
      return kNoMax;
    return r;
  };
  switch (e.getKind()) {
  case AffineExprKind::Add:
    // Only sums of non-negative terms and constants are bounded here.
    if (llo < 0 && !constantOf(bin.getLHS()))
      return {INT64_MIN, kNoMax};
    if (rlo < 0 && !constantOf(bin.getRHS()))
      return {INT64_MIN, kNoMax};
    return {llo == INT64_MIN ? INT64_MIN : llo + rlo, sat(lhi, rhi, false)};
  case AffineExprKind::Mul:
    if (rlo >= 0 && llo >= 0)
      return {llo * rlo, sat(lhi, rhi, true)};
    if (auto c = constantOf(bin.getRHS()); c && *c < 0 && llo >= 0)
      return {lhi == kNoMax ? INT64_MIN : lhi * *c, llo * *c};
    return {INT64_MIN, kNoMax};
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    auto k = constantOf(bin.getRHS());
    if (!k || *k <= 0 || llo == INT64_MIN)
      return {INT64_MIN, kNoMax};
    bool ceil = e.getKind() == AffineExprKind::CeilDiv;
    auto div = [&](int64_t v) {
      if (v == kNoMax)
        return kNoMax;
      return ceil ? llvm::divideCeilSigned(v, *k)
                  : llvm::divideFloorSigned(v, *k);
    };
    return {div(llo), div(lhi)};
  }
  default:
    return {INT64_MIN, kNoMax};
  }
}

LogicalResult SymbolicShapeAnalysis::addFacts(AffineExpr e, int64_t min,
                                              int64_t max, int64_t divisor,
                                              Operation *where) {
  AffineExpr original = e;
  e = resolve(e);
  // Name what the user wrote: "B = 80", not "80 = 80".
  auto what = [&] { return str(constantOf(original) ? e : original); };
  if (auto c = constantOf(e)) {
    if (*c < min || *c > max)
      return where->emitError()
             << what() << " = " << *c << " outside " << rangeStr(min, max);
    if (*c % divisor != 0)
      return where->emitError()
             << what() << " = " << *c << " is not a multiple of " << divisor;
    return success();
  }
  if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
    SizeSymbol &sym = symbols[s.getPosition()];
    sym.min = std::max(sym.min, min);
    sym.max = std::min(sym.max, max);
    sym.divisor = std::lcm(sym.divisor, divisor);
    // The smallest multiple of the divisor at or above min must fit.
    int64_t first = llvm::divideCeilSigned(sym.min, sym.divisor) * sym.divisor;
    if (sym.min > sym.max || first > sym.max)
      return where->emitError()
             << "the constraints on " << sym.name
             << " leave no size: " << rangeStr(sym.min, sym.max)
             << (sym.divisor > 1
                     ? " with no multiple of " + std::to_string(sym.divisor)
                     : std::string());
    return success();
  }
  for (ExprFact &f : exprFacts)
    if (f.expr == e && f.min == min && f.max == max && f.divisor == divisor)
      return success();
  exprFacts.push_back({e, min, max, divisor});
  return success();
}

/// Unifies two dim expressions: binds a free symbol to the other side when
/// it can, fails when the two provably differ, and otherwise records an
/// equality for the entry guards.
LogicalResult
SymbolicShapeAnalysis::unify(AffineExpr a, AffineExpr b, Operation *op,
                             const std::function<std::string()> &what) {
  a = resolve(a);
  b = resolve(b);
  if (a == b)
    return success();
  auto mismatch = [&]() -> LogicalResult {
    return op->emitError() << what() << ": " << str(a) << " vs " << str(b);
  };
  auto symA = dyn_cast<AffineSymbolExpr>(a),
       symB = dyn_cast<AffineSymbolExpr>(b);
  // Prefer keeping the symbol that comes from the inputs, then the older.
  if (symA && symB) {
    unsigned ia = symA.getPosition(), ib = symB.getPosition();
    bool keepA = symbols[ia].fromInputs != symbols[ib].fromInputs
                     ? symbols[ia].fromInputs
                     : ia < ib;
    unsigned keep = keepA ? ia : ib, drop = keepA ? ib : ia;
    binding[drop] = getAffineSymbolExpr(keep, ctx);
    const SizeSymbol &d = symbols[drop];
    return addFacts(getAffineSymbolExpr(keep, ctx), d.min, d.max, d.divisor,
                    op);
  }
  for (auto [sym, other] : {std::pair(symA, b), std::pair(symB, a)}) {
    if (!sym || other.isFunctionOfSymbol(sym.getPosition()))
      continue;
    // An input size is never defined by a size known only at run time.
    if (symbols[sym.getPosition()].fromInputs && !isInputExpr(other))
      continue;
    unsigned id = sym.getPosition();
    // A run-time-only size may take an input expression, not the reverse
    // when the other side is itself run-time-only.
    binding[id] = other;
    const SizeSymbol &s = symbols[id];
    if (auto c = constantOf(other))
      if (*c < s.min || *c > s.max || *c % s.divisor != 0) {
        binding[id] = AffineExpr();
        if (*c < s.min || *c > s.max)
          return op->emitError() << what() << ": " << s.name << " = " << *c
                                 << " outside " << rangeStr(s.min, s.max);
        return op->emitError() << what() << ": " << s.name << " = " << *c
                               << " is not a multiple of " << s.divisor;
      }
    if (s.min != 0 || s.max != kNoMax || s.divisor != 1)
      return addFacts(other, s.min, s.max, s.divisor, op);
    return success();
  }
  AffineExpr diff = resolve(a - b);
  if (constantOf(diff))
    return mismatch();
  auto [lo, hi] = bounds(diff);
  if (lo > 0 || hi < 0)
    return mismatch();
  // Equalities with run-time-only sizes are checked where they are computed
  // (the lowering's assertions); the entry guards check the rest.
  if (isInputExpr(a) && isInputExpr(b) &&
      !llvm::is_contained(equalities, std::make_pair(a, b)) &&
      !llvm::is_contained(equalities, std::make_pair(b, a)))
    equalities.push_back({a, b});
  return success();
}

//===----------------------------------------------------------------------===//
// Per-op derivation
//===----------------------------------------------------------------------===//

/// A product c * s_i * s_j * ... (symbols with multiplicity).
struct Monomial {
  int64_t coefficient = 1;
  SmallVector<unsigned> symbols;
};

static std::optional<Monomial> asMonomial(AffineExpr e) {
  if (auto c = constantOf(e))
    return Monomial{*c, {}};
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return Monomial{1, {s.getPosition()}};
  if (e.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto bin = cast<AffineBinaryOpExpr>(e);
  auto l = asMonomial(bin.getLHS()), r = asMonomial(bin.getRHS());
  if (!l || !r)
    return std::nullopt;
  l->coefficient *= r->coefficient;
  llvm::append_range(l->symbols, r->symbols);
  return l;
}

class SymbolicShapeAnalysis::Deriver {
public:
  explicit Deriver(SymbolicShapeAnalysis &a) : a(a), ctx(a.ctx) {}

  /// The expressions of `v` (from the map, or from its type with fresh
  /// run-time symbols for dynamic dims).
  SmallVector<AffineExpr> shapeOf(Value v) {
    auto it = a.shapes.find(v);
    if (it != a.shapes.end())
      return it->second;
    SmallVector<AffineExpr> dims;
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      for (int64_t d = 0; d < t.getRank(); ++d)
        dims.push_back(t.isDynamicDim(d)
                           ? fresh()
                           : getAffineConstantExpr(t.getDimSize(d), ctx));
    a.shapes[v] = dims;
    return dims;
  }

  AffineExpr fresh() {
    std::string name;
    do {
      name = "u" + std::to_string(nextUnknown++);
    } while (llvm::is_contained(a.names, name));
    return getAffineSymbolExpr(a.addSymbol(name, /*fromInputs=*/false), ctx);
  }

  AffineExpr cst(int64_t v) { return getAffineConstantExpr(v, ctx); }

  LogicalResult visit(Operation *op);

private:
  LogicalResult set(Value result, SmallVector<AffineExpr> dims, Operation *op) {
    // The declared type may be more static than the derivation.
    auto t = cast<RankedTensorType>(result.getType());
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (!t.isDynamicDim(d) &&
          failed(a.unify(dims[d], cst(t.getDimSize(d)), op, [&] {
            return "result dim " + std::to_string(d) + " is declared " +
                   std::to_string(t.getDimSize(d)) + " but computes as";
          })))
        return failure();
    a.shapes[result] = std::move(dims);
    return success();
  }

  LogicalResult unifyDims(AffineExpr x, AffineExpr y, Operation *op,
                          const std::string &what) {
    return a.unify(x, y, op, [&] { return what; });
  }

  /// Numpy broadcasting: non-1 dims aligned from the right must be equal.
  FailureOr<SmallVector<AffineExpr>>
  broadcast(Operation *op, ArrayRef<Value> operands, int64_t rank) {
    SmallVector<AffineExpr> out;
    for (int64_t d = 0; d < rank; ++d) {
      AffineExpr first;
      unsigned firstOperand = 0;
      for (auto [i, v] : llvm::enumerate(operands)) {
        auto s = shapeOf(v);
        int64_t od = d - (rank - (int64_t)s.size());
        if (od < 0)
          continue;
        AffineExpr e = a.resolve(s[od]);
        if (constantOf(e) == 1)
          continue;
        if (!first) {
          first = e;
          firstOperand = i;
          continue;
        }
        if (failed(unifyDims(first, e, op,
                             "operand " + std::to_string(firstOperand) +
                                 " and operand " + std::to_string(i) +
                                 " differ in result dim " + std::to_string(d))))
          return failure();
      }
      out.push_back(first ? first : cst(1));
    }
    return out;
  }

  /// floor((in + pads - dilation * (kernel - 1) - 1) / stride) + 1, and
  /// the fact that the dilated kernel fits the padded input (a guard for
  /// sizes only known at run time).
  FailureOr<AffineExpr> window(Operation *op, AffineExpr in, int64_t padBefore,
                               int64_t padAfter, int64_t kernel, int64_t stride,
                               int64_t dilation) {
    int64_t span = dilation * (kernel - 1) + 1;
    if (a.trustFacts &&
        failed(a.addFacts(in + (padBefore + padAfter), span, kNoMax, 1, op)))
      return failure();
    return (in + (padBefore + padAfter - span)).floorDiv(stride) + 1;
  }

  /// The value of one entry of a reshape/broadcast shape operand.
  AffineExpr traceIndex(Value v) {
    if (auto c = v.getDefiningOp<arith::ConstantOp>())
      if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        return cst(i.getInt());
    if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
      return traceIndex(cast.getIn());
    if (auto dim = v.getDefiningOp<tensor::DimOp>())
      if (auto idx = dim.getConstantIndex())
        return shapeOf(dim.getSource())[*idx];
    if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
      AffineExpr l = traceIndex(mul.getLhs()), r = traceIndex(mul.getRhs());
      return l && r ? l * r : AffineExpr();
    }
    if (auto add = v.getDefiningOp<arith::AddIOp>()) {
      AffineExpr l = traceIndex(add.getLhs()), r = traceIndex(add.getRhs());
      return l && r ? l + r : AffineExpr();
    }
    return AffineExpr();
  }

  /// Entries of a shape operand (-1 stays as the constant -1), or empty.
  SmallVector<AffineExpr> traceShape(Value shape, int64_t rank) {
    SmallVector<AffineExpr> out;
    if (!shape)
      return out;
    if (auto c = shape.getDefiningOp<ConstantOp>()) {
      for (APInt v :
           cast<DenseIntElementsAttr>(c.getValue()).getValues<APInt>())
        out.push_back(cst(v.getSExtValue()));
    } else if (auto c = shape.getDefiningOp<arith::ConstantOp>()) {
      if (auto dense = dyn_cast<DenseIntElementsAttr>(c.getValue()))
        for (APInt v : dense.getValues<APInt>())
          out.push_back(cst(v.getSExtValue()));
    } else if (auto fe = shape.getDefiningOp<tensor::FromElementsOp>()) {
      for (Value e : fe.getElements())
        out.push_back(traceIndex(e));
    }
    if ((int64_t)out.size() != rank)
      out.clear();
    return out;
  }

  /// A group's body, its arguments shaped as the group's inputs; the
  /// results as what the body yields.
  LogicalResult visitGroup(fusion::GroupOp group) {
    Operation *op = group.getOperation();
    Block &body = group.getBodyBlock();
    for (auto [arg, in] : llvm::zip(body.getArguments(), group.getInputs()))
      if (isa<RankedTensorType>(arg.getType()))
        a.shapes[arg] = shapeOf(in);
    for (Operation &inner : body.without_terminator())
      if (failed(visit(&inner)))
        return failure();
    auto yield = cast<fusion::YieldOp>(body.getTerminator());
    for (auto [res, v] : llvm::zip(group.getResults(), yield.getValues()))
      if (isa<RankedTensorType>(res.getType()) &&
          failed(set(res, shapeOf(v), op)))
        return failure();
    return success();
  }

  /// The result shaped as `x`.
  LogicalResult visitLike(Operation *op, Value x) {
    return set(op->getResult(0), shapeOf(x), op);
  }

  /// The broadcast of all operands (elementwise ops).
  LogicalResult visitBroadcasting(Operation *op) {
    Value r = op->getResult(0);
    int64_t rank = cast<RankedTensorType>(r.getType()).getRank();
    auto dims = broadcast(op, SmallVector<Value>(op->getOperands()), rank);
    if (failed(dims))
      return failure();
    return set(r, *dims, op);
  }

  /// `x` without (or, with `keep`, with 1 in) the reduced `axes`.
  LogicalResult visitReduce(Operation *op, Value x, ArrayRef<int64_t> axes,
                            bool keep) {
    SmallVector<AffineExpr> in = shapeOf(x), out;
    int64_t xr = in.size();
    SmallVector<bool> reduced(xr, axes.empty());
    for (int64_t ax : axes)
      if (auto n = normalizeAxis(ax, xr))
        reduced[*n] = true;
    for (int64_t d = 0; d < xr; ++d)
      if (!reduced[d])
        out.push_back(in[d]);
      else if (keep)
        out.push_back(cst(1));
    return set(op->getResult(0), out, op);
  }

  /// A norm: `x`'s shape, each parameter's dims equal to x's from `axis`.
  LogicalResult
  visitTrailingParams(Operation *op, Value x, int64_t axis,
                      ArrayRef<std::pair<StringRef, Value>> params) {
    SmallVector<AffineExpr> xs = shapeOf(x);
    int64_t first = *normalizeAxis(axis, xs.size());
    for (auto [name, p] : params) {
      if (!p)
        continue;
      SmallVector<AffineExpr> ps = shapeOf(p);
      for (size_t i = 0; i < ps.size(); ++i)
        if (failed(unifyDims(ps[i], xs[first + i], op,
                             name.str() + " dim " + std::to_string(i) +
                                 " and x dim " + std::to_string(first + i) +
                                 " differ")))
          return failure();
    }
    return visitLike(op, x);
  }

  LogicalResult visitBatchNorm(BatchNormOp n) {
    Operation *op = n.getOperation();
    Value r = op->getResult(0);
    return visitTrailingParams(op, n.getX(), 1, {}).succeeded()
               ? [&]() -> LogicalResult {
                   AffineExpr c = shapeOf(n.getX())[n.getAxis()];
                   for (auto [name, p] :
                        {std::pair<StringRef, Value>{"scale", n.getScale()},
                         {"bias", n.getBias()},
                         {"mean", n.getMean()},
                         {"var", n.getVar()}})
                     if (failed(unifyDims(shapeOf(p)[0], c, op,
                                          name.str() +
                                              " size and x's channels "
                                              "(dim " +
                                              std::to_string(
                                                  n.getAxis()) +
                                              ") differ")))
                       return failure();
                   return success();
                 }()
               : failure();
  }

  LogicalResult visitLinear(LinearOp l) {
    Operation *op = l.getOperation();
    Value r = op->getResult(0);
    SmallVector<AffineExpr> x = shapeOf(l.getX()), w = shapeOf(l.getWeight());
    if (failed(unifyDims(x.back(), w[1], op,
                         "x's features (last dim) and weight dim 1 differ")))
      return failure();
    if (Value b = l.getBias())
      if (failed(unifyDims(shapeOf(b)[0], w[0], op,
                           "bias size and weight dim 0 differ")))
        return failure();
    SmallVector<AffineExpr> out(x.begin(), x.end() - 1);
    out.push_back(w[0]);
    return set(r, out, op);
  }

  LogicalResult visitMatmul(MatmulOp m) {
    Operation *op = m.getOperation();
    Value r = op->getResult(0);
    int64_t rank = cast<RankedTensorType>(r.getType()).getRank();
    SmallVector<AffineExpr> sa = shapeOf(m.getA()), sb = shapeOf(m.getB());
    if (failed(unifyDims(sa.back(), sb[sb.size() - 2], op,
                         "contracting dims differ (a's last dim vs b's "
                         "second to last)")))
      return failure();
    SmallVector<AffineExpr> out;
    int64_t batch = rank - 2;
    for (int64_t d = 0; d < batch; ++d) {
      AffineExpr first;
      for (auto *s : {&sa, &sb}) {
        int64_t od = d - (batch - ((int64_t)s->size() - 2));
        if (od < 0)
          continue;
        AffineExpr e = a.resolve((*s)[od]);
        if (constantOf(e) == 1)
          continue;
        if (!first)
          first = e;
        else if (failed(unifyDims(first, e, op,
                                  "batch dim " + std::to_string(d) +
                                      " of a and b differ")))
          return failure();
      }
      out.push_back(first ? first : cst(1));
    }
    out.push_back(sa[sa.size() - 2]);
    out.push_back(sb.back());
    return set(r, out, op);
  }

  LogicalResult visitConv2d(Conv2dOp c) {
    Operation *op = c.getOperation();
    Value r = op->getResult(0);
    SmallVector<AffineExpr> x = shapeOf(c.getX()), w = shapeOf(c.getWeight());
    LayoutDims d = layoutDims(c.isChannelsLast());
    if (failed(unifyDims(x[d.c], w[d.c] * c.getGroups(), op,
                         "x's channels and the weight's input channels "
                         "times groups differ")))
      return failure();
    if (Value b = c.getBias())
      if (failed(unifyDims(shapeOf(b)[0], w[0], op,
                           "bias size and output channels differ")))
        return failure();
    // Copies: the defaults are temporaries.
    SmallVector<int64_t, 2> strides(
        c.getStrides().value_or(ArrayRef<int64_t>{1, 1}));
    SmallVector<int64_t, 2> dil(
        c.getDilations().value_or(ArrayRef<int64_t>{1, 1}));
    SmallVector<int64_t> p(c.getPadding().value_or(ArrayRef<int64_t>{0, 0}));
    if (p.size() == 2)
      p = {p[0], p[1], p[0], p[1]};
    SmallVector<AffineExpr> out(4);
    out[d.n] = x[d.n];
    out[d.c] = w[0];
    for (int i = 0; i < 2; ++i) {
      int64_t s = d.spatial(i);
      auto k = constantOf(a.resolve(w[s]));
      if (!k) {
        out[s] = fresh();
        continue;
      }
      FailureOr<AffineExpr> size =
          window(op, x[s], p[i], p[i + 2], *k, strides[i], dil[i]);
      if (failed(size))
        return failure();
      out[s] = *size;
    }
    return set(r, out, op);
  }

  LogicalResult visitPool(Operation *op) {
    Value r = op->getResult(0);
    ArrayRef<int64_t> k;
    SmallVector<int64_t> strides, p;
    bool channelsLast;
    if (auto m = dyn_cast<MaxPool2dOp>(op)) {
      k = m.getKernelSize();
      strides = m.getStridesOrDefault();
      p = m.getPaddingOrDefault();
      channelsLast = m.isChannelsLast();
    } else {
      auto v = cast<AvgPool2dOp>(op);
      k = v.getKernelSize();
      strides = v.getStridesOrDefault();
      p = v.getPaddingOrDefault();
      channelsLast = v.isChannelsLast();
    }
    LayoutDims d = layoutDims(channelsLast);
    SmallVector<AffineExpr> x = shapeOf(op->getOperand(0));
    SmallVector<AffineExpr> out = x;
    for (int i = 0; i < 2; ++i) {
      FailureOr<AffineExpr> size =
          window(op, x[d.spatial(i)], p[i], p[i + 2], k[i], strides[i], 1);
      if (failed(size))
        return failure();
      out[d.spatial(i)] = *size;
    }
    return set(r, out, op);
  }

  LogicalResult visitAttention(AttentionOp at) {
    Operation *op = at.getOperation();
    Value r = op->getResult(0);
    int64_t rank = cast<RankedTensorType>(r.getType()).getRank();
    SmallVector<AffineExpr> q = shapeOf(at.getQ()), k = shapeOf(at.getK()),
                            v = shapeOf(at.getV());
    for (int64_t d = 0; d + 2 < rank; ++d)
      if (failed(unifyDims(q[d], k[d], op,
                           "q and k differ in dim " + std::to_string(d))) ||
          failed(unifyDims(q[d], v[d], op,
                           "q and v differ in dim " + std::to_string(d))))
        return failure();
    if (failed(unifyDims(q.back(), k.back(), op, "q and k head dims differ")) ||
        failed(unifyDims(k[rank - 2], v[rank - 2], op,
                         "k and v sequence lengths differ")))
      return failure();
    if (Value mask = at.getMask()) {
      SmallVector<AffineExpr> scores(q.begin(), q.end() - 1), m = shapeOf(mask);
      scores.push_back(k[rank - 2]);
      for (size_t i = 0; i < m.size(); ++i) {
        AffineExpr e = a.resolve(m[i]);
        if (constantOf(e) == 1)
          continue;
        int64_t sd = scores.size() - m.size() + i;
        if (failed(unifyDims(e, scores[sd], op,
                             "mask dim " + std::to_string(i) +
                                 " and the scores' dim " + std::to_string(sd) +
                                 " differ")))
          return failure();
      }
    }
    SmallVector<AffineExpr> out(q.begin(), q.end() - 1);
    out.push_back(v.back());
    return set(r, out, op);
  }

  LogicalResult visitBroadcastTo(BroadcastToOp b) {
    Operation *op = b.getOperation();
    Value r = op->getResult(0);
    int64_t rank = cast<RankedTensorType>(r.getType()).getRank();
    auto rt = b.getType();
    SmallVector<AffineExpr> x = shapeOf(b.getX());
    SmallVector<AffineExpr> traced = traceShape(b.getShape(), rank);
    SmallVector<AffineExpr> out;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t xd = d - (rank - (int64_t)x.size());
      AffineExpr in = xd >= 0 ? a.resolve(x[xd]) : AffineExpr();
      AffineExpr e;
      if (!rt.isDynamicDim(d))
        e = cst(rt.getDimSize(d));
      else if (!traced.empty() && traced[d])
        e = traced[d];
      else if (!b.getShape() && in)
        e = in;
      else
        e = fresh();
      if (in && constantOf(in) != 1 &&
          failed(unifyDims(in, e, op,
                           "x dim " + std::to_string(xd) +
                               " does not broadcast to result dim " +
                               std::to_string(d))))
        return failure();
      out.push_back(e);
    }
    return set(r, out, op);
  }

  LogicalResult visitConcat(ConcatOp c) {
    Operation *op = c.getOperation();
    Value r = op->getResult(0);
    int64_t rank = cast<RankedTensorType>(r.getType()).getRank();
    int64_t axis = *normalizeAxis(c.getAxis(), rank);
    SmallVector<AffineExpr> out = shapeOf(c.getInputs()[0]);
    for (auto [i, in] : llvm::enumerate(c.getInputs().drop_front())) {
      SmallVector<AffineExpr> s = shapeOf(in);
      for (int64_t d = 0; d < rank; ++d) {
        if (d == axis) {
          out[d] = out[d] + s[d];
          continue;
        }
        if (failed(unifyDims(out[d], s[d], op,
                             "input 0 and input " + std::to_string(i + 1) +
                                 " differ in dim " + std::to_string(d))))
          return failure();
      }
    }
    return set(r, out, op);
  }

  LogicalResult visitMaskSelect(MaskSelectOp m) {
    Operation *op = m.getOperation();
    Value r = op->getResult(0);
    // The mask covers x's leading dims; the count is known only at run
    // time (a fresh symbol), the rows keep x's trailing dims.
    SmallVector<AffineExpr> x = shapeOf(m.getX()), mask = shapeOf(m.getMask());
    for (size_t d = 0; d < mask.size() && d < x.size(); ++d)
      if (failed(unifyDims(mask[d], x[d], op,
                           "mask dim " + std::to_string(d) + " and x dim " +
                               std::to_string(d) + " differ")))
        return failure();
    SmallVector<AffineExpr> out = {fresh()};
    out.append(x.begin() + std::min(mask.size(), x.size()), x.end());
    return set(r, out, op);
  }

  LogicalResult visitReshape(ReshapeOp op) {
    auto rt = op.getType();
    SmallVector<AffineExpr> in = shapeOf(op.getX());
    SmallVector<AffineExpr> traced = traceShape(op.getShape(), rt.getRank());
    SmallVector<AffineExpr> out;
    int64_t inferred = -1;
    for (int64_t d = 0; d < rt.getRank(); ++d) {
      AffineExpr e;
      if (!rt.isDynamicDim(d))
        e = cst(rt.getDimSize(d));
      else if (!traced.empty() && traced[d] && constantOf(traced[d]) != -1)
        e = traced[d];
      else if (inferred < 0 && (traced.empty() ? true : (bool)traced[d]))
        inferred = d; // -1, or the one dynamic dim without a shape operand
      else
        e = fresh();
      out.push_back(e);
    }
    AffineExpr numelIn = cst(1);
    for (AffineExpr e : in)
      numelIn = numelIn * e;
    numelIn = a.resolve(numelIn);
    if (inferred >= 0) {
      // numel(in) / product(other dims), when both are monomials.
      AffineExpr known = cst(1);
      for (int64_t d = 0; d < rt.getRank(); ++d)
        if (d != inferred)
          known = known * out[d];
      auto num = asMonomial(numelIn), den = asMonomial(a.resolve(known));
      AffineExpr q;
      if (num && den && den->coefficient != 0 &&
          num->coefficient % den->coefficient == 0) {
        SmallVector<unsigned> rest = num->symbols;
        bool ok = true;
        for (unsigned s : den->symbols) {
          auto it = llvm::find(rest, s);
          if (it == rest.end()) {
            ok = false;
            break;
          }
          rest.erase(it);
        }
        if (ok) {
          q = cst(num->coefficient / den->coefficient);
          for (unsigned s : rest)
            q = q * getAffineSymbolExpr(s, ctx);
        }
      }
      out[inferred] = q ? q : fresh();
    }
    AffineExpr numelOut = cst(1);
    for (AffineExpr e : out)
      numelOut = numelOut * e;
    if (failed(unifyDims(numelIn, numelOut, op,
                         "reshape changes the number of elements")))
      return failure();
    return set(op.getResult(), out, op);
  }

  LogicalResult visitSlice(SliceOp op) {
    SmallVector<AffineExpr> in = shapeOf(op.getX()), out;
    auto steps = op.getStepsOrDefault();
    for (size_t d = 0; d < in.size(); ++d) {
      AffineExpr n = a.resolve(in[d]);
      int64_t s = op.getStarts()[d], e = op.getEnds()[d], step = steps[d];
      if (auto c = constantOf(n)) {
        auto clamp = [&](int64_t v) {
          if (v < 0)
            v = v < -*c ? 0 : v + *c;
          return std::min(v, *c);
        };
        int64_t cs = clamp(s), ce = clamp(e);
        out.push_back(cst(ce > cs ? (ce - cs + step - 1) / step : 0));
        continue;
      }
      // Exact only when the clamps provably do not apply.
      int64_t lo = a.bounds(n).first;
      bool toEnd = e >= INT64_MAX / 2;
      AffineExpr size;
      if (s >= 0 && toEnd && lo >= s)
        size = (n - s).ceilDiv(step);
      else if (s >= 0 && e >= 0 && lo >= e)
        size = cst(e > s ? (e - s + step - 1) / step : 0);
      else if (s < 0 && toEnd && lo >= -s)
        size = cst((-s + step - 1) / step);
      else if (s >= 0 && e < 0 && !toEnd && lo >= s - e)
        size = (n + e - s).ceilDiv(step);
      else if (s < 0 && e < 0 && lo >= -s)
        size = cst(e > s ? (e - s + step - 1) / step : 0);
      out.push_back(size ? size : fresh());
    }
    return set(op.getResult(), out, op);
  }

  SymbolicShapeAnalysis &a;
  MLIRContext *ctx;
  unsigned nextUnknown = 0;
};

/// Derives the shape of `op`'s result from its operands' (one case per op
/// family; the larger ones are methods of their own).
LogicalResult SymbolicShapeAnalysis::Deriver::visit(Operation *op) {
  if (auto group = dyn_cast<fusion::GroupOp>(op))
    return visitGroup(group);
  // Recurrences (y and the states) and sort (values and indices) are the
  // multi-result ops with a rule.
  if (!isa<LSTMOp, GRUOp, RNNOp, SortOp, TopKOp>(op) &&
      (op->getNumResults() != 1 ||
       !isa<RankedTensorType>(op->getResult(0).getType()))) {
    for (Value r : op->getResults())
      shapeOf(r);
    return success();
  }
  Value r = op->getResult(0);
  if (isBinaryElementwise(op))
    return visitBroadcasting(op);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<CmpOp, SelectOp>([&](Operation *) { return visitBroadcasting(op); })
      .Case<GeluOp, CastOp, SoftmaxOp, LogSoftmaxOp>(
          [&](Operation *) { return visitLike(op, op->getOperand(0)); })
      .Case([&](LayerNormOp n) {
        return visitTrailingParams(
            op, n.getX(), n.getAxis(),
            {{"weight", n.getWeight()}, {"bias", n.getBias()}});
      })
      .Case([&](RmsNormOp n) {
        return visitTrailingParams(op, n.getX(), n.getAxis(),
                                   {{"weight", n.getWeight()}});
      })
      .Case([&](BatchNormOp n) { return visitBatchNorm(n); })
      .Case([&](ReduceSumOp o) {
        return visitReduce(op, o.getX(), o.getAxes(), o.getKeepDims());
      })
      .Case([&](ReduceMeanOp o) {
        return visitReduce(op, o.getX(), o.getAxes(), o.getKeepDims());
      })
      .Case([&](ReduceMaxOp o) {
        return visitReduce(op, o.getX(), o.getAxes(), o.getKeepDims());
      })
      .Case([&](ReduceMinOp o) {
        return visitReduce(op, o.getX(), o.getAxes(), o.getKeepDims());
      })
      .Case([&](ReduceProdOp o) {
        return visitReduce(op, o.getX(), o.getAxes(), o.getKeepDims());
      })
      .Case([&](LinearOp l) { return visitLinear(l); })
      .Case([&](MatmulOp m) { return visitMatmul(m); })
      .Case([&](Conv2dOp c) { return visitConv2d(c); })
      .Case<MaxPool2dOp, AvgPool2dOp>(
          [&](Operation *) { return visitPool(op); })
      .Case([&](AttentionOp at) { return visitAttention(at); })
      .Case([&](TransposeOp t) {
        SmallVector<AffineExpr> x = shapeOf(t.getX()), out;
        for (int64_t p : t.getPermutation())
          out.push_back(x[p]);
        return set(r, out, op);
      })
      .Case([&](ReshapeOp re) { return visitReshape(re); })
      .Case([&](BroadcastToOp b) { return visitBroadcastTo(b); })
      .Case([&](ConcatOp c) { return visitConcat(c); })
      .Case([&](SliceOp s) { return visitSlice(s); })
      .Case([&](GatherOp g) {
        SmallVector<AffineExpr> x = shapeOf(g.getX()),
                                idx = shapeOf(g.getIndices());
        int64_t axis = *normalizeAxis(g.getAxis(), x.size());
        SmallVector<AffineExpr> out(x.begin(), x.begin() + axis);
        llvm::append_range(out, idx);
        out.append(x.begin() + axis + 1, x.end());
        return set(r, out, op);
      })
      .Case([&](GatherElementsOp g) { return visitLike(op, g.getIndices()); })
      .Case([&](CumsumOp c) { return visitLike(op, c.getX()); })
      .Case([&](TopKOp tk) -> LogicalResult {
        SmallVector<AffineExpr> out = shapeOf(tk.getX());
        out[*normalizeAxis(tk.getAxis(), out.size())] = cst(tk.getK());
        if (failed(set(tk.getValues(), out, op)))
          return failure();
        return set(tk.getIndices(), out, op);
      })
      .Case([&](SortOp so) -> LogicalResult {
        if (failed(visitLike(op, so.getX())))
          return failure();
        return set(so.getIndices(), shapeOf(so.getX()), op);
      })
      .Case([&](GridSampleOp g) -> LogicalResult {
        SmallVector<AffineExpr> x = shapeOf(g.getX()),
                                grid = shapeOf(g.getGrid());
        AffineExpr batch = a.resolve(x[0]);
        if (failed(unifyDims(batch, a.resolve(grid[0]), op,
                             "x's batch (dim 0) differs from the grid's")))
          return failure();
        return set(r, {batch, x[1], grid[1], grid[2]}, op);
      })
      .Case<ScatterElementsOp, ScatterNDOp>(
          [&](Operation *) { return visitLike(op, op->getOperand(0)); })
      .Case<LSTMOp, GRUOp, RNNOp>([&](Operation *) -> LogicalResult {
        // Operands x, w_ih, w_hh, then biases: h0 is operand 5 of a GRU
        // (two biases), 4 otherwise.
        Value x = op->getOperand(0), whh = op->getOperand(2);
        Value h0 = op->getOperand(isa<GRUOp>(op) ? 5 : 4);
        SmallVector<AffineExpr> xs = shapeOf(x), h0s = shapeOf(h0);
        AffineExpr batch = a.resolve(xs[1]);
        if (failed(unifyDims(batch, a.resolve(h0s[0]), op,
                             "x's batch (dim 1) differs from h0's (dim 0)")))
          return failure();
        AffineExpr hidden =
            cst(cast<RankedTensorType>(whh.getType()).getDimSize(1));
        if (failed(set(op->getResult(0), {xs[0], batch, hidden}, op)))
          return failure();
        for (Value r : op->getResults().drop_front())
          if (failed(set(r, {batch, hidden}, op)))
            return failure();
        return success();
      })
      .Case([&](IotaOp i) {
        // The length: static from the type, else what the shape operand
        // traces to (a fresh symbol when it is computed at run time).
        SmallVector<AffineExpr> traced = traceShape(i.getShape(), 1);
        AffineExpr len = !i.getType().isDynamicDim(0)
                             ? cst(i.getType().getDimSize(0))
                         : (!traced.empty() && traced[0]) ? traced[0]
                                                          : fresh();
        return set(r, {len}, op);
      })
      .Case([&](MaskSelectOp m) { return visitMaskSelect(m); })
      .Case([&](NonzeroOp n) {
        SmallVector<AffineExpr> out = {fresh(),
                                       cst((int64_t)shapeOf(n.getX()).size())};
        return set(r, out, op);
      })
      .Case([&](NmsOp n) -> LogicalResult {
        // Boxes [B, N, 4] and scores [B, C, N] share B and N; the count of
        // selected boxes is known only at run time.
        SmallVector<AffineExpr> boxes = shapeOf(n.getBoxes()),
                                scores = shapeOf(n.getScores());
        if (failed(unifyDims(boxes[0], scores[0], op,
                             "boxes dim 0 and scores dim 0 differ")) ||
            failed(unifyDims(boxes[1], scores[2], op,
                             "boxes dim 1 and scores dim 2 differ")))
          return failure();
        return set(r, {fresh(), cst(3)}, op);
      })
      .Case([&](tensor::CastOp c) { return visitLike(op, c.getSource()); })
      .Default([&](Operation *) {
        // tcc's unary ops: the operand's shape.
        if (isUnaryElementwise(op))
          return visitLike(op, op->getOperand(0));
        // Unknown to the analysis (or data-dependent): static dims from the
        // type, run-time symbols for the rest.
        shapeOf(r);
        return success();
      });
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

FailureOr<SymbolicShapeAnalysis>
SymbolicShapeAnalysis::run(func::FuncOp func,
                           ArrayRef<std::pair<std::string, int64_t>> fixed) {
  MLIRContext *ctx = func.getContext();
  SymbolicShapeAnalysis a(ctx);
  Deriver deriver(a);

  // Named dims first, so that unnamed ones get names that do not collide.
  SmallVector<SmallVector<AffineExpr>> argDims(func.getNumArguments());
  SmallVector<std::string> userNames;
  for (BlockArgument arg : func.getArguments()) {
    auto t = dyn_cast<RankedTensorType>(arg.getType());
    auto attr =
        func.getArgAttrOfType<ShapeAttr>(arg.getArgNumber(), kShapeAttr);
    if (!attr)
      continue;
    if (!t || attr.getRank() != t.getRank())
      return func.emitError()
             << "argument " << arg.getArgNumber() << ": #tcc.shape has "
             << attr.getRank() << " dims but the type is " << arg.getType();
    argDims[arg.getArgNumber()] = attr.getDims(userNames);
  }
  for (const std::string &n : userNames)
    a.symbols[a.addSymbol(n, /*fromInputs=*/true)].userNamed = true;
  unsigned nextAuto = 0;
  for (BlockArgument arg : func.getArguments()) {
    auto t = dyn_cast<RankedTensorType>(arg.getType());
    if (!t)
      continue;
    unsigned i = arg.getArgNumber();
    if (argDims[i].empty()) {
      for (int64_t d = 0; d < t.getRank(); ++d) {
        if (!t.isDynamicDim(d)) {
          argDims[i].push_back(deriver.cst(t.getDimSize(d)));
          continue;
        }
        std::string name;
        do {
          name = "s" + std::to_string(nextAuto++);
        } while (llvm::is_contained(a.names, name));
        argDims[i].push_back(getAffineSymbolExpr(a.addSymbol(name, true), ctx));
      }
    } else {
      for (int64_t d = 0; d < t.getRank(); ++d) {
        AffineExpr e = argDims[i][d];
        // An expression must be over names that some argument dim is:
        // the entry guards compute it from those dims.
        bool defined = true;
        e.walk([&](AffineExpr sub) {
          auto sym = dyn_cast<AffineSymbolExpr>(sub);
          if (!sym || isa<AffineSymbolExpr>(e))
            return;
          defined &= llvm::any_of(argDims, [&](ArrayRef<AffineExpr> dims) {
            return llvm::is_contained(dims, sub);
          });
        });
        if (!defined)
          return func.emitError()
                 << "argument " << i << " dim " << d << ": " << a.str(e)
                 << " uses a name that no argument dim is";
        if (!t.isDynamicDim(d) &&
            failed(a.unify(e, deriver.cst(t.getDimSize(d)), func, [&] {
              return "argument " + std::to_string(i) + " dim " +
                     std::to_string(d) +
                     " is named but its "
                     "type says";
            })))
          return failure();
      }
    }
    a.shapes[arg] = argDims[i];
  }

  // Constraints, then specializations.
  // Facts are only trusted where the entry guards check them: on public
  // functions (entry points). A private function's constraints and
  // specializations are ignored; its callers' sizes are not checked.
  a.trustFacts = func.isPublic();
  auto list = func->getAttrOfType<ArrayAttr>(kConstraintsAttr);
  if (list && a.trustFacts) {
    for (Attribute c : list) {
      auto s = dyn_cast<StringAttr>(c);
      if (!s)
        return func.emitError() << "tcc.constraints must be strings";
      SmallVector<std::string> names = a.names;
      std::string error;
      FailureOr<SymbolConstraint> parsed =
          parseSymbolConstraint(s.getValue(), ctx, names, error);
      if (failed(parsed))
        return func.emitError() << error;
      if (names.size() != a.names.size())
        return func.emitError()
               << "constraint '" << s.getValue() << "' names "
               << names[a.names.size()] << ", which no argument dim is";
      LogicalResult ok = success();
      switch (parsed->kind) {
      case SymbolConstraint::Kind::Range:
        ok = a.addFacts(parsed->lhs, parsed->min, parsed->max, 1, func);
        break;
      case SymbolConstraint::Kind::Divisible:
        ok = a.addFacts(parsed->lhs, INT64_MIN, kNoMax, parsed->divisor, func);
        break;
      case SymbolConstraint::Kind::Equal:
        ok = a.unify(parsed->lhs, parsed->rhs, func, [&] {
          return "constraint '" + s.getValue().str() + "' contradicts";
        });
        break;
      }
      if (failed(ok))
        return failure();
    }
  }
  for (auto &[name, value] : fixed) {
    if (!a.trustFacts)
      break;
    auto it = llvm::find(a.names, name);
    if (it == a.names.end())
      return func.emitError() << "cannot specialize " << name
                              << ": no argument dim is named so (names: "
                              << llvm::join(a.names, ", ") << ")";
    if (failed(a.unify(getAffineSymbolExpr(it - a.names.begin(), ctx),
                       deriver.cst(value), func,
                       [&] { return "specializing " + name; })))
      return failure();
  }

  for (Operation &op : func.getBody().front()) {
    if (failed(deriver.visit(&op)))
      return failure();
    if (auto ret = dyn_cast<func::ReturnOp>(op))
      for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
        auto t = dyn_cast<RankedTensorType>(func.getResultTypes()[i]);
        if (!t)
          continue;
        SmallVector<AffineExpr> s = deriver.shapeOf(v);
        for (int64_t d = 0; d < t.getRank(); ++d)
          if (!t.isDynamicDim(d) &&
              failed(a.unify(s[d], deriver.cst(t.getDimSize(d)), &op, [&] {
                return "result " + std::to_string(i) + " dim " +
                       std::to_string(d) + " is declared " +
                       std::to_string(t.getDimSize(d)) + " but computes as";
              })))
            return failure();
      }
  }
  if (failed(a.checkResolvedFacts(func)))
    return failure();
  return a;
}

LogicalResult SymbolicShapeAnalysis::checkResolvedFacts(Operation *where) {
  for (const ExprFact &f : exprFacts) {
    AffineExpr e = resolve(f.expr);
    if (auto c = constantOf(e)) {
      if (*c < f.min || *c > f.max)
        return where->emitError() << str(f.expr) << " = " << *c << " outside "
                                  << rangeStr(f.min, f.max);
      if (*c % f.divisor != 0)
        return where->emitError() << str(f.expr) << " = " << *c
                                  << " is not a multiple of " << f.divisor;
    }
  }
  for (auto [l, r] : equalities) {
    auto lc = constantOf(resolve(l)), rc = constantOf(resolve(r));
    if (lc && rc && *lc != *rc)
      return where->emitError() << str(l) << " == " << str(r)
                                << " cannot hold: " << *lc << " vs " << *rc;
  }
  return success();
}

SmallVector<AffineExpr> SymbolicShapeAnalysis::getShape(Value v) {
  SmallVector<AffineExpr> out;
  auto it = shapes.find(v);
  if (it == shapes.end())
    return out;
  for (AffineExpr e : it->second)
    out.push_back(resolve(e));
  return out;
}

//===----------------------------------------------------------------------===//
// Writing the result back
//===----------------------------------------------------------------------===//

static RankedTensorType refined(RankedTensorType t, ArrayRef<AffineExpr> dims) {
  SmallVector<int64_t> shape(t.getShape());
  for (size_t d = 0; d < shape.size(); ++d)
    if (auto c = constantOf(dims[d]))
      shape[d] = *c;
  return RankedTensorType::get(shape, t.getElementType(), t.getEncoding());
}

void SymbolicShapeAnalysis::annotate(func::FuncOp func) {
  Builder b(ctx);
  // Only a public function's signature is refined (an entry point: nothing
  // in the module calls it); ops that do not know tcc's types (func.call,
  // scf, arith on tensors) keep seeing the old type through a tensor.cast.
  bool refineSignature = func.isPublic();
  auto castBackForeignUses = [&](Value v, Type oldType) {
    if (v.getType() == oldType)
      return;
    SmallVector<OpOperand *> foreign;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      bool knows = isa<TCCDialect, fusion::FusionDialect>(user->getDialect()) ||
                   isa<tensor::DimOp>(user) ||
                   (isa<func::ReturnOp>(user) && refineSignature);
      if (!knows)
        foreign.push_back(&use);
    }
    if (foreign.empty())
      return;
    OpBuilder builder(ctx);
    if (auto arg = dyn_cast<BlockArgument>(v))
      builder.setInsertionPointToStart(arg.getOwner());
    else
      builder.setInsertionPointAfter(v.getDefiningOp());
    Value cast = tensor::CastOp::create(builder, v.getLoc(), oldType, v);
    for (OpOperand *use : foreign)
      use->set(cast);
  };
  auto refine = [&](Value v) -> SmallVector<AffineExpr> {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    SmallVector<AffineExpr> dims = getShape(v);
    if (!t || dims.size() != (size_t)t.getRank())
      return {};
    v.setType(refined(t, dims));
    castBackForeignUses(v, t);
    return dims;
  };
  auto hasSymbol = [](ArrayRef<AffineExpr> dims) {
    return llvm::any_of(dims, [](AffineExpr e) { return !constantOf(e); });
  };

  for (BlockArgument arg : func.getArguments()) {
    // Named dims that became constants (specialization, a declared size)
    // keep their names for the entry guards' messages.
    if (auto raw = shapes.find(arg); raw != shapes.end()) {
      SmallVector<Attribute> dimNames;
      bool anyNamed = false;
      for (AffineExpr e : raw->second) {
        auto sym = dyn_cast<AffineSymbolExpr>(e);
        bool named = sym && symbols[sym.getPosition()].userNamed &&
                     constantOf(resolve(e));
        dimNames.push_back(
            b.getStringAttr(named ? names[sym.getPosition()] : ""));
        anyNamed |= named;
      }
      if (auto old = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                      kDimNamesAttr);
          old && old.size() == dimNames.size())
        for (auto [i, o] : llvm::enumerate(old))
          if (!cast<StringAttr>(o).getValue().empty()) {
            dimNames[i] = o;
            anyNamed = true;
          }
      if (anyNamed)
        func.setArgAttr(arg.getArgNumber(), kDimNamesAttr,
                        b.getArrayAttr(dimNames));
    }
    SmallVector<AffineExpr> dims =
        refineSignature ? refine(arg) : getShape(arg);
    if (!dims.empty() &&
        (hasSymbol(dims) || func.getArgAttr(arg.getArgNumber(), kShapeAttr)))
      func.setArgAttr(arg.getArgNumber(), kShapeAttr,
                      ShapeAttr::get(ctx, dims, names));
  }
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (op != func.getOperation())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (isa<tensor::CastOp>(op) && !shapes.count(op->getResult(0)))
      continue; // inserted above
    // A group's block arguments take its inputs' (possibly refined) types.
    if (auto group = dyn_cast<fusion::GroupOp>(op))
      for (auto [arg, in] :
           llvm::zip(group.getBodyBlock().getArguments(), group.getInputs()))
        arg.setType(in.getType());
    // Results of ops that do not infer tcc's types keep theirs.
    bool ours = isa<TCCDialect, fusion::FusionDialect>(op->getDialect());
    SmallVector<Attribute> attrs;
    bool any = false;
    for (Value r : op->getResults()) {
      SmallVector<AffineExpr> dims = ours ? refine(r) : getShape(r);
      if (dims.empty()) {
        attrs.push_back(b.getUnitAttr());
        continue;
      }
      any |= hasSymbol(dims);
      attrs.push_back(ShapeAttr::get(ctx, dims, names));
    }
    if (!any)
      continue;
    if (attrs.size() == 1)
      op->setAttr(kShapeAttr, attrs[0]);
    else
      op->setAttr(kShapesAttr, b.getArrayAttr(attrs));
  }
  // Returned values may now be more static than the declared results.
  if (refineSignature) {
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    func.setType(FunctionType::get(ctx, func.getBody().getArgumentTypes(),
                                   ret.getOperandTypes()));
  }

  // Canonical constraints over the symbols that remain.
  SmallVector<Attribute> constraints;
  auto add = [&](const std::string &s) {
    Attribute attr = b.getStringAttr(s);
    if (!llvm::is_contained(constraints, attr))
      constraints.push_back(attr);
  };
  for (auto [i, s] : llvm::enumerate(symbols)) {
    if (binding[i] || !s.fromInputs)
      continue;
    if (s.min > 0 && s.max != kNoMax)
      add(std::to_string(s.min) + " <= " + s.name +
          " <= " + std::to_string(s.max));
    else if (s.min > 0)
      add(s.name + " >= " + std::to_string(s.min));
    else if (s.max != kNoMax)
      add(s.name + " <= " + std::to_string(s.max));
    if (s.divisor > 1)
      add(s.name + " % " + std::to_string(s.divisor) + " == 0");
  }
  for (ExprFact &f : exprFacts) {
    AffineExpr e = resolve(f.expr);
    if (constantOf(e) || !isInputExpr(e))
      continue;
    if (f.min != INT64_MIN && f.max != kNoMax)
      add(std::to_string(f.min) + " <= " + str(e) +
          " <= " + std::to_string(f.max));
    else if (f.min != INT64_MIN)
      add(str(e) + " >= " + std::to_string(f.min));
    else if (f.max != kNoMax)
      add(str(e) + " <= " + std::to_string(f.max));
    if (f.divisor > 1)
      add("(" + str(e) + ") % " + std::to_string(f.divisor) + " == 0");
  }
  for (auto [l, r] : equalities) {
    AffineExpr lr = resolve(l), rr = resolve(r);
    if (lr != rr && isInputExpr(lr) && isInputExpr(rr))
      add(str(lr) + " == " + str(rr));
  }
  if (constraints.empty())
    func->removeAttr(kConstraintsAttr);
  else
    func->setAttr(kConstraintsAttr, b.getArrayAttr(constraints));
}

//===----------------------------------------------------------------------===//
// Reading annotations downstream
//===----------------------------------------------------------------------===//

std::optional<SmallVector<AffineExpr>>
mlir::tcc::readShapeAnnotation(Value v, SmallVectorImpl<std::string> &names) {
  ShapeAttr attr;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      attr = func.getArgAttrOfType<ShapeAttr>(arg.getArgNumber(), kShapeAttr);
  } else if (Operation *op = v.getDefiningOp()) {
    if (op->getNumResults() == 1)
      attr = op->getAttrOfType<ShapeAttr>(kShapeAttr);
    else if (auto list = op->getAttrOfType<ArrayAttr>(kShapesAttr))
      attr = dyn_cast<ShapeAttr>(list[cast<OpResult>(v).getResultNumber()]);
  }
  if (!attr)
    return std::nullopt;
  return attr.getDims(names);
}

/// The parsed constraints codegen may rely on: an entry point's only (its
/// guards check them); a private function's are unchecked, so none.
static SmallVector<SymbolConstraint>
trustedConstraints(func::FuncOp func, SmallVectorImpl<std::string> &names) {
  SmallVector<SymbolConstraint> out;
  auto list = func->getAttrOfType<ArrayAttr>(kConstraintsAttr);
  if (!list || !func.isPublic())
    return out;
  for (Attribute attr : list) {
    std::string error;
    auto text = dyn_cast<StringAttr>(attr);
    if (!text)
      continue;
    auto c =
        parseSymbolConstraint(text.getValue(), func.getContext(), names, error);
    if (succeeded(c))
      out.push_back(*c);
  }
  return out;
}

int64_t mlir::tcc::knownDivisor(AffineExpr e, func::FuncOp func,
                                SmallVectorImpl<std::string> &names) {
  if (auto c = constantOf(e))
    return *c == 0 ? 0 : std::abs(*c);
  if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
    int64_t k = 1;
    for (const SymbolConstraint &c : trustedConstraints(func, names))
      if (c.kind == SymbolConstraint::Kind::Divisible && c.lhs == e)
        k = std::lcm(k, c.divisor);
    return k;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return 1;
  int64_t l = knownDivisor(bin.getLHS(), func, names);
  int64_t r = knownDivisor(bin.getRHS(), func, names);
  if (e.getKind() == AffineExprKind::Mul)
    return l * r == 0 ? 1 : l * r;
  if (e.getKind() == AffineExprKind::Add)
    return std::gcd(l, r) == 0 ? 1 : std::gcd(l, r);
  return 1;
}

std::pair<int64_t, int64_t>
mlir::tcc::sizeBounds(AffineExpr e, func::FuncOp func,
                      SmallVectorImpl<std::string> &names) {
  if (auto c = constantOf(e))
    return {*c, *c};
  if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
    int64_t lo = 0, hi = kNoMax;
    for (const SymbolConstraint &c : trustedConstraints(func, names))
      if (c.kind == SymbolConstraint::Kind::Range && c.lhs == e) {
        lo = std::max(lo, c.min);
        hi = std::min(hi, c.max);
      }
    return {lo, hi};
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  auto [llo, lhi] = sizeBounds(bin.getLHS(), func, names);
  auto [rlo, rhi] = sizeBounds(bin.getRHS(), func, names);
  auto mul = [](int64_t a, int64_t b) {
    int64_t r;
    return (a == kNoMax || b == kNoMax || __builtin_mul_overflow(a, b, &r))
               ? kNoMax
               : r;
  };
  switch (e.getKind()) {
  case AffineExprKind::Mul:
    if (llo >= 0 && rlo >= 0)
      return {mul(llo, rlo), mul(lhi, rhi)};
    break;
  case AffineExprKind::Add:
    if (llo >= 0 && rlo >= 0)
      return {llo + rlo, (lhi == kNoMax || rhi == kNoMax) ? kNoMax : lhi + rhi};
    break;
  default:
    break;
  }
  return {0, kNoMax};
}

bool mlir::tcc::expectAtLeast(Value v, ArrayRef<int64_t> dims,
                              int64_t threshold) {
  auto t = cast<RankedTensorType>(v.getType());
  int64_t staticPart = 1;
  bool allStatic = true;
  for (int64_t d : dims) {
    if (t.isDynamicDim(d))
      allStatic = false;
    else
      staticPart *= t.getDimSize(d);
  }
  // Dynamic sizes count as at least 1 here: an empty tensor costs nothing
  // whatever the strategy.
  if (allStatic || staticPart >= threshold)
    return staticPart >= threshold;
  Operation *owner = isa<BlockArgument>(v)
                         ? cast<BlockArgument>(v).getOwner()->getParentOp()
                         : v.getDefiningOp();
  auto func = owner ? owner->getParentOfType<func::FuncOp>() : func::FuncOp();
  if (auto f = dyn_cast_or_null<func::FuncOp>(owner))
    func = f;
  SmallVector<std::string> names;
  std::optional<SmallVector<AffineExpr>> shape = readShapeAnnotation(v, names);
  if (!func || !shape) // not annotated: each dynamic dim its own symbol
    return llvm::count_if(dims, [&](int64_t d) { return t.isDynamicDim(d); }) >=
           2;
  AffineExpr product = getAffineConstantExpr(1, v.getContext());
  for (int64_t d : dims)
    product = product * (*shape)[d];
  auto [lo, hi] = sizeBounds(product, func, names);
  if (lo >= threshold)
    return true;
  if (hi < threshold)
    return false;
  // A bounded range reaching the threshold (a shape bucket such as
  // 9 <= B <= 64) counts as large unless most of it lies far below.
  if (hi != INT64_MAX)
    return lo >= threshold / 8;
  // Unbounded: several symbols (batch x sequence), or rows spread over
  // several dims ([1, S, 768] activations of a sequence model), count as
  // large; a lone batch dim of a 2-D input as small.
  unsigned symbolsUsed = 0;
  product.walk([&](AffineExpr e) { symbolsUsed += isa<AffineSymbolExpr>(e); });
  return symbolsUsed >= 2 || dims.size() >= 2;
}

bool mlir::tcc::provablyEqualSizes(AffineExpr a, AffineExpr b) {
  a = simplifyAffineExpr(a, 0, 64);
  b = simplifyAffineExpr(b, 0, 64);
  if (a == b)
    return true;
  auto ma = asMonomial(a), mb = asMonomial(b);
  if (!ma || !mb || ma->coefficient != mb->coefficient)
    return false;
  llvm::sort(ma->symbols);
  llvm::sort(mb->symbols);
  return ma->symbols == mb->symbols;
}
