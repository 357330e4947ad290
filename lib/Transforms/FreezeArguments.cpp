//===- FreezeArguments.cpp - arguments bound to values at compile time ----===//
//
// See include/tcc/Transforms/FreezeArguments.h. The constants take the form
// the ONNX importer gives initializers: small ones (and booleans) dense and
// foldable, the rest resource blobs, which are neither printed as text nor
// uniqued by the context.
//
//===----------------------------------------------------------------------===//

#include "tcc/Transforms/FreezeArguments.h"

#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/BitVector.h"

#include <cctype>

using namespace mlir;

namespace {

/// The resource key: the argument's tcc.name (the graph's name for it),
/// made an identifier.
std::string resourceKey(func::FuncOp func, unsigned index) {
  std::string key = "frozen_";
  if (auto name = func.getArgAttrOfType<StringAttr>(index, "tcc.name"))
    for (char c : name.getValue())
      key += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  else
    key += "arg" + std::to_string(index);
  return key;
}

ElementsAttr constantValue(func::FuncOp func, unsigned index,
                           RankedTensorType type, ArrayRef<char> bytes) {
  Type element = type.getElementType();
  if (element.isInteger(1)) {
    SmallVector<bool> bits(bytes.size());
    for (size_t i = 0; i < bytes.size(); ++i)
      bits[i] = bytes[i] != 0;
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  if (type.getNumElements() <= 16)
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  int64_t width = element.getIntOrFloatBitWidth() / 8;
  return DenseResourceElementsAttr::get(
      type, resourceKey(func, index),
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes,
                                                    std::max<int64_t>(
                                                        width, 16)));
}

/// The argument's byte count, or failure with an error naming why it
/// cannot be bound.
FailureOr<int64_t> expectedBytes(func::FuncOp func, unsigned index) {
  auto type = dyn_cast<RankedTensorType>(func.getArgument(index).getType());
  if (!type || !type.hasStaticShape())
    return func.emitError() << "argument " << index
                            << " cannot be frozen: it is not a statically "
                               "shaped tensor";
  Type element = type.getElementType();
  if (!element.isIntOrFloat() ||
      (!element.isInteger(1) && element.getIntOrFloatBitWidth() % 8 != 0))
    return func.emitError() << "argument " << index
                            << " cannot be frozen: element type " << element
                            << " has no byte layout";
  int64_t width =
      element.isInteger(1) ? 1 : element.getIntOrFloatBitWidth() / 8;
  return type.getNumElements() * width;
}

} // namespace

LogicalResult mlir::tcc::freezeArguments(func::FuncOp func,
                                         ArrayRef<FrozenArgument> values) {
  if (func.isExternal())
    return func.emitError() << "a declaration has no arguments to freeze";
  unsigned numArgs = func.getNumArguments();
  llvm::BitVector frozen(numArgs);
  for (const FrozenArgument &v : values) {
    if (v.index >= numArgs)
      return func.emitError() << "cannot freeze argument " << v.index
                              << ": the function has " << numArgs;
    if (frozen.test(v.index))
      return func.emitError() << "argument " << v.index
                              << " is frozen twice";
    frozen.set(v.index);
    FailureOr<int64_t> want = expectedBytes(func, v.index);
    if (failed(want))
      return failure();
    Type element =
        cast<ShapedType>(func.getArgument(v.index).getType()).getElementType();
    if (v.elementType && v.elementType != element)
      return func.emitError() << "argument " << v.index << " has elements of "
                              << element << ", the value " << v.elementType;
    if (static_cast<int64_t>(v.bytes.size()) != *want)
      return func.emitError() << "argument " << v.index << " takes " << *want
                              << " bytes, the value has " << v.bytes.size();
  }

  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  for (const FrozenArgument &v : values) {
    BlockArgument arg = func.getArgument(v.index);
    auto type = cast<RankedTensorType>(arg.getType());
    auto constant = ConstantOp::create(
        b, arg.getLoc(), constantValue(func, v.index, type, v.bytes));
    arg.replaceAllUsesWith(constant.getResult());
  }
  return func.eraseArguments(frozen);
}
