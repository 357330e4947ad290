// What hand-written C reaches on a [16384, 4096] f32 layer_norm on this
// machine (next to softmax_ceiling.c and copy_bw.c): one row per
// iteration, both cores, median of 15 calls, the next row prefetched into
// L2 during the normalize pass; streaming stores. Variants:
//   3-pass: mean; variance of (x - mean); normalize (what tcc generates);
//   2-pass: shifted sums s1 = sum(x - k), s2 = sum((x - k)^2) with k the
//           row's first element in one pass, then normalize.
// And memcpy of the same bytes in the same run.
//   gcc -O3 -march=native -fopenmp layernorm_ceiling.c -o lc -lm && ./lc
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define R 16384L
#define C 4096L
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(const double*)a,y=*(const double*)b;return (x>y)-(x<y);}
static float hsum(__m512 v){return _mm512_reduce_add_ps(v);}
static void ln(float*restrict y,const float*restrict x,const float*w,const float*b,int passes){
#pragma omp parallel for schedule(static)
  for(long r=0;r<R;r++){
    const float*xr=x+r*C; float*yr=y+r*C; const char*nx=(const char*)(x+(r+1<R?r+1:r)*C);
    float mean, rstd;
    if(passes==3){
      __m512 s0=_mm512_setzero_ps(),s1=s0,s2=s0,s3=s0;
      for(long c=0;c<C;c+=64){s0=_mm512_add_ps(s0,_mm512_load_ps(xr+c));s1=_mm512_add_ps(s1,_mm512_load_ps(xr+c+16));
        s2=_mm512_add_ps(s2,_mm512_load_ps(xr+c+32));s3=_mm512_add_ps(s3,_mm512_load_ps(xr+c+48));}
      mean=hsum(_mm512_add_ps(_mm512_add_ps(s0,s1),_mm512_add_ps(s2,s3)))/C;
      __m512 vm=_mm512_set1_ps(mean); s0=_mm512_setzero_ps();s1=s0;s2=s0;s3=s0;
      for(long c=0;c<C;c+=64){__m512 d0=_mm512_sub_ps(_mm512_load_ps(xr+c),vm),d1=_mm512_sub_ps(_mm512_load_ps(xr+c+16),vm),
        d2=_mm512_sub_ps(_mm512_load_ps(xr+c+32),vm),d3=_mm512_sub_ps(_mm512_load_ps(xr+c+48),vm);
        s0=_mm512_fmadd_ps(d0,d0,s0);s1=_mm512_fmadd_ps(d1,d1,s1);s2=_mm512_fmadd_ps(d2,d2,s2);s3=_mm512_fmadd_ps(d3,d3,s3);}
      rstd=1.f/__builtin_sqrtf(hsum(_mm512_add_ps(_mm512_add_ps(s0,s1),_mm512_add_ps(s2,s3)))/C+1e-5f);
    } else {
      __m512 k=_mm512_set1_ps(xr[0]), a0=_mm512_setzero_ps(),a1=a0,q0=a0,q1=a0;
      for(long c=0;c<C;c+=32){__m512 d0=_mm512_sub_ps(_mm512_load_ps(xr+c),k),d1=_mm512_sub_ps(_mm512_load_ps(xr+c+16),k);
        a0=_mm512_add_ps(a0,d0);a1=_mm512_add_ps(a1,d1);q0=_mm512_fmadd_ps(d0,d0,q0);q1=_mm512_fmadd_ps(d1,d1,q1);}
      float s1=hsum(_mm512_add_ps(a0,a1))/C, s2=hsum(_mm512_add_ps(q0,q1))/C;
      mean=xr[0]+s1; rstd=1.f/__builtin_sqrtf(s2-s1*s1+1e-5f);
    }
    __m512 vm=_mm512_set1_ps(mean), vr=_mm512_set1_ps(rstd);
    for(long c=0;c<C;c+=16){ _mm_prefetch(nx+c*4,_MM_HINT_T1);
      __m512 n=_mm512_mul_ps(_mm512_sub_ps(_mm512_load_ps(xr+c),vm),vr);
      _mm512_stream_ps(yr+c,_mm512_fmadd_ps(n,_mm512_load_ps(w+c),_mm512_load_ps(b+c)));}
  }
}
static void copy(float*restrict y,const float*restrict x){
#pragma omp parallel
  { long t=omp_get_thread_num(),n=omp_get_num_threads(),lo=R*C*t/n,hi=R*C*(t+1)/n; memcpy(y+lo,x+lo,(hi-lo)*4);} }
int main(void){
  float*x=aligned_alloc(64,R*C*4),*y=aligned_alloc(64,R*C*4),*w=aligned_alloc(64,C*4),*b=aligned_alloc(64,C*4);
  for(long i=0;i<R*C;i++){x[i]=(float)((i*7919)%1000)/100.f;y[i]=0;} for(long i=0;i<C;i++){w[i]=1;b[i]=0;}
  for(int round=0;round<3;round++){
    double t[3][15];
    for(int v=0;v<3;v++){ for(int i=0;i<3;i++) v==2?copy(y,x):ln(y,x,w,b,v==0?3:2);
      for(int i=0;i<15;i++){double s=now(); v==2?copy(y,x):ln(y,x,w,b,v==0?3:2); t[v][i]=now()-s;} qsort(t[v],15,8,cmp);}
    double mc=t[2][7]; printf("round %d: memcpy %.2f ms (%.1f GB/s); 3-pass %.2f ms (%.0f %%); 2-pass %.2f ms (%.0f %%)\n",round,mc*1e3,
      R*C*8/mc/1e9,t[0][7]*1e3,100*mc/t[0][7],t[1][7]*1e3,100*mc/t[1][7]);
  }
  return 0;
}
