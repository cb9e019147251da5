// The host-staged halo exchange's MPI step alone (docs/MPI.md, "Scaling on H200s"): ranks in a
// chain (as a K 1 1 split), each exchanging a plane of BYTES with each neighbour at once
// (MPI_Isend / MPI_Irecv, then MPI_Waitall: what RankLink::exchange does), REPS times after a
// warm-up. Rank 0 prints the mean time of one exchange (the slowest rank's) and the bytes one
// middle rank sends and receives per second.
// Build and run: mpicxx -O2 -o mpb mpi_plane_bandwidth.cpp && mpirun -np 4 ./mpb [BYTES] [REPS]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long bytes = argc > 1 ? std::atol(argv[1]) : 3L * 4 * 1024 * 1024;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  const long n = bytes / 4;
  std::vector<float> send_lo(n, 1.0f), send_hi(n, 2.0f), recv_lo(n), recv_hi(n);
  const int lo = rank - 1, hi = rank + 1 < size ? rank + 1 : -1;
  auto exchange = [&] {
    MPI_Request req[4];
    int r = 0;
    if (lo >= 0) {
      MPI_Irecv(recv_lo.data(), static_cast<int>(n), MPI_FLOAT, lo, 1, MPI_COMM_WORLD, &req[r++]);
      MPI_Isend(send_lo.data(), static_cast<int>(n), MPI_FLOAT, lo, 0, MPI_COMM_WORLD, &req[r++]);
    }
    if (hi >= 0) {
      MPI_Irecv(recv_hi.data(), static_cast<int>(n), MPI_FLOAT, hi, 0, MPI_COMM_WORLD, &req[r++]);
      MPI_Isend(send_hi.data(), static_cast<int>(n), MPI_FLOAT, hi, 1, MPI_COMM_WORLD, &req[r++]);
    }
    MPI_Waitall(r, req, MPI_STATUSES_IGNORE);
  };
  for (int i = 0; i < 5; ++i) exchange();
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int i = 0; i < reps; ++i) exchange();
  double t = (MPI_Wtime() - t0) / reps, slowest = 0;
  MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    const int faces = size > 2 ? 2 : (size == 2 ? 1 : 0);
    std::printf("mpi_plane_bandwidth: %d ranks, %ld B per plane: %.3f ms per exchange; a rank with %d "
                "neighbour(s) sends and receives %.1f GB/s each way\n",
                size, bytes, slowest * 1e3, faces, slowest > 0 ? faces * bytes / slowest / 1e9 : 0.0);
  }
  MPI_Finalize();
  return 0;
}
