// The one mapping from error types to exit codes and messages (README, "Exit codes"; errors.hpp),
// shared by cli::run and the MPI run, which agrees on a failure across ranks before it exits.
#pragma once
#include <exception>
#include <string>

namespace clfdtd::cli {

struct ErrorExit {
  int code = 0;      // the process exit code (2 bad input, 3, 4, 5; 1 for anything else: a bug)
  std::string line;  // the message after "clfdtd: ", e.g. "bad input: m.ini:3: 'grid.size': ..."
};

// What `error` means for the user: its exit code and one-line message.
ErrorExit describe_error(const std::exception_ptr& error);

}  // namespace clfdtd::cli
