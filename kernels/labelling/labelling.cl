// Connected-component labelling by label equivalence, then scipy's
// numbering by a prefix sum over the roots: the same five steps as the
// CUDA kernels (labelling.cuh), in OpenCL 1.2.
//
//   label_tiles          each work-group labels one TILE_WIDTH×TILE_HEIGHT tile in local memory
//   merge_tile_borders   unites the pixels that touch across tile borders
//   count_roots          marks and counts the roots
//   scan_chunk_counts    one work-group: the exclusive prefix over the chunks
//   number_components    label = 1 + the number of roots before my root
//
// A label is a pixel's linear index, -1 for background; a union hangs the
// larger root under the smaller (atomic_min), so each component's root is
// its first pixel in raster order. Built with -DCONNECTIVITY=4|8,
// -DTILE_WIDTH, -DTILE_HEIGHT, -DCHUNK (a multiple of 32) and -DSCAN_ITEMS.
// OpenCL 1.2 has no ballot, so tiles start each pixel at its own index and
// unite with the left neighbour too (CUDA starts at the run's first pixel).

#define JOIN_A 1u  // up-left
#define JOIN_B 2u  // up
#define JOIN_C 4u  // up-right
#define JOIN_D 8u  // left

// The neighbours a foreground pixel unites with, from its scan mask: the
// serial rung's decision tree (solutions/labelling/two_pass.hpp).
uint join_mask(bool a, bool b, bool c, bool d) {
#if CONNECTIVITY == 4
  return (d ? JOIN_D : 0u) | (b && !(d && a) ? JOIN_B : 0u);
#else
  if (d) return JOIN_D | (c && !b ? JOIN_C : 0u);
  if (b) return JOIN_B;
  return (a ? JOIN_A : 0u) | (c ? JOIN_C : 0u);
#endif
}

// Union-find in local and in global memory (OpenCL 1.2 has no generic
// address space: one copy each). While the forest is built, many
// work-items change it at once, so every access to it is atomic: OpenCL
// 1.2 has no atomic load, and atomic_or(p, 0) reads without changing.
// Then no two work-items race on a label (`ladder check --race` holds
// this). atomic_min returns what was there: if it was no longer a root,
// carry on from where it now points.
int find_root_local(volatile __local int* parent, int i) {
  int p = atomic_or(&parent[i], 0);
  while (p != i) {
    i = p;
    p = atomic_or(&parent[i], 0);
  }
  return i;
}

void unite_local(volatile __local int* parent, int a, int b) {
  while (true) {
    a = find_root_local(parent, a);
    b = find_root_local(parent, b);
    if (a == b) return;
    const int smaller = min(a, b), larger = max(a, b);
    const int old = atomic_min(&parent[larger], smaller);
    if (old == larger) return;
    a = smaller, b = old;
  }
}

int find_root_global(volatile __global int* parent, int i) {
  int p = atomic_or(&parent[i], 0);
  while (p != i) {
    i = p;
    p = atomic_or(&parent[i], 0);
  }
  return i;
}

void unite_global(volatile __global int* parent, int a, int b) {
  while (true) {
    a = find_root_global(parent, a);
    b = find_root_global(parent, b);
    if (a == b) return;
    const int smaller = min(a, b), larger = max(a, b);
    const int old = atomic_min(&parent[larger], smaller);
    if (old == larger) return;
    a = smaller, b = old;
  }
}

// One work-group per tile, on a 2-D launch: group (i, j) is the tile i
// across and j down, work-item (lane, row) its pixel. Each pixel leaves the
// global index of its tile-local root, or -1 for background.
__kernel void label_tiles(__global const uchar* image, const int height, const int width, __global int* forest) {
  __local int parent[TILE_WIDTH * TILE_HEIGHT];
  const int lane = get_local_id(0), row = get_local_id(1), t = row * TILE_WIDTH + lane;
  const int x0 = get_group_id(0) * TILE_WIDTH, y0 = get_group_id(1) * TILE_HEIGHT;
  const int x = x0 + lane, y = y0 + row;
  const bool inside = x < width && y < height;
  const int i = inside ? y * width + x : 0;
  const bool fg = inside && image[i];
  parent[t] = t;
  barrier(CLK_LOCAL_MEM_FENCE);  // every pixel is its own root before anyone unites

  if (fg) {
    const bool a = x > 0 && y > 0 && image[i - width - 1];
    const bool b = y > 0 && image[i - width];
    const bool c = x + 1 < width && y > 0 && image[i - width + 1];
    const bool d = x > 0 && image[i - 1];
    const uint join = join_mask(a, b, c, d);
    if ((join & JOIN_A) && lane > 0 && row > 0) unite_local(parent, t, t - TILE_WIDTH - 1);
    if ((join & JOIN_B) && row > 0) unite_local(parent, t, t - TILE_WIDTH);
    if ((join & JOIN_C) && lane < TILE_WIDTH - 1 && row > 0) unite_local(parent, t, t - TILE_WIDTH + 1);
    if ((join & JOIN_D) && lane > 0) unite_local(parent, t, t - 1);
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // all unions done before the roots are read

  if (inside) {
    const int root = fg ? find_root_local(parent, t) : 0;
    forest[i] = fg ? (y0 + root / TILE_WIDTH) * width + x0 + root % TILE_WIDTH : -1;
  }
}

// One work-group per tile (group (i, j), as for label_tiles): work-item k
// takes one pixel of the tile's top
// row (k < TILE_WIDTH), left column (then) or right column (8 only), and
// makes the unions of its join mask that reach outside the tile.
__kernel void merge_tile_borders(__global const uchar* image, const int height, const int width,
                                 volatile __global int* forest) {
  const int k = get_local_id(0);
  int lane, row;
  if (k < TILE_WIDTH) {
    lane = k, row = 0;
  } else if (k < TILE_WIDTH + TILE_HEIGHT - 1) {
    lane = 0, row = k - TILE_WIDTH + 1;
  } else if (CONNECTIVITY == 8 && k < TILE_WIDTH + 2 * (TILE_HEIGHT - 1)) {
    lane = TILE_WIDTH - 1, row = k - TILE_WIDTH - TILE_HEIGHT + 2;
  } else {
    return;
  }
  const int x = get_group_id(0) * TILE_WIDTH + lane, y = get_group_id(1) * TILE_HEIGHT + row;
  if (x >= width || y >= height) return;
  const int i = y * width + x;
  if (!image[i]) return;
  const bool a = x > 0 && y > 0 && image[i - width - 1];
  const bool b = y > 0 && image[i - width];
  const bool c = x + 1 < width && y > 0 && image[i - width + 1];
  const bool d = x > 0 && image[i - 1];
  const uint join = join_mask(a, b, c, d);
  if ((join & JOIN_A) && (lane == 0 || row == 0)) unite_global(forest, i, i - width - 1);
  if ((join & JOIN_B) && row == 0) unite_global(forest, i, i - width);
  if ((join & JOIN_C) && (lane == TILE_WIDTH - 1 || row == 0)) unite_global(forest, i, i - width + 1);
  if ((join & JOIN_D) && lane == 0) unite_global(forest, i, i - 1);
}

// One work-group per chunk of CHUNK pixels. Marks the roots, the pixels
// that are their own parent (no unions happen any more: the forest is only
// read from here on): root_bits has one bit per pixel, word_offsets the
// number of roots in the chunk before each 32-pixel word, chunk_counts the
// chunk's total.
__kernel void count_roots(__global const int* forest, const uint n, __global uint* root_bits,
                          __global int* word_offsets, __global int* chunk_counts) {
  __local uint bits[CHUNK / 32];
  const uint lid = get_local_id(0), i = get_global_id(0);
  if (lid < CHUNK / 32) bits[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);  // bits cleared before anyone sets one
  if (i < n && forest[i] == (int)i) atomic_or(&bits[lid / 32], 1u << (lid % 32));
  barrier(CLK_LOCAL_MEM_FENCE);  // every root marked

  if (lid == 0) {  // CHUNK / 32 words: one work-item sums them up
    const uint first_word = get_group_id(0) * (CHUNK / 32);
    int sum = 0;
    for (int w = 0; w < CHUNK / 32; ++w) {
      root_bits[first_word + w] = bits[w];
      word_offsets[first_word + w] = sum;
      sum += popcount(bits[w]);
    }
    chunk_counts[get_group_id(0)] = sum;
  }
}

// One work-group of SCAN_ITEMS work-items: counts[k] becomes the sum of
// counts[0..k), SCAN_ITEMS entries at a time (a Hillis-Steele scan in
// local memory), carrying the running total between them.
__kernel void scan_chunk_counts(__global int* counts, const uint chunks) {
  __local int sums[SCAN_ITEMS];
  __local int carry;
  const uint lid = get_local_id(0);
  if (lid == 0) carry = 0;
  for (uint base = 0; base < chunks; base += SCAN_ITEMS) {
    const uint k = base + lid;
    const int value = k < chunks ? counts[k] : 0;
    sums[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint step = 1; step < SCAN_ITEMS; step *= 2) {
      const int other = lid >= step ? sums[lid - step] : 0;
      barrier(CLK_LOCAL_MEM_FENCE);  // everyone has read before anyone writes
      sums[lid] += other;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    const int exclusive = carry + sums[lid] - value;
    if (k < chunks) counts[k] = exclusive;
    barrier(CLK_LOCAL_MEM_FENCE);  // everyone has read the carry before it moves on
    if (lid == SCAN_ITEMS - 1) carry = exclusive + value;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// labels[i] = 1 + the number of roots before i's root, or 0 for background.
// The forest is only read, and the numbers go to another array: a
// work-item that rewrote forest[i] would race with those walking through i.
__kernel void number_components(__global const int* forest, __global int* labels, const uint n,
                                __global const uint* root_bits, __global const int* word_offsets,
                                __global const int* chunk_offsets) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  int root = forest[i];
  if (root < 0) {
    labels[i] = 0;
    return;
  }
  for (int next; (next = forest[root]) != root;) root = next;
  const uint word = (uint)root / 32, below = (1u << ((uint)root % 32)) - 1u;
  labels[i] = 1 + chunk_offsets[(uint)root / CHUNK] + word_offsets[word] + popcount(root_bits[word] & below);
}
