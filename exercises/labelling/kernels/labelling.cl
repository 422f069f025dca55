// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// Connected-component labelling by label equivalence, then scipy's
// numbering by a prefix sum over the roots. Five kernels, enqueued in this
// order:
//
//   label_tiles          each work-group labels one TILE_WIDTH×TILE_HEIGHT tile in local memory   (yours)
//   merge_tile_borders   unites the pixels that touch across tile borders                        (yours)
//   count_roots          marks and counts the roots                                              (given)
//   scan_chunk_counts    one work-group: the exclusive prefix over the chunks                    (given)
//   number_components    label = 1 + the number of roots before my root                          (given)
//
// A label is a pixel's linear index; forest[i] = -1 for background. After
// your two kernels, forest[] is a forest: following forest[i],
// forest[forest[i]], ... from a foreground pixel leads to its component's
// root r, with forest[r] = r, and r is the component's smallest index (its
// first pixel in raster order). The given kernels turn that into scipy's
// numbering. Built with -DCONNECTIVITY=4|8, -DTILE_WIDTH (32),
// -DTILE_HEIGHT (up to 16), -DCHUNK and -DSCAN_ITEMS.
// ==== end

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

// ==== exercise only
// The root of i's tree: follow the parents until a label is its own.
// (OpenCL 1.2 has no generic address space: one copy per memory.) Other
// work-items change the forest meanwhile, so every access to it is
// atomic: OpenCL 1.2 has no atomic load, and atomic_or(p, 0) reads without
// changing. A plain read there is a data race (`ladder check --race`).
// ==== end
int find_root_local(volatile __local int* parent, int i) {
  int p = atomic_or(&parent[i], 0);
  while (p != i) {
    i = p;
    p = atomic_or(&parent[i], 0);
  }
  return i;
}

int find_root_global(volatile __global int* parent, int i) {
  int p = atomic_or(&parent[i], 0);
  while (p != i) {
    i = p;
    p = atomic_or(&parent[i], 0);
  }
  return i;
}

// ==== yours
// LADDER_TODO: write unite_local, unite_global, label_tiles and merge_tile_borders, then delete this line.

// TODO: hang the larger of the roots of a and b under the smaller, in a
// parent array that other work-items change at the same time. Which atomic
// makes "link b's root under a" safe, and what if b's root stopped being a
// root between your find_root and your write?
void unite_local(volatile __local int* parent, int a, int b) {}
void unite_global(volatile __global int* parent, int a, int b) {}

// One work-group of TILE_WIDTH × TILE_HEIGHT work-items per tile, on a 2-D
// launch, x first: group (get_group_id(0), get_group_id(1)) is the tile that
// many tiles across and down, and its work-item (get_local_id(0),
// get_local_id(1)) the pixel that many columns across and rows down in it.
// Leaves in forest[i], for each pixel
// i of the tile, -1 for background or the global index of its root within
// the tile (the tile's union-find, in local memory: the tile as if nothing
// lay outside it).
// ==== end
__kernel void label_tiles(__global const uchar* image, const int height, const int width, __global int* forest) {
  // ==== yours
  // TODO: parent[] in __local memory, every pixel its own root; unite each
  // foreground pixel with the neighbours of its join_mask that lie inside
  // the tile; then each pixel's root, as a global index. What must every
  // work-item wait for, and when?
  // ==== end
}

// ==== exercise only
// One work-group of 64 work-items per tile (group (get_group_id(0),
// get_group_id(1)) is the tile, as for label_tiles): unites, in forest[] (global
// memory), each pixel on the tile's top row and left column (and right
// column, for 8) with the neighbours of its join_mask that lie outside the
// tile. Enqueued only when there is more than one tile.
// ==== end
__kernel void merge_tile_borders(__global const uchar* image, const int height, const int width,
                                 volatile __global int* forest) {
  // ==== yours
  // TODO: which work-item takes which border pixel? Which unions reach
  // outside the tile?
  // ==== end
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
