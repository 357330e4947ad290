//===- Npy.cpp - NumPy .npy file reading and writing ------------*- C++ -*-===//
//
// A small, strict reader for the .npy format: the header is a Python dict
// literal, which we parse with a tiny recursive-descent parser rather than
// regexes so unusual but valid spellings (double quotes, "(5,)", "2L" from
// Python 2 writers, key order) are accepted and anything else gets a precise
// error.
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/Npy.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

namespace tcc::runtime {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

bool isHostLittleEndian() {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

/// .npy payloads are little-endian; HostTensor data is host order.
void swapElementBytesIfBigEndianHost(TensorBytes &data,
                                     size_t elemSize) {
  if (elemSize <= 1 || isHostLittleEndian())
    return;
  for (size_t i = 0; i + elemSize <= data.size(); i += elemSize)
    std::reverse(data.begin() + i, data.begin() + i + elemSize);
}

/// Recursive-descent parser for the header dict, e.g.
///   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text(text) {}

  bool parse(std::string &descr, bool &fortranOrder,
             std::vector<int64_t> &shape, std::string &error) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipWs();
    if (!consume('{'))
      return fail("expected '{' at start of header", error);
    while (true) {
      skipWs();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return fail("expected a quoted key in header", error);
      skipWs();
      if (!consume(':'))
        return fail("expected ':' after key '" + key + "'", error);
      skipWs();
      if (key == "descr") {
        if (peek() == '[')
          return fail("structured dtypes are not supported", error);
        if (!parseString(descr))
          return fail("expected a string value for 'descr'", error);
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (!parseBool(fortranOrder))
          return fail("expected True or False for 'fortran_order'", error);
        haveOrder = true;
      } else if (key == "shape") {
        if (!parseShape(shape, error))
          return false;
        haveShape = true;
      } else {
        return fail("unexpected key '" + key + "' in header", error);
      }
      skipWs();
      if (consume(','))
        continue;
      skipWs();
      if (consume('}'))
        break;
      return fail("expected ',' or '}' in header", error);
    }
    if (!haveDescr || !haveOrder || !haveShape)
      return fail("header must contain 'descr', 'fortran_order' and 'shape'",
                  error);
    return true;
  }

private:
  std::string_view text;
  size_t pos = 0;

  static bool fail(const std::string &msg, std::string &error) {
    error = "malformed .npy header: " + msg;
    return false;
  }
  char peek() const { return pos < text.size() ? text[pos] : '\0'; }
  bool consume(char c) {
    if (peek() != c)
      return false;
    ++pos;
    return true;
  }
  bool consumeWord(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }
  void skipWs() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool parseString(std::string &out) {
    char quote = peek();
    if (quote != '\'' && quote != '"')
      return false;
    ++pos;
    out.clear();
    while (pos < text.size() && text[pos] != quote)
      out += text[pos++];
    return consume(quote);
  }
  bool parseBool(bool &out) {
    if (consumeWord("True"))
      out = true;
    else if (consumeWord("False"))
      out = false;
    else
      return false;
    return true;
  }
  bool parseShape(std::vector<int64_t> &shape, std::string &error) {
    shape.clear();
    if (!consume('('))
      return fail("expected a tuple for 'shape'", error);
    while (true) {
      skipWs();
      if (consume(')'))
        return true;
      if (!std::isdigit(static_cast<unsigned char>(peek())))
        return fail("expected a non-negative integer in 'shape'", error);
      int64_t dim = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        int digit = text[pos++] - '0';
        if (dim > (std::numeric_limits<int64_t>::max() - digit) / 10)
          return fail("dimension too large in 'shape'", error);
        dim = dim * 10 + digit;
      }
      consume('L'); // Python 2 long suffix.
      shape.push_back(dim);
      skipWs();
      if (consume(','))
        continue;
      skipWs();
      if (consume(')'))
        return true;
      return fail("expected ',' or ')' in 'shape'", error);
    }
  }
};

/// Maps a numpy descr to a DType, rejecting big-endian and unknown types.
bool dtypeFromDescr(const std::string &descr, DType &dtype,
                    std::string &error) {
  char order = '=';
  std::string code = descr;
  if (!code.empty() && std::strchr("<>|=", code[0])) {
    order = code[0];
    code = code.substr(1);
  }
  struct Entry {
    const char *code;
    DType dtype;
  };
  static const Entry table[] = {
      {"f4", DType::F32}, {"f8", DType::F64}, {"f2", DType::F16},
      {"i4", DType::I32}, {"i8", DType::I64}, {"i1", DType::I8},
      {"i2", DType::I16}, {"u1", DType::U8},  {"u2", DType::U16},
      {"u4", DType::U32}, {"u8", DType::U64}, {"b1", DType::I1},
      {"?", DType::I1}};
  const Entry *found = nullptr;
  for (const Entry &e : table)
    if (code == e.code)
      found = &e;
  if (!found) {
    error = "unsupported .npy dtype '" + descr +
            "' (supported: <f4 <f8 <f2 <i8 <i4 <i2 |i1 <u8 <u4 <u2 |u1 |b1; "
            "bf16 as its bits in <u2)";
    return false;
  }
  bool multiByte = dtypeSize(found->dtype) > 1;
  if (multiByte) {
    if (order == '>' || (order == '=' && !isHostLittleEndian())) {
      error = "big-endian .npy data ('" + descr +
              "') is not supported; convert with arr.astype(arr.dtype."
              "newbyteorder('<'))";
      return false;
    }
    if (order == '|') {
      error = "invalid byte order in .npy dtype '" + descr + "'";
      return false;
    }
  }
  dtype = found->dtype;
  return true;
}

uint32_t readLE(std::string_view bytes, size_t offset, size_t width) {
  uint32_t v = 0;
  for (size_t i = 0; i < width; ++i)
    v |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[offset + i]))
         << (8 * i);
  return v;
}

} // namespace

const char *npyDescr(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::F16:
    return "<f2";
  case DType::BF16:
    return "<u2";
  case DType::I1:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::I16:
    return "<i2";
  case DType::U8:
    return "|u1";
  case DType::U16:
    return "<u2";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  }
  return "";
}

bool parseNpy(std::string_view bytes, HostTensor &out, std::string &error) {
  if (bytes.size() < kMagicLen + 2 ||
      bytes.substr(0, kMagicLen) != std::string_view(kMagic, kMagicLen)) {
    error = "not a .npy file (bad magic string)";
    return false;
  }
  const unsigned major = static_cast<uint8_t>(bytes[6]);
  const unsigned minor = static_cast<uint8_t>(bytes[7]);
  size_t lenWidth;
  if (major == 1 && minor == 0) {
    lenWidth = 2;
  } else if ((major == 2 || major == 3) && minor == 0) {
    lenWidth = 4; // 3.0 only differs by allowing utf-8 in the header.
  } else {
    error = "unsupported .npy format version " + std::to_string(major) + "." +
            std::to_string(minor);
    return false;
  }
  const size_t prefix = kMagicLen + 2 + lenWidth;
  if (bytes.size() < prefix) {
    error = "truncated .npy file (incomplete header length)";
    return false;
  }
  const size_t headerLen = readLE(bytes, kMagicLen + 2, lenWidth);
  if (bytes.size() - prefix < headerLen) {
    error = "truncated .npy file (header is " + std::to_string(headerLen) +
            " bytes, only " + std::to_string(bytes.size() - prefix) +
            " available)";
    return false;
  }

  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  HeaderParser parser(bytes.substr(prefix, headerLen));
  if (!parser.parse(descr, fortranOrder, shape, error))
    return false;
  if (fortranOrder) {
    error = "fortran_order=True .npy files are not supported; save a "
            "C-contiguous array (np.ascontiguousarray)";
    return false;
  }
  DType dtype;
  if (!dtypeFromDescr(descr, dtype, error))
    return false;

  const size_t elemSize = dtypeSize(dtype);
  uint64_t numElements = 1;
  for (int64_t d : shape) {
    if (d != 0 && numElements > std::numeric_limits<uint64_t>::max() /
                                    static_cast<uint64_t>(d) / elemSize) {
      error = "malformed .npy header: shape is too large";
      return false;
    }
    numElements *= static_cast<uint64_t>(d);
  }
  const uint64_t dataBytes = numElements * elemSize;
  const size_t available = bytes.size() - prefix - headerLen;
  if (available < dataBytes) {
    std::string type;
    for (int64_t d : shape)
      type += std::to_string(d) + "x";
    type += dtypeName(dtype);
    error = "truncated .npy data: expected " + std::to_string(dataBytes) +
            " bytes for " + type + ", got " + std::to_string(available);
    return false;
  }
  // Trailing bytes after the data are ignored, as numpy.load does.

  out.dtype = dtype;
  out.shape = std::move(shape);
  const char *begin = bytes.data() + prefix + headerLen;
  out.data.assign(reinterpret_cast<const uint8_t *>(begin),
                  reinterpret_cast<const uint8_t *>(begin) + dataBytes);
  if (dtype == DType::I1)
    for (uint8_t &b : out.data)
      b = b != 0;
  swapElementBytesIfBigEndianHost(out.data, elemSize);
  return true;
}

std::string serializeNpy(const HostTensor &t) {
  std::string header = "{'descr': '";
  header += npyDescr(t.dtype);
  header += "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (i)
      header += ", ";
    header += std::to_string(t.shape[i]);
  }
  if (t.shape.size() == 1)
    header += ",";
  header += "), }";

  // Pad with spaces and a final newline so the data starts 64-byte aligned,
  // exactly as numpy does.
  bool v1 = true;
  size_t prefix = kMagicLen + 2 + 2;
  size_t total = prefix + header.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  if (padded - prefix > 0xFFFF) {
    v1 = false;
    prefix = kMagicLen + 2 + 4;
    total = prefix + header.size() + 1;
    padded = (total + 63) / 64 * 64;
  }
  header.append(padded - total, ' ');
  header += '\n';

  std::string out(kMagic, kMagicLen);
  out += static_cast<char>(v1 ? 1 : 2);
  out += static_cast<char>(0);
  const uint32_t len = static_cast<uint32_t>(header.size());
  for (size_t i = 0; i < (v1 ? 2u : 4u); ++i)
    out += static_cast<char>((len >> (8 * i)) & 0xFF);
  out += header;

  TensorBytes data = t.data;
  swapElementBytesIfBigEndianHost(data, dtypeSize(t.dtype));
  out.append(reinterpret_cast<const char *>(data.data()), data.size());
  return out;
}

bool readNpy(const std::string &path, HostTensor &out, std::string &error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = path + ": cannot open file for reading";
    return false;
  }
  std::ostringstream contents;
  contents << file.rdbuf();
  if (file.bad()) {
    error = path + ": read error";
    return false;
  }
  if (!parseNpy(contents.str(), out, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

bool writeNpy(const std::string &path, const HostTensor &t,
              std::string &error) {
  if (t.data.size() !=
      static_cast<size_t>(t.numElements()) * dtypeSize(t.dtype)) {
    error = path + ": tensor " + t.typeString() + " has " +
            std::to_string(t.data.size()) + " data bytes, expected " +
            std::to_string(t.numElements() * dtypeSize(t.dtype));
    return false;
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    error = path + ": cannot open file for writing";
    return false;
  }
  const std::string bytes = serializeNpy(t);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) {
    error = path + ": write error";
    return false;
  }
  return true;
}

} // namespace tcc::runtime
