//===- Workspace.cpp - the arena's memory, from the caller ------*- C++ -*-===//

#include "tcc/Runtime/Workspace.h"

#include "tcc/Runtime/CachingAllocator.h"

using namespace tcc::runtime;

namespace {
thread_local Workspace *current = nullptr;
} // namespace

void tcc::runtime::setCurrentWorkspace(Workspace *workspace) {
  current = workspace;
}

Workspace::~Workspace() {
  tccFree(own);
  tccFree(temporary);
}

void Workspace::setCallerBuffer(void *ptr, size_t bytes) {
  // Compiled code may use aligned (and non-temporal) vector stores into the
  // arena: start at the first 64-byte boundary of the buffer.
  auto address = reinterpret_cast<uintptr_t>(ptr);
  uintptr_t aligned = (address + 63) & ~uintptr_t(63);
  size_t skipped = aligned - address;
  if (!ptr || skipped > bytes) {
    callerPtr = nullptr;
    callerSize = 0;
    return;
  }
  callerPtr = reinterpret_cast<void *>(aligned);
  callerSize = bytes - skipped;
}

void Workspace::beginCall() {
  requested = 0;
  tooLarge = false;
}

void *Workspace::acquire(size_t bytes) {
  requested = bytes;
  if (callerPtr) {
    if (bytes <= callerSize)
      return callerPtr;
    // Never past the caller's buffer: this call runs on a block of its own
    // and is reported as failed.
    tooLarge = true;
    tccFree(temporary);
    temporary = tccMalloc(bytes ? bytes : 1);
    return temporary;
  }
  if (bytes > ownSize) {
    tccFree(own);
    own = tccMalloc(bytes ? bytes : 1);
    ownSize = own ? bytes : 0;
  }
  return own;
}

void Workspace::endCall() {
  tccFree(temporary);
  temporary = nullptr;
}

extern "C" void _mlir_ciface_tcc_workspace(ByteMemRef *result, int64_t bytes) {
  size_t n = bytes > 0 ? size_t(bytes) : 0;
  // Outside an executable's call (an embedder that set none): a block of
  // this thread's own, grown as needed and reused.
  thread_local Workspace perThread;
  void *p = (current ? current : &perThread)->acquire(n);
  auto *bytesPtr = static_cast<int8_t *>(p);
  *result = ByteMemRef{bytesPtr, bytesPtr, 0, {bytes}, {1}};
}
