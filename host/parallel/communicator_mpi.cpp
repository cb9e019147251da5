// The Communicator of a build with MPI: MPI_COMM_WORLD once MpiSession has initialised MPI (the
// process was started by mpirun), else the single rank of a plain run.
#include <mpi.h>

#include <climits>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "parallel/communicator.hpp"
#include "parallel/communicator_local.hpp"

namespace clfdtd::parallel {
namespace {

bool g_active = false;  // MpiSession initialised MPI: the collectives go over MPI_COMM_WORLD
int g_rank = 0, g_size = 1;

int as_count(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::length_error(std::string(what) + ": " + std::to_string(n) +
                            " values exceed MPI's int count");
  return static_cast<int>(n);
}

// Counts and offsets of every rank's piece; the total must fit MPI's int displacements.
std::vector<int> offsets_of(const std::vector<int>& counts, std::size_t& total, const char* what) {
  std::vector<int> offsets(counts.size());
  total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    offsets[r] = as_count(total, what);
    total += static_cast<std::size_t>(counts[r]);
  }
  as_count(total, what);
  return offsets;
}

template <typename T>
void all_gather_v(const std::vector<T>& mine, std::vector<T>& all, MPI_Datatype type, int per) {
  const int n = as_count(mine.size() * per, "all_gather");
  std::vector<int> counts(static_cast<std::size_t>(g_size));
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::size_t total = 0;
  const std::vector<int> offsets = offsets_of(counts, total, "all_gather");
  all.resize(total / per);
  MPI_Allgatherv(mine.data(), n, type, all.data(), counts.data(), offsets.data(), type, MPI_COMM_WORLD);
}

template <typename T>
void gather_v(const std::vector<T>& mine, std::vector<T>& all, int root, MPI_Datatype type, int per) {
  if (root < 0 || root >= g_size) throw std::logic_error("gather to rank " + std::to_string(root));
  const int n = as_count(mine.size() * per, "gather");
  std::vector<int> counts(static_cast<std::size_t>(g_size));
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, root, MPI_COMM_WORLD);
  std::vector<int> offsets;
  all.clear();
  if (g_rank == root) {
    std::size_t total = 0;
    offsets = offsets_of(counts, total, "gather");
    all.resize(total / per);
  }
  MPI_Gatherv(mine.data(), n, type, all.data(), counts.data(), offsets.data(), type, root,
              MPI_COMM_WORLD);
}

void check_peer(int peer) {
  if (peer < 0 || peer >= g_size || peer == g_rank)
    throw std::logic_error("point-to-point transfer of rank " + std::to_string(g_rank) + " with rank " +
                           std::to_string(peer) + " of " + std::to_string(g_size));
}

}  // namespace

Communicator& Communicator::world() {
  static Communicator instance;
  return instance;
}
int Communicator::rank() const { return g_rank; }
int Communicator::size() const { return g_size; }

void Communicator::barrier() {
  if (g_active) MPI_Barrier(MPI_COMM_WORLD);
}

int Communicator::first_failed(bool ok, const std::string& message, std::string& failed_message) {
  if (!g_active) return local::first_failed(ok, message, failed_message);
  int candidate = ok ? g_size : g_rank, lowest = g_size;
  MPI_Allreduce(&candidate, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (lowest == g_size) {
    failed_message.clear();
    return -1;
  }
  failed_message = g_rank == lowest ? message : std::string();
  broadcast(failed_message, lowest);
  return lowest;
}

void Communicator::sum(std::vector<double>& values) {
  if (!g_active) return;
  MPI_Allreduce(MPI_IN_PLACE, values.data(), as_count(values.size(), "sum"), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
}

bool Communicator::all(bool value) {
  if (!g_active) return value;
  int mine = value ? 1 : 0, every = 0;
  MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return every != 0;
}

long Communicator::max(long value) {
  if (!g_active) return value;
  long result = value;
  MPI_Allreduce(&value, &result, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  return result;
}

void Communicator::all_gather(const std::vector<double>& mine, std::vector<double>& all) {
  if (!g_active) {
    all = mine;
    return;
  }
  all_gather_v(mine, all, MPI_DOUBLE, 1);
}

void Communicator::all_gather(const std::vector<float>& mine, std::vector<float>& all) {
  if (!g_active) {
    all = mine;
    return;
  }
  all_gather_v(mine, all, MPI_FLOAT, 1);
}

void Communicator::gather(const std::vector<float>& mine, std::vector<float>& all, int root) {
  if (!g_active) return local::gather(mine, all, root);
  gather_v(mine, all, root, MPI_FLOAT, 1);
}

void Communicator::gather(const std::vector<std::complex<double>>& mine,
                          std::vector<std::complex<double>>& all, int root) {
  if (!g_active) return local::gather(mine, all, root);
  gather_v(mine, all, root, MPI_DOUBLE, 2);  // std::complex<double> is two doubles
}

void Communicator::broadcast(std::string& text, int root) {
  if (!g_active) return local::check_root(root);
  unsigned long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG, root, MPI_COMM_WORLD);
  text.resize(length);
  MPI_Bcast(text.data(), as_count(length, "broadcast"), MPI_CHAR, root, MPI_COMM_WORLD);
}

Communicator::Request Communicator::send(const float* data, std::size_t count, int to, int tag) {
  if (!g_active) local::no_peer(to);
  check_peer(to);
  auto* request = new MPI_Request;
  MPI_Isend(data, as_count(count, "send"), MPI_FLOAT, to, tag, MPI_COMM_WORLD, request);
  return Request{request};
}

Communicator::Request Communicator::receive(float* data, std::size_t count, int from, int tag) {
  if (!g_active) local::no_peer(from);
  check_peer(from);
  auto* request = new MPI_Request;
  MPI_Irecv(data, as_count(count, "receive"), MPI_FLOAT, from, tag, MPI_COMM_WORLD, request);
  return Request{request};
}

void Communicator::wait_all(std::vector<Request>& requests) {
  if (!g_active) return local::wait_all(requests);
  std::vector<MPI_Request> handles;
  handles.reserve(requests.size());
  for (const Request& r : requests) handles.push_back(*static_cast<MPI_Request*>(r.handle));
  MPI_Waitall(static_cast<int>(handles.size()), handles.data(), MPI_STATUSES_IGNORE);
  for (Request& r : requests) delete static_cast<MPI_Request*>(r.handle);
  requests.clear();
}

void Communicator::abort(int exit_code, const std::string& message) {
  if (!g_active) local::abort(exit_code, message);
  std::fprintf(stderr, "rank %d: %s\n", g_rank, message.c_str());
  std::fflush(nullptr);
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);  // MPI_Abort does not return; this keeps [[noreturn]] true if it did
}

MpiSession::MpiSession(int& argc, char**& argv) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!launched_by_mpirun() || initialised) return;
  // Only the main thread calls MPI (progress and signal handling do not).
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_active = true;
}

MpiSession::~MpiSession() {
  if (!g_active) return;
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (!finalised) MPI_Finalize();
  g_active = false;
  g_rank = 0;
  g_size = 1;
}

bool built_with_mpi() { return true; }

}  // namespace clfdtd::parallel
