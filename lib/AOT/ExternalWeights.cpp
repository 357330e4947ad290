//===- ExternalWeights.cpp - a library's weights in a file beside it -*- C++ -*-===//
//
// See include/tcc/AOT/ExternalWeights.h.
//
//===----------------------------------------------------------------------===//

#include "tcc/AOT/ExternalWeights.h"
#include "tcc/Runtime/ModelTable.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// Data pages are this large; a global asking for more alignment stays.
constexpr uint64_t kPageBytes = TCC_WEIGHTS_HEADER_BYTES;

/// The bytes of a constant global's initializer, or none (a splat, a
/// string, a global with an initializer region).
std::optional<ArrayRef<char>> dataOf(LLVM::GlobalOp global) {
  if (!global.getConstant() || !global.getInitializerRegion().empty())
    return std::nullopt;
  Attribute value = global.getValueOrNull();
  if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(value)) {
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
    return std::nullopt;
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(value);
      dense && !dense.isSplat())
    return dense.getRawData();
  return std::nullopt;
}

/// A global to move: its data, where it goes in the file and how aligned.
struct Moved {
  LLVM::GlobalOp global;
  ArrayRef<char> data;
  uint64_t offset = 0;
};

/// Each global's users, from one walk of the module (a walk per global
/// would visit a model's whole entry hundreds of times).
using Users = llvm::DenseMap<StringAttr, SmallVector<Operation *>>;
Users usersOfSymbols(ModuleOp module) {
  Users users;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&module.getBodyRegion()))
    for (const SymbolTable::SymbolUse &use : *uses)
      users[use.getSymbolRef().getRootReference()].push_back(use.getUser());
  return users;
}

/// The globals larger than `minBytes` whose every use is an address taken
/// in a function, laid out one after the other.
SmallVector<Moved> planMoves(ModuleOp module, const Users &users,
                             uint64_t minBytes, uint64_t &bytes) {
  SmallVector<Moved> moves;
  bytes = 0;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    std::optional<ArrayRef<char>> data = dataOf(global);
    uint64_t align = std::max<uint64_t>(global.getAlignment().value_or(1), 64);
    if (!data || data->size() <= minBytes || align > kPageBytes)
      continue;
    auto it = users.find(global.getSymNameAttr());
    if (it != users.end() && llvm::any_of(it->second, [](Operation *user) {
          return !isa<LLVM::AddressOfOp>(user) ||
                 !user->getParentOfType<LLVM::LLVMFuncOp>();
        }))
      continue;
    bytes = llvm::alignTo(bytes, align);
    moves.push_back({global, *data, bytes});
    bytes += data->size();
  }
  return moves;
}

/// Every address of a global (`addresses`) becomes `kWeightsBaseSymbol` +
/// `offset`.
void redirect(ModuleOp module, ArrayRef<Operation *> addresses,
              uint64_t offset) {
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  auto i8 = IntegerType::get(module.getContext(), 8);
  for (Operation *user : addresses) {
    auto address = cast<LLVM::AddressOfOp>(user);
    OpBuilder b(address);
    Location loc = address.getLoc();
    Value slot = LLVM::AddressOfOp::create(b, loc, ptr, kWeightsBaseSymbol);
    // The runtime sets it before any compiled code runs.
    Value base = LLVM::LoadOp::create(b, loc, ptr, slot, /*alignment=*/8,
                                      /*isVolatile=*/false,
                                      /*isNonTemporal=*/false,
                                      /*isInvariant=*/true);
    Value at = base;
    if (offset) {
      Value bytes = LLVM::ConstantOp::create(
          b, loc, b.getI64Type(), b.getI64IntegerAttr(offset));
      at = LLVM::GEPOp::create(b, loc, ptr, i8, base, ValueRange{bytes},
                               LLVM::GEPNoWrapFlags::inbounds);
    }
    address.replaceAllUsesWith(at);
    address.erase();
  }
}

} // namespace

FailureOr<ExternalWeights> mlir::tcc::moveWeightsToFile(ModuleOp lowered,
                                                        StringRef path,
                                                        uint64_t minBytes,
                                                        uint64_t minTotalBytes,
                                                        std::string &error) {
  ExternalWeights result;
  Users users = usersOfSymbols(lowered);
  SmallVector<Moved> moves = planMoves(lowered, users, minBytes, result.bytes);
  if (moves.empty() || result.bytes <= minTotalBytes)
    return ExternalWeights();
  result.globals = moves.size();

  // The id: a hash of each piece's place and contents (xxh3: a few
  // milliseconds per 100 MB).
  SmallVector<uint64_t> layout;
  for (const Moved &m : moves)
    layout.append({m.offset, m.data.size(),
                   llvm::xxh3_64bits(ArrayRef<uint8_t>(
                       reinterpret_cast<const uint8_t *>(m.data.data()),
                       m.data.size()))});
  result.id = llvm::xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(layout.data()),
      layout.size() * sizeof(uint64_t)));
  if (result.id == 0)
    result.id = 1; // 0 means no file

  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = "cannot write " + path.str() + ": " + ec.message();
    return failure();
  }
  tcc_weights_header header;
  std::memcpy(header.magic, TCC_WEIGHTS_MAGIC, sizeof(header.magic));
  header.id = result.id;
  header.bytes = result.bytes;
  os.write(reinterpret_cast<const char *>(&header), sizeof(header));
  os.write_zeros(TCC_WEIGHTS_HEADER_BYTES - sizeof(header));
  uint64_t written = 0;
  for (const Moved &m : moves) {
    os.write_zeros(m.offset - written);
    os << StringRef(m.data.data(), m.data.size());
    written = m.offset + m.data.size();
  }
  os.close();
  if (os.has_error()) {
    error = "cannot write " + path.str() + ": " + os.error().message();
    os.clear_error();
    return failure();
  }

  // The code reads the data through the runtime's pointer to it.
  OpBuilder b(lowered.getBodyRegion());
  if (!lowered.lookupSymbol(kWeightsBaseSymbol)) {
    auto base = LLVM::GlobalOp::create(
        b, lowered.getLoc(), LLVM::LLVMPointerType::get(lowered.getContext()),
        /*isConstant=*/false, LLVM::Linkage::External, kWeightsBaseSymbol,
        Attribute(), /*alignment=*/8, /*addrSpace=*/0, /*dsoLocal=*/true);
    base.setVisibility_(LLVM::Visibility::Hidden);
  }
  for (Moved &m : moves) {
    redirect(lowered, users.lookup(m.global.getSymNameAttr()), m.offset);
    m.global.erase();
  }
  return result;
}
