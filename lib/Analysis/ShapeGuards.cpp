//===- ShapeGuards.cpp - what an entry point checks before it runs -*- C++ -*-===//

#include "tcc/Analysis/ShapeGuards.h"
#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tcc;

FailureOr<ShapeGuards> ShapeGuards::build(FunctionOpInterface func,
                                          std::string &error) {
  ShapeGuards g;
  MLIRContext *ctx = func->getContext();
  SmallVector<std::string> names;
  // Dims of every shaped argument, from #tcc.shape or the type.
  SmallVector<SmallVector<AffineExpr>> dims;
  SmallVector<std::pair<unsigned, int64_t>> defs;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto t = dyn_cast<ShapedType>(func.getArgumentTypes()[i]);
    auto nameAttr = func.getArgAttrOfType<StringAttr>(i, kArgNameAttr);
    g.inputNames.push_back(nameAttr ? nameAttr.getValue().str() : "");
    SmallVector<AffineExpr> d;
    if (t && t.hasRank()) {
      auto attr = func.getArgAttrOfType<ShapeAttr>(i, kShapeAttr);
      if (attr && attr.getRank() == t.getRank())
        d = attr.getDims(names);
      for (int64_t k = 0; k < t.getRank(); ++k) {
        if (!t.isDynamicDim(k))
          d.resize(std::max<size_t>(d.size(), k + 1)),
              d[k] = getAffineConstantExpr(t.getDimSize(k), ctx);
        else if ((int64_t)d.size() <= k || !d[k]) {
          // Unnamed and unannotated: a symbol of its own.
          names.push_back("input " + std::to_string(i) + " dim " +
                          std::to_string(k));
          d.resize(std::max<size_t>(d.size(), k + 1));
          d[k] = getAffineSymbolExpr(names.size() - 1, ctx);
        }
      }
    }
    dims.push_back(d);
  }
  defs.assign(names.size(), {~0u, -1});

  std::vector<ShapeGuard> deferred;
  for (unsigned i = 0; i < dims.size(); ++i)
    for (int64_t k = 0; k < (int64_t)dims[i].size(); ++k) {
      AffineExpr e = dims[i][k];
      ShapeGuard guard;
      guard.input = i;
      guard.dim = k;
      if (auto c = dyn_cast<AffineConstantExpr>(e)) {
        guard.kind = ShapeGuard::Kind::StaticDim;
        guard.value = c.getValue();
        if (auto dimNames = func.getArgAttrOfType<ArrayAttr>(i, kDimNamesAttr);
            dimNames && k < (int64_t)dimNames.size())
          guard.name = cast<StringAttr>(dimNames[k]).getValue().str();
        g.guards.push_back(guard);
      } else if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
        auto &def = defs[s.getPosition()];
        if (def.first == ~0u) {
          def = {i, k};
          continue;
        }
        guard.kind = ShapeGuard::Kind::SameDim;
        guard.refInput = def.first;
        guard.refDim = def.second;
        guard.lhs = e;
        g.guards.push_back(guard);
      } else {
        guard.kind = ShapeGuard::Kind::DimExpr;
        guard.lhs = e;
        deferred.push_back(guard);
      }
    }
  llvm::append_range(g.guards, deferred);

  if (auto list = func->getAttrOfType<ArrayAttr>(kConstraintsAttr))
    for (Attribute attr : list) {
      auto text = dyn_cast<StringAttr>(attr);
      if (!text) {
        error = "tcc.constraints must be strings";
        return failure();
      }
      FailureOr<SymbolConstraint> c =
          parseSymbolConstraint(text.getValue(), ctx, names, error);
      if (failed(c))
        return failure();
      ShapeGuard guard;
      guard.lhs = c->lhs;
      guard.rhs = c->rhs;
      switch (c->kind) {
      case SymbolConstraint::Kind::Range:
        guard.kind = ShapeGuard::Kind::Range;
        guard.min = c->min;
        guard.max = c->max;
        break;
      case SymbolConstraint::Kind::Divisible:
        guard.kind = ShapeGuard::Kind::Divisible;
        guard.divisor = c->divisor;
        break;
      case SymbolConstraint::Kind::Equal:
        guard.kind = ShapeGuard::Kind::Equal;
        break;
      }
      g.guards.push_back(guard);
    }
  defs.resize(names.size(), {~0u, -1});
  // Every symbol a guard reads must be defined by an input dim.
  for (const ShapeGuard &guard : g.guards)
    for (AffineExpr e : {guard.lhs, guard.rhs})
      if (e) {
        bool ok = true;
        std::string missing;
        e.walk([&](AffineExpr s) {
          if (auto sym = dyn_cast<AffineSymbolExpr>(s))
            if (defs[sym.getPosition()].first == ~0u) {
              ok = false;
              missing = names[sym.getPosition()];
            }
        });
        if (!ok) {
          error = "the shape constraints name " + missing +
                  ", which no input dim defines";
          return failure();
        }
      }
  g.names.assign(names.begin(), names.end());
  g.definitions.assign(defs.begin(), defs.end());
  return g;
}

std::vector<int64_t> ShapeGuards::symbolValues(
    const std::vector<std::vector<int64_t>> &shapes) const {
  std::vector<int64_t> values(names.size(), -1);
  for (size_t s = 0; s < names.size(); ++s) {
    auto [i, d] = definitions[s];
    if (i < shapes.size() && d >= 0 && d < (int64_t)shapes[i].size())
      values[s] = shapes[i][d];
  }
  return values;
}

std::string ShapeGuards::inputDim(unsigned input, int64_t dim) const {
  std::string s = "input " + std::to_string(input);
  if (input < inputNames.size() && !inputNames[input].empty())
    s += " (" + inputNames[input] + ")";
  return s + " dim " + std::to_string(dim);
}

std::string ShapeGuards::describe(size_t index) const {
  const ShapeGuard &g = guards[index];
  auto input = [&](unsigned i, int64_t d) { return inputDim(i, d); };
  auto expr = [&](AffineExpr e) {
    return printSymbolicExpr(e, ArrayRef<std::string>(names));
  };
  switch (g.kind) {
  case ShapeGuard::Kind::StaticDim:
    return input(g.input, g.dim) + " == " + std::to_string(g.value) +
           (g.name.empty() ? "" : " (" + g.name + ")");
  case ShapeGuard::Kind::SameDim:
    return input(g.input, g.dim) + " == " + input(g.refInput, g.refDim) +
           " (" + expr(g.lhs) + ")";
  case ShapeGuard::Kind::DimExpr:
    return input(g.input, g.dim) + " == " + expr(g.lhs);
  case ShapeGuard::Kind::Range:
    return expr(g.lhs) + " in [" +
           (g.min != INT64_MIN ? std::to_string(g.min) : std::string("-inf")) +
           ", " +
           (g.max == INT64_MAX ? std::string("inf") : std::to_string(g.max)) +
           "]";
  case ShapeGuard::Kind::Divisible:
    return expr(g.lhs) + " % " + std::to_string(g.divisor) + " == 0";
  case ShapeGuard::Kind::Equal:
    return expr(g.lhs) + " == " + expr(g.rhs);
  }
  return "";
}

std::optional<std::pair<size_t, std::string>>
ShapeGuards::check(const std::vector<std::vector<int64_t>> &shapes) const {
  std::vector<int64_t> values = symbolValues(shapes);
  auto input = [&](unsigned i, int64_t d) { return inputDim(i, d); };
  auto expr = [&](AffineExpr e) {
    return printSymbolicExpr(e, ArrayRef<std::string>(names));
  };
  auto eval = [&](AffineExpr e) -> int64_t {
    return evaluateSymbolicExpr(e, values).value_or(-1);
  };
  // "B = 5" or "(H - 1) floordiv 2 + 1 = 4 (H = 8)".
  auto valueOf = [&](AffineExpr e) {
    if (isa<AffineConstantExpr>(e))
      return std::to_string(eval(e));
    std::string s = expr(e) + " = " + std::to_string(eval(e));
    if (!isa<AffineSymbolExpr>(e)) {
      std::string bindings;
      e.walk([&](AffineExpr sub) {
        if (auto sym = dyn_cast<AffineSymbolExpr>(sub)) {
          std::string b = names[sym.getPosition()] + " = " +
                          std::to_string(values[sym.getPosition()]);
          if (bindings.find(b) == std::string::npos)
            bindings += (bindings.empty() ? "" : ", ") + b;
        }
      });
      if (!bindings.empty())
        s += " (" + bindings + ")";
    }
    return s;
  };
  for (size_t k = 0; k < guards.size(); ++k) {
    const ShapeGuard &g = guards[k];
    auto actual = [&]() -> int64_t {
      if (g.input >= shapes.size() || g.dim >= (int64_t)shapes[g.input].size())
        return -1;
      return shapes[g.input][g.dim];
    };
    std::string msg;
    switch (g.kind) {
    case ShapeGuard::Kind::StaticDim:
      if (actual() != g.value)
        msg = input(g.input, g.dim) + ": expected " + std::to_string(g.value) +
              (g.name.empty() ? "" : " (" + g.name + ")") + ", got " +
              std::to_string(actual());
      break;
    case ShapeGuard::Kind::SameDim: {
      int64_t ref = shapes[g.refInput][g.refDim];
      if (actual() != ref)
        msg = input(g.input, g.dim) + " must equal " +
              input(g.refInput, g.refDim) + " (" + expr(g.lhs) + "): " +
              std::to_string(actual()) + " vs " + std::to_string(ref);
      break;
    }
    case ShapeGuard::Kind::DimExpr:
      if (actual() != eval(g.lhs))
        msg = input(g.input, g.dim) + ": expected " + valueOf(g.lhs) +
              ", got " + std::to_string(actual());
      break;
    case ShapeGuard::Kind::Range: {
      int64_t v = eval(g.lhs);
      if (v < g.min || v > g.max)
        msg = valueOf(g.lhs) + " outside [" +
              (g.min != INT64_MIN ? std::to_string(g.min)
               : isa<AffineSymbolExpr>(g.lhs) ? std::string("0") // a size
                                               : std::string("-inf")) +
              ", " +
              (g.max == INT64_MAX ? std::string("inf") : std::to_string(g.max)) +
              "]";
      break;
    }
    case ShapeGuard::Kind::Divisible:
      if (eval(g.lhs) % g.divisor != 0)
        msg = valueOf(g.lhs) + " is not a multiple of " +
              std::to_string(g.divisor);
      break;
    case ShapeGuard::Kind::Equal:
      if (eval(g.lhs) != eval(g.rhs))
        msg = "shape constraint " + expr(g.lhs) + " == " + expr(g.rhs) +
              " does not hold: " + valueOf(g.lhs) + " vs " + valueOf(g.rhs);
      break;
    }
    if (!msg.empty())
      return std::make_pair(k, msg);
  }
  return std::nullopt;
}
