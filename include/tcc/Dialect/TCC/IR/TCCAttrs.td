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

def TCC_TargetAttr : AttrDef<TCC_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the machine a module is compiled for";
  let description = [{
    What every pass that depends on the machine reads: the kind (`cpu` or
    `cuda`), the CPU or chip and its features, the vector width, the
    on-chip memory one fusion group may keep live, the figures of the cost
    models (memory bandwidth, peak arithmetic, the cost of a launch, the
    bandwidth of a relayout), the alignment of planned buffers and the
    libraries calls may go to. It sits on the module as `tcc.target`; the
    tools build it from `--target`, `--mcpu` and `--chip` (or the host) in
    one place (include/tcc/Target/Target.h), and a module without one
    compiles for the host CPU.

    ```mlir
    module attributes {tcc.target = #tcc.target<"cpu", arch = "znver4",
        features = "+avx2,+avx512f,+fma", vector_bits = 512,
        on_chip_bytes = 1048576, bandwidth = 32000000000,
        peak_flops = 256000000000, launch_ns = 1024,
        relayout_bandwidth = 8000000000, alignment = 64,
        libraries = ["onednn"]>} {
    }
    ```
  }];
  let parameters = (ins
      StringRefParameter<"cpu or cuda">:$kind,
      StringRefParameter<"LLVM CPU name (cpu) or GPU chip (cuda)">:$arch,
      StringRefParameter<"enabled features: +name,... (cuda: the PTX version)">:$features,
      "int64_t":$vector_bits,
      "int64_t":$on_chip_bytes,
      "int64_t":$bandwidth,
      "int64_t":$peak_flops,
      "int64_t":$launch_ns,
      "int64_t":$relayout_bandwidth,
      "int64_t":$alignment,
      OptionalParameter<"::mlir::ArrayAttr",
                        "libraries calls may go to (strings)">:$libraries);
  let assemblyFormat = [{
    `<` $kind `,` struct($arch, $features, $vector_bits, $on_chip_bytes,
                         $bandwidth, $peak_flops, $launch_ns,
                         $relayout_bandwidth, $alignment, $libraries) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isCPU() const { return getKind() == "cpu"; }
    bool isCUDA() const { return getKind() == "cuda"; }
    /// Whether `features` enables `name` ("avx512f").
    bool hasFeature(::llvm::StringRef name) const;
    /// Whether calls may go to `library` ("onednn", "cublaslt", "cudnn").
    bool hasLibrary(::llvm::StringRef library) const;
    /// Lanes of `elementBits`-bit elements in one vector register.
    int64_t getVectorLanes(int64_t elementBits = 32) const {
      return std::max<int64_t>(1, getVectorBits() / elementBits);
    }
  }];
}

#endif // TCC_DIALECT_TCC_IR_TCCATTRS_TD
