//===- ModelRuntime.cpp - the C ABI of tcc-compile's libraries --*- C++ -*-===//
//
// Implements include/tcc/Runtime/tcc_model.h over the entry table that
// tcc-compile generates into each library (ModelTable.h), plus the few
// symbols compiled code calls besides libc: memrefCopy (MLIR's C runner
// utilities have it; a library must not need MLIR) and the caching
// allocator. No MLIR here.
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/ModelTable.h"
#include "tcc/Runtime/CachingAllocator.h"
#include "tcc/Runtime/HostTensor.h"
#include "tcc/Runtime/tcc_model.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tcc::runtime;

namespace {

thread_local std::string lastError;
// Whether the calling thread's last tcc_run copied a result (a view, or an
// alias of an input or another result) after the compiled code returned.
thread_local bool copiedResult = false;

int fail(int code, std::string message) {
  lastError = std::move(message);
  return code;
}

/// Why the weights file could not be mapped (empty: mapped, or none).
std::string &weightsProblem() {
  static std::string problem;
  return problem;
}

/// This library's path with ".so" (and what follows it: libNAME.so.1)
/// replaced by ".weights".
std::string weightsPath() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<const void *>(&tcc_entries_), &info) ||
      !info.dli_fname)
    return {};
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  size_t so = path.find(".so", slash == std::string::npos ? 0 : slash);
  return path.substr(0, so) + ".weights";
}

/// Maps libNAME.weights (ModelTable.h) when the library was built with its
/// weights beside it. Done when the library is loaded; a problem is
/// reported by every tcc_run.
void mapWeights() {
  if (!tcc_weights_id_)
    return;
  std::string path = weightsPath();
  auto problem = [&](const std::string &what) {
    weightsProblem() = "the weights file " + path + " " + what +
                       " (it is written beside the library by tcc-compile "
                       "and goes with it)";
  };
  int fd = path.empty() ? -1 : open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return problem(std::string("cannot be opened: ") + std::strerror(errno));
  struct stat st;
  uint64_t expected = TCC_WEIGHTS_HEADER_BYTES + tcc_weights_bytes_;
  if (fstat(fd, &st) != 0) {
    close(fd);
    return problem(std::string("cannot be read: ") + std::strerror(errno));
  }
  if (uint64_t(st.st_size) != expected) {
    close(fd);
    return problem("has " + std::to_string(st.st_size) + " bytes, not " +
                   std::to_string(expected));
  }
  void *map = mmap(nullptr, expected, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED)
    return problem(std::string("cannot be mapped: ") + std::strerror(errno));
  tcc_weights_header header;
  std::memcpy(&header, map, sizeof(header));
  if (std::memcmp(header.magic, TCC_WEIGHTS_MAGIC, sizeof(header.magic)) ||
      header.id != tcc_weights_id_ || header.bytes != tcc_weights_bytes_) {
    munmap(map, expected);
    return problem("belongs to another build of the library");
  }
  tcc_weights_base_ = static_cast<const char *>(map) + TCC_WEIGHTS_HEADER_BYTES;
}

__attribute__((constructor)) void mapWeightsOnLoad() { mapWeights(); }

/// dlclose gives the mapping back.
__attribute__((destructor)) void unmapWeightsOnUnload() {
  if (tcc_weights_base_)
    munmap(const_cast<char *>(static_cast<const char *>(tcc_weights_base_)) -
               TCC_WEIGHTS_HEADER_BYTES,
           TCC_WEIGHTS_HEADER_BYTES + tcc_weights_bytes_);
  tcc_weights_base_ = nullptr;
}

const tcc_entry_desc *findEntry(const char *name) {
  for (int i = 0; i < tcc_entry_count_; ++i)
    if (std::strcmp(tcc_entries_[i].name, name) == 0)
      return &tcc_entries_[i];
  return nullptr;
}

std::string shapeText(const int64_t *shape, int rank) {
  std::string s = "[";
  for (int d = 0; d < rank; ++d)
    s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

/// MLIR's unranked memref: the rank and a pointer to the ranked descriptor
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct UnrankedMemRef {
  int64_t rank;
  int64_t *descriptor;
};

/// Copies a strided result view into the contiguous buffer `dst` (both in
/// the library's memory: host, or device, staged through the host).
bool copyResult(void *dst, int64_t allocated, int64_t aligned, int64_t offset,
                const int64_t *sizes, const int64_t *strides, int rank,
                size_t elem);

} // namespace

extern "C" {

const void *tcc_weights_base_ = nullptr;

/// What MLIR's memrefCopy does (CRunnerUtils.cpp): an element-wise strided
/// copy, one contiguous memcpy when both are contiguous.
void memrefCopy(int64_t elemSize, UnrankedMemRef *src, UnrankedMemRef *dst) {
  int64_t rank = src->rank;
  const int64_t *s = src->descriptor, *d = dst->descriptor;
  const char *srcBase = reinterpret_cast<const char *>(s[1]) + s[2] * elemSize;
  char *dstBase = reinterpret_cast<char *>(d[1]) + d[2] * elemSize;
  const int64_t *sizes = s + 3, *srcStrides = s + 3 + rank,
                *dstStrides = d + 3 + rank;
  int64_t n = 1;
  for (int64_t i = 0; i < rank; ++i)
    n *= sizes[i];
  if (n == 0)
    return;
  bool contiguous = true;
  for (int64_t i = rank - 1, expect = 1; i >= 0; --i) {
    if (sizes[i] != 1 &&
        (srcStrides[i] != expect || dstStrides[i] != expect))
      contiguous = false;
    expect *= sizes[i];
  }
  if (contiguous) {
    std::memmove(dstBase, srcBase, n * elemSize);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t so = 0, dof = 0;
    for (int64_t i = 0; i < rank; ++i) {
      so += index[i] * srcStrides[i];
      dof += index[i] * dstStrides[i];
    }
    std::memcpy(dstBase + dof * elemSize, srcBase + so * elemSize, elemSize);
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++index[i] < sizes[i])
        break;
      index[i] = 0;
    }
  }
}

int tcc_run(const char *name, const tcc_tensor *inputs, int numInputs,
            tcc_tensor *results, int numResults) {
  lastError.clear();
  copiedResult = false;
  if (!weightsProblem().empty())
    return fail(7, weightsProblem());
  const tcc_entry_desc *e = name ? findEntry(name) : nullptr;
  if (!e)
    return fail(1, std::string("no entry named '") + (name ? name : "") +
                       "' (see tcc_manifest())");
  if (numInputs != e->num_inputs || numResults != e->num_results)
    return fail(2, std::string(e->name) + " takes " +
                       std::to_string(e->num_inputs) + " inputs and gives " +
                       std::to_string(e->num_results) + " results, got " +
                       std::to_string(numInputs) + " and " +
                       std::to_string(numResults));
  // Descriptors as 64-bit words, one vector per input.
  std::vector<std::vector<int64_t>> descriptors(numInputs);
  std::vector<void *> args(numInputs);
  for (int i = 0; i < numInputs; ++i) {
    const tcc_tensor &t = inputs[i];
    if (t.dtype != e->input_dtypes[i])
      return fail(2, std::string(e->name) + ": input " + std::to_string(i) +
                         " must have dtype " +
                         dtypeName(static_cast<DType>(e->input_dtypes[i])) +
                         ", got " +
                         (t.dtype >= 0 && t.dtype < TCC_NUM_DTYPES
                              ? dtypeName(static_cast<DType>(t.dtype))
                              : "an unknown dtype"));
    if (t.rank != e->input_ranks[i])
      return fail(2, std::string(e->name) + ": input " + std::to_string(i) +
                         " must have rank " +
                         std::to_string(e->input_ranks[i]) + ", got " +
                         std::to_string(t.rank));
    for (int d = 0; d < t.rank; ++d)
      if (t.shape[d] < 0)
        return fail(2, std::string(e->name) + ": input " + std::to_string(i) +
                           " has a negative size " +
                           shapeText(t.shape, t.rank));
    auto ptr = reinterpret_cast<int64_t>(t.data);
    std::vector<int64_t> &w = descriptors[i];
    w = {ptr, ptr, 0};
    w.insert(w.end(), t.shape, t.shape + t.rank);
    std::vector<int64_t> strides(t.rank);
    for (int64_t d = t.rank - 1, stride = 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= t.shape[d];
    }
    w.insert(w.end(), strides.begin(), strides.end());
    args[i] = w.data();
  }
  // Results: the guard status, then one descriptor per result.
  size_t words = 1;
  for (int r = 0; r < numResults; ++r)
    words += 3 + 2 * e->result_ranks[r];
  std::vector<int64_t> out(words, 0);
  e->call(out.data(), args.data());
  if (tcc_memory_.error)
    if (const char *deviceError = tcc_memory_.error())
      return fail(5, std::string(e->name) + ": " + deviceError);
  if (int64_t status = out[0]) {
    std::string shapes;
    for (int i = 0; i < numInputs; ++i)
      shapes += (i ? ", " : "") + shapeText(inputs[i].shape, inputs[i].rank);
    std::string rule = status >= 1 && status <= e->num_guards
                           ? e->guards[status - 1]
                           : "guard " + std::to_string(status);
    return fail(3, std::string(e->name) + ": input sizes " + shapes +
                       " violate " + rule);
  }
  // Hand each result over; copy where it aliases an input or an earlier
  // result, or is not contiguous from offset 0.
  size_t w = 1;
  for (int r = 0; r < numResults; ++r) {
    int rank = e->result_ranks[r];
    int64_t allocated = out[w], aligned = out[w + 1], offset = out[w + 2];
    const int64_t *sizes = &out[w + 3], *strides = &out[w + 3 + rank];
    w += 3 + 2 * rank;
    tcc_tensor &t = results[r];
    t.dtype = e->result_dtypes[r];
    t.rank = rank;
    int64_t n = 1;
    for (int d = 0; d < rank; ++d)
      n *= t.shape[d] = sizes[d];
    size_t elem = dtypeSize(static_cast<DType>(t.dtype));
    bool contiguous = offset == 0;
    for (int64_t d = rank - 1, expect = 1; d >= 0; --d) {
      if (sizes[d] != 1 && strides[d] != expect)
        contiguous = false;
      expect *= sizes[d];
    }
    bool shared = allocated == 0;
    for (int i = 0; i < numInputs; ++i)
      shared |= reinterpret_cast<int64_t>(inputs[i].data) == allocated;
    for (int q = 0; q < r; ++q)
      shared |= reinterpret_cast<int64_t>(results[q].owner) == allocated;
    if (contiguous && !shared) {
      t.data = reinterpret_cast<void *>(aligned);
      t.owner = reinterpret_cast<void *>(allocated);
      continue;
    }
    size_t bytes = n * elem;
    copiedResult = true;
    void *copy = tcc_memory_.alloc(bytes > 0 ? bytes : 1);
    if (!copy)
      return fail(4, "out of memory for result " + std::to_string(r));
    if (!copyResult(copy, allocated, aligned, offset, sizes, strides, rank,
                    elem))
      return fail(5, std::string(e->name) + ": copying result " +
                         std::to_string(r) + " failed" +
                         (tcc_memory_.error ? std::string(": ") +
                                                  tcc_memory_.error()
                                            : std::string()));
    t.data = t.owner = copy;
  }
  // Allocations that no result owns now (copied views, duplicates) are
  // freed once; inputs are the caller's.
  std::vector<int64_t> freed;
  for (int r = 0, w = 1; r < numResults; w += 3 + 2 * e->result_ranks[r++]) {
    int64_t allocated = out[w];
    bool keep = allocated == 0;
    for (int i = 0; i < numInputs; ++i)
      keep |= reinterpret_cast<int64_t>(inputs[i].data) == allocated;
    for (int q = 0; q < numResults; ++q)
      keep |= reinterpret_cast<int64_t>(results[q].owner) == allocated;
    for (int64_t f : freed)
      keep |= f == allocated;
    if (!keep) {
      tcc_memory_.release(reinterpret_cast<void *>(allocated));
      freed.push_back(allocated);
    }
  }
  return 0;
}

int tcc_run_on_stream(const char *name, const tcc_tensor *inputs,
                      int numInputs, tcc_tensor *results, int numResults,
                      void *stream) {
  if (!tcc_memory_.set_stream)
    return fail(6, "a stream needs a library built with --target=cuda");
  tcc_memory_.set_stream(stream, 1);
  int rc = tcc_run(name, inputs, numInputs, results, numResults);
  tcc_memory_.set_stream(nullptr, 0);
  return rc;
}

struct tcc_graph {
  void *graph;
};

int tcc_graph_create(const char *name, const tcc_tensor *inputs,
                     int numInputs, tcc_tensor *results, int numResults,
                     tcc_graph **graph) {
  if (graph)
    *graph = nullptr;
  if (!graph || !tcc_memory_.begin_capture)
    return fail(6, "CUDA graphs need a library built with --target=cuda");
  tcc_memory_.begin_capture();
  int rc = tcc_run(name, inputs, numInputs, results, numResults);
  void *captured = tcc_memory_.end_capture();
  if (rc != 0) {
    if (captured)
      tcc_memory_.graph_destroy(captured);
    return rc;
  }
  if (!captured) {
    const char *why = tcc_memory_.error ? tcc_memory_.error() : nullptr;
    return fail(6, std::string(name) + ": the call could not be captured as "
                                       "a CUDA graph" +
                       (why ? std::string(": ") + why : std::string()));
  }
  if (copiedResult) {
    // The copy ran after the captured stream ended: replays would not
    // refresh it.
    tcc_memory_.graph_destroy(captured);
    return fail(6, std::string(name) +
                       ": a result aliases an input or another result, or "
                       "is a strided view: not supported with CUDA graphs");
  }
  for (int r = 0; r < numResults; ++r)
    results[r].owner = nullptr; // the graph's, not the caller's to release
  *graph = new tcc_graph{captured};
  return 0;
}

int tcc_graph_launch(tcc_graph *graph) {
  lastError.clear();
  if (!graph)
    return fail(6, "tcc_graph_launch: no graph");
  if (tcc_memory_.graph_launch(graph->graph) != 0) {
    const char *why = tcc_memory_.error ? tcc_memory_.error() : nullptr;
    return fail(5, std::string("replaying the CUDA graph failed") +
                       (why ? std::string(": ") + why : std::string()));
  }
  return 0;
}

int tcc_graph_launch_on_stream(tcc_graph *graph, void *stream) {
  lastError.clear();
  if (!graph || !tcc_memory_.graph_launch_on)
    return fail(6, "tcc_graph_launch_on_stream: no graph");
  if (tcc_memory_.graph_launch_on(graph->graph, stream) != 0) {
    const char *why = tcc_memory_.error ? tcc_memory_.error() : nullptr;
    return fail(5, std::string("queueing the CUDA graph failed") +
                       (why ? std::string(": ") + why : std::string()));
  }
  return 0;
}

void tcc_graph_destroy(tcc_graph *graph) {
  if (!graph)
    return;
  tcc_memory_.graph_destroy(graph->graph);
  delete graph;
}

void tcc_release(tcc_tensor *result) {
  if (!result || !result->owner)
    return;
  tcc_memory_.release(result->owner);
  result->owner = result->data = nullptr;
}

const char *tcc_last_error(void) { return lastError.c_str(); }

const char *tcc_manifest(void) { return tcc_manifest_; }

int tcc_num_entries(void) { return tcc_entry_count_; }

const char *tcc_entry_name(int i) {
  return i >= 0 && i < tcc_entry_count_ ? tcc_entries_[i].name : nullptr;
}

int tcc_entry_arity(const char *name, int *numInputs, int *numResults) {
  const tcc_entry_desc *e = name ? findEntry(name) : nullptr;
  if (!e)
    return 1;
  if (numInputs)
    *numInputs = e->num_inputs;
  if (numResults)
    *numResults = e->num_results;
  return 0;
}

} // extern "C"

namespace {

bool copyResult(void *dst, int64_t allocated, int64_t aligned, int64_t offset,
                const int64_t *sizes, const int64_t *strides, int rank,
                size_t elem) {
  (void)allocated;
  int64_t n = 1, last = offset; // last element index the view reaches
  for (int d = 0; d < rank; ++d) {
    n *= sizes[d];
    if (sizes[d] > 0)
      last += (sizes[d] - 1) * strides[d];
  }
  if (n == 0)
    return true;
  int64_t srcDesc[3 + 2 * TCC_MAX_RANK] = {aligned, aligned, offset};
  int64_t dstDesc[3 + 2 * TCC_MAX_RANK] = {0, 0, 0};
  for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
    srcDesc[3 + d] = dstDesc[3 + d] = sizes[d];
    srcDesc[3 + rank + d] = strides[d];
    dstDesc[3 + rank + d] = stride;
    stride *= sizes[d];
  }
  if (!tcc_memory_.device) {
    dstDesc[0] = dstDesc[1] = reinterpret_cast<int64_t>(dst);
    UnrankedMemRef src{rank, srcDesc}, out{rank, dstDesc};
    memrefCopy(static_cast<int64_t>(elem), &src, &out);
    return true;
  }
  // Device memory: the span the view covers comes to the host, is
  // compacted there and goes back.
  std::vector<char> span((last + 1) * elem), packed(n * elem);
  if (tcc_memory_.copy(span.data(), reinterpret_cast<void *>(aligned),
                       span.size()) != 0)
    return false;
  srcDesc[0] = srcDesc[1] = reinterpret_cast<int64_t>(span.data());
  dstDesc[0] = dstDesc[1] = reinterpret_cast<int64_t>(packed.data());
  UnrankedMemRef src{rank, srcDesc}, out{rank, dstDesc};
  memrefCopy(static_cast<int64_t>(elem), &src, &out);
  return tcc_memory_.copy(dst, packed.data(), packed.size()) == 0;
}

} // namespace
