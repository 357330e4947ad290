/*===- my-capi.c - embedding tcc through its C API ------------------------===*
 *
 * Parses a module from a file, runs tcc's fuse pass by name, then builds
 * tcc's CPU pipeline with tccBuildCPUPipeline, JIT-compiles the module and
 * calls its function `name` on all-ones inputs of the shapes given:
 *
 *   my-capi model.mlir robot_policy 4x256 512x256 512 ...
 *===----------------------------------------------------------------------===*/
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tcc-c/Dialects.h"
#include "tcc-c/ExecutionEngine.h"
#include "tcc-c/Pipelines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, (FILE *)userData);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s FILE.mlir FUNCTION [DxDx...]...\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f)
    return 2;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(size + 1);
  text[fread(text, 1, size, f)] = 0;
  fclose(f);

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tccRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  tccRegisterAllPasses();

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(module))
    return 1;

  /* tcc's passes by name in this compiler's own pass manager. */
  MlirOperation copy = mlirOperationClone(mlirModuleGetOperation(module));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString("builtin.module(fuse,plan-memory)"),
          print, stderr)) ||
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, copy)))
    return 1;
  int groups = 0;
  const char *p = NULL;
  /* Count the groups in the printed IR (a C caller has no op walker). */
  char *printed = NULL;
  size_t printedSize = 0;
  FILE *mem = open_memstream(&printed, &printedSize);
  mlirOperationPrint(copy, print, mem);
  fclose(mem);
  for (p = printed; (p = strstr(p, "fusion.group")); ++p)
    ++groups;
  printf("fuse,plan-memory: %d fusion groups\n", groups);
  free(printed);
  mlirOperationDestroy(copy);
  mlirPassManagerDestroy(pm);

  /* The pipeline builder, as a compiler adds it to its own pipeline. */
  pm = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsFailure(tccBuildCPUPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(""), print, stderr)))
    return 1;
  copy = mlirOperationClone(mlirModuleGetOperation(module));
  printf("tcc-cpu-pipeline: %s\n",
         mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, copy))
             ? "lowered to LLVM"
             : "failed");
  mlirOperationDestroy(copy);
  mlirPassManagerDestroy(pm);

  /* JIT-compile and call on all-ones inputs. */
  TccCPUExecutable exe = tccCPUExecutableCreate(
      module, mlirStringRefCreateFromCString(""), print, stderr);
  if (tccCPUExecutableIsNull(exe))
    return 1;
  int numInputs = argc - 3, numResults = 0, expected = 0;
  MlirStringRef name = mlirStringRefCreateFromCString(argv[2]);
  if (tccCPUExecutableGetArity(exe, name, &expected, &numResults))
    return 1;
  tcc_tensor *in = calloc(numInputs + 1, sizeof(tcc_tensor));
  tcc_tensor *out = calloc(numResults + 1, sizeof(tcc_tensor));
  for (int i = 0; i < numInputs; ++i) {
    long long count = 1;
    char *s = argv[3 + i];
    in[i].dtype = TCC_F32;
    while (*s) {
      char *end;
      long long size = strtoll(s, &end, 10);
      if (end == s || size < 0 || in[i].rank == TCC_MAX_RANK ||
          (*end && *end != 'x')) {
        fprintf(stderr, "bad shape '%s' (DxDx..., at most %d dims)\n",
                argv[3 + i], TCC_MAX_RANK);
        return 2;
      }
      in[i].shape[in[i].rank++] = size;
      count *= size;
      s = *end ? end + 1 : end;
    }
    float *data = malloc(sizeof(float) * (count ? count : 1));
    for (long long k = 0; k < count; ++k)
      data[k] = 1.0f;
    in[i].data = data;
  }
  int code = tccCPUExecutableRun(exe, name, in, numInputs, out, numResults,
                                 print, stderr);
  if (code != 0) {
    printf("\nrun failed: %d\n", code);
    return 1;
  }
  for (int r = 0; r < numResults; ++r) {
    printf("result %d: shape", r);
    for (int d = 0; d < out[r].rank; ++d)
      printf(" %lld", (long long)out[r].shape[d]);
    printf(", first %g\n", ((float *)out[r].data)[0]);
    tccTensorRelease(&out[r]);
  }
  for (int i = 0; i < numInputs; ++i)
    free(in[i].data);
  free(in);
  free(out);
  free(text);
  tccCPUExecutableDestroy(exe);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
