#!/usr/bin/env python3
"""Pinned host <-> GPU copy bandwidth with 1, 2, ... GPUs copying at once (docs/MPI.md, "Scaling
on H200s"): the path the host-staged halo exchange takes (device.halo_path = host). Each GPU runs
in its own process, as an MPI rank does, and copies a buffer of BYTES (default 12582912: the three
components of one 1024 x 1024 plane) to pinned host memory and back REPS times; printed: per-GPU
and aggregate GB/s (both directions counted). Needs PyTorch with CUDA (the GPU machine's image);
not part of the build or the tests.

usage: tools/host_link_bandwidth.py [BYTES] [REPS]
"""
import sys
import time

import torch
import torch.multiprocessing as mp


def worker(dev, nbytes, reps, barrier, results):
    torch.cuda.set_device(dev)
    d = torch.empty(nbytes // 4, dtype=torch.float32, device=f"cuda:{dev}")
    h = torch.empty(nbytes // 4, dtype=torch.float32, pin_memory=True)
    for _ in range(3):
        h.copy_(d, non_blocking=True)
        d.copy_(h, non_blocking=True)
    torch.cuda.synchronize()
    barrier.wait()
    t0 = time.perf_counter()
    for _ in range(reps):
        h.copy_(d, non_blocking=True)
        d.copy_(h, non_blocking=True)
    torch.cuda.synchronize()
    results[dev] = 2 * nbytes * reps / (time.perf_counter() - t0) / 1e9


def main():
    nbytes = int(sys.argv[1]) if len(sys.argv) > 1 else 3 * 4 * 1024 * 1024
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    gpus = torch.cuda.device_count()
    ctx = mp.get_context("spawn")
    counts, k = [], 1
    while k <= gpus:
        counts.append(k)
        k *= 2
    print(f"host_link_bandwidth: {nbytes} B per copy, {reps} round trips, {gpus} GPU(s): "
          f"{torch.cuda.get_device_name(0)}")
    for k in counts:
        with ctx.Manager() as m:
            barrier, results = m.Barrier(k), m.dict()
            procs = [ctx.Process(target=worker, args=(g, nbytes, reps, barrier, results)) for g in range(k)]
            for p in procs:
                p.start()
            for p in procs:
                p.join()
            per = [results.get(g, 0.0) for g in range(k)]
        print(f"{k} GPU(s) at once: per GPU " + ", ".join(f"{v:.1f}" for v in per) +
              f" GB/s; aggregate {sum(per):.1f} GB/s")


if __name__ == "__main__":
    main()
