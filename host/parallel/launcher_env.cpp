// What mpirun's environment says about this process (Open MPI's variables, or PMIx's).
#include <cstdlib>
#include <string>

#include "parallel/communicator.hpp"

namespace clfdtd::parallel {
namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return (*end == '\0' && x >= 0 && x < 1 << 30) ? static_cast<int>(x) : fallback;
}

}  // namespace

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
}

int launcher_world_size() { return launched_by_mpirun() ? env_int("OMPI_COMM_WORLD_SIZE", 1) : 1; }

int node_local_rank() { return env_int("OMPI_COMM_WORLD_LOCAL_RANK", 0); }

}  // namespace clfdtd::parallel
