//===- ONNXControlFlow.cpp - ONNX If ------------------------------*- C++ -*-===//
//
// An If whose condition is known at import (exporters write many: a shape
// test on static dims) is its taken branch, converted in place like any
// other nodes. A run-time condition makes each branch a private function of
// the outer values it reads, and the node one scf.if that calls the taken
// one: the branch bodies then go through every stage (fusion, memory
// planning, code generation) as ordinary functions, as tcc-expand-
// recurrences' cells do.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporterInternal.h"

#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"

#include <cctype>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx_import;

namespace {

/// The names `graph` reads that none of its nodes (or initializers)
/// defines, subgraphs included: what it takes from the enclosing scopes,
/// in first-read order.
void collectOuterReads(const onnx::GraphProto &graph,
                       std::vector<std::string> &reads,
                       llvm::StringSet<> &seen) {
  llvm::StringSet<> defined;
  for (const onnx::TensorProto &t : graph.initializer())
    defined.insert(t.name());
  for (const onnx::ValueInfoProto &in : graph.input())
    defined.insert(in.name());
  auto read = [&](const std::string &name) {
    if (!name.empty() && !defined.contains(name) && seen.insert(name).second)
      reads.push_back(name);
  };
  for (const onnx::NodeProto &node : graph.node()) {
    for (const std::string &in : node.input())
      read(in);
    for (const onnx::AttributeProto &a : node.attribute()) {
      if (!a.has_g())
        continue;
      std::vector<std::string> inner;
      llvm::StringSet<> innerSeen;
      collectOuterReads(a.g(), inner, innerSeen);
      for (const std::string &name : inner)
        read(name);
    }
    for (const std::string &out : node.output())
      defined.insert(out);
  }
  for (const onnx::ValueInfoProto &out : graph.output())
    read(out.name());
}

const onnx::GraphProto *graphAttr(const onnx::NodeProto &node,
                                  llvm::StringRef name) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name && a.has_g())
      return &a.g();
  return nullptr;
}

/// A symbol-safe spelling of an ONNX node name.
std::string symbolPart(llvm::StringRef name) {
  std::string s;
  for (char c : name)
    s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s.empty() ? "if" : s;
}

/// The value of a one-element boolean condition known at import.
std::optional<bool> knownCondition(NodeContext &nc) {
  if (auto ints = nc.constantInts(0); ints && ints->size() == 1)
    return (*ints)[0] != 0;
  DenseElementsAttr attr;
  if (matchPattern(nc.operand(0), m_Constant(&attr)) &&
      attr.getNumElements() == 1) {
    if (attr.getElementType().isInteger(1))
      return *attr.getValues<bool>().begin();
    if (isa<IntegerType>(attr.getElementType()))
      return !(*attr.getValues<APInt>().begin()).isZero();
  }
  return std::nullopt;
}

} // namespace

FailureOr<func::FuncOp>
Importer::importBranch(NodeContext &nc, const onnx::GraphProto &graph,
                       llvm::StringRef suffix,
                       const llvm::StringMap<Value> &values,
                       SmallVector<Value> &captured) {
  std::vector<std::string> reads;
  llvm::StringSet<> seen;
  collectOuterReads(graph, reads, seen);

  auto module = nc.b.getInsertionBlock()
                    ->getParentOp()
                    ->getParentOfType<ModuleOp>();
  OpBuilder fb(ctx);
  fb.setInsertionPointToEnd(module.getBody());
  SymbolTable symbols(module);
  std::string base = options.functionName + "_" + symbolPart(nc.node.name()) +
                     "_" + suffix.str();
  std::string name = base;
  while (symbols.lookup(name))
    name = base + "_" + std::to_string(++branchFunctions);
  auto func = func::FuncOp::create(fb, nc.loc, name,
                                   fb.getFunctionType({}, {}));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  fb.setInsertionPointToStart(entry);

  // Outer constants are cloned in (the branch keeps folding on them);
  // every other outer value becomes an argument.
  llvm::StringMap<Value> scope;
  SmallVector<Type> argTypes;
  for (const std::string &outer : reads) {
    Value v = values.lookup(outer);
    if (!v)
      return nc.fail("a branch reads '" + outer +
                     "', which is not defined before the If");
    if (Operation *def = v.getDefiningOp();
        def && def->hasTrait<OpTrait::ConstantLike>()) {
      Value copy = fb.clone(*def)->getResult(0);
      // Copied out first: inserting into `known` may rehash it.
      if (auto it = known.find(v); it != known.end() &&
                                   llvm::all_of(it->second, [](const KnownInt &k) {
                                     return k.isConstant();
                                   })) {
        KnownInts ints = it->second;
        known[copy] = std::move(ints);
      }
      scope[outer] = copy;
      continue;
    }
    argTypes.push_back(v.getType());
    scope[outer] = entry->addArgument(v.getType(), nc.loc);
    captured.push_back(v);
  }
  if (failed(importInitializers(graph, fb, scope)) ||
      failed(importNodes(graph, nc.opset, fb, scope)))
    return failure();
  SmallVector<Value> outs;
  for (const onnx::ValueInfoProto &out : graph.output()) {
    Value v = scope.lookup(out.name());
    if (!v)
      return nc.fail("branch output '" + out.name() +
                     "' is not computed by any node");
    outs.push_back(v);
  }
  func::ReturnOp::create(fb, nc.loc, outs);
  func.setType(fb.getFunctionType(argTypes, TypeRange(ValueRange(outs))));
  eraseUnused(*entry);
  return func;
}

LogicalResult Importer::importIf(NodeContext &nc,
                                 const llvm::StringMap<Value> &values) {
  const onnx::GraphProto *thenGraph = graphAttr(nc.node, "then_branch");
  const onnx::GraphProto *elseGraph = graphAttr(nc.node, "else_branch");
  if (!thenGraph || !elseGraph)
    return nc.fail("needs graph attributes 'then_branch' and 'else_branch'");
  if (thenGraph->output_size() != nc.node.output_size() ||
      elseGraph->output_size() != nc.node.output_size())
    return nc.fail("each branch must yield one value per output (" +
                   std::to_string(nc.node.output_size()) + ")");
  Value cond = nc.operand(0);
  auto condType = dyn_cast_or_null<RankedTensorType>(
      cond ? cond.getType() : Type());
  if (!condType || !condType.getElementType().isInteger(1) ||
      !condType.hasStaticShape() || condType.getNumElements() != 1)
    return nc.fail("the condition must be one boolean, got " +
                   (cond ? llvm::Twine("a value of another type")
                         : llvm::Twine("none")));

  if (std::optional<bool> taken = knownCondition(nc)) {
    const onnx::GraphProto &g = *taken ? *thenGraph : *elseGraph;
    llvm::StringMap<Value> scope = values;
    if (failed(importInitializers(g, nc.b, scope)) ||
        failed(importNodes(g, nc.opset, nc.b, scope)))
      return failure();
    for (const onnx::ValueInfoProto &out : g.output()) {
      Value v = scope.lookup(out.name());
      if (!v)
        return nc.fail("branch output '" + out.name() +
                       "' is not computed by any node");
      nc.results.push_back(v);
      auto k = known.find(v);
      nc.knownResults.push_back(k == known.end()
                                    ? std::nullopt
                                    : std::optional<KnownInts>(k->second));
    }
    return success();
  }

  SmallVector<Value> thenArgs, elseArgs;
  FailureOr<func::FuncOp> thenFunc =
      importBranch(nc, *thenGraph, "then", values, thenArgs);
  if (failed(thenFunc))
    return failure();
  FailureOr<func::FuncOp> elseFunc =
      importBranch(nc, *elseGraph, "else", values, elseArgs);
  if (failed(elseFunc))
    return failure();

  // The result types: per dim, what both branches agree on.
  SmallVector<Type> joined;
  for (auto [i, pair] : llvm::enumerate(llvm::zip_equal(
           thenFunc->getResultTypes(), elseFunc->getResultTypes()))) {
    auto a = dyn_cast<RankedTensorType>(std::get<0>(pair));
    auto b = dyn_cast<RankedTensorType>(std::get<1>(pair));
    if (!a || !b || a.getRank() != b.getRank() ||
        a.getElementType() != b.getElementType())
      return nc.fail("output " + std::to_string(i) + ": the branches yield " +
                     llvm::Twine(a ? "tensors of different ranks or element "
                                     "types"
                                   : "values that are not ranked tensors"));
    SmallVector<int64_t> shape;
    for (auto [x, y] : llvm::zip_equal(a.getShape(), b.getShape()))
      shape.push_back(x == y ? x : ShapedType::kDynamic);
    joined.push_back(RankedTensorType::get(shape, a.getElementType()));
  }

  OpBuilder &b = nc.b;
  Value zero = arith::ConstantIndexOp::create(b, nc.loc, 0);
  SmallVector<Value> at(condType.getRank(), zero);
  Value flag = tensor::ExtractOp::create(b, nc.loc, cond, at);
  auto ifOp = scf::IfOp::create(b, nc.loc, joined, flag, /*withElse=*/true);
  for (auto [region, func, args] :
       {std::tuple(&ifOp.getThenRegion(), *thenFunc, &thenArgs),
        std::tuple(&ifOp.getElseRegion(), *elseFunc, &elseArgs)}) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&region->front());
    auto call = func::CallOp::create(b, nc.loc, func, *args);
    SmallVector<Value> yields;
    for (auto [v, type] : llvm::zip_equal(call.getResults(), joined))
      yields.push_back(v.getType() == type
                           ? Value(v)
                           : Value(tensor::CastOp::create(b, nc.loc, type, v)));
    scf::YieldOp::create(b, nc.loc, yields);
  }
  nc.results.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  return success();
}
