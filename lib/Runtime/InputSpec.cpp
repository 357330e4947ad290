//===- InputSpec.cpp - IREE-style --input value parsing ---------*- C++ -*-===//
//
// Numbers are parsed with std::from_chars (locale independent, exact) and
// written with direct bit stores so i64 values beyond 2^53 and f32 values
// survive unchanged; only f16/bf16 go through double, which rounds once.
// The "random" generator is a hand-written splitmix64 so a given seed gives
// the same tensor on every platform and standard library.
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/InputSpec.h"
#include "tcc/Runtime/Npy.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <type_traits>

namespace tcc::runtime {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Significand bits (including the implicit one) of each float type; random
/// floats are drawn on that grid so they are exact and stay below 1.0.
int significandBits(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return 24;
  case DType::F64:
    return 53;
  case DType::F16:
    return 11;
  case DType::BF16:
    return 8;
  default:
    return 0;
  }
}

template <typename T> void storeRaw(HostTensor &t, int64_t i, T v) {
  std::memcpy(t.data.data() + i * sizeof(T), &v, sizeof(T));
}

/// from_chars does not accept a leading '+'; numpy/IREE users write it.
std::string_view stripPlus(std::string_view s) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+')
    s.remove_prefix(1);
  return s;
}

/// Parses a whole token as a float. Out-of-range values are syntactically
/// fine; they become +-inf or +-0 as numpy would give (strtof/strtod round
/// them correctly; from_chars leaves them unset).
template <typename T> bool parseFloat(std::string_view token, T &value) {
  std::string_view s = stripPlus(token);
  const char *end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (ptr != end)
    return false;
  if (ec == std::errc::result_out_of_range) {
    std::string copy(s);
    if constexpr (std::is_same_v<T, float>)
      value = std::strtof(copy.c_str(), nullptr);
    else
      value = std::strtod(copy.c_str(), nullptr);
    return true;
  }
  return ec == std::errc();
}

/// Parses \p token as element \p i of \p t.
bool parseElement(std::string_view token, HostTensor &t, int64_t i,
                  std::string &error) {
  const std::string name = dtypeName(t.dtype);
  auto invalid = [&]() {
    error = "invalid " + name + " value '" + std::string(token) + "'";
    return false;
  };
  auto outOfRange = [&]() {
    error = "value '" + std::string(token) + "' is out of range for " + name;
    return false;
  };

  switch (t.dtype) {
  case DType::F32: {
    float v;
    if (!parseFloat(token, v))
      return invalid();
    storeRaw(t, i, v);
    return true;
  }
  case DType::F64:
  case DType::F16:
  case DType::BF16: {
    double v;
    if (!parseFloat(token, v))
      return invalid();
    // Values beyond the f16/bf16 range become +-inf, like numpy's astype.
    t.setDouble(i, v);
    return true;
  }
  case DType::I1: {
    if (token == "true" || token == "True" || token == "1") {
      storeRaw<uint8_t>(t, i, 1);
      return true;
    }
    if (token == "false" || token == "False" || token == "0") {
      storeRaw<uint8_t>(t, i, 0);
      return true;
    }
    error = "invalid i1 value '" + std::string(token) +
            "' (expected true, false, 1 or 0)";
    return false;
  }
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64: {
    std::string_view s = stripPlus(token);
    int64_t v;
    const char *end = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(s.data(), end, v);
    if (ptr != end ||
        (ec != std::errc() && ec != std::errc::result_out_of_range))
      return invalid();
    if (ec == std::errc::result_out_of_range)
      return outOfRange();
    const int bits = 8 * static_cast<int>(dtypeSize(t.dtype));
    if (bits < 64 && (v < -(int64_t(1) << (bits - 1)) ||
                      v >= (int64_t(1) << (bits - 1))))
      return outOfRange();
    std::memcpy(t.data.data() + i * (bits / 8), &v, bits / 8); // low bytes (x86)
    return true;
  }
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64: {
    std::string_view s = stripPlus(token);
    if (!s.empty() && s[0] == '-')
      return outOfRange();
    uint64_t v;
    const char *end = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(s.data(), end, v);
    if (ptr != end ||
        (ec != std::errc() && ec != std::errc::result_out_of_range))
      return invalid();
    if (ec == std::errc::result_out_of_range)
      return outOfRange();
    const int bits = 8 * static_cast<int>(dtypeSize(t.dtype));
    if (bits < 64 && v >= (uint64_t(1) << bits))
      return outOfRange();
    std::memcpy(t.data.data() + i * (bits / 8), &v, bits / 8); // low bytes (x86)
    return true;
  }
  }
  return invalid();
}

bool readFileBytes(const std::string &path, std::string &bytes,
                   std::string &error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = path + ": cannot open file for reading";
    return false;
  }
  std::ostringstream contents;
  contents << file.rdbuf();
  bytes = contents.str();
  return true;
}

/// "TYPE=@path": a .npy file that must match TYPE, or raw bytes.
bool loadTypedFile(const std::string &path, HostTensor &out,
                   std::string &error) {
  if (endsWith(path, ".npy")) {
    HostTensor loaded;
    if (!readNpy(path, loaded, error))
      return false;
    adoptAsBF16IfBits(loaded, out.dtype);
    if (loaded.dtype != out.dtype || loaded.shape != out.shape) {
      error = path + " holds " + loaded.typeString() + ", expected " +
              out.typeString();
      return false;
    }
    out = std::move(loaded);
    return true;
  }
  std::string bytes;
  if (!readFileBytes(path, bytes, error))
    return false;
  if (bytes.size() != out.data.size()) {
    error = path + ": expected " + std::to_string(out.data.size()) +
            " bytes for " + out.typeString() + ", file has " +
            std::to_string(bytes.size());
    return false;
  }
  std::memcpy(out.data.data(), bytes.data(), bytes.size());
  if (out.dtype == DType::I1)
    for (uint8_t &b : out.data)
      b = b != 0;
  return true;
}

} // namespace

bool parseTensorType(const std::string &type, std::vector<int64_t> &shape,
                     DType &dtype, std::string &error) {
  shape.clear();
  std::string_view rest = trim(type);
  if (rest.empty()) {
    error = "missing tensor type";
    return false;
  }
  // Element type names contain no 'x', so the last component is the type.
  size_t lastX = rest.rfind('x');
  std::string_view elemName =
      lastX == std::string_view::npos ? rest : rest.substr(lastX + 1);
  std::string_view dims = lastX == std::string_view::npos
                              ? std::string_view()
                              : rest.substr(0, lastX + 1);

  std::optional<DType> parsed = dtypeFromName(std::string(elemName));
  if (!parsed) {
    error = "unknown element type '" + std::string(elemName) +
            "' (expected f32, f64, f16, bf16, i1, i8, i32 or i64)";
    return false;
  }
  dtype = *parsed;

  uint64_t total = 1;
  while (!dims.empty()) {
    size_t x = dims.find('x');
    std::string_view dim = dims.substr(0, x);
    dims.remove_prefix(x + 1);
    if (dim == "?") {
      error = "dynamic dimension '?' in '" + std::string(rest) +
              "'; inputs need concrete sizes";
      return false;
    }
    int64_t value = -1;
    auto [ptr, ec] =
        std::from_chars(dim.data(), dim.data() + dim.size(), value);
    if (dim.empty() || ec != std::errc() || ptr != dim.data() + dim.size() ||
        value < 0) {
      error = "invalid dimension '" + std::string(dim) + "' in '" +
              std::string(rest) + "'";
      return false;
    }
    if (value != 0 &&
        total > (uint64_t(1) << 48) / static_cast<uint64_t>(value)) {
      error = "tensor type '" + std::string(rest) + "' is too large";
      return false;
    }
    total *= static_cast<uint64_t>(value);
    shape.push_back(value);
  }
  return true;
}

void fillRandom(HostTensor &t, uint64_t seed, unsigned inputIndex) {
  uint64_t seedState = seed;
  uint64_t state = splitmix64(seedState) ^
                   (0xD1B54A32D192ED03ull * (uint64_t(inputIndex) + 1));
  (void)splitmix64(state);
  const int64_t n = t.numElements();
  if (isFloatDType(t.dtype)) {
    // k * 2^(1-p) - 1 with k in [0, 2^p): exact in every float type, so
    // rounding can never produce 1.0.
    const int p = significandBits(t.dtype);
    for (int64_t i = 0; i < n; ++i) {
      uint64_t k = splitmix64(state) >> (64 - p);
      t.setDouble(i, std::ldexp(static_cast<double>(k), 1 - p) - 1.0);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    uint64_t r = splitmix64(state);
    if (t.dtype == DType::I1)
      t.setDouble(i, static_cast<double>(r >> 63));
    else if (isUnsignedDType(t.dtype))
      t.setDouble(i, static_cast<double>(r % 9));
    else
      t.setDouble(i, static_cast<double>(static_cast<int64_t>(r % 9) - 4));
  }
}

bool parseInputSpec(const std::string &spec, unsigned inputIndex, uint64_t seed,
                    HostTensor &out, std::string &error) {
  const std::string prefix = "input " + std::to_string(inputIndex) + ": ";
  auto fail = [&](const std::string &msg) {
    error = prefix + msg;
    return false;
  };

  std::string_view s = trim(spec);
  if (s.empty())
    return fail("empty input spec");

  if (s[0] == '@') {
    std::string path(trim(s.substr(1)));
    if (path.empty())
      return fail("missing file path after '@'");
    std::string npyError;
    if (!readNpy(path, out, npyError))
      return fail(npyError);
    return true;
  }

  size_t eq = s.find('=');
  std::string typeText(trim(s.substr(0, eq)));
  std::vector<int64_t> shape;
  DType dtype;
  std::string typeError;
  if (!parseTensorType(typeText, shape, dtype, typeError))
    return fail(typeError);
  HostTensor t(dtype, shape);

  std::string_view values = eq == std::string_view::npos
                                ? std::string_view()
                                : trim(s.substr(eq + 1));
  if (values.substr(0, 6) == "random") {
    // "random*S": the floats scaled by S (a model's activations stay in
    // the range its weights expect).
    std::string_view scaleText = trim(values.substr(6));
    double scale = 1.0;
    if (!scaleText.empty()) {
      std::string text(trim(scaleText.substr(1)));
      char *end = nullptr;
      scale = std::strtod(text.c_str(), &end);
      if (scaleText[0] != '*' || text.empty() || *end != '\0' ||
          !std::isfinite(scale))
        return fail("expected 'random' or 'random*SCALE', got '" +
                    std::string(values) + "'");
    }
    fillRandom(t, seed, inputIndex);
    if (scale != 1.0 && isFloatDType(t.dtype))
      for (int64_t i = 0, n = t.numElements(); i < n; ++i)
        t.setDouble(i, t.getDouble(i) * scale);
    out = std::move(t);
    return true;
  }
  if (!values.empty() && values[0] == '@') {
    std::string path(trim(values.substr(1)));
    if (path.empty())
      return fail("missing file path after '@'");
    std::string fileError;
    if (!loadTypedFile(path, t, fileError))
      return fail(fileError);
    out = std::move(t);
    return true;
  }

  // Tokenize: whitespace, ',', '[' and ']' all separate values.
  std::vector<std::string_view> tokens;
  size_t pos = 0;
  auto isSep = [](char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == ',' ||
           c == '[' || c == ']';
  };
  while (pos < values.size()) {
    while (pos < values.size() && isSep(values[pos]))
      ++pos;
    size_t start = pos;
    while (pos < values.size() && !isSep(values[pos]))
      ++pos;
    if (pos > start)
      tokens.push_back(values.substr(start, pos - start));
  }

  const int64_t n = t.numElements();
  std::string elemError;
  if (tokens.empty()) {
    // "2x3xf32" and "2x3xf32=" both mean zeros, as in IREE.
  } else if (tokens.size() == 1 && n > 1) {
    if (!parseElement(tokens[0], t, 0, elemError))
      return fail(elemError);
    const size_t elemSize = dtypeSize(dtype);
    for (int64_t i = 1; i < n; ++i)
      std::memcpy(t.data.data() + i * elemSize, t.data.data(), elemSize);
  } else if (static_cast<int64_t>(tokens.size()) != n) {
    return fail("expected " + std::to_string(n) + " value" +
                (n == 1 ? "" : "s") + " for " + t.typeString() + ", got " +
                std::to_string(tokens.size()));
  } else {
    for (int64_t i = 0; i < n; ++i)
      if (!parseElement(tokens[i], t, i, elemError))
        return fail(elemError);
  }
  out = std::move(t);
  return true;
}

} // namespace tcc::runtime
