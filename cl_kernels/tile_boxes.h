// Where a work-item of the tile kernels (update_h.cl, update_e.cl) sits: one launch updates a
// list of boxes, each walked by whole groups of TILE_X x TILE_Y x TILE_Z4 work-items, the groups
// numbered along dimension 0 (z fastest, then y, then x, box after box). The tile variant's step
// is one box (its x/y interior, or the rows of a split step's region; engine/plan.hpp
// tile_plain_stages).
//
// boxes[9 b .. 9 b + 8]: the first plane, row and float4 of box b; the planes, rows and float4s
// it stores below (work-items past them still load their fields for their neighbours); its
// groups along z and y; the number of its first group.
#ifndef CLFDTD_TILE_BOXES_H
#define CLFDTD_TILE_BOXES_H
#include "compat.h"

typedef struct {
  int i, j, kq;     // the cell the work-item loads (and updates, below the limits)
  int i1, j1, q1;   // its box's store limits
} tile_cell;

DEVICE_FN tile_cell tile_box_cell(GLOBAL const int* RESTRICT boxes, int nboxes) {
  int g = GROUP_ID(0), b = 0;
  while (b + 1 < nboxes && g >= boxes[9 * (b + 1) + 8]) ++b;
  const int o = 9 * b;
  g -= boxes[o + 8];
  const int gz = g % boxes[o + 6], r = g / boxes[o + 6];
  const int gy = r % boxes[o + 7], gx = r / boxes[o + 7];
  tile_cell c;
  c.kq = boxes[o + 2] + gz * TILE_Z4 + LOCAL_ID(0);
  c.j = boxes[o + 1] + gy * TILE_Y + LOCAL_ID(1);
  c.i = boxes[o] + gx * TILE_X + LOCAL_ID(2);
  c.i1 = boxes[o + 3];
  c.j1 = boxes[o + 4];
  c.q1 = boxes[o + 5];
  return c;
}

#endif
