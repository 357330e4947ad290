//===- ONNXImporter.cpp - ONNX models to tcc --------------------*- C++ -*-===//
//
// See include/tcc/Import/ONNX/ONNXImporter.h. The graph is walked once in
// its (topological) node order; before anything is built every node's op
// is looked up, so all unsupported nodes are reported together.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporterInternal.h"

#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstring>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx_import;
using ::tcc::runtime::DType;
using ::tcc::runtime::HostTensor;

Type mlir::tcc::onnx_import::elementTypeOf(MLIRContext *ctx, DType d) {
  Builder b(ctx);
  switch (d) {
  case DType::I16:
    return b.getIntegerType(16);
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return b.getIntegerType(8 * ::tcc::runtime::dtypeSize(d),
                            /*isSigned=*/false);
  case DType::F32:
    return b.getF32Type();
  case DType::F64:
    return b.getF64Type();
  case DType::F16:
    return b.getF16Type();
  case DType::BF16:
    return b.getBF16Type();
  case DType::I1:
    return b.getI1Type();
  case DType::I8:
    return b.getIntegerType(8);
  case DType::I32:
    return b.getI32Type();
  case DType::I64:
    return b.getI64Type();
  }
  return {};
}

std::optional<DType> mlir::tcc::onnx_import::dtypeOfElement(Type t) {
  for (int code = 0; code < ::tcc::runtime::kNumDTypes; ++code)
    if (elementTypeOf(t.getContext(), DType(code)) == t)
      return DType(code);
  return std::nullopt;
}

namespace {

/// Element i of an integer tensor, exactly (doubles lose int64 bits:
/// Slice's "to the end" is INT64_MAX).
int64_t integerAt(const HostTensor &t, int64_t i) { return t.getInt64(i); }

/// A dim_param as a tcc.shape symbol: letters, digits and underscores,
/// not starting with a digit.
std::string symbolName(llvm::StringRef param) {
  std::string s;
  for (char c : param)
    s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    s = "s_" + s;
  return s;
}

/// Which domain an op lives in; tcc converts the default one.
bool isDefaultDomain(llvm::StringRef domain) {
  return domain.empty() || domain == "ai.onnx";
}

} // namespace

Location Importer::loc() const {
  return FileLineColLoc::get(ctx, source, 0, 0);
}

Value Importer::constant(OpBuilder &b, Location loc, const HostTensor &t,
                         llvm::StringRef name) {
  auto type = RankedTensorType::get(t.shape, elementTypeOf(ctx, t.dtype));
  ElementsAttr value;
  // Small tensors (and booleans, one byte each here) stay readable and
  // foldable; weights become resource blobs, not giant text.
  if (t.numElements() <= 16 || t.dtype == DType::I1) {
    SmallVector<Attribute> elements;
    for (int64_t i = 0; i < t.numElements(); ++i) {
      if (t.dtype == DType::I1)
        elements.push_back(b.getBoolAttr(t.getDouble(i) != 0));
      else if (isa<FloatType>(type.getElementType()))
        elements.push_back(b.getFloatAttr(type.getElementType(),
                                          t.getDouble(i)));
      else
        elements.push_back(
            b.getIntegerAttr(type.getElementType(), integerAt(t, i)));
    }
    value = DenseElementsAttr::get(type, elements);
  } else {
    std::string key = symbolName(name.empty() ? "weight" : name);
    value = DenseResourceElementsAttr::get(
        type, key,
        HeapAsmResourceBlob::allocateAndCopyInferAlign(
            ArrayRef<char>(reinterpret_cast<const char *>(t.data.data()),
                           t.numBytes())));
  }
  return ConstantOp::create(b, loc, value);
}

FailureOr<RankedTensorType> Importer::typeOf(const onnx::ValueInfoProto &info,
                                             std::string &shapeText) {
  if (!info.type().has_tensor_type()) {
    emitError(loc()) << "ONNX graph value '" << info.name()
                     << "' is not a tensor (sequence, map and optional "
                        "types are not supported)";
    return failure();
  }
  const onnx::TypeProto::Tensor &t = info.type().tensor_type();
  std::optional<DType> d = dtypeOf(t.elem_type());
  if (!d) {
    emitError(loc()) << "ONNX graph value '" << info.name()
                     << "' has element type " << onnxTypeName(t.elem_type())
                     << ", which tcc does not have";
    return failure();
  }
  if (!t.has_shape()) {
    emitError(loc()) << "ONNX graph value '" << info.name()
                     << "' has no shape (unranked tensors are not supported)";
    return failure();
  }
  SmallVector<int64_t> shape;
  SmallVector<std::string> dims;
  bool named = false;
  for (int i = 0; i < t.shape().dim_size(); ++i) {
    const auto &dim = t.shape().dim(i);
    if (dim.has_dim_value() && dim.dim_value() >= 0) {
      shape.push_back(dim.dim_value());
      dims.push_back(std::to_string(dim.dim_value()));
    } else {
      shape.push_back(ShapedType::kDynamic);
      named = true;
      dims.push_back(dim.has_dim_param() && !dim.dim_param().empty()
                         ? symbolName(dim.dim_param())
                         : symbolName(info.name()) + "_" + std::to_string(i));
    }
  }
  if (named) {
    shapeText = "#tcc.shape<[";
    for (size_t i = 0; i < dims.size(); ++i)
      shapeText += (i ? ", " : "") + dims[i];
    shapeText += "]>";
  }
  return RankedTensorType::get(shape, elementTypeOf(ctx, *d));
}

/// Lists the nodes of `graph` and of its subgraphs whose op has no
/// converter.
void Importer::listUnsupported(const onnx::GraphProto &graph, int64_t opset,
                               std::string &text, int &count) {
  for (const onnx::NodeProto &node : graph.node()) {
    bool known = isDefaultDomain(node.domain()) &&
                 (converters().count(node.op_type()) || node.op_type() == "If");
    if (!known) {
      ++count;
      text += "\n  " + node.op_type() + " (node '" + node.name() +
              "', domain '" + node.domain() + "', opset " +
              std::to_string(opset) + ")";
      continue;
    }
    for (const onnx::AttributeProto &a : node.attribute())
      if (a.has_g())
        listUnsupported(a.g(), opset, text, count);
  }
}

LogicalResult Importer::importInitializers(const onnx::GraphProto &graph,
                                           OpBuilder &b,
                                           llvm::StringMap<Value> &values) {
  for (const onnx::TensorProto &t : graph.initializer()) {
    HostTensor h;
    std::string error;
    if (!tensorFromProto(t, h, error)) {
      emitError(loc()) << "ONNX initializer: " << error;
      return failure();
    }
    values[t.name()] =
        constant(b, NameLoc::get(b.getStringAttr(t.name())), h, t.name());
  }
  return success();
}

LogicalResult Importer::importNodes(const onnx::GraphProto &graph,
                                    int64_t opset, OpBuilder &b,
                                    llvm::StringMap<Value> &values) {
  for (const onnx::NodeProto &node : graph.node()) {
    Location nodeLoc = NameLoc::get(
        b.getStringAttr(node.name().empty() ? node.op_type() : node.name()),
        loc());
    NodeContext nc{*this, node, {}, opset, b, nodeLoc, {}, {}};
    for (const std::string &name : node.input()) {
      if (name.empty()) {
        nc.operands.push_back(Value());
        continue;
      }
      auto it = values.find(name);
      if (it == values.end())
        return nc.fail("input '" + name + "' is not defined before it");
      nc.operands.push_back(it->second);
    }
    if (node.op_type() == "If") {
      if (failed(importIf(nc, values)))
        return failure();
    } else if (failed(converters().lookup(node.op_type())(nc))) {
      return failure();
    }
    for (int i = 0; i < node.output_size(); ++i) {
      if (node.output(i).empty())
        continue;
      if (i >= static_cast<int>(nc.results.size()) || !nc.results[i])
        return nc.fail("output " + std::to_string(i) +
                       " is not produced by tcc's conversion");
      values[node.output(i)] = nc.results[i];
      if (i < static_cast<int>(nc.knownResults.size()) && nc.knownResults[i])
        known[nc.results[i]] = *nc.knownResults[i];
    }
  }

  return success();
}

void Importer::erase(Operation *op) {
  for (Value r : op->getResults())
    known.erase(r);
  op->erase();
}

void Importer::eraseUnused(Block &block) {
  // Ops nothing reads (shape arithmetic folded at import) go; a shape
  // placeholder still read is a shape used as data.
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
      if (op.use_empty() && isPure(&op) &&
          !op.hasTrait<OpTrait::IsTerminator>()) {
        erase(&op);
        erased = true;
      }
  }
}

LogicalResult Importer::importGraph(const onnx::GraphProto &graph,
                                    int64_t opset, ModuleOp module) {
  // Every node's op first (subgraphs' too): one error lists all that tcc
  // cannot convert.
  std::string unsupported;
  int count = 0;
  listUnsupported(graph, opset, unsupported, count);
  if (count) {
    emitError(loc()) << count << " ONNX node" << (count == 1 ? "" : "s")
                     << " tcc does not support:" << unsupported;
    return failure();
  }

  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  llvm::StringMap<const onnx::TensorProto *> initializers;
  for (const onnx::TensorProto &t : graph.initializer())
    initializers[t.name()] = &t;

  // Arguments: graph inputs that are not initializers, then (by option)
  // the initializers.
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames, argShapes;
  SmallVector<std::pair<std::string, const HostTensor *>> bound;
  unsigned position = 0;
  argInputPositions.clear();
  for (const onnx::ValueInfoProto &in : graph.input()) {
    if (initializers.count(in.name()))
      continue;
    auto b = options.boundInputs.find(position++);
    if (b != options.boundInputs.end()) {
      bound.push_back({in.name(), &b->second});
      continue;
    }
    argInputPositions.push_back(position - 1);
    std::string shapeText;
    FailureOr<RankedTensorType> type = typeOf(in, shapeText);
    if (failed(type))
      return failure();
    argTypes.push_back(*type);
    argNames.push_back(in.name());
    argShapes.push_back(shapeText);
  }
  SmallVector<const onnx::TensorProto *> weightArgs;
  if (options.weightsAsArguments)
    for (const onnx::TensorProto &t : graph.initializer()) {
      std::optional<DType> d = dtypeOf(t.data_type());
      if (!d) {
        emitError(loc()) << "ONNX initializer '" << t.name()
                         << "' has element type "
                         << onnxTypeName(t.data_type())
                         << ", which tcc does not have";
        return failure();
      }
      SmallVector<int64_t> shape(t.dims().begin(), t.dims().end());
      argTypes.push_back(RankedTensorType::get(shape, elementTypeOf(ctx, *d)));
      argNames.push_back(t.name());
      argShapes.push_back("");
      weightArgs.push_back(&t);
    }
  SmallVector<Type> resultTypes;
  for (const onnx::ValueInfoProto &out : graph.output()) {
    std::string unused;
    FailureOr<RankedTensorType> type = typeOf(out, unused);
    if (failed(type))
      return failure();
    resultTypes.push_back(*type);
  }
  auto func = func::FuncOp::create(b, loc(), options.functionName,
                                   b.getFunctionType(argTypes, resultTypes));
  for (unsigned i = 0; i < argTypes.size(); ++i) {
    func.setArgAttr(i, "tcc.name", b.getStringAttr(argNames[i]));
    if (!argShapes[i].empty()) {
      Attribute shape = parseAttribute(argShapes[i], ctx);
      if (!shape) {
        emitError(loc()) << "cannot express the dims of '" << argNames[i]
                         << "' as " << argShapes[i];
        return failure();
      }
      func.setArgAttr(i, "tcc.shape", shape);
    }
  }
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);

  llvm::StringMap<Value> values;
  for (unsigned i = 0; i < argNames.size(); ++i)
    values[argNames[i]] = entry->getArgument(i);
  for (auto [name, tensor] : bound)
    values[name] =
        constant(b, NameLoc::get(b.getStringAttr(name)), *tensor, name);
  if (!options.weightsAsArguments &&
      failed(importInitializers(graph, b, values)))
    return failure();
  if (failed(importNodes(graph, opset, b, values)))
    return failure();

  SmallVector<Value> results;
  for (auto [i, out] : llvm::enumerate(graph.output())) {
    auto it = values.find(out.name());
    if (it == values.end()) {
      emitError(loc()) << "ONNX graph output '" << out.name()
                       << "' is not computed by any node";
      return failure();
    }
    Value v = it->second;
    // The declared type may be more (or less) static than what was
    // inferred: the function returns the declared one through a cast.
    if (v.getType() != resultTypes[i]) {
      auto declared = cast<RankedTensorType>(resultTypes[i]);
      auto have = cast<RankedTensorType>(v.getType());
      if (declared.getRank() != have.getRank() ||
          declared.getElementType() != have.getElementType()) {
        emitError(loc()) << "ONNX graph output '" << out.name()
                         << "' is declared " << declared << " but computes "
                         << have;
        return failure();
      }
      v = tensor::CastOp::create(b, loc(), declared, v);
    }
    results.push_back(v);
  }
  func::ReturnOp::create(b, loc(), results);

  eraseUnused(*entry);
  return success();
}

OwningOpRef<ModuleOp> Importer::run(const onnx::ModelProto &model) {
  int64_t opset = -1;
  for (const onnx::OperatorSetIdProto &id : model.opset_import())
    if (isDefaultDomain(id.domain()))
      opset = id.version();
  if (opset < 0) {
    emitError(loc()) << "the ONNX model imports no default-domain opset";
    return nullptr;
  }
  if (opset < 1 || opset > kMaxONNXOpset) {
    emitError(loc()) << "ONNX opset " << opset
                     << " is outside the supported range 1 to " << kMaxONNXOpset;
    return nullptr;
  }
  if (!model.has_graph()) {
    emitError(loc()) << "the ONNX model has no graph";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc());
  if (failed(importGraph(model.graph(), opset, *module)))
    return nullptr;
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp>
mlir::tcc::onnx_import::importModel(MLIRContext *ctx, llvm::StringRef bytes,
                                    llvm::StringRef source,
                                    const ImportOptions &options) {
  ctx->loadDialect<TCCDialect, func::FuncDialect, tensor::TensorDialect,
                   arith::ArithDialect, scf::SCFDialect>();
  onnx::ModelProto model;
  if (bytes.size() > static_cast<size_t>(INT32_MAX) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    emitError(FileLineColLoc::get(ctx, source, 0, 0))
        << "not a valid ONNX model (the protobuf does not parse)";
    return nullptr;
  }
  return Importer(ctx, source, options).run(model);
}
