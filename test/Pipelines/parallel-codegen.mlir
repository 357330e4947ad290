// LLVM's step of a CPU compile in parts on several threads
// (lib/Target/ObjectCodegen.cpp, docs/compile-cache.md): the ViT block in
// three parts and whole, each run matching the reference evaluator; the
// compile cache keeps the parts and a new process links them (a missing
// part would not link: a miss, and a store); a library's
// parts link into one .so and --keep-object keeps them all.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env TCC_COMPILE_THREADS=3 TCC_TIMING=1 tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=1,S=9 --check-reference --rtol=1e-3 --atol=0.1 2>&1 | FileCheck %s --check-prefix=PARTS
// PARTS: tcc-timing: LLVM (O3 and machine code) {{.*}} s: 3 part(s) of {{[0-9]+}} instructions on 3 thread(s)
// PARTS: [SUCCESS] result[0] matches the reference
// RUN: env TCC_COMPILE_THREADS=1 TCC_TIMING=1 tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=1,S=9 --check-reference --rtol=1e-3 --atol=0.1 2>&1 | FileCheck %s --check-prefix=WHOLE
// WHOLE: tcc-timing: LLVM (O3 and machine code) {{.*}} s: 1 part(s) of {{[0-9]+}} instructions on 1 thread(s)
// WHOLE: [SUCCESS] result[0] matches the reference

// RUN: env TCC_CACHE_DIR=%t/cache TCC_CACHE_LOG=1 TCC_COMPILE_THREADS=3 tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=5 --check-reference --rtol=1e-3 --atol=0.1 2>&1 | FileCheck %s --check-prefix=COLD
// COLD: tcc-cache: store tcc-{{[0-9a-f]+}}.a
// COLD: [SUCCESS] result[0] matches the reference
// RUN: env TCC_CACHE_DIR=%t/cache TCC_CACHE_LOG=1 TCC_COMPILE_THREADS=3 tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=5 --check-reference --rtol=1e-3 --atol=0.1 2>&1 | FileCheck %s --check-prefix=WARM
// WARM: tcc-cache: hit tcc-{{[0-9a-f]+}}.a
// WARM-NOT: tcc-cache: store
// WARM: [SUCCESS] result[0] matches the reference

// RUN: env TCC_COMPILE_THREADS=3 tcc-compile %examples/vit_block.mlir -o %t/libvit.so --keep-object=%t/vit.o
// RUN: ls %t | FileCheck %s --check-prefix=KEPT
// KEPT: vit.o
// KEPT-NEXT: vit.o.1.o
// KEPT-NEXT: vit.o.2.o
// RUN: tcc-run %examples/vit_block.mlir --library=%t/libvit.so --random-inputs --sizes=B=1,S=9 --check-reference --rtol=1e-3 --atol=0.1 | FileCheck %s --check-prefix=LIB
// LIB: [SUCCESS] result[0] matches the reference
