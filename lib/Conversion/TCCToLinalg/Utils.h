//===- Utils.h - helpers shared by the tcc-to-linalg patterns ---*- C++ -*-===//
#ifndef TCC_LIB_CONVERSION_TCCTOLINALG_UTILS_H
#define TCC_LIB_CONVERSION_TCCTOLINALG_UTILS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcc::lowering {

/// Whether `t` (or its element type) is one of tcc's uiN. The patterns read
/// this from the original op: after type conversion every integer is
/// signless.
bool isUnsignedElement(Type t);

/// `t` under the pass's type converter (uiN -> iN), as a ranked tensor.
RankedTensorType convertedType(const TypeConverter &converter, Type t);

/// Size of dim `d` of tensor `v` as an index value (constant when static).
Value dimValue(OpBuilder &b, Location loc, Value v, int64_t d);

/// All dims of `v` as index values.
SmallVector<Value> dimValues(OpBuilder &b, Location loc, Value v);

/// The runtime dims of `op`'s single result, from its
/// ReifyRankedShapedTypeOpInterface implementation (the same shape rules
/// tensor.dim folding uses).
LogicalResult reifiedResultDims(OpBuilder &b, Operation *op,
                                SmallVectorImpl<Value> &dims);

/// tensor.empty of `type`; `dims` holds one index value per dim: dynamic
/// entries size the tensor, static ones are checked against the type at
/// runtime (unless they are the same constant).
Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<Value> dims);

/// tensor.empty filled with `value` (a scalar of the element type).
Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   ArrayRef<Value> dims, Value value);

/// A copy of tensor `v` in a buffer of its own (bufferization.alloc_tensor
/// copy): loops that update it in place never write to v's buffer.
Value ownCopy(OpBuilder &b, Location loc, Value v);

/// tensor.cast to `type`, asserting at runtime every dim the cast makes
/// static.
Value castChecked(OpBuilder &b, Location loc, Value v, RankedTensorType type);

/// Scalar constant of a float or integer type; for integers +-inf stand for
/// the type's largest and smallest value (2^N - 1 and 0 when `isUnsigned`).
Value scalarConstant(OpBuilder &b, Location loc, Type type, double value,
                     bool isUnsigned = false);

/// f16 and bf16 compute in f32; other types compute as they are.
Type computeType(Type elementType);
/// Extends a half-precision scalar to its compute type.
Value toCompute(OpBuilder &b, Location loc, Value scalar);
/// Converts a scalar between any two supported element types with tcc.cast
/// semantics (float->int truncates, x->i1 is x != 0, narrowing rounds).
Value convertScalar(OpBuilder &b, Location loc, Value scalar, Type target);
/// The same between signless types standing for the given signedness
/// (unsigned: uitofp, fptoui, extui).
Value convertScalar(OpBuilder &b, Location loc, Value scalar, Type target,
                    bool srcUnsigned, bool dstUnsigned);

/// x << n and x >> n (logical when `isUnsigned`, else arithmetic) with
/// tcc's rule for amounts outside [0, width): 0, or the sign for a signed
/// right shift (arith's shifts are poison there).
Value shiftLeft(OpBuilder &b, Location loc, Value x, Value n);
Value shiftRight(OpBuilder &b, Location loc, Value x, Value n,
                 bool isUnsigned);

/// Runtime dims of a broadcast of `operands` to `resultType`. Dynamic dims
/// that must agree are checked with cf.assert (size-1 stretching of a dynamic
/// dim is not supported and fails that check).
SmallVector<Value> broadcastDims(OpBuilder &b, Location loc,
                                 RankedTensorType resultType,
                                 ValueRange operands, StringRef opName);

/// Indexing map of `operandType` broadcast into a loop nest over
/// `resultType` (leading dims dropped, static size-1 dims pinned to 0).
AffineMap broadcastMap(MLIRContext *ctx, RankedTensorType operandType,
                       RankedTensorType resultType);

using ScalarBodyFn =
    function_ref<Value(OpBuilder &, Location, ValueRange /*args*/)>;

/// All-parallel linalg.generic over `resultType` (dims `resultDims`) reading
/// `inputs` through `inputMaps`; the body receives the inputs in their compute
/// type and its result is converted to the result element type (an integer
/// body result or result type is unsigned as `bodyUnsigned` and
/// `resultUnsigned` say).
Value buildMapped(OpBuilder &b, Location loc, RankedTensorType resultType,
                  ArrayRef<Value> resultDims, ValueRange inputs,
                  ArrayRef<AffineMap> inputMaps, ScalarBodyFn body,
                  bool bodyUnsigned = false, bool resultUnsigned = false);

/// linalg.generic computing `body` over the broadcast of `operands`; the body
/// receives operands in their compute type (see computeType) and its result
/// is converted to the result element type (signedness as in buildMapped).
Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange operands, StringRef opName,
                       ScalarBodyFn body, bool bodyUnsigned = false,
                       bool resultUnsigned = false);

/// Emits cf.assert(lhs == rhs) with `message` unless both are the same
/// constant.
void assertEqual(OpBuilder &b, Location loc, Value lhs, Value rhs,
                 const Twine &message);

/// cf.assert(dim `da` of `a` == dim `db` of `b`) unless both are static.
void assertSameDim(OpBuilder &b, Location loc, Value x, int64_t dx, Value y,
                   int64_t dy, const Twine &message);

/// Reduces `input` over the sorted `axes` with `combine`, starting from
/// `init`; the result drops the reduced dims and has element type
/// `accType`. The body of `combine` gets (element in accType, accumulator).
/// `isUnsigned`: integer elements and `init` are unsigned (see
/// scalarConstant).
Value buildReduction(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, Type accType, double init,
                     function_ref<Value(OpBuilder &, Location, Value, Value)>
                         combine,
                     function_ref<Value(OpBuilder &, Location, Value)>
                         prologue = nullptr,
                     bool isUnsigned = false);

/// Product of the sizes of `axes` of `v` as a float scalar of `type`.
Value elementCount(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> axes,
                   Type type);

/// Maps a reduced tensor (reduced dims dropped) back into a loop nest over
/// the full rank: the identity map without the reduced dims.
AffineMap reducedMap(MLIRContext *ctx, int64_t rank, ArrayRef<int64_t> axes);

/// Checks every element of `indices` once: each must be in [-dim, dim) (a
/// runtime error with `message` otherwise, before anything is read).
void assertIndicesInRange(OpBuilder &b, Location loc, Value indices,
                          Value dim, StringRef message);

/// An index read from a tensor as an in-range `index`: negative ones wrap;
/// clamped as well, so no access leaves the buffer even if the range
/// assert is compiled out.
Value wrappedIndex(OpBuilder &b, Location l, Value raw, Value dim);

} // namespace mlir::tcc::lowering

#endif // TCC_LIB_CONVERSION_TCCTOLINALG_UTILS_H
