#!/bin/bash
# session 25 call 8 (H200): the final tree built Qt-free; device-record.sh's two new helpers (record_copy_sizes,
# record_cublas) as later calls will use them; a last look at the box and Gaussian stream rungs beside NPP.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c8 -DCUDAToolkit_ROOT=/usr/local/cuda
record_copy_sizes
record_cublas 4096
stamp helpers
timeout 100 bash scripts/npp-compare.sh $B $R/npp --device 1:0 --only 'box stream|gaussian5x5 stream' > $R/npp-log.txt 2>&1
rm -f $R/npp/*.txt
cut -d'|' -f2-6 $R/npp/npp.md
stamp npp
record_pack
