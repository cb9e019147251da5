// What the distributed backend needs of the ranks it runs with (distributed_backend.hpp): the
// collectives its Backend calls make identically on every rank, and the point-to-point transfers
// of the halo exchange. communicator_link() adapts the process's Communicator (MPI or one rank);
// the tests also run ranks as threads of one process through it.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace clfdtd::parallel {

class Communicator;

class RankLink {
public:
  virtual ~RankLink() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Collective: -1 when every rank passed ok, else the lowest rank that did not, whose message
  // every rank receives in failed_message.
  virtual int first_failed(bool ok, const std::string& message, std::string& failed_message) = 0;
  virtual void sum(std::vector<double>& values) = 0;  // element-wise over ranks, in place
  virtual bool all(bool value) = 0;
  // Every rank's vector concatenated in rank order, on every rank.
  virtual void all_gather(const std::vector<double>& mine, std::vector<double>& all) = 0;
  // Rank `root` receives every rank's vector concatenated in rank order; others get {}.
  virtual void gather(const std::vector<float>& mine, std::vector<float>& all, int root) = 0;
  // Sends `count` floats from `send` to `peer` (tag send_tag) and receives `count` floats from
  // `peer` (tag recv_tag) into `recv`, for every transfer at once; returns when all are done.
  // A null `send` sends nothing, a null `recv` receives nothing (a one-way transfer).
  struct Transfer {
    int peer = -1;
    int send_tag = 0, recv_tag = 0;
    const float* send = nullptr;
    float* recv = nullptr;
    std::size_t count = 0;
  };
  virtual void exchange(const std::vector<Transfer>& transfers) = 0;
};

// The link over `comm` (kept by reference: it outlives the link).
std::unique_ptr<RankLink> communicator_link(Communicator& comm);

}  // namespace clfdtd::parallel
