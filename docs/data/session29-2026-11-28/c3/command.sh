#!/bin/bash
# session 29 call 3 (issue 27): what holds the gray8 box stream rung from its loads-only time, seen through a CUDA twin
# (twin.cu) under Nsight Compute: copy / loads / rung / lean timed (CUDA events, median of 20) at 4 and 8 rows a
# thread, then each kernel profiled once (speed of light, occupancy, warp states, scheduler, memory, instructions).
cd "$(dirname "$0")"
R=/tmp/c3; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpus.txt
for bh in 4 8; do nvcc -O3 -arch=sm_90 -DBH=$bh -o /tmp/twin$bh twin.cu 2>/dev/null; done
for r in 1 2; do for bh in 4 8; do /tmp/twin$bh | tee -a $R/twin-times.txt; done; done
cuobjdump -sass /tmp/twin4 > $R/twin4.sass 2>&1
nvcc -O3 -arch=sm_90 --resource-usage -c -o /dev/null twin.cu > $R/resources.txt 2>&1
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" | tee $R/ncu-path.txt
if [ -n "$NCU" ]; then
  timeout 300 $NCU --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --section LaunchStats --section InstructionStats --section ComputeWorkloadAnalysis \
    /tmp/twin4 once > $R/ncu.txt 2>&1
  timeout 200 $NCU --clock-control none --metrics smsp__pcsamp_warps_issue_stalled_long_scoreboard,smsp__pcsamp_warps_issue_stalled_lg_throttle,smsp__pcsamp_warps_issue_stalled_wait,smsp__pcsamp_warps_issue_stalled_selected,smsp__pcsamp_warps_issue_stalled_not_selected,smsp__pcsamp_warps_issue_stalled_short_scoreboard,smsp__pcsamp_warps_issue_stalled_drain,smsp__pcsamp_warps_issue_stalled_math_pipe_throttle,smsp__pcsamp_warps_issue_stalled_mio_throttle,smsp__pcsamp_warps_issue_stalled_no_instructions,smsp__pcsamp_warps_issue_stalled_dispatch_stall,smsp__pcsamp_warps_issue_stalled_barrier,smsp__pcsamp_warps_issue_stalled_membar,smsp__pcsamp_warps_issue_stalled_sleeping,smsp__pcsamp_warps_issue_stalled_branch_resolving,smsp__pcsamp_sample_count \
    /tmp/twin4 once > $R/ncu-stalls.txt 2>&1
  grep -E "^\s+void k|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Issue Slots Busy|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Executed Instructions  |L1/TEX Hit|L2 Hit|Compute \(SM\) Throughput" $R/ncu.txt | head -120
fi
tar czf $OUT/c3.tgz -C /tmp c3
