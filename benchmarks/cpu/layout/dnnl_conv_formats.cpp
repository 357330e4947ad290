// oneDNN's f32 convolution speed per activation format (NCHW, NHWC and the
// blocked nChw16c) on ResNet-18's layers, for docs/layout.md: why
// --select-layout's cpu candidates are NCHW and NHWC.
//
//   g++ -O2 benchmarks/cpu/layout/dnnl_conv_formats.cpp -o /tmp/conv_formats -ldnnl
//   OMP_NUM_THREADS=$(nproc) /tmp/conv_formats
//
// Median of 30 calls per layer (weights in oneDNN's own format, ReLU
// post-op), in microseconds. The stem has 3 input channels: its "blocked"
// column is NCHW.
#include <dnnl.hpp>
#include <chrono>
#include <vector>
#include <algorithm>
#include <cstdio>
using namespace dnnl;
using tag = memory::format_tag;
static double bench(int N,int C,int H,int O,int K,int S,tag f){
  engine eng(engine::kind::cpu,0); stream s(eng);
  int P=K/2, OH=(H+2*P-K)/S+1;
  memory::desc x({N,C,H,H},memory::data_type::f32,f);
  memory::desc w({O,C,K,K},memory::data_type::f32,tag::any);
  memory::desc y({N,O,OH,OH},memory::data_type::f32,f);
  convolution_forward::desc d(prop_kind::forward_inference,algorithm::convolution_direct,x,w,y,{S,S},{P,P},{P,P});
  post_ops po; po.append_eltwise(1.f,algorithm::eltwise_relu,0,0); primitive_attr a; a.set_post_ops(po);
  convolution_forward::primitive_desc pd(d,a,eng);
  memory xm(x,eng), wm(pd.weights_desc(),eng), ym(y,eng), sp(pd.scratchpad_desc(),eng);
  convolution_forward c(pd);
  std::vector<double> t;
  for(int i=0;i<30;i++){auto t0=std::chrono::steady_clock::now();
    c.execute(s,{{DNNL_ARG_SRC,xm},{DNNL_ARG_WEIGHTS,wm},{DNNL_ARG_DST,ym},{DNNL_ARG_SCRATCHPAD,sp}}); s.wait();
    t.push_back(std::chrono::duration<double,std::micro>(std::chrono::steady_clock::now()-t0).count());}
  std::sort(t.begin(),t.end()); return t[15];
}
int main(){
  struct L{const char*n;int C,H,O,K,S;} ls[]={{"stem",3,224,64,7,2},{"l1 3x3",64,56,64,3,1},{"l2 3x3",128,28,128,3,1},{"l3 3x3",256,14,256,3,1},{"l4 3x3",512,7,512,3,1},{"l2 down 1x1",64,56,128,1,2}};
  for(int N: {1,8}) for(auto&l:ls){
    double a=bench(N,l.C,l.H,l.O,l.K,l.S,tag::nchw), b=bench(N,l.C,l.H,l.O,l.K,l.S,tag::nhwc), c=bench(N,l.C,l.H,l.O,l.K,l.S,l.C%16==0?tag::nChw16c:tag::nchw);
    printf("N=%d %-12s nchw %8.1f  nhwc %8.1f  nChw16c %8.1f us\n",N,l.n,a,b,c);
  }
}
