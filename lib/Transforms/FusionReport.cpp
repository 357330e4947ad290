//===- FusionReport.cpp - what --fuse decided, as JSON and DOT --*- C++ -*-===//

#include "tcc/Transforms/FusionReport.h"

#include "llvm/Support/JSON.h"

using namespace mlir::tcc;
namespace json = llvm::json;

static json::Value toJSON(const ReportBytes &b) {
  json::Object o{{"expr", b.expr}};
  if (b.value)
    o["value"] = *b.value;
  return o;
}

static json::Value toJSON(const ReportValue &v) {
  return json::Object{{"name", v.name},
                      {"type", v.type},
                      {"shape", v.shape},
                      {"bytes", toJSON(v.bytes)}};
}

void FusionReport::writeJSON(llvm::raw_ostream &os) const {
  json::Array functionsJSON;
  for (const ReportFunction &f : functions) {
    json::Array groupsJSON;
    for (const ReportGroup &g : f.groups) {
      json::Array inputs, outputs, ops, notes, producers;
      for (const ReportValue &v : g.inputs)
        inputs.push_back(toJSON(v));
      for (const ReportValue &v : g.outputs)
        outputs.push_back(toJSON(v));
      for (const std::string &op : g.ops)
        ops.push_back(op);
      for (const std::string &n : g.notes)
        notes.push_back(n);
      for (const std::string &p : g.producers)
        producers.push_back(p);
      groupsJSON.push_back(json::Object{
          {"id", g.id},
          {"kind", g.kind},
          {"ops", std::move(ops)},
          {"inputs", std::move(inputs)},
          {"outputs", std::move(outputs)},
          {"bytes_read", toJSON(g.bytesRead)},
          {"bytes_written", toJSON(g.bytesWritten)},
          {"unfused_kernels", g.unfusedKernels},
          {"unfused_bytes", toJSON(g.unfusedBytes)},
          {"producers", std::move(producers)},
          {"notes", std::move(notes)}});
    }
    functionsJSON.push_back(json::Object{
        {"name", f.name},
        {"groups", std::move(groupsJSON)},
        {"totals",
         json::Object{{"kernels_before", f.kernelsBefore},
                      {"kernels_after", f.kernelsAfter},
                      {"bytes_before", toJSON(f.bytesBefore)},
                      {"bytes_after", toJSON(f.bytesAfter)},
                      {"bytes_saved", toJSON(f.bytesSaved)}}}});
  }
  json::Object sizesJSON;
  for (const auto &[name, value] : sizes)
    sizesJSON[name] = value;
  json::Value root = json::Object{{"target", target},
                                  {"sizes", std::move(sizesJSON)},
                                  {"functions", std::move(functionsJSON)}};
  os << llvm::formatv("{0:2}", root) << "\n";
}

/// Escapes `s` for a double-quoted DOT string.
static std::string dotEscape(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

static std::string bytesLabel(const ReportBytes &b) {
  if (b.value)
    return std::to_string(*b.value) + " B";
  return b.expr + " B";
}

void FusionReport::writeDot(llvm::raw_ostream &os) const {
  os << "digraph fusion {\n  rankdir=TB;\n  node [fontname=\"monospace\"];\n";
  for (const ReportFunction &f : functions) {
    std::string prefix = f.name + ".";
    os << "  subgraph \"cluster_" << dotEscape(f.name) << "\" {\n";
    os << "    label=\"@" << dotEscape(f.name) << ": " << f.kernelsBefore
       << " -> " << f.kernelsAfter << " kernels, "
       << dotEscape(bytesLabel(f.bytesBefore)) << " -> "
       << dotEscape(bytesLabel(f.bytesAfter)) << "\";\n";
    std::map<std::string, bool> args;
    for (const ReportGroup &g : f.groups)
      for (const std::string &p : g.producers)
        if (llvm::StringRef(p).starts_with("arg:"))
          args[p] = true;
    for (const std::string &r : f.returned)
      if (llvm::StringRef(r).starts_with("arg:"))
        args[r] = true;
    for (const auto &[a, _] : args)
      os << "    \"" << dotEscape(prefix + a) << "\" [shape=ellipse, label=\""
         << dotEscape(llvm::StringRef(a).drop_front(4)) << "\"];\n";
    for (const ReportGroup &g : f.groups) {
      std::string label = "#" + std::to_string(g.id) + " " + g.kind + "\\n";
      for (const std::string &op : g.ops)
        label += dotEscape(op) + "\\n";
      label += "reads " + dotEscape(bytesLabel(g.bytesRead)) + "\\nwrites " +
               dotEscape(bytesLabel(g.bytesWritten));
      os << "    \"" << dotEscape(prefix + std::to_string(g.id))
         << "\" [shape=box, label=\"" << label << "\"];\n";
      for (const std::string &p : g.producers)
        os << "    \"" << dotEscape(prefix + p) << "\" -> \""
           << dotEscape(prefix + std::to_string(g.id)) << "\";\n";
    }
    os << "    \"" << dotEscape(prefix + "return")
       << "\" [shape=ellipse, label=\"return\"];\n";
    for (const std::string &r : f.returned)
      os << "    \"" << dotEscape(prefix + r) << "\" -> \""
         << dotEscape(prefix + "return") << "\";\n";
    os << "  }\n";
  }
  os << "}\n";
}
