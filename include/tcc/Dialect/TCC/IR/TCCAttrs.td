//===- TCCAttrs.td - tcc dialect attributes -----------------*- tablegen -*-===//
#ifndef TCC_DIALECT_TCC_IR_TCCATTRS_TD
#define TCC_DIALECT_TCC_IR_TCCATTRS_TD

include "tcc/Dialect/TCC/IR/TCCBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def TCC_ShapeAttr : AttrDef<TCC_Dialect, "Shape"> {
  let mnemonic = "shape";
  let summary = "the size of every dim of a tensor as an expression of named symbols";
  let description = [{
    One expression per dim over named size symbols: integers, names,
    `+`, `-`, `*`, and `floordiv`/`ceildiv`/`mod` by a constant. Equal
    names are equal sizes. On a function argument it is how users name
    dims (names and integers only); `--symbolic-shapes` writes one on every
    value with a dynamic dim.

    ```mlir
    func.func @f(%x: tensor<?x3x?x?xf32> {tcc.shape = #tcc.shape<[N, 3, H, W]>})
    %0 = tcc.conv2d ... {tcc.shape = #tcc.shape<[N, 64, (H - 1) floordiv 2 + 1, (W - 1) floordiv 2 + 1]>}
    ```

    Stored as an affine map with no dims and one symbol per name
    (`symbols[i]` is `s<i>`), so upstream affine simplification applies.
  }];
  let parameters = (ins "::mlir::AffineMap":$map,
                        ArrayRefParameter<"::mlir::StringAttr">:$symbols);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Builds the attribute from expressions over the symbols `names`
    /// (s<i> is names[i]); unused names are dropped.
    static ShapeAttr get(::mlir::MLIRContext *ctx,
                         ::llvm::ArrayRef<::mlir::AffineExpr> dims,
                         ::llvm::ArrayRef<std::string> names);
    /// The expressions over the symbols of `names`, with names that are not
    /// yet there appended.
    ::llvm::SmallVector<::mlir::AffineExpr>
    getDims(::llvm::SmallVectorImpl<std::string> &names) const;
    int64_t getRank() const { return getMap().getNumResults(); }
  }];
}

#endif // TCC_DIALECT_TCC_IR_TCCATTRS_TD
