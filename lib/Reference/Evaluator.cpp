//===- Evaluator.cpp - Reference evaluator ----------------------*- C++ -*-===//
//
// The driver of the reference evaluator: walks a function's body op by op,
// keeps one HostTensor per SSA value, and hands each op to the kernel
// registered under its name. Also holds the shared helpers declared in
// EvaluatorInternal.h and the kernels of the structural ops (constants,
// func.call, fusion.group, tensor.cast, tensor.dim).
//
//===----------------------------------------------------------------------===//

#include "tcc/Reference/Evaluator.h"

#include "EvaluatorInternal.h"
#include "tcc/Runtime/MLIRTypes.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Region.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;

namespace tcc::reference {
namespace detail {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

std::optional<DType> dtypeOfElementType(Type type) {
  if (isa_and_nonnull<IndexType>(type))
    return DType::I64;
  return runtime::dtypeFromMLIRType(type);
}

bool isIntDType(DType dtype) { return !runtime::isFloatDType(dtype); }

std::string typeToString(Type type) {
  auto elementString = [](Type element) -> std::string {
    if (std::optional<DType> dtype = runtime::dtypeFromMLIRType(element))
      return runtime::dtypeName(*dtype);
    std::string s;
    llvm::raw_string_ostream os(s);
    element.print(os);
    return s;
  };
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    std::string s;
    for (int64_t d : ranked.getShape())
      s += (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d)) +
           "x";
    return s + elementString(ranked.getElementType());
  }
  if (auto unranked = dyn_cast<UnrankedTensorType>(type))
    return "*x" + elementString(unranked.getElementType());
  return elementString(type);
}

std::optional<std::string> typeMismatch(Type type, const HostTensor &value) {
  Type elementType = type;
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (!isa<TensorType>(type))
      return "unsupported type " + typeToString(type);
    elementType = shaped.getElementType();
  }
  std::optional<DType> dtype = dtypeOfElementType(elementType);
  if (!dtype)
    return "unsupported type " + typeToString(type);
  if (*dtype != value.dtype)
    return "expected type " + typeToString(type) + ", got " +
           value.typeString();

  bool shapeOk = true;
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    shapeOk = ranked.getRank() == value.rank();
    for (int64_t i = 0; shapeOk && i < value.rank(); ++i)
      shapeOk =
          ranked.isDynamicDim(i) || ranked.getDimSize(i) == value.shape[i];
  } else if (!isa<UnrankedTensorType>(type)) {
    shapeOk = value.rank() == 0; // A scalar.
  }
  if (!shapeOk)
    return "expected shape " + typeToString(type) + ", got " +
           value.typeString();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// OpState
//===----------------------------------------------------------------------===//

/// "'tcc.add' at loc("x.mlir":3:10)".
static std::string describeOp(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << op->getName().getStringRef() << "' at " << op->getLoc();
  return s;
}

LogicalResult OpState::fail(const llvm::Twine &msg) const {
  error = describeOp(op) + ": " + msg.str();
  return failure();
}

LogicalResult OpState::checkArity(unsigned min, unsigned max,
                                  unsigned numResults) const {
  unsigned n = operands.size();
  if (n < min || n > max) {
    if (min == max)
      return fail("expected " + llvm::Twine(min) + " operands, got " +
                  llvm::Twine(n));
    return fail("expected " + llvm::Twine(min) + " to " + llvm::Twine(max) +
                " operands, got " + llvm::Twine(n));
  }
  if (op->getNumResults() != numResults)
    return fail("expected " + llvm::Twine(numResults) + " results, got " +
                llvm::Twine(op->getNumResults()));
  return success();
}

FailureOr<int64_t> OpState::getInt(StringRef name,
                                   std::optional<int64_t> defaultValue) const {
  Attribute attr = op->getAttr(name);
  if (!attr) {
    if (defaultValue)
      return *defaultValue;
    return fail("missing attribute '" + name + "'");
  }
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return intAttr.getValue().getSExtValue();
  return fail("attribute '" + name + "' must be an integer");
}

FailureOr<double> OpState::getFloat(StringRef name,
                                    std::optional<double> defaultValue) const {
  Attribute attr = op->getAttr(name);
  if (!attr) {
    if (defaultValue)
      return *defaultValue;
    return fail("missing attribute '" + name + "'");
  }
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return static_cast<double>(intAttr.getValue().getSExtValue());
  return fail("attribute '" + name + "' must be a float");
}

FailureOr<bool> OpState::getBool(StringRef name, bool defaultValue) const {
  Attribute attr = op->getAttr(name);
  if (!attr)
    return defaultValue;
  if (auto boolAttr = dyn_cast<BoolAttr>(attr))
    return boolAttr.getValue();
  if (isa<UnitAttr>(attr))
    return true;
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return !intAttr.getValue().isZero();
  return fail("attribute '" + name + "' must be a bool");
}

FailureOr<std::string>
OpState::getString(StringRef name,
                   std::optional<std::string> defaultValue) const {
  Attribute attr = op->getAttr(name);
  if (!attr) {
    if (defaultValue)
      return *defaultValue;
    return fail("missing attribute '" + name + "'");
  }
  if (auto strAttr = dyn_cast<StringAttr>(attr))
    return strAttr.getValue().str();
  return fail("attribute '" + name + "' must be a string");
}

FailureOr<Shape> OpState::getIntArray(StringRef name,
                                      std::optional<Shape> defaultValue) const {
  Attribute attr = op->getAttr(name);
  if (!attr) {
    if (defaultValue)
      return *defaultValue;
    return fail("missing attribute '" + name + "'");
  }
  if (auto array = dyn_cast<DenseI64ArrayAttr>(attr))
    return Shape(array.asArrayRef().begin(), array.asArrayRef().end());
  if (auto array = dyn_cast<DenseI32ArrayAttr>(attr))
    return Shape(array.asArrayRef().begin(), array.asArrayRef().end());
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    Shape values;
    for (const APInt &v : dense.getValues<APInt>())
      values.push_back(v.getSExtValue());
    return values;
  }
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    Shape values;
    for (Attribute element : array) {
      auto intAttr = dyn_cast<IntegerAttr>(element);
      if (!intAttr)
        return fail("attribute '" + name + "' must hold integers");
      values.push_back(intAttr.getValue().getSExtValue());
    }
    return values;
  }
  return fail("attribute '" + name + "' must be an integer array");
}

FailureOr<int64_t> OpState::normalizeAxis(int64_t axis, int64_t rank,
                                          StringRef what) const {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank)
    return fail(what + " " + llvm::Twine(axis) + " is out of range for rank " +
                llvm::Twine(rank));
  return normalized;
}

Type OpState::resultType(unsigned i) const {
  return op->getResult(i).getType();
}

FailureOr<DType> OpState::resultDType(unsigned i) const {
  Type type = resultType(i);
  Type elementType = type;
  if (auto tensorType = dyn_cast<TensorType>(type))
    elementType = tensorType.getElementType();
  else if (isa<ShapedType>(type))
    return fail("unsupported result type " + typeToString(type));
  std::optional<DType> dtype = dtypeOfElementType(elementType);
  if (!dtype)
    return fail("unsupported result type " + typeToString(type));
  return *dtype;
}

FailureOr<RankedTensorType> OpState::rankedResultType(unsigned i) const {
  auto ranked = dyn_cast<RankedTensorType>(resultType(i));
  if (!ranked)
    return fail("result " + llvm::Twine(i) + " must be a ranked tensor, got " +
                typeToString(resultType(i)));
  return ranked;
}

HostTensor *OpState::makeResult(unsigned i, ArrayRef<int64_t> shape) {
  FailureOr<DType> dtype = resultDType(i);
  if (failed(dtype))
    return nullptr;
  HostTensor value;
  value.dtype = *dtype;
  value.shape.assign(shape.begin(), shape.end());
  // Check before allocating so that a garbage shape cannot allocate a lot.
  if (std::optional<std::string> why = typeMismatch(resultType(i), value)) {
    (void)fail("computed result " + shapeToString(shape) +
               " does not match the result type: " + *why);
    return nullptr;
  }
  if (results.size() < op->getNumResults())
    results.resize(op->getNumResults());
  results[i] = HostTensor(*dtype, value.shape);
  return &results[i];
}

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

int64_t numElementsOf(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Shape stridesOf(ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

void unravelIndex(int64_t linear, ArrayRef<int64_t> shape, Shape &index) {
  index.assign(shape.size(), 0);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    if (shape[i] == 0)
      continue;
    index[i] = linear % shape[i];
    linear /= shape[i];
  }
}

int64_t linearIndex(ArrayRef<int64_t> index, ArrayRef<int64_t> shape) {
  int64_t linear = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    linear = linear * shape[i] + index[i];
  return linear;
}

std::string shapeToString(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

std::optional<Shape> broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Dims counted from the right; missing dims act like 1.
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[rank - 1 - i] = da == 1 ? db : da;
  }
  return out;
}

int64_t broadcastSourceIndex(ArrayRef<int64_t> outIndex,
                             ArrayRef<int64_t> source) {
  size_t offset = outIndex.size() - source.size();
  int64_t linear = 0;
  for (size_t i = 0; i < source.size(); ++i)
    linear = linear * source[i] + (source[i] == 1 ? 0 : outIndex[offset + i]);
  return linear;
}

LogicalResult forEachBroadcast(
    ArrayRef<int64_t> outShape, ArrayRef<const HostTensor *> sources,
    llvm::function_ref<LogicalResult(int64_t, ArrayRef<int64_t>)> fn) {
  Shape index;
  Shape sourceIndices(sources.size());
  int64_t n = numElementsOf(outShape);
  for (int64_t i = 0; i < n; ++i) {
    unravelIndex(i, outShape, index);
    for (size_t s = 0; s < sources.size(); ++s)
      sourceIndices[s] = broadcastSourceIndex(index, sources[s]->shape);
    if (failed(fn(i, sourceIndices)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

template <typename T> static T loadAs(const HostTensor &t, int64_t i) {
  T v;
  std::memcpy(&v, t.data.data() + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T> static void storeAs(HostTensor &t, int64_t i, T v) {
  std::memcpy(t.data.data() + i * sizeof(T), &v, sizeof(T));
}

int64_t getInt(const HostTensor &t, int64_t i) {
  if (runtime::isIntegerDType(t.dtype))
    return t.getInt64(i);
  double v = t.getDouble(i);
  if (!(std::fabs(v) < 9.2e18)) // NaN, inf or beyond int64.
    return 0;
  return static_cast<int64_t>(v);
}

// Integer stores wrap to the width (what a cast of the bits does).
void setInt(HostTensor &t, int64_t i, int64_t v) { t.setInt64(i, v); }

void copyElement(const HostTensor &src, int64_t srcIndex, HostTensor &dst,
                 int64_t dstIndex) {
  if (src.dtype == dst.dtype) {
    size_t size = runtime::dtypeSize(src.dtype);
    std::memcpy(dst.data.data() + dstIndex * size,
                src.data.data() + srcIndex * size, size);
  } else if (isIntDType(src.dtype) && isIntDType(dst.dtype)) {
    setInt(dst, dstIndex, getInt(src, srcIndex));
  } else {
    dst.setDouble(dstIndex, src.getDouble(srcIndex));
  }
}

//===----------------------------------------------------------------------===//
// Structural op kernels
//===----------------------------------------------------------------------===//

/// Fills `out` from a DenseElementsAttr of the same shape.
static void fillFromDense(DenseElementsAttr dense, HostTensor &out) {
  Type elementType = dense.getElementType();
  int64_t i = 0;
  if (isa<FloatType>(elementType)) {
    for (const APFloat &v : dense.getValues<APFloat>())
      out.setDouble(i++, v.convertToDouble());
    return;
  }
  bool isUnsigned = elementType.isUnsignedInteger() ||
                    elementType.isInteger(1); // i1 true is 1, not -1.
  for (const APInt &v : dense.getValues<APInt>())
    setInt(out, i++,
           isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                      : v.getSExtValue());
}

/// arith.constant / tcc.constant: `value` is a dense (possibly splat or
/// resource-backed) tensor, or a scalar integer/float attribute.
static LogicalResult evalConstant(OpState &s) {
  if (failed(s.checkArity(0, 0)))
    return failure();
  Attribute attr = s.op->getAttr("value");
  if (!attr)
    return s.fail("missing attribute 'value'");

  if (auto intAttr = dyn_cast<IntegerAttr>(attr)) {
    HostTensor *out = s.makeResult(0, {});
    if (!out)
      return failure();
    bool isUnsigned =
        intAttr.getType().isUnsignedInteger() || intAttr.getType().isInteger(1);
    setInt(*out, 0,
           isUnsigned ? static_cast<int64_t>(intAttr.getValue().getZExtValue())
                      : intAttr.getValue().getSExtValue());
    return success();
  }
  if (auto floatAttr = dyn_cast<FloatAttr>(attr)) {
    HostTensor *out = s.makeResult(0, {});
    if (!out)
      return failure();
    out->setDouble(0, floatAttr.getValueAsDouble());
    return success();
  }

  auto elements = dyn_cast<ElementsAttr>(attr);
  if (!elements)
    return s.fail("attribute 'value' must be a dense elements attribute");
  ShapedType attrType = elements.getShapedType();
  if (!attrType.hasStaticShape())
    return s.fail("attribute 'value' must have a static shape");
  if (!dtypeOfElementType(attrType.getElementType()))
    return s.fail("unsupported constant element type " +
                  typeToString(attrType.getElementType()));
  HostTensor *out = s.makeResult(0, attrType.getShape());
  if (!out)
    return failure();

  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    fillFromDense(dense, *out);
    return success();
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return s.fail("dense resource constant has no data (elided?)");
    ArrayRef<char> bytes = blob->getData();
    DType attrDType = *dtypeOfElementType(attrType.getElementType());
    if (attrDType != out->dtype)
      return s.fail("dense resource constant of type " +
                    typeToString(attrType) + " does not match the result");
    if (bytes.size() != out->data.size())
      return s.fail("dense resource constant holds " +
                    llvm::Twine(bytes.size()) + " bytes, expected " +
                    llvm::Twine(out->data.size()));
    std::memcpy(out->data.data(), bytes.data(), bytes.size());
    if (out->dtype == DType::I1) // Normalize any nonzero byte to 1.
      for (uint8_t &b : out->data)
        b = b != 0;
    return success();
  }
  return s.fail("unsupported constant attribute kind");
}

/// tensor.cast: the value is unchanged; makeResult checks the new type.
static LogicalResult evalTensorCast(OpState &s) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  const HostTensor &x = s.operands[0];
  HostTensor *out = s.makeResult(0, x.shape);
  if (!out)
    return failure();
  if (out->dtype != x.dtype)
    return s.fail("tensor.cast cannot change the element type");
  *out = x;
  return success();
}

/// tensor.dim(source, index) -> index (a rank-0 i64 value here).
static LogicalResult evalTensorDim(OpState &s) {
  if (failed(s.checkArity(2, 2)))
    return failure();
  const HostTensor &x = s.operands[0];
  if (s.operands[1].numElements() != 1)
    return s.fail("dim index must be a scalar");
  int64_t dim = getInt(s.operands[1], 0);
  if (dim < 0 || dim >= x.rank())
    return s.fail("dim index " + llvm::Twine(dim) +
                  " is out of range for rank " + llvm::Twine(x.rank()));
  HostTensor *out = s.makeResult(0, {});
  if (!out)
    return failure();
  setInt(*out, 0, x.shape[dim]);
  return success();
}

/// One element of a tensor at index operands (a scalar: rank 0).
static LogicalResult evalTensorExtract(OpState &s) {
  if (s.operands.empty())
    return s.fail("expected a tensor operand");
  const HostTensor &x = s.operands[0];
  if (s.operands.size() != size_t(x.rank()) + 1)
    return s.fail("expected " + llvm::Twine(x.rank()) + " indices");
  int64_t flat = 0;
  for (int64_t d = 0; d < x.rank(); ++d) {
    int64_t i = getInt(s.operands[d + 1], 0);
    if (i < 0 || i >= x.shape[d])
      return s.fail("index " + llvm::Twine(i) + " is out of range for dim " +
                    llvm::Twine(d) + " of size " + llvm::Twine(x.shape[d]));
    flat = flat * x.shape[d] + i;
  }
  HostTensor *out = s.makeResult(0, {});
  if (!out)
    return failure();
  size_t bytes = ::tcc::runtime::dtypeSize(x.dtype);
  std::memcpy(out->data.data(), x.data.data() + flat * bytes, bytes);
  return success();
}

/// Integer scalar arithmetic on sizes (rank-0 values), as built around
/// tensor.dim for reshape shape operands.
static LogicalResult evalIndexCast(OpState &s) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  HostTensor *out = s.makeResult(0, s.operands[0].shape);
  if (!out)
    return failure();
  for (int64_t i = 0; i < s.operands[0].numElements(); ++i)
    setInt(*out, i, getInt(s.operands[0], i));
  return success();
}

template <typename F> static LogicalResult evalScalarBinary(OpState &s, F f) {
  if (failed(s.checkArity(2, 2)))
    return failure();
  if (s.operands[0].numElements() != 1 || s.operands[1].numElements() != 1)
    return s.fail("expects scalar operands");
  HostTensor *out = s.makeResult(0, {});
  if (!out)
    return failure();
  setInt(*out, 0, f(getInt(s.operands[0], 0), getInt(s.operands[1], 0)));
  return success();
}

/// tensor.from_elements of scalars -> a 1-D tensor.
static LogicalResult evalFromElements(OpState &s) {
  FailureOr<RankedTensorType> type = s.rankedResultType(0);
  if (failed(type))
    return failure();
  if (type->getRank() != 1 ||
      type->getDimSize(0) != (int64_t)s.operands.size())
    return s.fail("only 1-D tensor.from_elements is supported");
  HostTensor *out = s.makeResult(0, {(int64_t)s.operands.size()});
  if (!out)
    return failure();
  for (size_t i = 0; i < s.operands.size(); ++i)
    setInt(*out, i, getInt(s.operands[i], 0));
  return success();
}

static const KernelTable &kernelTable() {
  static const KernelTable table = [] {
    KernelTable t;
    t["arith.constant"] = evalConstant;
    t["tcc.constant"] = evalConstant;
    t["tensor.cast"] = evalTensorCast;
    t["tensor.dim"] = evalTensorDim;
    t["tensor.extract"] = evalTensorExtract;
    t["tensor.from_elements"] = evalFromElements;
    t["arith.index_cast"] = evalIndexCast;
    t["arith.muli"] = [](OpState &s) {
      return evalScalarBinary(s, [](int64_t a, int64_t b) { return a * b; });
    };
    t["arith.addi"] = [](OpState &s) {
      return evalScalarBinary(s, [](int64_t a, int64_t b) { return a + b; });
    };
    registerElementwiseKernels(t);
    registerReductionKernels(t);
    registerLinalgKernels(t);
    registerShapeKernels(t);
    registerRecurrenceKernels(t);
    registerSamplingKernels(t);
    registerSortingKernels(t);
    return t;
  }();
  return table;
}

} // namespace detail

//===----------------------------------------------------------------------===//
// Interpreter
//===----------------------------------------------------------------------===//

using namespace detail;

namespace {

/// SSA values visible in a block: its own plus those of enclosing blocks
/// (a fusion.group body may use values defined outside it).
struct Scope {
  llvm::DenseMap<Value, HostTensor> values;
  const Scope *parent = nullptr;

  const HostTensor *lookup(Value v) const {
    for (const Scope *s = this; s; s = s->parent) {
      auto it = s->values.find(v);
      if (it != s->values.end())
        return &it->second;
    }
    return nullptr;
  }
};

class Interpreter {
public:
  explicit Interpreter(std::string &error) : error(error) {}

  /// Runs `func` after checking `inputs` against its signature; `what`
  /// prefixes input errors of nested calls ("call to 'g': ").
  FailureOr<std::vector<HostTensor>> callFunction(func::FuncOp func,
                                                  ArrayRef<HostTensor> inputs,
                                                  const std::string &what);

  LogicalResult evalOp(Operation *op, ArrayRef<HostTensor> operands,
                       std::vector<HostTensor> &results, const Scope *scope);

private:
  /// Binds the block arguments to `args`, runs the body and returns the
  /// operands of its terminator, which must be named `terminator`.
  FailureOr<std::vector<HostTensor>> runBlock(Block &block,
                                              ArrayRef<HostTensor> args,
                                              StringRef terminator,
                                              const Scope *parent);

  LogicalResult fail(Operation *op, const llvm::Twine &msg) {
    error = describeOp(op) + ": " + msg.str();
    return failure();
  }

  std::string &error;
  unsigned depth = 0;
};

} // namespace

/// Checks `values` against `types`, e.g. "input 1: expected shape ...".
static LogicalResult checkValues(TypeRange types, ArrayRef<HostTensor> values,
                                 StringRef what, std::string &error) {
  if (types.size() != values.size()) {
    error = "expected " + std::to_string(types.size()) + " " + what.str() +
            "s, got " + std::to_string(values.size());
    return failure();
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::optional<std::string> why = typeMismatch(types[i], values[i])) {
      error = what.str() + " " + std::to_string(i) + ": " + *why;
      return failure();
    }
  }
  return success();
}

FailureOr<std::vector<HostTensor>>
Interpreter::callFunction(func::FuncOp func, ArrayRef<HostTensor> inputs,
                          const std::string &what) {
  if (func.isExternal())
    return fail(func, "cannot evaluate external function '" +
                          func.getSymName() + "'");
  if (failed(checkValues(func.getArgumentTypes(), inputs, "input", error))) {
    error = what + error;
    return failure();
  }
  if (!func.getBody().hasOneBlock())
    return fail(func, "only single-block functions are supported");
  FailureOr<std::vector<HostTensor>> results =
      runBlock(func.getBody().front(), inputs, "func.return", nullptr);
  if (failed(results))
    return failure();
  if (failed(checkValues(func.getResultTypes(), *results, "result", error))) {
    error = describeOp(func.getBody().front().getTerminator()) +
            ": returned value does not match the function type: " + error;
    return failure();
  }
  return results;
}

FailureOr<std::vector<HostTensor>>
Interpreter::runBlock(Block &block, ArrayRef<HostTensor> args,
                      StringRef terminator, const Scope *parent) {
  Scope scope;
  scope.parent = parent;
  for (auto [arg, value] : llvm::zip_equal(block.getArguments(), args))
    scope.values[arg] = value;

  for (Operation &op : block) {
    std::vector<HostTensor> operands;
    operands.reserve(op.getNumOperands());
    for (Value operand : op.getOperands()) {
      const HostTensor *value = scope.lookup(operand);
      if (!value)
        return fail(&op, "operand has no value (defined by an op that was "
                         "not evaluated?)");
      operands.push_back(*value);
    }

    if (&op == &block.back()) {
      if (op.getName().getStringRef() != terminator)
        return fail(&op, "expected the block to end in '" + terminator + "'");
      return operands;
    }

    std::vector<HostTensor> results;
    if (failed(evalOp(&op, operands, results, &scope)))
      return failure();
    for (auto [result, value] : llvm::zip_equal(op.getResults(), results))
      scope.values[result] = std::move(value);
  }
  return fail(block.getParentOp(), "empty block");
}

LogicalResult Interpreter::evalOp(Operation *op, ArrayRef<HostTensor> operands,
                                  std::vector<HostTensor> &results,
                                  const Scope *scope) {
  StringRef name = op->getName().getStringRef();
  results.clear();

  if (name == "func.return" || name == "fusion.yield") {
    results.assign(operands.begin(), operands.end());
    return success();
  }

  if (name == "func.call") {
    auto callee = op->getAttrOfType<FlatSymbolRefAttr>("callee");
    if (!callee)
      return fail(op, "missing attribute 'callee'");
    auto func = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, callee);
    if (!func)
      return fail(op, "unknown callee '" + callee.getValue() + "'");
    // Recursion has no base case without control flow, so bound it.
    if (depth >= 64)
      return fail(op, "call depth limit exceeded (recursive call?)");
    ++depth;
    FailureOr<std::vector<HostTensor>> values = callFunction(
        func, operands,
        describeOp(op) + ": call to '" + callee.getValue().str() + "': ");
    --depth;
    if (failed(values))
      return failure();
    if (failed(checkValues(op->getResultTypes(), *values, "result", error)))
      return fail(op, error);
    results = std::move(*values);
    return success();
  }

  if (name == "scf.if") {
    // An imported ONNX If: the taken region, which yields the results.
    if (operands.size() != 1 || operands[0].numElements() != 1)
      return fail(op, "expected one condition");
    Region &taken = op->getRegion(operands[0].getDouble(0) != 0 ? 0 : 1);
    if (!taken.hasOneBlock()) {
      if (op->getNumResults() == 0)
        return success();
      return fail(op, "the taken branch has no block to yield the results");
    }
    FailureOr<std::vector<HostTensor>> values =
        runBlock(taken.front(), {}, "scf.yield", scope);
    if (failed(values))
      return failure();
    if (failed(checkValues(op->getResultTypes(), *values, "result", error)))
      return fail(op, "yielded values do not match the results: " + error);
    results = std::move(*values);
    return success();
  }

  if (name == "fusion.group") {
    if (op->getNumRegions() != 1 || !op->getRegion(0).hasOneBlock())
      return fail(op, "expected one region with one block");
    Block &body = op->getRegion(0).front();
    if (body.getNumArguments() != operands.size())
      return fail(op, "body has " + llvm::Twine(body.getNumArguments()) +
                          " arguments but the group has " +
                          llvm::Twine(operands.size()) + " operands");
    if (failed(
            checkValues(body.getArgumentTypes(), operands, "operand", error)))
      return fail(op, error);
    FailureOr<std::vector<HostTensor>> values =
        runBlock(body, operands, "fusion.yield", scope);
    if (failed(values))
      return failure();
    if (failed(checkValues(op->getResultTypes(), *values, "result", error)))
      return fail(op,
                  "yielded values do not match the group results: " + error);
    results = std::move(*values);
    return success();
  }

  const KernelTable &table = kernelTable();
  auto it = table.find(name);
  if (it == table.end())
    return fail(op, "reference evaluator does not support op '" + name + "'");
  results.resize(op->getNumResults());
  OpState state(op, operands, results, error);
  if (failed(it->second(state)))
    return failure();
  // Safety net: every kernel must have produced values of the result types.
  if (failed(checkValues(op->getResultTypes(), results, "result", error)))
    return fail(op, "internal error: kernel produced a wrong value: " + error);
  return success();
}

FailureOr<std::vector<HostTensor>> evaluateFunction(func::FuncOp func,
                                                    ArrayRef<HostTensor> inputs,
                                                    std::string &error) {
  Interpreter interpreter(error);
  return interpreter.callFunction(func, inputs, "");
}

LogicalResult evaluateOp(Operation *op, ArrayRef<HostTensor> operands,
                         std::vector<HostTensor> &results, std::string &error) {
  Interpreter interpreter(error);
  return interpreter.evalOp(op, operands, results, nullptr);
}

} // namespace tcc::reference
