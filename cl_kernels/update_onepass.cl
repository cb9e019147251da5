// Kernel variant "onepass": H and E of a time step in one pass over the fields, double-buffered.
// Why: the two-kernel step reads E, H twice and writes each once (75 B per cell update); here a
// cell's E and H are read once and written once (48 B and the E ids), so a memory-bound GPU can
// step up to ~1.5x faster. The price is a second set of fields (48 B per cell instead of 24):
// E_new needs H_new of its -x, -y and -z neighbours, which other work-items compute in the same
// pass, so nothing may be updated in place.
//
// Layout of the work: a group is TILE_Z4 x TILE_Y work-items over (float4 kq, row j) that marches
// along x over `planes` planes i (global dimension 2 = chunk of planes). The launch covers the x/y
// interior only, rows from pml_ylo and planes from pml_xlo to nx - pml_xhi (its last group of
// rows may reach into the high y slab or past ny: those rows are loaded for their neighbours, not
// stored), as nothing in the x/y slabs is this pass's to store. Per plane it computes
// H_new on its whole tile, shares it through local memory, and computes E_new from it. E_new needs
// H_new at -y and -z, which for the tile's first row and first float4 column belong to the
// neighbouring groups: those work-items compute the few values they need themselves (H_new x, z of
// the row before; lane w of H_new x, y of the float4 before) from the input, so groups do not
// overlap and every work-item owns its float4 column. H_new at plane i - 1 (the -x neighbour) is
// the work-item's own result of the previous plane; the first plane of a chunk is preceded by one
// plane that is computed, not stored.
//
// PML cells are not this pass's to write: the UPML kernels (upml_xy4.cl on the x/y slabs,
// upml_zslab.cl on the z-slab float4s, as in the tile variant) read them from the current fields
// and write them to the next ones, H before this pass and E after it; sources are added after
// that, as in the other variants. This pass still loads a PML float4's E (current) and H_new
// (from the output, where the UPML H kernels put it) for its plain neighbours, but stores
// nothing there. (It used to copy every PML float4's E and H to the output for UPML kernels that
// then worked in place: 24 B more per PML cell, H200 onepass 50.3 -> 51.8 Gcells/s with UPML.
// Skipping the PML float4s' loads as well cost more in branches than it saved on NVIDIA's OpenCL,
// and updating E of the PML cells in this pass raised its registers and cost 12% on pec_cube:
// docs/BENCHMARKS.md.)
//
// Neighbours past the high end (H) and before index 0 (E) are zero, as in the tile kernels; so are
// the tail work-items outside the grid.
//
// Bytes per cell (roofline): read E 12 + H 12 + the E ids per float4 0.25 (id_e4; the three E
// ids, 3 B, only where the float4's twelve differ), write H 12 + E 12 = 48.25 B away from
// material boundaries (MAGNETIC: + the H ids per float4 0.25, id_h4, the same way), plus the
// edge work-items' reads of their neighbours' inputs (mostly L2). Edge values instead of halo rows
// (H200, N = 512, 8x4x32): 47.5 -> 49.1 Gcells/s with UPML, 64.5 -> 67.0 without; a group of
// 4 x 32 no longer spends a quarter of its work-items on a halo row.
#include "fdtd_common.h"
#include "upml_lanes.h"

KERNEL TILE_ATTR void update_onepass(
    GLOBAL const float4* RESTRICT ex, GLOBAL const float4* RESTRICT ey,
    GLOBAL const float4* RESTRICT ez, GLOBAL const float4* RESTRICT hx,
    GLOBAL const float4* RESTRICT hy, GLOBAL const float4* RESTRICT hz,
    GLOBAL float4* RESTRICT ex_out, GLOBAL float4* RESTRICT ey_out, GLOBAL float4* RESTRICT ez_out,
    GLOBAL float4* RESTRICT hx_out, GLOBAL float4* RESTRICT hy_out, GLOBAL float4* RESTRICT hz_out,
    GLOBAL const uchar4* RESTRICT id_ex, GLOBAL const uchar4* RESTRICT id_ey,
    GLOBAL const uchar4* RESTRICT id_ez, GLOBAL const uchar* RESTRICT id_e4,
    CONSTANT_PTR float4* RESTRICT ecoef,
    GLOBAL const uchar4* RESTRICT id_hx, GLOBAL const uchar4* RESTRICT id_hy,
    GLOBAL const uchar4* RESTRICT id_hz, GLOBAL const uchar* RESTRICT id_h4,
    CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum,
    float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz, int nz4, int pml_xlo,
    int pml_xhi, int pml_ylo, int pml_yhi, int pml_zlo, int pml_zhi, int zq_lo, int zq_hi,
    int planes) {
  LOCAL float4 s_ex[TILE_Y][TILE_Z4];
  LOCAL float4 s_ey[TILE_Y][TILE_Z4];
  LOCAL float4 s_ez[TILE_Y][TILE_Z4];
  LOCAL float4 s_hx[TILE_Y][TILE_Z4];
  LOCAL float4 s_hy[TILE_Y][TILE_Z4];
  LOCAL float4 s_hz[TILE_Y][TILE_Z4];
  (void)nz;
  (void)pml_zlo;
  (void)pml_zhi;

  const int lz = LOCAL_ID(0), ly = LOCAL_ID(1);
  const int kq = GROUP_ID(0) * TILE_Z4 + lz;
  // Groups start at the x/y interior (the launch covers it only): see the header.
  const int j = pml_ylo + GROUP_ID(1) * TILE_Y + ly;
  const int i0 = pml_xlo + GROUP_ID(2) * planes;
  const int i_end = nx - pml_xhi;
  const int i1 = i0 + planes < i_end ? i0 + planes : i_end;
  const int valid = kq < nz4 && j < ny;
  // PML float4s of this column other than x/y-slab rows: the z-slab float4s.
  const int zslab = zslab_slot(kq, zq_lo, zq_hi) >= 0;
  const int row_y_pml = j < pml_ylo || j >= ny - pml_yhi;
  const int sx = ny * nz4, sy = nz4;
  const int c0 = valid ? lane_index(0, j, kq, ny, nz4) : 0;
  // The row before the tile: H_new there is computed here unless it is a PML row.
  const int y_edge = valid && ly == 0 && j > 0;
  const int y_edge_pml = zslab || j - 1 < pml_ylo || j - 1 >= ny - pml_yhi;
  const int z_edge = valid && lz == 0 && kq > 0;
  const int z_edge_pml = row_y_pml || zslab_slot(kq - 1, zq_lo, zq_hi) >= 0;

  // E at the current plane (first: i0 - 1, or nothing before the grid), H_new of the previous one.
  const int ifirst = i0 > 0 ? i0 - 1 : 0;
  float4 e_x = zero4(), e_y = zero4(), e_z = zero4();
  // The plane's E ids per float4 (id_e4, fdtd_common.h) are loaded a plane ahead, with E, so
  // that the loads they spare are decided without waiting for them.
  int u_e_next = IDS_MIXED;
#if MAGNETIC
  int u_h_next = IDS_MIXED;  // the same for the H ids (id_h4)
#endif
  if (valid) {
    e_x = ex[c0 + ifirst * sx];
    e_y = ey[c0 + ifirst * sx];
    e_z = ez[c0 + ifirst * sx];
    u_e_next = id_e4[c0 + ifirst * sx];
#if MAGNETIC
    u_h_next = id_h4[c0 + ifirst * sx];
#endif
  }
  float4 hprev_y = zero4(), hprev_z = zero4();

  for (int i = ifirst; i < i1; ++i) {
    const int c = c0 + i * sx;
    const int load = valid && i + 1 < nx;
    const int plane_pml = i < pml_xlo || i >= nx - pml_xhi;
    const float4 ex_n = load ? ex[c + sx] : zero4();
    const float4 ey_n = load ? ey[c + sx] : zero4();
    const float4 ez_n = load ? ez[c + sx] : zero4();
    const int u_e_after = load ? id_e4[c + sx] : IDS_MIXED;
#if MAGNETIC
    const int u_h = u_h_next;
    const int u_h_after = load ? id_h4[c + sx] : IDS_MIXED;
#endif
    // This plane's H and ids are loaded before the barrier too, so their latency overlaps it.
    float4 h_x = zero4(), h_y = zero4(), h_z = zero4();
    uchar4 m_ex = MAKE_UCHAR4(0, 0, 0, 0), m_ey = m_ex, m_ez = m_ex;
    int u_e = IDS_MIXED;
    const int e_pml = zslab || row_y_pml || plane_pml;
    if (valid) {
      // H_new of a PML cell: the UPML H kernels wrote it to the output. One load through a chosen
      // pointer, not a branch between two: 1% faster on CUDA, the same on NVIDIA's OpenCL.
      GLOBAL const float4* src_x = e_pml ? (GLOBAL const float4*)hx_out : hx;
      GLOBAL const float4* src_y = e_pml ? (GLOBAL const float4*)hy_out : hy;
      GLOBAL const float4* src_z = e_pml ? (GLOBAL const float4*)hz_out : hz;
      h_x = src_x[c];
      h_y = src_y[c];
      h_z = src_z[c];
      // The three E ids only where the float4's twelve differ.
      u_e = u_e_next;
      if (u_e == IDS_MIXED) {
        m_ex = id_ex[c];
        m_ey = id_ey[c];
        m_ez = id_ez[c];
      }
    }
    const int do_e = valid && i >= i0 && !e_pml;
    // H_new (x, z) of row j - 1: hx[j-1] - db (dEz/dy - dEy/dz), hz[j-1] - db (dEy/dx - dEx/dy).
    float4 yh_x = zero4(), yh_z = zero4();
    float zh_x = 0.0f, zh_y = 0.0f;
    s_ex[ly][lz] = e_x;
    s_ey[ly][lz] = e_y;
    s_ez[ly][lz] = e_z;
    LOCAL_BARRIER();

    // H_new at plane i: forward differences of E (update_h.cl).
    if (valid) {
      float4 ex_yp, ez_yp, ex_next, ey_next;
      if (j + 1 >= ny) {
        ex_yp = zero4();
        ez_yp = zero4();
      } else if (ly + 1 < TILE_Y) {
        ex_yp = s_ex[ly + 1][lz];
        ez_yp = s_ez[ly + 1][lz];
      } else {
        ex_yp = ex[c + sy];
        ez_yp = ez[c + sy];
      }
      if (kq + 1 >= nz4) {
        ex_next = zero4();
        ey_next = zero4();
      } else if (lz + 1 < TILE_Z4) {
        ex_next = s_ex[ly][lz + 1];
        ey_next = s_ey[ly][lz + 1];
      } else {
        ex_next = ex[c + 1];
        ey_next = ey[c + 1];
      }
      if (!e_pml) {  // PML cells' H_new was loaded from the output (the UPML kernels ran first)
        const float4 curl_x = (ez_yp - e_z) * inv_dy - (shift_up(e_y, ey_next) - e_y) * inv_dz;
        const float4 curl_y = (shift_up(e_x, ex_next) - e_x) * inv_dz - (ez_n - e_z) * inv_dx;
        const float4 curl_z = (ey_n - e_y) * inv_dx - (ex_yp - e_x) * inv_dy;
#if MAGNETIC
        if (u_h != IDS_MIXED) {
          const float db = hcoef[u_h].x;
          h_x = h_x - db * curl_x;
          h_y = h_y - db * curl_y;
          h_z = h_z - db * curl_z;
        } else {
          h_x = h_x - h_coef4(hcoef, id_hx[c]) * curl_x;
          h_y = h_y - h_coef4(hcoef, id_hy[c]) * curl_y;
          h_z = h_z - h_coef4(hcoef, id_hz[c]) * curl_z;
        }
#else
        h_x = h_x - db_vacuum * curl_x;
        h_y = h_y - db_vacuum * curl_y;
        h_z = h_z - db_vacuum * curl_z;
#endif
      }
    }
    s_hx[ly][lz] = h_x;
    s_hy[ly][lz] = h_y;
    s_hz[ly][lz] = h_z;

    if (do_e && y_edge) {
      const int cm = c - sy;
      if (y_edge_pml) {
        yh_x = hx_out[cm];
        yh_z = hz_out[cm];
      } else {
        yh_x = hx[cm];
        yh_z = hz[cm];
        const float4 ym_ex = ex[cm], ym_ey = ey[cm], ym_ez = ez[cm];
        const float4 ym_eyx = i + 1 < nx ? ey[cm + sx] : zero4();
        const float ym_eyz = kq + 1 < nz4 ? ey[cm + 1].x : 0.0f;
        // Row j - 1's +y neighbour is this row: e_z, e_x.
        const float4 cx = (e_z - ym_ez) * inv_dy -
                          (MAKE_FLOAT4(ym_ey.y, ym_ey.z, ym_ey.w, ym_eyz) - ym_ey) * inv_dz;
        const float4 cz = (ym_eyx - ym_ey) * inv_dx - (e_x - ym_ex) * inv_dy;
#if MAGNETIC
        // The row's ids per float4 first (id_h4): the two id arrays only where it is mixed.
        const int u_hm = id_h4[cm];
        if (u_hm != IDS_MIXED) {
          const float db = hcoef[u_hm].x;
          yh_x = yh_x - db * cx;
          yh_z = yh_z - db * cz;
        } else {
          yh_x = yh_x - h_coef4(hcoef, id_hx[cm]) * cx;
          yh_z = yh_z - h_coef4(hcoef, id_hz[cm]) * cz;
        }
#else
        yh_x = yh_x - db_vacuum * cx;
        yh_z = yh_z - db_vacuum * cz;
#endif
      }
    }
    if (do_e && z_edge) {
      const int cm = c - 1;
      if (z_edge_pml) {
        zh_x = hx_out[cm].w;
        zh_y = hy_out[cm].w;
      } else {
        zh_x = hx[cm].w;
        zh_y = hy[cm].w;
        const float zm_ex = ex[cm].w, zm_ey = ey[cm].w, zm_ez = ez[cm].w;
        const float zm_ezy = j + 1 < ny ? ez[cm + sy].w : 0.0f;
        const float zm_ezx = i + 1 < nx ? ez[cm + sx].w : 0.0f;
        // Cell 4 kq - 1's +z neighbour is lane x of this float4.
        const float cx = (zm_ezy - zm_ez) * inv_dy - (e_y.x - zm_ey) * inv_dz;
        const float cy = (e_x.x - zm_ex) * inv_dz - (zm_ezx - zm_ez) * inv_dx;
#if MAGNETIC
        zh_x = zh_x - hcoef[id_hx[cm].w].x * cx;
        zh_y = zh_y - hcoef[id_hy[cm].w].x * cy;
#else
        zh_x = zh_x - db_vacuum * cx;
        zh_y = zh_y - db_vacuum * cy;
#endif
      }
    }
    LOCAL_BARRIER();

    if (do_e) {
      hx_out[c] = h_x;
      hy_out[c] = h_y;
      hz_out[c] = h_z;
      {
        // E_new at plane i: backward differences of H_new (update_e.cl). The -y / -z neighbours
        // come from the tile or its edge values, the -x one is the previous plane's H_new.
        float4 hx_ym, hz_ym;
        float hx_zw, hy_zw;
        if (ly == 0) {
          hx_ym = yh_x;
          hz_ym = yh_z;
        } else
        {
          hx_ym = s_hx[ly - 1][lz];
          hz_ym = s_hz[ly - 1][lz];
        }
        if (lz == 0) {
          hx_zw = zh_x;
          hy_zw = zh_y;
        } else
        {
          hx_zw = s_hx[ly][lz - 1].w;
          hy_zw = s_hy[ly][lz - 1].w;
        }
        const float4 hx_zm = MAKE_FLOAT4(hx_zw, h_x.x, h_x.y, h_x.z);
        const float4 hy_zm = MAKE_FLOAT4(hy_zw, h_y.x, h_y.y, h_y.z);
        const float4 curl_x = (h_z - hz_ym) * inv_dy - (h_y - hy_zm) * inv_dz;
        const float4 curl_y = (h_x - hx_zm) * inv_dz - (h_z - hprev_z) * inv_dx;
        const float4 curl_z = (h_y - hprev_y) * inv_dx - (h_x - hx_ym) * inv_dy;
        float4 en_x = e_x, en_y = e_y, en_z = e_z;
        e_update3(ecoef, u_e, m_ex, m_ey, m_ez, curl_x, curl_y, curl_z, &en_x, &en_y, &en_z);
        ex_out[c] = en_x;
        ey_out[c] = en_y;
        ez_out[c] = en_z;
      }
    }
    hprev_y = h_y;
    hprev_z = h_z;
    e_x = ex_n;
    e_y = ey_n;
    e_z = ez_n;
    u_e_next = u_e_after;
#if MAGNETIC
    u_h_next = u_h_after;
#endif
  }
}
