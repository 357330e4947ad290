//===- TCCLibOps.cpp - tcc_lib dialect --------------------------*- C++ -*-===//
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tcc::tcc_lib;

#include "tcc/Dialect/TCCLib/IR/TCCLibDialect.cpp.inc"

void TCCLibDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// `async [%t0, %t1]`: the gpu dialect's syntax for async dependencies (its
// printer and parser are private to GPUDialect.cpp).
//===----------------------------------------------------------------------===//

static ParseResult parseAsyncDependencies(
    OpAsmParser &parser, Type &asyncTokenType,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &asyncDependencies) {
  if (succeeded(parser.parseOptionalKeyword("async")))
    asyncTokenType = parser.getBuilder().getType<gpu::AsyncTokenType>();
  return parser.parseOperandList(asyncDependencies,
                                 OpAsmParser::Delimiter::OptionalSquare);
}

static void printAsyncDependencies(OpAsmPrinter &printer, Operation *,
                                   Type asyncTokenType,
                                   OperandRange asyncDependencies) {
  if (asyncTokenType)
    printer << "async";
  if (asyncDependencies.empty())
    return;
  if (asyncTokenType)
    printer << ' ';
  printer << '[';
  llvm::interleaveComma(asyncDependencies, printer);
  printer << ']';
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

/// Whether two dims can be the same size (dynamic dims always can).
static bool compatible(int64_t x, int64_t y) {
  return ShapedType::isDynamic(x) || ShapedType::isDynamic(y) || x == y;
}

LogicalResult GemmOp::verify() {
  auto a = cast<MemRefType>(getA().getType());
  auto b = cast<MemRefType>(getB().getType());
  auto d = cast<MemRefType>(getD().getType());
  int64_t rank = d.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError("expects d of rank 2 or 3 (batched), got ") << rank;
  if (a.getRank() != rank)
    return emitOpError("expects a of rank ") << rank << ", got "
                                             << a.getRank();
  if (b.getRank() != 2 && b.getRank() != rank)
    return emitOpError("expects b of rank 2 or ") << rank << ", got "
                                                  << b.getRank();
  Type element = d.getElementType();
  Type input = a.getElementType();
  if (b.getElementType() != input ||
      (input != element && !(element.isF32() && (input.isF16() ||
                                                  input.isBF16()))))
    return emitOpError("expects a, b and d of one element type, or f16/bf16 "
                       "a and b with an f32 d");
  ArrayRef<int64_t> as = a.getShape().take_back(2);
  ArrayRef<int64_t> bs = b.getShape().take_back(2);
  ArrayRef<int64_t> ds = d.getShape().take_back(2);
  if (!compatible(as[0], ds[0]))
    return emitOpError("a has ") << as[0] << " rows but d has " << ds[0];
  if (!compatible(bs[1], ds[1]))
    return emitOpError("b has ") << bs[1] << " columns but d has " << ds[1];
  if (!compatible(as[1], bs[0]))
    return emitOpError("a has ")
           << as[1] << " columns but b has " << bs[0] << " rows";
  if (rank == 3) {
    if (!compatible(a.getDimSize(0), d.getDimSize(0)) ||
        (b.getRank() == 3 && !compatible(b.getDimSize(0), d.getDimSize(0))))
      return emitOpError("expects one batch size for a, b and d");
  }
  if (Value c = getC()) {
    auto ct = cast<MemRefType>(c.getType());
    if (ct.getElementType() != element || ct.getRank() != rank)
      return emitOpError("expects c of d's element type and rank");
    for (int64_t i = 0; i < rank; ++i)
      if (!compatible(ct.getDimSize(i), d.getDimSize(i)))
        return emitOpError("expects c of d's shape");
  }
  if (Value bias = getBias()) {
    auto bt = cast<MemRefType>(bias.getType());
    if (bt.getElementType() != element || bt.getRank() != 1 ||
        !compatible(bt.getDimSize(0), ds[1]))
      return emitOpError("expects bias of d's element type and shape [N]");
  }
  StringRef epilogue = getEpilogue();
  if (epilogue != "none" && epilogue != "relu" && epilogue != "gelu" &&
      epilogue != "gelu_tanh")
    return emitOpError("has unknown epilogue '")
           << epilogue << "'; expected none, relu, gelu or gelu_tanh";
  if (getScratch() && getAsyncToken())
    return emitOpError("has scratch on a stream: only host calls (no async "
                       "token) take one");
  if (epilogue.starts_with("gelu") && getAsyncToken())
    return emitOpError("has a GELU epilogue on a stream: only host calls "
                       "(no async token) take one");
  return success();
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

LogicalResult AttentionOp::verify() {
  auto q = cast<MemRefType>(getQ().getType());
  auto k = cast<MemRefType>(getK().getType());
  auto v = cast<MemRefType>(getV().getType());
  auto out = cast<MemRefType>(getOut().getType());
  int64_t rank = q.getRank();
  if (rank != 3 && rank != 4)
    return emitOpError("expects operands of rank 3 or 4, got ") << rank;
  for (MemRefType t : {k, v, out}) {
    if (t.getRank() != rank)
      return emitOpError("expects q, k, v and out of one rank");
    if (t.getElementType() != q.getElementType())
      return emitOpError("expects q, k, v and out of one element type");
  }
  int64_t dim = q.getDimSize(rank - 1);
  if (dim != 64 && dim != 128)
    return emitOpError("expects a static head dim of 64 or 128, got ")
           << (ShapedType::isDynamic(dim) ? std::string("?")
                                          : std::to_string(dim));
  if (q.getElementType().isF32() && dim != 64)
    return emitOpError("expects a head dim of 64 for f32, got ") << dim;
  for (MemRefType t : {k, v, out})
    if (t.getDimSize(rank - 1) != dim)
      return emitOpError("expects q, k, v and out of one head dim");
  // Leading dims: one batch (and head count) for all; rows: q's are out's,
  // k's are v's.
  for (int64_t d = 0; d < rank - 2; ++d)
    for (MemRefType t : {k, v, out})
      if (!compatible(q.getDimSize(d), t.getDimSize(d)))
        return emitOpError("expects one size of dim ") << d << " for all";
  if (!compatible(q.getDimSize(rank - 2), out.getDimSize(rank - 2)))
    return emitOpError("expects as many out rows as q rows");
  if (!compatible(k.getDimSize(rank - 2), v.getDimSize(rank - 2)))
    return emitOpError("expects as many v rows as k rows");
  return success();
}

//===----------------------------------------------------------------------===//
// ConvOp
//===----------------------------------------------------------------------===//

LogicalResult ConvOp::verify() {
  auto x = cast<MemRefType>(getX().getType());
  auto w = cast<MemRefType>(getWeight().getType());
  auto out = cast<MemRefType>(getOut().getType());
  if (x.getRank() != 4 || w.getRank() != 4 || out.getRank() != 4)
    return emitOpError("expects x, weight and out of rank 4");
  Type element = x.getElementType();
  if (w.getElementType() != element || out.getElementType() != element)
    return emitOpError("expects x, weight and out of one element type");
  auto pairOf = [&](ArrayRef<int64_t> v, StringRef name,
                    int64_t least) -> LogicalResult {
    if (v.size() != 2)
      return emitOpError("expects two ") << name << ", got " << v.size();
    if (v[0] < least || v[1] < least)
      return emitOpError("expects ") << name << " >= " << least;
    return success();
  };
  if (failed(pairOf(getStrides(), "strides", 1)) ||
      failed(pairOf(getPadding(), "padding", 0)) ||
      failed(pairOf(getDilations(), "dilations", 1)))
    return failure();
  int64_t groups = getGroups();
  if (groups < 1)
    return emitOpError("expects groups >= 1, got ") << groups;
  if (!compatible(x.getDimSize(0), out.getDimSize(0)))
    return emitOpError("expects one batch size for x and out");
  if (!compatible(w.getDimSize(0), out.getDimSize(1)))
    return emitOpError("expects as many out channels as weight rows");
  int64_t c = x.getDimSize(1), wc = w.getDimSize(1), o = w.getDimSize(0);
  if (!ShapedType::isDynamic(c) && !ShapedType::isDynamic(wc) &&
      c != wc * groups)
    return emitOpError("expects x's ")
           << c << " channels to be groups (" << groups
           << ") x the weight's " << wc;
  if (!ShapedType::isDynamic(o) && o % groups != 0)
    return emitOpError("expects the ")
           << o << " out channels to divide into " << groups << " groups";
  // Output sizes, where x, the weight and out are static.
  for (int64_t d = 0; d < 2; ++d) {
    int64_t in = x.getDimSize(2 + d), k = w.getDimSize(2 + d);
    int64_t size = out.getDimSize(2 + d);
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k) ||
        ShapedType::isDynamic(size))
      continue;
    int64_t expected = (in + 2 * getPadding()[d] -
                        getDilations()[d] * (k - 1) - 1) /
                           getStrides()[d] +
                       1;
    if (size != expected)
      return emitOpError("expects out dim ")
             << 2 + d << " of size " << expected << ", got " << size;
  }
  if (Value bias = getBias()) {
    auto bt = cast<MemRefType>(bias.getType());
    if (bt.getElementType() != element || bt.getRank() != 1 ||
        !compatible(bt.getDimSize(0), out.getDimSize(1)))
      return emitOpError("expects bias of out's element type and shape [O]");
  }
  if (Value residual = getResidual()) {
    auto rt = cast<MemRefType>(residual.getType());
    if (rt.getElementType() != element || rt.getRank() != 4)
      return emitOpError("expects residual of out's element type and rank");
    for (int64_t i = 0; i < 4; ++i)
      if (!compatible(rt.getDimSize(i), out.getDimSize(i)))
        return emitOpError("expects residual of out's shape");
  }
  if (getActivation() != "none" && getActivation() != "relu")
    return emitOpError("has unknown activation '")
           << getActivation() << "'; expected none or relu";
  if (getScratch() && getAsyncToken())
    return emitOpError("has scratch on a stream: only host calls (no async "
                       "token) take one");
  return success();
}

#define GET_OP_CLASSES
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.cpp.inc"
