#!/bin/bash
# Preprocess a kernel as NVIDIA's compiler would see it (cl_nv_pragma_unroll defined: FWB_PTX 1) from HEAD's and this tree's kernels; compare.
# HEAD_KERNELS: a copy of HEAD's kernels/ (git archive HEAD kernels | tar -x -C DIR; HEAD_KERNELS=DIR/kernels).
kf=$1; shift
pp() { /usr/lib/llvm-15/bin/clang -x cl -cl-std=CL1.2 -E -P -Dcl_nv_pragma_unroll=1 -I$1/shared -I$1/median -I$1/recursive_gaussian "$@" 2>/dev/null; }
d=$1
a=$(pp $HEAD_KERNELS "$@" $HEAD_KERNELS/$kf | tr -s ' \n' | md5sum)
b=$(pp kernels "$@" kernels/$kf | tr -s ' \n' | md5sum)
n=$(pp kernels "$@" kernels/$kf | wc -c)
[ "$a" = "$b" ] && echo "same ($n bytes): $kf $*" || echo "DIFFERENT: $kf $*"
