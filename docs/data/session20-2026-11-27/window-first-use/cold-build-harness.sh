#!/bin/bash
# run.sh FILE KERNEL CHANNELS [extra opts]: cold PoCL build + first launch
f=$1; k=$2; ch=$3; shift 3
export POCL_CACHE_DIR=$(mktemp -d /tmp/clh/pc.XXXX)
bw=$((16/ch))
opts="-I ${KDIR:-/work/wt-first/kernels}/shared -DCHANNELS=$ch -DBORDER=${BORDER:-0} -DBLOCK_W=$bw -DBLOCK_H=4 -DFWB_ONLY_ENTRIES -DFWB_WANT_$k -DFWB_G0=0x1p-4f -DFWB_G1=0x1p-2f -DFWB_G2=0x1.8p-2f -DFWB_G3=0x1p-2f -DFWB_G4=0x1p-4f -DBOX_RADIUS=1 $*"
/tmp/clh/h $f "$opts" $k ${WW:-1200} ${HH:-800} $ch 4
rm -rf $POCL_CACHE_DIR
