//===- Target.cpp - the machine a module is compiled for --------*- C++ -*-===//
//
// Builds #tcc.target from flags or the host: the CPU's features from LLVM
// (the host's, or those of a named CPU), and the figures the cost models
// read, one table per kind. The figures were measured on the machines tcc
// is tuned on (docs/benchmarks.md): a 2-core AVX-512 VM and an H200.
//
//===----------------------------------------------------------------------===//

#include "tcc/Target/Target.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// What the cost models know of a kind of machine.
struct MachineFigures {
  int64_t vectorBits;
  /// On-chip memory one fusion group may keep live per row block (CPU:
  /// half of one core's 2 MiB L2; GPU: one SM's shared memory).
  int64_t onChipBytes;
  /// Main-memory bandwidth, bytes per second.
  int64_t bandwidth;
  /// Vector arithmetic, flops per second.
  int64_t peakFlops;
  /// A kernel launch: CPU, a call plus an OpenMP fork; GPU, a launch.
  int64_t launchNs;
  /// A strided relayout (a transpose), bytes per second: the p90 of a
  /// ResNet-18 activation's transpose on the CPU (docs/layout.md).
  int64_t relayoutBandwidth;
  /// Planned buffers' offsets (CPU: a cache line; GPU: what cuBLASLt and
  /// vectorized kernels want).
  int64_t alignment;
};

// CPU: 2 AVX-512 cores, 32 GB/s of DRAM bandwidth and 256 GFLOP/s, so a
// flop costs 1/8 of a byte; a launch moves as much as 32 KiB would.
constexpr MachineFigures kCPUFigures{/*vectorBits=*/512,
                                     /*onChipBytes=*/1 << 20,
                                     /*bandwidth=*/32'000'000'000,
                                     /*peakFlops=*/256'000'000'000,
                                     /*launchNs=*/1024,
                                     /*relayoutBandwidth=*/8'000'000'000,
                                     /*alignment=*/64};
// CUDA (H200): 67.2 TFLOP/s fp32 over 4.8 TB/s; a launch is ~3 us (about
// 14 MiB of traffic); 228 KiB of shared memory per SM; relayouts at
// 3 TB/s; 16-byte vector accesses.
constexpr MachineFigures kCUDAFigures{/*vectorBits=*/128,
                                      /*onChipBytes=*/228 * 1024,
                                      /*bandwidth=*/4'800'000'000'000,
                                      /*peakFlops=*/67'200'000'000'000,
                                      /*launchNs=*/3058,
                                      /*relayoutBandwidth=*/3'000'000'000'000,
                                      /*alignment=*/256};

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

/// The widest vector registers `hasFeature` says the CPU has.
int64_t vectorBitsOf(llvm::function_ref<bool(StringRef)> hasFeature) {
  if (hasFeature("avx512f"))
    return 512;
  if (hasFeature("avx"))
    return 256;
  return 128;
}

/// The features of CPU `cpu` as "+a,+b,...", sorted: a named CPU's
/// enabled ones; the host's as LLVM detects them, disabled ones as "-c"
/// too (a VM may lack what its CPU name implies).
FailureOr<std::string> cpuFeatures(StringRef cpu, std::string &error) {
  SmallVector<std::string> enabled;
  if (cpu == "host") {
    for (auto &[name, on] : llvm::sys::getHostCPUFeatures())
      enabled.push_back(((on ? "+" : "-") + name).str());
  } else {
    initializeNativeTarget();
    llvm::Triple triple(llvm::sys::getProcessTriple());
    std::string lookupError;
    const llvm::Target *t =
        llvm::TargetRegistry::lookupTarget(triple, lookupError);
    if (!t) {
      error = lookupError;
      return failure();
    }
    std::unique_ptr<llvm::MCSubtargetInfo> sti(
        t->createMCSubtargetInfo(triple, cpu, ""));
    if (!sti || !sti->isCPUStringValid(cpu)) {
      error = "unknown CPU '" + cpu.str() + "' (an LLVM CPU name such as "
              "x86-64-v3, znver4 or skylake-avx512, or host)";
      return failure();
    }
    for (const llvm::SubtargetFeatureKV &kv : sti->getAllProcessorFeatures())
      if (sti->checkFeatures(std::string("+") + kv.Key))
        enabled.push_back(std::string("+") + kv.Key);
  }
  llvm::sort(enabled);
  return llvm::join(enabled, ",");
}

TargetAttr makeTarget(MLIRContext *ctx, StringRef kind, StringRef arch,
                      StringRef features, int64_t vectorBits,
                      const MachineFigures &f, ArrayRef<StringRef> libraries) {
  // Loaded already in passes that read the target (their dependent
  // dialects); tools may build one before any tcc op is parsed.
  ctx->getOrLoadDialect<TCCDialect>();
  Builder b(ctx);
  ArrayAttr libs = libraries.empty() ? ArrayAttr()
                                     : b.getStrArrayAttr(libraries);
  return TargetAttr::get(ctx, kind, arch, features, vectorBits, f.onChipBytes,
                         f.bandwidth, f.peakFlops, f.launchNs,
                         f.relayoutBandwidth, f.alignment, libs);
}

} // namespace

FailureOr<TargetAttr> mlir::tcc::buildTarget(MLIRContext *ctx,
                                             const TargetOptions &options,
                                             std::string &error) {
  if (options.kind == "cpu") {
    FailureOr<std::string> features = cpuFeatures(options.mcpu, error);
    if (failed(features))
      return failure();
    std::string arch = options.mcpu == "host"
                           ? llvm::sys::getHostCPUName().str()
                           : options.mcpu;
    int64_t bits = vectorBitsOf([&](StringRef name) {
      return llvm::is_contained(llvm::split(*features, ','),
                                ("+" + name).str());
    });
    SmallVector<StringRef> libraries;
#ifdef TCC_HAVE_DNNL
    libraries.push_back("onednn");
#endif
    return makeTarget(ctx, "cpu", arch, *features, bits, kCPUFigures,
                      libraries);
  }
  if (options.kind == "cuda") {
    StringRef chip = options.chip;
    unsigned version;
    if (!chip.consume_front("sm_") || chip.getAsInteger(10, version)) {
      error = "unknown GPU architecture '" + options.chip +
              "' (expected sm_<version>, e.g. sm_90)";
      return failure();
    }
    // The H200's figures for every chip: the one GPU tcc is measured on.
    return makeTarget(ctx, "cuda", options.chip, options.ptxFeatures,
                      kCUDAFigures.vectorBits, kCUDAFigures,
                      {"cublaslt", "cudnn"});
  }
  error = "unknown target '" + options.kind + "' (expected cpu or cuda)";
  return failure();
}

FailureOr<TargetAttr> mlir::tcc::buildTarget(MLIRContext *ctx, StringRef kind,
                                             std::string &error) {
  TargetOptions options;
  options.kind = kind.str();
  return buildTarget(ctx, options, error);
}

TargetAttr mlir::tcc::getHostTarget(MLIRContext *ctx) {
  std::string error;
  FailureOr<TargetAttr> host = buildTarget(ctx, TargetOptions{}, error);
  // The host CPU always has a description.
  assert(succeeded(host) && "no description of the host CPU");
  return *host;
}

TargetAttr mlir::tcc::lookupTarget(Operation *op) {
  for (Operation *scope = op; scope; scope = scope->getParentOp())
    if (isa<ModuleOp>(scope))
      if (auto target = scope->getAttrOfType<TargetAttr>(kTargetAttr))
        return target;
  return getHostTarget(op->getContext());
}

FailureOr<TargetAttr> mlir::tcc::resolveTarget(Operation *op,
                                               StringRef override,
                                               std::string &error) {
  if (override.empty())
    return lookupTarget(op);
  return buildTarget(op->getContext(), override, error);
}

std::unique_ptr<llvm::TargetMachine>
mlir::tcc::createTargetMachine(TargetAttr target, llvm::CodeGenOptLevel level,
                               std::string &error) {
  // A cuda target's host code runs on this machine.
  TargetAttr host = target.isCPU() ? target : getHostTarget(target.getContext());
  return createTargetMachine(host.getArch(), host.getFeatures(), level, error);
}

std::unique_ptr<llvm::TargetMachine>
mlir::tcc::createTargetMachine(StringRef cpu, StringRef features,
                               llvm::CodeGenOptLevel level,
                               std::string &error) {
  initializeNativeTarget();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string lookupError;
  const llvm::Target *t =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!t) {
    error = lookupError;
    return nullptr;
  }
  llvm::TargetOptions options;
  // Constructors (the kernel modules' loaders) in .init_array: lld does not
  // run a .ctors section.
  options.UseInitArray = true;
  std::unique_ptr<llvm::TargetMachine> tm(t->createTargetMachine(
      triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt, level));
  if (!tm)
    error = "no target machine for " + triple.str() + " / " + cpu.str();
  return tm;
}
