//===- HostTensor.h - Dense tensors in host memory --------------*- C++ -*-===//
//
// The value type that crosses the boundary between tcc's tools and compiled
// code: tcc-run reads inputs into HostTensors, passes them to the JIT-compiled
// function or to the reference evaluator, and prints or saves the results.
// Data is dense, row-major and contiguous. No MLIR dependency on purpose, so
// the runtime pieces can be reused by the Python bindings and the AOT library.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_HOSTTENSOR_H
#define TCC_RUNTIME_HOSTTENSOR_H

#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace tcc::runtime {

/// Element types tcc programs exchange with the host. New types are
/// appended: the codes are stored in AOT libraries and used by the C API.
enum class DType { F32, F64, F16, BF16, I1, I8, I32, I64, I16, U8, U16, U32, U64 };
inline constexpr int kNumDTypes = 13;

/// Size in bytes of one element (i1 is stored as one byte, 0 or 1).
size_t dtypeSize(DType dtype);
/// MLIR spelling: "f32", "f16", "bf16", "i1", "i32", ...
const char *dtypeName(DType dtype);
/// Inverse of dtypeName; std::nullopt for unknown spellings.
std::optional<DType> dtypeFromName(const std::string &name);
bool isFloatDType(DType dtype);
/// ui8, ui16, ui32, ui64.
bool isUnsignedDType(DType dtype);
/// Every integer type, i1 included.
bool isIntegerDType(DType dtype);

struct HostTensor;
/// Reinterprets a ui16 tensor as bf16 bits when `wanted` is bf16 (.npy and
/// ONNX files store bf16 as uint16); returns whether it did.
bool adoptAsBF16IfBits(HostTensor &t, DType wanted);

/// IEEE half / bfloat16 conversions (round to nearest even, NaN preserved).
float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);
float bf16ToFloat(uint16_t b);
uint16_t floatToBF16(float f);

/// Allocates on 64-byte (cache-line) boundaries: compiled code reads and
/// writes tensors with full-width vector loads and non-temporal stores,
/// which at malloc's 16-byte alignment straddle two lines each (softmax
/// over 16384 x 4096 f32 ran 1.3x slower).
template <typename T> struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};
  CacheLineAllocator() = default;
  template <typename U> CacheLineAllocator(const CacheLineAllocator<U> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(::operator new(n * sizeof(T), kAlignment));
  }
  void deallocate(T *p, size_t) { ::operator delete(p, kAlignment); }
  template <typename U> bool operator==(const CacheLineAllocator<U> &) const {
    return true;
  }
  template <typename U> bool operator!=(const CacheLineAllocator<U> &) const {
    return false;
  }
};

/// A tensor's bytes, cache-line aligned.
using TensorBytes = std::vector<uint8_t, CacheLineAllocator<uint8_t>>;

struct HostTensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  TensorBytes data; // numElements() * dtypeSize(dtype) bytes

  HostTensor() = default;
  HostTensor(DType dtype, std::vector<int64_t> shape); // zero-filled

  int64_t numElements() const;
  size_t numBytes() const { return data.size(); }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }

  /// Element i (row-major linear index) converted to double / stored from
  /// double with the element type's rounding (ints truncate toward zero,
  /// i1 stores v != 0).
  double getDouble(int64_t i) const;
  void setDouble(int64_t i, double v);
  /// Element i of an integer tensor, exactly: narrower types sign- or
  /// zero-extend, ui64 gives its bit pattern. Stores wrap to the width
  /// (i1 stores v != 0). Float tensors go through getDouble / setDouble.
  int64_t getInt64(int64_t i) const;
  void setInt64(int64_t i, int64_t v);

  /// "2x3xf32" (rank 0: "f32").
  std::string typeString() const;
};

} // namespace tcc::runtime

#endif // TCC_RUNTIME_HOSTTENSOR_H
