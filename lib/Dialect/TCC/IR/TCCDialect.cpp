//===- TCCDialect.cpp - tcc dialect registration ----------------*- C++ -*-===//
#include "tcc/Dialect/TCC/IR/TCCDialect.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

using namespace mlir;
using namespace mlir::tcc;

#include "tcc/Dialect/TCC/IR/TCCDialect.cpp.inc"

void TCCDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tcc/Dialect/TCC/IR/TCCOps.cpp.inc"
      >();
  registerAttributes();
}

/// Folders return ElementsAttrs; they come back as tcc.constant.
Operation *TCCDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
