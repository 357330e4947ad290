//===- EvaluatorInternal.h - Reference evaluator internals ------*- C++ -*-===//
//
// Shared helpers of the reference evaluator's op kernels: the per-op state
// (operands, results, attribute readers, error reporting), index arithmetic
// for row-major tensors and numpy broadcasting, and exact integer element
// access. Private to lib/Reference.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_REFERENCE_EVALUATORINTERNAL_H
#define TCC_LIB_REFERENCE_EVALUATORINTERNAL_H

#include "tcc/Runtime/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>
#include <vector>

namespace tcc::reference::detail {

using runtime::DType;
using runtime::HostTensor;
using Shape = std::vector<int64_t>;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// DType of a scalar type; `index` maps to i64 (tensor.dim, shape operands).
std::optional<DType> dtypeOfElementType(mlir::Type type);
bool isIntDType(DType dtype);

/// "4x?x8xf32" for tensor types, "f32" for scalars; falls back to MLIR's
/// spelling for types the evaluator does not know.
std::string typeToString(mlir::Type type);

/// Why `value` cannot be a value of `type` ("expected shape 4x8xf32, got
/// 4x9xf32"), or std::nullopt when it can. Dynamic dims accept any size.
std::optional<std::string> typeMismatch(mlir::Type type,
                                        const HostTensor &value);

//===----------------------------------------------------------------------===//
// Op state
//===----------------------------------------------------------------------===//

/// Everything an op kernel needs. Kernels read operands, allocate results with
/// makeResult (which checks the computed shape against the result type) and
/// report problems with fail().
class OpState {
public:
  OpState(mlir::Operation *op, llvm::ArrayRef<HostTensor> operands,
          std::vector<HostTensor> &results, std::string &error)
      : op(op), operands(operands), results(results), error(error) {}

  mlir::Operation *op;
  llvm::ArrayRef<HostTensor> operands;
  std::vector<HostTensor> &results;
  std::string &error;

  /// Sets the error to "'<op name>' at <loc>: <msg>" and returns failure.
  mlir::LogicalResult fail(const llvm::Twine &msg) const;

  /// Fails unless the op has between `min` and `max` operands and exactly
  /// `numResults` results.
  mlir::LogicalResult checkArity(unsigned min, unsigned max,
                                 unsigned numResults = 1) const;

  // Attribute readers. When the attribute is absent the default is returned,
  // or, without a default, an error about the missing attribute. An attribute
  // of the wrong kind is always an error.
  mlir::FailureOr<int64_t>
  getInt(llvm::StringRef name,
         std::optional<int64_t> defaultValue = std::nullopt) const;
  mlir::FailureOr<double>
  getFloat(llvm::StringRef name,
           std::optional<double> defaultValue = std::nullopt) const;
  mlir::FailureOr<bool> getBool(llvm::StringRef name, bool defaultValue) const;
  mlir::FailureOr<std::string>
  getString(llvm::StringRef name,
            std::optional<std::string> defaultValue = std::nullopt) const;
  /// Accepts DenseI64ArrayAttr, DenseI32ArrayAttr, ArrayAttr of integers and
  /// integer DenseElementsAttr.
  mlir::FailureOr<Shape>
  getIntArray(llvm::StringRef name,
              std::optional<Shape> defaultValue = std::nullopt) const;

  /// Maps a possibly negative `axis` into [0, rank).
  mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                         llvm::StringRef what = "axis") const;

  /// The type of result `i` (ranked tensor, unranked tensor or scalar).
  mlir::Type resultType(unsigned i) const;
  /// The DType of result `i`'s element type; fails for unsupported types.
  mlir::FailureOr<DType> resultDType(unsigned i) const;
  /// Result `i` as a ranked tensor type; fails otherwise.
  mlir::FailureOr<mlir::RankedTensorType> rankedResultType(unsigned i) const;

  /// Allocates result `i` with the computed `shape` and the result type's
  /// element type. Fails (returning nullptr, error set) when `shape`
  /// disagrees with the rank or a static dim of the result type.
  HostTensor *makeResult(unsigned i, llvm::ArrayRef<int64_t> shape);
};

/// An op kernel: computes all results of `state.op`.
using Kernel = mlir::LogicalResult (*)(OpState &state);
using KernelTable = llvm::StringMap<Kernel>;

void registerElementwiseKernels(KernelTable &table);
void registerReductionKernels(KernelTable &table);
void registerLinalgKernels(KernelTable &table);
void registerShapeKernels(KernelTable &table);
void registerRecurrenceKernels(KernelTable &table);
void registerSamplingKernels(KernelTable &table);
void registerSortingKernels(KernelTable &table);

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

int64_t numElementsOf(llvm::ArrayRef<int64_t> shape);
/// Row-major strides (in elements).
Shape stridesOf(llvm::ArrayRef<int64_t> shape);
/// Multi-index of row-major `linear` in `shape`; `index` gets shape.size()
/// entries.
void unravelIndex(int64_t linear, llvm::ArrayRef<int64_t> shape, Shape &index);
/// Row-major linear index of `index` in `shape`.
int64_t linearIndex(llvm::ArrayRef<int64_t> index,
                    llvm::ArrayRef<int64_t> shape);
/// "2x3" ("scalar" for rank 0), for error messages.
std::string shapeToString(llvm::ArrayRef<int64_t> shape);

/// Numpy broadcast of two shapes (align from the right, size-1 dims stretch);
/// std::nullopt when incompatible.
std::optional<Shape> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                     llvm::ArrayRef<int64_t> b);

/// Linear index into a tensor of shape `source` broadcast to the shape of
/// which `outIndex` is a multi-index (source aligned to the right, size-1
/// dims pinned to 0).
int64_t broadcastSourceIndex(llvm::ArrayRef<int64_t> outIndex,
                             llvm::ArrayRef<int64_t> source);

/// Calls `fn(outLinear, sourceLinears)` for every element of `outShape`, with
/// the linear index of the matching element of each broadcast source. Stops
/// at the first failure.
mlir::LogicalResult forEachBroadcast(
    llvm::ArrayRef<int64_t> outShape,
    llvm::ArrayRef<const HostTensor *> sources,
    llvm::function_ref<mlir::LogicalResult(int64_t, llvm::ArrayRef<int64_t>)>
        fn);

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

/// Integer element read exactly (getDouble would round i64 beyond 2^53).
/// Float elements are truncated toward zero.
int64_t getInt(const HostTensor &t, int64_t i);
/// Stores an integer with two's-complement wrap-around to the element width
/// (i1 stores v != 0); float elements get the rounded value.
void setInt(HostTensor &t, int64_t i, int64_t v);
/// Copies one element, bit-exact when the dtypes agree, converting otherwise.
void copyElement(const HostTensor &src, int64_t srcIndex, HostTensor &dst,
                 int64_t dstIndex);

} // namespace tcc::reference::detail

#endif // TCC_LIB_REFERENCE_EVALUATORINTERNAL_H
