//===- Npy.h - NumPy .npy file reading and writing --------------*- C++ -*-===//
//
// tcc-run exchanges inputs and reference outputs with Python through .npy
// files, the simplest format numpy reads and writes without extra packages.
// Supported element types: '<f4' f32, '<f8' f64, '<f2' f16, '<i8' i64,
// '<i4' i32, '<i2' i16, '|i1' i8, '<u8' ui64, '<u4' ui32, '<u2' ui16,
// '|u1' ui8, '|b1' i1. numpy has no bfloat16: bf16 tensors are written as
// their bits in '<u2', which reads back as ui16; adoptAsBF16IfBits turns it
// into bf16 where a signature asks for bf16. Only C order, little-endian
// data is accepted.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_NPY_H
#define TCC_RUNTIME_NPY_H

#include "tcc/Runtime/HostTensor.h"

#include <string>
#include <string_view>

namespace tcc::runtime {

/// Parses the bytes of a .npy file (format 1.0, 2.0 or 3.0). On failure
/// returns false, leaves \p out unspecified and sets \p error.
bool parseNpy(std::string_view bytes, HostTensor &out, std::string &error);

/// Serializes \p t as a .npy file (format 1.0; 2.0 only if the header would
/// not fit, which needs an absurdly high rank).
std::string serializeNpy(const HostTensor &t);

/// File variants; error messages are prefixed with the path.
bool readNpy(const std::string &path, HostTensor &out, std::string &error);
bool writeNpy(const std::string &path, const HostTensor &t, std::string &error);

/// The numpy 'descr' string used when writing \p dtype ("<f4", "|b1", ...).
const char *npyDescr(DType dtype);

} // namespace tcc::runtime

#endif // TCC_RUNTIME_NPY_H
