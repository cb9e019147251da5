// The MPI communicator under mpirun (ctest runs this with -np 2 and -np 3): every collective and
// the point-to-point transfers, checked on every rank. With --abort-rank=R the program instead
// has rank R call Communicator::abort while the others wait in a barrier: mpirun must end every
// rank with the abort's exit code (tests/parallel_mpi/mpi_runs.py checks that).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <complex>
#include <cstdlib>
#include <string>
#include <vector>

#include "parallel/communicator.hpp"

using clfdtd::parallel::Communicator;

namespace {

Communicator& comm() { return Communicator::world(); }

}  // namespace

TEST_CASE("mpirun's processes are the ranks of the world communicator") {
  REQUIRE(clfdtd::parallel::launched_by_mpirun());
  CHECK(comm().size() == clfdtd::parallel::launcher_world_size());
  CHECK(comm().size() >= 2);
  CHECK(comm().distributed());
  CHECK(comm().rank() >= 0);
  CHECK(comm().rank() < comm().size());
  // One node: the node-local rank is the world rank.
  CHECK(clfdtd::parallel::node_local_rank() == comm().rank());
  comm().barrier();
}

TEST_CASE("first_failed names the lowest failing rank on every rank, with its message") {
  const int r = comm().rank(), n = comm().size();
  std::string message = "stale";
  CHECK(comm().first_failed(true, "unused", message) == -1);
  CHECK(message.empty());
  CHECK(comm().first_failed(r != 1, "rank 1 out of memory", message) == 1);
  CHECK(message == "rank 1 out of memory");
  // Several failing: the lowest wins.
  const bool ok = !(r == n - 1 || r == 1);
  CHECK(comm().first_failed(ok, "failed on " + std::to_string(r), message) == 1);
  CHECK(message == "failed on 1");
}

TEST_CASE("reductions") {
  const int r = comm().rank(), n = comm().size();
  std::vector<double> v{static_cast<double>(r), 1.0, 0.5};
  comm().sum(v);
  CHECK(v[0] == doctest::Approx(n * (n - 1) / 2.0));
  CHECK(v[1] == n);
  CHECK(v[2] == 0.5 * n);
  CHECK(comm().all(true));
  CHECK_FALSE(comm().all(r != n - 1));
  CHECK(comm().max(static_cast<long>(r) * 1000000000L) == static_cast<long>(n - 1) * 1000000000L);
}

TEST_CASE("all_gather concatenates in rank order on every rank (rank 0 gives nothing)") {
  const int r = comm().rank(), n = comm().size();
  std::vector<double> mine_d(static_cast<std::size_t>(r), r + 0.25), all_d;
  comm().all_gather(mine_d, all_d);
  std::vector<double> expected_d;
  for (int q = 0; q < n; ++q) expected_d.insert(expected_d.end(), static_cast<std::size_t>(q), q + 0.25);
  CHECK(all_d == expected_d);
  std::vector<float> mine_f{static_cast<float>(r), -static_cast<float>(r)}, all_f;
  comm().all_gather(mine_f, all_f);
  REQUIRE(all_f.size() == static_cast<std::size_t>(2 * n));
  for (int q = 0; q < n; ++q) {
    CHECK(all_f[2 * q] == static_cast<float>(q));
    CHECK(all_f[2 * q + 1] == -static_cast<float>(q));
  }
}

TEST_CASE("gather reaches the root alone") {
  const int r = comm().rank(), n = comm().size();
  for (int root : {0, n - 1}) {
    std::vector<float> all{9.0f};
    comm().gather(std::vector<float>(static_cast<std::size_t>(r + 1), static_cast<float>(r)), all, root);
    if (r == root) {
      REQUIRE(all.size() == static_cast<std::size_t>(n * (n + 1) / 2));
      std::size_t at = 0;
      for (int q = 0; q < n; ++q)
        for (int c = 0; c <= q; ++c) CHECK(all[at++] == static_cast<float>(q));
    } else {
      CHECK(all.empty());
    }
  }
  std::vector<std::complex<double>> z;
  comm().gather(std::vector<std::complex<double>>{{1.0 * r, -2.0 * r}}, z, 0);
  if (r == 0) {
    REQUIRE(z.size() == static_cast<std::size_t>(n));
    for (int q = 0; q < n; ++q) CHECK(z[q] == std::complex<double>(q, -2.0 * q));
  } else {
    CHECK(z.empty());
  }
}

TEST_CASE("broadcast a string from any rank") {
  const int r = comm().rank(), n = comm().size();
  std::string text = r == n - 1 ? std::string(3000, 'x') + " from the last" : "not yet";
  comm().broadcast(text, n - 1);
  CHECK(text == std::string(3000, 'x') + " from the last");
  std::string empty = r == 0 ? "" : "something";
  comm().broadcast(empty, 0);
  CHECK(empty.empty());
}

TEST_CASE("send and receive around a ring, both directions at once") {
  const int r = comm().rank(), n = comm().size();
  const int up = (r + 1) % n, down = (r + n - 1) % n;
  const std::size_t count = 5000;
  std::vector<float> out_up(count), out_down(count), in_up(count, -1.0f), in_down(count, -1.0f);
  for (std::size_t i = 0; i < count; ++i) {
    out_up[i] = static_cast<float>(r * 100000 + i);
    out_down[i] = -static_cast<float>(r * 100000 + i);
  }
  std::vector<Communicator::Request> requests;
  requests.push_back(comm().receive(in_down.data(), count, down, 1));  // what down sent up
  requests.push_back(comm().receive(in_up.data(), count, up, 2));      // what up sent down
  requests.push_back(comm().send(out_up.data(), count, up, 1));
  requests.push_back(comm().send(out_down.data(), count, down, 2));
  comm().wait_all(requests);
  CHECK(requests.empty());
  for (std::size_t i = 0; i < count; i += 997) {
    CHECK(in_down[i] == static_cast<float>(down * 100000 + i));
    CHECK(in_up[i] == -static_cast<float>(up * 100000 + i));
  }
  float x = 0.0f;
  CHECK_THROWS_AS(comm().send(&x, 1, r, 0), std::logic_error);   // to itself
  CHECK_THROWS_AS(comm().send(&x, 1, n, 0), std::logic_error);   // past the last rank
}

int main(int argc, char** argv) {
  clfdtd::parallel::MpiSession mpi(argc, argv);
  const std::string abort_flag = "--abort-rank=";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind(abort_flag, 0) == 0) {
      const int who = std::atoi(a.c_str() + abort_flag.size());
      if (comm().rank() == who) comm().abort(9, "test abort");
      comm().barrier();  // the others wait here until mpirun ends them
      return 0;
    }
  }
  doctest::Context context(argc, argv);
  return context.run();
}
