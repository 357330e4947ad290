// What hand-written C reaches on a [16384, 4096] f32 softmax on this
// machine: the yardstick behind docs/benchmarks.md ("Fusion"), next to
// copy_bw.c. One row per iteration in three passes (max; exp, stored and
// summed; scale with streaming stores), both cores, median of 15 calls;
// variants: software prefetch of the row D rows ahead spread over the exp
// pass (into L1 = T0 or L2 = T1), and a table-based exp (vpermps of 2^(j/16),
// degree-3 polynomial) against the degree-6 one with vscalefps.
//   gcc -O3 -march=native -fopenmp softmax_ceiling.c -o sc -lm && ./sc
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
#define R 16384L
#define C 4096L
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(const double*)a,y=*(const double*)b;return (x>y)-(x<y);}
static inline __m512 exp16(__m512 x){
  x = _mm512_max_ps(x,_mm512_set1_ps(-87.3f));
  __m512 k = _mm512_fmadd_ps(x,_mm512_set1_ps(1.44269502f),_mm512_set1_ps(12582912.f));
  __m512 n = _mm512_sub_ps(k,_mm512_set1_ps(12582912.f));
  __m512 r = _mm512_fmadd_ps(n,_mm512_set1_ps(-0.693359375f),x);
  r = _mm512_fmadd_ps(n,_mm512_set1_ps(2.12194442e-4f),r);
  __m512 p = _mm512_set1_ps(1.f/720);
  p=_mm512_fmadd_ps(p,r,_mm512_set1_ps(1.f/120));p=_mm512_fmadd_ps(p,r,_mm512_set1_ps(1.f/24));
  p=_mm512_fmadd_ps(p,r,_mm512_set1_ps(1.f/6));p=_mm512_fmadd_ps(p,r,_mm512_set1_ps(0.5f));
  p=_mm512_fmadd_ps(p,r,_mm512_set1_ps(1.f));p=_mm512_fmadd_ps(p,r,_mm512_set1_ps(1.f));
  return _mm512_scalef_ps(p,n);
}
static float T16[16] __attribute__((aligned(64)));
static inline __m512 exp16t(__m512 x){
  x = _mm512_max_ps(x,_mm512_set1_ps(-87.3f));
  const __m512 magic=_mm512_set1_ps(786432.f); /* 1.5*2^19: low mantissa bits = round(t*16) */
  __m512 kb = _mm512_fmadd_ps(x,_mm512_set1_ps(1.44269502f),magic);
  __m512 k = _mm512_sub_ps(kb,magic);
  __m512 r = _mm512_fmadd_ps(k,_mm512_set1_ps(-0.693359375f),x);
  r = _mm512_fmadd_ps(k,_mm512_set1_ps(2.12194442e-4f),r);
  __m512 p=_mm512_fmadd_ps(_mm512_set1_ps(1.f/6),r,_mm512_set1_ps(0.5f));
  p=_mm512_fmadd_ps(p,r,_mm512_set1_ps(1.f)); p=_mm512_fmadd_ps(p,r,_mm512_set1_ps(1.f));
  __m512 t=_mm512_permutexvar_ps(_mm512_castps_si512(kb),_mm512_load_ps(T16));
  return _mm512_scalef_ps(_mm512_mul_ps(p,t),k);
}
static int PF=0, D=1, HINT=0, EXPT=0;
#define EXP(v) (EXPT? exp16t(v): exp16(v))
static inline void pf(const char*p){ if(HINT==0)_mm_prefetch(p,_MM_HINT_T0); else _mm_prefetch(p,_MM_HINT_T1);}
static void softmax(float*restrict y,const float*restrict x){
#pragma omp parallel
  { float tmp[C] __attribute__((aligned(64)));
#pragma omp for schedule(static)
  for(long r0=0;r0<R;r0++){
      const float*xr=x+r0*C; float*yr=y+r0*C; float*t=tmp;
      const char*nx = (const char*)(x+(r0+D)*C); int dopf = PF && r0+D<R;
      /* spread 256 prefetch lines over the row's three passes: 64 in pass 1, 128 in pass 2, 64 in pass 3 */
      __m512 m0=_mm512_set1_ps(-INFINITY),m1=m0,m2=m0,m3=m0;
      for(long c=0;c<C;c+=64){
        
        m0=_mm512_max_ps(m0,_mm512_load_ps(xr+c));m1=_mm512_max_ps(m1,_mm512_load_ps(xr+c+16));
        m2=_mm512_max_ps(m2,_mm512_load_ps(xr+c+32));m3=_mm512_max_ps(m3,_mm512_load_ps(xr+c+48));}
      float m=_mm512_reduce_max_ps(_mm512_max_ps(_mm512_max_ps(m0,m1),_mm512_max_ps(m2,m3)));
      __m512 vm=_mm512_set1_ps(m), s0=_mm512_setzero_ps(),s1=s0;
      for(long c=0;c<C;c+=32){
        if(dopf) pf(nx+c*4), pf(nx+c*4+64);
        __m512 e0=EXP(_mm512_sub_ps(_mm512_load_ps(xr+c),vm)), e1=EXP(_mm512_sub_ps(_mm512_load_ps(xr+c+16),vm));
        _mm512_store_ps(t+c,e0);_mm512_store_ps(t+c+16,e1);
        s0=_mm512_add_ps(s0,e0); s1=_mm512_add_ps(s1,e1);}
      __m512 inv=_mm512_set1_ps(1.f/_mm512_reduce_add_ps(_mm512_add_ps(s0,s1)));
      for(long c=0;c<C;c+=16){
        _mm512_stream_ps(yr+c,_mm512_mul_ps(_mm512_load_ps(t+c),inv));}
  }}
}
int main(int argc,char**argv){
  for(int j=0;j<16;j++)T16[j]=exp2f(j/16.f);
  float*x=aligned_alloc(64,R*C*4),*y=aligned_alloc(64,R*C*4);
  for(long i=0;i<R*C;i++){x[i]=(float)((i*7919)%1000)/100.f;y[i]=0;}
  int cfg[][4]={{0,1,0,0},{1,1,0,0},{1,2,0,0},{1,4,0,0},{1,1,1,0},{1,2,1,0},{1,4,1,0},{1,8,1,0},{1,2,0,1},{1,4,1,1}};
  for(int k=0;k<10;k++){PF=cfg[k][0];D=cfg[k][1];HINT=cfg[k][2];EXPT=cfg[k][3];
    double ts[15];for(int i=0;i<3;i++)softmax(y,x);
    for(int i=0;i<15;i++){double t=now();softmax(y,x);ts[i]=now()-t;}
    qsort(ts,15,8,cmp);printf("PF=%d D=%d hint=T%d tableexp=%d: %.2f ms\n",PF,D,HINT,EXPT,ts[7]*1e3);}
  double s=0;for(long i=0;i<C;i++)s+=y[i];
  printf("row0 sum %f\n",s);
}
