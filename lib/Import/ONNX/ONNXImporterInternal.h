//===- ONNXImporterInternal.h - shared by the importer's files --*- C++ -*-===//
//
// The importer's state while it walks a graph (Importer), what an op's
// converter sees of one node (NodeContext), and the converter table
// (ONNXOps.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_IMPORT_ONNX_ONNXIMPORTERINTERNAL_H
#define TCC_LIB_IMPORT_ONNX_ONNXIMPORTERINTERNAL_H

#include "tcc/Import/ONNX/ONNXImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <functional>
#include <optional>

namespace mlir::tcc::onnx_import {

std::optional<::tcc::runtime::DType> dtypeOf(int32_t onnxType);
Type elementTypeOf(MLIRContext *ctx, ::tcc::runtime::DType dtype);
/// The inverse of elementTypeOf.
std::optional<::tcc::runtime::DType> dtypeOfElement(Type element);

/// Stores an integer exactly, wrapping to the element type's width
/// (HostTensor::setDouble saturates and loses int64 bits).
inline void setInteger(::tcc::runtime::HostTensor &t, int64_t i, int64_t v) {
  t.setInt64(i, v);
}

/// The newest default-domain opset the importer reads: that of the onnx
/// Python package the tests and the exporters use (1.23). Every op's
/// changes up to it are handled or refused by name.
constexpr int64_t kMaxONNXOpset = 28;
std::string onnxTypeName(int32_t onnxType);
bool tensorFromProto(const onnx::TensorProto &t, ::tcc::runtime::HostTensor &out,
                     std::string &error);

/// One element of an integer tensor known at import time: a constant, or
/// dim `dim` of `of` (a Shape of a tensor with dynamic dims).
struct KnownInt {
  int64_t value = 0;
  Value of;
  int64_t dim = -1;
  bool isConstant() const { return !of; }
};
using KnownInts = SmallVector<KnownInt>;

class Importer;

/// One node being converted: its operands (null for an omitted optional
/// input), attributes, opset, and where its results go.
struct NodeContext {
  Importer &importer;
  const onnx::NodeProto &node;
  SmallVector<Value> operands;
  int64_t opset;
  OpBuilder &b;
  Location loc;

  Value operand(unsigned i) const {
    return i < operands.size() ? operands[i] : Value();
  }
  unsigned numOperands() const { return operands.size(); }
  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  int64_t intAttr(llvm::StringRef name, int64_t otherwise) const;
  float floatAttr(llvm::StringRef name, float otherwise) const;
  std::string stringAttr(llvm::StringRef name,
                         llvm::StringRef otherwise) const;
  std::optional<SmallVector<int64_t>> intsAttr(llvm::StringRef name) const;

  /// The integer values of operand i if known at import time (constants,
  /// shapes); std::nullopt otherwise.
  std::optional<KnownInts> knownInts(unsigned i) const;
  /// The same, only if every element is a constant.
  std::optional<SmallVector<int64_t>> constantInts(unsigned i) const;
  /// The values of operand i if it is a constant (floats or integers).
  std::optional<SmallVector<double>> constantDoubles(unsigned i) const;
  /// Fails with "`what` must be known at import time", naming the graph
  /// input operand i is (so that a caller can bind it), if it is one.
  LogicalResult failNotKnown(unsigned i, llvm::StringRef what) const;

  /// Builds op `name` with `operands` and `attrs`, its result types
  /// inferred (tcc's InferTypeOpInterface) or given, then verified: a
  /// failure is an error naming the node, never an abort.
  FailureOr<Operation *> build(llvm::StringRef name, ValueRange operands,
                               ArrayRef<NamedAttribute> attrs = {},
                               TypeRange resultTypes = {});
  FailureOr<Value> build1(llvm::StringRef name, ValueRange operands,
                          ArrayRef<NamedAttribute> attrs = {},
                          Type resultType = {});
  /// A scalar constant of `element` type, as a rank-0 tensor.
  Value scalar(Type element, double value);
  /// A 1-D i64 constant.
  Value i64Vector(ArrayRef<int64_t> values);

  NamedAttribute named(llvm::StringRef name, Attribute a) {
    return b.getNamedAttr(name, a);
  }
  /// Emits "ONNX node 'name' (Op): message" and returns failure.
  LogicalResult fail(const llvm::Twine &message) const;
  /// The node's results (fewer than its outputs when trailing optional
  /// outputs are not produced: a converter fails for a used one).
  SmallVector<Value> results;
  /// Known integer values of the results (shape arithmetic).
  SmallVector<std::optional<KnownInts>> knownResults;
};

using Converter = std::function<LogicalResult(NodeContext &)>;

/// op_type -> converter, for the default domain ("" and "ai.onnx").
const llvm::StringMap<Converter> &converters();

class Importer {
public:
  Importer(MLIRContext *ctx, llvm::StringRef source,
           const ImportOptions &options)
      : ctx(ctx), source(source.str()), options(options) {}

  OwningOpRef<ModuleOp> run(const onnx::ModelProto &model);

  MLIRContext *ctx;
  std::string source;
  ImportOptions options;
  Location loc() const;
  /// Known integer values per value (shape arithmetic folded at import).
  DenseMap<Value, KnownInts> known;
  /// Per function argument, its graph input's position (what
  /// --bind-input counts: bound inputs are not arguments).
  SmallVector<unsigned> argInputPositions;
  /// Erases `op` and forgets its results' known integers: a later op may
  /// be allocated at the same address, and must not inherit them.
  void erase(Operation *op);
  /// A constant op holding `t` (dense resources above a few elements).
  Value constant(OpBuilder &b, Location loc, const ::tcc::runtime::HostTensor &t,
                 llvm::StringRef name);

private:
  LogicalResult importGraph(const onnx::GraphProto &graph, int64_t opset,
                            ModuleOp module);
  void listUnsupported(const onnx::GraphProto &graph, int64_t opset,
                       std::string &text, int &count);
  /// Constants of the graph's initializers, bound in `values`.
  LogicalResult importInitializers(const onnx::GraphProto &graph,
                                   OpBuilder &b,
                                   llvm::StringMap<Value> &values);
  /// Converts the graph's nodes in order at b's insertion point; `values`
  /// binds the names in scope and gets the nodes' outputs.
  LogicalResult importNodes(const onnx::GraphProto &graph, int64_t opset,
                            OpBuilder &b, llvm::StringMap<Value> &values);
  /// Erases the block's unread pure ops (shape arithmetic folded away).
  void eraseUnused(Block &block);

  // If (ONNXControlFlow.cpp).
  /// A condition known at import inlines its branch; otherwise each branch
  /// becomes a private function and the node an scf.if calling them.
  LogicalResult importIf(NodeContext &nc, const llvm::StringMap<Value> &values);
  /// A branch as a private function of the outer values it reads
  /// (`captured`, in argument order; constants are cloned in instead).
  FailureOr<func::FuncOp> importBranch(NodeContext &nc,
                                       const onnx::GraphProto &graph,
                                       llvm::StringRef suffix,
                                       const llvm::StringMap<Value> &values,
                                       SmallVector<Value> &captured);
  unsigned branchFunctions = 0;
  FailureOr<RankedTensorType> typeOf(const onnx::ValueInfoProto &info,
                                     std::string &shapeText);
};

} // namespace mlir::tcc::onnx_import

#endif // TCC_LIB_IMPORT_ONNX_ONNXIMPORTERINTERNAL_H
