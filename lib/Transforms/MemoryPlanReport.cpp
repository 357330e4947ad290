//===- MemoryPlanReport.cpp - the memory plan as JSON and SVG ---*- C++ -*-===//

#include "tcc/Transforms/MemoryPlanReport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace mlir::tcc;
namespace json = llvm::json;

/// A number where the binding gave one, else the expression.
static json::Value bytesValue(const ReportBytes &b) {
  if (b.value)
    return *b.value;
  return b.expr;
}

void MemoryPlanReport::writeJSON(llvm::raw_ostream &os) const {
  json::Array functionsJSON;
  for (const MemoryPlanFunction &f : functions) {
    json::Array buffersJSON, regionsJSON;
    for (const MemoryPlanBuffer &b : f.buffers) {
      json::Object o{{"name", b.name},
                     {"region", b.region},
                     {"size_bytes", bytesValue(b.size)},
                     {"size_expr", b.size.expr},
                     {"offset_bytes", bytesValue(b.offset)},
                     {"offset_expr", b.offset.expr},
                     {"first_use", b.firstUse},
                     {"last_use", b.lastUse}};
      if (b.inPlaceOf)
        o["in_place_of"] = *b.inPlaceOf;
      buffersJSON.push_back(std::move(o));
    }
    for (const MemoryPlanRegion &r : f.regions)
      regionsJSON.push_back(json::Object{{"scale", r.scale},
                                         {"size_units", r.sizeUnits},
                                         {"naive_units", r.naiveUnits},
                                         {"lower_bound_units",
                                          r.lowerBoundUnits}});
    functionsJSON.push_back(json::Object{
        {"name", f.name},
        {"strategy", f.strategy},
        {"reordered", f.reordered},
        {"alignment", f.alignment},
        {"peak_bytes", bytesValue(f.peak)},
        {"peak_expr", f.peak.expr},
        {"lower_bound_bytes", bytesValue(f.lowerBound)},
        {"lower_bound_expr", f.lowerBound.expr},
        {"naive_bytes", bytesValue(f.naive)},
        {"naive_expr", f.naive.expr},
        {"regions", std::move(regionsJSON)},
        {"buffers", std::move(buffersJSON)}});
  }
  json::Object sizesJSON;
  for (const auto &[name, value] : sizes)
    sizesJSON[name] = value;
  os << llvm::formatv(
      "{0:2}", json::Value(json::Object{{"sizes", std::move(sizesJSON)},
                                        {"functions",
                                         std::move(functionsJSON)}}));
  os << "\n";
}

/// Escapes text for SVG.
static std::string escape(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '&': out += "&amp;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

static std::string humanBytes(int64_t b) {
  char buf[32];
  if (b >= (1 << 20))
    snprintf(buf, sizeof(buf), "%.1f MiB", b / 1048576.0);
  else if (b >= 1024)
    snprintf(buf, sizeof(buf), "%.1f KiB", b / 1024.0);
  else
    snprintf(buf, sizeof(buf), "%lld B", (long long)b);
  return buf;
}

void MemoryPlanReport::writeSVG(llvm::raw_ostream &os) const {
  const int width = 900, panelHeight = 320, margin = 60, top = 40;
  int height = std::max<int>(1, functions.size()) * (panelHeight + top + 40);
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width + 2 * margin
     << "\" height=\"" << height << "\" font-family=\"sans-serif\" "
     << "font-size=\"11\">\n";
  static const char *colors[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                 "#80b1d3", "#fdb462", "#b3de69", "#fccde5"};
  int y0 = 0;
  for (const MemoryPlanFunction &f : functions) {
    int64_t peak = std::max<int64_t>(1, f.peak.value.value_or(1));
    int64_t bound = f.lowerBound.value.value_or(0);
    int64_t steps = std::max<int64_t>(1, f.numOps);
    double xs = double(width) / steps, ys = double(panelHeight) / peak;
    int base = y0 + top + panelHeight; // offset 0
    os << "<text x=\"" << margin << "\" y=\"" << y0 + 20 << "\" font-size=\"14\">@"
       << escape(f.name) << ": peak " << humanBytes(peak) << ", lower bound "
       << humanBytes(bound) << ", without reuse "
       << humanBytes(f.naive.value.value_or(0)) << " (" << escape(f.strategy)
       << (f.reordered ? ", reordered" : "") << ")</text>\n";
    os << "<rect x=\"" << margin << "\" y=\"" << y0 + top << "\" width=\""
       << width << "\" height=\"" << panelHeight
       << "\" fill=\"none\" stroke=\"#999\"/>\n";
    for (auto [i, b] : llvm::enumerate(f.buffers)) {
      int64_t off = b.offset.value.value_or(0), size = b.size.value.value_or(0);
      double x = margin + b.firstUse * xs;
      double w = std::max(1.0, (b.lastUse - b.firstUse + 1) * xs);
      double h = std::max(1.0, size * ys);
      double y = base - (off + size) * ys;
      os << llvm::format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\" fill=\"%s\" stroke=\"#333\">",
                         x, y, w, h, colors[i % 8])
         << "<title>" << escape(b.name) << ": " << humanBytes(size) << " at "
         << humanBytes(off) << ", ops " << b.firstUse << ".." << b.lastUse
         << (b.inPlaceOf ? ", in place of " + *b.inPlaceOf : "")
         << "</title></rect>\n";
      if (h >= 12 && w >= 30)
        os << llvm::format("<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + 12)
           << escape(b.name) << "</text>\n";
    }
    double boundY = base - bound * ys;
    os << llvm::format("<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
                       "stroke=\"red\" stroke-dasharray=\"4 3\"/>\n",
                       margin, margin + width, boundY, boundY);
    os << llvm::format("<text x=\"%d\" y=\"%.1f\" fill=\"red\">lower bound</text>\n",
                       margin + width + 4, boundY + 4);
    os << "<text x=\"" << margin << "\" y=\"" << base + 16
       << "\">top-level op index (time) &#8594;</text>\n";
    os << "<text x=\"4\" y=\"" << y0 + top + 10 << "\">offset</text>\n";
    y0 += panelHeight + top + 40;
  }
  os << "</svg>\n";
}
