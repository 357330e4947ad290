//===- WorkspaceTest.cpp - the arena's memory from the caller ---*- C++ -*-===//

#include "tcc/Runtime/CachingAllocator.h"
#include "tcc/Runtime/Workspace.h"

#include "gtest/gtest.h"

#include <vector>

using namespace tcc::runtime;

namespace {

ByteMemRef request(int64_t bytes) {
  ByteMemRef m{};
  _mlir_ciface_tcc_workspace(&m, bytes);
  return m;
}

TEST(Workspace, CallerBufferWhenLargeEnough) {
  alignas(64) static char buffer[4096];
  Workspace ws;
  ws.setCallerBuffer(buffer, sizeof(buffer));
  setCurrentWorkspace(&ws);
  ws.beginCall();
  ByteMemRef m = request(1000);
  EXPECT_EQ(m.aligned, reinterpret_cast<int8_t *>(buffer));
  EXPECT_EQ(m.sizes[0], 1000);
  EXPECT_EQ(m.strides[0], 1);
  EXPECT_FALSE(ws.lastRequestTooLarge());
  EXPECT_EQ(ws.lastRequestBytes(), 1000u);
  ws.endCall();
  setCurrentWorkspace(nullptr);
}

TEST(Workspace, CallerBufferStartsAtA64ByteBoundary) {
  alignas(64) static char buffer[4096];
  Workspace ws;
  ws.setCallerBuffer(buffer + 8, 1000);
  EXPECT_EQ(ws.callerBytes(), 1000u - 56);
  setCurrentWorkspace(&ws);
  ws.beginCall();
  ByteMemRef m = request(900);
  EXPECT_EQ(m.aligned, reinterpret_cast<int8_t *>(buffer + 64));
  EXPECT_FALSE(ws.lastRequestTooLarge());
  ws.endCall();
  setCurrentWorkspace(nullptr);
}

TEST(Workspace, TooSmallCallerBufferIsNeverOverrun) {
  alignas(64) static char buffer[256];
  Workspace ws;
  ws.setCallerBuffer(buffer, sizeof(buffer));
  setCurrentWorkspace(&ws);
  ws.beginCall();
  ByteMemRef m = request(1 << 20);
  // A block of its own, as large as asked for, and the call is flagged.
  EXPECT_NE(m.aligned, reinterpret_cast<int8_t *>(buffer));
  ASSERT_NE(m.aligned, nullptr);
  m.aligned[(1 << 20) - 1] = 1; // writable to its end
  EXPECT_TRUE(ws.lastRequestTooLarge());
  ws.endCall();
  ws.beginCall();
  EXPECT_FALSE(ws.lastRequestTooLarge());
  ws.endCall();
  setCurrentWorkspace(nullptr);
}

TEST(Workspace, OwnBlockGrowsOnceThenIsReused) {
  Workspace ws;
  setCurrentWorkspace(&ws);
  ws.beginCall();
  int8_t *first = request(1 << 16).aligned;
  ws.endCall();
  uint64_t before = allocationCount();
  for (int i = 0; i < 10; ++i) {
    ws.beginCall();
    EXPECT_EQ(request(1 << 16).aligned, first);
    EXPECT_EQ(request(100).aligned, first);
    ws.endCall();
  }
  EXPECT_EQ(allocationCount(), before); // no allocation in steady state
  ws.beginCall();
  int8_t *grown = request(1 << 18).aligned;
  ASSERT_NE(grown, nullptr);
  grown[(1 << 18) - 1] = 1;
  ws.endCall();
  setCurrentWorkspace(nullptr);
}

} // namespace
