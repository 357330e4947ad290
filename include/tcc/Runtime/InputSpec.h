//===- InputSpec.h - IREE-style --input value parsing -----------*- C++ -*-===//
//
// tcc-run takes its inputs the way iree-run-module does, so commands and test
// files can be shared between the two tools:
//
//   "2x3xf32=1 2 3 4 5 6"   values in row-major order
//   "2x2xf32=[1 2][3 4]"    '[', ']' and ',' are separators and are ignored
//   "2x3xf32=1"             a single value is splatted
//   "2x3xf32"               no '=': zeros
//   "f32=3.5"               rank 0
//   "2xi1=true 0"           i1 accepts true/false/1/0
//   "2x3xf32=random"        deterministic uniform values: floats in [-1, 1),
//                           integers in [-4, 4], i1 in {0, 1}
//   "2x3xf32=random*0.05"   the same floats times 0.05
//   "@path.npy"             a .npy file
//   "2x3xf32=@path.bin"     raw little-endian bytes (exact size required);
//                           a ".npy" path is read as .npy and must match
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_INPUTSPEC_H
#define TCC_RUNTIME_INPUTSPEC_H

#include "tcc/Runtime/HostTensor.h"

#include <cstdint>
#include <string>

namespace tcc::runtime {

/// Parses one input spec. \p inputIndex is used in error messages ("input 1:
/// ...") and, with \p seed, to seed "random" fills. Returns false and sets
/// \p error on failure.
bool parseInputSpec(const std::string &spec, unsigned inputIndex, uint64_t seed,
                    HostTensor &out, std::string &error);

/// Fills \p t with the values "random" produces for (\p seed, \p inputIndex).
/// The generator is splitmix64, so the data is identical on every platform.
void fillRandom(HostTensor &t, uint64_t seed, unsigned inputIndex);

/// Parses a type string such as "2x3xf32" or "f32" into shape and dtype.
bool parseTensorType(const std::string &type, std::vector<int64_t> &shape,
                     DType &dtype, std::string &error);

} // namespace tcc::runtime

#endif // TCC_RUNTIME_INPUTSPEC_H
