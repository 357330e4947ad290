//===- FunctionEquivalence.cpp - functions equal but for their names ------===//

#include "tcc/Transforms/FunctionEquivalence.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

llvm::hash_code mlir::tcc::functionFingerprint(FunctionOpInterface fn) {
  llvm::hash_code h = hash_value(fn.getFunctionType());
  fn.getFunctionBody().walk([&](Operation *op) {
    h = llvm::hash_combine(h, op->getName().getAsOpaquePointer(),
                           op->getNumOperands(), op->getNumResults());
  });
  return h;
}

bool mlir::tcc::areEquivalentFunctions(FunctionOpInterface a,
                                       FunctionOpInterface b) {
  if (a.getFunctionType() != b.getFunctionType())
    return false;
  NamedAttrList attrsA(a->getAttrDictionary()), attrsB(b->getAttrDictionary());
  attrsA.erase(SymbolTable::getSymbolAttrName());
  attrsB.erase(SymbolTable::getSymbolAttrName());
  if (attrsA.getDictionary(a->getContext()) !=
      attrsB.getDictionary(b->getContext()))
    return false;
  return OperationEquivalence::isRegionEquivalentTo(
      &a.getFunctionBody(), &b.getFunctionBody(),
      OperationEquivalence::IgnoreLocations);
}

FunctionOpInterface
mlir::tcc::EquivalentFunctions::findOrKeep(FunctionOpInterface fn) {
  SmallVector<FunctionOpInterface> &candidates = kept[functionFingerprint(fn)];
  for (FunctionOpInterface k : candidates)
    if (areEquivalentFunctions(k, fn))
      return k;
  candidates.push_back(fn);
  return nullptr;
}
