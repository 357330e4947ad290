//===- ObjectCodegenTest.cpp - LLVM IR to objects, in parallel parts ------===//
//
// A module shaped like a model's (an entry calling kernels; local helpers
// with one caller or several; a small constant table; a large constant)
// compiled whole and in parts: the parts define each symbol once, link in
// ORC's JIT, and compute what the module computes (checked against the
// same arithmetic done here).
//
//===----------------------------------------------------------------------===//

#include "tcc/Dialect/TCC/IR/TCCDialect.h"
#include "tcc/Target/ObjectCodegen.h"
#include "tcc/Target/Target.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ObjectFile.h"

#include <gtest/gtest.h>

#include <map>

using namespace mlir;

namespace {

constexpr int kKernels = 6;
constexpr int kChain = 1000;
constexpr uint64_t kTable[4] = {3, 5, 7, 11};
constexpr int kWeights = 8192; // 64 KiB: linked to, not copied

/// Kernel k's arithmetic, as the IR below does it (64-bit wraparound).
uint64_t kernelHere(int k, uint64_t x) {
  for (int i = 0; i < kChain; ++i)
    x = (x ^ (x >> 7)) * (2 * i + 3) + k;
  if (k == 0)
    x += 2 * x;        // @helper, one caller
  if (k == 1 || k == 2)
    x -= 17;           // @shared, two callers
  if (k == 3 || k == 4)
    x += kTable[x % 4];
  if (k == 5 || k == 0)
    x += x % kWeights; // @weights[i] == i
  return x;
}

std::unique_ptr<llvm::Module> buildModule(llvm::LLVMContext &ctx) {
  auto m = std::make_unique<llvm::Module>("test", ctx);
  llvm::IRBuilder<> b(ctx);
  llvm::Type *i64 = b.getInt64Ty();
  auto *unary = llvm::FunctionType::get(i64, {i64}, false);
  // Kernels are kept from inlining, as OutlineKernels marks them.
  auto define = [&](StringRef name, llvm::GlobalValue::LinkageTypes linkage,
                    bool noinline = true) {
    auto *f = llvm::Function::Create(unary, linkage, name, *m);
    if (noinline)
      f->addFnAttr(llvm::Attribute::NoInline);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "", f));
    return f;
  };
  llvm::Function *helper = define("helper", llvm::GlobalValue::InternalLinkage,
                                  /*noinline=*/false);
  b.CreateRet(b.CreateMul(helper->getArg(0), b.getInt64(3)));
  llvm::Function *shared = define("shared", llvm::GlobalValue::InternalLinkage);
  b.CreateRet(b.CreateSub(shared->getArg(0), b.getInt64(17)));

  SmallVector<llvm::Constant *> table, weights;
  for (uint64_t v : kTable)
    table.push_back(b.getInt64(v));
  for (int i = 0; i < kWeights; ++i)
    weights.push_back(b.getInt64(i));
  auto global = [&](StringRef name, ArrayRef<llvm::Constant *> values) {
    auto *type = llvm::ArrayType::get(i64, values.size());
    return new llvm::GlobalVariable(*m, type, /*isConstant=*/true,
                                    llvm::GlobalValue::InternalLinkage,
                                    llvm::ConstantArray::get(type, values),
                                    name);
  };
  llvm::GlobalVariable *tableVar = global("table", table);
  llvm::GlobalVariable *weightsVar = global("weights", weights);
  auto load = [&](llvm::GlobalVariable *var, llvm::Value *x, uint64_t n) {
    llvm::Value *index = b.CreateURem(x, b.getInt64(n));
    llvm::Value *at =
        b.CreateGEP(var->getValueType(), var, {b.getInt64(0), index});
    return b.CreateLoad(i64, at);
  };

  SmallVector<llvm::Function *> kernels;
  for (int k = 0; k < kKernels; ++k) {
    llvm::Function *f =
        define(("kernel" + Twine(k)).str(), llvm::GlobalValue::InternalLinkage);
    llvm::Value *x = f->getArg(0);
    for (int i = 0; i < kChain; ++i)
      x = b.CreateAdd(
          b.CreateMul(b.CreateXor(x, b.CreateLShr(x, 7)),
                      b.getInt64(2 * i + 3)),
          b.getInt64(k));
    if (k == 0)
      x = b.CreateCall(helper, {x});
    if (k == 1 || k == 2)
      x = b.CreateCall(shared, {x});
    if (k == 3 || k == 4)
      x = b.CreateAdd(x, load(tableVar, x, 4));
    if (k == 5 || k == 0)
      x = b.CreateAdd(x, load(weightsVar, x, kWeights));
    b.CreateRet(x);
    kernels.push_back(f);
  }
  llvm::Function *entry = define("entry", llvm::GlobalValue::ExternalLinkage);
  llvm::Value *sum = b.getInt64(0);
  for (llvm::Function *kernel : kernels)
    sum = b.CreateAdd(sum, b.CreateCall(kernel, {entry->getArg(0)}));
  b.CreateRet(sum);
  return m;
}

/// How many of `objects` define each global symbol.
std::map<std::string, int>
definitions(ArrayRef<std::unique_ptr<llvm::MemoryBuffer>> objects) {
  std::map<std::string, int> defined;
  for (const auto &buffer : objects) {
    auto object =
        llvm::object::ObjectFile::createObjectFile(buffer->getMemBufferRef());
    EXPECT_TRUE(bool(object));
    if (!object) {
      llvm::consumeError(object.takeError());
      continue;
    }
    for (const llvm::object::SymbolRef &symbol : (*object)->symbols()) {
      auto flags = symbol.getFlags();
      auto name = symbol.getName();
      if (!flags || !name) {
        llvm::consumeError(flags.takeError());
        llvm::consumeError(name.takeError());
        continue;
      }
      if ((*flags & llvm::object::SymbolRef::SF_Global) &&
          !(*flags & llvm::object::SymbolRef::SF_Undefined))
        ++defined[name->str()];
    }
  }
  return defined;
}

/// `entry(x)` of the objects linked in a JIT.
uint64_t runEntry(SmallVector<std::unique_ptr<llvm::MemoryBuffer>> objects,
                  uint64_t x) {
  auto jit = llvm::orc::LLJITBuilder().create();
  EXPECT_TRUE(bool(jit));
  if (!jit) {
    llvm::consumeError(jit.takeError());
    return 0;
  }
  for (auto &object : objects)
    if (llvm::Error err = (*jit)->addObjectFile(std::move(object))) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return 0;
    }
  auto address = (*jit)->lookup("entry");
  if (!address) {
    ADD_FAILURE() << llvm::toString(address.takeError());
    return 0;
  }
  return address->toPtr<uint64_t (*)(uint64_t)>()(x);
}

class ObjectCodegenTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(ObjectCodegenTest, PartsLinkAndCompute) {
  unsigned threads = GetParam();
  MLIRContext mlirContext;
  mlirContext.loadDialect<tcc::TCCDialect>();
  llvm::LLVMContext ctx;
  tcc::ObjectCodegenOptions options;
  options.threads = threads;
  options.jitLinked = true; // runEntry links them in ORC
  std::string error;
  auto objects = tcc::compileToObjects(buildModule(ctx),
                                       tcc::getHostTarget(&mlirContext),
                                       options, error);
  ASSERT_TRUE(succeeded(objects)) << error;
  // Nine clusters of some cost (the kernels, the first with its helper;
  // the entry; @shared; the weights): one part each, at most.
  EXPECT_EQ(objects->size(), std::min(threads, 9u));
  std::map<std::string, int> defined = definitions(*objects);
  EXPECT_EQ(defined["entry"], 1);
  for (const auto &[name, count] : defined)
    EXPECT_EQ(count, 1) << name << " is defined in " << count << " parts";
  // The small table is copied, never linked to; the helper of one caller
  // stays beside it.
  EXPECT_EQ(defined.count("table"), 0u);
  EXPECT_EQ(defined.count("helper"), 0u);

  uint64_t expected = 0;
  for (int k = 0; k < kKernels; ++k)
    expected += kernelHere(k, 12345);
  EXPECT_EQ(runEntry(std::move(*objects), 12345), expected);
}

INSTANTIATE_TEST_SUITE_P(Threads, ObjectCodegenTest,
                         ::testing::Values(1u, 2u, 3u, 8u));

// Parts holding a function above fastCodegenInstructions get the fast
// machine passes, the others the full ones; together they still compute
// the module's value.
TEST(ObjectCodegen, LargeFunctionsGetFastMachineCode) {
  MLIRContext mlirContext;
  mlirContext.loadDialect<tcc::TCCDialect>();
  llvm::LLVMContext ctx;
  tcc::ObjectCodegenReport report;
  tcc::ObjectCodegenOptions options;
  options.threads = 8;
  options.jitLinked = true;
  options.fastCodegenInstructions = 3 * kChain; // the kernels: 4 per link
  options.report = &report;
  std::string error;
  auto objects = tcc::compileToObjects(buildModule(ctx),
                                       tcc::getHostTarget(&mlirContext),
                                       options, error);
  ASSERT_TRUE(succeeded(objects)) << error;
  ASSERT_EQ(report.fastCodegen.size(), objects->size());
  // Eight parts: one per kernel, two for the entry, @shared and weights.
  EXPECT_EQ(llvm::count(report.fastCodegen, true), kKernels);
  EXPECT_EQ(llvm::count(report.fastCodegen, false), 8 - kKernels);

  uint64_t expected = 0;
  for (int k = 0; k < kKernels; ++k)
    expected += kernelHere(k, 777);
  EXPECT_EQ(runEntry(std::move(*objects), 777), expected);

  // 0 turns it off.
  options.fastCodegenInstructions = 0;
  llvm::LLVMContext ctx2;
  objects = tcc::compileToObjects(buildModule(ctx2),
                                  tcc::getHostTarget(&mlirContext), options,
                                  error);
  ASSERT_TRUE(succeeded(objects)) << error;
  EXPECT_EQ(llvm::count(report.fastCodegen, true), 0);
}

TEST(ObjectCodegen, SmallModuleStaysWhole) {
  MLIRContext mlirContext;
  mlirContext.loadDialect<tcc::TCCDialect>();
  llvm::LLVMContext ctx;
  auto m = std::make_unique<llvm::Module>("small", ctx);
  llvm::IRBuilder<> b(ctx);
  for (const char *name : {"f", "g"}) {
    auto *f = llvm::Function::Create(
        llvm::FunctionType::get(b.getInt64Ty(), {b.getInt64Ty()}, false),
        llvm::GlobalValue::ExternalLinkage, name, *m);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "", f));
    b.CreateRet(b.CreateAdd(f->getArg(0), b.getInt64(1)));
  }
  tcc::ObjectCodegenOptions options;
  options.threads = 4;
  std::string error;
  auto objects = tcc::compileToObjects(
      std::move(m), tcc::getHostTarget(&mlirContext), options, error);
  ASSERT_TRUE(succeeded(objects)) << error;
  EXPECT_EQ(objects->size(), 1u);
}

} // namespace
