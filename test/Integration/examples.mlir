// The example models in examples/: each verifies, fuses and plans memory with
// tcc-opt, and runs through tcc-run with compiled == reference.
//
// Tolerances: 'random' fills weights uniformly in [-1, 1), far larger than
// trained weights, so activations grow to O(10..1000) and the compiled f32
// accumulation (the reference accumulates in double) differs by ~1e-4 of the
// activation scale; where that lands on an output near zero (a residual sum
// that cancels) the default atol of 1e-5 is too tight. The conv block and the
// ViT block therefore use looser tolerances that are still far below the
// O(activation) error of a real miscompile. Measured worst cases: conv block
// 1.3e-4 absolute (outputs ~20), ViT block 0.038 absolute (outputs ~300).

// ---- RobotPolicy (B = 2, two results) ------------------------------------------------
// RUN: tcc-opt %examples/robot_policy.mlir --fuse --plan-memory --verify-memory-plan | FileCheck %s --check-prefix=ROBOT_OPT
// ROBOT_OPT: func.func @robot_policy
// ROBOT_OPT: fusion.group
// Kernel budget (issue 4): at most 5; the policy and value heads share one.
// RUN: tcc-opt %examples/robot_policy.mlir --symbolic-shapes --fuse=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROBOT_KERNELS
// ROBOT_KERNELS: group 4 (matmul): tcc.concat tcc.concat tcc.linear
// ROBOT_KERNELS: @robot_policy kernels 8 -> 5, bytes B * 20532 + 1071156 -> B * 13364 + 1071156
// RUN: tcc-run %examples/robot_policy.mlir --function=robot_policy \
// RUN:   --input=2x256xf32=random --input=512x256xf32=random --input=512xf32=random \
// RUN:   --input=512xf32=random --input=512xf32=random \
// RUN:   --input=256x512xf32=random --input=256xf32=random \
// RUN:   --input=256xf32=random --input=256xf32=random \
// RUN:   --input=12x256xf32=random --input=12xf32=random \
// RUN:   --input=1x256xf32=random --input=1xf32=random --check-reference \
// RUN:   | FileCheck %s --check-prefix=ROBOT
// ROBOT: [SUCCESS] result[0] matches the reference (2x12xf32)
// ROBOT: [SUCCESS] result[1] matches the reference (2x1xf32)
// Unfused (every op a kernel) agrees too, at another batch:
// RUN: tcc-run %examples/robot_policy.mlir --random-inputs --dim-size=5 --no-fuse --check-reference | FileCheck %s --check-prefix=ROBOT_UNFUSED
// ROBOT_UNFUSED-COUNT-2: [SUCCESS]

// ---- ResNet-style conv block (B = 2) -----------------------------------------------------
// RUN: tcc-opt %examples/conv_block.mlir --fuse --plan-memory --verify-memory-plan | FileCheck %s --check-prefix=CONV_OPT
// CONV_OPT: func.func @conv_block
// CONV_OPT: fusion.group
// Kernel budget: at most 4 (conv+bn+relu, conv+bn+add+relu, pool).
// RUN: tcc-opt %examples/conv_block.mlir --symbolic-shapes --fuse=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONV_KERNELS
// CONV_KERNELS: @conv_block kernels 8 -> 3,
// RUN: tcc-run %examples/conv_block.mlir --function=conv_block \
// RUN:   --input=2x64x56x56xf32=random --input=64x64x3x3xf32=random \
// RUN:   --input=64xf32=random --input=64xf32=random --input=64xf32=random --input=64xf32=0.5 \
// RUN:   --input=64x64x3x3xf32=random \
// RUN:   --input=64xf32=random --input=64xf32=random --input=64xf32=random --input=64xf32=2 \
// RUN:   --check-reference --rtol=1e-3 --atol=1e-3 | FileCheck %s --check-prefix=CONV
// CONV: [SUCCESS] result[0] matches the reference (2x64x28x28xf32)
// RUN: tcc-run %examples/conv_block.mlir --function=conv_block \
// RUN:   --input=1x64x56x56xf32=random --input=64x64x3x3xf32=random \
// RUN:   --input=64xf32=random --input=64xf32=random --input=64xf32=random --input=64xf32=0.5 \
// RUN:   --input=64x64x3x3xf32=random \
// RUN:   --input=64xf32=random --input=64xf32=random --input=64xf32=random --input=64xf32=2 \
// RUN:   --no-fuse --check-reference --rtol=1e-3 --atol=1e-3 | FileCheck %s --check-prefix=CONV_UNFUSED
// CONV_UNFUSED: [SUCCESS] result[0] matches the reference (1x64x28x28xf32)

// ---- ViT-B/16 encoder block (B = 1; the reference evaluator is slow) -----------------------
// RUN: tcc-opt %examples/vit_block.mlir --fuse --plan-memory --verify-memory-plan | FileCheck %s --check-prefix=VIT_OPT
// VIT_OPT: func.func @vit_block
// VIT_OPT: fusion.group
// Kernel budget: at most 8 (LN1, QKV+bias, attention, proj+bias+residual,
// LN2, fc1+bias+GELU, fc2+bias+residual); the q/k/v and output transposes
// fold into the attention.
// RUN: tcc-opt %examples/vit_block.mlir --symbolic-shapes --fuse=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=VIT_KERNELS
// VIT_KERNELS: group 0 (reduction): tcc.layer_norm
// VIT_KERNELS: group 1 (matmul): tcc.linear
// VIT_KERNELS: group 2 (attention): tcc.transpose tcc.transpose tcc.transpose tcc.attention tcc.transpose
// VIT_KERNELS: group 3 (matmul): tcc.linear tcc.add
// VIT_KERNELS: group 4 (reduction): tcc.layer_norm
// VIT_KERNELS: group 5 (matmul): tcc.linear tcc.gelu
// VIT_KERNELS: group 6 (matmul): tcc.linear tcc.add
// VIT_KERNELS: @vit_block kernels 12 -> 7, bytes (B * S) * 141312 + 28351488 -> (B * S) * 79872 + 28351488
// RUN: tcc-run %examples/vit_block.mlir --function=vit_block \
// RUN:   --input=1x197x768xf32=random --input=768xf32=random --input=768xf32=random \
// RUN:   --input=2304x768xf32=random --input=2304xf32=random \
// RUN:   --input=768x768xf32=random --input=768xf32=random \
// RUN:   --input=768xf32=random --input=768xf32=random \
// RUN:   --input=3072x768xf32=random --input=3072xf32=random \
// RUN:   --input=768x3072xf32=random --input=768xf32=random \
// RUN:   --check-reference --rtol=1e-3 --atol=0.1 | FileCheck %s --check-prefix=VIT
// VIT: [SUCCESS] result[0] matches the reference (1x197x768xf32)
// Unfused, at a short sequence (the reference evaluator is slow):
// RUN: tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=9 --no-fuse \
// RUN:   --check-reference --rtol=1e-3 --atol=0.1 | FileCheck %s --check-prefix=VIT_UNFUSED
// VIT_UNFUSED: [SUCCESS] result[0] matches the reference (2x9x768xf32)
