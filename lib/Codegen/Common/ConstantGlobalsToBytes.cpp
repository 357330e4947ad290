//===- ConstantGlobalsToBytes.cpp - weights as byte arrays ----*- C++ -*-===//
//
// See the pass description (include/tcc/Codegen/Common/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/Common/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_CONSTANTGLOBALSTOBYTESPASS
#include "tcc/Codegen/Common/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// The bytes of `value` as dense elements of i8 (the same blob for a
/// resource), or null where its elements are not whole-byte ints or floats
/// laid out densely.
Attribute asBytes(Attribute value, int64_t &bytes) {
  auto elements = dyn_cast_or_null<ElementsAttr>(value);
  if (!elements)
    return {};
  Type element = elements.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  bytes = elements.getNumElements() * (element.getIntOrFloatBitWidth() / 8);
  auto type = RankedTensorType::get({bytes},
                                    IntegerType::get(value.getContext(), 8));
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || int64_t(blob->getData().size()) != bytes)
      return {};
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  // A splat stays: LLVM writes a repeated byte as a fill already, and its
  // raw data is one element.
  if (!dense || dense.isSplat() ||
      int64_t(dense.getRawData().size()) != bytes)
    return {};
  return DenseElementsAttr::getFromRawBuffer(type, dense.getRawData());
}

struct ConstantGlobalsToBytesPass
    : tcc::impl::ConstantGlobalsToBytesPassBase<ConstantGlobalsToBytesPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      if (!global.getConstant() || !global.getInitializerRegion().empty())
        continue;
      int64_t bytes = 0;
      Attribute raw = asBytes(global.getValueOrNull(), bytes);
      if (!raw || bytes <= minBytes)
        continue;
      global.setGlobalType(
          LLVM::LLVMArrayType::get(IntegerType::get(&getContext(), 8), bytes));
      global.setValueAttr(raw);
      if (!global.getAlignment())
        global.setAlignment(64);
    }
  }
};

} // namespace
