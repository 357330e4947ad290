//===- ONNXTensor.cpp - ONNX TensorProto contents ---------------*- C++ -*-===//
//
// A TensorProto's elements, from raw_data (little-endian) or the typed
// repeated fields, as a HostTensor: the importer's initializers and
// Constant values, and the backend tests' input and output files.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporterInternal.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tcc::onnx_import;
using ::tcc::runtime::DType;
using ::tcc::runtime::HostTensor;

std::optional<DType> mlir::tcc::onnx_import::dtypeOf(int32_t onnxType) {
  switch (onnxType) {
  case onnx::TensorProto::FLOAT:
    return DType::F32;
  case onnx::TensorProto::DOUBLE:
    return DType::F64;
  case onnx::TensorProto::FLOAT16:
    return DType::F16;
  case onnx::TensorProto::BFLOAT16:
    return DType::BF16;
  case onnx::TensorProto::BOOL:
    return DType::I1;
  case onnx::TensorProto::INT8:
    return DType::I8;
  case onnx::TensorProto::INT32:
    return DType::I32;
  case onnx::TensorProto::INT64:
    return DType::I64;
  case onnx::TensorProto::INT16:
    return DType::I16;
  case onnx::TensorProto::UINT8:
    return DType::U8;
  case onnx::TensorProto::UINT16:
    return DType::U16;
  case onnx::TensorProto::UINT32:
    return DType::U32;
  case onnx::TensorProto::UINT64:
    return DType::U64;
  default:
    return std::nullopt;
  }
}

std::string mlir::tcc::onnx_import::onnxTypeName(int32_t onnxType) {
  if (onnx::TensorProto::DataType_IsValid(onnxType))
    return onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(onnxType));
  return "type " + std::to_string(onnxType);
}

bool mlir::tcc::onnx_import::tensorFromProto(const onnx::TensorProto &t,
                                             HostTensor &out,
                                             std::string &error) {
  std::optional<DType> dtype = dtypeOf(t.data_type());
  if (!dtype) {
    error = "tensor '" + t.name() + "' has element type " +
            onnxTypeName(t.data_type()) + ", which tcc does not have";
    return false;
  }
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    error = "tensor '" + t.name() +
            "' keeps its data in an external file (not supported)";
    return false;
  }
  std::vector<int64_t> shape;
  for (int64_t d : t.dims()) {
    if (d < 0) {
      error = "tensor '" + t.name() + "' has a negative dim";
      return false;
    }
    shape.push_back(d);
  }
  // Guard the allocation against absurd dims in a damaged file.
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d != 0 && n > (int64_t(1) << 40) / d) {
      error = "tensor '" + t.name() + "' is too large";
      return false;
    }
    n *= d;
  }
  HostTensor h(*dtype, shape);
  size_t bytes = h.numBytes();
  if (t.has_raw_data()) {
    if (t.raw_data().size() != bytes) {
      error = "tensor '" + t.name() + "' has " +
              std::to_string(t.raw_data().size()) + " bytes of raw data for " +
              std::to_string(n) + " elements of " + ::tcc::runtime::dtypeName(*dtype);
      return false;
    }
    std::memcpy(h.data.data(), t.raw_data().data(), bytes);
    out = std::move(h);
    return true;
  }
  auto count = [&](int64_t have) {
    if (have == n)
      return true;
    error = "tensor '" + t.name() + "' holds " + std::to_string(have) +
            " values for " + std::to_string(n) + " elements";
    return false;
  };
  switch (*dtype) {
  case DType::F32:
    if (!count(t.float_data_size()))
      return false;
    std::memcpy(h.data.data(), t.float_data().data(), bytes);
    break;
  case DType::F64:
    if (!count(t.double_data_size()))
      return false;
    std::memcpy(h.data.data(), t.double_data().data(), bytes);
    break;
  case DType::I64:
    if (!count(t.int64_data_size()))
      return false;
    std::memcpy(h.data.data(), t.int64_data().data(), bytes);
    break;
  case DType::I32:
    if (!count(t.int32_data_size()))
      return false;
    std::memcpy(h.data.data(), t.int32_data().data(), bytes);
    break;
  case DType::F16:
  case DType::BF16: // int32_data holds the 16-bit patterns
    if (!count(t.int32_data_size()))
      return false;
    for (int64_t i = 0; i < n; ++i) {
      uint16_t bits = static_cast<uint16_t>(t.int32_data(i));
      std::memcpy(h.data.data() + 2 * i, &bits, 2);
    }
    break;
  case DType::I8:
  case DType::U8:
  case DType::I1:
    if (!count(t.int32_data_size()))
      return false;
    for (int64_t i = 0; i < n; ++i)
      h.data[i] = static_cast<uint8_t>(t.int32_data(i));
    if (*dtype == DType::I1)
      for (int64_t i = 0; i < n; ++i)
        h.data[i] = h.data[i] != 0;
    break;
  case DType::I16:
  case DType::U16:
    if (!count(t.int32_data_size()))
      return false;
    for (int64_t i = 0; i < n; ++i) {
      uint16_t bits = static_cast<uint16_t>(t.int32_data(i));
      std::memcpy(h.data.data() + 2 * i, &bits, 2);
    }
    break;
  case DType::U32:
    if (!count(t.uint64_data_size()))
      return false;
    for (int64_t i = 0; i < n; ++i) {
      uint32_t v = static_cast<uint32_t>(t.uint64_data(i));
      std::memcpy(h.data.data() + 4 * i, &v, 4);
    }
    break;
  case DType::U64:
    if (!count(t.uint64_data_size()))
      return false;
    std::memcpy(h.data.data(), t.uint64_data().data(), bytes);
    break;
  }
  out = std::move(h);
  return true;
}

bool mlir::tcc::onnx_import::readTensorProto(llvm::StringRef bytes,
                                             HostTensor &out,
                                             std::string &error) {
  onnx::TensorProto t;
  if (!t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    error = "not a serialized onnx.TensorProto";
    return false;
  }
  return tensorFromProto(t, out, error);
}
