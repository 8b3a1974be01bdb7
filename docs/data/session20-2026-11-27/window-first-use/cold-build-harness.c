// build + first launch timing of a stream kernel on PoCL; prints output checksum
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
int main(int argc,char**argv){
  const char*file=argv[1],*opts=argv[2],*kname=argv[3]; int W=atoi(argv[4]),H=atoi(argv[5]),C=atoi(argv[6]),BH=atoi(argv[7]);
  FILE*f=fopen(file,"rb");fseek(f,0,2);long n=ftell(f);fseek(f,0,0);char*s=malloc(n+1);fread(s,1,n,f);s[n]=0;fclose(f);
  cl_platform_id p;clGetPlatformIDs(1,&p,0);cl_device_id d;clGetDeviceIDs(p,CL_DEVICE_TYPE_ALL,1,&d,0);
  cl_int e;cl_context ctx=clCreateContext(0,1,&d,0,0,&e);cl_command_queue q=clCreateCommandQueue(ctx,d,0,&e);
  double t0=now();cl_program pr=clCreateProgramWithSource(ctx,1,(const char**)&s,0,&e);
  e=clBuildProgram(pr,1,&d,opts,0,0);double t1=now();
  if(e){char log[65536];clGetProgramBuildInfo(pr,d,CL_PROGRAM_BUILD_LOG,sizeof log,log,0);fprintf(stderr,"build %d\n%s\n",e,log);return 1;}
  cl_kernel k=clCreateKernel(pr,kname,&e);if(e){fprintf(stderr,"kernel %d\n",e);return 1;}
  int pitch=getenv("NOPAD")?W*C:(W*C+15)/16*16; size_t bytes=(size_t)pitch*H; unsigned char*in=malloc(bytes),*out=malloc(bytes);
  unsigned x=12345;for(size_t i=0;i<bytes;i++){x=x*1103515245u+12345u;in[i]=x>>24;}
  cl_mem a=clCreateBuffer(ctx,CL_MEM_READ_ONLY|CL_MEM_COPY_HOST_PTR,bytes,in,&e),b=clCreateBuffer(ctx,CL_MEM_READ_WRITE|CL_MEM_COPY_HOST_PTR,bytes,in,&e);
  float co[32]={0};cl_mem c=clCreateBuffer(ctx,CL_MEM_READ_ONLY|CL_MEM_COPY_HOST_PTR,sizeof co,co,&e);
  int rad=2;float par[4]={0};
  clSetKernelArg(k,0,sizeof a,&a);clSetKernelArg(k,1,sizeof b,&b);clSetKernelArg(k,2,4,&W);clSetKernelArg(k,3,4,&H);
  clSetKernelArg(k,4,sizeof c,&c);clSetKernelArg(k,5,4,&rad);clSetKernelArg(k,6,16,par);clSetKernelArg(k,7,4,&pitch);clSetKernelArg(k,8,4,&pitch);
  size_t lx=16,ly=4; size_t gx=((W*C+15)/16+lx-1)/lx*lx, gy=((H+BH-1)/BH+ly-1)/ly*ly; size_t g[2]={gx,gy},l[2]={lx,ly};
  double t2=now();e=clEnqueueNDRangeKernel(q,k,2,0,g,l,0,0,0);clFinish(q);double t3=now();
  if(e){fprintf(stderr,"enq %d\n",e);return 1;}
  e=clEnqueueNDRangeKernel(q,k,2,0,g,l,0,0,0);clFinish(q);double t4=now();
  clEnqueueReadBuffer(q,b,1,0,bytes,out,0,0,0);
  unsigned long long hsum=1469598103934665603ull;for(int y=0;y<H;y++)for(int i=0;i<W*C;i++){hsum^=out[(size_t)y*pitch+i];hsum*=1099511628211ull;}
  printf("build %.0f ms, first launch %.0f ms, second %.1f ms, hash %016llx\n",t1-t0,t3-t2,t4-t3,hsum);
  return 0;}
