//===- TCCAttrs.cpp - tcc dialect attributes --------------------*- C++ -*-===//
//
// Symbolic size expressions are AffineExprs over symbols s<i>; the text form
// spells s<i> by name. One recursive-descent grammar, instantiated on MLIR's
// AsmParser (for #tcc.shape) and on a small string lexer (for constraint
// strings and command-line options):
//
//   expr   := term (('+' | '-') term)*
//   term   := factor (('*' factor) | ('floordiv' | 'ceildiv' | 'mod' | '%') int)*
//   factor := int | name | '(' expr ')' | '-' factor
//
//===----------------------------------------------------------------------===//

#include "tcc/Dialect/TCC/IR/TCCAttrs.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tcc;

#define GET_ATTRDEF_CLASSES
#include "tcc/Dialect/TCC/IR/TCCAttrs.cpp.inc"

void TCCDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tcc/Dialect/TCC/IR/TCCAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// The expression grammar
//===----------------------------------------------------------------------===//

namespace {

bool isKeyword(StringRef s) {
  return s == "floordiv" || s == "ceildiv" || s == "mod";
}

/// Tokens of constraint strings and options.
class StringLexer {
public:
  explicit StringLexer(StringRef text) : text(text) {}

  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }
  bool consume(StringRef tok) {
    skipSpace();
    if (!text.substr(pos).starts_with(tok))
      return false;
    // `<` must not match the start of `<=`.
    if ((tok == "<" || tok == ">") && text.substr(pos).starts_with(tok.str() + "="))
      return false;
    pos += tok.size();
    return true;
  }
  bool consumeKeyword(StringRef kw) {
    skipSpace();
    size_t end = identEnd();
    if (text.slice(pos, end) != kw)
      return false;
    pos = end;
    return true;
  }
  std::optional<std::string> identifier() {
    skipSpace();
    size_t end = identEnd();
    if (end == pos || llvm::isDigit(text[pos]) || isKeyword(text.slice(pos, end)))
      return std::nullopt;
    std::string s = text.slice(pos, end).str();
    pos = end;
    return s;
  }
  std::optional<int64_t> integer() {
    skipSpace();
    size_t end = pos;
    while (end < text.size() && llvm::isDigit(text[end]))
      ++end;
    int64_t v;
    if (end == pos || text.slice(pos, end).getAsInteger(10, v))
      return std::nullopt;
    pos = end;
    return v;
  }
  bool atEnd() {
    skipSpace();
    return pos == text.size();
  }
  std::string where() {
    skipSpace();
    if (pos == text.size())
      return "at the end of '" + text.str() + "'";
    return "at '" + text.substr(pos).str() + "' in '" + text.str() + "'";
  }

private:
  size_t identEnd() const {
    size_t end = pos;
    while (end < text.size() && (llvm::isAlnum(text[end]) || text[end] == '_'))
      ++end;
    return end;
  }
  StringRef text;
  size_t pos = 0;
};

/// The same token interface over MLIR's attribute parser.
class AsmLexer {
public:
  explicit AsmLexer(AsmParser &p) : p(p) {}
  bool consume(StringRef tok) {
    if (tok == "+")
      return succeeded(p.parseOptionalPlus());
    if (tok == "-")
      return succeeded(p.parseOptionalMinus());
    if (tok == "*")
      return succeeded(p.parseOptionalStar());
    if (tok == "(")
      return succeeded(p.parseOptionalLParen());
    if (tok == ")")
      return succeeded(p.parseOptionalRParen());
    return false;
  }
  bool consumeKeyword(StringRef kw) {
    return succeeded(p.parseOptionalKeyword(kw));
  }
  std::optional<std::string> identifier() {
    StringRef kw;
    if (failed(p.parseOptionalKeyword(&kw)))
      return std::nullopt;
    return kw.str();
  }
  std::optional<int64_t> integer() {
    uint64_t v;
    OptionalParseResult r = p.parseOptionalInteger(v);
    if (!r.has_value() || failed(*r) || v > (uint64_t)INT64_MAX)
      return std::nullopt;
    return (int64_t)v;
  }
  std::string where() { return "in #tcc.shape"; }

private:
  AsmParser &p;
};

template <typename Lexer> class ExprParser {
public:
  ExprParser(Lexer &lex, MLIRContext *ctx, SmallVectorImpl<std::string> &names,
             std::string &error)
      : lex(lex), ctx(ctx), names(names), error(error) {}

  FailureOr<AffineExpr> parseExpr() {
    FailureOr<AffineExpr> lhs = parseTerm();
    if (failed(lhs))
      return failure();
    while (true) {
      bool plus = lex.consume("+");
      if (!plus && !lex.consume("-"))
        return lhs;
      FailureOr<AffineExpr> rhs = parseTerm();
      if (failed(rhs))
        return failure();
      lhs = plus ? *lhs + *rhs : *lhs - *rhs;
    }
  }

private:
  FailureOr<AffineExpr> parseTerm() {
    FailureOr<AffineExpr> lhs = parseFactor();
    if (failed(lhs))
      return failure();
    while (true) {
      if (lex.consume("*")) {
        FailureOr<AffineExpr> rhs = parseFactor();
        if (failed(rhs))
          return failure();
        lhs = *lhs * *rhs;
        continue;
      }
      StringRef op;
      if (lex.consumeKeyword("floordiv"))
        op = "floordiv";
      else if (lex.consumeKeyword("ceildiv"))
        op = "ceildiv";
      else if (lex.consumeKeyword("mod") || lex.consume("%"))
        op = "mod";
      else
        return lhs;
      std::optional<int64_t> k = lex.integer();
      if (!k || *k <= 0)
        return fail("expected a positive integer after '" + op.str() + "'");
      if (op == "floordiv")
        lhs = lhs->floorDiv(*k);
      else if (op == "ceildiv")
        lhs = lhs->ceilDiv(*k);
      else
        lhs = *lhs % *k;
    }
  }

  FailureOr<AffineExpr> parseFactor() {
    if (lex.consume("-")) {
      FailureOr<AffineExpr> e = parseFactor();
      if (failed(e))
        return failure();
      return -*e;
    }
    if (lex.consume("(")) {
      FailureOr<AffineExpr> e = parseExpr();
      if (failed(e))
        return failure();
      if (!lex.consume(")"))
        return fail("expected ')'");
      return e;
    }
    if (std::optional<int64_t> v = lex.integer())
      return getAffineConstantExpr(*v, ctx);
    if (std::optional<std::string> name = lex.identifier()) {
      if (isKeyword(*name))
        return fail("expected a size, got '" + *name + "'");
      auto it = llvm::find(names, *name);
      unsigned pos = it - names.begin();
      if (it == names.end())
        names.push_back(*name);
      return getAffineSymbolExpr(pos, ctx);
    }
    return fail("expected a size (integer, name or parenthesized expression)");
  }

  FailureOr<AffineExpr> fail(const std::string &msg) {
    error = msg + " " + lex.where();
    return failure();
  }

  Lexer &lex;
  MLIRContext *ctx;
  SmallVectorImpl<std::string> &names;
  std::string &error;
};

} // namespace

FailureOr<AffineExpr>
mlir::tcc::parseSymbolicExpr(StringRef text, MLIRContext *ctx,
                             SmallVectorImpl<std::string> &names,
                             std::string &error) {
  StringLexer lex(text);
  ExprParser<StringLexer> parser(lex, ctx, names, error);
  FailureOr<AffineExpr> e = parser.parseExpr();
  if (succeeded(e) && !lex.atEnd()) {
    error = "unexpected text " + lex.where();
    return failure();
  }
  return e;
}

std::string mlir::tcc::printSymbolicExpr(AffineExpr expr,
                                         ArrayRef<std::string> names) {
  std::string raw;
  llvm::raw_string_ostream os(raw);
  expr.print(os);
  // MLIR spells symbols s<i>; every other identifier it prints is a keyword.
  std::string out;
  for (size_t i = 0; i < raw.size();) {
    bool start = i == 0 || !(llvm::isAlnum(raw[i - 1]) || raw[i - 1] == '_');
    if (start && raw[i] == 's' && i + 1 < raw.size() && llvm::isDigit(raw[i + 1])) {
      size_t j = i + 1;
      while (j < raw.size() && llvm::isDigit(raw[j]))
        ++j;
      unsigned id = std::stoul(raw.substr(i + 1, j - i - 1));
      out += id < names.size() ? names[id] : raw.substr(i, j - i);
      i = j;
      continue;
    }
    out += raw[i++];
  }
  return out;
}

std::optional<int64_t>
mlir::tcc::evaluateSymbolicExpr(AffineExpr expr, ArrayRef<int64_t> values) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  if (auto s = dyn_cast<AffineSymbolExpr>(expr)) {
    if (s.getPosition() >= values.size() || values[s.getPosition()] < 0)
      return std::nullopt;
    return values[s.getPosition()];
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> l = evaluateSymbolicExpr(bin.getLHS(), values);
  std::optional<int64_t> r = evaluateSymbolicExpr(bin.getRHS(), values);
  if (!l || !r)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return *l + *r;
  case AffineExprKind::Mul:
    return *l * *r;
  case AffineExprKind::FloorDiv:
    if (*r == 0)
      return std::nullopt;
    return *l / *r - ((*l % *r != 0) && ((*l < 0) != (*r < 0)));
  case AffineExprKind::CeilDiv:
    if (*r == 0)
      return std::nullopt;
    return *l / *r + ((*l % *r != 0) && ((*l < 0) == (*r < 0)));
  case AffineExprKind::Mod: {
    if (*r == 0)
      return std::nullopt;
    int64_t m = *l % *r;
    return m < 0 ? m + std::abs(*r) : m;
  }
  default:
    return std::nullopt;
  }
}

FailureOr<SymbolConstraint>
mlir::tcc::parseSymbolConstraint(StringRef text, MLIRContext *ctx,
                                 SmallVectorImpl<std::string> &names,
                                 std::string &error) {
  StringLexer lex(text);
  ExprParser<StringLexer> parser(lex, ctx, names, error);
  SmallVector<AffineExpr> exprs;
  SmallVector<std::string> ops;
  while (true) {
    FailureOr<AffineExpr> e = parser.parseExpr();
    if (failed(e))
      return failure();
    exprs.push_back(*e);
    std::string op;
    for (StringRef candidate : {"<=", ">=", "==", "<", ">"})
      if (lex.consume(candidate)) {
        op = candidate.str();
        break;
      }
    if (op.empty())
      break;
    ops.push_back(op);
  }
  auto fail = [&](const std::string &msg) -> FailureOr<SymbolConstraint> {
    error = "constraint '" + text.str() + "': " + msg;
    return failure();
  };
  if (!lex.atEnd())
    return fail("unexpected text " + lex.where());
  auto constant = [](AffineExpr e) -> std::optional<int64_t> {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return c.getValue();
    return std::nullopt;
  };
  SymbolConstraint c;
  if (ops.size() == 1 && ops[0] == "==") {
    // `e mod k == 0` is divisibility; anything else an equality.
    auto bin = dyn_cast<AffineBinaryOpExpr>(exprs[0]);
    if (bin && bin.getKind() == AffineExprKind::Mod && constant(exprs[1]) == 0 &&
        constant(bin.getRHS())) {
      c.kind = SymbolConstraint::Kind::Divisible;
      c.lhs = bin.getLHS();
      c.divisor = *constant(bin.getRHS());
      return c;
    }
    c.kind = SymbolConstraint::Kind::Equal;
    c.lhs = exprs[0];
    c.rhs = exprs[1];
    return c;
  }
  // Ranges: every comparison has a constant on one side.
  c.kind = SymbolConstraint::Kind::Range;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i] == "==")
      return fail("'==' cannot be chained with other comparisons");
    AffineExpr l = exprs[i], r = exprs[i + 1];
    bool less = ops[i][0] == '<';
    int64_t strict = ops[i].size() == 1 ? 1 : 0;
    std::optional<int64_t> lc = constant(l), rc = constant(r);
    AffineExpr subject = lc ? r : l;
    if ((lc && rc) || (!lc && !rc))
      return fail("each comparison needs a constant on one side");
    if (c.lhs && c.lhs != subject)
      return fail("compares two different sizes");
    c.lhs = subject;
    // Normalize to subject <= max or subject >= min.
    bool upper = rc ? less : !less;
    int64_t bound = rc ? *rc : *lc;
    if (upper)
      c.max = std::min(c.max, bound - strict);
    else
      c.min = std::max(c.min, bound + strict);
  }
  if (ops.empty())
    return fail("expected a comparison (<=, >=, <, >, ==)");
  return c;
}

//===----------------------------------------------------------------------===//
// ShapeAttr
//===----------------------------------------------------------------------===//

ShapeAttr ShapeAttr::get(MLIRContext *ctx, ArrayRef<AffineExpr> dims,
                         ArrayRef<std::string> names) {
  // Renumber the symbols that occur, in order of first use.
  SmallVector<int64_t> remap(names.size(), -1);
  SmallVector<StringAttr> used;
  SmallVector<AffineExpr> replacements;
  for (AffineExpr d : dims)
    d.walk([&](AffineExpr e) {
      if (auto s = dyn_cast<AffineSymbolExpr>(e))
        if (remap[s.getPosition()] < 0) {
          remap[s.getPosition()] = used.size();
          used.push_back(StringAttr::get(ctx, names[s.getPosition()]));
        }
    });
  for (size_t i = 0; i < names.size(); ++i)
    replacements.push_back(getAffineSymbolExpr(remap[i] < 0 ? 0 : remap[i], ctx));
  SmallVector<AffineExpr> renumbered;
  for (AffineExpr d : dims)
    renumbered.push_back(d.replaceSymbols(replacements));
  return get(ctx, AffineMap::get(0, used.size(), renumbered, ctx), used);
}

SmallVector<AffineExpr>
ShapeAttr::getDims(SmallVectorImpl<std::string> &names) const {
  SmallVector<AffineExpr> replacements;
  for (StringAttr s : getSymbols()) {
    auto it = llvm::find(names, s.getValue().str());
    unsigned pos = it - names.begin();
    if (it == names.end())
      names.push_back(s.getValue().str());
    replacements.push_back(getAffineSymbolExpr(pos, getContext()));
  }
  SmallVector<AffineExpr> dims;
  for (AffineExpr e : getMap().getResults())
    dims.push_back(e.replaceSymbols(replacements));
  return dims;
}

LogicalResult
ShapeAttr::verify(function_ref<InFlightDiagnostic()> emitError, AffineMap map,
                  ArrayRef<StringAttr> symbols) {
  if (map.getNumDims() != 0 || map.getNumSymbols() != symbols.size())
    return emitError() << "#tcc.shape expects a map with no dims and one "
                          "symbol per name";
  for (AffineExpr e : map.getResults())
    if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() < 0)
      return emitError() << "#tcc.shape: a size cannot be negative, got "
                         << c.getValue();
  return success();
}

Attribute ShapeAttr::parse(AsmParser &p, Type) {
  SmallVector<std::string> names;
  SmallVector<AffineExpr> dims;
  AsmLexer lex(p);
  std::string error;
  ExprParser<AsmLexer> parser(lex, p.getContext(), names, error);
  llvm::SMLoc loc = p.getCurrentLocation();
  if (p.parseLess() ||
      p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
        FailureOr<AffineExpr> e = parser.parseExpr();
        if (failed(e))
          return p.emitError(p.getCurrentLocation(), error);
        dims.push_back(*e);
        return ParseResult::success();
      }) ||
      p.parseGreater())
    return {};
  for (AffineExpr e : dims)
    if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() < 0) {
      p.emitError(loc) << "#tcc.shape: a size cannot be negative, got "
                       << c.getValue();
      return {};
    }
  return ShapeAttr::get(p.getContext(), dims, names);
}

void ShapeAttr::print(AsmPrinter &p) const {
  SmallVector<std::string> names;
  for (StringAttr s : getSymbols())
    names.push_back(s.getValue().str());
  p << "<[";
  llvm::interleaveComma(getMap().getResults(), p.getStream(),
                        [&](AffineExpr e) { p << printSymbolicExpr(e, names); });
  p << "]>";
}

std::optional<SizeBinding> mlir::tcc::parseSizeBinding(StringRef text) {
  auto [name, value] = text.split('=');
  int64_t v;
  if (name.trim().empty() || value.trim().getAsInteger(10, v) || v < 0)
    return std::nullopt;
  return SizeBinding{name.trim().str(), v};
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

bool TargetAttr::hasFeature(StringRef name) const {
  return llvm::is_contained(llvm::split(getFeatures(), ','),
                            ("+" + name).str());
}

bool TargetAttr::hasLibrary(StringRef library) const {
  ArrayAttr libraries = getLibraries();
  return libraries && llvm::any_of(libraries, [&](Attribute l) {
           auto name = dyn_cast<StringAttr>(l);
           return name && name.getValue() == library;
         });
}

LogicalResult
TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef kind,
                   StringRef arch, StringRef features, int64_t vectorBits,
                   int64_t onChipBytes, int64_t bandwidth, int64_t peakFlops,
                   int64_t launchNs, int64_t relayoutBandwidth,
                   int64_t alignment, ArrayAttr libraries) {
  if (kind != "cpu" && kind != "cuda")
    return emitError() << "unknown target kind '" << kind
                       << "' (expected cpu or cuda)";
  if (vectorBits < 32 || onChipBytes <= 0 || bandwidth <= 0 ||
      peakFlops <= 0 || launchNs < 0 || relayoutBandwidth <= 0)
    return emitError() << "expects vector_bits >= 32 and positive "
                          "on_chip_bytes, bandwidth, peak_flops and "
                          "relayout_bandwidth (launch_ns >= 0)";
  if (alignment <= 0 || (alignment & (alignment - 1)))
    return emitError() << "expects a power-of-two alignment, got "
                       << alignment;
  if (libraries && !llvm::all_of(libraries, llvm::IsaPred<StringAttr>))
    return emitError() << "expects libraries to be strings";
  return success();
}
