// The Communicator of a build without MPI: one rank, collectives are copies.
#include "parallel/communicator.hpp"
#include "parallel/communicator_local.hpp"

namespace clfdtd::parallel {

Communicator& Communicator::world() {
  static Communicator instance;
  return instance;
}
int Communicator::rank() const { return 0; }
int Communicator::size() const { return 1; }
void Communicator::barrier() {}
int Communicator::first_failed(bool ok, const std::string& message, std::string& failed_message) {
  return local::first_failed(ok, message, failed_message);
}
void Communicator::sum(std::vector<double>&) {}
bool Communicator::all(bool value) { return value; }
long Communicator::max(long value) { return value; }
void Communicator::all_gather(const std::vector<double>& mine, std::vector<double>& all) { all = mine; }
void Communicator::all_gather(const std::vector<float>& mine, std::vector<float>& all) { all = mine; }
void Communicator::gather(const std::vector<float>& mine, std::vector<float>& all, int root) {
  local::gather(mine, all, root);
}
void Communicator::gather(const std::vector<std::complex<double>>& mine,
                          std::vector<std::complex<double>>& all, int root) {
  local::gather(mine, all, root);
}
void Communicator::broadcast(std::string&, int root) { local::check_root(root); }
Communicator::Request Communicator::send(const float*, std::size_t, int to, int) { local::no_peer(to); }
Communicator::Request Communicator::receive(float*, std::size_t, int from, int) { local::no_peer(from); }
void Communicator::wait_all(std::vector<Request>& requests) { local::wait_all(requests); }
void Communicator::abort(int exit_code, const std::string& message) { local::abort(exit_code, message); }

MpiSession::MpiSession(int&, char**&) {}
MpiSession::~MpiSession() = default;

bool built_with_mpi() { return false; }

}  // namespace clfdtd::parallel
