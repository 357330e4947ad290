/*===- tcc-capi-test.c - tcc's C API, from C ------------------------------===*
 *
 * What a compiler written in C (or anything with a C FFI) does to embed
 * tcc: register the dialects and passes, parse, run tcc's passes by name
 * and through the pipeline builders, JIT-compile and call. Checked by
 * capi.test with FileCheck.
 *
 *===----------------------------------------------------------------------===*/
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tcc-c/Dialects.h"
#include "tcc-c/ExecutionEngine.h"
#include "tcc-c/Import.h"
#include "tcc-c/Pipelines.h"

#include <stdio.h>
#include <string.h>

static void print(MlirStringRef s, void *userData) {
  (void)userData;
  fwrite(s.data, 1, s.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(d, print, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static const char *kModule =
    "func.func @scale_relu(%x: tensor<?x4xf32> {tcc.shape = "
    "#tcc.shape<[B, 4]>}, %b: tensor<4xf32>) -> tensor<?x4xf32> {\n"
    "  %0 = tcc.add %x, %b : (tensor<?x4xf32>, tensor<4xf32>) -> "
    "tensor<?x4xf32>\n"
    "  %1 = tcc.relu %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>\n"
    "  return %1 : tensor<?x4xf32>\n"
    "}\n";

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tccRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  tccRegisterAllPasses();
  tccRegisterAllPasses(); /* a second call is harmless */

  /* The dialect handles. */
  MlirDialect tcc = mlirDialectHandleLoadDialect(mlirGetDialectHandle__tcc__(), ctx);
  MlirStringRef ns = mlirDialectGetNamespace(tcc);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);
  // CHECK: dialect: tcc

  MlirModule module = mlirModuleCreateParse(ctx, str(kModule));
  if (mlirModuleIsNull(module))
    return 1;

  /* tcc's passes by name, on a copy. */
  MlirOperation copy = mlirOperationClone(mlirModuleGetOperation(module));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          str("builtin.module(fuse)"), print, NULL)))
    return 2;
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, copy)))
    return 3;
  mlirOperationPrint(copy, print, NULL);
  printf("\n");
  // CHECK-LABEL: func.func @scale_relu
  // CHECK: fusion.group "pointwise"
  // CHECK: tcc.add
  // CHECK: tcc.relu
  // CHECK: fusion.yield
  mlirPassManagerDestroy(pm);
  mlirOperationDestroy(copy);

  /* The pipeline builders: a bad option fails with the parser's message. */
  pm = mlirPassManagerCreate(ctx);
  printf("bad options: %d\n",
         mlirLogicalResultIsFailure(tccBuildCPUPipeline(
             mlirPassManagerGetAsOpPassManager(pm), str("no-such-option=1"),
             print, NULL)));
  // CHECK: no such option no-such-option
  // CHECK: bad options: 1
  printf("to-linalg: %d\n",
         mlirLogicalResultIsSuccess(tccBuildTCCToLinalgPipeline(
             mlirPassManagerGetAsOpPassManager(pm), str("fuse=true"), print,
             NULL)));
  // CHECK: to-linalg: 1
  copy = mlirOperationClone(mlirModuleGetOperation(module));
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, copy)))
    return 4;
  mlirOperationPrint(copy, print, NULL);
  printf("\n");
  // CHECK: func.func @scale_relu
  // CHECK: vector<
  // CHECK-NOT: tcc.relu
  mlirPassManagerDestroy(pm);
  mlirOperationDestroy(copy);

  /* A pass manager nested on func.func: a failure, not an abort. */
  pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager onFunc = mlirPassManagerGetNestedUnder(
      pm, str("func.func"));
  printf("\nnested: %d\n",
         mlirLogicalResultIsFailure(
             tccBuildCPUPipeline(onFunc, str(""), print, NULL)));
  // CHECK: tcc's pipelines run on builtin.module, not on 'func.func'
  // CHECK: nested: 1
  mlirPassManagerDestroy(pm);

  /* JIT-compile and call: relu(x + b) for B = 2. */
  TccCPUExecutable exe =
      tccCPUExecutableCreate(module, str(""), print, NULL);
  if (tccCPUExecutableIsNull(exe))
    return 5;
  int numInputs = 0, numResults = 0;
  tccCPUExecutableGetArity(exe, str("scale_relu"), &numInputs, &numResults);
  printf("arity: %d %d\n", numInputs, numResults);
  // CHECK: arity: 2 1
  tccCPUExecutableGetSignatures(exe, print, NULL);
  printf("\n");
  // CHECK: {"scale_relu":{"inputs":[{"dtype":"f32","shape":[-1,4]},{"dtype":"f32","shape":[4]}],"results":[{"dtype":"f32","shape":[-1,4]}]}}
  float x[8] = {1, -2, 3, -4, 5, -6, 7, -8}, b[4] = {0.5f, 0.5f, -10, 10};
  tcc_tensor in[2] = {{x, TCC_F32, 2, {2, 4}, NULL},
                      {b, TCC_F32, 1, {4}, NULL}};
  tcc_tensor out[1];
  int code = tccCPUExecutableRun(exe, str("scale_relu"), in, 2, out, 1,
                                 print, NULL);
  printf("run: %d shape %lldx%lld:", code, (long long)out[0].shape[0],
         (long long)out[0].shape[1]);
  for (int i = 0; i < 8; ++i)
    printf(" %g", ((float *)out[0].data)[i]);
  printf("\n");
  // CHECK: run: 0 shape 2x4: 1.5 0 0 6 5.5 0 0 2
  tccTensorRelease(&out[0]);
  printf("released: %d\n", out[0].data == NULL);
  // CHECK: released: 1

  /* Wrong sizes: a message and code 3, nothing runs; wrong rank: 2. */
  in[1].shape[0] = 5;
  code = tccCPUExecutableRun(exe, str("scale_relu"), in, 2, out, 1, print,
                             NULL);
  printf("\nbad size: %d\n", code);
  // CHECK: input 1 dim 0: expected 4, got 5
  // CHECK: bad size: 3
  in[1].rank = 2;
  code = tccCPUExecutableRun(exe, str("scale_relu"), in, 2, out, 1, print,
                             NULL);
  printf("\nbad rank: %d\n", code);
  // CHECK: input 1: expected rank 1
  // CHECK: bad rank: 2
  in[1].rank = 1;
  in[1].shape[0] = 4;
  code = tccCPUExecutableRun(exe, str("scale_relu"), in, 2, out, 2, print,
                             NULL);
  printf("\nresult count: %d\n", code);
  // CHECK: function 'scale_relu' has 1 results, 2 requested
  // CHECK: result count: 2
  in[0].shape[0] = -1;
  code = tccCPUExecutableRun(exe, str("scale_relu"), in, 2, out, 1, print,
                             NULL);
  printf("\nnegative size: %d\n", code);
  // CHECK: input 0: negative size -1 in dim 0
  // CHECK: negative size: 2
  code = tccCPUExecutableRun(exe, str("nope"), in, 2, out, 1, print, NULL);
  printf("\nno function: %d\n", code);
  // CHECK: no function 'nope'
  // CHECK: no function: 1
  tccCPUExecutableDestroy(exe);

  /* A module that parses but that the pipeline rejects: no executable, the
     diagnostic to the handler and a summary to the callback. */
  MlirModule empty = mlirModuleCreateParse(
      ctx, str("func.func @f(%x: tensor<?x4xf32> {tcc.shape = "
               "#tcc.shape<[B, 4]>}) -> tensor<?x4xf32> attributes "
               "{tcc.constraints = [\"B >= 10\", \"B <= 5\"]} {\n"
               "  %0 = tcc.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>\n"
               "  return %0 : tensor<?x4xf32>\n}\n"));
  TccCPUExecutable none = tccCPUExecutableCreate(empty, str(""), print, NULL);
  printf("\nrejected: %d\n", tccCPUExecutableIsNull(none));
  // CHECK: diagnostic: the constraints on B leave no size: [10, 5]
  // CHECK: rejected: 1
  mlirModuleDestroy(empty);

  /* A module that does not verify does not parse. */
  MlirModule bad = mlirModuleCreateParse(
      ctx, str("func.func @f(%x: tensor<2xf32>) -> tensor<3xf32> {\n"
               "  %0 = tcc.relu %x : (tensor<2xf32>) -> tensor<3xf32>\n"
               "  return %0 : tensor<3xf32>\n}\n"));
  printf("bad module parsed: %d\n", !mlirModuleIsNull(bad));
  // CHECK: diagnostic:
  // CHECK: bad module parsed: 0

  /* The ONNX importer: bytes that are no model fail with a diagnostic (a
     tcc built without the importer says so, also as a diagnostic). */
  MlirModule imported = tccImportONNX(ctx, str("not a model"),
                                      str("garbage.onnx"), str("main"), false);
  printf("garbage imported: %d\n", !mlirModuleIsNull(imported));
  // CHECK: diagnostic:
  // CHECK: garbage imported: 0

  /* Frozen weights: b bound to its values becomes a constant, the function
     takes x alone and computes what it did with b passed. */
  MlirModule frozen = mlirModuleCreateParse(ctx, str(kModule));
  intptr_t index = 1, bytes = sizeof(b);
  const void *data = b;
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirLogicalResult bound = tccFreezeArguments(
      frozen, str("scale_relu"), 1, &index, &data, &bytes, &f32);
  printf("frozen: %d\n", mlirLogicalResultIsSuccess(bound));
  // CHECK: frozen: 1
  mlirOperationPrint(mlirModuleGetOperation(frozen), print, NULL);
  // CHECK: func.func @scale_relu(%arg0: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
  // CHECK-NEXT: tcc.constant dense<[5.000000e-01, 5.000000e-01, -1.000000e+01, 1.000000e+01]> : tensor<4xf32>
  in[0].shape[0] = 2;
  TccCPUExecutable frozenExe =
      tccCPUExecutableCreate(frozen, str(""), print, NULL);
  if (tccCPUExecutableIsNull(frozenExe))
    return 6;
  code = tccCPUExecutableRun(frozenExe, str("scale_relu"), in, 1, out, 1,
                             print, NULL);
  printf("\nfrozen run: %d", code);
  for (int i = 0; code == 0 && i < 8; ++i)
    printf(" %g", ((float *)out[0].data)[i]);
  printf("\n");
  // CHECK: frozen run: 0 1.5 0 0 6 5.5 0 0 2
  if (code == 0)
    tccTensorRelease(&out[0]);
  tccCPUExecutableDestroy(frozenExe);
  mlirModuleDestroy(frozen);

  /* What cannot be frozen: nothing changes, a diagnostic says why. */
  MlirModule unfrozen = mlirModuleCreateParse(ctx, str(kModule));
  intptr_t dynamicArg = 0, outOfRange = 2, shortBytes = 8;
  printf("dynamic: %d\n", mlirLogicalResultIsSuccess(tccFreezeArguments(
                              unfrozen, str("scale_relu"), 1, &dynamicArg,
                              &data, &bytes, NULL)));
  // CHECK: argument 0 cannot be frozen: it is not a statically shaped tensor
  // CHECK: dynamic: 0
  printf("out of range: %d\n", mlirLogicalResultIsSuccess(tccFreezeArguments(
                                   unfrozen, str("scale_relu"), 1,
                                   &outOfRange, &data, &bytes, NULL)));
  // CHECK: cannot freeze argument 2: the function has 2
  // CHECK: out of range: 0
  printf("short: %d\n", mlirLogicalResultIsSuccess(tccFreezeArguments(
                            unfrozen, str("scale_relu"), 1, &index, &data,
                            &shortBytes, NULL)));
  // CHECK: argument 1 takes 16 bytes, the value has 8
  // CHECK: short: 0
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  printf("wrong type: %d\n", mlirLogicalResultIsSuccess(tccFreezeArguments(
                                 unfrozen, str("scale_relu"), 1, &index,
                                 &data, &bytes, &i32)));
  // CHECK: argument 1 has elements of 'f32', the value 'i32'
  // CHECK: wrong type: 0
  intptr_t twice[2] = {1, 1}, twiceBytes[2] = {16, 16};
  const void *twiceData[2] = {b, b};
  printf("twice: %d\n", mlirLogicalResultIsSuccess(tccFreezeArguments(
                            unfrozen, str("scale_relu"), 2, twice, twiceData,
                            twiceBytes, NULL)));
  // CHECK: argument 1 is frozen twice
  // CHECK: twice: 0
  printf("no function: %d\n", mlirLogicalResultIsSuccess(tccFreezeArguments(
                                  unfrozen, str("nope"), 1, &index, &data,
                                  &bytes, NULL)));
  // CHECK: no function 'nope' to freeze arguments of
  // CHECK: no function: 0
  mlirOperationPrint(mlirModuleGetOperation(unfrozen), print, NULL);
  // CHECK: func.func @scale_relu(%arg0: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}, %arg1: tensor<4xf32>)
  mlirModuleDestroy(unfrozen);

  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
