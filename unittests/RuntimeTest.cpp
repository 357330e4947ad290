//===- RuntimeTest.cpp - Tests for the host runtime I/O library -*- C++ -*-===//
//
// Covers HostTensor conversions, .npy reading/writing, IREE-style input specs,
// tensor printing and comparison. Expected .npy bytes are written out by hand
// exactly as numpy produces them, so the tests do not need Python.
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/HostTensor.h"
#include "tcc/Runtime/InputSpec.h"
#include "tcc/Runtime/Npy.h"
#include "tcc/Runtime/TensorUtils.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>

using namespace tcc::runtime;

namespace {

uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

float bitsToFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof(f));
  return f;
}

std::vector<uint8_t> plainBytes(const TensorBytes &data) {
  return std::vector<uint8_t>(data.begin(), data.end());
}

template <typename T> std::vector<uint8_t> bytesOf(std::vector<T> values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

/// Builds a .npy file byte by byte the way numpy.save does.
std::string makeNpy(const std::string &dict, int major = 1) {
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  const size_t lenWidth = major == 1 ? 2 : 4;
  std::string header = dict;
  size_t total = 6 + 2 + lenWidth + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  for (size_t i = 0; i < lenWidth; ++i)
    out += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
  return out + header;
}

std::string rawBytes(const std::vector<uint8_t> &data) {
  return std::string(reinterpret_cast<const char *>(data.data()), data.size());
}

HostTensor parseOk(const std::string &spec, unsigned index = 0,
                   uint64_t seed = 0) {
  HostTensor t;
  std::string error;
  EXPECT_TRUE(parseInputSpec(spec, index, seed, t, error))
      << spec << ": " << error;
  return t;
}

std::string parseError(const std::string &spec, unsigned index = 0) {
  HostTensor t;
  std::string error;
  EXPECT_FALSE(parseInputSpec(spec, index, 0, t, error)) << spec;
  return error;
}

std::vector<double> values(const HostTensor &t) {
  std::vector<double> v;
  for (int64_t i = 0; i < t.numElements(); ++i)
    v.push_back(t.getDouble(i));
  return v;
}

//===----------------------------------------------------------------------===//
// HostTensor basics
//===----------------------------------------------------------------------===//

TEST(HostTensor, DTypeNames) {
  for (int code = 0; code < kNumDTypes; ++code) {
    DType d = static_cast<DType>(code);
    auto back = dtypeFromName(dtypeName(d));
    ASSERT_TRUE(back.has_value()) << dtypeName(d);
    EXPECT_EQ(*back, d);
  }
  EXPECT_FALSE(dtypeFromName("f33").has_value());
  EXPECT_EQ(dtypeSize(DType::BF16), 2u);
  EXPECT_EQ(dtypeSize(DType::I1), 1u);
  EXPECT_TRUE(isFloatDType(DType::BF16));
  EXPECT_FALSE(isFloatDType(DType::I1));
  EXPECT_EQ(std::string(dtypeName(DType::U8)), "ui8");
  EXPECT_EQ(std::string(dtypeName(DType::I16)), "i16");
  EXPECT_EQ(dtypeSize(DType::U64), 8u);
  EXPECT_EQ(dtypeSize(DType::I16), 2u);
  EXPECT_TRUE(isUnsignedDType(DType::U32));
  EXPECT_FALSE(isUnsignedDType(DType::I32));
  EXPECT_TRUE(isIntegerDType(DType::I1));
}

TEST(HostTensor, UnsignedAndInt16Elements) {
  HostTensor u8(DType::U8, {3});
  u8.setDouble(0, 300.0); // Saturates to the unsigned range.
  u8.setDouble(1, -5.0);
  u8.setDouble(2, 254.9);
  EXPECT_EQ(plainBytes(u8.data), (std::vector<uint8_t>{255, 0, 254}));
  EXPECT_EQ(u8.getDouble(0), 255.0);

  HostTensor u64(DType::U64, {1});
  u64.setInt64(0, -1); // The bit pattern: 2^64 - 1.
  EXPECT_EQ(u64.getInt64(0), -1);
  EXPECT_EQ(u64.getDouble(0), 18446744073709551615.0);

  HostTensor i16(DType::I16, {2});
  i16.setInt64(0, 40000); // Wraps: 40000 - 65536.
  i16.setDouble(1, -40000.0); // Saturates.
  EXPECT_EQ(i16.getInt64(0), -25536);
  EXPECT_EQ(i16.getInt64(1), -32768);

  HostTensor u16(DType::U16, {1});
  u16.setInt64(0, 65535);
  EXPECT_EQ(u16.getInt64(0), 65535); // Zero-extended.
  EXPECT_FALSE(adoptAsBF16IfBits(u16, DType::F32));
  EXPECT_TRUE(adoptAsBF16IfBits(u16, DType::BF16));
  EXPECT_EQ(u16.dtype, DType::BF16);
}

TEST(HostTensor, ShapeAndAccess) {
  HostTensor t(DType::I32, {2, 3});
  EXPECT_EQ(t.numElements(), 6);
  EXPECT_EQ(t.numBytes(), 24u);
  EXPECT_EQ(t.typeString(), "2x3xi32");
  EXPECT_EQ(t.getDouble(5), 0.0);
  t.setDouble(1, -2.7); // Truncates toward zero.
  EXPECT_EQ(t.getDouble(1), -2.0);

  HostTensor scalar(DType::F32, {});
  EXPECT_EQ(scalar.numElements(), 1);
  EXPECT_EQ(scalar.typeString(), "f32");

  HostTensor b(DType::I1, {2});
  b.setDouble(0, 0.5);
  EXPECT_EQ(b.data[0], 1);
  EXPECT_EQ(b.data[1], 0);

  HostTensor i8(DType::I8, {3});
  i8.setDouble(0, 300.0); // Saturates instead of wrapping.
  i8.setDouble(1, -1e9);
  i8.setDouble(2, NAN);
  EXPECT_EQ(values(i8), (std::vector<double>{127, -128, 0}));
}

//===----------------------------------------------------------------------===//
// f16 / bf16 conversions
//===----------------------------------------------------------------------===//

// Tensors start on cache lines: the compiled code's full-width vector
// loads and non-temporal stores never straddle two.
TEST(HostTensor, CacheLineAligned) {
  for (int64_t n : {1, 3, 1000, 1 << 20}) {
    HostTensor t(DType::F32, {n});
    EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data.data()) % 64, 0u) << n;
    HostTensor copy = t;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(copy.data.data()) % 64, 0u) << n;
  }
}

TEST(Half, KnownBitPatterns) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(halfToFloat(0x3C00), 1.0f);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(halfToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(INFINITY), 0x7C00);
  EXPECT_EQ(floatToHalf(-INFINITY), 0xFC00);
  EXPECT_TRUE(std::isinf(halfToFloat(0x7C00)));
  // Smallest subnormal, largest subnormal, smallest normal.
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(halfToFloat(0x03FF), std::ldexp(1023.0f, -24));
  EXPECT_EQ(floatToHalf(std::ldexp(1023.0f, -24)), 0x03FF);
  EXPECT_EQ(halfToFloat(0x0400), std::ldexp(1.0f, -14));
  EXPECT_EQ(halfToFloat(0x8001), -std::ldexp(1.0f, -24));
  EXPECT_FLOAT_EQ(halfToFloat(0x3555), 0.333251953125f);
}

TEST(Half, RoundingTiesToEven) {
  // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): even = 1.
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  // 1 + 3*2^-11 is halfway between 0x3C01 and 0x3C02: even = 0x3C02.
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  // Just above the tie rounds up.
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)),
            0x3C01);
  // Subnormal ties: 2^-25 -> 0, 3*2^-25 -> 2*2^-24, 1.5*2^-24 -> 2^-24 ...
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25) * 1.0001f), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002);
  EXPECT_EQ(floatToHalf(std::ldexp(5.0f, -25)), 0x0002);
  // Rounding the largest subnormal up lands on the smallest normal.
  EXPECT_EQ(floatToHalf(std::ldexp(2047.0f, -25)), 0x0400);
  // Overflow: 65520 is the tie between 65504 and 2^16 -> infinity.
  EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00);
  EXPECT_EQ(floatToHalf(1e10f), 0x7C00);
  EXPECT_EQ(floatToHalf(-1e10f), 0xFC00);
  EXPECT_EQ(floatToHalf(1e-10f), 0x0000);
}

TEST(Half, NaN) {
  uint16_t h = floatToHalf(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(h & 0x7C00, 0x7C00);
  EXPECT_NE(h & 0x03FF, 0);
  EXPECT_TRUE(std::isnan(halfToFloat(0x7E00)));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7C01)));
  // A signalling NaN with only low payload bits must not turn into infinity.
  uint16_t s = floatToHalf(bitsToFloat(0x7F800001));
  EXPECT_EQ(s & 0x7C00, 0x7C00);
  EXPECT_NE(s & 0x03FF, 0);
  EXPECT_EQ(floatToHalf(bitsToFloat(0xFFC00000)) & 0x8000, 0x8000);
}

TEST(Half, ExhaustiveRoundTrip) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    float f = halfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f))
      continue;
    ASSERT_EQ(floatToHalf(f), h) << std::hex << h;
  }
}

#ifdef __FLT16_MAX__
// Cross-check against the compiler's own (correctly rounded) conversion.
TEST(Half, MatchesCompilerFloat16) {
  for (uint64_t b = 0; b <= 0xFFFFFFFFull; b += 7919) {
    float f = bitsToFloat(static_cast<uint32_t>(b));
    if (std::isnan(f))
      continue;
    _Float16 ref = static_cast<_Float16>(f);
    uint16_t refBits;
    std::memcpy(&refBits, &ref, 2);
    ASSERT_EQ(floatToHalf(f), refBits) << std::hex << b;
  }
}
#endif

TEST(BF16, KnownBitPatterns) {
  EXPECT_EQ(floatToBF16(1.0f), 0x3F80);
  EXPECT_EQ(bf16ToFloat(0x3F80), 1.0f);
  EXPECT_EQ(floatToBF16(-2.0f), 0xC000);
  EXPECT_EQ(bf16ToFloat(0x4049), 3.140625f);
  EXPECT_EQ(floatToBF16(INFINITY), 0x7F80);
  EXPECT_EQ(floatToBF16(-0.0f), 0x8000);
  // Ties to even: 0x3F808000 is halfway between 0x3F80 and 0x3F81.
  EXPECT_EQ(floatToBF16(bitsToFloat(0x3F808000)), 0x3F80);
  EXPECT_EQ(floatToBF16(bitsToFloat(0x3F818000)), 0x3F82);
  EXPECT_EQ(floatToBF16(bitsToFloat(0x3F808001)), 0x3F81);
  EXPECT_EQ(floatToBF16(bitsToFloat(0x3F807FFF)), 0x3F80);
  // Largest float rounds up to infinity; subnormals keep rounding to even.
  EXPECT_EQ(floatToBF16(bitsToFloat(0x7F7FFFFF)), 0x7F80);
  EXPECT_EQ(floatToBF16(bitsToFloat(0x00008000)), 0x0000);
  EXPECT_EQ(floatToBF16(bitsToFloat(0x00018000)), 0x0002);
  EXPECT_EQ(bf16ToFloat(0x0001), bitsToFloat(0x00010000));
}

TEST(BF16, NaN) {
  EXPECT_EQ(floatToBF16(bitsToFloat(0x7FC00000)), 0x7FC0);
  uint16_t s = floatToBF16(bitsToFloat(0x7F800001)); // Signalling, low bits.
  EXPECT_EQ(s & 0x7F80, 0x7F80);
  EXPECT_NE(s & 0x007F, 0);
  EXPECT_TRUE(std::isnan(bf16ToFloat(0x7FC0)));
  EXPECT_TRUE(std::isnan(bf16ToFloat(0xFF81)));
}

TEST(BF16, ExhaustiveRoundTrip) {
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    float f = bf16ToFloat(static_cast<uint16_t>(b));
    if (std::isnan(f))
      continue;
    ASSERT_EQ(floatToBF16(f), b) << std::hex << b;
    ASSERT_EQ(floatBits(f), b << 16);
  }
}

TEST(HostTensor, SetDoubleRoundsOnce) {
  // Through float this would round to the tie 1 + 2^-11 and then to even
  // (0x3C00); rounding the double directly gives 0x3C01.
  double v = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  HostTensor h(DType::F16, {1});
  h.setDouble(0, v);
  uint16_t bits;
  std::memcpy(&bits, h.data.data(), 2);
  EXPECT_EQ(bits, 0x3C01);
  HostTensor b(DType::BF16, {1});
  b.setDouble(0, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40));
  std::memcpy(&bits, b.data.data(), 2);
  EXPECT_EQ(bits, 0x3F81);
  EXPECT_EQ(b.getDouble(0), 1.0078125);
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

HostTensor makeSample(DType dtype, std::vector<int64_t> shape) {
  HostTensor t(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numElements(); ++i) {
    double v = dtype == DType::I1 ? (i % 3 == 0) : (i * 1.5 - 3.0);
    if (!isFloatDType(dtype))
      v = std::trunc(v);
    t.setDouble(i, v);
  }
  return t;
}

TEST(Npy, RoundTripAllDTypesAndRanks) {
  for (int code = 0; code < kNumDTypes; ++code) {
    DType d = static_cast<DType>(code);
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{}, std::vector<int64_t>{5},
          std::vector<int64_t>{2, 3, 4}, std::vector<int64_t>{0, 3}}) {
      HostTensor t = makeSample(d, shape);
      std::string bytes = serializeNpy(t);
      // Data starts 64-byte aligned, header ends in '\n'.
      size_t headerLen = static_cast<uint8_t>(bytes[8]) |
                         (static_cast<uint8_t>(bytes[9]) << 8);
      EXPECT_EQ((10 + headerLen) % 64, 0u);
      EXPECT_EQ(bytes[10 + headerLen - 1], '\n');
      EXPECT_EQ(bytes.size(), 10 + headerLen + t.numBytes());

      HostTensor back;
      std::string error;
      ASSERT_TRUE(parseNpy(bytes, back, error)) << t.typeString() << error;
      // numpy has no bf16: its bits read back as ui16 until a signature
      // asks for bf16.
      EXPECT_EQ(back.dtype, d == DType::BF16 ? DType::U16 : d);
      adoptAsBF16IfBits(back, d);
      EXPECT_EQ(back.dtype, d);
      EXPECT_EQ(back.shape, t.shape);
      EXPECT_EQ(back.data, t.data) << t.typeString();
    }
  }
}

TEST(Npy, HeaderTextMatchesNumpy) {
  std::string bytes = serializeNpy(HostTensor(DType::F32, {2, 3}));
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(bytes.substr(10, 59),
            "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  EXPECT_EQ(bytes, makeNpy("{'descr': '<f4', 'fortran_order': False, "
                           "'shape': (2, 3), }") +
                       std::string(24, '\0'));

  std::string vec = serializeNpy(HostTensor(DType::I1, {5}));
  EXPECT_NE(vec.find("'descr': '|b1'"), std::string::npos);
  EXPECT_NE(vec.find("'shape': (5,)"), std::string::npos);
  std::string scalar = serializeNpy(HostTensor(DType::BF16, {}));
  EXPECT_NE(scalar.find("'descr': '<u2'"), std::string::npos);
  EXPECT_NE(scalar.find("'shape': ()"), std::string::npos);
}

TEST(Npy, ReadHandBuilt) {
  std::vector<float> data = {1, 2, 3, 4, 5, 6};
  std::string bytes = makeNpy("{'descr': '<f4', 'fortran_order': False, "
                              "'shape': (2, 3), }") +
                      rawBytes(bytesOf(data));
  HostTensor t;
  std::string error;
  ASSERT_TRUE(parseNpy(bytes, t, error)) << error;
  EXPECT_EQ(t.dtype, DType::F32);
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST(Npy, ReadVersions2And3AndVariants) {
  std::vector<int64_t> data = {7, -8};
  for (int major : {2, 3}) {
    std::string bytes = makeNpy("{'descr': '<i8', 'fortran_order': False, "
                                "'shape': (2,), }",
                                major) +
                        rawBytes(bytesOf(data));
    HostTensor t;
    std::string error;
    ASSERT_TRUE(parseNpy(bytes, t, error)) << error;
    EXPECT_EQ(t.dtype, DType::I64);
    EXPECT_EQ(values(t), (std::vector<double>{7, -8}));
  }
  // Key order, double quotes, no trailing comma, Python 2 longs.
  std::string bytes = makeNpy("{\"shape\": (2L,), \"fortran_order\": False, "
                              "\"descr\": \"<i8\"}") +
                      rawBytes(bytesOf(data));
  HostTensor t;
  std::string error;
  ASSERT_TRUE(parseNpy(bytes, t, error)) << error;
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2}));

  // Rank 0, '<u2' reads as ui16 (bf16 bits where a signature says bf16),
  // '|i1', '|b1', '<f2'.
  std::vector<uint16_t> bf = {0x3F80};
  ASSERT_TRUE(parseNpy(makeNpy("{'descr': '<u2', 'fortran_order': False, "
                               "'shape': (), }") +
                           rawBytes(bytesOf(bf)),
                       t, error))
      << error;
  EXPECT_EQ(t.dtype, DType::U16);
  EXPECT_TRUE(t.shape.empty());
  EXPECT_EQ(t.getDouble(0), 16256.0);
  EXPECT_TRUE(adoptAsBF16IfBits(t, DType::BF16));
  EXPECT_EQ(t.getDouble(0), 1.0);

  std::vector<uint16_t> half = {0x3C00, 0xC000};
  ASSERT_TRUE(parseNpy(makeNpy("{'descr': '<f2', 'fortran_order': False, "
                               "'shape': (2,), }") +
                           rawBytes(bytesOf(half)),
                       t, error));
  EXPECT_EQ(t.dtype, DType::F16);
  EXPECT_EQ(values(t), (std::vector<double>{1, -2}));

  std::vector<int8_t> i8 = {-5, 6};
  ASSERT_TRUE(parseNpy(makeNpy("{'descr': '|i1', 'fortran_order': False, "
                               "'shape': (2,), }") +
                           rawBytes(bytesOf(i8)),
                       t, error));
  EXPECT_EQ(t.dtype, DType::I8);
  EXPECT_EQ(values(t), (std::vector<double>{-5, 6}));

  std::vector<uint8_t> b1 = {1, 0, 1};
  ASSERT_TRUE(parseNpy(makeNpy("{'descr': '|b1', 'fortran_order': False, "
                               "'shape': (3,), }") +
                           rawBytes(b1),
                       t, error));
  EXPECT_EQ(t.dtype, DType::I1);
  EXPECT_EQ(plainBytes(t.data), b1);
}

TEST(Npy, Rejections) {
  std::vector<float> data = {1, 2, 3, 4};
  auto expectError = [](const std::string &bytes, const std::string &needle) {
    HostTensor t;
    std::string error;
    EXPECT_FALSE(parseNpy(bytes, t, error));
    EXPECT_NE(error.find(needle), std::string::npos)
        << "error '" << error << "' lacks '" << needle << "'";
  };
  expectError(makeNpy("{'descr': '<f4', 'fortran_order': True, "
                      "'shape': (2, 2), }") +
                  rawBytes(bytesOf(data)),
              "fortran_order");
  std::string bad = makeNpy("{'descr': '<f4', 'fortran_order': False, "
                            "'shape': (2, 2), }") +
                    rawBytes(bytesOf(data));
  bad[1] = 'X';
  expectError(bad, "bad magic");
  expectError("", "bad magic");
  expectError(makeNpy("{'descr': '<f4', 'fortran_order': False, "
                      "'shape': (2, 3), }") +
                  rawBytes(bytesOf(data)),
              "truncated .npy data: expected 24 bytes for 2x3xf32, got 16");
  std::string shortHeader = makeNpy("{'descr': '<f4', 'fortran_order': "
                                    "False, 'shape': (2, 2), }");
  expectError(shortHeader.substr(0, 40), "truncated");
  expectError(makeNpy("{'descr': '>f4', 'fortran_order': False, "
                      "'shape': (2, 2), }") +
                  rawBytes(bytesOf(data)),
              "big-endian");
  expectError(makeNpy("{'descr': '<c8', 'fortran_order': False, "
                      "'shape': (2, 2), }"),
              "unsupported .npy dtype '<c8'");
  expectError(makeNpy("{'descr': [('a', '<f4')], 'fortran_order': False, "
                      "'shape': (2,), }"),
              "structured");
  expectError(makeNpy("{'descr': '<f4', 'shape': (2, 2), }"), "must contain");
  expectError(makeNpy("{'descr': '<f4', 'fortran_order': False, "
                      "'shape': (2, -2), }"),
              "non-negative");
  std::string v9 = bad;
  v9[1] = 'N';
  v9[6] = 9;
  expectError(v9, "version 9.0");
}

TEST(Npy, Files) {
  std::string path = ::testing::TempDir() + "tcc_runtime_test.npy";
  HostTensor t = makeSample(DType::F32, {3, 2});
  std::string error;
  ASSERT_TRUE(writeNpy(path, t, error)) << error;
  HostTensor back;
  ASSERT_TRUE(readNpy(path, back, error)) << error;
  EXPECT_EQ(back.data, t.data);
  EXPECT_EQ(back.shape, t.shape);

  // Also readable as an input spec.
  HostTensor viaSpec = parseOk("@" + path);
  EXPECT_EQ(viaSpec.data, t.data);
  HostTensor typed = parseOk("3x2xf32=@" + path);
  EXPECT_EQ(typed.data, t.data);
  EXPECT_NE(parseError("2x3xf32=@" + path, 2)
                .find("input 2: " + path + " holds 3x2xf32, expected 2x3xf32"),
            std::string::npos);
  std::remove(path.c_str());

  EXPECT_FALSE(readNpy(path, back, error));
  EXPECT_NE(error.find(path + ": cannot open"), std::string::npos) << error;
  EXPECT_NE(parseError("@" + path, 3).find("input 3: " + path),
            std::string::npos);
}

TEST(InputSpec, RawBinaryFile) {
  std::string path = ::testing::TempDir() + "tcc_runtime_test.bin";
  std::vector<int32_t> data = {1, -2, 3};
  FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(data.data(), 4, data.size(), f);
  std::fclose(f);
  EXPECT_EQ(values(parseOk("3xi32=@" + path)), (std::vector<double>{1, -2, 3}));
  EXPECT_NE(parseError("4xi32=@" + path).find("expected 16 bytes"),
            std::string::npos);
  std::remove(path.c_str());
}

//===----------------------------------------------------------------------===//
// Input specs
//===----------------------------------------------------------------------===//

TEST(InputSpec, Forms) {
  HostTensor t = parseOk("2x3xf32=1 2 3 4 5 6");
  EXPECT_EQ(t.typeString(), "2x3xf32");
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 3, 4, 5, 6}));

  t = parseOk("2x2xf32=[1 2][3 4]");
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 3, 4}));
  t = parseOk("2xf32=1,2");
  EXPECT_EQ(values(t), (std::vector<double>{1, 2}));
  t = parseOk("  2x2xi32 = [[1, -2], [+3, 4]]  ");
  EXPECT_EQ(values(t), (std::vector<double>{1, -2, 3, 4}));

  t = parseOk("2x3xf32=1.5");
  EXPECT_EQ(values(t), std::vector<double>(6, 1.5));
  t = parseOk("2x3xf32");
  EXPECT_EQ(t.typeString(), "2x3xf32");
  EXPECT_EQ(values(t), std::vector<double>(6, 0.0));
  t = parseOk("3xi8=");
  EXPECT_EQ(values(t), std::vector<double>(3, 0.0));

  t = parseOk("f32=3.5");
  EXPECT_TRUE(t.shape.empty());
  EXPECT_EQ(values(t), std::vector<double>{3.5});
  t = parseOk("1xf32=-0.25");
  EXPECT_EQ(t.shape, std::vector<int64_t>{1});
  t = parseOk("0x4xf32");
  EXPECT_EQ(t.numElements(), 0);

  t = parseOk("4xi1=true false 1 0");
  EXPECT_EQ(t.data, (TensorBytes{1, 0, 1, 0}));
  t = parseOk("2xi1=True");
  EXPECT_EQ(t.data, (TensorBytes{1, 1}));

  t = parseOk("2xi64=9007199254740993 -9223372036854775808");
  int64_t big[2];
  std::memcpy(big, t.data.data(), 16);
  EXPECT_EQ(big[0], 9007199254740993LL); // Not representable as a double.
  EXPECT_EQ(big[1], std::numeric_limits<int64_t>::min());

  t = parseOk("3xf64=0.1 1e-3 -2.5e10");
  EXPECT_EQ(values(t), (std::vector<double>{0.1, 1e-3, -2.5e10}));
  t = parseOk("2xf16=1 65504");
  EXPECT_EQ(plainBytes(t.data), bytesOf(std::vector<uint16_t>{0x3C00, 0x7BFF}));
  t = parseOk("bf16=1");
  EXPECT_EQ(plainBytes(t.data), bytesOf(std::vector<uint16_t>{0x3F80}));
  t = parseOk("f32=0.1");
  EXPECT_EQ(floatBits(bitsToFloat(floatBits(0.1f))), floatBits(0.1f));
  float f;
  std::memcpy(&f, t.data.data(), 4);
  EXPECT_EQ(f, 0.1f);

  t = parseOk("3xf32=nan inf -inf");
  EXPECT_TRUE(std::isnan(t.getDouble(0)));
  EXPECT_EQ(t.getDouble(1), INFINITY);
  EXPECT_EQ(t.getDouble(2), -INFINITY);
  t = parseOk("2xf32=1e39 1e-50"); // Like numpy: overflow to inf, underflow 0.
  EXPECT_EQ(values(t), (std::vector<double>{INFINITY, 0.0}));
  t = parseOk("3xui8=0 255 7");
  EXPECT_EQ(plainBytes(t.data), (std::vector<uint8_t>{0, 255, 7}));
  t = parseOk("2xui64=18446744073709551615 3");
  EXPECT_EQ(t.getInt64(0), -1); // All bits set.
  EXPECT_EQ(formatTensor(t), "2xui64=18446744073709551615 3");
  t = parseOk("2xi16=-32768 32767");
  EXPECT_EQ(t.getInt64(0), -32768);
  EXPECT_EQ(t.getInt64(1), 32767);
  t = parseOk("4xui16=random");
  for (int64_t i = 0; i < 4; ++i) // Drawn from 0..8, not saturated -4..-1.
    EXPECT_LE(t.getInt64(i), 8);
}

TEST(InputSpec, Errors) {
  EXPECT_EQ(parseError("2x3xf32=1 2 3 4 5", 1),
            "input 1: expected 6 values for 2x3xf32, got 5");
  EXPECT_EQ(parseError("2x3xf32=1 2 3 4 5 6 7", 0),
            "input 0: expected 6 values for 2x3xf32, got 7");
  EXPECT_EQ(parseError("0xf32=1"),
            "input 0: expected 0 values for 0xf32, got 1");
  EXPECT_EQ(parseError("f32=1 2"), "input 0: expected 1 value for f32, got 2");
  EXPECT_EQ(parseError("2x3xf33=1", 0)
                .rfind("input 0: unknown element type 'f33'", 0),
            0u);
  EXPECT_EQ(parseError("2x3=1").rfind("input 0: unknown element type '3'", 0),
            0u);
  EXPECT_EQ(parseError("2xax3xf32"),
            "input 0: invalid dimension 'a' in '2xax3xf32'");
  EXPECT_EQ(parseError("2x-1xf32"),
            "input 0: invalid dimension '-1' in '2x-1xf32'");
  EXPECT_EQ(parseError("xf32"), "input 0: invalid dimension '' in 'xf32'");
  EXPECT_NE(parseError("?x3xf32").find("dynamic"), std::string::npos);
  EXPECT_EQ(parseError("2xf32=1 abc", 4), "input 4: invalid f32 value 'abc'");
  EXPECT_EQ(parseError("2xf32=1 1.5.2"), "input 0: invalid f32 value '1.5.2'");
  EXPECT_EQ(parseError("2xf16=1 0x10"), "input 0: invalid f16 value '0x10'");
  EXPECT_EQ(parseError("2xi32=1 1.5"), "input 0: invalid i32 value '1.5'");
  EXPECT_EQ(parseError("2xui8=1 256"),
            "input 0: value '256' is out of range for ui8");
  EXPECT_EQ(parseError("2xui8=1 -1"),
            "input 0: value '-1' is out of range for ui8");
  EXPECT_EQ(parseError("1xi16=32768"),
            "input 0: value '32768' is out of range for i16");
  EXPECT_EQ(parseError("i8=300"),
            "input 0: value '300' is out of range for i8");
  EXPECT_EQ(parseError("i32=4294967296"),
            "input 0: value '4294967296' is out of range for i32");
  EXPECT_EQ(parseError("i64=99999999999999999999"),
            "input 0: value '99999999999999999999' is out of range for i64");
  EXPECT_EQ(parseError("2xi1=true 2"),
            "input 0: invalid i1 value '2' (expected true, false, 1 or 0)");
  EXPECT_EQ(parseError("   "), "input 0: empty input spec");
  EXPECT_EQ(parseError("=1"), "input 0: missing tensor type");
  EXPECT_EQ(parseError("@"), "input 0: missing file path after '@'");
}

TEST(InputSpec, RandomIsDeterministic) {
  HostTensor a = parseOk("4x8xf32=random", 0, 42);
  HostTensor b = parseOk("4x8xf32=random", 0, 42);
  HostTensor c = parseOk("4x8xf32=random", 1, 42);
  HostTensor d = parseOk("4x8xf32=random", 0, 43);
  EXPECT_EQ(a.data, b.data);
  EXPECT_NE(a.data, c.data);
  EXPECT_NE(a.data, d.data);

  // Platform independence: pin the first values of one stream. These are
  // multiples of 2^-23 computed from splitmix64 with integer math only.
  HostTensor pinned = parseOk("4xf32=random", 0, 0);
  HostTensor pinnedAgain(DType::F32, {4});
  fillRandom(pinnedAgain, 0, 0);
  EXPECT_EQ(pinned.data, pinnedAgain.data);
  EXPECT_EQ(values(pinned), (std::vector<double>{-0.0355420113f, -0.52500844f,
                                                 -0.766469598f, 0.573331356f}));
  for (double v : values(pinned))
    EXPECT_EQ(std::ldexp(v + 1.0, 23), std::trunc(std::ldexp(v + 1.0, 23)));
  EXPECT_EQ(formatTensor(parseOk("6xi32=random", 1, 0)), "6xi32=4 -2 4 0 0 4");
}

TEST(InputSpec, RandomRanges) {
  for (const char *type : {"f32", "f64", "f16", "bf16"}) {
    HostTensor t = parseOk(std::string("4096x") + type + "=random", 3, 7);
    std::set<double> distinct;
    double lo = 1, hi = -1;
    for (double v : values(t)) {
      ASSERT_GE(v, -1.0) << type;
      ASSERT_LT(v, 1.0) << type;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      distinct.insert(v);
    }
    EXPECT_LT(lo, -0.9) << type;
    EXPECT_GT(hi, 0.9) << type;
    EXPECT_GT(distinct.size(), 100u) << type;
  }
  for (const char *type : {"i8", "i32", "i64"}) {
    HostTensor t = parseOk(std::string("1000x") + type + "=random", 1, 7);
    std::set<double> distinct;
    for (double v : values(t)) {
      ASSERT_GE(v, -4.0);
      ASSERT_LE(v, 4.0);
      distinct.insert(v);
    }
    EXPECT_EQ(distinct.size(), 9u) << type;
  }
  HostTensor b = parseOk("1000xi1=random", 2, 7);
  std::set<uint8_t> bits(b.data.begin(), b.data.end());
  EXPECT_EQ(bits, (std::set<uint8_t>{0, 1}));
}

TEST(InputSpec, RandomScaled) {
  // The same stream, scaled (by a power of two here: exactly).
  std::vector<double> plain = values(parseOk("64xf32=random", 2, 5));
  std::vector<double> scaled = values(parseOk("64xf32=random*0.125", 2, 5));
  ASSERT_EQ(plain.size(), scaled.size());
  for (size_t i = 0; i < plain.size(); ++i)
    EXPECT_EQ(scaled[i], plain[i] * 0.125);
  EXPECT_EQ(values(parseOk("4xf32=random * 1", 0, 0)),
            values(parseOk("4xf32=random", 0, 0)));
  EXPECT_EQ(parseError("2xf32=random*"),
            "input 0: expected 'random' or 'random*SCALE', got 'random*'");
  EXPECT_EQ(parseError("2xf32=random/2"),
            "input 0: expected 'random' or 'random*SCALE', got 'random/2'");
  EXPECT_EQ(parseError("2xf32=random*2x"),
            "input 0: expected 'random' or 'random*SCALE', got 'random*2x'");
}

//===----------------------------------------------------------------------===//
// Formatting, comparison, checksums
//===----------------------------------------------------------------------===//

TEST(TensorUtils, Format) {
  EXPECT_EQ(formatTensor(parseOk("2x3xf32=1 2 3 4 5 6")),
            "2x3xf32=[1 2 3][4 5 6]");
  EXPECT_EQ(formatTensor(parseOk("3xf32=1.5 -2 0.1")), "3xf32=1.5 -2 0.1");
  EXPECT_EQ(formatTensor(parseOk("f32=3.5")), "f32=3.5");
  EXPECT_EQ(formatTensor(parseOk("2x2x2xi32=1 2 3 4 5 6 7 8")),
            "2x2x2xi32=[[1 2][3 4]][[5 6][7 8]]");
  EXPECT_EQ(formatTensor(parseOk("3xi1=true false true")), "3xi1=1 0 1");
  EXPECT_EQ(formatTensor(parseOk("2xi64=-9223372036854775807 5")),
            "2xi64=-9223372036854775807 5");
  EXPECT_EQ(formatTensor(parseOk("2xf64=3.14159265 1e20")),
            "2xf64=3.14159 1e+20");
  EXPECT_EQ(formatTensor(parseOk("3xf16=nan inf -inf")), "3xf16=nan inf -inf");
  EXPECT_EQ(formatTensor(parseOk("bf16=1")), "bf16=1");
  EXPECT_EQ(formatTensor(parseOk("0x3xf32")), "0x3xf32=");

  HostTensor big = parseOk("3x3xi8=1 2 3 4 5 6 7 8 9");
  EXPECT_EQ(formatTensor(big, 4), "3x3xi8=[1 2 3][4...]");
  EXPECT_EQ(formatTensor(big, 3), "3x3xi8=[1 2 3]...");
  EXPECT_EQ(formatTensor(big, 9), "3x3xi8=[1 2 3][4 5 6][7 8 9]");
  EXPECT_EQ(formatTensor(big, -1), "3x3xi8=[1 2 3][4 5 6][7 8 9]");
  EXPECT_EQ(formatTensor(parseOk("5xi32=1 2 3 4 5"), 2), "5xi32=1 2...");
  HostTensor large(DType::F32, {2000});
  std::string s = formatTensor(large);
  EXPECT_EQ(s.substr(s.size() - 7), " 0 0...");
  EXPECT_EQ(std::count(s.begin(), s.end(), '0'),
            1024 + 3); // + "2000x". // Default limit 1024.
}

TEST(TensorUtils, AllClose) {
  std::string report;
  HostTensor a = parseOk("2x2xf32=1 2 3 4");
  EXPECT_TRUE(allClose(a, a, 0, 0, report)) << report;
  EXPECT_NE(report.find("all 4 elements"), std::string::npos);

  HostTensor b = parseOk("2x2xf32=1 2.0001 3 4");
  EXPECT_TRUE(allClose(b, a, 1e-4, 0, report)) << report;
  EXPECT_FALSE(allClose(b, a, 1e-6, 1e-6, report));
  EXPECT_NE(report.find("1 of 4 elements of 2x2xf32 differ"), std::string::npos)
      << report;
  EXPECT_NE(report.find("[0, 1]: actual 2.0000999, expected 2"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("max abs error 9.98974e-05 at [0, 1]"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("max rel error"), std::string::npos);

  // atol alone covers absolute differences near zero.
  EXPECT_TRUE(allClose(parseOk("2xf32=0 1e-9"), parseOk("2xf32=1e-9 0"), 0,
                       1e-8, report));
  // Asymmetric like numpy: tolerance scales with |expected|.
  EXPECT_TRUE(allClose(parseOk("f64=1.5"), parseOk("f64=1"), 0.5, 0, report));
  EXPECT_FALSE(allClose(parseOk("f64=1"), parseOk("f64=1.5"), 0.3, 0, report));

  // NaN equals NaN, infinities compare by sign.
  EXPECT_TRUE(allClose(parseOk("3xf32=nan inf -inf"),
                       parseOk("3xf32=nan inf -inf"), 0, 0, report))
      << report;
  EXPECT_FALSE(
      allClose(parseOk("2xf32=nan 1"), parseOk("2xf32=1 1"), 1, 1, report));
  EXPECT_FALSE(allClose(parseOk("f32=inf"), parseOk("f32=-inf"), 1, 1, report));
  EXPECT_FALSE(allClose(parseOk("f32=inf"), parseOk("f32=1e38"), 1, 1, report));

  // Type and shape must match.
  EXPECT_FALSE(allClose(parseOk("2xf32"), parseOk("2xf16"), 1, 1, report));
  EXPECT_EQ(report, "element type mismatch: actual 2xf32, expected 2xf16");
  EXPECT_FALSE(allClose(parseOk("2x3xf32"), parseOk("3x2xf32"), 1, 1, report));
  EXPECT_EQ(report, "shape mismatch: actual 2x3xf32, expected 3x2xf32");

  // Integers, including i64 values doubles cannot tell apart.
  EXPECT_TRUE(
      allClose(parseOk("3xi32=1 2 3"), parseOk("3xi32=1 2 3"), 0, 0, report));
  EXPECT_FALSE(allClose(parseOk("2xi64=9007199254740993 0"),
                        parseOk("2xi64=9007199254740992 0"), 0, 0, report));
  EXPECT_NE(report.find("[0]: actual 9007199254740993, expected "
                        "9007199254740992"),
            std::string::npos)
      << report;
  EXPECT_FALSE(
      allClose(parseOk("3xi1=1 0 1"), parseOk("3xi1=1 1 1"), 0, 0, report));

  // Many mismatches: only the first ten are listed, with multi-dim indices.
  HostTensor z(DType::F32, {4, 5, 6});
  HostTensor o = parseOk("4x5x6xf32=1");
  EXPECT_FALSE(allClose(z, o, 0, 0, report));
  EXPECT_NE(report.find("120 of 120 elements"), std::string::npos);
  EXPECT_NE(report.find("first 10 mismatches"), std::string::npos);
  EXPECT_NE(report.find("[0, 1, 3]: actual 0, expected 1"), std::string::npos)
      << report;
  EXPECT_EQ(report.find("[0, 1, 4]"), std::string::npos) << report;
}

TEST(TensorUtils, ChecksumAndDelinearize) {
  Checksum c = checksum(parseOk("2x2xf32=1 -2 3 -4"));
  EXPECT_EQ(c.sum, -2.0);
  EXPECT_EQ(c.absSum, 10.0);
  Checksum e = checksum(HostTensor(DType::I8, {0}));
  EXPECT_EQ(e.sum, 0.0);
  EXPECT_EQ(delinearize(23, {2, 3, 4}), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(delinearize(0, {}), std::vector<int64_t>{});
}

} // namespace
