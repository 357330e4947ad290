// The cuda pipeline end to end on the host: tcc -> fused linalg -> one GPU
// kernel per fused op -> NVVM -> PTX for sm_90 (format=isa) embedded in a
// gpu.binary, host code in the LLVM dialect with device allocations and
// launches. CI has no GPU: this checks the PTX; cuda-pipeline-cubin.mlir
// assembles it with ptxas.

// RUN: tcc-opt %s --tcc-cuda-pipeline="format=isa" --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-cuda-pipeline="format=isa cublaslt=false" --split-input-file | FileCheck %s --check-prefix=GENERATED
// RUN: tcc-opt %s --tcc-cuda-pipeline="format=isa flash-attention=false" --split-input-file | FileCheck %s --check-prefix=UNFUSED
// RUN: tcc-opt %s --tcc-cuda-pipeline="format=isa cudnn=false" --split-input-file | FileCheck %s --check-prefix=NOCUDNN

// add + relu + mul by a broadcast row: one fused kernel. Four consecutive
// columns per thread, read and written with 16-byte vector accesses when
// the pointers are aligned (else the scalar body); the sizes are constants
// in the kernel, not parameters. The result buffer is device memory;
// allocation and launch are queued on one stream that the host waits for
// once, before returning.
// CHECK-LABEL: llvm.func @add_relu_mul
//       CHECK:   %[[S:.+]] = llvm.call @mgpuStreamCreate
//       CHECK:   llvm.call @mgpuMemAlloc(%{{.+}}, %[[S]]
//       CHECK:   gpu.launch_func <%[[S]] : !llvm.ptr> @add_relu_mul_kernels::@add_relu_mul_loop blocks in
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   llvm.call @mgpuStreamSynchronize(%[[S]])
//       CHECK: gpu.binary @add_relu_mul_kernels [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80", link = ["{{.*}}/nvvm/libdevice/libdevice.10.bc"]>
//  CHECK-SAME: .target sm_90
//  CHECK-SAME: .visible .entry add_relu_mul_loop(
//  CHECK-SAME: .maxntid 256, 1, 1
//  CHECK-SAME: %tid.x
//  CHECK-SAME: %ctaid.x
//   CHECK-NOT: div.s64
//  CHECK-SAME: and.b64 {{.*}}, 15;
//  CHECK-SAME: ld.global.b32
//  CHECK-SAME: st.global.b32
//  CHECK-SAME: ld.global.v4.b32
//  CHECK-SAME: add.rn.f32
//  CHECK-SAME: max.NaN.f32
//  CHECK-SAME: mul.rn.f32
//  CHECK-SAME: st.global.v4.b32
func.func @add_relu_mul(%a: tensor<1024x4096xf32>, %b: tensor<1024x4096xf32>, %c: tensor<4096xf32>) -> tensor<1024x4096xf32> {
  %0 = tcc.add %a, %b : (tensor<1024x4096xf32>, tensor<1024x4096xf32>) -> tensor<1024x4096xf32>
  %1 = tcc.relu %0 : (tensor<1024x4096xf32>) -> tensor<1024x4096xf32>
  %2 = tcc.mul %1, %c : (tensor<1024x4096xf32>, tensor<4096xf32>) -> tensor<1024x4096xf32>
  return %2 : tensor<1024x4096xf32>
}

// -----

// Softmax over rows of a dynamic batch: the entry guard checks the row
// length on the host before anything is allocated or launched; the whole
// group (max, exp, sum, scale) is one kernel, a block of 256 threads per
// row, 16 columns each held in registers: 4 16-byte vector loads and 4
// vector stores per thread (16 scalar ones where a pointer is not
// aligned), reductions by warp shuffles and one shared-memory exchange
// (one bar.sync each), the max and sum never written to memory; exp is
// libdevice's __nv_expf, linked and inlined (ex2.approx), not left an
// unresolved extern.
// CHECK-LABEL: llvm.func @softmax
//       CHECK:   llvm.icmp "eq" %{{.+}}, %{{.+}} : i64
//       CHECK:   %[[S:.+]] = llvm.call @mgpuStreamCreate
//       CHECK:   gpu.launch_func <%[[S]] : !llvm.ptr> @softmax_kernels::@softmax_row_group
//  CHECK-SAME:     threads in (%[[T:.+]], %{{.+}}, %{{.+}})
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   llvm.call @mgpuStreamSynchronize(%[[S]])
//   CHECK-NOT: __nv_expf
//       CHECK: gpu.binary @softmax_kernels [
//  CHECK-SAME: .maxntid 256, 1, 1
//  CHECK-SAME: .shared .align 4 .b8
//  CHECK-SAME: and.b64 {{.*}}, 15;
// CHECK-COUNT-16: ld.global.b32
//  CHECK-SAME: shfl.sync.bfly.b32
//  CHECK-SAME: bar.sync
//  CHECK-SAME: ex2.approx.ftz.f32
// CHECK-COUNT-16: st.global.b32
// CHECK-COUNT-4: ld.global.v4.b32
//  CHECK-SAME: shfl.sync.bfly.b32
//  CHECK-SAME: bar.sync
//  CHECK-SAME: ex2.approx.ftz.f32
// CHECK-COUNT-4: st.global.v4.b32
//   CHECK-NOT: st.global
//   CHECK-NOT: __nv_expf
func.func @softmax(%x: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %y = tcc.softmax %x {axis = 1 : i64} : (tensor<?x4096xf32>) -> tensor<?x4096xf32>
  return %y : tensor<?x4096xf32>
}

// -----

// A linear over a dynamic batch, with bias and ReLU: the product and its
// epilogue are one cuBLASLt call (tccGemm) queued on the call's stream;
// no kernel is generated for it. With cublaslt=false it is a kernel.
// CHECK-LABEL: llvm.func @linear_relu
//       CHECK:   %[[S:.+]] = llvm.call @mgpuStreamCreate
//       CHECK:   llvm.call @tccGemm(%[[S]], %{{.+}}) : (!llvm.ptr, !llvm.ptr) -> ()
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   llvm.call @mgpuStreamSynchronize(%[[S]])
//   CHECK-NOT: gpu.binary
// GENERATED-LABEL: llvm.func @linear_relu
//   GENERATED-NOT:   tccGemm
//       GENERATED:   gpu.launch_func
func.func @linear_relu(%x: tensor<?x256xf32> {tcc.shape = #tcc.shape<[N, 256]>},
                       %w: tensor<512x256xf32>, %b: tensor<512xf32>)
    -> tensor<?x512xf32> {
  %y = tcc.linear %x, %w, %b : (tensor<?x256xf32>, tensor<512x256xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %r = tcc.relu %y : (tensor<?x512xf32>) -> tensor<?x512xf32>
  return %r : tensor<?x512xf32>
}

// -----

// bf16 attention: one call of the runtime's fused kernel (tccAttention) on
// the call's stream, no kernel of tcc's own and no product; without the
// fused kernel, the generic path's score products and softmax kernel.
// CHECK-LABEL: llvm.func @attention_bf16
//       CHECK:   %[[S:.+]] = llvm.call @mgpuStreamCreate
//   CHECK-NOT:   gpu.launch_func
//   CHECK-NOT:   tccGemm
//       CHECK:   llvm.call @tccAttention(%[[S]], %{{.+}})
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   llvm.call @mgpuStreamSynchronize(%[[S]])
// UNFUSED-LABEL: llvm.func @attention_bf16
//   UNFUSED-NOT:   tccAttention
//       UNFUSED:   llvm.call @tccGemm
//       UNFUSED:   gpu.launch_func
//       UNFUSED:   llvm.call @tccGemm
func.func @attention_bf16(%q: tensor<?x12x197x64xbf16>, %k: tensor<?x12x197x64xbf16>, %v: tensor<?x12x197x64xbf16>) -> tensor<?x12x197x64xbf16> {
  %o = tcc.attention %q, %k, %v : (tensor<?x12x197x64xbf16>, tensor<?x12x197x64xbf16>, tensor<?x12x197x64xbf16>) -> tensor<?x12x197x64xbf16>
  return %o : tensor<?x12x197x64xbf16>
}

// -----

// A convolution with bias, a residual add and ReLU over a dynamic batch:
// one cuDNN call (tccConv) queued on the call's stream, no kernel. With
// cudnn=false it is generated code.
// CHECK-LABEL: llvm.func @conv_residual_relu
//       CHECK:   %[[S:.+]] = llvm.call @mgpuStreamCreate
//       CHECK:   llvm.call @tccConv(%[[S]], %{{.+}}) : (!llvm.ptr, !llvm.ptr) -> ()
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   llvm.call @mgpuStreamSynchronize(%[[S]])
// NOCUDNN-LABEL: llvm.func @conv_residual_relu
//   NOCUDNN-NOT:   tccConv
//       NOCUDNN:   gpu.launch_func
func.func @conv_residual_relu(%x: tensor<?x16x32x32xf32> {tcc.shape = #tcc.shape<[N, 16, 32, 32]>},
                              %w: tensor<16x16x3x3xf32>, %b: tensor<16xf32>,
                              %r: tensor<?x16x32x32xf32> {tcc.shape = #tcc.shape<[N, 16, 32, 32]>})
    -> tensor<?x16x32x32xf32> {
  %0 = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 1>} : (tensor<?x16x32x32xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>) -> tensor<?x16x32x32xf32>
  %1 = tcc.add %0, %r : (tensor<?x16x32x32xf32>, tensor<?x16x32x32xf32>) -> tensor<?x16x32x32xf32>
  %2 = tcc.relu %1 : (tensor<?x16x32x32xf32>) -> tensor<?x16x32x32xf32>
  return %2 : tensor<?x16x32x32xf32>
}

// -----

// A float remainder and floor in a kernel: arith.remf becomes libdevice's
// __nv_fmodf (linked and inlined: no extern left), floor a cvt.rmi. The
// kernels' arith is lowered by convert-gpu-to-nvvm: an llvm.frem made by a
// module-wide arith-to-llvm had no lowering there and failed the pipeline.
// CHECK-LABEL: llvm.func @rem_floor
//       CHECK: gpu.binary @rem_floor_kernels [
//   CHECK-NOT: .extern .func
//  CHECK-SAME: cvt.rmi.f32.f32
func.func @rem_floor(%a: tensor<?x64xf32>, %b: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = tcc.rem %a, %b : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %1 = tcc.floor %0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %1 : tensor<?x64xf32>
}
