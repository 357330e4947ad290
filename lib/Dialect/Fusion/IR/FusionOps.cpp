//===- FusionOps.cpp - fusion dialect ---------------------------*- C++ -*-===//
#include "tcc/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tcc::fusion;

#include "tcc/Dialect/Fusion/IR/FusionDialect.cpp.inc"

void FusionDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tcc/Dialect/Fusion/IR/FusionOps.cpp.inc"
      >();
}

ArrayRef<StringRef> GroupOp::getKnownKinds() {
  static const StringRef kinds[] = {"pointwise", "reduction", "matmul", "conv",
                                    "attention", "pool",      "copy"};
  return kinds;
}

void GroupOp::build(OpBuilder &builder, OperationState &state,
                    TypeRange resultTypes, ValueRange inputs, StringRef kind) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  state.getOrAddProperties<Properties>().kind = builder.getStringAttr(kind);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value v : inputs)
    block->addArgument(v.getType(), v.getLoc());
}

LogicalResult GroupOp::verify() {
  if (!llvm::is_contained(getKnownKinds(), getKind())) {
    std::string known;
    for (StringRef k : getKnownKinds())
      known += (known.empty() ? "" : ", ") + k.str();
    return emitOpError("has unknown kind '")
           << getKind() << "'; expected one of " << known;
  }
  Block &block = getBodyBlock();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("expects ")
           << getInputs().size() << " block arguments (one per input), got "
           << block.getNumArguments();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(block.getArgumentTypes(), getInputs())))
    if (std::get<0>(pair) != std::get<1>(pair).getType())
      return emitOpError("block argument ")
             << i << " has type " << std::get<0>(pair) << " but input " << i
             << " has type " << std::get<1>(pair).getType();
  auto yield = cast<YieldOp>(block.getTerminator());
  if (yield.getValues().size() != getNumResults())
    return emitOpError("yields ")
           << yield.getValues().size() << " values but has "
           << getNumResults() << " results";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(yield.getValues().getTypes(),
                                 getResultTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("yielded value ")
             << i << " has type " << std::get<0>(pair) << " but result " << i
             << " has type " << std::get<1>(pair);
  return success();
}

#define GET_OP_CLASSES
#include "tcc/Dialect/Fusion/IR/FusionOps.cpp.inc"
