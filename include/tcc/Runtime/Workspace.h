//===- Workspace.h - the arena's memory, from the caller --------*- C++ -*-===//
//
// Compiled with a workspace (CPUPipelineOptions::workspace, tcc-run
// --workspace), compiled code takes its arena from the workspace of the
// call instead of allocating it: `tcc_workspace(bytes)` returns the
// caller's buffer when it is large enough, else a block the workspace owns
// (grown once, then reused by every call). A call that needs more than the
// caller's buffer runs on a temporary block, never past the buffer's end,
// and the executable reports the call as failed with both sizes.
//
// One call at a time per workspace: concurrent calls of one executable
// need workspaces of their own (or none).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_WORKSPACE_H
#define TCC_RUNTIME_WORKSPACE_H

#include <cstddef>
#include <cstdint>

namespace tcc::runtime {

class Workspace {
public:
  Workspace() = default;
  Workspace(const Workspace &) = delete;
  Workspace &operator=(const Workspace &) = delete;
  ~Workspace();

  /// Uses the caller's `bytes` at `ptr` (not owned) from now on, from its
  /// first 64-byte boundary (callerBytes() says what is left); nullptr goes
  /// back to a block of the workspace's own.
  void setCallerBuffer(void *ptr, size_t bytes);
  size_t callerBytes() const { return callerSize; }

  /// Bytes the last call asked for.
  size_t lastRequestBytes() const { return requested; }
  /// Whether the last call asked for more than the caller's buffer.
  bool lastRequestTooLarge() const { return tooLarge; }

  /// For the compiled code (through tcc_workspace): `bytes` of memory that
  /// stays valid until endCall().
  void *acquire(size_t bytes);
  /// Ends a call: frees the temporary block of a call that did not fit.
  void beginCall();
  void endCall();

private:
  void *callerPtr = nullptr;
  size_t callerSize = 0;
  void *own = nullptr;
  size_t ownSize = 0;
  void *temporary = nullptr;
  size_t requested = 0;
  bool tooLarge = false;
};

/// The workspace of calls made on this thread (nullptr: none).
void setCurrentWorkspace(Workspace *workspace);

/// The memref descriptor of a memref<?xi8>.
struct ByteMemRef {
  int8_t *allocated;
  int8_t *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};

} // namespace tcc::runtime

/// Called by compiled code (the C interface of
/// `func.func private @tcc_workspace(index) -> memref<?xi8>`).
extern "C" void _mlir_ciface_tcc_workspace(tcc::runtime::ByteMemRef *result,
                                           int64_t bytes);

#endif // TCC_RUNTIME_WORKSPACE_H
