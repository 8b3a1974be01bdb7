# session 17, device call 1 (NVIDIA H100 80GB HBM3, driver 580.159.04, 16-core host), main at 180c4d3:
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda   # Qt-free Release build in build-dev
bash scripts/median-shape-ab.sh /tmp/ab build-dev/filter-bench --device 1:0 --jobs 8 --rounds 2
# summary.tsv's `keep` column here is the first rule's (shorter kernel); the script now also asks for a
# cold build no longer than old's (+5%), which keeps step for median5x5 forgetful_u16x2 and old for
# median5x5 sorted_columns.
