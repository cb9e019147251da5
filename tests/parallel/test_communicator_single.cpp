// The communicator of a process not started by mpirun: one rank, collectives are copies.
#include <doctest/doctest.h>

#include <complex>
#include <stdexcept>
#include <string>
#include <vector>

#include "parallel/communicator.hpp"

using clfdtd::parallel::Communicator;

TEST_CASE("a plain process is rank 0 of 1") {
  Communicator& c = Communicator::world();
  CHECK(&c == &Communicator::world());
  CHECK(c.rank() == 0);
  CHECK(c.size() == 1);
  CHECK_FALSE(c.distributed());
  c.barrier();
}

TEST_CASE("single-rank collectives are copies") {
  Communicator& c = Communicator::world();
  std::string failed = "stale";
  CHECK(c.first_failed(true, "unused", failed) == -1);
  CHECK(failed.empty());
  CHECK(c.first_failed(false, "out of memory", failed) == 0);
  CHECK(failed == "out of memory");

  std::vector<double> v{1.5, -2.0};
  c.sum(v);
  CHECK(v == std::vector<double>{1.5, -2.0});
  CHECK(c.all(true));
  CHECK_FALSE(c.all(false));
  CHECK(c.max(-7) == -7);

  std::vector<double> all_d;
  c.all_gather(std::vector<double>{3.0, 4.0}, all_d);
  CHECK(all_d == std::vector<double>{3.0, 4.0});
  std::vector<float> all_f;
  c.all_gather(std::vector<float>{5.0f}, all_f);
  CHECK(all_f == std::vector<float>{5.0f});
  std::vector<float> g;
  c.gather(std::vector<float>{1.0f, 2.0f}, g, 0);
  CHECK(g == std::vector<float>{1.0f, 2.0f});
  std::vector<std::complex<double>> gz;
  c.gather(std::vector<std::complex<double>>{{1.0, -1.0}}, gz, 0);
  REQUIRE(gz.size() == 1);
  CHECK(gz[0] == std::complex<double>(1.0, -1.0));
  std::string text = "kept";
  c.broadcast(text, 0);
  CHECK(text == "kept");
}

TEST_CASE("a single rank has no peer to send to") {
  Communicator& c = Communicator::world();
  float x = 0.0f;
  CHECK_THROWS_AS(c.send(&x, 1, 1, 0), std::logic_error);
  CHECK_THROWS_AS(c.receive(&x, 1, 1, 0), std::logic_error);
  std::vector<float> g;
  CHECK_THROWS_AS(c.gather(std::vector<float>{1.0f}, g, 1), std::logic_error);
  std::vector<Communicator::Request> none;
  c.wait_all(none);
}
