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

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcc::runtime {

/// Element types tcc programs exchange with the host.
enum class DType { F32, F64, F16, BF16, I1, I8, I32, I64 };

/// Size in bytes of one element (i1 is stored as one byte, 0 or 1).
size_t dtypeSize(DType dtype);
/// MLIR spelling: "f32", "f16", "bf16", "i1", "i32", ...
const char *dtypeName(DType dtype);
/// Inverse of dtypeName; std::nullopt for unknown spellings.
std::optional<DType> dtypeFromName(const std::string &name);
bool isFloatDType(DType dtype);

/// IEEE half / bfloat16 conversions (round to nearest even, NaN preserved).
float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);
float bf16ToFloat(uint16_t b);
uint16_t floatToBF16(float f);

struct HostTensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; // numElements() * dtypeSize(dtype) bytes

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

  /// "2x3xf32" (rank 0: "f32").
  std::string typeString() const;
};

} // namespace tcc::runtime

#endif // TCC_RUNTIME_HOSTTENSOR_H
