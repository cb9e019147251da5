// The ranks of a distributed run and the few collective and point-to-point operations the run
// needs (issue 21). Every rank of an MPI run calls the collectives in the same order; a plain run
// (no mpirun, or a build without MPI) is one rank whose collectives are copies.
#pragma once
#include <complex>
#include <cstddef>
#include <string>
#include <vector>

namespace clfdtd::parallel {

class Communicator {
public:
  // The process's communicator: MPI_COMM_WORLD when this build has MPI and the process was
  // started by mpirun (MPI initialised by main through MpiSession), else a single rank.
  static Communicator& world();
  int rank() const;
  int size() const;
  bool distributed() const { return size() > 1; }
  void barrier();
  // Collective: every rank passes its own `ok`; returns -1 if all are ok, else the lowest rank
  // that was not, and (for every rank) that rank's message (broadcast from it).
  int first_failed(bool ok, const std::string& message, std::string& failed_message);
  void sum(std::vector<double>& values);  // allreduce in place
  bool all(bool value);                   // allreduce logical and
  long max(long value);
  // Every rank's vector concatenated in rank order, on every rank (allgatherv).
  void all_gather(const std::vector<double>& mine, std::vector<double>& all);
  void all_gather(const std::vector<float>& mine, std::vector<float>& all);
  // Rank `root` receives every rank's vector concatenated in rank order (gatherv); others get {}.
  void gather(const std::vector<float>& mine, std::vector<float>& all, int root);
  void gather(const std::vector<std::complex<double>>& mine,
              std::vector<std::complex<double>>& all, int root);
  void broadcast(std::string& text, int root);
  // Point to point for halos: non-blocking, completed by wait_all. A single rank has no peer:
  // send and receive throw std::logic_error there.
  struct Request {
    void* handle = nullptr;
  };
  Request send(const float* data, std::size_t count, int to, int tag);
  Request receive(float* data, std::size_t count, int from, int tag);
  void wait_all(std::vector<Request>& requests);
  // Ends every rank at once (MPI_Abort) after printing `message` prefixed with this rank:
  // for a failure that other ranks cannot learn of collectively.
  [[noreturn]] void abort(int exit_code, const std::string& message);

  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

private:
  Communicator() = default;
};

// RAII: MPI_Init_thread in main when launched by mpirun and built with MPI; MPI_Finalize at exit.
// Without MPI in the build, or without mpirun's environment, it does nothing: plain runs and the
// test programs never touch MPI.
class MpiSession {
public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

// True when the environment says mpirun (Open MPI, or any PMIx launcher) started this process.
bool launched_by_mpirun();
// The number of processes mpirun started (OMPI_COMM_WORLD_SIZE), 1 when not under mpirun.
int launcher_world_size();
// This process's index among the ranks on its node (OMPI_COMM_WORLD_LOCAL_RANK), 0 when unknown.
int node_local_rank();
// True when this build was compiled with MPI.
bool built_with_mpi();

}  // namespace clfdtd::parallel
