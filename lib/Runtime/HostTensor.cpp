//===- HostTensor.cpp - Dense tensors in host memory ------------*- C++ -*-===//
//
// Element-type helpers and the bit-exact f16/bf16 conversions. The narrow
// float conversions are written with integer arithmetic instead of relying on
// compiler intrinsics (_Float16, __bf16) so results are identical on every
// host and compiler, and so conversions from double round once (going through
// float first would round twice and be off by one ulp near ties).
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/HostTensor.h"

#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

namespace tcc::runtime {

size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return 4;
  case DType::F64:
    return 8;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I1:
  case DType::I8:
  case DType::U8:
    return 1;
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::I64:
  case DType::U64:
    return 8;
  }
  return 0;
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I1:
    return "i1";
  case DType::I8:
    return "i8";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::I16:
    return "i16";
  case DType::U8:
    return "ui8";
  case DType::U16:
    return "ui16";
  case DType::U32:
    return "ui32";
  case DType::U64:
    return "ui64";
  }
  return "<unknown>";
}

std::optional<DType> dtypeFromName(const std::string &name) {
  for (int code = 0; code < kNumDTypes; ++code)
    if (name == dtypeName(static_cast<DType>(code)))
      return static_cast<DType>(code);
  return std::nullopt;
}

bool isUnsignedDType(DType dtype) {
  return dtype == DType::U8 || dtype == DType::U16 || dtype == DType::U32 ||
         dtype == DType::U64;
}

bool isIntegerDType(DType dtype) { return !isFloatDType(dtype); }

bool isFloatDType(DType dtype) {
  return dtype == DType::F32 || dtype == DType::F64 || dtype == DType::F16 ||
         dtype == DType::BF16;
}

//===----------------------------------------------------------------------===//
// Narrow float conversions
//===----------------------------------------------------------------------===//

namespace {

/// Rounds \p value to the IEEE-style binary format with \p expBits exponent
/// bits and \p mantBits stored mantissa bits (f16: 5/10, bf16: 8/7), round to
/// nearest even, with gradual underflow and overflow to infinity. NaNs stay
/// NaN (quieted, keeping the top payload bits and the sign).
uint16_t roundDoubleToNarrow(double value, int expBits, int mantBits) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const uint64_t sign = (bits >> 63) << (expBits + mantBits);
  const int exp = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t mant = bits & ((uint64_t(1) << 52) - 1);
  const uint64_t expMask = ((uint64_t(1) << expBits) - 1) << mantBits;
  const uint64_t quietBit = uint64_t(1) << (mantBits - 1);

  if (exp == 0x7FF) {
    if (mant == 0) // Infinity.
      return static_cast<uint16_t>(sign | expMask);
    // NaN: keep the high payload bits, force quiet so it never becomes Inf.
    return static_cast<uint16_t>(sign | expMask | quietBit |
                                 (mant >> (52 - mantBits)));
  }
  // Double subnormals (and zero) are far below the smallest f16/bf16
  // subnormal, so they round to a signed zero.
  if (exp == 0)
    return static_cast<uint16_t>(sign);

  const int bias = (1 << (expBits - 1)) - 1;
  const int maxBiased = (1 << expBits) - 2; // Largest finite biased exponent.
  const int unbiased = exp - 1023;
  const int targetExp = unbiased + bias;
  if (targetExp > maxBiased) // Certainly too large, even before rounding.
    return static_cast<uint16_t>(sign | expMask);

  const uint64_t sig = mant | (uint64_t(1) << 52); // 53-bit significand.
  int shift = 52 - mantBits;
  if (targetExp <= 0)
    shift += 1 - targetExp; // Subnormal: fewer significant bits survive.
  if (shift > 62)
    shift = 62; // sig < 2^53 < half of 2^62: rounds to zero either way.

  uint64_t rounded = sig >> shift;
  const uint64_t rem = sig & ((uint64_t(1) << shift) - 1);
  const uint64_t halfway = uint64_t(1) << (shift - 1);
  if (rem > halfway || (rem == halfway && (rounded & 1)))
    ++rounded;

  // For normals `rounded` carries the implicit bit; adding it on top of
  // (targetExp - 1) yields the right exponent, and a mantissa carry-out bumps
  // the exponent (up to infinity) automatically. For subnormals the encoding
  // is just the rounded significand (a carry-out becomes the smallest normal).
  uint64_t result = targetExp <= 0
                        ? rounded
                        : (uint64_t(targetExp - 1) << mantBits) + rounded;
  if (result >= expMask)
    result = expMask;
  return static_cast<uint16_t>(sign | result);
}

uint16_t doubleToHalf(double v) { return roundDoubleToNarrow(v, 5, 10); }
uint16_t doubleToBF16(double v) { return roundDoubleToNarrow(v, 8, 7); }

/// Clamps and truncates toward zero (NaN -> 0) so out-of-range values never
/// hit the undefined behaviour of a plain float-to-int cast.
template <typename IntT> IntT saturatingTruncate(double v) {
  if (std::isnan(v))
    return 0;
  v = std::trunc(v);
  // Both bounds are exact in double; the max bound is the first value above
  // the range (2^digits: 2^7 for int8_t, 2^8 for uint8_t).
  const double lo = static_cast<double>(std::numeric_limits<IntT>::min());
  const double hiExclusive =
      std::ldexp(1.0, std::numeric_limits<IntT>::digits);
  if (v < lo)
    return std::numeric_limits<IntT>::min();
  if (v >= hiExclusive)
    return std::numeric_limits<IntT>::max();
  return static_cast<IntT>(v);
}

template <typename T> T load(const TensorBytes &data, int64_t i) {
  T v;
  std::memcpy(&v, data.data() + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T> void store(TensorBytes &data, int64_t i, T v) {
  std::memcpy(data.data() + i * sizeof(T), &v, sizeof(T));
}

} // namespace

float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1F;
  uint32_t mant = h & 0x3FF;
  uint32_t bits;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (mant << 13); // Inf or NaN (payload kept).
  } else if (exp != 0) {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign; // Signed zero.
  } else {
    // Subnormal half: normalize; every such value is a normal float.
    int e = -1;
    do {
      mant <<= 1;
      ++e;
    } while (!(mant & 0x400));
    bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) |
           ((mant & 0x3FF) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

uint16_t floatToHalf(float f) { return doubleToHalf(static_cast<double>(f)); }

float bf16ToFloat(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

uint16_t floatToBF16(float f) { return doubleToBF16(static_cast<double>(f)); }

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

HostTensor::HostTensor(DType dtype, std::vector<int64_t> shape)
    : dtype(dtype), shape(std::move(shape)) {
  data.assign(static_cast<size_t>(numElements()) * dtypeSize(dtype), 0);
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

double HostTensor::getDouble(int64_t i) const {
  assert(i >= 0 && i < numElements() && "element index out of range");
  switch (dtype) {
  case DType::F32:
    return load<float>(data, i);
  case DType::F64:
    return load<double>(data, i);
  case DType::F16:
    return halfToFloat(load<uint16_t>(data, i));
  case DType::BF16:
    return bf16ToFloat(load<uint16_t>(data, i));
  case DType::I1:
    return load<uint8_t>(data, i) != 0 ? 1.0 : 0.0;
  case DType::I8:
    return load<int8_t>(data, i);
  case DType::I32:
    return load<int32_t>(data, i);
  case DType::I64:
    return static_cast<double>(load<int64_t>(data, i));
  case DType::I16:
    return load<int16_t>(data, i);
  case DType::U8:
    return load<uint8_t>(data, i);
  case DType::U16:
    return load<uint16_t>(data, i);
  case DType::U32:
    return load<uint32_t>(data, i);
  case DType::U64:
    return static_cast<double>(load<uint64_t>(data, i));
  }
  return 0.0;
}

void HostTensor::setDouble(int64_t i, double v) {
  assert(i >= 0 && i < numElements() && "element index out of range");
  switch (dtype) {
  case DType::F32:
    store<float>(data, i, static_cast<float>(v));
    return;
  case DType::F64:
    store<double>(data, i, v);
    return;
  case DType::F16:
    store<uint16_t>(data, i, doubleToHalf(v));
    return;
  case DType::BF16:
    store<uint16_t>(data, i, doubleToBF16(v));
    return;
  case DType::I1:
    store<uint8_t>(data, i, v != 0.0 ? 1 : 0);
    return;
  case DType::I8:
    store<int8_t>(data, i, saturatingTruncate<int8_t>(v));
    return;
  case DType::I32:
    store<int32_t>(data, i, saturatingTruncate<int32_t>(v));
    return;
  case DType::I64:
    store<int64_t>(data, i, saturatingTruncate<int64_t>(v));
    return;
  case DType::I16:
    store<int16_t>(data, i, saturatingTruncate<int16_t>(v));
    return;
  case DType::U8:
    store<uint8_t>(data, i, saturatingTruncate<uint8_t>(v));
    return;
  case DType::U16:
    store<uint16_t>(data, i, saturatingTruncate<uint16_t>(v));
    return;
  case DType::U32:
    store<uint32_t>(data, i, saturatingTruncate<uint32_t>(v));
    return;
  case DType::U64:
    store<uint64_t>(data, i, saturatingTruncate<uint64_t>(v));
    return;
  }
}

bool adoptAsBF16IfBits(HostTensor &t, DType wanted) {
  if (t.dtype != DType::U16 || wanted != DType::BF16)
    return false;
  t.dtype = DType::BF16;
  return true;
}

int64_t HostTensor::getInt64(int64_t i) const {
  assert(i >= 0 && i < numElements() && "element index out of range");
  switch (dtype) {
  case DType::I1:
    return load<uint8_t>(data, i) != 0;
  case DType::I8:
    return load<int8_t>(data, i);
  case DType::I16:
    return load<int16_t>(data, i);
  case DType::I32:
    return load<int32_t>(data, i);
  case DType::I64:
    return load<int64_t>(data, i);
  case DType::U8:
    return load<uint8_t>(data, i);
  case DType::U16:
    return load<uint16_t>(data, i);
  case DType::U32:
    return load<uint32_t>(data, i);
  case DType::U64:
    return static_cast<int64_t>(load<uint64_t>(data, i));
  default:
    return static_cast<int64_t>(getDouble(i));
  }
}

void HostTensor::setInt64(int64_t i, int64_t v) {
  assert(i >= 0 && i < numElements() && "element index out of range");
  if (isFloatDType(dtype)) {
    setDouble(i, static_cast<double>(v));
    return;
  }
  if (dtype == DType::I1) {
    store<uint8_t>(data, i, v != 0);
    return;
  }
  // The low bytes: two's complement wrap-around for every width.
  const uint64_t bits = static_cast<uint64_t>(v);
  std::memcpy(data.data() + i * dtypeSize(dtype), &bits, dtypeSize(dtype));
}

std::string HostTensor::typeString() const {
  std::string s;
  for (int64_t d : shape) {
    s += std::to_string(d);
    s += 'x';
  }
  s += dtypeName(dtype);
  return s;
}

} // namespace tcc::runtime
