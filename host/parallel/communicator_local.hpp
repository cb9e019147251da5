// What each Communicator operation does on a single rank (the whole run is this process): shared
// by the build without MPI and by the MPI build run without mpirun.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "parallel/communicator.hpp"

namespace clfdtd::parallel::local {

inline int first_failed(bool ok, const std::string& message, std::string& failed_message) {
  failed_message = ok ? std::string() : message;
  return ok ? -1 : 0;
}

inline void check_root(int root) {
  if (root != 0) throw std::logic_error("root rank " + std::to_string(root) + " of a single-rank run");
}

template <typename T>
void gather(const std::vector<T>& mine, std::vector<T>& all, int root) {
  check_root(root);
  all = mine;
}

[[noreturn]] inline void no_peer(int peer) {
  throw std::logic_error("point-to-point transfer with rank " + std::to_string(peer) +
                         " in a single-rank run");
}

inline void wait_all(std::vector<Communicator::Request>& requests) {
  if (!requests.empty()) throw std::logic_error("requests to wait for in a single-rank run");
}

// The one process ends: the message on stderr, as every error of a plain run.
[[noreturn]] inline void abort(int exit_code, const std::string& message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(nullptr);
  std::_Exit(exit_code);
}

}  // namespace clfdtd::parallel::local
