//===- FusionOps.td - fusion dialect ------------------------*- tablegen -*-===//
//
// A fusion group holds the tcc ops that become one kernel. Groups are formed
// by --fuse, sized by --plan-memory, and each lowers to one loop nest (CPU)
// or one kernel launch (GPU).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECT_FUSION_IR_FUSIONOPS_TD
#define TCC_DIALECT_FUSION_IR_FUSIONOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def Fusion_Dialect : Dialect {
  let name = "fusion";
  let cppNamespace = "::mlir::tcc::fusion";
  let summary = "Fusion groups: the unit of kernel generation";
}

class Fusion_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fusion_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// GroupOp
//===----------------------------------------------------------------------===//

def Fusion_GroupOp : Fusion_Op<"group", [IsolatedFromAbove, Pure,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "ops that become one kernel";
  let description = [{
    The region's block takes one argument per input (same types) and ends in
    `fusion.yield` with one value per result. `kind` names the group's
    structure, which picks its code generation strategy:
    `pointwise`, `reduction`, `matmul`, `conv`, `attention`, `pool`, `copy`.

    Example:
    ```mlir
    %r = fusion.group "pointwise" (%a, %b : tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32> {
    ^bb0(%x: tensor<?x8xf32>, %y: tensor<8xf32>):
      %0 = tcc.add %x, %y : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
      %1 = tcc.relu %0 : (tensor<?x8xf32>) -> tensor<?x8xf32>
      fusion.yield %1 : tensor<?x8xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$kind);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind `(` ($inputs^ `:` type($inputs))? `)` (`->` type($results)^)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "TypeRange":$resultTypes, "ValueRange":$inputs,
                   "StringRef":$kind)>
  ];
  let extraClassDeclaration = [{
    Block &getBodyBlock() { return getBody().front(); }
    /// Known kinds, in the order the verifier lists them.
    static ArrayRef<StringRef> getKnownKinds();
  }];
}

def Fusion_YieldOp : Fusion_Op<"yield", [Pure, Terminator, ReturnLike,
    HasParent<"GroupOp">]> {
  let summary = "the results of a fusion group";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* empty yield */ }]>];
}

#endif // TCC_DIALECT_FUSION_IR_FUSIONOPS_TD
