//===- TCCBase.td - tcc dialect definition ------------------*- tablegen -*-===//
//
// The tcc dialect: tensor-level ops with PyTorch semantics on builtin ranked
// tensors (static and dynamic dims). Everything tcc compiles enters as tcc ops.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECT_TCC_IR_TCCBASE_TD
#define TCC_DIALECT_TCC_IR_TCCBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TCC_Dialect : Dialect {
  let name = "tcc";
  let cppNamespace = "::mlir::tcc";
  let summary = "Tensor ops with PyTorch semantics";
  let description = [{
    Value-semantic tensor ops on builtin `tensor` types, close to the ATen ops
    a torch.compile graph holds. Elementwise binaries broadcast like numpy.
    Shapes may be dynamic (`?`); verifiers check everything that is known at
    compile time and type inference refines what it can.
  }];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

/// Base class of every tcc op.
class TCC_Op<string mnemonic, list<Trait> traits = []>
    : Op<TCC_Dialect, mnemonic, traits>;

def TCC_FloatElement : AnyTypeOf<[F16, BF16, F32, F64]>;
// Signless integers are signed; uiN are unsigned (lowering makes them
// signless and picks unsigned arith ops from these types).
def TCC_AnyElement : AnyTypeOf<[F16, BF16, F32, F64, I1, I8, I16, I32, I64,
                                UI8, UI16, UI32, UI64]>;
def TCC_FloatTensor : RankedTensorOf<[F16, BF16, F32, F64]>;
def TCC_Tensor : RankedTensorOf<[F16, BF16, F32, F64, I1, I8, I16, I32, I64,
                                 UI8, UI16, UI32, UI64]>;
def TCC_IntTensor : RankedTensorOf<[I1, I8, I16, I32, I64,
                                    UI8, UI16, UI32, UI64]>;
def TCC_BoolTensor : RankedTensorOf<[I1]>;
def TCC_IndexTensor : RankedTensorOf<[I32, I64]>;
def TCC_ShapeTensor : 1DTensorOf<[I64]>;

#endif // TCC_DIALECT_TCC_IR_TCCBASE_TD
