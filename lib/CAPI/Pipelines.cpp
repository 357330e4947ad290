//===- Pipelines.cpp - tcc's pipeline builders for the C API --------------===//

#include "tcc-c/Pipelines.h"

#include "CAPIUtils.h"
#include "tcc/Pipelines/CompileCache.h"
#include "tcc/Pipelines/Pipelines.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;

template <typename Options, typename Build>
static MlirLogicalResult build(MlirOpPassManager pm, MlirStringRef options,
                               MlirStringCallback errorCallback,
                               void *userData, Build buildPipeline) {
  std::string error;
  std::unique_ptr<Options> parsed =
      mlir::tcc::capi::parseOptions<Options>(unwrap(options), error);
  if (!parsed) {
    mlir::tcc::capi::report(error, errorCallback, userData);
    return mlirLogicalResultFailure();
  }
  // The pipelines start with module passes: on a pass manager anchored on
  // anything else MLIR would abort the process.
  StringRef anchor = unwrap(pm)->getOpAnchorName();
  if (anchor != "builtin.module" && anchor != OpPassManager::getAnyOpAnchorName()) {
    tcc::capi::report("tcc's pipelines run on builtin.module, not on '" +
                          anchor.str() + "'",
                      errorCallback, userData);
    return mlirLogicalResultFailure();
  }
  buildPipeline(*unwrap(pm), *parsed);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult tccBuildCPUPipeline(MlirOpPassManager pm,
                                      MlirStringRef options,
                                      MlirStringCallback errorCallback,
                                      void *userData) {
  return build<mlir::tcc::CPUPipelineOptions>(pm, options, errorCallback, userData,
                                        mlir::tcc::buildCPUPipeline);
}

MlirLogicalResult tccBuildCUDAPipeline(MlirOpPassManager pm,
                                       MlirStringRef options,
                                       MlirStringCallback errorCallback,
                                       void *userData) {
  return build<mlir::tcc::CUDAPipelineOptions>(pm, options, errorCallback, userData,
                                         mlir::tcc::buildCUDAPipeline);
}

MlirLogicalResult tccBuildTCCToLinalgPipeline(MlirOpPassManager pm,
                                              MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData) {
  return build<mlir::tcc::CPUPipelineOptions>(
      pm, options, errorCallback, userData,
      [](OpPassManager &pm, const mlir::tcc::CPUPipelineOptions &options) {
        mlir::tcc::buildTCCToLinalgPipeline(pm, options);
      });
}

MlirStringRef tccCompileCacheDirectory(void) {
  llvm::StringRef dir = mlir::tcc::CompileCache::get().getDirectory();
  return mlirStringRefCreate(dir.data(), dir.size());
}

TccCompileCacheStats tccCompileCacheGetStats(void) {
  mlir::tcc::CompileCache::Stats s = mlir::tcc::CompileCache::get().getStats();
  return {s.hits, s.misses, s.stores};
}

void tccCompileCacheClear(void) { mlir::tcc::CompileCache::get().clear(); }
