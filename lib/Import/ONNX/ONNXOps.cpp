//===- ONNXOps.cpp - ONNX operators as tcc ops ------------------*- C++ -*-===//
//
// One converter per ONNX op_type. Most map to one tcc op; activations
// tcc has no op for are composed from its elementwise ops (LeakyRelu is a
// select, HardSigmoid a clamp); shape arithmetic (Shape, Gather, Concat,
// Unsqueeze ... on shapes) is folded at import into known integers, so a
// Reshape by a computed shape gets a static (or one-dynamic-dim) type.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporterInternal.h"

#include "tcc/Reference/Evaluator.h"

#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx_import;

/// The value of a FailureOr, or return failure from the converter (a GNU
/// statement expression, as LLVM's own code avoids but GCC and Clang take).
#define TRY(x)                                                                 \
  ({                                                                           \
    auto _r = (x);                                                             \
    if (failed(_r))                                                            \
      return failure();                                                        \
    *_r;                                                                       \
  })

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

LogicalResult NodeContext::fail(const llvm::Twine &message) const {
  emitError(loc) << "ONNX node '" << node.name() << "' (" << node.op_type()
                 << ", opset " << opset << "): " << message;
  return failure();
}

const onnx::AttributeProto *NodeContext::attr(llvm::StringRef name) const {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeContext::intAttr(llvm::StringRef name, int64_t otherwise) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->i() : otherwise;
}

float NodeContext::floatAttr(llvm::StringRef name, float otherwise) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->f() : otherwise;
}

std::string NodeContext::stringAttr(llvm::StringRef name,
                                    llvm::StringRef otherwise) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->s() : otherwise.str();
}

std::optional<SmallVector<int64_t>>
NodeContext::intsAttr(llvm::StringRef name) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return std::nullopt;
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

std::optional<KnownInts> NodeContext::knownInts(unsigned i) const {
  Value v = operand(i);
  if (!v)
    return std::nullopt;
  auto it = importer.known.find(v);
  if (it != importer.known.end())
    return it->second;
  // A dense integer constant of up to 64 elements.
  auto c = v.getDefiningOp<ConstantOp>();
  if (!c)
    return std::nullopt;
  auto dense = dyn_cast<DenseIntElementsAttr>(c.getValue());
  if (!dense || dense.getNumElements() > 64)
    return std::nullopt;
  KnownInts out;
  for (const APInt &x : dense.getValues<APInt>())
    out.push_back({x.getSExtValue(), Value(), -1});
  return out;
}

std::optional<SmallVector<double>>
NodeContext::constantDoubles(unsigned i) const {
  Value v = operand(i);
  auto c = v ? v.getDefiningOp<ConstantOp>() : ConstantOp();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
  if (!dense || dense.getNumElements() > 4096)
    return std::nullopt;
  SmallVector<double> out;
  if (isa<FloatType>(dense.getElementType()))
    for (const APFloat &x : dense.getValues<APFloat>())
      out.push_back(x.convertToDouble());
  else
    for (const APInt &x : dense.getValues<APInt>())
      out.push_back(double(x.getSExtValue()));
  return out;
}

LogicalResult NodeContext::failNotKnown(unsigned i, llvm::StringRef what) const {
  std::string input;
  if (auto arg = dyn_cast_or_null<BlockArgument>(operand(i));
      arg && arg.getArgNumber() < importer.argInputPositions.size())
    input = " (graph input " +
            std::to_string(importer.argInputPositions[arg.getArgNumber()]) +
            ")";
  return fail(what + " must be known at import time" + input);
}

std::optional<SmallVector<int64_t>>
NodeContext::constantInts(unsigned i) const {
  std::optional<KnownInts> k = knownInts(i);
  if (!k)
    return std::nullopt;
  SmallVector<int64_t> out;
  for (const KnownInt &x : *k) {
    if (!x.isConstant())
      return std::nullopt;
    out.push_back(x.value);
  }
  return out;
}

/// A tcc op of small constants, evaluated now (the reference evaluator's
/// semantics) into a constant: shape arithmetic that exporters spell with
/// float ops (ReduceMax, Div, Ceil, Cast of a size) then stays known to
/// the shape consumers after it. nullptr (the op stays) otherwise, and
/// where evaluation fails: the compiled op reports that at run time.
static Operation *foldSmallConstants(NodeContext &c, Operation *op) {
  if (op->getNumResults() != 1 || op->getNumOperands() == 0 ||
      op->getNumRegions() || isa<ConstantOp>(op) || !isPure(op) ||
      op->getName().getDialectNamespace() != "tcc")
    return nullptr;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() > 16)
    return nullptr;
  std::vector<::tcc::runtime::HostTensor> operands;
  std::string error;
  for (Value v : op->getOperands()) {
    auto k = v.getDefiningOp<ConstantOp>();
    auto dense = k ? dyn_cast<DenseElementsAttr>(k.getValue()) : nullptr;
    std::vector<::tcc::runtime::HostTensor> value;
    if (!dense || dense.getNumElements() > 64 ||
        failed(::tcc::reference::evaluateOp(k, {}, value, error)))
      return nullptr;
    operands.push_back(std::move(value[0]));
  }
  std::vector<::tcc::runtime::HostTensor> results;
  if (failed(::tcc::reference::evaluateOp(op, operands, results, error)))
    return nullptr;
  Value folded = c.importer.constant(c.b, c.loc, results[0], "");
  c.importer.erase(op);
  return folded.getDefiningOp();
}

FailureOr<Operation *> NodeContext::build(llvm::StringRef name,
                                          ValueRange operands,
                                          ArrayRef<NamedAttribute> attrs,
                                          TypeRange resultTypes) {
  for (Value v : operands)
    if (!v)
      return fail("a required input is missing");
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addAttributes(attrs);
  auto info = RegisteredOperationName::lookup(name, b.getContext());
  if (!info)
    return fail("internal: no op " + name);
  bool infer = resultTypes.empty();
  if (infer)
    state.addTypes(UnrankedTensorType::get(b.getF32Type()));
  else
    state.addTypes(resultTypes);
  Operation *op = b.create(state);
  if (infer) {
    auto iface = dyn_cast<InferTypeOpInterface>(op);
    SmallVector<Type> types;
    if (!iface ||
        failed(iface.inferReturnTypes(
            b.getContext(), loc, op->getOperands(), op->getAttrDictionary(),
            op->getPropertiesStorage(), op->getRegions(), types)) ||
        types.size() != op->getNumResults()) {
      importer.erase(op);
      return fail("tcc cannot type the " + name + " it converts to (its "
                  "operands' shapes or attributes do not fit)");
    }
    for (auto [r, t] : llvm::zip(op->getResults(), types))
      r.setType(t);
  }
  if (failed(verify(op))) {
    importer.erase(op);
    return fail("the " + name + " it converts to is invalid (see above)");
  }
  if (Operation *folded = foldSmallConstants(*this, op))
    return folded;
  return op;
}

FailureOr<Value> NodeContext::build1(llvm::StringRef name, ValueRange operands,
                                     ArrayRef<NamedAttribute> attrs,
                                     Type resultType) {
  FailureOr<Operation *> op =
      build(name, operands, attrs,
            resultType ? TypeRange(resultType) : TypeRange());
  if (failed(op))
    return failure();
  return (*op)->getResult(0);
}

Value NodeContext::scalar(Type element, double value) {
  auto type = RankedTensorType::get({}, element);
  Attribute a = isa<FloatType>(element)
                    ? Attribute(b.getFloatAttr(element, value))
                    : Attribute(b.getIntegerAttr(element, int64_t(value)));
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, a));
}

Value NodeContext::i64Vector(ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({int64_t(values.size())}, b.getI64Type());
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, values));
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {

/// The most elements a constant the importer computes may have.
constexpr int64_t kMaxImportElements = int64_t(1) << 28;

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }
Type elementOf(Value v) { return typeOf(v).getElementType(); }

/// A converter that sets one result.
template <typename F> Converter one(F f) {
  return [f](NodeContext &c) -> LogicalResult {
    FailureOr<Value> v = f(c);
    if (failed(v))
      return failure();
    c.results.push_back(*v);
    return success();
  };
}

FailureOr<Value> reshapeTo(NodeContext &c, Value x,
                           SmallVector<int64_t> shape, bool allowZero);
FailureOr<Value> knownValue(NodeContext &c, const KnownInts &k, bool scalar);
SmallVector<std::optional<int64_t>> constantElements(Value v);

/// Dim d of v as a known integer: its size when static, else "dim d of v".
KnownInt knownDim(Value v, int64_t d) {
  auto t = cast<RankedTensorType>(v.getType());
  return t.isDynamicDim(d) ? KnownInt{0, v, d}
                           : KnownInt{t.getDimSize(d), Value(), -1};
}
LogicalResult setKnownResult(NodeContext &c, const KnownInts &k, bool scalar,
                             Type element = {});
FailureOr<Value> binaryValue(NodeContext &c, llvm::StringRef n);

/// `tcc.<name>` of the node's first two operands (numpy broadcasting).
/// Before opset 7, `broadcast = 1` with `axis` aligned b's dims at `axis`
/// of a: b is reshaped so that numpy's rule lines them up the same way.
/// Add/Sub/Mul/Div of integers known at import (shape arithmetic, as in
/// the expanded LayerNormalization): folded into known integers, so that
/// shape consumers downstream see constants. Both sides are 0-D or 1-D,
/// every element a constant, one of them a single element or both equal
/// in length. nullopt when the node is not such a case.
std::optional<KnownInts> foldKnownArithmetic(NodeContext &c,
                                             llvm::StringRef name) {
  auto a = c.constantInts(0), b = c.constantInts(1);
  if (!a || !b || typeOf(c.operand(0)).getRank() > 1 ||
      typeOf(c.operand(1)).getRank() > 1 ||
      !isa<IntegerType>(elementOf(c.operand(0))))
    return std::nullopt;
  size_t n = std::max(a->size(), b->size());
  if ((a->size() != n && a->size() != 1) || (b->size() != n && b->size() != 1))
    return std::nullopt;
  KnownInts out;
  for (size_t i = 0; i < n; ++i) {
    int64_t x = (*a)[a->size() == 1 ? 0 : i], y = (*b)[b->size() == 1 ? 0 : i];
    // Wrapping like the run-time op would; division only where exact C++.
    uint64_t ux = x, uy = y;
    int64_t r;
    if (name == "add")
      r = int64_t(ux + uy);
    else if (name == "sub")
      r = int64_t(ux - uy);
    else if (name == "mul")
      r = int64_t(ux * uy);
    else if (name == "div" && y != 0 && !(x == INT64_MIN && y == -1))
      r = x / y;
    else
      return std::nullopt;
    out.push_back({r, Value(), -1});
  }
  return out;
}

Converter binary(llvm::StringRef name) {
  std::string n = ("tcc." + name).str();
  std::string bare = name.str();
  return [n, bare](NodeContext &c) -> LogicalResult {
    if (c.opset >= 7 || !c.intAttr("broadcast", 0)) {
      if (std::optional<KnownInts> k = foldKnownArithmetic(c, bare)) {
        bool scalar = typeOf(c.operand(0)).getRank() == 0 &&
                      typeOf(c.operand(1)).getRank() == 0;
        return setKnownResult(c, *k, scalar, elementOf(c.operand(0)));
      }
    }
    FailureOr<Value> v = binaryValue(c, n);
    if (failed(v))
      return failure();
    c.results.push_back(*v);
    return success();
  };
}

FailureOr<Value> binaryValue(NodeContext &c, llvm::StringRef n) {
  {
    Value a = c.operand(0), b = c.operand(1);
    if (!a || !b)
      return c.fail("needs two inputs");
    if (c.opset < 7 && c.intAttr("broadcast", 0) && c.attr("axis")) {
      auto at = cast<RankedTensorType>(a.getType());
      auto bt = cast<RankedTensorType>(b.getType());
      int64_t axis = c.intAttr("axis", 0);
      if (axis < 0)
        axis += at.getRank();
      int64_t trailing = at.getRank() - axis - bt.getRank();
      if (axis < 0 || trailing < 0)
        return c.fail("legacy broadcast axis out of range");
      SmallVector<int64_t> shape(bt.getShape());
      shape.append(trailing, 1);
      FailureOr<Value> r = reshapeTo(c, b, shape, true);
      if (failed(r))
        return failure();
      b = *r;
    }
    return c.build1(n, {a, b});
  }
}

Converter unary(llvm::StringRef name) {
  std::string n = ("tcc." + name).str();
  return one([n](NodeContext &c) { return c.build1(n, {c.operand(0)}); });
}

/// Variadic Max / Min / Sum: folded pairwise left to right.
FailureOr<Value> foldVariadic(NodeContext &c, llvm::StringRef name) {
  if (c.numOperands() == 0)
    return c.fail("needs at least one input");
  Value acc = c.operand(0);
  for (unsigned i = 1; i < c.numOperands(); ++i) {
    FailureOr<Value> next = c.build1(("tcc." + name).str(), {acc, c.operand(i)});
    if (failed(next))
      return failure();
    acc = *next;
  }
  return acc;
}

Converter variadic(llvm::StringRef name) {
  std::string n = name.str();
  return one([n](NodeContext &c) { return foldVariadic(c, n); });
}

/// A comparison of integers known at import (a shape test, as exporters
/// write before an If), folded; nullopt when the node is not such a case.
std::optional<KnownInts> foldKnownCompare(NodeContext &c,
                                          llvm::StringRef predicate) {
  auto a = c.constantInts(0), b = c.constantInts(1);
  auto element = dyn_cast<IntegerType>(elementOf(c.operand(0)));
  if (!a || !b || !element || element.isUnsigned() ||
      typeOf(c.operand(0)).getRank() > 1 || typeOf(c.operand(1)).getRank() > 1)
    return std::nullopt;
  size_t n = std::max(a->size(), b->size());
  if ((a->size() != n && a->size() != 1) || (b->size() != n && b->size() != 1))
    return std::nullopt;
  KnownInts out;
  for (size_t i = 0; i < n; ++i) {
    int64_t x = (*a)[a->size() == 1 ? 0 : i], y = (*b)[b->size() == 1 ? 0 : i];
    bool r = predicate == "eq"   ? x == y
             : predicate == "lt" ? x < y
             : predicate == "le" ? x <= y
             : predicate == "gt" ? x > y
                                 : x >= y;
    out.push_back({r, Value(), -1});
  }
  return out;
}

Converter compare(llvm::StringRef predicate) {
  std::string p = predicate.str();
  return [p](NodeContext &c) -> LogicalResult {
    if (std::optional<KnownInts> k = foldKnownCompare(c, p))
      return setKnownResult(c, *k,
                            /*scalar=*/typeOf(c.operand(0)).getRank() == 0 &&
                                typeOf(c.operand(1)).getRank() == 0,
                            c.b.getI1Type());
    FailureOr<Value> v =
        c.build1("tcc.cmp", {c.operand(0), c.operand(1)},
                 {c.named("predicate", c.b.getStringAttr(p))});
    if (failed(v))
      return failure();
    c.results.push_back(*v);
    return success();
  };
}

/// Axis `a` in [-rank, rank) as [0, rank); failure if out of range.
FailureOr<int64_t> normalizeAxis(NodeContext &c, int64_t a, int64_t rank) {
  if (a < -rank || a >= rank)
    return c.fail("axis " + std::to_string(a) + " is outside [-" +
                  std::to_string(rank) + ", " + std::to_string(rank) + ")");
  return a < 0 ? a + rank : a;
}

/// A reshape of `x` to `shape` (entries: sizes, 0 = copy x's dim when
/// `allowZero` is false, -1 = infer, kDynamic = only known at run time).
FailureOr<Value> reshapeTo(NodeContext &c, Value x,
                           SmallVector<int64_t> shape, bool allowZero) {
  RankedTensorType t = typeOf(x);
  int64_t infer = -1;
  for (auto [i, s] : llvm::enumerate(shape)) {
    if (s == 0 && !allowZero) {
      if (int64_t(i) >= t.getRank())
        return c.fail("reshape copies dim " + std::to_string(i) +
                      " of a rank-" + std::to_string(t.getRank()) + " input");
      s = t.getDimSize(i);
    } else if (s == -1) {
      if (infer >= 0)
        return c.fail("reshape has two -1 entries");
      infer = i;
    } else if (s < -1) {
      if (!ShapedType::isDynamic(s))
        return c.fail("reshape to a negative size");
    }
  }
  // -1: inferred from the element count when the rest is static.
  if (infer >= 0) {
    int64_t known = 1;
    bool all = t.hasStaticShape();
    for (auto [i, s] : llvm::enumerate(shape))
      if (int64_t(i) != infer) {
        if (ShapedType::isDynamic(s))
          all = false;
        else
          known *= s;
      }
    if (all && known > 0)
      shape[infer] = t.getNumElements() / known;
    else
      shape[infer] = ShapedType::kDynamic;
  }
  if (llvm::count_if(shape, ShapedType::isDynamic) > 1)
    return c.fail("reshape to a shape with more than one size known only "
                  "at run time (not supported yet)");
  auto result = RankedTensorType::get(shape, t.getElementType());
  if (result == t)
    return x;
  return c.build1("tcc.reshape", {x}, {}, result);
}

/// x as 2-D: the dims before `axis` in one, the rest in the other (a
/// product with a run-time dim is dynamic).
FailureOr<Value> flattenAt(NodeContext &c, Value x, int64_t axis) {
  RankedTensorType t = typeOf(x);
  auto product = [&](int64_t from, int64_t to) {
    int64_t p = 1;
    for (int64_t d = from; d < to; ++d) {
      if (t.isDynamicDim(d))
        return ShapedType::kDynamic;
      p *= t.getDimSize(d);
    }
    return p;
  };
  return reshapeTo(c, x, {product(0, axis), product(axis, t.getRank())},
                   true);
}

/// The node's `axes` for ops that take them as an attribute (older opsets)
/// or as input `index` (newer): nullopt when absent.
FailureOr<std::optional<SmallVector<int64_t>>>
axesOf(NodeContext &c, unsigned index) {
  if (auto a = c.intsAttr("axes"))
    return std::optional<SmallVector<int64_t>>(*a);
  if (!c.operand(index))
    return std::optional<SmallVector<int64_t>>();
  auto k = c.constantInts(index);
  if (!k)
    return c.fail("axes must be known at import time");
  return std::optional<SmallVector<int64_t>>(*k);
}

/// A reshape that only adds or drops size-1 dims (Squeeze, Unsqueeze):
/// the result's dynamic dims are x's, in order, so that a shape operand of
/// them (tensor.dim) lets tcc.reshape take several.
FailureOr<Value> reshapeKeepingDims(NodeContext &c, Value x,
                                    SmallVector<int64_t> shape) {
  if (llvm::count_if(shape, ShapedType::isDynamic) <= 1)
    return reshapeTo(c, x, shape, /*allowZero=*/true);
  RankedTensorType t = typeOf(x);
  KnownInts dims;
  int64_t next = 0;
  for (int64_t s : shape) {
    if (!ShapedType::isDynamic(s)) {
      dims.push_back({s, Value(), -1});
      continue;
    }
    while (next < t.getRank() && !t.isDynamicDim(next))
      ++next;
    if (next == t.getRank())
      return c.fail("internal: more dynamic dims than the input has");
    dims.push_back({0, x, next++});
  }
  return c.build1("tcc.reshape", {x, TRY(knownValue(c, dims, false))}, {},
                  RankedTensorType::get(shape, t.getElementType()));
}

FailureOr<Value> squeeze(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  auto axes = axesOf(c, 1);
  if (failed(axes))
    return failure();
  SmallVector<bool> drop(t.getRank(), false);
  if (*axes) {
    for (int64_t a : **axes) {
      FailureOr<int64_t> n = normalizeAxis(c, a, t.getRank());
      if (failed(n))
        return failure();
      if (t.getDimSize(*n) != 1 && !t.isDynamicDim(*n))
        return c.fail("squeezes dim " + std::to_string(*n) + " of size " +
                      std::to_string(t.getDimSize(*n)));
      drop[*n] = true;
    }
  } else {
    for (int64_t d = 0; d < t.getRank(); ++d)
      drop[d] = t.getDimSize(d) == 1;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < t.getRank(); ++d)
    if (!drop[d])
      shape.push_back(t.isDynamicDim(d) ? ShapedType::kDynamic
                                        : t.getDimSize(d));
  return reshapeKeepingDims(c, x, shape);
}

FailureOr<Value> unsqueeze(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  auto axes = axesOf(c, 1);
  if (failed(axes))
    return failure();
  if (!*axes)
    return c.fail("has no axes");
  int64_t rank = t.getRank() + (*axes)->size();
  SmallVector<bool> added(rank, false);
  for (int64_t a : **axes) {
    FailureOr<int64_t> n = normalizeAxis(c, a, rank);
    if (failed(n))
      return failure();
    added[*n] = true;
  }
  SmallVector<int64_t> shape;
  int64_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(added[d] ? 1 : t.getDimSize(next++));
  return reshapeKeepingDims(c, x, shape);
}

/// Known-integer versions of Squeeze/Unsqueeze/Cast/Identity: the values
/// pass through unchanged (rank 0 <-> 1 for shapes).
void passKnown(NodeContext &c) {
  if (auto k = c.knownInts(0))
    c.knownResults.push_back(*k);
}

/// Known integers as a value: a 1-D i64 constant when every one is a
/// constant, else tensor.from_elements of the constants and the run-time
/// dims (tensor.dim), so that any consumer can read them as data. 0-D when
/// `scalar`.
FailureOr<Value> knownValue(NodeContext &c, const KnownInts &k, bool scalar) {
  bool all = llvm::all_of(k, [](const KnownInt &e) { return e.isConstant(); });
  Value v;
  if (all) {
    SmallVector<int64_t> values;
    for (const KnownInt &e : k)
      values.push_back(e.value);
    v = c.i64Vector(values);
  } else {
    SmallVector<Value> elements;
    for (const KnownInt &e : k) {
      if (e.isConstant()) {
        elements.push_back(
            arith::ConstantIntOp::create(c.b, c.loc, c.b.getI64Type(), e.value));
        continue;
      }
      Value dim = tensor::DimOp::create(c.b, c.loc, e.of, e.dim);
      elements.push_back(
          arith::IndexCastOp::create(c.b, c.loc, c.b.getI64Type(), dim));
    }
    v = tensor::FromElementsOp::create(
        c.b, c.loc,
        RankedTensorType::get({int64_t(elements.size())}, c.b.getI64Type()),
        elements);
  }
  if (scalar)
    return reshapeTo(c, v, {}, true);
  return v;
}

/// The node's result as known integers: their value (knownValue, cast to
/// `element` when given and not i64) and the integers themselves, for
/// the shape consumers downstream.
LogicalResult setKnownResult(NodeContext &c, const KnownInts &k, bool scalar,
                             Type element) {
  Value v = TRY(knownValue(c, k, scalar));
  if (element && element != elementOf(v))
    v = TRY(c.build1("tcc.cast", {v}, {},
                     RankedTensorType::get(typeOf(v).getShape(), element)));
  c.results.push_back(v);
  c.knownResults.push_back(k);
  return success();
}

FailureOr<Value> reduce(NodeContext &c, llvm::StringRef name,
                        bool axesInput) {
  Value x = c.operand(0);
  int64_t rank = typeOf(x).getRank();
  SmallVector<int64_t> axes;
  auto given = axesInput ? axesOf(c, 1)
                         : FailureOr<std::optional<SmallVector<int64_t>>>(
                               c.intsAttr("axes"));
  if (failed(given))
    return failure();
  bool keep = c.intAttr("keepdims", 1) != 0;
  if (!*given || (*given)->empty()) {
    if (c.intAttr("noop_with_empty_axes", 0))
      return x;
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  } else {
    for (int64_t a : **given) {
      FailureOr<int64_t> n = normalizeAxis(c, a, rank);
      if (failed(n))
        return failure();
      axes.push_back(*n);
    }
  }
  return c.build1(("tcc." + name).str(), {x},
                  {c.named("axes", c.b.getDenseI64ArrayAttr(axes)),
                   c.named("keep_dims", c.b.getBoolAttr(keep))});
}

/// Softmax / LogSoftmax: opset 13 normalizes along `axis` (default -1);
/// earlier opsets flatten to 2-D at `axis` (default 1) first.
FailureOr<Value> softmax(NodeContext &c, llvm::StringRef name) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  std::string op = ("tcc." + name).str();
  if (c.opset >= 13) {
    FailureOr<int64_t> axis = normalizeAxis(c, c.intAttr("axis", -1),
                                            std::max<int64_t>(t.getRank(), 1));
    if (failed(axis))
      return failure();
    return c.build1(op, {x}, {c.named("axis", c.b.getI64IntegerAttr(*axis))});
  }
  FailureOr<int64_t> axis =
      normalizeAxis(c, c.intAttr("axis", 1), std::max<int64_t>(t.getRank(), 1));
  if (failed(axis))
    return failure();
  FailureOr<Value> flat = flattenAt(c, x, *axis);
  if (failed(flat))
    return failure();
  FailureOr<Value> s =
      c.build1(op, {*flat}, {c.named("axis", c.b.getI64IntegerAttr(1))});
  if (failed(s))
    return failure();
  SmallVector<int64_t> back(t.getShape());
  return reshapeTo(c, *s, back, true);
}

/// Spatial attributes of Conv and the pools over the n = rank - 2 spatial
/// dims of x (N, C, spatial...): pads as [begin..., end...] (for 2-D
/// [top, left, bottom, right], tcc's order); auto_pad SAME_* computed from
/// static sizes.
struct Window {
  SmallVector<int64_t> kernel, strides, dilations, pads;
  int64_t spatial() const { return kernel.size(); }
};

FailureOr<Window> windowOf(NodeContext &c, Value x,
                           std::optional<SmallVector<int64_t>> kernel) {
  RankedTensorType t = typeOf(x);
  int64_t n = t.getRank() - 2;
  if (n < 1 || n > 3)
    return c.fail("expects 1 to 3 spatial dims, got rank " +
                  std::to_string(t.getRank()));
  Window w;
  if (!kernel || int64_t(kernel->size()) != n)
    return c.fail("needs a kernel_shape of " + std::to_string(n) + " dims");
  w.kernel = *kernel;
  w.strides = c.intsAttr("strides").value_or(SmallVector<int64_t>(n, 1));
  w.dilations = c.intsAttr("dilations").value_or(SmallVector<int64_t>(n, 1));
  w.pads = c.intsAttr("pads").value_or(SmallVector<int64_t>(2 * n, 0));
  if (int64_t(w.strides.size()) != n || int64_t(w.dilations.size()) != n ||
      int64_t(w.pads.size()) != 2 * n)
    return c.fail("strides, dilations and pads must match the kernel's " +
                  std::to_string(n) + " dims");
  for (int64_t d = 0; d < n; ++d)
    if (w.kernel[d] < 1 || w.strides[d] < 1 || w.dilations[d] < 1 ||
        w.pads[d] < 0 || w.pads[d + n] < 0)
      return c.fail("kernel, strides and dilations must be positive, pads "
                    "not negative");
  std::string autoPad = c.stringAttr("auto_pad", "NOTSET");
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int64_t d = 0; d < n; ++d) {
      int64_t in = t.getDimSize(2 + d);
      if (ShapedType::isDynamic(in))
        return c.fail("auto_pad " + autoPad + " needs static spatial dims");
      int64_t out = (in + w.strides[d] - 1) / w.strides[d];
      int64_t total = std::max<int64_t>(
          0, (out - 1) * w.strides[d] +
                 w.dilations[d] * (w.kernel[d] - 1) + 1 - in);
      int64_t small = total / 2, large = total - small;
      w.pads[d] = autoPad == "SAME_UPPER" ? small : large;
      w.pads[d + n] = autoPad == "SAME_UPPER" ? large : small;
    }
  } else if (autoPad == "VALID") {
    w.pads.assign(2 * n, 0);
  } else if (autoPad != "NOTSET") {
    return c.fail("auto_pad '" + autoPad + "' is not supported");
  }
  return w;
}

/// 1-D window ops (N, C, L) run as the 2-D ones over (N, C, 1, L): x
/// (and a weight, (O, C/g, K)) gain a unit dim, the attributes a leading
/// entry (pads [0, begin, 0, end]); the result loses the unit dim.
/// Inserts a unit dim at 2 (rank 3 -> 4).
FailureOr<Value> addUnitDim(NodeContext &c, Value v) {
  RankedTensorType t = typeOf(v);
  SmallVector<int64_t> shape(t.getShape());
  shape.insert(shape.begin() + 2, 1);
  return reshapeTo(c, v, shape, true);
}

FailureOr<Value> dropUnitDim(NodeContext &c, Value v) {
  RankedTensorType t = typeOf(v);
  SmallVector<int64_t> shape(t.getShape());
  shape.erase(shape.begin() + 2);
  return reshapeTo(c, v, shape, true);
}

/// The node's 1-D spatial attributes as 2-D ones (a leading unit dim).
void widenAttributes(NodeContext &c, std::optional<SmallVector<int64_t>> &kernel,
                     SmallVector<NamedAttribute> &overrides) {
  if (kernel && kernel->size() == 1)
    kernel = SmallVector<int64_t>{1, (*kernel)[0]};
  auto widen = [&](llvm::StringRef name, int64_t lead) {
    if (auto v = c.intsAttr(name)) {
      SmallVector<int64_t> w;
      if (v->size() == 1)
        w = {lead, (*v)[0]};
      else if (v->size() == 2 && name == "pads")
        w = {0, (*v)[0], 0, (*v)[1]};
      else
        w = *v;
      overrides.push_back(c.named(name, c.b.getDenseI64ArrayAttr(w)));
    }
  };
  widen("strides", 1);
  widen("dilations", 1);
  widen("pads", 0);
}

FailureOr<Value> padConstantAlong(NodeContext &c, Value x, int64_t d,
                                  int64_t before, int64_t after, double value);

/// A strided slice of x along `dim`: `count` elements from `start`, `step`
/// apart.
FailureOr<Value> stridedSlice(NodeContext &c, Value x, int64_t dim,
                              int64_t start, int64_t count, int64_t step) {
  int64_t rank = typeOf(x).getRank();
  SmallVector<int64_t> starts(rank, 0), ends(rank, INT64_MAX), steps(rank, 1);
  starts[dim] = start;
  ends[dim] = start + (count - 1) * step + 1;
  steps[dim] = step;
  return c.build1("tcc.slice", {x},
                  {c.named("starts", c.b.getDenseI64ArrayAttr(starts)),
                   c.named("ends", c.b.getDenseI64ArrayAttr(ends)),
                   c.named("steps", c.b.getDenseI64ArrayAttr(steps))});
}

/// Pooling that tcc's 2-D pool ops do not cover (3-D windows, dilations,
/// ceil_mode, count_include_pad), composed at import: x padded with -inf
/// (max) or 0 (average); max and sum are separable, so one spatial dim at a
/// time, one strided slice per kernel position along it, combined by
/// maximum or add (sum(kernel) slices in all). Averages divide by a
/// constant of each window's element count (inside the input, or inside
/// input and explicit pads with count_include_pad). ceil_mode adds end
/// padding that never counts; as in PyTorch, no window starts in it.
/// Per spatial dim of a window over static spatial dims: the output size
/// and (ceil_mode) the end padding beyond the pads that the last window
/// reaches into; as in PyTorch, no window starts in it.
LogicalResult poolOutputSizes(NodeContext &c, RankedTensorType t,
                              const Window &w, bool ceil,
                              SmallVectorImpl<int64_t> &out,
                              SmallVectorImpl<int64_t> &extra) {
  int64_t n = w.spatial();
  out.assign(n, 0);
  extra.assign(n, 0);
  for (int64_t d = 0; d < n; ++d) {
    if (t.isDynamicDim(2 + d))
      return c.fail("this pooling needs static spatial dims");
    int64_t in = t.getDimSize(2 + d), pb = w.pads[d], pe = w.pads[d + n];
    int64_t eff = w.dilations[d] * (w.kernel[d] - 1) + 1;
    int64_t span = in + pb + pe - eff;
    if (span < 0)
      return c.fail("the window is larger than the padded input");
    int64_t o = span / w.strides[d] + 1;
    if (ceil && span % w.strides[d] != 0) {
      ++o;
      if ((o - 1) * w.strides[d] >= in + pb)
        --o;
    }
    out[d] = o;
    extra[d] = std::max<int64_t>(0, (o - 1) * w.strides[d] + eff - (in + pb + pe));
  }
  return success();
}

FailureOr<Value> windowBySlices(NodeContext &c, Value x, const Window &w,
                                bool isMax, bool includePad, bool ceil) {
  RankedTensorType t = typeOf(x);
  int64_t n = w.spatial();
  if (!t.hasStaticShape())
    return c.fail("this pooling (dilated, 3-D or counting its pads with "
                  "ceil_mode) is composed at import and needs static shapes");
  int64_t positions = 0;
  for (int64_t k : w.kernel)
    positions += k;
  if (positions > 4096)
    return c.fail("a pooling window longer than 4096 in all");
  SmallVector<int64_t> out, extra;
  if (failed(poolOutputSizes(c, t, w, ceil, out, extra)))
    return failure();
  double fill = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
  if (auto intType = dyn_cast<IntegerType>(t.getElementType()); intType && isMax)
    fill = intType.isUnsigned() ? 0.0 // the type's minimum
                                : -std::ldexp(1.0, intType.getWidth() - 1);
  Value xp = x;
  for (int64_t d = 0; d < n; ++d)
    xp = TRY(padConstantAlong(c, xp, 2 + d, w.pads[d], w.pads[d + n] + extra[d],
                              fill));
  Value acc = xp;
  for (int64_t d = 0; d < n; ++d) {
    Value along;
    for (int64_t a = 0; a < w.kernel[d]; ++a) {
      Value part = TRY(stridedSlice(c, acc, 2 + d, a * w.dilations[d], out[d],
                                    w.strides[d]));
      along = !along ? part
                     : TRY(c.build1(isMax ? "tcc.maximum" : "tcc.add",
                                    {along, part}));
    }
    acc = along;
  }
  if (isMax)
    return acc;
  // Per dim, how many of a window's positions count; the product is the
  // divisor of each output element.
  SmallVector<SmallVector<int64_t>> counts(n);
  for (int64_t d = 0; d < n; ++d) {
    int64_t in = t.getDimSize(2 + d), pb = w.pads[d], pe = w.pads[d + n];
    int64_t lo = includePad ? 0 : pb, hi = includePad ? in + pb + pe : pb + in;
    for (int64_t o = 0; o < out[d]; ++o) {
      int64_t k = 0;
      for (int64_t a = 0; a < w.kernel[d]; ++a) {
        int64_t q = o * w.strides[d] + a * w.dilations[d];
        k += q >= lo && q < hi;
      }
      counts[d].push_back(k);
    }
  }
  std::vector<int64_t> shape = {1, 1};
  shape.insert(shape.end(), out.begin(), out.end());
  ::tcc::runtime::HostTensor divisor(*dtypeOfElement(t.getElementType()), shape);
  SmallVector<int64_t> idx(n, 0);
  for (int64_t i = 0, e = divisor.numElements(); i < e; ++i) {
    double v = 1;
    for (int64_t d = 0; d < n; ++d)
      v *= counts[d][idx[d]];
    divisor.setDouble(i, v);
    for (int64_t d = n - 1; d >= 0; --d) {
      if (++idx[d] < out[d])
        break;
      idx[d] = 0;
    }
  }
  return c.build1("tcc.div",
                  {acc, c.importer.constant(c.b, c.loc, divisor, "")});
}

/// Conv over 3 spatial dims (N, C, D, H, W) as tcc.conv2d's over (H, W):
/// D padded, moved next to N and folded into the batch; one conv2d per
/// kernel depth on the depth positions it reads (a strided slice), with
/// that depth's weight slice; the sum unfolded back.
FailureOr<Value> convByDepthSlices(NodeContext &c, Value x, Value weight,
                                   Value bias, const Window &w, int64_t groups) {
  RankedTensorType t = typeOf(x), wt = typeOf(weight);
  if (ShapedType::isDynamic(t.getDimSize(2)) || !wt.hasStaticShape())
    return c.fail("a 3-D convolution needs a static depth and weight");
  int64_t kD = w.kernel[0], dd = w.dilations[0], sd = w.strides[0];
  Value xp = TRY(padConstantAlong(c, x, 2, w.pads[0], w.pads[3], 0.0));
  int64_t dp = typeOf(xp).getDimSize(2);
  int64_t span = dp - (dd * (kD - 1) + 1);
  if (span < 0)
    return c.fail("the kernel is deeper than the padded input");
  int64_t depthOut = span / sd + 1;
  Value xt = TRY(c.build1(
      "tcc.transpose", {xp},
      {c.named("permutation", c.b.getDenseI64ArrayAttr({0, 2, 1, 3, 4}))}));
  auto folded = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) ? ShapedType::kDynamic : a * b;
  };
  Value acc;
  for (int64_t kd = 0; kd < kD; ++kd) {
    Value part = TRY(stridedSlice(c, xt, 1, kd * dd, depthOut, sd));
    RankedTensorType pt = typeOf(part);
    part = TRY(reshapeTo(c, part,
                         {folded(pt.getDimSize(0), depthOut), pt.getDimSize(2),
                          pt.getDimSize(3), pt.getDimSize(4)},
                         true));
    Value wk = TRY(stridedSlice(c, weight, 2, kd, 1, 1));
    wk = TRY(reshapeTo(c, wk,
                       {wt.getDimSize(0), wt.getDimSize(1), wt.getDimSize(3),
                        wt.getDimSize(4)},
                       true));
    SmallVector<Value> operands = {part, wk};
    if (bias && kd == 0)
      operands.push_back(bias);
    Value y = TRY(c.build1(
        "tcc.conv2d", operands,
        {c.named("strides", c.b.getDenseI64ArrayAttr({w.strides[1],
                                                      w.strides[2]})),
         c.named("padding", c.b.getDenseI64ArrayAttr({w.pads[1], w.pads[2],
                                                      w.pads[4], w.pads[5]})),
         c.named("dilations", c.b.getDenseI64ArrayAttr({w.dilations[1],
                                                        w.dilations[2]})),
         c.named("groups", c.b.getI64IntegerAttr(groups))}));
    acc = acc ? TRY(c.build1("tcc.add", {acc, y})) : y;
  }
  RankedTensorType yt = typeOf(acc);
  Value y = TRY(reshapeTo(c, acc,
                          {t.getDimSize(0), depthOut, yt.getDimSize(1),
                           yt.getDimSize(2), yt.getDimSize(3)},
                          true));
  return c.build1("tcc.transpose", {y},
                  {c.named("permutation",
                           c.b.getDenseI64ArrayAttr({0, 2, 1, 3, 4}))});
}

/// A convolution over 1 to 3 spatial dims: 1-D through conv2d over (N, C,
/// 1, L), 2-D tcc.conv2d, 3-D convByDepthSlices.
FailureOr<Value> convWindow(NodeContext &c, Value x, Value weight, Value bias,
                            const Window &w, int64_t groups) {
  if (typeOf(weight).getRank() != typeOf(x).getRank())
    return c.fail("the weight's rank differs from the input's");
  if (w.spatial() == 3)
    return convByDepthSlices(c, x, weight, bias, w, groups);
  bool oneD = w.spatial() == 1;
  if (oneD) {
    x = TRY(addUnitDim(c, x));
    weight = TRY(addUnitDim(c, weight));
  }
  auto two = [&](ArrayRef<int64_t> v, int64_t lead) {
    return oneD ? SmallVector<int64_t>{lead, v[0]} : SmallVector<int64_t>(v);
  };
  SmallVector<int64_t> pads =
      oneD ? SmallVector<int64_t>{0, w.pads[0], 0, w.pads[1]} : w.pads;
  SmallVector<Value> operands = {x, weight};
  if (bias)
    operands.push_back(bias);
  Value y = TRY(c.build1(
      "tcc.conv2d", operands,
      {c.named("strides", c.b.getDenseI64ArrayAttr(two(w.strides, 1))),
       c.named("padding", c.b.getDenseI64ArrayAttr(pads)),
       c.named("dilations", c.b.getDenseI64ArrayAttr(two(w.dilations, 1))),
       c.named("groups", c.b.getI64IntegerAttr(groups))}));
  return oneD ? dropUnitDim(c, y) : FailureOr<Value>(y);
}

FailureOr<Value> conv(NodeContext &c) {
  Value x = c.operand(0), weight = c.operand(1);
  if (!weight)
    return c.fail("has no weight");
  RankedTensorType wt = typeOf(weight);
  std::optional<SmallVector<int64_t>> kernel = c.intsAttr("kernel_shape");
  if (!kernel && wt.getRank() >= 3)
    kernel = SmallVector<int64_t>(wt.getShape().drop_front(2));
  FailureOr<Window> w = windowOf(c, x, kernel);
  if (failed(w))
    return failure();
  return convWindow(c, x, weight, c.operand(2), *w, c.intAttr("group", 1));
}

/// ConvTranspose as a convolution: x with stride - 1 zeros between its
/// elements (per spatial dim), the weight's kernel flipped and its in/out
/// channels swapped per group, padded by dilation * (kernel - 1) - pads
/// (output_padding at the end); output_shape or auto_pad fix the pads the
/// ONNX way.
FailureOr<Value> convTranspose(NodeContext &c) {
  Value x = c.operand(0), weight = c.operand(1);
  if (!weight)
    return c.fail("has no weight");
  RankedTensorType t = typeOf(x), wt = typeOf(weight);
  int64_t n = t.getRank() - 2, groups = c.intAttr("group", 1);
  if (n < 1 || n > 3 || wt.getRank() != t.getRank() || !wt.hasStaticShape())
    return c.fail("expects a static weight of the input's rank, 1 to 3 "
                  "spatial dims");
  if (groups < 1 || wt.getDimSize(0) % groups != 0)
    return c.fail("the weight's dim 0 is not a multiple of group");
  SmallVector<int64_t> kernel = c.intsAttr("kernel_shape").value_or(
      SmallVector<int64_t>(wt.getShape().drop_front(2)));
  SmallVector<int64_t> strides =
      c.intsAttr("strides").value_or(SmallVector<int64_t>(n, 1));
  SmallVector<int64_t> dilations =
      c.intsAttr("dilations").value_or(SmallVector<int64_t>(n, 1));
  SmallVector<int64_t> outPad =
      c.intsAttr("output_padding").value_or(SmallVector<int64_t>(n, 0));
  SmallVector<int64_t> pads =
      c.intsAttr("pads").value_or(SmallVector<int64_t>(2 * n, 0));
  if (int64_t(kernel.size()) != n || int64_t(strides.size()) != n ||
      int64_t(dilations.size()) != n || int64_t(outPad.size()) != n ||
      int64_t(pads.size()) != 2 * n)
    return c.fail("kernel_shape, strides, dilations, output_padding and pads "
                  "must match the spatial dims");
  for (int64_t d = 0; d < n; ++d)
    if (kernel[d] != wt.getDimSize(2 + d) || strides[d] < 1 ||
        dilations[d] < 1 || outPad[d] < 0)
      return c.fail("kernel_shape differs from the weight, or a stride, "
                    "dilation or output padding is out of range");
  std::string autoPad = c.stringAttr("auto_pad", "NOTSET");
  auto outputShape = c.intsAttr("output_shape");
  if (outputShape || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    if (outputShape && int64_t(outputShape->size()) != n)
      return c.fail("output_shape must give the spatial dims");
    for (int64_t d = 0; d < n; ++d) {
      int64_t in = t.getDimSize(2 + d);
      if (ShapedType::isDynamic(in))
        return c.fail("output_shape or auto_pad with a dim known only at "
                      "run time");
      int64_t target = outputShape ? (*outputShape)[d] : in * strides[d];
      int64_t total = strides[d] * (in - 1) + outPad[d] +
                      (kernel[d] - 1) * dilations[d] + 1 - target;
      if (total < 0) {
        // A larger output_shape: the rest is output padding at the end.
        outPad[d] -= total;
        total = 0;
      }
      bool upper = autoPad == "SAME_UPPER";
      pads[d] = upper ? total / 2 : total - total / 2;
      pads[d + n] = upper ? total - total / 2 : total / 2;
    }
  } else if (autoPad == "VALID") {
    pads.assign(2 * n, 0);
  } else if (autoPad != "NOTSET") {
    return c.fail("auto_pad '" + autoPad + "' is not supported");
  }
  // Zeros between the elements: a unit dim after d padded to the stride,
  // merged into d, the trailing stride - 1 zeros dropped.
  for (int64_t d = 0; d < n; ++d) {
    int64_t s = strides[d], dim = 2 + d;
    if (s == 1)
      continue;
    RankedTensorType cur = typeOf(x);
    if (!cur.hasStaticShape())
      return c.fail("a strided transposed convolution needs static shapes");
    SmallVector<int64_t> wide(cur.getShape());
    wide.insert(wide.begin() + dim + 1, 1);
    Value v = TRY(reshapeTo(c, x, wide, true));
    v = TRY(padConstantAlong(c, v, dim + 1, 0, s - 1, 0.0));
    SmallVector<int64_t> merged(cur.getShape());
    merged[dim] *= s;
    v = TRY(reshapeTo(c, v, merged, true));
    x = TRY(stridedSlice(c, v, dim, 0, (cur.getDimSize(dim) - 1) * s + 1, 1));
  }
  // Weight [Cin, Cout/g, k...] -> [Cout, Cin/g, k...], kernels flipped.
  int64_t cin = wt.getDimSize(0), coutG = wt.getDimSize(1), cinG = cin / groups;
  SmallVector<int64_t> k(wt.getShape().drop_front(2));
  SmallVector<int64_t> grouped = {groups, cinG, coutG};
  grouped.append(k);
  Value w = TRY(reshapeTo(c, weight, grouped, true));
  SmallVector<int64_t> perm = {0, 2, 1};
  for (int64_t d = 0; d < n; ++d)
    perm.push_back(3 + d);
  w = TRY(c.build1("tcc.transpose", {w},
                   {c.named("permutation", c.b.getDenseI64ArrayAttr(perm))}));
  SmallVector<int64_t> swapped = {groups * coutG, cinG};
  swapped.append(k);
  w = TRY(reshapeTo(c, w, swapped, true));
  for (int64_t d = 0; d < n; ++d) {
    if (k[d] == 1)
      continue;
    SmallVector<int64_t> reversed;
    for (int64_t i = k[d] - 1; i >= 0; --i)
      reversed.push_back(i);
    w = TRY(c.build1("tcc.gather", {w, c.i64Vector(reversed)},
                     {c.named("axis", c.b.getI64IntegerAttr(2 + d))}));
  }
  Window win;
  win.kernel = k;
  win.strides.assign(n, 1);
  win.dilations = dilations;
  win.pads.resize(2 * n);
  for (int64_t d = 0; d < n; ++d) {
    int64_t full = dilations[d] * (k[d] - 1);
    win.pads[d] = full - pads[d];
    win.pads[d + n] = full - pads[d + n] + outPad[d];
    if (win.pads[d] < 0 || win.pads[d + n] < 0)
      return c.fail("pads larger than dilation * (kernel - 1) are not "
                    "supported");
  }
  return convWindow(c, x, w, c.operand(2), win, groups);
}

FailureOr<Value> pool(NodeContext &c, llvm::StringRef name) {
  Value x = c.operand(0);
  if (c.intAttr("storage_order", 0))
    return c.fail("storage_order = 1 is not supported");
  bool ceil = c.intAttr("ceil_mode", 0) != 0;
  bool includePad = name == "avg_pool2d" && c.intAttr("count_include_pad", 0);
  bool dilated =
      c.intsAttr("dilations") &&
      llvm::any_of(*c.intsAttr("dilations"), [](int64_t d) { return d != 1; });
  // ceil_mode of a 2-D pool is end padding no window starts in: tcc's pool
  // ops take it at any batch (max pads with the minimum, average counts
  // real elements only), if the explicit pads do not count either.
  if (ceil && !includePad && !dilated && typeOf(x).getRank() == 4) {
    FailureOr<Window> w = windowOf(c, x, c.intsAttr("kernel_shape"));
    if (failed(w))
      return failure();
    SmallVector<int64_t> out, extra;
    if (failed(poolOutputSizes(c, typeOf(x), *w, /*ceil=*/true, out, extra)))
      return failure();
    SmallVector<int64_t> pads = {w->pads[0], w->pads[1], w->pads[2] + extra[0],
                                 w->pads[3] + extra[1]};
    return c.build1(("tcc." + name).str(), {x},
                    {c.named("kernel_size", c.b.getDenseI64ArrayAttr(w->kernel)),
                     c.named("strides", c.b.getDenseI64ArrayAttr(w->strides)),
                     c.named("padding", c.b.getDenseI64ArrayAttr(pads))});
  }
  if (ceil || includePad || dilated || typeOf(x).getRank() == 5) {
    FailureOr<Window> w = windowOf(c, x, c.intsAttr("kernel_shape"));
    if (failed(w))
      return failure();
    return windowBySlices(c, x, *w, name == "max_pool2d", includePad, ceil);
  }
  if (typeOf(x).getRank() == 3) {
    if (c.stringAttr("auto_pad", "NOTSET") != "NOTSET")
      return c.fail("auto_pad with 1-D pooling is not supported");
    std::optional<SmallVector<int64_t>> kernel = c.intsAttr("kernel_shape");
    SmallVector<NamedAttribute> wide;
    widenAttributes(c, kernel, wide);
    if (!kernel)
      return c.fail("has no kernel_shape");
    SmallVector<int64_t> strides = {1, 1}, pads = {0, 0, 0, 0};
    for (NamedAttribute a : wide) {
      auto v = cast<DenseI64ArrayAttr>(a.getValue()).asArrayRef();
      if (a.getName() == "strides")
        strides.assign(v.begin(), v.end());
      else if (a.getName() == "pads")
        pads.assign(v.begin(), v.end());
    }
    Value x4 = TRY(addUnitDim(c, x));
    Value y = TRY(c.build1(("tcc." + name).str(), {x4},
                           {c.named("kernel_size",
                                    c.b.getDenseI64ArrayAttr(*kernel)),
                            c.named("strides", c.b.getDenseI64ArrayAttr(strides)),
                            c.named("padding", c.b.getDenseI64ArrayAttr(pads))}));
    return dropUnitDim(c, y);
  }
  FailureOr<Window> w = windowOf(c, x, c.intsAttr("kernel_shape"));
  if (failed(w))
    return failure();
  return c.build1(("tcc." + name).str(), {x},
                  {c.named("kernel_size", c.b.getDenseI64ArrayAttr(w->kernel)),
                   c.named("strides", c.b.getDenseI64ArrayAttr(w->strides)),
                   c.named("padding", c.b.getDenseI64ArrayAttr(w->pads))});
}

FailureOr<Value> gemm(NodeContext &c) {
  Value a = c.operand(0), b = c.operand(1), bias = c.operand(2);
  float alpha = c.floatAttr("alpha", 1.0f), beta = c.floatAttr("beta", 1.0f);
  bool transA = c.intAttr("transA", 0), transB = c.intAttr("transB", 0);
  auto transpose = [&](Value v) {
    return c.build1("tcc.transpose", {v},
                    {c.named("permutation",
                             c.b.getDenseI64ArrayAttr({1, 0}))});
  };
  if (transA) {
    FailureOr<Value> t = transpose(a);
    if (failed(t))
      return failure();
    a = *t;
  }
  Type element = elementOf(a);
  // The common form: x W^T + b, which tcc.linear is.
  if (transB && alpha == 1.0f && (!bias || (beta == 1.0f &&
                                            typeOf(bias).getRank() == 1))) {
    SmallVector<Value> operands = {a, b};
    if (bias)
      operands.push_back(bias);
    return c.build1("tcc.linear", operands);
  }
  if (transB) {
    FailureOr<Value> t = transpose(b);
    if (failed(t))
      return failure();
    b = *t;
  }
  FailureOr<Value> product = c.build1("tcc.matmul", {a, b});
  if (failed(product))
    return failure();
  Value y = *product;
  if (alpha != 1.0f) {
    FailureOr<Value> s = c.build1("tcc.mul", {y, c.scalar(element, alpha)});
    if (failed(s))
      return failure();
    y = *s;
  }
  if (bias && beta != 0.0f) {
    if (beta != 1.0f) {
      FailureOr<Value> s =
          c.build1("tcc.mul", {bias, c.scalar(element, beta)});
      if (failed(s))
        return failure();
      bias = *s;
    }
    return c.build1("tcc.add", {y, bias});
  }
  return y;
}

/// MatMul with numpy's 1-D rules: a 1-D operand gains a unit dim that the
/// result drops again.
FailureOr<Value> matmul(NodeContext &c) {
  Value a = c.operand(0), b = c.operand(1);
  if (!a || !b)
    return c.fail("needs two inputs");
  bool vecA = typeOf(a).getRank() == 1, vecB = typeOf(b).getRank() == 1;
  if (vecA) {
    FailureOr<Value> r = reshapeTo(c, a, {1, typeOf(a).getDimSize(0)}, true);
    if (failed(r))
      return failure();
    a = *r;
  }
  if (vecB) {
    FailureOr<Value> r = reshapeTo(c, b, {typeOf(b).getDimSize(0), 1}, true);
    if (failed(r))
      return failure();
    b = *r;
  }
  FailureOr<Value> y = c.build1("tcc.matmul", {a, b});
  if (failed(y) || (!vecA && !vecB))
    return y;
  RankedTensorType t = typeOf(*y);
  SmallVector<int64_t> shape(t.getShape());
  if (vecB)
    shape.pop_back();
  if (vecA)
    shape.erase(shape.end() - (vecB ? 1 : 2));
  return reshapeTo(c, *y, shape, true);
}

/// Elementwise f(x) composed of tcc ops, for activations tcc has no op for.
Converter composite(std::function<FailureOr<Value>(NodeContext &, Value)> f) {
  return one([f](NodeContext &c) -> FailureOr<Value> {
    if (!isa<FloatType>(elementOf(c.operand(0))))
      return c.fail("expects a float input");
    return f(c, c.operand(0));
  });
}

/// Shorthands for composites: ops on x and scalar constants.
struct Ops {
  NodeContext &c;
  Type element;
  FailureOr<Value> bin(llvm::StringRef name, Value a, Value b) {
    return c.build1(("tcc." + name).str(), {a, b});
  }
  FailureOr<Value> un(llvm::StringRef name, Value a) {
    return c.build1(("tcc." + name).str(), {a});
  }
  Value k(double v) { return c.scalar(element, v); }
};


FailureOr<Value> clip(NodeContext &c) {
  Value x = c.operand(0);
  Ops o{c, elementOf(x)};
  Value lo = c.operand(1), hi = c.operand(2);
  if (c.opset < 11) {
    if (c.attr("min"))
      lo = o.k(c.floatAttr("min", 0));
    if (c.attr("max"))
      hi = o.k(c.floatAttr("max", 0));
  }
  if (lo)
    x = TRY(o.bin("maximum", x, lo));
  if (hi)
    x = TRY(o.bin("minimum", x, hi));
  return x;
}

/// Shape: the dims of the input, known at import (dynamic ones as "dim d
/// of x"); the value itself is a constant only when all are static.
LogicalResult shape(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  int64_t rank = t.getRank();
  int64_t start = c.intAttr("start", 0), end = c.intAttr("end", rank);
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  KnownInts k;
  for (int64_t d = start; d < end; ++d)
    k.push_back(knownDim(x, d));
  return setKnownResult(c, k, /*scalar=*/false);
}

/// Gather: tcc.gather, and on known integers (a shape) folded.
LogicalResult gather(NodeContext &c) {
  Value x = c.operand(0), idx = c.operand(1);
  int64_t axis = c.intAttr("axis", 0);
  auto known = c.knownInts(0);
  auto indices = c.constantInts(1);
  if (known && indices && typeOf(x).getRank() == 1) {
    KnownInts out;
    for (int64_t i : *indices) {
      int64_t n = known->size();
      if (i < -n || i >= n)
        return c.fail("gathers index " + std::to_string(i) + " of " +
                      std::to_string(n));
      out.push_back((*known)[i < 0 ? i + n : i]);
    }
    return setKnownResult(c, out, /*scalar=*/typeOf(idx).getRank() == 0);
  }
  FailureOr<Value> g = c.build1(
      "tcc.gather", {x, idx}, {c.named("axis", c.b.getI64IntegerAttr(axis))});
  if (failed(g))
    return failure();
  c.results.push_back(*g);
  return success();
}

/// Concat: tcc.concat, and of known integers folded.
LogicalResult concat(NodeContext &c) {
  KnownInts all;
  bool known = true;
  for (unsigned i = 0; i < c.numOperands() && known; ++i) {
    auto k = c.knownInts(i);
    if (!k || typeOf(c.operand(i)).getRank() != 1)
      known = false;
    else
      all.append(k->begin(), k->end());
  }
  if (known) {
    return setKnownResult(c, all, /*scalar=*/false);
  }
  FailureOr<Value> v = c.build1(
      "tcc.concat", c.operands,
      {c.named("axis", c.b.getI64IntegerAttr(c.intAttr("axis", 0)))});
  if (failed(v))
    return failure();
  c.results.push_back(*v);
  return success();
}

/// Reshape to a shape known only at run time (or with several run-time
/// sizes): tcc.reshape with the shape as an operand, its 0 entries (unless
/// allowzero) replaced by x's dims at the same place. The result's dims are
/// the known constants, dynamic for the rest.
FailureOr<Value> runtimeReshape(NodeContext &c, Value target,
                                std::optional<KnownInts> known) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x), st = typeOf(target);
  if (st.getRank() != 1 || st.isDynamicDim(0))
    return c.fail("the target shape's length must be known at import time");
  int64_t n = st.getDimSize(0);
  bool allowZero = c.intAttr("allowzero", 0) != 0;
  if (elementOf(target) != c.b.getI64Type())
    target = TRY(c.build1("tcc.cast", {target}, {},
                          RankedTensorType::get({n}, c.b.getI64Type())));
  if (!allowZero) {
    KnownInts xDims;
    for (int64_t d = 0; d < n; ++d) {
      xDims.push_back(d < t.getRank() ? knownDim(x, d)
                                      : KnownInt{0, Value(), -1});
    }
    Value zero = c.scalar(c.b.getI64Type(), 0);
    Value isZero = TRY(c.build1("tcc.cmp", {target, zero},
                                {c.named("predicate", c.b.getStringAttr("eq"))}));
    target = TRY(c.build1("tcc.select",
                          {isZero, TRY(knownValue(c, xDims, false)), target}));
  }
  SmallVector<std::optional<int64_t>> constants;
  if (known) {
    for (const KnownInt &e : *known)
      constants.push_back(e.isConstant() ? std::optional<int64_t>(e.value)
                                         : std::nullopt);
  } else {
    constants = constantElements(c.operand(1));
  }
  SmallVector<int64_t> dims(n, ShapedType::kDynamic);
  for (int64_t d = 0; int64_t(constants.size()) == n && d < n; ++d) {
    if (!constants[d] || *constants[d] == -1)
      continue;
    if (*constants[d] == 0 && !allowZero)
      dims[d] = d < t.getRank() ? t.getDimSize(d) : ShapedType::kDynamic;
    else
      dims[d] = *constants[d];
  }
  return c.build1("tcc.reshape", {x, target}, {},
                  RankedTensorType::get(dims, t.getElementType()));
}

FailureOr<Value> reshape(NodeContext &c) {
  Value x = c.operand(0);
  SmallVector<int64_t> shape;
  if (c.opset < 5) {
    auto a = c.intsAttr("shape");
    if (!a)
      return c.fail("has no shape");
    shape = *a;
  } else {
    auto k = c.knownInts(1);
    if (!k)
      return runtimeReshape(c, c.operand(1), std::nullopt);
    for (const KnownInt &e : *k) {
      if (e.isConstant()) {
        shape.push_back(e.value);
        continue;
      }
      // "dim d of v": static when v's dim is, else known only at run time.
      int64_t s = typeOf(e.of).getDimSize(e.dim);
      shape.push_back(s);
    }
    // A -1 beside run-time dims copied from x itself ([batch, -1] of
    // [batch, 4, 8]): those dims cancel, and -1 is x's other dims over the
    // shape's other constants.
    RankedTensorType t = typeOf(x);
    auto infer = llvm::find(shape, -1);
    if (infer != shape.end()) {
      SmallVector<bool> copied(t.getRank(), false);
      bool cancels = true;
      int64_t constants = 1;
      for (auto [i, e] : llvm::enumerate(*k)) {
        if (shape[i] == -1)
          continue;
        if (!e.isConstant() && e.of == x && t.isDynamicDim(e.dim) &&
            !copied[e.dim])
          copied[e.dim] = true;
        else if (shape[i] == 0 && !c.intAttr("allowzero", 0) &&
                 int64_t(i) < t.getRank() && t.isDynamicDim(i) && !copied[i])
          copied[i] = true; // 0 copies x's dim i
        else if (ShapedType::isDynamic(shape[i]))
          cancels = false;
        else
          constants *= shape[i] == 0 && !c.intAttr("allowzero", 0)
                           ? t.getDimSize(i)
                           : shape[i];
      }
      int64_t rest = 1;
      for (int64_t d = 0; d < t.getRank() && cancels; ++d) {
        if (copied[d])
          continue;
        if (t.isDynamicDim(d))
          cancels = false;
        else
          rest *= t.getDimSize(d);
      }
      if (cancels && constants > 0 && !ShapedType::isDynamic(constants) &&
          rest % constants == 0 && llvm::any_of(copied, [](bool b) { return b; }))
        *infer = rest / constants;
    }
    // Several sizes known only at run time: the shape goes in as an
    // operand (tcc.reshape infers its -1).
    RankedTensorType xt = typeOf(x);
    int64_t open = 0;
    for (auto [i, v] : llvm::enumerate(shape)) {
      bool copiesDynamic = v == 0 && !c.intAttr("allowzero", 0) &&
                           int64_t(i) < xt.getRank() && xt.isDynamicDim(i);
      open += ShapedType::isDynamic(v) || v == -1 || copiesDynamic;
    }
    if (open > 1)
      return runtimeReshape(c, TRY(knownValue(c, *k, false)), k);
  }
  return reshapeTo(c, x, shape, c.intAttr("allowzero", 0) != 0);
}

FailureOr<Value> flatten(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  // Flatten's axis is in [-r, r]: -1 is r - 1, not r.
  int64_t axis = c.intAttr("axis", 1), rank = t.getRank();
  if (axis < -rank || axis > rank)
    return c.fail("axis " + std::to_string(axis) + " is outside [-" +
                  std::to_string(rank) + ", " + std::to_string(rank) + "]");
  return flattenAt(c, x, axis < 0 ? axis + rank : axis);
}

/// The indices ONNX's Slice selects from a dim of `n` (numpy's rules:
/// negative bounds count from the end, then clamp; either step sign).
SmallVector<int64_t> sliceIndices(int64_t n, int64_t start, int64_t end,
                                  int64_t step) {
  auto clampBound = [&](int64_t v, int64_t lo, int64_t hi) {
    if (v < 0)
      v = v < -n ? -1 : v + n; // Stay below 0 when far out (no overflow).
    return std::clamp(v, lo, hi);
  };
  SmallVector<int64_t> out;
  if (step > 0) {
    int64_t b = clampBound(start, 0, n), f = clampBound(end, 0, n);
    for (int64_t i = b; i < f; i += step)
      out.push_back(i);
  } else {
    int64_t b = clampBound(start, -1, n - 1), f = clampBound(end, -1, n - 1);
    for (int64_t i = b; i > f; i += step)
      out.push_back(i);
  }
  return out;
}

/// Slice with starts or ends known only at run time (a cache position, a
/// sequence length): per sliced axis, ONNX's clamping on 0-D i64 tensors,
/// then a tcc.gather at start + step * iota(count). Axes and steps must be
/// constants.
LogicalResult runtimeSlice(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  int64_t rank = t.getRank();
  int64_t n = typeOf(c.operand(1)).getNumElements();
  if (typeOf(c.operand(1)).getRank() != 1 || ShapedType::isDynamic(n) ||
      typeOf(c.operand(2)).getNumElements() != n)
    return c.fail("starts and ends must be 1-D of one known length");
  SmallVector<int64_t> axes, steps;
  for (int64_t i = 0; i < n; ++i)
    axes.push_back(i);
  if (c.operand(3)) {
    auto a = c.constantInts(3);
    if (!a)
      return c.fail("axes must be known at import time");
    axes = *a;
  }
  steps.assign(n, 1);
  if (c.operand(4)) {
    auto st = c.constantInts(4);
    if (!st)
      return c.fail("steps must be known at import time");
    steps = *st;
  }
  if (int64_t(axes.size()) != n || int64_t(steps.size()) != n)
    return c.fail("starts, ends, axes and steps differ in length");
  Type i64 = c.b.getI64Type();
  Ops o{c, i64};
  auto element = [&](unsigned operand, int64_t i) -> FailureOr<Value> {
    Value v = c.operand(operand);
    if (elementOf(v) != i64)
      v = TRY(c.build1("tcc.cast", {v}, {}, RankedTensorType::get({n}, i64)));
    Value one = TRY(c.build1(
        "tcc.slice", {v},
        {c.named("starts", c.b.getDenseI64ArrayAttr({i})),
         c.named("ends", c.b.getDenseI64ArrayAttr({i + 1}))}));
    return reshapeTo(c, one, {}, true);
  };
  auto clamp = [&](Value v, Value lo, Value hi) -> FailureOr<Value> {
    return o.bin("minimum", TRY(o.bin("maximum", v, lo)), hi);
  };
  auto wrap = [&](Value v, Value dim) -> FailureOr<Value> {
    Value neg = TRY(c.build1("tcc.cmp", {v, o.k(0)},
                             {c.named("predicate", c.b.getStringAttr("lt"))}));
    return c.build1("tcc.select", {neg, TRY(o.bin("add", v, dim)), v});
  };
  for (int64_t i = 0; i < n; ++i) {
    int64_t axis = TRY(normalizeAxis(c, axes[i], rank));
    int64_t step = steps[i];
    if (step == 0)
      return c.fail("a step is 0");
    Value dim = TRY(knownValue(c, {knownDim(x, axis)}, /*scalar=*/true));
    Value start = TRY(wrap(TRY(element(1, i)), dim));
    Value end = TRY(wrap(TRY(element(2, i)), dim));
    Value count;
    if (step > 0) {
      start = TRY(clamp(start, o.k(0), dim));
      end = TRY(clamp(end, o.k(0), dim));
      Value span = TRY(o.bin("add", TRY(o.bin("sub", end, start)), o.k(step - 1)));
      count = TRY(o.bin("div", span, o.k(step)));
    } else {
      Value last = TRY(o.bin("sub", dim, o.k(1)));
      start = TRY(clamp(start, o.k(-1), last));
      end = TRY(clamp(end, o.k(-1), last));
      Value span = TRY(o.bin("add", TRY(o.bin("sub", start, end)), o.k(-step - 1)));
      count = TRY(o.bin("div", span, o.k(-step)));
    }
    count = TRY(reshapeTo(c, TRY(o.bin("maximum", count, o.k(0))), {1}, true));
    Value idx = TRY(c.build1("tcc.iota", {count}, {},
                             RankedTensorType::get({ShapedType::kDynamic}, i64)));
    if (step != 1)
      idx = TRY(o.bin("mul", idx, o.k(step)));
    idx = TRY(o.bin("add", idx, start));
    x = TRY(c.build1("tcc.gather", {x, idx},
                     {c.named("axis", c.b.getI64IntegerAttr(axis))}));
  }
  c.results.push_back(x);
  return success();
}

LogicalResult slice(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  SmallVector<int64_t> starts, ends, axes, steps;
  if (c.opset < 10) {
    starts = c.intsAttr("starts").value_or(SmallVector<int64_t>{});
    ends = c.intsAttr("ends").value_or(SmallVector<int64_t>{});
    axes = c.intsAttr("axes").value_or(SmallVector<int64_t>{});
  } else {
    auto s = c.constantInts(1), e = c.constantInts(2);
    if (!s || !e)
      return runtimeSlice(c);
    starts = *s;
    ends = *e;
    if (c.operand(3)) {
      auto a = c.constantInts(3);
      if (!a)
        return c.fail("axes must be known at import time");
      axes = *a;
    }
    if (c.operand(4)) {
      auto st = c.constantInts(4);
      if (!st)
        return c.fail("steps must be known at import time");
      steps = *st;
    }
  }
  if (axes.empty())
    for (int64_t i = 0; i < int64_t(starts.size()); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return c.fail("starts, ends, axes and steps differ in length");
  int64_t rank = t.getRank();
  SmallVector<int64_t> s(rank, 0), e(rank, INT64_MAX), st(rank, 1);
  SmallVector<bool> reversed(rank, false);
  for (auto [i, a] : llvm::enumerate(axes)) {
    FailureOr<int64_t> n = normalizeAxis(c, a, rank);
    if (failed(n))
      return failure();
    if (steps[i] == 0)
      return c.fail("a step is 0");
    s[*n] = starts[i];
    e[*n] = ends[i];
    st[*n] = steps[i];
    reversed[*n] = steps[i] < 0;
  }
  // Known integers (a shape): the selected elements, folded.
  if (auto k = c.knownInts(0); k && rank == 1) {
    KnownInts out;
    for (int64_t i : sliceIndices(int64_t(k->size()), s[0], e[0], st[0]))
      out.push_back((*k)[i]);
    return setKnownResult(c, out, /*scalar=*/false);
  }
  // Negative steps (tcc.slice's are positive): a gather of the selected
  // indices along each such dim, which must be static.
  for (int64_t d = 0; d < rank; ++d) {
    if (!reversed[d])
      continue;
    int64_t dim = typeOf(x).getDimSize(d);
    if (ShapedType::isDynamic(dim))
      return c.fail("a negative step along a dim known only at run time");
    x = TRY(c.build1("tcc.gather",
                     {x, c.i64Vector(sliceIndices(dim, s[d], e[d], st[d]))},
                     {c.named("axis", c.b.getI64IntegerAttr(d))}));
    s[d] = 0;
    e[d] = INT64_MAX;
    st[d] = 1;
  }
  Value v = x;
  if (llvm::any_of(st, [](int64_t step) { return step != 1; }) ||
      llvm::any_of(s, [](int64_t b) { return b != 0; }) ||
      llvm::any_of(e, [](int64_t b) { return b != INT64_MAX; }))
    v = TRY(c.build1("tcc.slice", {x},
                     {c.named("starts", c.b.getDenseI64ArrayAttr(s)),
                      c.named("ends", c.b.getDenseI64ArrayAttr(e)),
                      c.named("steps", c.b.getDenseI64ArrayAttr(st))}));
  c.results.push_back(v);
  return success();
}

FailureOr<Value> transpose(NodeContext &c) {
  Value x = c.operand(0);
  int64_t rank = typeOf(x).getRank();
  SmallVector<int64_t> perm;
  if (auto p = c.intsAttr("perm"))
    perm = *p;
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  return c.build1("tcc.transpose", {x},
                  {c.named("permutation", c.b.getDenseI64ArrayAttr(perm))});
}

/// The elements of a 1-D integer value that are constants at import, where
/// the value is built from pieces (a concat of constants and run-time
/// scalars, as exporters build target shapes): std::nullopt per element
/// known only at run time; empty when the value's length is not static.
SmallVector<std::optional<int64_t>> constantElements(Value v) {
  auto t = v ? dyn_cast<RankedTensorType>(v.getType()) : nullptr;
  if (!t || t.getRank() > 1 || !t.hasStaticShape())
    return {};
  int64_t n = t.getNumElements();
  SmallVector<std::optional<int64_t>> unknown(n, std::nullopt);
  Operation *def = v.getDefiningOp();
  if (!def)
    return unknown;
  auto fromAttr = [&](Attribute a) -> SmallVector<std::optional<int64_t>> {
    auto dense = dyn_cast_or_null<DenseIntElementsAttr>(a);
    if (!dense || dense.getNumElements() != n)
      return unknown;
    SmallVector<std::optional<int64_t>> out;
    for (APInt e : dense.getValues<APInt>())
      out.push_back(e.getSExtValue());
    return out;
  };
  if (auto k = dyn_cast<ConstantOp>(def))
    return fromAttr(k.getValue());
  if (auto k = dyn_cast<arith::ConstantOp>(def))
    return fromAttr(k.getValue());
  if (auto fe = dyn_cast<tensor::FromElementsOp>(def)) {
    SmallVector<std::optional<int64_t>> out;
    for (Value e : fe.getElements()) {
      auto k = e.getDefiningOp<arith::ConstantOp>();
      auto i = k ? dyn_cast<IntegerAttr>(k.getValue()) : nullptr;
      out.push_back(i ? std::optional<int64_t>(i.getInt()) : std::nullopt);
    }
    return out;
  }
  if (isa<ReshapeOp, CastOp>(def))
    if (auto in = constantElements(def->getOperand(0));
        int64_t(in.size()) == n)
      return in;
  if (auto cat = dyn_cast<ConcatOp>(def)) {
    SmallVector<std::optional<int64_t>> out;
    for (Value in : cat.getInputs()) {
      auto part = constantElements(in);
      if (part.size() != typeOf(in).getNumElements())
        return unknown;
      out.append(part.begin(), part.end());
    }
    return int64_t(out.size()) == n ? out : unknown;
  }
  return unknown;
}

/// Expand to a target shape known only at run time (or with run-time
/// dims): numpy's rule on i64 vectors, where the target is 1 x's dim (1
/// for the dims x lacks), else the target; the result a tcc.broadcast_to
/// with that shape operand. Its dims: x's static ones other than 1, the
/// target's constants, dynamic for the rest.
FailureOr<Value> runtimeExpand(NodeContext &c, Value target,
                               std::optional<KnownInts> known) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x), st = typeOf(target);
  if (st.getRank() != 1 || st.isDynamicDim(0))
    return c.fail("the target shape's length must be known at import time");
  int64_t n = st.getDimSize(0), rank = std::max<int64_t>(n, t.getRank());
  KnownInts xDims;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t xd = d - (rank - t.getRank());
    xDims.push_back(xd < 0 ? KnownInt{1, Value(), -1} : knownDim(x, xd));
  }
  if (elementOf(target) != c.b.getI64Type())
    target = TRY(c.build1("tcc.cast", {target}, {},
                          RankedTensorType::get({n}, c.b.getI64Type())));
  if (n < rank)
    target = TRY(c.build1(
        "tcc.concat",
        {c.i64Vector(SmallVector<int64_t>(rank - n, 1)), target},
        {c.named("axis", c.b.getI64IntegerAttr(0))}));
  Value ones = c.scalar(c.b.getI64Type(), 1);
  Value isOne = TRY(c.build1("tcc.cmp", {target, ones},
                             {c.named("predicate", c.b.getStringAttr("eq"))}));
  Value shape = TRY(c.build1(
      "tcc.select", {isOne, TRY(knownValue(c, xDims, false)), target}));
  SmallVector<std::optional<int64_t>> constants = constantElements(
      c.operand(1) ? c.operand(1) : target);
  if (known) {
    constants.assign(n, std::nullopt);
    for (int64_t i = 0; i < n; ++i)
      if ((*known)[i].isConstant())
        constants[i] = (*known)[i].value;
  }
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t xd = d - (rank - t.getRank()), kd = d - (rank - n);
    int64_t xSize = xd < 0 ? 1 : t.getDimSize(xd);
    std::optional<int64_t> k =
        kd < 0 ? std::optional<int64_t>(1)
               : (int64_t(constants.size()) == n ? constants[kd] : std::nullopt);
    int64_t size = ShapedType::kDynamic;
    if (!ShapedType::isDynamic(xSize) && xSize != 1)
      size = xSize;                      // the target must be 1 or equal
    else if (k && *k != 1)
      size = *k;                         // x's 1 (or dynamic) stretches
    else if (k && *k == 1)
      size = xSize;                      // x's dim, static or not
    dims.push_back(size);
  }
  return c.build1("tcc.broadcast_to", {x, shape}, {},
                  RankedTensorType::get(dims, t.getElementType()));
}

FailureOr<Value> expand(NodeContext &c) {
  Value x = c.operand(0);
  auto k = c.knownInts(1);
  if (!k)
    return runtimeExpand(c, c.operand(1), std::nullopt);
  RankedTensorType t = typeOf(x);
  // numpy broadcasting of x's shape with the given one.
  int64_t rank = std::max<int64_t>(t.getRank(), k->size());
  SmallVector<int64_t> shape(rank);
  for (int64_t i = 0; i < rank; ++i) {
    int64_t xi = i - (rank - t.getRank()), si = i - (rank - k->size());
    int64_t xs = xi >= 0 ? t.getDimSize(xi) : 1;
    int64_t ss = 1;
    if (si >= 0) {
      const KnownInt &e = (*k)[si];
      ss = e.isConstant() ? e.value : typeOf(e.of).getDimSize(e.dim);
    }
    if (ss == 1)
      shape[i] = xs;
    else if (xs == 1 || ShapedType::isDynamic(xs) || xs == ss)
      shape[i] = ss;
    else
      return c.fail("cannot expand a dim of " + std::to_string(xs) + " to " +
                    std::to_string(ss));
  }
  auto result = RankedTensorType::get(shape, t.getElementType());
  if (result == t)
    return x;
  // A dim the target gives only at run time (another tensor's dim) that x
  // does not carry at the same place: the shape goes in as an operand.
  for (int64_t i = 0; i < rank; ++i) {
    int64_t xi = i - (rank - t.getRank()), si = i - (rank - int64_t(k->size()));
    if (si >= 0 && !(*k)[si].isConstant() &&
        !(xi >= 0 && (*k)[si].of == x && (*k)[si].dim == xi))
      return runtimeExpand(c, TRY(knownValue(c, *k, false)), k);
  }
  return c.build1("tcc.broadcast_to", {x}, {}, result);
}

FailureOr<Value> castNode(NodeContext &c) {
  Value x = c.operand(0);
  int64_t to = c.intAttr("to", 0);
  std::optional<::tcc::runtime::DType> d = dtypeOf(static_cast<int32_t>(to));
  if (!d)
    return c.fail("casts to " + onnxTypeName(static_cast<int32_t>(to)) +
                  ", which tcc does not have");
  Type element = elementTypeOf(c.b.getContext(), *d);
  auto type = RankedTensorType::get(typeOf(x).getShape(), element);
  if (type == typeOf(x))
    return x;
  // A small constant (a size or a scalar of shape arithmetic, as in the
  // expanded window functions' Range bounds): folded, so that consumers
  // needing values at import see a constant.
  if (auto values = c.constantDoubles(0);
      values && values->size() <= 64 && type.hasStaticShape()) {
    ::tcc::runtime::HostTensor h(
        *d, std::vector<int64_t>(type.getShape().begin(), type.getShape().end()));
    bool fits = true;
    for (auto [i, v] : llvm::enumerate(*values)) {
      if (*d == ::tcc::runtime::DType::I1)
        setInteger(h, i, v != 0);
      else if (isa<IntegerType>(element)) {
        double w = std::trunc(v);
        fits &= std::isfinite(w) && std::abs(w) < 9.0e15;
        if (isa<IntegerType>(elementOf(x)))
          fits &= std::abs(v) < 9.0e15;
        setInteger(h, i, fits ? int64_t(w) : 0);
      } else
        h.setDouble(i, v);
    }
    // Integers beyond 2^53 do not pass through double exactly: not folded.
    if (fits)
      return c.importer.constant(c.b, c.loc, h, "");
  }
  return c.build1("tcc.cast", {x}, {}, type);
}

/// Constant: its `value` tensor (or value_float(s) / value_int(s)).
LogicalResult constantNode(NodeContext &c) {
  ::tcc::runtime::HostTensor h;
  std::string error;
  if (const onnx::AttributeProto *a = c.attr("value")) {
    if (!tensorFromProto(a->t(), h, error))
      return c.fail(error);
  } else if (const onnx::AttributeProto *a = c.attr("value_float")) {
    h = ::tcc::runtime::HostTensor(::tcc::runtime::DType::F32, {});
    h.setDouble(0, a->f());
  } else if (const onnx::AttributeProto *a = c.attr("value_int")) {
    h = ::tcc::runtime::HostTensor(::tcc::runtime::DType::I64, {});
    setInteger(h, 0, a->i());
  } else if (const onnx::AttributeProto *a = c.attr("value_floats")) {
    h = ::tcc::runtime::HostTensor(::tcc::runtime::DType::F32,
                                 {int64_t(a->floats_size())});
    for (int i = 0; i < a->floats_size(); ++i)
      h.setDouble(i, a->floats(i));
  } else if (const onnx::AttributeProto *a = c.attr("value_ints")) {
    h = ::tcc::runtime::HostTensor(::tcc::runtime::DType::I64,
                                 {int64_t(a->ints_size())});
    for (int i = 0; i < a->ints_size(); ++i)
      setInteger(h, i, a->ints(i));
  } else {
    return c.fail("has no value tcc supports (sparse_value and strings "
                  "are not)");
  }
  c.results.push_back(c.importer.constant(c.b, c.loc, h, c.node.output(0)));
  return success();
}

FailureOr<Value> constantOfShape(NodeContext &c) {
  auto shape = c.constantInts(0);
  ::tcc::runtime::HostTensor value(::tcc::runtime::DType::F32, {1});
  std::string error;
  if (const onnx::AttributeProto *a = c.attr("value"))
    if (!tensorFromProto(a->t(), value, error))
      return c.fail(error);
  if (!shape) {
    // A shape known only at run time (a count after NonZero or TopK):
    // the value broadcast to it, its length (the rank) known at import.
    auto k = c.knownInts(0);
    Value target = k ? TRY(knownValue(c, *k, false)) : c.operand(0);
    RankedTensorType st = typeOf(target);
    if (st.getRank() != 1 || st.isDynamicDim(0))
      return c.fail("the shape's length must be known at import time");
    if (value.numElements() != 1)
      return c.fail("its value must hold one element");
    if (elementOf(target) != c.b.getI64Type())
      target = TRY(c.build1("tcc.cast", {target}, {},
                            RankedTensorType::get(st.getShape(),
                                                  c.b.getI64Type())));
    SmallVector<int64_t> dims(st.getDimSize(0), ShapedType::kDynamic);
    if (k)
      for (auto [i, e] : llvm::enumerate(*k))
        if (e.isConstant())
          dims[i] = e.value;
        else
          dims[i] = typeOf(e.of).getDimSize(e.dim);
    value.shape.clear();
    Value scalar = c.importer.constant(c.b, c.loc, value, "");
    return c.build1("tcc.broadcast_to", {scalar, target}, {},
                    RankedTensorType::get(dims, elementOf(scalar)));
  }
  // Built at import: a bound on its size keeps a damaged model from
  // asking for terabytes.
  int64_t count = 1;
  for (int64_t d : *shape) {
    if (d < 0 || (d != 0 && count > kMaxImportElements / d))
      return c.fail("its shape is negative or too large to build at import");
    count *= d;
  }
  ::tcc::runtime::HostTensor h(value.dtype,
                             std::vector<int64_t>(shape->begin(), shape->end()));
  if (value.numElements() != 1)
    return c.fail("its value must hold one element");
  size_t size = ::tcc::runtime::dtypeSize(value.dtype);
  for (int64_t i = 0; i < h.numElements(); ++i)
    std::memcpy(h.data.data() + i * size, value.data.data(), size);
  return c.importer.constant(c.b, c.loc, h, c.node.output(0));
}

/// A Range whose bounds are known only at run time (a sequence length, a
/// cache position): start + delta * tcc.iota(n) with n = max(ceil((limit -
/// start) / delta), 0) computed in f64 (exact for integers below 2^53; a
/// delta of 0 gives an empty range). A limit that is a run-time dim, with
/// start 0 and delta 1, is the length itself, so that the shape analysis
/// relates the result to that dim.
FailureOr<Value> runtimeRange(NodeContext &c, Type element) {
  Ops o{c, element};
  auto scalar = [&](unsigned i) -> FailureOr<Value> {
    Value v = c.operand(i);
    if (typeOf(v).getNumElements() != 1)
      return c.fail("start, limit and delta must be scalars");
    return typeOf(v).getRank() == 0 ? v : reshapeTo(c, v, {}, true);
  };
  Value s = TRY(scalar(0)), l = TRY(scalar(1)), d = TRY(scalar(2));
  auto start = c.constantInts(0), delta = c.constantInts(2);
  auto limit = c.knownInts(1);
  Value len;
  if (isa<IntegerType>(element) && start && delta && limit &&
      start->front() == 0 && delta->front() == 1) {
    len = TRY(knownValue(c, *limit, /*scalar=*/false));
    if (typeOf(len).getRank() != 1)
      len = TRY(reshapeTo(c, len, {1}, true));
  } else if (isa<IntegerType>(element) && delta && delta->front() != 0) {
    // A constant integer delta: (limit - start + delta - sign) / delta,
    // exact in the element type.
    int64_t dv = delta->front();
    Value span = TRY(o.bin("add", TRY(o.bin("sub", l, s)),
                           o.k(double(dv > 0 ? dv - 1 : dv + 1))));
    Value n = TRY(o.bin("div", span, o.k(double(dv))));
    n = TRY(o.bin("maximum", n, o.k(0)));
    if (!element.isInteger(64))
      n = TRY(c.build1("tcc.cast", {n}, {},
                       RankedTensorType::get({}, c.b.getI64Type())));
    len = TRY(reshapeTo(c, n, {1}, true));
  } else {
    auto f64 = [&](Value v) {
      return c.build1("tcc.cast", {v}, {},
                      RankedTensorType::get({}, c.b.getF64Type()));
    };
    Value q = TRY(o.bin("div", TRY(o.bin("sub", TRY(f64(l)), TRY(f64(s)))),
                        TRY(f64(d))));
    Value n = TRY(c.build1("tcc.cast", {TRY(o.un("ceil", q))}, {},
                           RankedTensorType::get({}, c.b.getI64Type())));
    n = TRY(o.bin("maximum", n, c.scalar(c.b.getI64Type(), 0)));
    len = TRY(reshapeTo(c, n, {1}, true));
  }
  Value i = TRY(c.build1("tcc.iota", {len}, {},
                         RankedTensorType::get({ShapedType::kDynamic}, element)));
  return o.bin("add", TRY(o.bin("mul", i, d)), s);
}

FailureOr<Value> range(NodeContext &c) {
  Type element = elementOf(c.operand(0));
  for (unsigned i = 1; i < 3; ++i)
    if (elementOf(c.operand(i)) != element)
      return c.fail("start, limit and delta differ in element type");
  if (isa<FloatType>(element)) {
    // Floats: count = max(ceil((limit - start) / delta), 0), built here.
    for (unsigned i = 0; i < 3; ++i)
      if (auto v = c.constantDoubles(i); !v || v->size() != 1)
        return runtimeRange(c, element);
    double s = c.constantDoubles(0)->front(), l = c.constantDoubles(1)->front(),
           d = c.constantDoubles(2)->front();
    double count = std::ceil((l - s) / d);
    if (d == 0 || !std::isfinite(count) || count > kMaxImportElements)
      return c.fail("delta is 0 or the range too large to build at import");
    int64_t n = std::max<int64_t>(0, int64_t(count));
    ::tcc::runtime::HostTensor h(*dtypeOfElement(element), {n});
    for (int64_t i = 0; i < n; ++i)
      h.setDouble(i, s + i * d);
    return c.importer.constant(c.b, c.loc, h, c.node.output(0));
  }
  auto start = c.knownInts(0), limit = c.knownInts(1), delta = c.knownInts(2);
  if (!isa<IntegerType>(element) || element.isInteger(1))
    return c.fail("ranges of bools are not supported");
  if (!start || !limit || !delta || !start->front().isConstant() ||
      !limit->front().isConstant() || !delta->front().isConstant())
    return runtimeRange(c, element);
  int64_t s = start->front().value, l = limit->front().value,
          d = delta->front().value;
  if (d == 0)
    return c.fail("delta is 0");
  __int128 span = (__int128)l - s + d + (d > 0 ? -1 : 1);
  __int128 count = span / d;
  if (count > kMaxImportElements)
    return c.fail("the range is too large to build at import");
  int64_t n = std::max<int64_t>(0, int64_t(count));
  if (n > kMaxImportElements)
    return c.fail("the range is too large to build at import");
  ::tcc::runtime::HostTensor h(element.isInteger(32) ? ::tcc::runtime::DType::I32
                                                   : ::tcc::runtime::DType::I64,
                             {n});
  for (int64_t i = 0; i < n; ++i)
    setInteger(h, i, s + i * d);
  return c.importer.constant(c.b, c.loc, h, c.node.output(0));
}

FailureOr<Value> layerNormValue(NodeContext &c) {
  Value x = c.operand(0), scale = c.operand(1), bias = c.operand(2);
  RankedTensorType t = typeOf(x);
  FailureOr<int64_t> axis = normalizeAxis(c, c.intAttr("axis", -1), t.getRank());
  if (failed(axis))
    return failure();
  if (!bias) {
    auto type = RankedTensorType::get(typeOf(scale).getShape(), elementOf(x));
    bias = ConstantOp::create(
        c.b, c.loc, DenseElementsAttr::get(type, c.b.getZeroAttr(elementOf(x))));
  }
  auto norm = [&](Value v, Value w, Value b) {
    return c.build1("tcc.layer_norm", {v, w, b},
                    {c.named("axis", c.b.getI64IntegerAttr(-1)),
                     c.named("epsilon", c.b.getF32FloatAttr(
                                            c.floatAttr("epsilon", 1e-5f)))});
  };
  if (*axis == t.getRank() - 1)
    return norm(x, scale, bias);
  // Normalizing over dims axis.. : those dims flattened into one (static
  // sizes), the scale and bias likewise.
  int64_t inner = 1;
  for (int64_t d = *axis; d < t.getRank(); ++d) {
    if (t.isDynamicDim(d))
      return c.fail("normalizes over a dim known only at run time");
    inner *= t.getDimSize(d);
  }
  SmallVector<int64_t> flat(t.getShape().take_front(*axis));
  flat.push_back(inner);
  Value fx = TRY(reshapeTo(c, x, flat, true));
  Value fw = TRY(reshapeTo(c, scale, {inner}, true));
  Value fb = TRY(reshapeTo(c, bias, {inner}, true));
  Value y = TRY(norm(fx, fw, fb));
  return reshapeTo(c, y, SmallVector<int64_t>(t.getShape()), true);
}

/// x's mean over `axes` (kept as unit dims), x minus it, and 1 /
/// sqrt(variance + the node's epsilon): LayerNormalization's statistics
/// and InstanceNormalization.
struct Moments {
  Value mean, centered, inverseStd;
};

FailureOr<Moments> moments(NodeContext &c, Value x, ArrayRef<int64_t> axes) {
  SmallVector<NamedAttribute> attrs = {
      c.named("axes", c.b.getDenseI64ArrayAttr(axes)),
      c.named("keep_dims", c.b.getBoolAttr(true))};
  Ops o{c, elementOf(x)};
  Moments m;
  m.mean = TRY(c.build1("tcc.reduce_mean", {x}, attrs));
  m.centered = TRY(o.bin("sub", x, m.mean));
  Value var = TRY(c.build1("tcc.reduce_mean",
                           {TRY(o.bin("mul", m.centered, m.centered))}, attrs));
  m.inverseStd = TRY(o.un(
      "rsqrt", TRY(o.bin("add", var, o.k(c.floatAttr("epsilon", 1e-5f))))));
  return m;
}

/// LayerNormalization: the normalized value, and (when asked for) the
/// mean and 1 / sqrt(variance + epsilon) over the normalized dims, kept as
/// unit dims.
LogicalResult layerNorm(NodeContext &c) {
  FailureOr<Value> y = layerNormValue(c);
  if (failed(y))
    return failure();
  c.results.push_back(*y);
  bool stats = false;
  for (int i = 1; i < c.node.output_size(); ++i)
    stats |= !c.node.output(i).empty();
  if (!stats)
    return success();
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  int64_t axis = c.intAttr("axis", -1);
  if (axis < 0)
    axis += t.getRank();
  SmallVector<int64_t> axes;
  for (int64_t d = axis; d < t.getRank(); ++d)
    axes.push_back(d);
  Moments m = TRY(moments(c, x, axes));
  c.results.push_back(m.mean);
  c.results.push_back(m.inverseStd);
  return success();
}

FailureOr<Value> batchNorm(NodeContext &c) {
  for (int i = 1; i < c.node.output_size(); ++i)
    if (!c.node.output(i).empty())
      return c.fail("training outputs (running mean and var) are not "
                    "supported");
  if (c.intAttr("training_mode", 0))
    return c.fail("training_mode = 1 is not supported");
  return c.build1(
      "tcc.batch_norm",
      {c.operand(0), c.operand(1), c.operand(2), c.operand(3), c.operand(4)},
      {c.named("epsilon",
               c.b.getF32FloatAttr(c.floatAttr("epsilon", 1e-5f)))});
}

FailureOr<Value> globalPool(NodeContext &c, llvm::StringRef name) {
  Value x = c.operand(0);
  int64_t rank = typeOf(x).getRank();
  if (rank < 3)
    return c.fail("expects an N x C x spatial input");
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  return c.build1(("tcc." + name).str(), {x},
                  {c.named("axes", c.b.getDenseI64ArrayAttr(axes)),
                   c.named("keep_dims", c.b.getBoolAttr(true))});
}


/// Logical ops on booleans, from compares and selects.
FailureOr<Value> logical(NodeContext &c, llvm::StringRef kind) {
  Value a = c.operand(0), b = c.operand(1);
  if (!elementOf(a).isInteger(1) || (b && !elementOf(b).isInteger(1)))
    return c.fail("expects boolean inputs");
  auto boolean = [&](bool v) {
    auto type = RankedTensorType::get({}, c.b.getI1Type());
    return ConstantOp::create(c.b, c.loc,
                              DenseElementsAttr::get(type, c.b.getBoolAttr(v)));
  };
  if (kind == "not")
    return c.build1("tcc.cmp", {a, boolean(false)},
                    {c.named("predicate", c.b.getStringAttr("eq"))});
  if (kind == "xor")
    return c.build1("tcc.cmp", {a, b},
                    {c.named("predicate", c.b.getStringAttr("ne"))});
  if (kind == "and")
    return c.build1("tcc.select", {a, b, boolean(false)});
  return c.build1("tcc.select", {a, boolean(true), b}); // or
}

/// Reductions tcc has no op for, from reduce_sum: x -> f(x) summed, then g.
FailureOr<Value> composedReduce(NodeContext &c, llvm::StringRef inner,
                                llvm::StringRef outer) {
  Value x = c.operand(0);
  Ops o{c, elementOf(x)};
  Value mapped = x;
  if (inner == "square")
    mapped = TRY(o.bin("mul", x, x));
  else if (!inner.empty())
    mapped = TRY(o.un(inner, x));
  // reduce() reads operand 0 (and the axes input): swap the mapped value in.
  Value original = c.operands[0];
  c.operands[0] = mapped;
  FailureOr<Value> sum = reduce(c, "reduce_sum", c.opset >= 18);
  c.operands[0] = original;
  if (failed(sum) || outer.empty())
    return sum;
  return o.un(outer, *sum);
}

/// Split into equal parts, or the sizes of input 1 / attribute `split`.
LogicalResult split(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  FailureOr<int64_t> axis = normalizeAxis(c, c.intAttr("axis", 0), t.getRank());
  if (failed(axis))
    return failure();
  int64_t parts = c.node.output_size();
  SmallVector<int64_t> sizes;
  if (auto a = c.intsAttr("split"))
    sizes = *a;
  else if (c.operand(1)) {
    auto k = c.constantInts(1);
    if (!k)
      return c.fail("split sizes must be known at import time");
    sizes = *k;
  } else {
    int64_t n = t.getDimSize(*axis);
    if (ShapedType::isDynamic(n))
      return c.fail("an even split of a dim known only at run time");
    int64_t each = (n + parts - 1) / parts;
    for (int64_t i = 0, at = 0; i < parts; ++i, at += each)
      sizes.push_back(std::max<int64_t>(0, std::min(each, n - at)));
  }
  if (int64_t(sizes.size()) != parts)
    return c.fail("has " + std::to_string(sizes.size()) + " split sizes for " +
                  std::to_string(parts) + " outputs");
  int64_t start = 0;
  for (int64_t size : sizes) {
    SmallVector<int64_t> starts(t.getRank(), 0), ends(t.getRank(), INT64_MAX);
    starts[*axis] = start;
    ends[*axis] = start + size;
    start += size;
    c.results.push_back(TRY(c.build1(
        "tcc.slice", {x},
        {c.named("starts", c.b.getDenseI64ArrayAttr(starts)),
         c.named("ends", c.b.getDenseI64ArrayAttr(ends))})));
  }
  return success();
}

/// Tile: x concatenated with itself `repeats[d]` times along each dim d.
FailureOr<Value> tile(NodeContext &c) {
  Value x = c.operand(0);
  auto repeats = c.constantInts(1);
  if (!repeats || int64_t(repeats->size()) != typeOf(x).getRank())
    return c.fail("repeats must be known at import time, one per dim");
  for (auto [d, r] : llvm::enumerate(*repeats)) {
    if (r < 1 || r > 4096)
      return c.fail("repeats of " + std::to_string(r) +
                    " (1 to 4096 supported)");
    if (r == 1)
      continue;
    SmallVector<Value> copies(r, x);
    x = TRY(c.build1("tcc.concat", copies,
                     {c.named("axis", c.b.getI64IntegerAttr(d))}));
  }
  return x;
}

/// Pad in constant mode with static sizes: constant blocks concatenated
/// on each side (negative pads slice instead).
/// x with `before` / `after` elements of `value` added along dim d (a
/// negative count removes elements): a concat with constant blocks, so the
/// shape must be static.
FailureOr<Value> padConstantAlong(NodeContext &c, Value x, int64_t d,
                                  int64_t before, int64_t after, double value) {
  int64_t rank = typeOf(x).getRank();
  for (int side = 0; side < 2; ++side) {
    int64_t n = side == 0 ? before : after;
    if (n == 0)
      continue;
    RankedTensorType cur = typeOf(x);
    if (n < 0) {
      SmallVector<int64_t> starts(rank, 0), ends(rank, INT64_MAX);
      if (side == 0)
        starts[d] = -n;
      else
        ends[d] = n; // counts from the end
      x = TRY(c.build1("tcc.slice", {x},
                       {c.named("starts", c.b.getDenseI64ArrayAttr(starts)),
                        c.named("ends", c.b.getDenseI64ArrayAttr(ends))}));
      continue;
    }
    if (!cur.hasStaticShape())
      return c.fail("padding a tensor with dims known only at run time");
    SmallVector<int64_t> shape(cur.getShape());
    shape[d] = n;
    auto type = RankedTensorType::get(shape, cur.getElementType());
    Attribute v = isa<FloatType>(cur.getElementType())
                      ? Attribute(c.b.getFloatAttr(cur.getElementType(), value))
                      : Attribute(c.b.getIntegerAttr(cur.getElementType(),
                                                     int64_t(value)));
    Value block = ConstantOp::create(c.b, c.loc, DenseElementsAttr::get(type, v));
    SmallVector<Value> parts = side == 0 ? SmallVector<Value>{block, x}
                                         : SmallVector<Value>{x, block};
    x = TRY(c.build1("tcc.concat", parts,
                     {c.named("axis", c.b.getI64IntegerAttr(d))}));
  }
  return x;
}

FailureOr<Value> pad(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  std::string mode = c.stringAttr("mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return c.fail("mode '" + mode + "' is not supported");
  SmallVector<int64_t> pads;
  double value = 0;
  if (c.opset < 11) {
    pads = c.intsAttr("pads").value_or(SmallVector<int64_t>{});
    value = c.floatAttr("value", 0);
  } else {
    auto p = c.constantInts(1);
    if (!p)
      return c.fail("pads must be known at import time");
    pads = *p;
    if (Value v = c.operand(2)) {
      auto k = v.getDefiningOp<ConstantOp>();
      auto dense = k ? dyn_cast<DenseElementsAttr>(k.getValue()) : nullptr;
      if (!dense || dense.getNumElements() != 1)
        return c.failNotKnown(2, "the pad value");
      value = isa<FloatType>(dense.getElementType())
                  ? (*dense.getValues<APFloat>().begin()).convertToDouble()
                  : double((*dense.getValues<APInt>().begin()).getSExtValue());
    }
  }
  int64_t rank = t.getRank();
  SmallVector<int64_t> axes;
  if (c.operand(3)) {
    auto a = c.constantInts(3);
    if (!a)
      return c.fail("axes must be known at import time");
    for (int64_t ax : *a)
      axes.push_back(TRY(normalizeAxis(c, ax, rank)));
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  if (pads.size() != 2 * axes.size())
    return c.fail("expects two pads per padded axis");
  for (auto [i, d] : llvm::enumerate(axes)) {
    int64_t before = pads[i], after = pads[i + axes.size()];
    if (mode != "constant") {
      // edge / reflect: a gather along d with import-time source indices.
      int64_t n = typeOf(x).getDimSize(d);
      if (ShapedType::isDynamic(n))
        return c.fail("edge or reflect padding of a dim known only at run "
                      "time");
      if (before < 0 || after < 0 || (mode == "reflect" &&
                                      (before >= n || after >= n)))
        return c.fail("pads outside what " + mode + " padding takes");
      if (before == 0 && after == 0)
        continue;
      SmallVector<int64_t> source;
      for (int64_t j = -before; j < n + after; ++j) {
        int64_t k = j;
        if (mode == "edge")
          k = std::clamp<int64_t>(j, 0, n - 1);
        else if (j < 0)
          k = -j;
        else if (j >= n)
          k = 2 * (n - 1) - j;
        source.push_back(k);
      }
      x = TRY(c.build1("tcc.gather", {x, c.i64Vector(source)},
                       {c.named("axis", c.b.getI64IntegerAttr(d))}));
      continue;
    }
    x = TRY(padConstantAlong(c, x, d, before, after, value));
  }
  return x;
}

/// InstanceNormalization: per sample and channel over the spatial dims.
FailureOr<Value> instanceNorm(NodeContext &c) {
  Value x = c.operand(0), scale = c.operand(1), bias = c.operand(2);
  RankedTensorType t = typeOf(x);
  if (t.getRank() < 3)
    return c.fail("expects an N x C x spatial input");
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < t.getRank(); ++d)
    axes.push_back(d);
  Moments m = TRY(moments(c, x, axes));
  Ops o{c, elementOf(x)};
  Value centered = m.centered, inv = m.inverseStd;
  // scale and bias [C] -> [C, 1, ..., 1] against [N, C, spatial...].
  SmallVector<int64_t> channel(t.getRank() - 1, 1);
  channel[0] = typeOf(scale).getDimSize(0);
  Value s = TRY(reshapeTo(c, scale, channel, true));
  Value b = TRY(reshapeTo(c, bias, channel, true));
  Value y = TRY(o.bin("mul", TRY(o.bin("mul", centered, inv)), s));
  return o.bin("add", y, b);
}

/// DepthToSpace / SpaceToDepth on static NCHW shapes: reshape, transpose,
/// reshape.
FailureOr<Value> depthSpace(NodeContext &c, bool toSpace) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  int64_t bs = c.intAttr("blocksize", 0);
  if (t.getRank() != 4 || !t.hasStaticShape() || bs < 1)
    return c.fail("expects a static NCHW input and a blocksize");
  int64_t n = t.getDimSize(0), ch = t.getDimSize(1), h = t.getDimSize(2),
          w = t.getDimSize(3);
  SmallVector<int64_t> first, perm, last;
  if (toSpace) {
    if (ch % (bs * bs))
      return c.fail("channels do not divide by blocksize^2");
    bool crd = c.stringAttr("mode", "DCR") == "CRD";
    int64_t cc = ch / (bs * bs);
    first = crd ? SmallVector<int64_t>{n, cc, bs, bs, h, w}
                : SmallVector<int64_t>{n, bs, bs, cc, h, w};
    perm = crd ? SmallVector<int64_t>{0, 1, 4, 2, 5, 3}
               : SmallVector<int64_t>{0, 3, 4, 1, 5, 2};
    last = {n, cc, h * bs, w * bs};
  } else {
    if (h % bs || w % bs)
      return c.fail("spatial dims do not divide by blocksize");
    first = {n, ch, h / bs, bs, w / bs, bs};
    // Opset 28's CRD mode keeps each channel's block together.
    std::string mode = c.stringAttr("mode", "DCR");
    if (mode != "DCR" && mode != "CRD")
      return c.fail("mode '" + mode + "' is unknown");
    perm = mode == "CRD" ? SmallVector<int64_t>{0, 1, 3, 5, 2, 4}
                         : SmallVector<int64_t>{0, 3, 5, 1, 2, 4};
    last = {n, ch * bs * bs, h / bs, w / bs};
  }
  Value r = TRY(reshapeTo(c, x, first, true));
  Value p = TRY(c.build1("tcc.transpose", {r},
                         {c.named("permutation",
                                  c.b.getDenseI64ArrayAttr(perm))}));
  return reshapeTo(c, p, last, true);
}

/// Trilu: a select with a mask of the last two dims, j - i >= k (upper) or
/// <= k (lower). Static dims and a constant k give an import-time mask;
/// otherwise (a causal mask of a run-time sequence length, a run-time k)
/// the mask is built from two tcc.iota of the dims and k.
FailureOr<Value> trilu(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  int64_t rank = t.getRank();
  if (rank < 2)
    return c.fail("expects a rank of 2 or more");
  std::optional<int64_t> k = 0;
  if (c.operand(1)) {
    if (typeOf(c.operand(1)).getNumElements() != 1)
      return c.fail("k must have one element");
    auto kk = c.constantInts(1);
    k = kk ? std::optional<int64_t>(kk->front()) : std::nullopt;
  }
  bool upper = c.intAttr("upper", 1) != 0;
  int64_t rows = t.getDimSize(rank - 2), cols = t.getDimSize(rank - 1);
  Ops o{c, elementOf(x)};
  if (k && !ShapedType::isDynamic(rows) && !ShapedType::isDynamic(cols)) {
    SmallVector<bool> mask;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        mask.push_back(upper ? j - i >= *k : j - i <= *k);
    auto type = RankedTensorType::get({rows, cols}, c.b.getI1Type());
    Value m = ConstantOp::create(c.b, c.loc, DenseElementsAttr::get(type, mask));
    return c.build1("tcc.select", {m, x, o.k(0.0)});
  }
  Type i64 = c.b.getI64Type();
  Ops io{c, i64};
  // iota along dim d of x, shaped [n, 1] (rows) or [n] (columns).
  auto positions = [&](int64_t d) -> FailureOr<Value> {
    int64_t n = t.getDimSize(d);
    Value len = TRY(knownValue(c, {knownDim(x, d)}, /*scalar=*/false));
    return c.build1("tcc.iota", {len}, {}, RankedTensorType::get({n}, i64));
  };
  Value i = TRY(reshapeTo(c, TRY(positions(rank - 2)), {rows, 1}, true));
  Value j = TRY(positions(rank - 1));
  Value diff = TRY(io.bin("sub", j, i));
  Value kv;
  if (k) {
    kv = io.k(double(*k));
  } else {
    kv = c.operand(1);
    if (elementOf(kv) != i64)
      kv = TRY(c.build1("tcc.cast", {kv}, {}, typeOf(kv).clone(i64)));
    kv = TRY(reshapeTo(c, kv, {}, true));
  }
  Value m = TRY(c.build1("tcc.cmp", {diff, kv},
                         {c.named("predicate",
                                  c.b.getStringAttr(upper ? "ge" : "le"))}));
  return c.build1("tcc.select", {m, x, o.k(0.0)});
}


/// An i64 constant counting 0 .. n-1 along dim `axis` of a rank-`rank`
/// tensor whose other dims are 1 (for one-hot masks and arg-reductions).
Value iotaAlong(NodeContext &c, int64_t n, int64_t axis, int64_t rank) {
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = n;
  SmallVector<int64_t> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(i);
  auto type = RankedTensorType::get(shape, c.b.getI64Type());
  return ConstantOp::create(c.b, c.loc, DenseElementsAttr::get(type,
                                                               ArrayRef(values)));
}

/// ArgMax / ArgMin / Hardmax: the index (i64) of the first (or `last`) largest (`isMax`) or smallest
/// element of x along `axis`, a static dim: where x equals its extreme,
/// the position along the axis, else a value past the end; the min (max)
/// of those.
FailureOr<Value> argExtreme(NodeContext &c, Value x, int64_t axis, bool isMax,
                            bool last, bool keep) {
  RankedTensorType t = typeOf(x);
  int64_t n = t.getDimSize(axis);
  if (ShapedType::isDynamic(n))
    return c.fail("reduces a dim known only at run time");
  SmallVector<NamedAttribute> attrs = {
      c.named("axes", c.b.getDenseI64ArrayAttr({axis})),
      c.named("keep_dims", c.b.getBoolAttr(true))};
  Value extreme =
      TRY(c.build1(isMax ? "tcc.reduce_max" : "tcc.reduce_min", {x}, attrs));
  Value hit = TRY(c.build1("tcc.cmp", {x, extreme},
                           {c.named("predicate", c.b.getStringAttr("eq"))}));
  Value iota = iotaAlong(c, n, axis, t.getRank());
  Value outside = c.scalar(c.b.getI64Type(), last ? -1 : n);
  Value candidates = TRY(c.build1("tcc.select", {hit, iota, outside}));
  return c.build1(last ? "tcc.reduce_max" : "tcc.reduce_min", {candidates},
                  {c.named("axes", c.b.getDenseI64ArrayAttr({axis})),
                   c.named("keep_dims", c.b.getBoolAttr(keep))});
}

FailureOr<Value> argReduce(NodeContext &c, bool isMax) {
  Value x = c.operand(0);
  FailureOr<int64_t> axis =
      normalizeAxis(c, c.intAttr("axis", 0), typeOf(x).getRank());
  if (failed(axis))
    return failure();
  return argExtreme(c, x, *axis, isMax, c.intAttr("select_last_index", 0) != 0,
                    c.intAttr("keepdims", 1) != 0);
}

/// CumSum: tcc.cumsum along the axis (an input, known at import), any
/// length, exclusive and reverse as attributes.
FailureOr<Value> cumSum(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  auto axisValue = c.constantInts(1);
  if (!axisValue || axisValue->size() != 1)
    return c.failNotKnown(1, "the axis");
  if (t.getRank() == 0)
    return c.fail("sums a scalar");
  FailureOr<int64_t> axis = normalizeAxis(c, axisValue->front(), t.getRank());
  if (failed(axis))
    return failure();
  return c.build1(
      "tcc.cumsum", {x},
      {c.named("axis", c.b.getI64IntegerAttr(*axis)),
       c.named("exclusive", c.b.getBoolAttr(c.intAttr("exclusive", 0) != 0)),
       c.named("reverse", c.b.getBoolAttr(c.intAttr("reverse", 0) != 0))});
}

/// EyeLike: ones on diagonal k of a static 2-D shape, in `dtype` (x's
/// element type by default).
FailureOr<Value> eyeLike(NodeContext &c) {
  RankedTensorType t = typeOf(c.operand(0));
  if (t.getRank() != 2 || !t.hasStaticShape())
    return c.fail("needs a static 2-D input");
  std::optional<::tcc::runtime::DType> d =
      c.attr("dtype") ? dtypeOf(static_cast<int32_t>(c.intAttr("dtype", 0)))
                      : dtypeOfElement(t.getElementType());
  if (!d)
    return c.fail("its dtype is not a tcc element type");
  int64_t rows = t.getDimSize(0), cols = t.getDimSize(1), k = c.intAttr("k", 0);
  ::tcc::runtime::HostTensor h(*d, {rows, cols});
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      setInteger(h, i * cols + j, j - i == k);
  return c.importer.constant(c.b, c.loc, h, c.node.output(0));
}

/// The n x m (output x input) matrix of ONNX Resize along one dim, from the
/// reference implementation (onnx/reference/ops/op_resize.py): each
/// output's source coordinate by the coordinate transformation, its
/// neighbours (the taps nearest to it, edge-clamped), their coefficients
/// (nearest, linear or cubic) and, with exclude_outside, renormalized
/// without the taps outside. `outside` marks the outputs that take
/// extrapolation_value (tf_crop_and_resize beyond the input).
struct ResizeParams {
  std::string mode, transform, nearest;
  double cubicA;
  bool excludeOutside;
};

SmallVector<double> resizeMatrix(const ResizeParams &p, int64_t in, int64_t out,
                                 double scale, double roiStart, double roiEnd,
                                 SmallVector<bool> &outside) {
  SmallVector<double> m(out * in, 0.0);
  outside.assign(out, false);
  double outWidth = scale * in; // The reference's (possibly fractional) width.
  for (int64_t i = 0; i < out; ++i) {
    double x;
    const std::string &t = p.transform;
    if (t == "align_corners")
      x = outWidth == 1 ? 0.0 : i * (in - 1) / (outWidth - 1);
    else if (t == "asymmetric")
      x = i / scale;
    else if (t == "tf_half_pixel_for_nn")
      x = (i + 0.5) / scale;
    else if (t == "pytorch_half_pixel")
      x = outWidth == 1 ? -0.5 : (i + 0.5) / scale - 0.5;
    else if (t == "half_pixel_symmetric") { // Opset 19.
      double adjustment = double(out) / outWidth;
      double offset = in / 2.0 * (1 - adjustment);
      x = offset + (i + 0.5) / scale - 0.5;
    }
    else if (t == "tf_crop_and_resize") {
      x = outWidth == 1 ? (roiEnd - roiStart) * (in - 1) / 2
                        : i * (roiEnd - roiStart) * (in - 1) / (outWidth - 1);
      x += roiStart * (in - 1);
      if (x < 0 || x > in - 1) {
        outside[i] = true;
        continue;
      }
    } else
      x = (i + 0.5) / scale - 0.5; // half_pixel
    double base = std::floor(x);
    double ratio = x == base ? 1.0 : x - base;
    SmallVector<double> coeffs;
    if (p.mode == "nearest") {
      if (ratio == 1.0)
        coeffs = {0, 1};
      else if (p.nearest == "round_prefer_ceil")
        coeffs = {double(ratio < 0.5), double(ratio >= 0.5)};
      else if (p.nearest == "floor")
        coeffs = {1, 0};
      else if (p.nearest == "ceil")
        coeffs = {0, 1};
      else // round_prefer_floor
        coeffs = {double(ratio <= 0.5), double(ratio > 0.5)};
    } else if (p.mode == "linear") {
      coeffs = {1 - ratio, ratio};
    } else { // cubic
      double a = p.cubicA, r = ratio, q = 1 - ratio;
      coeffs = {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
                ((a + 2) * r - (a + 3)) * r * r + 1,
                ((a + 2) * q - (a + 3)) * q * q + 1,
                ((a * (q + 1) - 5 * a) * (q + 1) + 8 * a) * (q + 1) - 4 * a};
    }
    // The n taps nearest to x (ties to the lower), in order.
    int64_t n = coeffs.size();
    SmallVector<int64_t> taps;
    for (int64_t k = int64_t(base) - n; k <= int64_t(base) + n; ++k)
      taps.push_back(k);
    llvm::stable_sort(taps, [&](int64_t a, int64_t b) {
      return std::abs(x - a) < std::abs(x - b);
    });
    taps.resize(n);
    llvm::sort(taps);
    if (p.excludeOutside) {
      double sum = 0;
      for (int64_t k = 0; k < n; ++k) {
        if (taps[k] < 0 || taps[k] >= in)
          coeffs[k] = 0;
        sum += coeffs[k];
      }
      for (double &c : coeffs)
        c /= sum;
    }
    for (int64_t k = 0; k < n; ++k)
      m[i * in + std::clamp<int64_t>(taps[k], 0, in - 1)] += coeffs[k];
  }
  return m;
}

/// Resize (and Upsample): per resized dim, x times that dim's
/// interpolation matrix (built at import; the dim moved last for a
/// tcc.matmul and back), plus extrapolation_value where the output lies
/// outside the input (tf_crop_and_resize). Static shapes; scales, sizes
/// and roi known at import.
FailureOr<Value> resize(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  int64_t rank = t.getRank();
  if (!isa<FloatType>(t.getElementType()))
    return c.fail("resizes a float tensor only");
  // A dim known only at run time (a dynamic batch) must keep its size.
  constexpr int64_t kKeep = -1;
  bool upsample = c.node.op_type() == "Upsample";
  ResizeParams p;
  p.mode = c.stringAttr("mode", "nearest");
  p.transform = c.stringAttr("coordinate_transformation_mode", "half_pixel");
  p.nearest = c.stringAttr("nearest_mode", "round_prefer_floor");
  p.cubicA = c.floatAttr("cubic_coeff_a", -0.75f);
  p.excludeOutside = c.intAttr("exclude_outside", 0) != 0;
  if (p.mode == "bilinear" || p.mode == "trilinear") // Upsample's names.
    p.mode = "linear";
  if (p.mode != "nearest" && p.mode != "linear" && p.mode != "cubic")
    return c.fail("mode '" + p.mode + "' is not supported");
  // Before opset 11 (and Upsample): asymmetric coordinates, floor.
  unsigned scalesAt = 2, sizesAt = 3;
  SmallVector<double> scales, roi;
  std::optional<SmallVector<int64_t>> sizes;
  if (upsample || c.opset < 11) {
    p.transform = "asymmetric";
    p.nearest = "floor";
    scalesAt = 1;
    if (auto a = c.attr("scales"))
      scales.assign(a->floats().begin(), a->floats().end());
  } else {
    if (c.operand(1) && typeOf(c.operand(1)).getNumElements() > 0) {
      auto r = c.constantDoubles(1);
      if (!r)
        return c.failNotKnown(1, "roi");
      roi = *r;
    }
    if (c.operand(sizesAt) && typeOf(c.operand(sizesAt)).getNumElements() > 0) {
      // Sizes from shape arithmetic: x's own run-time dim means "keep".
      if (auto k = c.knownInts(sizesAt)) {
        sizes.emplace();
        for (auto [d, e] : llvm::enumerate(*k)) {
          if (e.isConstant())
            sizes->push_back(e.value);
          else if (e.of == x && e.dim == int64_t(d))
            sizes->push_back(kKeep);
          else
            return c.failNotKnown(sizesAt, "sizes");
        }
      }
      if (!sizes)
        return c.failNotKnown(sizesAt, "sizes");
    }
  }
  if (scales.empty() && !sizes && c.operand(scalesAt) &&
      typeOf(c.operand(scalesAt)).getNumElements() > 0) {
    auto s = c.constantDoubles(scalesAt);
    if (!s)
      return c.failNotKnown(scalesAt, "scales");
    scales = *s;
  }
  // Opset 18: scales or sizes for the dims in `axes` only (the others keep
  // their size), and sizes that keep the aspect ratio.
  if (auto axes = c.intsAttr("axes")) {
    SmallVector<double> fullScales(rank, 1.0);
    SmallVector<int64_t> fullSizes;
    for (int64_t d = 0; d < rank; ++d)
      fullSizes.push_back(t.isDynamicDim(d) ? kKeep : t.getDimSize(d));
    SmallVector<double> fullRoi;
    if (!roi.empty()) {
      fullRoi.assign(rank, 0.0);
      fullRoi.append(rank, 1.0);
    }
    size_t given = sizes ? sizes->size() : scales.size();
    if (given != axes->size() || (!roi.empty() && roi.size() != 2 * given))
      return c.fail("needs one scale or size per entry of axes");
    for (auto [i, a] : llvm::enumerate(*axes)) {
      int64_t d = TRY(normalizeAxis(c, a, rank));
      if (sizes)
        fullSizes[d] = (*sizes)[i];
      else
        fullScales[d] = scales[i];
      if (!roi.empty()) {
        fullRoi[d] = roi[i];
        fullRoi[d + rank] = roi[i + given];
      }
    }
    if (sizes)
      sizes = fullSizes;
    else
      scales = fullScales;
    roi = fullRoi;
  }
  if ((sizes && int64_t(sizes->size()) != rank) ||
      (!sizes && int64_t(scales.size()) != rank))
    return c.fail("needs one scale or size per dim");
  std::string policy = c.stringAttr("keep_aspect_ratio_policy", "stretch");
  std::optional<double> keptScale;
  if (sizes && policy != "stretch") {
    if (policy != "not_larger" && policy != "not_smaller")
      return c.fail("keep_aspect_ratio_policy '" + policy + "' is unknown");
    // One scale for every resized dim (those in axes; all without axes).
    auto axes = c.intsAttr("axes");
    for (int64_t d = 0; d < rank; ++d) {
      if (axes && !llvm::is_contained(*axes, d) &&
          !llvm::is_contained(*axes, d - rank))
        continue;
      if (t.isDynamicDim(d) || (*sizes)[d] == kKeep)
        return c.fail("keep_aspect_ratio_policy over a dim known only at run "
                      "time");
      double s = double((*sizes)[d]) / t.getDimSize(d);
      keptScale = !keptScale ? s
                  : policy == "not_larger" ? std::min(*keptScale, s)
                                           : std::max(*keptScale, s);
    }
    for (int64_t d = 0; keptScale && d < rank; ++d)
      if (!axes || llvm::is_contained(*axes, d) ||
          llvm::is_contained(*axes, d - rank))
        (*sizes)[d] = int64_t(std::nearbyint(*keptScale * t.getDimSize(d)));
  }
  if (c.intAttr("antialias", 0) && p.mode != "nearest") {
    for (int64_t d = 0; d < rank; ++d) {
      if (t.isDynamicDim(d) || (sizes && (*sizes)[d] == kKeep))
        continue;
      double s = sizes ? double((*sizes)[d]) / t.getDimSize(d) : scales[d];
      if (s < 1)
        return c.fail("antialias = 1 when downsampling with mode '" + p.mode +
                      "' is not supported");
    }
  }
  if (p.transform == "tf_crop_and_resize" && int64_t(roi.size()) != 2 * rank)
    return c.fail("tf_crop_and_resize needs an roi of 2 x rank values");
  double extrapolation = c.floatAttr("extrapolation_value", 0.0f);
  Type element = t.getElementType();
  Value y = x;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t in = t.getDimSize(d);
    if (t.isDynamicDim(d) || (sizes && (*sizes)[d] == kKeep)) {
      if (sizes ? (*sizes)[d] == kKeep : scales[d] == 1.0)
        continue;
      return c.fail("resizes dim " + std::to_string(d) +
                    ", whose size is known only at run time");
    }
    double scale;
    int64_t out;
    if (sizes) {
      out = (*sizes)[d];
      scale = keptScale && out != in ? *keptScale : double(out) / in;
    } else {
      scale = scales[d];
      if (!(scale > 0))
        return c.fail("scales must be positive");
      out = int64_t(std::floor(in * scale));
    }
    if (out < 1 || out > (int64_t(1) << 20))
      return c.fail("an output size outside [1, 2^20]");
    double roiStart = roi.empty() ? 0 : roi[d], roiEnd = roi.empty() ? 1 : roi[d + rank];
    SmallVector<bool> outside;
    SmallVector<double> m = resizeMatrix(p, in, out, scale, roiStart, roiEnd,
                                         outside);
    bool identity = out == in && !llvm::is_contained(outside, true);
    for (int64_t i = 0; identity && i < out; ++i)
      for (int64_t k = 0; k < in; ++k)
        identity &= m[i * in + k] == (i == k ? 1.0 : 0.0);
    if (identity)
      continue;
    // y with d last, times M^T [in, out], back.
    SmallVector<int64_t> perm;
    for (int64_t e = 0; e < rank; ++e)
      if (e != d)
        perm.push_back(e);
    perm.push_back(d);
    SmallVector<int64_t> inverse(rank);
    for (int64_t e = 0; e < rank; ++e)
      inverse[perm[e]] = e;
    Value v = y;
    if (d != rank - 1)
      v = TRY(c.build1("tcc.transpose", {v},
                       {c.named("permutation", c.b.getDenseI64ArrayAttr(perm))}));
    if (rank == 1)
      v = TRY(reshapeTo(c, v, {1, in}, true));
    ::tcc::runtime::HostTensor mt(*dtypeOfElement(element), {in, out});
    for (int64_t i = 0; i < out; ++i)
      for (int64_t k = 0; k < in; ++k)
        mt.setDouble(k * out + i, m[i * in + k]);
    v = TRY(c.build1("tcc.matmul",
                     {v, c.importer.constant(c.b, c.loc, mt, "")}));
    if (llvm::is_contained(outside, true)) {
      ::tcc::runtime::HostTensor e(*dtypeOfElement(element), {out});
      for (int64_t i = 0; i < out; ++i)
        e.setDouble(i, outside[i] ? extrapolation : 0.0);
      v = TRY(c.build1("tcc.add", {v, c.importer.constant(c.b, c.loc, e, "")}));
    }
    if (rank == 1)
      v = TRY(reshapeTo(c, v, {out}, true));
    if (d != rank - 1)
      v = TRY(c.build1("tcc.transpose", {v},
                       {c.named("permutation",
                                c.b.getDenseI64ArrayAttr(inverse))}));
    y = v;
  }
  return y;
}

/// Einsum: each operand transposed to the order of a common label list
/// (output labels first, then the summed ones) and given unit dims for the
/// labels it lacks; the product of all (broadcasting), summed over the
/// labels the output drops. "..." stands for the same leading dims in every
/// operand (right-aligned, broadcasting). A label repeated within one
/// operand (a diagonal) is not supported.
FailureOr<Value> einsum(NodeContext &c) {
  std::string eq;
  for (char ch : c.stringAttr("equation", ""))
    if (ch != ' ')
      eq += ch;
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  SmallVector<std::string> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (terms.size() != c.numOperands())
    return c.fail("the equation has " + std::to_string(terms.size()) +
                  " operands, the node " + std::to_string(c.numOperands()));
  // Ellipsis dims: labels '0', '1', ... (right-aligned across operands).
  int64_t ellipsisRank = 0;
  SmallVector<SmallVector<char>> labels;
  for (auto [i, term] : llvm::enumerate(terms)) {
    size_t dots = term.find("...");
    int64_t named = int64_t(term.size()) - (dots == std::string::npos ? 0 : 3);
    int64_t rank = typeOf(c.operand(i)).getRank();
    if (dots == std::string::npos ? named != rank : named > rank)
      return c.fail("term '" + term + "' does not match its operand's rank");
    if (dots != std::string::npos)
      ellipsisRank = std::max(ellipsisRank, rank - named);
  }
  if (ellipsisRank > 9)
    return c.fail("an ellipsis of more than 9 dims");
  auto expand = [&](const std::string &term, int64_t rank) {
    SmallVector<char> out;
    size_t dots = term.find("...");
    for (size_t k = 0; k < term.size(); ++k) {
      if (dots != std::string::npos && k == dots) {
        int64_t n = rank - (int64_t(term.size()) - 3);
        for (int64_t e = ellipsisRank - n; e < ellipsisRank; ++e)
          out.push_back(char('0' + e));
        k += 2;
        continue;
      }
      out.push_back(term[k]);
    }
    return out;
  };
  for (auto [i, term] : llvm::enumerate(terms)) {
    labels.push_back(expand(term, typeOf(c.operand(i)).getRank()));
    for (char ch : labels.back())
      if (llvm::count(labels.back(), ch) > 1)
        return c.fail("a label repeated within one operand (a diagonal) is "
                      "not supported");
    for (char ch : labels.back())
      if (!std::isalpha(ch) && !std::isdigit(ch))
        return c.fail("invalid equation '" + eq + "'");
  }
  SmallVector<char> output;
  if (arrow != std::string::npos) {
    std::string rhs = eq.substr(arrow + 2);
    if (rhs.find("...") != std::string::npos)
      output = expand(rhs, ellipsisRank + int64_t(rhs.size()) - 3);
    else
      output.assign(rhs.begin(), rhs.end());
  } else {
    // Implicit output: the ellipsis, then the labels used once, sorted.
    for (int64_t e = 0; e < ellipsisRank; ++e)
      output.push_back(char('0' + e));
    std::string once;
    for (auto &l : labels)
      for (char ch : l)
        if (std::isalpha(ch)) {
          int64_t uses = 0;
          for (auto &m : labels)
            uses += llvm::count(m, ch);
          if (uses == 1)
            once += ch;
        }
    llvm::sort(once);
    output.append(once.begin(), once.end());
  }
  SmallVector<char> all(output);
  for (auto &l : labels)
    for (char ch : l)
      if (!llvm::is_contained(all, ch))
        all.push_back(ch);
  for (char ch : output)
    if (llvm::count(output, ch) > 1 ||
        llvm::none_of(labels, [&](auto &l) { return llvm::is_contained(l, ch); }))
      return c.fail("output label '" + std::string(1, ch) +
                    "' is repeated or not an input's");
  Value acc;
  for (auto [i, l] : llvm::enumerate(labels)) {
    Value v = c.operand(i);
    // Transpose to the common order, then unit dims for the missing labels.
    SmallVector<int64_t> perm;
    for (char ch : all)
      if (auto it = llvm::find(l, ch); it != l.end())
        perm.push_back(it - l.begin());
    if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      v = TRY(c.build1("tcc.transpose", {v},
                       {c.named("permutation", c.b.getDenseI64ArrayAttr(perm))}));
    SmallVector<int64_t> shape;
    RankedTensorType vt = typeOf(v);
    int64_t next = 0;
    for (char ch : all)
      shape.push_back(llvm::is_contained(l, ch) ? vt.getDimSize(next++) : 1);
    v = TRY(reshapeTo(c, v, shape, true));
    acc = acc ? TRY(c.build1("tcc.mul", {acc, v})) : v;
  }
  if (all.size() == output.size())
    return acc;
  SmallVector<int64_t> summed;
  for (int64_t d = output.size(); d < int64_t(all.size()); ++d)
    summed.push_back(d);
  return c.build1("tcc.reduce_sum", {acc},
                  {c.named("axes", c.b.getDenseI64ArrayAttr(summed)),
                   c.named("keep_dims", c.b.getBoolAttr(false))});
}

/// OneHot: indices (cast to i64, negative ones wrapped by depth) compared
/// with an iota of depth inserted at `axis`; values[1] where equal, else
/// values[0]. depth must be known at import.
FailureOr<Value> oneHot(NodeContext &c) {
  Value indices = c.operand(0), values = c.operand(2);
  auto depthValue = c.constantDoubles(1);
  if (!depthValue || depthValue->size() != 1)
    return c.failNotKnown(1, "depth");
  int64_t depth = int64_t(depthValue->front());
  if (depth < 1 || depth > (int64_t(1) << 20))
    return c.fail("depth outside [1, 2^20]");
  if (!values || typeOf(values).getNumElements() != 2)
    return c.fail("values must hold two elements");
  RankedTensorType it = typeOf(indices);
  int64_t rank = it.getRank() + 1;
  FailureOr<int64_t> axis = normalizeAxis(c, c.intAttr("axis", -1), rank);
  if (failed(axis))
    return failure();
  Type i64 = c.b.getI64Type();
  if (it.getElementType() != i64)
    indices = TRY(c.build1("tcc.cast", {indices}, {},
                           RankedTensorType::get(it.getShape(), i64)));
  Value negative = TRY(c.build1("tcc.cmp", {indices, c.scalar(i64, 0)},
                                {c.named("predicate", c.b.getStringAttr("lt"))}));
  Value wrapped = TRY(c.build1("tcc.add", {indices, c.scalar(i64, depth)}));
  indices = TRY(c.build1("tcc.select", {negative, wrapped, indices}));
  SmallVector<int64_t> wide(it.getShape());
  wide.insert(wide.begin() + *axis, 1);
  indices = TRY(reshapeTo(c, indices, wide, true));
  Value hit = TRY(c.build1("tcc.cmp", {indices, iotaAlong(c, depth, *axis, rank)},
                           {c.named("predicate", c.b.getStringAttr("eq"))}));
  Value flat = TRY(reshapeTo(c, values, {2}, true));
  Value off = TRY(reshapeTo(c, TRY(stridedSlice(c, flat, 0, 0, 1, 1)), {}, true));
  Value on = TRY(reshapeTo(c, TRY(stridedSlice(c, flat, 0, 1, 1, 1)), {}, true));
  return c.build1("tcc.select", {hit, on, off});
}

/// Compress: the positions where the 1-D condition holds (tcc.nonzero, a
/// size known once it has run), gathered along `axis` (of x flattened when
/// there is none). A condition shorter than the dim selects from its
/// start; a longer one is a runtime error (the gather's index check).
FailureOr<Value> compress(NodeContext &c) {
  Value x = c.operand(0), condition = c.operand(1);
  if (typeOf(condition).getRank() != 1)
    return c.fail("expects a 1-D condition");
  if (!elementOf(condition).isInteger(1))
    condition = TRY(c.build1(
        "tcc.cast", {condition}, {},
        RankedTensorType::get(typeOf(condition).getShape(), c.b.getI1Type())));
  int64_t axis = 0;
  if (c.attr("axis"))
    axis = TRY(normalizeAxis(c, c.intAttr("axis", 0), typeOf(x).getRank()));
  else
    x = TRY(reshapeTo(c, x, {-1}, true));
  Value positions = TRY(c.build1("tcc.nonzero", {condition}));
  positions = TRY(reshapeTo(c, positions, {ShapedType::kDynamic}, true));
  return c.build1("tcc.gather", {x, positions},
                  {c.named("axis", c.b.getI64IntegerAttr(axis))});
}

/// HannWindow / HammingWindow / BlackmanWindow: a constant of `size`
/// (known at import) values, periodic (denominator size) or symmetric
/// (size - 1), computed in double.
FailureOr<Value> window(NodeContext &c) {
  auto size = c.constantDoubles(0);
  if (!size || size->size() != 1)
    return c.failNotKnown(0, "the size");
  int64_t n = int64_t(size->front());
  if (n < 1 || n > (int64_t(1) << 24))
    return c.fail("a window size outside [1, 2^24]");
  std::optional<::tcc::runtime::DType> d =
      dtypeOf(static_cast<int32_t>(c.intAttr("output_datatype", 1)));
  if (!d)
    return c.fail("its output_datatype is not a tcc element type");
  double denominator = c.intAttr("periodic", 1) ? n : n - 1;
  const double kPi = 3.14159265358979323846;
  std::string kind = c.node.op_type();
  ::tcc::runtime::HostTensor h(*d, {n});
  for (int64_t i = 0; i < n; ++i) {
    double a = denominator > 0 ? 2 * kPi * i / denominator : 0.0, v;
    if (kind == "HannWindow")
      v = 0.5 - 0.5 * std::cos(a);
    else if (kind == "HammingWindow")
      v = 25.0 / 46.0 - (1 - 25.0 / 46.0) * std::cos(a);
    else
      v = 0.42 - 0.5 * std::cos(a) + 0.08 * std::cos(2 * a);
    h.setDouble(i, v);
  }
  return c.importer.constant(c.b, c.loc, h, c.node.output(0));
}

/// ReverseSequence: along the time axis, each batch entry's first
/// sequence_lens[b] elements reversed: a gather_elements with indices
/// built at import (static shapes, the lengths known).
FailureOr<Value> reverseSequence(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  auto lens = c.constantInts(1);
  if (!lens)
    return c.failNotKnown(1, "sequence_lens");
  if (!t.hasStaticShape() || t.getRank() < 2 ||
      t.getNumElements() > kMaxImportElements)
    return c.fail("expects a static input of rank >= 2");
  int64_t timeAxis = TRY(normalizeAxis(c, c.intAttr("time_axis", 0), t.getRank()));
  int64_t batchAxis =
      TRY(normalizeAxis(c, c.intAttr("batch_axis", 1), t.getRank()));
  if (timeAxis == batchAxis ||
      int64_t(lens->size()) != t.getDimSize(batchAxis))
    return c.fail("time and batch axes must differ, one length per batch");
  ::tcc::runtime::HostTensor idx(::tcc::runtime::DType::I64,
                                 std::vector<int64_t>(t.getShape().begin(),
                                                      t.getShape().end()));
  SmallVector<int64_t> coord(t.getRank(), 0);
  for (int64_t i = 0, e = t.getNumElements(); i < e; ++i) {
    int64_t time = coord[timeAxis], len = (*lens)[coord[batchAxis]];
    if (len < 0 || len > t.getDimSize(timeAxis))
      return c.fail("a sequence length outside [0, time dim]");
    setInteger(idx, i, time < len ? len - 1 - time : time);
    for (int64_t d = t.getRank() - 1; d >= 0; --d) {
      if (++coord[d] < t.getDimSize(d))
        break;
      coord[d] = 0;
    }
  }
  return c.build1("tcc.gather_elements",
                  {x, c.importer.constant(c.b, c.loc, idx, "")},
                  {c.named("axis", c.b.getI64IntegerAttr(timeAxis))});
}

/// MeanVarianceNormalization: (x - mean) / (sqrt(variance) + 1e-9) over
/// `axes` (default 0, 2, 3), as ONNX's function body.
FailureOr<Value> meanVarianceNorm(NodeContext &c) {
  Value x = c.operand(0);
  SmallVector<int64_t> axes =
      c.intsAttr("axes").value_or(SmallVector<int64_t>{0, 2, 3});
  for (int64_t &a : axes)
    a = TRY(normalizeAxis(c, a, typeOf(x).getRank()));
  SmallVector<NamedAttribute> attrs = {
      c.named("axes", c.b.getDenseI64ArrayAttr(axes)),
      c.named("keep_dims", c.b.getBoolAttr(true))};
  Ops o{c, elementOf(x)};
  Value mean = TRY(c.build1("tcc.reduce_mean", {x}, attrs));
  Value centered = TRY(o.bin("sub", x, mean));
  Value var = TRY(c.build1("tcc.reduce_mean",
                           {TRY(o.bin("mul", centered, centered))}, attrs));
  Value std = TRY(o.bin("add", TRY(o.un("sqrt", var)), o.k(1e-9)));
  return o.bin("div", centered, std);
}

/// LRN: x / (bias + alpha / size * (sum of x^2 over the size channels
/// around each))^beta; the channel window as zero-padded strided slices.
FailureOr<Value> lrn(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  int64_t size = c.intAttr("size", 0);
  if (size < 1 || t.getRank() < 3 || ShapedType::isDynamic(t.getDimSize(1)))
    return c.fail("expects size >= 1 and an N x C x ... input, C static");
  Ops o{c, elementOf(x)};
  Value sq = TRY(o.bin("mul", x, x));
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  Value padded = TRY(padConstantAlong(c, sq, 1, before, after, 0.0));
  Value sum;
  for (int64_t k = 0; k < size; ++k) {
    Value part = TRY(stridedSlice(c, padded, 1, k, t.getDimSize(1), 1));
    sum = sum ? TRY(o.bin("add", sum, part)) : part;
  }
  Value scaled = TRY(o.bin("mul", sum, o.k(c.floatAttr("alpha", 1e-4f) / size)));
  Value base = TRY(o.bin("add", scaled, o.k(c.floatAttr("bias", 1.0f))));
  return o.bin("div", x, TRY(o.bin("pow", base, o.k(c.floatAttr("beta", 0.75f)))));
}

/// NonZero: [rank, count] (tcc.nonzero's [count, rank] transposed).
FailureOr<Value> nonZero(NodeContext &c) {
  Value x = c.operand(0);
  Value nz = TRY(c.build1("tcc.nonzero", {x}));
  return c.build1("tcc.transpose", {nz},
                  {c.named("permutation", c.b.getDenseI64ArrayAttr({1, 0}))});
}

/// GatherND: one tcc.gather along x's batch and indexed dims flattened.
/// Each of the k index components is wrapped once (negative counts from
/// the end) and weighted by its stride; batch positions add their offset
/// (an iota along each batch dim). A tuple with a component outside
/// [-dim, dim) gets the flattened length as its index, so the gather's
/// range check reports it. Dims known only at run time enter as tensor.dim
/// scalars; k (the indices' last dim) must be static.
FailureOr<Value> gatherND(NodeContext &c) {
  Value x = c.operand(0), indices = c.operand(1);
  RankedTensorType t = typeOf(x), it = typeOf(indices);
  int64_t b = c.intAttr("batch_dims", 0);
  int64_t r = it.getRank();
  int64_t k = r ? it.getDimSize(r - 1) : -1;
  if (b < 0 || b >= r || k < 1 || ShapedType::isDynamic(k) ||
      b + k > t.getRank())
    return c.fail("expects a static index length, batch_dims + index length "
                  "within x's rank");
  Type i64 = c.b.getI64Type();
  Ops o{c, i64};
  if (it.getElementType() != i64)
    indices = TRY(c.build1("tcc.cast", {indices}, {},
                           RankedTensorType::get(it.getShape(), i64)));
  auto dimOf = [&](Value v, int64_t d) {
    return knownValue(c, {knownDim(v, d)}, /*scalar=*/true);
  };
  // The index tuple's shape: the indices without their last dim.
  SmallVector<int64_t> tupleShape(it.getShape().drop_back());
  Value linear, valid;
  Value stride = o.k(1);
  for (int64_t j = k - 1; j >= 0; --j) {
    SmallVector<int64_t> starts(r, 0), ends(r, INT64_MAX);
    starts[r - 1] = j;
    ends[r - 1] = j + 1;
    Value comp = TRY(c.build1("tcc.slice", {indices},
                              {c.named("starts", c.b.getDenseI64ArrayAttr(starts)),
                               c.named("ends", c.b.getDenseI64ArrayAttr(ends))}));
    comp = TRY(reshapeKeepingDims(c, comp, tupleShape));
    Value dim = TRY(dimOf(x, b + j));
    Value neg = TRY(c.build1("tcc.cmp", {comp, o.k(0)},
                             {c.named("predicate", c.b.getStringAttr("lt"))}));
    comp = TRY(c.build1("tcc.select", {neg, TRY(o.bin("add", comp, dim)), comp}));
    Value ge = TRY(c.build1("tcc.cmp", {comp, o.k(0)},
                            {c.named("predicate", c.b.getStringAttr("ge"))}));
    Value lt = TRY(c.build1("tcc.cmp", {comp, dim},
                            {c.named("predicate", c.b.getStringAttr("lt"))}));
    Value no = c.scalar(c.b.getI1Type(), 0);
    Value ok = TRY(c.build1("tcc.select", {ge, lt, no}));
    valid = valid ? TRY(c.build1("tcc.select", {valid, ok, no})) : ok;
    Value term = TRY(o.bin("mul", comp, stride));
    linear = linear ? TRY(o.bin("add", linear, term)) : term;
    stride = TRY(o.bin("mul", stride, dim));
  }
  // Batch offsets, innermost batch dim first.
  for (int64_t d = b - 1; d >= 0; --d) {
    Value n = TRY(reshapeTo(c, TRY(dimOf(indices, d)), {1}, true));
    Value iota = TRY(c.build1(
        "tcc.iota", {n}, {},
        RankedTensorType::get({it.getDimSize(d)}, i64)));
    SmallVector<int64_t> along(r - 1, 1);
    along[d] = it.getDimSize(d);
    iota = TRY(reshapeTo(c, iota, along, true));
    linear = TRY(o.bin("add", linear, TRY(o.bin("mul", iota, stride))));
    stride = TRY(o.bin("mul", stride, TRY(dimOf(x, d))));
  }
  linear = TRY(c.build1("tcc.select", {valid, linear, stride}));
  // x with its batch and indexed dims flattened into one.
  KnownInts folded = {{-1, Value(), -1}};
  SmallVector<int64_t> foldedShape = {ShapedType::kDynamic};
  bool staticLead = true;
  int64_t lead = 1;
  for (int64_t d = 0; d < b + k; ++d) {
    staticLead &= !t.isDynamicDim(d);
    lead *= t.isDynamicDim(d) ? 1 : t.getDimSize(d);
  }
  if (staticLead)
    foldedShape[0] = lead;
  for (int64_t d = b + k; d < t.getRank(); ++d) {
    folded.push_back(knownDim(x, d));
    foldedShape.push_back(t.getDimSize(d));
  }
  Value flat = TRY(c.build1("tcc.reshape", {x, TRY(knownValue(c, folded, false))},
                            {}, RankedTensorType::get(foldedShape,
                                                      t.getElementType())));
  return c.build1("tcc.gather", {flat, linear},
                  {c.named("axis", c.b.getI64IntegerAttr(0))});
}

/// The recurrences ONNX has, and how each maps onto its tcc op.
enum class RecurrenceKind { LSTM, GRU, RNN };

/// LSTM, GRU and RNN: one tcc.lstm / tcc.gru / tcc.rnn per direction.
/// ONNX's gate order is reordered to PyTorch's in W, R and the biases
/// (constants fold): LSTM (i, o, f, c) to (i, f, c, o), GRU (z, r, h) to
/// (r, z, n). The bias B holds Wb then Rb: their sum for LSTM and RNN, both
/// for GRU (b_hh sits inside the reset gate). An absent initial state is
/// zeros; layout = 1 (batch first) transposes around it. Y is [T, D, B, H],
/// Y_h (and Y_c) [D, B, H]. Peepholes, clip, input_forget, sequence_lens
/// and activations other than the defaults (RNN: Tanh or Relu) are refused
/// by name.
LogicalResult recurrence(NodeContext &c, RecurrenceKind kind) {
  Value x = c.operand(0), w = c.operand(1), r = c.operand(2);
  bool isLSTM = kind == RecurrenceKind::LSTM;
  int64_t gates = isLSTM ? 4 : kind == RecurrenceKind::GRU ? 3 : 1;
  SmallVector<int64_t> order =
      isLSTM ? SmallVector<int64_t>{0, 2, 3, 1}
      : kind == RecurrenceKind::GRU ? SmallVector<int64_t>{1, 0, 2}
                                    : SmallVector<int64_t>{0};
  if (c.operand(4))
    return c.fail("sequence_lens (sequences of different lengths) is not "
                  "supported");
  if (isLSTM && c.operand(7))
    return c.fail("peepholes (input P) are not supported");
  if (c.attr("clip"))
    return c.fail("clip is not supported");
  if (c.intAttr("input_forget", 0))
    return c.fail("input_forget = 1 is not supported");
  std::string nonlinearity = "tanh";
  if (const onnx::AttributeProto *a = c.attr("activations")) {
    SmallVector<StringRef> defaults =
        isLSTM ? SmallVector<StringRef>{"Sigmoid", "Tanh", "Tanh"}
        : kind == RecurrenceKind::GRU ? SmallVector<StringRef>{"Sigmoid", "Tanh"}
                                      : SmallVector<StringRef>{"Tanh"};
    for (int i = 0; i < a->strings_size(); ++i) {
      StringRef name = a->strings(i);
      if (kind == RecurrenceKind::RNN && (name == "Tanh" || name == "Relu")) {
        if (i > 0 && name.lower() != nonlinearity)
          return c.fail("directions with different activations are not "
                        "supported");
        nonlinearity = name.lower();
        continue;
      }
      if (name != defaults[i % defaults.size()])
        return c.fail("activations other than the defaults are not supported");
    }
  }
  std::string direction = c.stringAttr("direction", "forward");
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return c.fail("direction '" + direction + "' is unknown");
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  bool batchFirst = c.intAttr("layout", 0) != 0;
  RankedTensorType rt = typeOf(r);
  if (typeOf(x).getRank() != 3 || typeOf(w).getRank() != 3 || rt.getRank() != 3 ||
      rt.isDynamicDim(2))
    return c.fail("expects X of rank 3, W and R of rank 3 with a static "
                  "hidden size");
  int64_t hidden = rt.getDimSize(2);
  Type et = elementOf(x);
  auto permute = [&](Value v, ArrayRef<int64_t> perm) {
    return c.build1("tcc.transpose", {v},
                    {c.named("permutation", c.b.getDenseI64ArrayAttr(perm))});
  };
  if (batchFirst)
    x = TRY(permute(x, {1, 0, 2}));
  RankedTensorType xt = typeOf(x);
  int64_t batch = xt.getDimSize(1);
  // Rows [k*H, (k+1)*H) of a [.., G*H, ..] tensor along `axis`.
  auto rows = [&](Value v, int64_t axis, int64_t k) {
    int64_t rank = typeOf(v).getRank();
    SmallVector<int64_t> starts(rank, 0), ends(rank, INT64_MAX);
    starts[axis] = k * hidden;
    ends[axis] = (k + 1) * hidden;
    return c.build1("tcc.slice", {v},
                    {c.named("starts", c.b.getDenseI64ArrayAttr(starts)),
                     c.named("ends", c.b.getDenseI64ArrayAttr(ends))});
  };
  // ONNX's gate order to PyTorch's.
  auto reorder = [&](Value v, int64_t axis) -> FailureOr<Value> {
    if (gates == 1)
      return v;
    SmallVector<Value> parts;
    for (int64_t k : order)
      parts.push_back(TRY(rows(v, axis, k)));
    return c.build1("tcc.concat", parts,
                    {c.named("axis", c.b.getI64IntegerAttr(axis))});
  };
  // Entry d of a [D, ...] tensor without its leading dim.
  auto entry = [&](Value v, int64_t d) -> FailureOr<Value> {
    RankedTensorType t = typeOf(v);
    SmallVector<int64_t> starts(t.getRank(), 0), ends(t.getRank(), INT64_MAX);
    starts[0] = d;
    ends[0] = d + 1;
    Value one = TRY(c.build1("tcc.slice", {v},
                             {c.named("starts", c.b.getDenseI64ArrayAttr(starts)),
                              c.named("ends", c.b.getDenseI64ArrayAttr(ends))}));
    return reshapeKeepingDims(c, one, SmallVector<int64_t>(t.getShape().drop_front()));
  };
  auto stateType = RankedTensorType::get({batch, hidden}, et);
  auto initial = [&](unsigned operand, int64_t d) -> FailureOr<Value> {
    if (Value v = c.operand(operand)) {
      Value e = TRY(entry(v, d));
      return typeOf(e) == stateType
                 ? e
                 : c.build1("tcc.broadcast_to", {e}, {}, stateType);
    }
    if (!ShapedType::isDynamic(batch))
      return Value(ConstantOp::create(
          c.b, c.loc,
          DenseElementsAttr::get(stateType, c.b.getZeroAttr(et))));
    KnownInts dims = {{0, x, 1}, {hidden, Value(), -1}};
    return c.build1("tcc.broadcast_to",
                    {c.scalar(et, 0), TRY(knownValue(c, dims, false))}, {},
                    stateType);
  };
  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < dirs; ++d) {
    Value wd = TRY(reorder(TRY(entry(w, d)), 0));
    Value rd = TRY(reorder(TRY(entry(r, d)), 0));
    // Wb and Rb, reordered; zeros when B is absent.
    Value wb, rb;
    if (Value bv = c.operand(3)) {
      Value bd = TRY(entry(bv, d)); // [2*G*H]: Wb then Rb
      SmallVector<int64_t> wbEnd = {gates * hidden}, rbStart = {gates * hidden};
      wb = TRY(reorder(
          TRY(c.build1("tcc.slice", {bd},
                       {c.named("starts", c.b.getDenseI64ArrayAttr({0})),
                        c.named("ends", c.b.getDenseI64ArrayAttr(wbEnd))})),
          0));
      rb = TRY(reorder(
          TRY(c.build1("tcc.slice", {bd},
                       {c.named("starts", c.b.getDenseI64ArrayAttr(rbStart)),
                        c.named("ends",
                                c.b.getDenseI64ArrayAttr({INT64_MAX}))})),
          0));
    } else {
      auto bt = RankedTensorType::get({gates * hidden}, et);
      wb = rb = ConstantOp::create(
          c.b, c.loc, DenseElementsAttr::get(bt, c.b.getZeroAttr(et)));
    }
    Value h0 = TRY(initial(5, d));
    bool reverse = direction == "reverse" || d == 1;
    auto yType =
        RankedTensorType::get({xt.getDimSize(0), batch, hidden}, et);
    SmallVector<NamedAttribute> attrs = {
        c.named("reverse", c.b.getBoolAttr(reverse))};
    FailureOr<Operation *> op = failure();
    if (isLSTM) {
      Value bias = TRY(c.build1("tcc.add", {wb, rb}));
      op = c.build("tcc.lstm", {x, wd, rd, bias, h0, TRY(initial(6, d))},
                   attrs, TypeRange{yType, stateType, stateType});
    } else if (kind == RecurrenceKind::GRU) {
      attrs.push_back(c.named("linear_before_reset",
                              c.b.getBoolAttr(c.intAttr("linear_before_reset", 0))));
      op = c.build("tcc.gru", {x, wd, rd, wb, rb, h0}, attrs,
                   TypeRange{yType, stateType});
    } else {
      Value bias = TRY(c.build1("tcc.add", {wb, rb}));
      attrs.push_back(c.named("nonlinearity", c.b.getStringAttr(nonlinearity)));
      op = c.build("tcc.rnn", {x, wd, rd, bias, h0}, attrs,
                   TypeRange{yType, stateType});
    }
    if (failed(op))
      return failure();
    ys.push_back((*op)->getResult(0));
    hs.push_back((*op)->getResult(1));
    if (isLSTM)
      cs.push_back((*op)->getResult(2));
  }
  // Y [T, D, B, H]; Y_h, Y_c [D, B, H].
  auto stack = [&](ArrayRef<Value> parts, int64_t axis) -> FailureOr<Value> {
    SmallVector<Value> widened;
    for (Value p : parts) {
      SmallVector<int64_t> shape(typeOf(p).getShape());
      shape.insert(shape.begin() + axis, 1);
      widened.push_back(TRY(reshapeKeepingDims(c, p, shape)));
    }
    if (widened.size() == 1)
      return widened.front();
    return c.build1("tcc.concat", widened,
                    {c.named("axis", c.b.getI64IntegerAttr(axis))});
  };
  Value y = TRY(stack(ys, 1)), yh = TRY(stack(hs, 0));
  if (batchFirst) {
    y = TRY(permute(y, {2, 0, 1, 3}));
    yh = TRY(permute(yh, {1, 0, 2}));
  }
  c.results = {y, yh};
  if (isLSTM) {
    Value yc = TRY(stack(cs, 0));
    if (batchFirst)
      yc = TRY(permute(yc, {1, 0, 2}));
    c.results.push_back(yc);
  }
  return success();
}

/// NonMaxSuppression: one tcc.nms. max_output_boxes_per_class,
/// iou_threshold and score_threshold must be known at import (attributes
/// of the op); a missing max is 0, which selects nothing (onnxruntime), a
/// missing IoU threshold 0, a missing score threshold none.
LogicalResult nonMaxSuppression(NodeContext &c) {
  Value boxes = c.operand(0), scores = c.operand(1);
  SmallVector<NamedAttribute> attrs;
  int64_t maxPerClass = 0;
  if (c.operand(2)) {
    auto m = c.constantInts(2);
    if (!m || m->size() != 1)
      return c.failNotKnown(2, "max_output_boxes_per_class");
    maxPerClass = std::max<int64_t>(m->front(), 0);
  }
  attrs.push_back(
      c.named("max_output_per_class", c.b.getI64IntegerAttr(maxPerClass)));
  double iou = 0;
  if (c.operand(3)) {
    auto t = c.constantDoubles(3);
    if (!t || t->size() != 1)
      return c.failNotKnown(3, "iou_threshold");
    iou = t->front();
  }
  attrs.push_back(c.named("iou_threshold", c.b.getF64FloatAttr(iou)));
  if (c.operand(4)) {
    auto t = c.constantDoubles(4);
    if (!t || t->size() != 1)
      return c.failNotKnown(4, "score_threshold");
    attrs.push_back(c.named("score_threshold", c.b.getF64FloatAttr(t->front())));
  }
  if (c.intAttr("center_point_box", 0) != 0)
    attrs.push_back(c.named("center_point_box", c.b.getBoolAttr(true)));
  c.results.push_back(TRY(c.build1("tcc.nms", {boxes, scores}, attrs)));
  return success();
}

/// TopK: a tcc.topk for a k known at import (k selection passes for a
/// small k, else the first k of a sort; equal values by index, as ONNX
/// orders them); a run-time k is a tcc.sort gathered at iota(k), which
/// checks k <= dim at run time.
LogicalResult topK(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  int64_t axis = TRY(normalizeAxis(c, c.intAttr("axis", -1), t.getRank()));
  int64_t n = t.getDimSize(axis);
  std::optional<int64_t> k;
  if (c.opset < 10) {
    k = c.intAttr("k", 0);
  } else if (auto known = c.constantInts(1)) {
    if (known->size() != 1)
      return c.fail("k must have one element");
    k = known->front();
  }
  if (k && (*k < 0 || (!ShapedType::isDynamic(n) && *k > n)))
    return c.fail(llvm::formatv("k = {0} is outside [0, {1}]", *k,
                                ShapedType::isDynamic(n) ? std::string("dim")
                                                         : std::to_string(n))
                      .str());
  bool largest = c.intAttr("largest", 1) != 0;
  if (k) {
    SmallVector<int64_t> shape(t.getShape());
    shape[axis] = *k;
    Operation *top = TRY(c.build(
        "tcc.topk", {x},
        {c.named("k", c.b.getI64IntegerAttr(*k)),
         c.named("axis", c.b.getI64IntegerAttr(axis)),
         c.named("largest", c.b.getBoolAttr(largest))},
        TypeRange{t.clone(shape), RankedTensorType::get(shape, c.b.getI64Type())}));
    llvm::append_range(c.results, top->getResults());
    return success();
  }
  Operation *sorted = TRY(c.build(
      "tcc.sort", {x},
      {c.named("axis", c.b.getI64IntegerAttr(axis)),
       c.named("descending", c.b.getBoolAttr(largest))},
      TypeRange{t, t.clone(c.b.getI64Type())}));
  Type i64 = c.b.getI64Type();
  Value kv = c.operand(1);
  if (typeOf(kv).getNumElements() != 1)
    return c.fail("k must have one element");
  if (elementOf(kv) != i64)
    kv = TRY(c.build1("tcc.cast", {kv}, {}, typeOf(kv).clone(i64)));
  kv = TRY(reshapeTo(c, kv, {1}, true));
  Value positions = TRY(c.build1(
      "tcc.iota", {kv}, {}, RankedTensorType::get({ShapedType::kDynamic}, i64)));
  for (Value r : sorted->getResults())
    c.results.push_back(TRY(c.build1(
        "tcc.gather", {r, positions},
        {c.named("axis", c.b.getI64IntegerAttr(axis))})));
  return success();
}

/// Hardmax: 1 at the first largest element along the axis, 0 elsewhere.
/// Before opset 13, like Softmax, along dim 1 of x flattened at the axis.
FailureOr<Value> hardmax(NodeContext &c) {
  Value x = c.operand(0);
  RankedTensorType t = typeOf(x);
  int64_t rank = std::max<int64_t>(t.getRank(), 1);
  FailureOr<int64_t> axis =
      normalizeAxis(c, c.intAttr("axis", c.opset >= 13 ? -1 : 1), rank);
  if (failed(axis))
    return failure();
  Value in = x;
  int64_t along = *axis;
  if (c.opset < 13) {
    in = TRY(flattenAt(c, x, *axis));
    along = 1;
  }
  Value index = TRY(argExtreme(c, in, along, /*isMax=*/true, /*last=*/false,
                               /*keep=*/true));
  Value iota = iotaAlong(c, typeOf(in).getDimSize(along), along,
                         typeOf(in).getRank());
  Value hit = TRY(c.build1("tcc.cmp", {iota, index},
                           {c.named("predicate", c.b.getStringAttr("eq"))}));
  Value y = TRY(c.build1(
      "tcc.cast", {hit}, {},
      RankedTensorType::get(typeOf(hit).getShape(), t.getElementType())));
  return reshapeTo(c, y, SmallVector<int64_t>(t.getShape()), true);
}

/// NegativeLogLikelihoodLoss of log-probabilities `input` [N, C, d...] at
/// `target` [N, d...], from a one-hot mask of the targets: weighted by
/// `weight` [C] if given, targets equal to `ignore_index` dropped;
/// reduction none, sum or mean (over the weights that count).
FailureOr<Value> nllLoss(NodeContext &c, Value input, Value target,
                         Value weight) {
  RankedTensorType t = typeOf(input);
  if (t.getRank() < 2 || t.isDynamicDim(1))
    return c.fail("expects [N, C, ...] with a static C");
  int64_t classes = t.getDimSize(1), rank = t.getRank();
  std::string reduction = c.stringAttr("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return c.fail("reduction '" + reduction + "' is not supported");
  Ops o{c, elementOf(input)};
  Type i64 = c.b.getI64Type();
  if (elementOf(target) != i64)
    target = TRY(c.build1("tcc.cast", {target}, {},
                          RankedTensorType::get(typeOf(target).getShape(), i64)));
  std::optional<int64_t> ignore;
  if (c.attr("ignore_index"))
    ignore = c.intAttr("ignore_index", 0);
  // The targets that count, and targets safe to gather with (0 where
  // ignored: an ignored index may be out of range).
  Value counts;
  if (ignore) {
    counts = TRY(c.build1("tcc.cmp", {target, c.scalar(i64, *ignore)},
                          {c.named("predicate", c.b.getStringAttr("ne"))}));
    target = TRY(c.build1("tcc.select", {counts, target, c.scalar(i64, 0)}));
  }
  SmallVector<int64_t> unsqueezed(typeOf(target).getShape());
  unsqueezed.insert(unsqueezed.begin() + 1, 1);
  Value t1 = TRY(reshapeTo(c, target, unsqueezed, true));
  Value hot = TRY(c.build1("tcc.cmp", {t1, iotaAlong(c, classes, 1, rank)},
                           {c.named("predicate", c.b.getStringAttr("eq"))}));
  Value picked = TRY(c.build1("tcc.select", {hot, input, o.k(0.0)}));
  picked = TRY(c.build1("tcc.reduce_sum", {picked},
                        {c.named("axes", c.b.getDenseI64ArrayAttr({1})),
                         c.named("keep_dims", c.b.getBoolAttr(false))}));
  Value loss = TRY(o.un("neg", picked));
  Value w;
  if (weight)
    w = TRY(c.build1("tcc.gather", {weight, target},
                     {c.named("axis", c.b.getI64IntegerAttr(0))}));
  if (counts) {
    Value zero = o.k(0.0);
    w = TRY(c.build1("tcc.select", {counts, w ? w : o.k(1.0), zero}));
  }
  if (w)
    loss = TRY(o.bin("mul", loss, w));
  if (reduction == "none")
    return loss;
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < typeOf(loss).getRank(); ++d)
    all.push_back(d);
  SmallVector<NamedAttribute> sumAll = {
      c.named("axes", c.b.getDenseI64ArrayAttr(all)),
      c.named("keep_dims", c.b.getBoolAttr(false))};
  Value total = TRY(c.build1("tcc.reduce_sum", {loss}, sumAll));
  if (reduction == "sum")
    return total;
  if (!w)
    return c.build1("tcc.reduce_mean", {loss}, sumAll);
  if (typeOf(w).getRank() != typeOf(loss).getRank())
    w = TRY(c.build1("tcc.broadcast_to", {w}, {}, typeOf(loss)));
  Value weights = TRY(c.build1("tcc.reduce_sum", {w}, sumAll));
  return o.bin("div", total, weights);
}

/// SoftmaxCrossEntropyLoss: NLL of log_softmax over dim 1, and the log
/// probabilities as the optional second output.
LogicalResult softmaxCrossEntropy(NodeContext &c) {
  Value scores = c.operand(0);
  Value logp = TRY(c.build1("tcc.log_softmax", {scores},
                            {c.named("axis", c.b.getI64IntegerAttr(1))}));
  c.results.push_back(TRY(nllLoss(c, logp, c.operand(1), c.operand(2))));
  c.results.push_back(logp);
  return success();
}

//===----------------------------------------------------------------------===//
// Quantization: composites in float (QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear) and in f64 (the integer convolutions and matrix
// products: f64 holds every int32 accumulator exactly, f32 only up to 2^24).
//===----------------------------------------------------------------------===//

FailureOr<Value> castTo(NodeContext &c, Value v, Type element) {
  if (elementOf(v) == element)
    return v;
  return c.build1("tcc.cast", {v}, {},
                  RankedTensorType::get(typeOf(v).getShape(), element));
}

/// A per-axis parameter (scale or zero point, 0-D or 1-D) shaped to
/// broadcast along `axis` of a rank-`rank` tensor: [n] -> [1, .., n, .., 1].
FailureOr<Value> alongAxis(NodeContext &c, Value p, int64_t axis,
                           int64_t rank) {
  RankedTensorType t = typeOf(p);
  if (t.getRank() == 0 || (t.getRank() == 1 && t.getDimSize(0) == 1))
    return p;
  if (t.getRank() != 1)
    return c.fail("expects a scalar or 1-D scale and zero point (blocked "
                  "quantization is not supported)");
  int64_t a = TRY(normalizeAxis(c, axis, rank));
  SmallVector<int64_t> shape(rank, 1);
  shape[a] = t.getDimSize(0);
  return reshapeTo(c, p, shape, true);
}

/// round-half-even, clamped to the range of `target` (an integer type),
/// then cast to it: `v` is a float tensor.
FailureOr<Value> saturateTo(NodeContext &c, Value v, IntegerType target) {
  Ops o{c, elementOf(v)};
  unsigned w = target.getWidth();
  double lo = target.isUnsigned() ? 0.0 : -std::ldexp(1.0, w - 1);
  double hi = target.isUnsigned() ? std::ldexp(1.0, w) - 1
                                  : std::ldexp(1.0, w - 1) - 1;
  Value r = TRY(o.un("round", v));
  r = TRY(o.bin("maximum", r, o.k(lo)));
  r = TRY(o.bin("minimum", r, o.k(hi)));
  return castTo(c, r, target);
}

/// x - zero_point in `element` (the zero point optional).
FailureOr<Value> shifted(NodeContext &c, Value x, Value zeroPoint,
                         Type element) {
  Value xf = TRY(castTo(c, x, element));
  if (!zeroPoint)
    return xf;
  return c.build1("tcc.sub", {xf, TRY(castTo(c, zeroPoint, element))});
}

IntegerType integerElement(Value v) {
  return v ? dyn_cast<IntegerType>(elementOf(v)) : IntegerType();
}

FailureOr<Value> quantizeLinear(NodeContext &c) {
  Value x = c.operand(0), scale = c.operand(1), zeroPoint = c.operand(2);
  if (!x || !scale)
    return c.fail("needs x and y_scale");
  if (c.intAttr("block_size", 0) != 0)
    return c.fail("blocked quantization (block_size) is not supported");
  IntegerType target = zeroPoint ? integerElement(zeroPoint) : IntegerType();
  if (!zeroPoint) {
    int64_t dtype = c.intAttr("output_dtype", onnx::TensorProto::UINT8);
    std::optional<::tcc::runtime::DType> d = dtypeOf(int32_t(dtype));
    target = d ? dyn_cast<IntegerType>(elementTypeOf(c.b.getContext(), *d))
               : IntegerType();
  }
  if (!target || target.getWidth() == 1)
    return c.fail("quantizes only to integer types");
  // f16 and bf16 divide in f32: round(x / scale) must be exact up to the
  // 16-bit types' range.
  Type f = elementOf(x).isF64() ? elementOf(x) : c.b.getF32Type();
  int64_t rank = typeOf(x).getRank(), axis = c.intAttr("axis", 1);
  Value s = TRY(alongAxis(c, TRY(castTo(c, scale, f)), axis, rank));
  Ops o{c, f};
  Value q = TRY(o.un("round", TRY(o.bin("div", TRY(castTo(c, x, f)), s))));
  if (zeroPoint)
    q = TRY(o.bin("add", q,
                  TRY(alongAxis(c, TRY(castTo(c, zeroPoint, f)), axis, rank))));
  return saturateTo(c, q, target);
}

FailureOr<Value> dequantizeLinear(NodeContext &c) {
  Value x = c.operand(0), scale = c.operand(1), zeroPoint = c.operand(2);
  if (!x || !scale)
    return c.fail("needs x and x_scale");
  if (c.intAttr("block_size", 0) != 0)
    return c.fail("blocked quantization (block_size) is not supported");
  if (!integerElement(x))
    return c.fail("dequantizes only integer types");
  // As onnxruntime and the reference: x - zero_point in f32, times scale.
  Type f32 = c.b.getF32Type();
  int64_t rank = typeOf(x).getRank(), axis = c.intAttr("axis", 1);
  Value d = TRY(castTo(c, x, f32));
  if (zeroPoint)
    d = TRY(c.build1("tcc.sub",
                     {d, TRY(alongAxis(c, TRY(castTo(c, zeroPoint, f32)), axis,
                                       rank))}));
  Value s = TRY(alongAxis(c, scale, axis, rank));
  Type out = elementOf(scale);
  return c.build1("tcc.mul", {TRY(castTo(c, d, out)), s});
}

/// y, y_scale, y_zero_point for uint8, from x's range widened to hold 0.
LogicalResult dynamicQuantizeLinear(NodeContext &c) {
  Value x = c.operand(0);
  if (!x || !elementOf(x).isF32())
    return c.fail("expects an f32 input");
  Ops o{c, elementOf(x)};
  auto all = [&](llvm::StringRef op) {
    return c.build1(("tcc." + op).str(), {x},
                    {c.named("axes", c.b.getDenseI64ArrayAttr({}))});
  };
  Value hi = TRY(o.bin("maximum", TRY(all("reduce_max")), o.k(0.0)));
  Value lo = TRY(o.bin("minimum", TRY(all("reduce_min")), o.k(0.0)));
  Value range = TRY(o.bin("sub", hi, lo));
  // An all-zero x: scale 1 (as onnxruntime), not a division by zero.
  Value flat = TRY(c.build1("tcc.cmp", {range, o.k(0.0)},
                            {c.named("predicate", c.b.getStringAttr("eq"))}));
  range = TRY(c.build1("tcc.select", {flat, o.k(1.0), range}));
  Value scale = TRY(o.bin("div", range, o.k(255.0)));
  Value zp = TRY(o.bin("sub", o.k(0.0), TRY(o.bin("div", lo, scale))));
  zp = TRY(o.un("round", TRY(o.bin("minimum",
                                    TRY(o.bin("maximum", zp, o.k(0.0))),
                                    o.k(255.0)))));
  auto u8 = IntegerType::get(c.b.getContext(), 8, IntegerType::Unsigned);
  Value q = TRY(o.bin("add", TRY(o.un("round", TRY(o.bin("div", x, scale)))),
                      zp));
  c.results.push_back(TRY(saturateTo(c, q, u8)));
  c.results.push_back(scale);
  c.results.push_back(TRY(castTo(c, zp, u8)));
  return success();
}

/// Runs `f` with the node's operands replaced by `operands` (conv() and
/// matmul() read the node's operands and attributes).
FailureOr<Value> withOperands(NodeContext &c, SmallVector<Value> operands,
                              FailureOr<Value> (*f)(NodeContext &)) {
  std::swap(c.operands, operands);
  FailureOr<Value> r = f(c);
  std::swap(c.operands, operands);
  return r;
}

/// (a - a_zero_point) @ (b - b_zero_point) in f64; a's zero point may be
/// per row ([M]), b's per column ([N]).
FailureOr<Value> integerMatmul(NodeContext &c, Value a, Value aZero, Value b,
                               Value bZero) {
  if (!integerElement(a) || !integerElement(b))
    return c.fail("expects integer matrices");
  Type f64 = c.b.getF64Type();
  if (aZero && typeOf(a).getRank() >= 2)
    aZero = TRY(alongAxis(c, aZero, -2, typeOf(a).getRank()));
  Value am = TRY(shifted(c, a, aZero, f64));
  Value bm = TRY(shifted(c, b, bZero, f64));
  return withOperands(c, {am, bm}, matmul);
}

/// conv(x - x_zero_point, w - w_zero_point [+ bias]) in f64; w's zero point
/// may be per output channel.
FailureOr<Value> integerConv(NodeContext &c, Value x, Value xZero, Value w,
                             Value wZero, Value bias) {
  if (!integerElement(x) || !integerElement(w))
    return c.fail("expects integer x and w");
  Type f64 = c.b.getF64Type();
  if (wZero)
    wZero = TRY(alongAxis(c, wZero, 0, typeOf(w).getRank()));
  Value xs = TRY(shifted(c, x, xZero, f64));
  Value ws = TRY(shifted(c, w, wZero, f64));
  SmallVector<Value> operands = {xs, ws};
  if (bias)
    operands.push_back(TRY(castTo(c, bias, f64)));
  return withOperands(c, operands, conv);
}

/// acc * (s1 * s2 / y_scale) + y_zero_point, saturated to the zero point's
/// type (or `fallback`'s without one); `scaleAxis` places a per-channel s2.
FailureOr<Value> requantize(NodeContext &c, Value acc, Value s1, Value s2,
                            Value yScale, Value yZero, Value fallback,
                            int64_t scaleAxis) {
  // The scale ratio in f32, as the reference and onnxruntime compute it.
  Ops f{c, c.b.getF32Type()};
  Value ratio = TRY(f.bin("div", TRY(f.bin("mul", s1, s2)), yScale));
  int64_t rank = typeOf(acc).getRank();
  ratio = TRY(alongAxis(c, ratio, scaleAxis, rank));
  Type f64 = c.b.getF64Type();
  Value r = TRY(c.build1("tcc.mul", {acc, TRY(castTo(c, ratio, f64))}));
  if (yZero)
    r = TRY(c.build1("tcc.add", {r, TRY(castTo(c, yZero, f64))}));
  IntegerType target = integerElement(yZero ? yZero : fallback);
  if (!target || target.getWidth() == 1)
    return c.fail("quantizes only to integer types");
  return saturateTo(c, r, target);
}

FailureOr<Value> matMulInteger(NodeContext &c) {
  Value y = TRY(integerMatmul(c, c.operand(0), c.operand(2), c.operand(1),
                              c.operand(3)));
  return castTo(c, y, c.b.getI32Type());
}

FailureOr<Value> convInteger(NodeContext &c) {
  Value y = TRY(integerConv(c, c.operand(0), c.operand(2), c.operand(1),
                            c.operand(3), Value()));
  return castTo(c, y, c.b.getI32Type());
}

FailureOr<Value> qLinearMatMul(NodeContext &c) {
  if (c.numOperands() < 8)
    return c.fail("needs 8 inputs");
  Value a = c.operand(0), b = c.operand(3);
  Value acc = TRY(integerMatmul(c, a, c.operand(2), b, c.operand(5)));
  // A per-row a_scale scales rows, a per-column b_scale columns: the
  // product of both only broadcasts when at most one is a vector.
  Value as = c.operand(1), bs = c.operand(4);
  if (typeOf(as).getNumElements() != 1 && typeOf(bs).getNumElements() != 1)
    return c.fail("per-row a_scale with per-column b_scale is not supported");
  int64_t axis = typeOf(as).getNumElements() != 1 ? -2 : -1;
  return requantize(c, acc, as, bs, c.operand(6), c.operand(7), a, axis);
}

FailureOr<Value> qLinearConv(NodeContext &c) {
  if (c.numOperands() < 8)
    return c.fail("needs 8 inputs");
  Value x = c.operand(0);
  Value acc = TRY(integerConv(c, x, c.operand(2), c.operand(3), c.operand(5),
                              c.operand(8)));
  return requantize(c, acc, c.operand(1), c.operand(4), c.operand(6),
                    c.operand(7), x, /*per output channel*/ 1);
}

/// Identity-like ops (Identity, Dropout in inference) pass their input.
LogicalResult identity(NodeContext &c) {
  c.results.push_back(c.operand(0));
  passKnown(c);
  // Dropout's optional mask output: in inference nothing is dropped.
  if (c.node.op_type() == "Dropout" && c.node.output_size() > 1 &&
      !c.node.output(1).empty()) {
    RankedTensorType t = typeOf(c.operand(0));
    if (!t.hasStaticShape())
      return c.fail("its mask output of a tensor with run-time dims");
    auto mask = RankedTensorType::get(t.getShape(), c.b.getI1Type());
    c.results.push_back(
        ConstantOp::create(c.b, c.loc, DenseElementsAttr::get(mask, true)));
  }
  return success();
}

} // namespace

const llvm::StringMap<Converter> &mlir::tcc::onnx_import::converters() {
  static const llvm::StringMap<Converter> table = [] {
    llvm::StringMap<Converter> t;
    t["Add"] = binary("add");
    t["Sub"] = binary("sub");
    t["Mul"] = binary("mul");
    t["Div"] = binary("div");
    t["Pow"] = one([](NodeContext &c) -> FailureOr<Value> {
      Value base = c.operand(0), exponent = c.operand(1);
      auto retyped = [&](Value v, Type element) -> FailureOr<Value> {
        if (elementOf(v) == element)
          return v;
        return c.build1("tcc.cast", {v}, {},
                        RankedTensorType::get(typeOf(v).getShape(), element));
      };
      if (!isa<FloatType>(elementOf(base))) {
        // Integer bases: computed in f64 (exact for every result that fits
        // in 53 bits), the result truncated back to the base's type.
        Type f64 = c.b.getF64Type();
        Value p = TRY(c.build1("tcc.pow", {TRY(retyped(base, f64)),
                                           TRY(retyped(exponent, f64))}));
        return retyped(p, elementOf(base));
      }
      if (elementOf(exponent) != elementOf(base))
        exponent = TRY(c.build1(
            "tcc.cast", {exponent}, {},
            RankedTensorType::get(typeOf(exponent).getShape(),
                                  elementOf(base))));
      return c.build1("tcc.pow", {base, exponent});
    });
    t["Max"] = variadic("maximum");
    t["Min"] = variadic("minimum");
    t["Sum"] = variadic("add");
    t["Mean"] = one([](NodeContext &c) -> FailureOr<Value> {
      FailureOr<Value> sum = foldVariadic(c, "add");
      if (failed(sum))
        return failure();
      return c.build1("tcc.div",
                      {*sum, c.scalar(elementOf(*sum), c.numOperands())});
    });
    t["Equal"] = compare("eq");
    t["Less"] = compare("lt");
    t["LessOrEqual"] = compare("le");
    t["Greater"] = compare("gt");
    t["GreaterOrEqual"] = compare("ge");
    t["Where"] = one([](NodeContext &c) {
      return c.build1("tcc.select", {c.operand(0), c.operand(1), c.operand(2)});
    });
    t["Neg"] = [](NodeContext &c) -> LogicalResult {
      // Of known integers (shape arithmetic): folded.
      auto k = c.constantInts(0);
      if (k && typeOf(c.operand(0)).getRank() <= 1 &&
          elementOf(c.operand(0)).isInteger(64)) {
        KnownInts out;
        for (int64_t v : *k)
          out.push_back({int64_t(0 - uint64_t(v)), Value(), -1});
        return setKnownResult(c, out,
                              /*scalar=*/typeOf(c.operand(0)).getRank() == 0);
      }
      return unary("neg")(c);
    };
    t["Exp"] = unary("exp");
    t["Log"] = unary("log");
    t["Sqrt"] = unary("sqrt");
    t["Abs"] = unary("abs");
    t["Tanh"] = unary("tanh");
    t["Sigmoid"] = unary("sigmoid");
    t["Relu"] = unary("relu");
    t["Erf"] = unary("erf");
    for (const char *name : {"Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh",
                             "Cosh", "Asinh", "Acosh", "Atanh", "Floor", "Ceil",
                             "Round"})
      t[name] = unary(llvm::StringRef(name).lower());
    t["IsNaN"] = composite([](NodeContext &c, Value x) {
      return c.build1("tcc.cmp", {x, x},
                      {c.named("predicate", c.b.getStringAttr("ne"))});
    });
    t["IsInf"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      auto equals = [&](double v) {
        return c.build1("tcc.cmp", {x, o.k(v)},
                        {c.named("predicate", c.b.getStringAttr("eq"))});
      };
      double inf = std::numeric_limits<double>::infinity();
      bool neg = c.intAttr("detect_negative", 1),
           pos = c.intAttr("detect_positive", 1);
      Value no = c.scalar(c.b.getI1Type(), 0);
      if (!neg && !pos) // All false, in x's shape.
        return c.build1("tcc.select", {TRY(equals(inf)), no, no});
      if (!neg)
        return equals(inf);
      if (!pos)
        return equals(-inf);
      Value isPos = TRY(equals(inf));
      Value yes = c.scalar(c.b.getI1Type(), 1);
      return c.build1("tcc.select", {isPos, yes, TRY(equals(-inf))});
    });
    t["Celu"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
      Ops o{c, elementOf(x)};
      double alpha = c.floatAttr("alpha", 1.0f);
      Value e = TRY(o.un("exp", TRY(o.bin("div", x, o.k(alpha)))));
      Value low = TRY(o.bin("mul", TRY(o.bin("sub", e, o.k(1.0))), o.k(alpha)));
      return o.bin("add", TRY(o.bin("maximum", x, o.k(0.0))),
                   TRY(o.bin("minimum", low, o.k(0.0))));
    });
    t["Mod"] = one([](NodeContext &c) -> FailureOr<Value> {
      Value a = c.operand(0), b = c.operand(1);
      Value r = TRY(c.build1("tcc.rem", {a, b}));
      if (c.intAttr("fmod", 0) || elementOf(a).isUnsignedInteger())
        return r; // Unsigned: both conventions agree.
      if (isa<FloatType>(elementOf(a)))
        return c.fail("fmod = 0 with floating-point inputs");
      // Python's modulo has the divisor's sign: where the truncated
      // remainder is nonzero and its sign differs from b's, add b.
      Ops o{c, elementOf(a)};
      auto cmp = [&](Value x, Value y, llvm::StringRef p) {
        return c.build1("tcc.cmp", {x, y},
                        {c.named("predicate", c.b.getStringAttr(p))});
      };
      Value rNeg = TRY(cmp(r, o.k(0), "lt")), bNeg = TRY(cmp(b, o.k(0), "lt"));
      Value differ = TRY(cmp(rNeg, bNeg, "ne"));
      Value nonzero = TRY(cmp(r, o.k(0), "ne"));
      Value fix = TRY(c.build1("tcc.select",
                               {nonzero, differ, c.scalar(c.b.getI1Type(), 0)}));
      return c.build1("tcc.select", {fix, TRY(o.bin("add", r, b)), r});
    });
    t["Reciprocal"] = composite([](NodeContext &c, Value x) {
      Ops o{c, elementOf(x)};
      return o.bin("div", o.k(1.0), x);
    });
    t["LeakyRelu"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      Value neg = TRY(c.build1("tcc.cmp", {x, o.k(0.0)},
                               {c.named("predicate", c.b.getStringAttr("lt"))}));
      Value scaled = TRY(o.bin("mul", x, o.k(c.floatAttr("alpha", 0.01f))));
      return c.build1("tcc.select", {neg, scaled, x});
    });
    t["Elu"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      Value neg = TRY(c.build1("tcc.cmp", {x, o.k(0.0)},
                               {c.named("predicate", c.b.getStringAttr("lt"))}));
      Value em1 = TRY(o.bin("sub", TRY(o.un("exp", x)), o.k(1.0)));
      Value scaled = TRY(o.bin("mul", em1, o.k(c.floatAttr("alpha", 1.0f))));
      return c.build1("tcc.select", {neg, scaled, x});
    });
    t["Selu"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      float alpha = c.floatAttr("alpha", 1.67326319217681884765625f);
      float gamma = c.floatAttr("gamma", 1.05070102214813232421875f);
      Value neg = TRY(c.build1("tcc.cmp", {x, o.k(0.0)},
                               {c.named("predicate", c.b.getStringAttr("le"))}));
      Value em1 = TRY(o.bin("sub", TRY(o.un("exp", x)), o.k(1.0)));
      Value low = TRY(o.bin("mul", em1, o.k(alpha)));
      Value sel = TRY(c.build1("tcc.select", {neg, low, x}));
      return o.bin("mul", sel, o.k(gamma));
    });
    t["HardSigmoid"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      Value y = TRY(o.bin("mul", x, o.k(c.floatAttr("alpha", 0.2f))));
      y = TRY(o.bin("add", y, o.k(c.floatAttr("beta", 0.5f))));
      y = TRY(o.bin("maximum", y, o.k(0.0)));
      return o.bin("minimum", y, o.k(1.0));
    });
    t["HardSwish"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      Value y = TRY(o.bin("mul", x, o.k(1.0 / 6.0)));
      y = TRY(o.bin("add", y, o.k(0.5)));
      y = TRY(o.bin("maximum", y, o.k(0.0)));
      y = TRY(o.bin("minimum", y, o.k(1.0)));
      return o.bin("mul", x, y);
    });
    t["Softplus"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      return o.un("log", TRY(o.bin("add", TRY(o.un("exp", x)), o.k(1.0))));
    });
    t["Softsign"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      return o.bin("div", x, TRY(o.bin("add", TRY(o.un("abs", x)), o.k(1.0))));
    });
    t["Mish"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      Value sp = TRY(o.un("log", TRY(o.bin("add", TRY(o.un("exp", x)), o.k(1.0)))));
      return o.bin("mul", x, TRY(o.un("tanh", sp)));
    });
    t["Sign"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      Value pos = TRY(c.build1("tcc.cmp", {x, o.k(0.0)},
                               {c.named("predicate", c.b.getStringAttr("gt"))}));
      Value neg = TRY(c.build1("tcc.cmp", {x, o.k(0.0)},
                               {c.named("predicate", c.b.getStringAttr("lt"))}));
      Value low = TRY(c.build1("tcc.select", {neg, o.k(-1.0), o.k(0.0)}));
      return c.build1("tcc.select", {pos, o.k(1.0), low});
    });
    t["PRelu"] = one([](NodeContext &c) -> FailureOr<Value> {
      Value x = c.operand(0), slope = c.operand(1);
      Ops o{c, elementOf(x)};
      // Before opset 7 a [C] slope applies along dim 1.
      if (c.opset < 7 && typeOf(slope).getRank() == 1 &&
          typeOf(x).getRank() >= 3) {
        SmallVector<int64_t> shape(typeOf(x).getRank() - 1, 1);
        shape[0] = typeOf(slope).getDimSize(0);
        slope = TRY(reshapeTo(c, slope, shape, true));
      }
      Value neg = TRY(c.build1("tcc.cmp", {x, o.k(0.0)},
                               {c.named("predicate", c.b.getStringAttr("lt"))}));
      Value scaled = TRY(o.bin("mul", x, slope));
      return c.build1("tcc.select", {neg, scaled, x});
    });
    t["Shrink"] = composite([](NodeContext &c, Value x) -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      double lambd = c.floatAttr("lambd", 0.5f), bias = c.floatAttr("bias", 0);
      Value low = TRY(c.build1("tcc.cmp", {x, o.k(-lambd)},
                               {c.named("predicate", c.b.getStringAttr("lt"))}));
      Value high = TRY(c.build1("tcc.cmp", {x, o.k(lambd)},
                                {c.named("predicate", c.b.getStringAttr("gt"))}));
      Value up = TRY(o.bin("add", x, o.k(bias)));
      Value down = TRY(o.bin("sub", x, o.k(bias)));
      Value inner = TRY(c.build1("tcc.select", {high, down, o.k(0.0)}));
      return c.build1("tcc.select", {low, up, inner});
    });
    t["Clip"] = one(clip);
    t["And"] = one([](NodeContext &c) { return logical(c, "and"); });
    t["Or"] = one([](NodeContext &c) { return logical(c, "or"); });
    t["Xor"] = one([](NodeContext &c) { return logical(c, "xor"); });
    t["Not"] = one([](NodeContext &c) { return logical(c, "not"); });
    t["QuantizeLinear"] = one(quantizeLinear);
    t["DequantizeLinear"] = one(dequantizeLinear);
    t["DynamicQuantizeLinear"] = dynamicQuantizeLinear;
    t["MatMulInteger"] = one(matMulInteger);
    t["ConvInteger"] = one(convInteger);
    t["QLinearMatMul"] = one(qLinearMatMul);
    t["QLinearConv"] = one(qLinearConv);
    t["BitwiseAnd"] = one([](NodeContext &c) {
      return binaryValue(c, "tcc.bitwise_and");
    });
    t["BitwiseOr"] = one([](NodeContext &c) {
      return binaryValue(c, "tcc.bitwise_or");
    });
    t["BitwiseXor"] = one([](NodeContext &c) {
      return binaryValue(c, "tcc.bitwise_xor");
    });
    t["BitwiseNot"] = one([](NodeContext &c) {
      return c.build1("tcc.bitwise_not", {c.operand(0)});
    });
    t["BitShift"] = one([](NodeContext &c) -> FailureOr<Value> {
      std::string direction = c.stringAttr("direction", "");
      if (direction != "LEFT" && direction != "RIGHT")
        return c.fail("direction must be LEFT or RIGHT, got '" + direction +
                      "'");
      if (!elementOf(c.operand(0)).isUnsignedInteger())
        return c.fail("expects unsigned integer inputs");
      return binaryValue(c, direction == "LEFT" ? "tcc.shift_left"
                                                : "tcc.shift_right");
    });
    t["ReduceSumSquare"] = one([](NodeContext &c) {
      return composedReduce(c, "square", "");
    });
    t["ReduceL1"] = one([](NodeContext &c) {
      return composedReduce(c, "abs", "");
    });
    t["ReduceL2"] = one([](NodeContext &c) {
      return composedReduce(c, "square", "sqrt");
    });
    t["ReduceLogSum"] = one([](NodeContext &c) {
      return composedReduce(c, "", "log");
    });
    t["ReduceLogSumExp"] = one([](NodeContext &c) {
      return composedReduce(c, "exp", "log");
    });
    t["ThresholdedRelu"] = composite([](NodeContext &c, Value x)
                                         -> FailureOr<Value> {
      Ops o{c, elementOf(x)};
      Value above = TRY(c.build1(
          "tcc.cmp", {x, o.k(c.floatAttr("alpha", 1.0f))},
          {c.named("predicate", c.b.getStringAttr("gt"))}));
      return c.build1("tcc.select", {above, x, o.k(0.0)});
    });
    t["CastLike"] = one([](NodeContext &c) -> FailureOr<Value> {
      Value x = c.operand(0);
      auto type = RankedTensorType::get(typeOf(x).getShape(),
                                        elementOf(c.operand(1)));
      if (type == typeOf(x))
        return x;
      return c.build1("tcc.cast", {x}, {}, type);
    });
    t["Size"] = one([](NodeContext &c) -> FailureOr<Value> {
      RankedTensorType t = typeOf(c.operand(0));
      if (!t.hasStaticShape())
        return c.fail("the size of a tensor with run-time dims");
      ::tcc::runtime::HostTensor h(::tcc::runtime::DType::I64, {});
      setInteger(h, 0, t.getNumElements());
      return c.importer.constant(c.b, c.loc, h, "");
    });
    t["Split"] = split;
    t["ArgMax"] = one([](NodeContext &c) { return argReduce(c, true); });
    t["ArgMin"] = one([](NodeContext &c) { return argReduce(c, false); });
    t["Hardmax"] = one(hardmax);
    t["CumSum"] = one(cumSum);
    t["Gelu"] = one([](NodeContext &c) -> FailureOr<Value> {
      std::string approximate = c.stringAttr("approximate", "none");
      if (approximate != "none" && approximate != "tanh")
        return c.fail("approximate = '" + approximate + "' is unknown");
      return c.build1("tcc.gelu", {c.operand(0)},
                      {c.named("approximate", c.b.getStringAttr(approximate))});
    });
    t["TopK"] = topK;
    t["NonMaxSuppression"] = nonMaxSuppression;
    t["LSTM"] = [](NodeContext &c) {
      return recurrence(c, RecurrenceKind::LSTM);
    };
    t["GRU"] = [](NodeContext &c) {
      return recurrence(c, RecurrenceKind::GRU);
    };
    t["RNN"] = [](NodeContext &c) {
      return recurrence(c, RecurrenceKind::RNN);
    };
    t["HannWindow"] = one(window);
    t["HammingWindow"] = one(window);
    t["BlackmanWindow"] = one(window);
    t["ReverseSequence"] = one(reverseSequence);
    t["MeanVarianceNormalization"] = one(meanVarianceNorm);
    t["LRN"] = one(lrn);
    t["NonZero"] = one(nonZero);
    t["GatherND"] = one(gatherND);
    t["Compress"] = one(compress);
    t["OneHot"] = one(oneHot);
    t["Einsum"] = one(einsum);
    t["Resize"] = one(resize);
    t["Upsample"] = one(resize);
    t["EyeLike"] = one(eyeLike);
    t["NegativeLogLikelihoodLoss"] = one([](NodeContext &c) {
      return nllLoss(c, c.operand(0), c.operand(1), c.operand(2));
    });
    t["SoftmaxCrossEntropyLoss"] = softmaxCrossEntropy;
    t["Tile"] = one(tile);
    t["Pad"] = one(pad);
    t["InstanceNormalization"] = one(instanceNorm);
    t["DepthToSpace"] = one([](NodeContext &c) { return depthSpace(c, true); });
    t["SpaceToDepth"] = one([](NodeContext &c) { return depthSpace(c, false); });
    t["Trilu"] = one(trilu);
    t["MatMul"] = one(matmul);
    t["Gemm"] = one(gemm);
    t["Conv"] = one(conv);
    t["ConvTranspose"] = one(convTranspose);
    t["MaxPool"] = one([](NodeContext &c) { return pool(c, "max_pool2d"); });
    t["AveragePool"] =
        one([](NodeContext &c) { return pool(c, "avg_pool2d"); });
    t["GlobalAveragePool"] =
        one([](NodeContext &c) { return globalPool(c, "reduce_mean"); });
    t["GlobalMaxPool"] =
        one([](NodeContext &c) { return globalPool(c, "reduce_max"); });
    t["BatchNormalization"] = one(batchNorm);
    t["LayerNormalization"] = layerNorm;
    t["Softmax"] = one([](NodeContext &c) { return softmax(c, "softmax"); });
    t["LogSoftmax"] =
        one([](NodeContext &c) { return softmax(c, "log_softmax"); });
    t["ReduceSum"] = one([](NodeContext &c) {
      return reduce(c, "reduce_sum", c.opset >= 13);
    });
    t["ReduceMean"] = one([](NodeContext &c) {
      return reduce(c, "reduce_mean", c.opset >= 18);
    });
    t["ReduceMax"] = one([](NodeContext &c) {
      return reduce(c, "reduce_max", c.opset >= 18);
    });
    t["ReduceMin"] = one([](NodeContext &c) {
      return reduce(c, "reduce_min", c.opset >= 18);
    });
    t["ReduceProd"] = one([](NodeContext &c) {
      return reduce(c, "reduce_prod", c.opset >= 18);
    });
    t["Transpose"] = one(transpose);
    t["Reshape"] = one(reshape);
    t["Flatten"] = one(flatten);
    t["Squeeze"] = [](NodeContext &c) -> LogicalResult {
      FailureOr<Value> v = squeeze(c);
      if (failed(v))
        return failure();
      c.results.push_back(*v);
      passKnown(c);
      return success();
    };
    t["Unsqueeze"] = [](NodeContext &c) -> LogicalResult {
      FailureOr<Value> v = unsqueeze(c);
      if (failed(v))
        return failure();
      c.results.push_back(*v);
      passKnown(c);
      return success();
    };
    t["Concat"] = concat;
    t["Slice"] = slice;
    t["Gather"] = gather;
    t["GatherElements"] = one([](NodeContext &c) {
      return c.build1("tcc.gather_elements", {c.operand(0), c.operand(1)},
                      {c.named("axis", c.b.getI64IntegerAttr(
                                           c.intAttr("axis", 0)))});
    });
    // GridSample: opset 20 renamed the modes (linear, cubic) and allows
    // N-D inputs; tcc samples 2-D images.
    t["GridSample"] = one([](NodeContext &c) -> FailureOr<Value> {
      std::string mode = c.stringAttr("mode", c.opset >= 20 ? "linear" : "bilinear");
      if (mode == "linear")
        mode = "bilinear";
      else if (mode == "cubic")
        mode = "bicubic";
      if (typeOf(c.operand(0)).getRank() != 4)
        return c.fail("only 2-D sampling (X of rank 4) is supported");
      return c.build1(
          "tcc.grid_sample", {c.operand(0), c.operand(1)},
          {c.named("mode", c.b.getStringAttr(mode)),
           c.named("padding_mode",
                   c.b.getStringAttr(c.stringAttr("padding_mode", "zeros"))),
           c.named("align_corners",
                   c.b.getBoolAttr(c.intAttr("align_corners", 0) != 0))});
    });
    // Scatter (opset 9, deprecated) is ScatterElements without reduction.
    auto scatterElements = [](NodeContext &c) -> FailureOr<Value> {
      std::string reduction = c.stringAttr("reduction", "none");
      return c.build1("tcc.scatter_elements",
                      {c.operand(0), c.operand(1), c.operand(2)},
                      {c.named("axis", c.b.getI64IntegerAttr(
                                           c.intAttr("axis", 0))),
                       c.named("reduction", c.b.getStringAttr(reduction))});
    };
    t["Scatter"] = one(scatterElements);
    t["ScatterElements"] = one(scatterElements);
    t["ScatterND"] = one([](NodeContext &c) -> FailureOr<Value> {
      std::string reduction = c.stringAttr("reduction", "none");
      return c.build1("tcc.scatter_nd",
                      {c.operand(0), c.operand(1), c.operand(2)},
                      {c.named("reduction", c.b.getStringAttr(reduction))});
    });
    t["Expand"] = one(expand);
    t["Cast"] = [](NodeContext &c) -> LogicalResult {
      FailureOr<Value> v = castNode(c);
      if (failed(v))
        return failure();
      c.results.push_back(*v);
      if (isa<IntegerType>(elementOf(*v)))
        passKnown(c);
      return success();
    };
    t["Identity"] = identity;
    t["Dropout"] = identity;
    t["Constant"] = constantNode;
    t["Shape"] = shape;
    t["ConstantOfShape"] = one(constantOfShape);
    t["Range"] = one(range);
    return t;
  }();
  return table;
}
