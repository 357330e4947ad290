//===- CAPIUtils.h - shared helpers of tcc's C API --------------*- C++ -*-===//
#ifndef TCC_LIB_CAPI_CAPIUTILS_H
#define TCC_LIB_CAPI_CAPIUTILS_H

#include "mlir-c/Support.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mlir::tcc::capi {

/// Hands `message` to a C caller's callback (if any).
inline void report(const std::string &message, MlirStringCallback callback,
                   void *userData) {
  if (callback)
    callback(MlirStringRef{message.data(), message.size()}, userData);
}

/// Parses a pipeline's option string; null with `error` set on a bad one
/// (the parser's own message, not llvm::errs()).
template <typename Options>
std::unique_ptr<Options> parseOptions(llvm::StringRef text,
                                      std::string &error) {
  auto options = std::make_unique<Options>();
  llvm::raw_string_ostream os(error);
  if (failed(options->parseFromString(text, os))) {
    if (error.empty())
      error = "invalid pipeline options '" + text.str() + "'";
    return nullptr;
  }
  return options;
}

} // namespace mlir::tcc::capi

#endif // TCC_LIB_CAPI_CAPIUTILS_H
