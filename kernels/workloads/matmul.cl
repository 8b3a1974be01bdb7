// Matrix multiplication C = A * B (float32, n x n): seed 003's nine-step ladder, seed 002's 16x16
// tiles, and the rungs past the seeds after Cedric Nugteren's myGEMM (register blocking, wide loads,
// padded tiles, double-buffered prefetch). Every matrix is stored with row stride `ld` >= n; the host
// pads with zeros where a kernel reads in fours, eights or whole tiles, so padding adds nothing.
// Tile sizes and private-array capacities arrive as -D defines (see core/workloads/Matmul.cpp).

// ---- Seed 003, steps 1-3: one work-item per element of C, 2-D range (r = id 0, c = id 1) ----------

// Step 1: accumulates straight into global C (the host zeroes it): every product costs a read and a
// write of C on top of the two input reads.
__kernel void matmul_naive(__global const float *a, __global const float *b, __global float *c, int n, int ld)
{
    const int r = get_global_id(0);
    const int col = get_global_id(1);
    if (r >= n || col >= n)
        return;
    for (int k = 0; k < n; ++k)
        c[r * ld + col] += a[r * ld + k] * b[k * ld + col];
}

// Step 2: the second matrix arrives column-major (bt[col * ld + k] = B[k][col]), so each work-item reads
// both of its operands sequentially.
__kernel void matmul_coalesced(__global const float *a, __global const float *bt, __global float *c, int n, int ld)
{
    const int r = get_global_id(0);
    const int col = get_global_id(1);
    if (r >= n || col >= n)
        return;
    for (int k = 0; k < n; ++k)
        c[r * ld + col] += a[r * ld + k] * bt[col * ld + k];
}

// Step 3: the sum lives in a private variable (a register) and C is written once.
__kernel void matmul_private_sum(__global const float *a, __global const float *bt, __global float *c, int n, int ld)
{
    const int r = get_global_id(0);
    const int col = get_global_id(1);
    if (r >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += a[r * ld + k] * bt[col * ld + k];
    c[r * ld + col] = sum;
}

// ---- Seed 003, steps 4-9: one work-item per row of C, 1-D range -----------------------------------

// Step 4: a whole row per work-item, so there are n work-items, not n^2.
__kernel void matmul_row_per_item(__global const float *a, __global const float *bt, __global float *c, int n, int ld)
{
    const int r = get_global_id(0);
    if (r >= n)
        return;
    for (int col = 0; col < n; ++col) {
        float sum = 0.0f;
        for (int k = 0; k < n; ++k)
            sum += a[r * ld + k] * bt[col * ld + k];
        c[r * ld + col] = sum;
    }
}

#ifdef ROW_CAP
// Step 5: the work-item's row of A is copied once into a private array (ROW_CAP >= ld floats) and
// reused for every column.
__kernel void matmul_row_in_private(__global const float *a, __global const float *bt, __global float *c, int n,
                                    int ld)
{
    const int r = get_global_id(0);
    if (r >= n)
        return;
    float row[ROW_CAP];
    for (int k = 0; k < n; ++k)
        row[k] = a[r * ld + k];
    for (int col = 0; col < n; ++col) {
        float sum = 0.0f;
        for (int k = 0; k < n; ++k)
            sum += row[k] * bt[col * ld + k];
        c[r * ld + col] = sum;
    }
}

// Step 6: as step 5, and the work-group copies each column of B into local memory together (a strided
// loop over its work-items), waits at a barrier, then every work-item reads the shared copy. Work-items
// past the last row keep running so that every barrier is reached by the whole group.
__kernel void matmul_column_in_local(__global const float *a, __global const float *bt, __global float *c, int n,
                                     int ld)
{
    const int r = get_global_id(0);
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    const bool live = r < n;
    float row[ROW_CAP];
    __local float column[ROW_CAP];
    for (int k = 0; k < n; ++k)
        row[k] = live ? a[r * ld + k] : 0.0f;
    for (int col = 0; col < n; ++col) {
        for (int k = lid; k < n; k += lsize)
            column[k] = bt[col * ld + k];
        barrier(CLK_LOCAL_MEM_FENCE);
        float sum = 0.0f;
        for (int k = 0; k < n; ++k)
            sum += row[k] * column[k];
        if (live)
            c[r * ld + col] = sum;
        barrier(CLK_LOCAL_MEM_FENCE); // nobody overwrites the column while another still reads it
    }
}

// Step 7: the inner loop multiplies four at a time with dot(), building both float4s from scalars
// every iteration (ld is a multiple of 4; the padding is zeros).
__kernel void matmul_float4(__global const float *a, __global const float *bt, __global float *c, int n, int ld)
{
    const int r = get_global_id(0);
    if (r >= n)
        return;
    float row[ROW_CAP];
    for (int k = 0; k < ld; ++k)
        row[k] = a[r * ld + k];
    for (int col = 0; col < n; ++col) {
        float sum = 0.0f;
        for (int k = 0; k < ld; k += 4)
            sum += dot((float4)(row[k], row[k + 1], row[k + 2], row[k + 3]),
                       (float4)(bt[col * ld + k], bt[col * ld + k + 1], bt[col * ld + k + 2], bt[col * ld + k + 3]));
        c[r * ld + col] = sum;
    }
}

// Step 8: the private row is kept as float4s, built once before the loops (the "conversions hoisted").
__kernel void matmul_float4_hoisted(__global const float *a, __global const float *bt, __global float *c, int n,
                                    int ld)
{
    const int r = get_global_id(0);
    if (r >= n)
        return;
    float4 row[ROW_CAP / 4];
    for (int k = 0; k < ld / 4; ++k)
        row[k] = (float4)(a[r * ld + 4 * k], a[r * ld + 4 * k + 1], a[r * ld + 4 * k + 2], a[r * ld + 4 * k + 3]);
    for (int col = 0; col < n; ++col) {
        float sum = 0.0f;
        for (int k = 0; k < ld / 4; ++k)
            sum += dot(row[k], (float4)(bt[col * ld + 4 * k], bt[col * ld + 4 * k + 1], bt[col * ld + 4 * k + 2],
                                        bt[col * ld + 4 * k + 3]));
        c[r * ld + col] = sum;
    }
}

// dot() stops at four lanes: the seed's dot8 adds the halves and dots with ones.
inline float dot8(float8 x, float8 y)
{
    const float8 p = x * y;
    return dot(p.lo + p.hi, (float4)(1.0f));
}

// Step 9: the same with float8 (ld is a multiple of 8).
__kernel void matmul_float8(__global const float *a, __global const float *bt, __global float *c, int n, int ld)
{
    const int r = get_global_id(0);
    if (r >= n)
        return;
    float8 row[ROW_CAP / 8];
    for (int k = 0; k < ld / 8; ++k)
        row[k] = vload8(k, a + r * ld);
    for (int col = 0; col < n; ++col) {
        float sum = 0.0f;
        for (int k = 0; k < ld / 8; ++k) {
            const int base = col * ld + 8 * k;
            sum += dot8(row[k], (float8)(bt[base], bt[base + 1], bt[base + 2], bt[base + 3], bt[base + 4],
                                         bt[base + 5], bt[base + 6], bt[base + 7]));
        }
        c[r * ld + col] = sum;
    }
}
#endif // ROW_CAP

// ---- Seed 002: 16x16 tiles through local memory ---------------------------------------------------

#ifndef TILE
#define TILE 16
#endif

// One work-item per element of C (id 0 = column, so a warp reads rows of B and writes rows of C
// contiguously). The group stages a TILE x TILE block of A and of B in local memory per step, so each
// element loaded from global memory serves TILE products. Edge tiles load zeros past n.
__kernel void matmul_tiled_local(__global const float *a, __global const float *b, __global float *c, int n, int ld)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int col = get_global_id(0);
    const int r = get_global_id(1);
    __local float as[TILE][TILE];
    __local float bs[TILE][TILE];
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        as[ty][tx] = (r < n && t + tx < n) ? a[r * ld + t + tx] : 0.0f;
        bs[ty][tx] = (t + ty < n && col < n) ? b[(t + ty) * ld + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            sum += as[ty][k] * bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (r < n && col < n)
        c[r * ld + col] = sum;
}

// ---- Past the seeds: myGEMM's register blocking ---------------------------------------------------
// A work-group computes a TSM x TSN block of C with (TSN/WPTN) x (TSM/WPTM) work-items; each work-item
// keeps a WPTM x WPTN block of sums in registers. Per step the group stages a TSM x TSK slab of A and a
// TSK x TSN slab of B in local memory. The host pads n up to a multiple of TSM, TSN and TSK (ld), so the
// kernels need no guards; the padding is zeros and adds nothing to the sums.

#if defined(TSM) && defined(TSN) && defined(TSK) && defined(WPTM) && defined(WPTN)
#define RTSM (TSM / WPTM) // work-items down a group (local size 1)
#define RTSN (TSN / WPTN) // work-items across a group (local size 0)
#define GROUP_ITEMS (RTSM * RTSN)
#ifndef PAD
#define PAD 0
#endif

// Rung 11 (myGEMM 6): scalar loads. A work-item's outputs are strided by RTSM rows and RTSN columns, so
// neighbouring work-items read neighbouring words of local memory (no bank conflicts) and write
// neighbouring words of C.
__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void
matmul_register_blocked(__global const float *a, __global const float *b, __global float *c, int n, int ld)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int tid = ty * RTSN + tx;
    const int row0 = get_group_id(1) * TSM;
    const int col0 = get_group_id(0) * TSN;
    __local float as[TSM][TSK];
    __local float bs[TSK][TSN];
    float acc[WPTM][WPTN];
    for (int wm = 0; wm < WPTM; ++wm)
        for (int wn = 0; wn < WPTN; ++wn)
            acc[wm][wn] = 0.0f;
    for (int t = 0; t < ld; t += TSK) {
        for (int id = tid; id < TSM * TSK; id += GROUP_ITEMS) {
            const int m = id / TSK, k = id % TSK;
            as[m][k] = a[(row0 + m) * ld + t + k];
        }
        for (int id = tid; id < TSK * TSN; id += GROUP_ITEMS) {
            const int k = id / TSN, nn = id % TSN;
            bs[k][nn] = b[(t + k) * ld + col0 + nn];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TSK; ++k) {
            float breg[WPTN];
            for (int wn = 0; wn < WPTN; ++wn)
                breg[wn] = bs[k][tx + wn * RTSN];
            for (int wm = 0; wm < WPTM; ++wm) {
                const float areg = as[ty + wm * RTSM][k];
                for (int wn = 0; wn < WPTN; ++wn)
                    acc[wm][wn] = fma(areg, breg[wn], acc[wm][wn]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int wm = 0; wm < WPTM; ++wm)
        for (int wn = 0; wn < WPTN; ++wn)
            c[(row0 + ty + wm * RTSM) * ld + col0 + tx + wn * RTSN] = acc[wm][wn];
}

// Rungs 12-14 share one body. A work-item's outputs come in float4 runs: rows ty*4 + i + g*RTSM*4 and
// columns tx*4 + j + h*RTSN*4 (i, j < 4), so its operands are float4 reads of local memory and its
// results float4 writes, and sixteen neighbouring work-items still cover 256 contiguous bytes. The A
// slab is stored transposed (k-major) so four rows of one k are one float4; global slabs are read as
// float4 (16-byte loads). PAD widens each transposed row: without it the four words a work-item stores
// from one float4 of A land TSM words apart, in the same bank as its neighbours' (bank conflicts).
#define VM (WPTM / 4) // float4 runs of rows per work-item
#define VN (WPTN / 4) // float4 runs of columns per work-item
#define AS_STRIDE (TSM + PAD)
#define A_LOADS (TSM * TSK / 4 / GROUP_ITEMS) // float4 loads of A per work-item per slab
#define B_LOADS (TSK * TSN / 4 / GROUP_ITEMS)

inline void load_slabs(__global const float *a, __global const float *b, int ld, int row0, int col0, int t, int tid,
                       float4 *ar, float4 *br)
{
    for (int l = 0; l < A_LOADS; ++l) {
        const int id = tid + l * GROUP_ITEMS; // TSK/4 float4s per row of the slab
        const int m = id / (TSK / 4), k4 = id % (TSK / 4);
        ar[l] = vload4(0, a + (row0 + m) * ld + t + 4 * k4);
    }
    for (int l = 0; l < B_LOADS; ++l) {
        const int id = tid + l * GROUP_ITEMS;
        const int k = id / (TSN / 4), n4 = id % (TSN / 4);
        br[l] = vload4(0, b + (t + k) * ld + col0 + 4 * n4);
    }
}

inline void store_slabs(__local float *as, __local float *bs, int tid, const float4 *ar, const float4 *br)
{
    for (int l = 0; l < A_LOADS; ++l) {
        const int id = tid + l * GROUP_ITEMS;
        const int m = id / (TSK / 4), k = 4 * (id % (TSK / 4));
        as[(k + 0) * AS_STRIDE + m] = ar[l].x;
        as[(k + 1) * AS_STRIDE + m] = ar[l].y;
        as[(k + 2) * AS_STRIDE + m] = ar[l].z;
        as[(k + 3) * AS_STRIDE + m] = ar[l].w;
    }
    for (int l = 0; l < B_LOADS; ++l) {
        const int id = tid + l * GROUP_ITEMS;
        const int k = id / (TSN / 4), n4 = id % (TSN / 4);
        vstore4(br[l], 0, bs + k * TSN + 4 * n4);
    }
}

inline void multiply_slab(__local const float *as, __local const float *bs, int tx, int ty, float4 acc[WPTM][VN])
{
    for (int k = 0; k < TSK; ++k) {
        float4 breg[VN];
        for (int h = 0; h < VN; ++h)
            breg[h] = vload4(0, bs + k * TSN + 4 * tx + h * RTSN * 4);
        for (int g = 0; g < VM; ++g) {
            const float4 areg = vload4(0, as + k * AS_STRIDE + 4 * ty + g * RTSM * 4);
            for (int h = 0; h < VN; ++h) {
                acc[4 * g + 0][h] = fma((float4)(areg.x), breg[h], acc[4 * g + 0][h]);
                acc[4 * g + 1][h] = fma((float4)(areg.y), breg[h], acc[4 * g + 1][h]);
                acc[4 * g + 2][h] = fma((float4)(areg.z), breg[h], acc[4 * g + 2][h]);
                acc[4 * g + 3][h] = fma((float4)(areg.w), breg[h], acc[4 * g + 3][h]);
            }
        }
    }
}

inline void store_block(__global float *c, int ld, int row0, int col0, int tx, int ty, float4 acc[WPTM][VN])
{
    for (int g = 0; g < VM; ++g)
        for (int i = 0; i < 4; ++i)
            for (int h = 0; h < VN; ++h)
                vstore4(acc[4 * g + i][h], 0, c + (row0 + g * RTSM * 4 + 4 * ty + i) * ld + col0 + h * RTSN * 4 + 4 * tx);
}

// Rungs 12 (PAD 0: wide loads) and 13 (PAD 4: padded transposed tile): load, wait, multiply, wait.
__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void
matmul_register_blocked_wide(__global const float *a, __global const float *b, __global float *c, int n, int ld)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int tid = ty * RTSN + tx;
    const int row0 = get_group_id(1) * TSM;
    const int col0 = get_group_id(0) * TSN;
    __local float as[TSK * AS_STRIDE];
    __local float bs[TSK * TSN];
    float4 acc[WPTM][VN];
    for (int i = 0; i < WPTM; ++i)
        for (int h = 0; h < VN; ++h)
            acc[i][h] = (float4)(0.0f);
    float4 ar[A_LOADS], br[B_LOADS];
    for (int t = 0; t < ld; t += TSK) {
        load_slabs(a, b, ld, row0, col0, t, tid, ar, br);
        store_slabs(as, bs, tid, ar, br);
        barrier(CLK_LOCAL_MEM_FENCE);
        multiply_slab(as, bs, tx, ty, acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    store_block(c, ld, row0, col0, tx, ty, acc);
}

// Rung 14 (myGEMM's prefetching): two sets of slabs. The next slab's global loads are issued into
// registers before the current slab is multiplied, so their latency hides behind the arithmetic, and
// they are stored into the other local buffer afterwards: one barrier per step instead of two.
__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void
matmul_register_blocked_prefetch(__global const float *a, __global const float *b, __global float *c, int n, int ld)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int tid = ty * RTSN + tx;
    const int row0 = get_group_id(1) * TSM;
    const int col0 = get_group_id(0) * TSN;
    __local float as[2][TSK * AS_STRIDE];
    __local float bs[2][TSK * TSN];
    float4 acc[WPTM][VN];
    for (int i = 0; i < WPTM; ++i)
        for (int h = 0; h < VN; ++h)
            acc[i][h] = (float4)(0.0f);
    float4 ar[A_LOADS], br[B_LOADS];
    load_slabs(a, b, ld, row0, col0, 0, tid, ar, br);
    store_slabs(as[0], bs[0], tid, ar, br);
    barrier(CLK_LOCAL_MEM_FENCE);
    int buf = 0;
    for (int t = 0; t < ld; t += TSK) {
        const bool more = t + TSK < ld;
        if (more)
            load_slabs(a, b, ld, row0, col0, t + TSK, tid, ar, br);
        multiply_slab(as[buf], bs[buf], tx, ty, acc);
        if (more)
            store_slabs(as[1 - buf], bs[1 - buf], tid, ar, br);
        barrier(CLK_LOCAL_MEM_FENCE);
        buf = 1 - buf;
    }
    store_block(c, ld, row0, col0, tx, ty, acc);
}
#endif // register-blocking defines

// ---- Past the seeds: warp tiling (CUTLASS's SIMT GEMM, siboehm's SGEMM kernel 10) --------------------
// A work-group of THREADS = (BM/WM) * (BN/WN) * 32 work-items (1-D) computes a BM x BN block of C; the
// host's 2-D range is (ld/BN * THREADS, ld/BM), so group (x, y) owns columns x*BN.. and rows y*BM...
// Its work-items form warps of 32 (NVIDIA fills warps with consecutive local ids), warp w covering a
// WM x WN region of the block, (BN/WN) warps across. In that region a warp's lanes form a grid of
// LANES_M = WM/TM rows by LANES_N = WN/TN columns (lane = ly * LANES_N + lx), and each work-item keeps
// TM x TN sums in registers as (TM/4) x (TN/4) float4 runs that sit 4*LANES_M rows and 4*LANES_N columns
// apart (CUTLASS's warp sub-tiles). So for one k the warp reads, as float4s, LANES_N consecutive 16-byte
// words of the B slab and LANES_M consecutive words of the transposed A slab, each word broadcast to the
// lanes of one column or row: no bank conflicts, and every value read feeds TN or TM multiply-adds.
// Slabs are double-buffered as in rung 14, and every fixed-trip loop is unrolled so the sums, operands
// and prefetched loads stay in registers. The host pads n to a multiple of BM, BN and BK (zeros).
#if defined(BM) && defined(BN) && defined(BK) && defined(WM) && defined(WN) && defined(TM) && defined(TN)
#ifndef PAD
#define PAD 4
#endif
#define WT_LANES_M (WM / TM)
#define WT_LANES_N (WN / TN)
#define WT_THREADS ((BM / WM) * (BN / WN) * 32)
#define WT_AS_STRIDE (BM + PAD) // floats per k-row of the transposed A slab
#define WT_A_LOADS (BM * BK / 4 / WT_THREADS) // float4 loads of A per work-item per slab
#define WT_B_LOADS (BK * BN / 4 / WT_THREADS)
#if WT_LANES_M * WT_LANES_N != 32
#error "warp_tiled: a warp's WM x WN region must be 32 work-items' TM x TN sums"
#endif
#if BM % WM || BN % WN || TM % 4 || TN % 4 || BM % 16 || BN % 4 || BK % 8 || PAD % 4
#error "warp_tiled: needs WM | BM, WN | BN, 4 | TM, TN, BN, PAD, 16 | BM and 8 | BK"
#endif
#if (BM * BK / 4) % WT_THREADS || (BK * BN / 4) % WT_THREADS
#error "warp_tiled: each slab must be whole float4 loads for every work-item"
#endif

// Where float4 load `id` of the A slab comes from: row m, float4 k4 (floats 4*k4.. of the slab's row).
// A warp takes 16 rows by 2 float4s (one 32-byte sector per row), so when it scatters them transposed
// its stores of one component fall on 16 consecutive words and the same 16 words 4*(BM+PAD) further,
// in the other half of the 32 banks when BM + PAD = 4 (mod 8) (PAD = 4 with BM = 128): conflict-free.
inline int2 wt_a_slot(int id)
{
    return (int2)(id % 16 + 16 * ((id / 32) % (BM / 16)), (id / 16) % 2 + 2 * (id / (32 * (BM / 16))));
}

// One slab's global loads into registers (A's rows BM at row0, B's columns BN at col0, k from t). The
// pointers are float4-typed because vload4 promises only 4-byte alignment, and a compiler may split
// it into four loads; ld, t and the columns are multiples of 4, so every float4 here is aligned.
inline void wt_load(__global const float4 *a, __global const float4 *b, int ld4, int row0, int col0, int t, int tid,
                    float4 ar[WT_A_LOADS], float4 br[WT_B_LOADS])
{
#pragma unroll
    for (int l = 0; l < WT_A_LOADS; ++l) {
        const int2 s = wt_a_slot(tid + l * WT_THREADS);
        ar[l] = a[(row0 + s.x) * ld4 + t / 4 + s.y];
    }
#pragma unroll
    for (int l = 0; l < WT_B_LOADS; ++l) {
        const int id = tid + l * WT_THREADS; // a warp reads 32 consecutive float4s of one row of B
        br[l] = b[(t + id / (BN / 4)) * ld4 + col0 / 4 + id % (BN / 4)];
    }
}

// The registers into one local buffer: A transposed (as[k * WT_AS_STRIDE + m]), B as it is.
inline void wt_store(__local float4 *as4, __local float4 *bs4, int tid, const float4 ar[WT_A_LOADS],
                     const float4 br[WT_B_LOADS])
{
    __local float *as = (__local float *)as4;
#pragma unroll
    for (int l = 0; l < WT_A_LOADS; ++l) {
        const int2 s = wt_a_slot(tid + l * WT_THREADS);
        __local float *column = as + 4 * s.y * WT_AS_STRIDE + s.x;
        column[0] = ar[l].x;
        column[WT_AS_STRIDE] = ar[l].y;
        column[2 * WT_AS_STRIDE] = ar[l].z;
        column[3 * WT_AS_STRIDE] = ar[l].w;
    }
#pragma unroll
    for (int l = 0; l < WT_B_LOADS; ++l)
        bs4[tid + l * WT_THREADS] = br[l];
}

// One slab's BK outer products into the work-item's sums. arow4 and bcol4 are its first runs' float4
// offsets in a k-row of the A and B slabs.
inline void wt_multiply(__local const float4 *as4, __local const float4 *bs4, int arow4, int bcol4,
                        float4 acc[TM][TN / 4])
{
#pragma unroll
    for (int k = 0; k < BK; ++k) {
        float4 areg[TM / 4], breg[TN / 4];
#pragma unroll
        for (int g = 0; g < TM / 4; ++g)
            areg[g] = as4[k * (WT_AS_STRIDE / 4) + arow4 + g * WT_LANES_M];
#pragma unroll
        for (int h = 0; h < TN / 4; ++h)
            breg[h] = bs4[k * (BN / 4) + bcol4 + h * WT_LANES_N];
#pragma unroll
        for (int g = 0; g < TM / 4; ++g)
#pragma unroll
            for (int h = 0; h < TN / 4; ++h) {
                acc[4 * g + 0][h] = fma((float4)(areg[g].x), breg[h], acc[4 * g + 0][h]);
                acc[4 * g + 1][h] = fma((float4)(areg[g].y), breg[h], acc[4 * g + 1][h]);
                acc[4 * g + 2][h] = fma((float4)(areg[g].z), breg[h], acc[4 * g + 2][h]);
                acc[4 * g + 3][h] = fma((float4)(areg[g].w), breg[h], acc[4 * g + 3][h]);
            }
    }
}

__kernel __attribute__((reqd_work_group_size(WT_THREADS, 1, 1))) void
matmul_warp_tiled(__global const float *a, __global const float *b, __global float *c, int n, int ld)
{
    const int tid = get_local_id(0);
    const int warp = tid / 32, lane = tid % 32;
    // The work-item's first run: float4 offsets of its rows in the block (A slab) and of its columns.
    const int arow4 = (warp / (BN / WN)) * (WM / 4) + lane / WT_LANES_N;
    const int bcol4 = (warp % (BN / WN)) * (WN / 4) + lane % WT_LANES_N;
    const int row0 = get_group_id(1) * BM;
    const int col0 = get_group_id(0) * BN;
    const int ld4 = ld / 4;
    __global const float4 *a4 = (__global const float4 *)a;
    __global const float4 *b4 = (__global const float4 *)b;
    __local float4 as[2][BK * WT_AS_STRIDE / 4];
    __local float4 bs[2][BK * BN / 4];
    float4 acc[TM][TN / 4];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int h = 0; h < TN / 4; ++h)
            acc[i][h] = (float4)(0.0f);
    float4 ar[WT_A_LOADS], br[WT_B_LOADS];
    wt_load(a4, b4, ld4, row0, col0, 0, tid, ar, br);
    wt_store(as[0], bs[0], tid, ar, br);
    barrier(CLK_LOCAL_MEM_FENCE);
    int buf = 0;
    for (int t = 0; t < ld; t += BK) {
        const bool more = t + BK < ld;
        if (more) // the next slab's loads are in flight while this one is multiplied
            wt_load(a4, b4, ld4, row0, col0, t + BK, tid, ar, br);
        wt_multiply(as[buf], bs[buf], arow4, bcol4, acc);
        if (more) // the other buffer: everyone finished reading it before the last barrier
            wt_store(as[1 - buf], bs[1 - buf], tid, ar, br);
        barrier(CLK_LOCAL_MEM_FENCE);
        buf = 1 - buf;
    }
    __global float4 *c4 = (__global float4 *)c;
#pragma unroll
    for (int g = 0; g < TM / 4; ++g)
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int r = row0 + 4 * (arow4 + g * WT_LANES_M) + i;
#pragma unroll
            for (int h = 0; h < TN / 4; ++h)
                c4[r * ld4 + col0 / 4 + bcol4 + h * WT_LANES_N] = acc[4 * g + i][h];
        }
}
#endif // warp-tiling defines

// ---- Past the seeds, for CPU devices: column strips ------------------------------------------------
#ifdef CS_ROWS
// Work-item (s, q) computes the CS_ROWS x 16 block of C at rows s*CS_ROWS.., columns 16q..: along k it
// loads 16 consecutive floats of B's row k as one float16 (one 64-byte vector register on an AVX-512
// core) and CS_ROWS elements of A, and keeps CS_ROWS float16 sums in registers: every vector of B loaded
// serves CS_ROWS vector multiply-adds. Explicit vectors because a CPU device such as PoCL vectorises
// across work-items only in loops without inner loops; this kernel's work is all inner loop. B and C rows
// are padded to ld (a multiple of 64 floats, so every float16 is aligned) and A to whole strips with
// zeros, so the range needs no edge test.
__kernel void matmul_column_strips(__global const float *a, __global const float *b, __global float *c, int n, int ld)
{
    // Dimension 0 walks down the strips: the work-items a CPU device runs one after another share one
    // 16-column panel of B (n x 64 bytes), which then stays in the core's cache.
    const int i0 = get_global_id(0) * CS_ROWS;
    const int q = get_global_id(1);
    float16 acc[CS_ROWS];
    for (int r = 0; r < CS_ROWS; ++r)
        acc[r] = (float16)(0.0f);
    for (int k = 0; k < n; ++k) {
        const float16 bk = ((__global const float16 *)(b + (size_t)k * ld))[q];
        for (int r = 0; r < CS_ROWS; ++r)
            acc[r] = fma((float16)(a[(size_t)(i0 + r) * ld + k]), bk, acc[r]);
    }
    for (int r = 0; r < CS_ROWS; ++r)
        ((__global float16 *)(c + (size_t)(i0 + r) * ld))[q] = acc[r];
}
#endif
