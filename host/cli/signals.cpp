// StopSignals: see signals.hpp. std::atomic<int> is lock-free here (static_assert below), which
// makes it safe to store from a signal handler and to read from the time loop's thread.
#include "cli/signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>

namespace clfdtd::cli {
namespace {

std::atomic<int> g_signal{0};
std::atomic<bool> g_in_setup{false};
static_assert(std::atomic<int>::is_always_lock_free, "the signal flag must be lock-free");
static_assert(std::atomic<bool>::is_always_lock_free, "the setup flag must be lock-free");

// write() and _exit() are all a handler may call: one fixed line per signal.
void exit_in_setup(int sig) {
  static const char sigint[] = "\nclfdtd: interrupted by SIGINT during setup: nothing was written (exit 6)\n";
  static const char sigterm[] = "\nclfdtd: interrupted by SIGTERM during setup: nothing was written (exit 6)\n";
  static const char sighup[] = "\nclfdtd: interrupted by SIGHUP during setup: nothing was written (exit 6)\n";
  const char* msg = sig == SIGINT ? sigint : sig == SIGTERM ? sigterm : sighup;
  const std::size_t len = sig == SIGINT ? sizeof sigint : sig == SIGTERM ? sizeof sigterm : sizeof sighup;
  const ssize_t ignored = ::write(STDERR_FILENO, msg, len - 1);
  (void)ignored;
  ::_exit(6);
}

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[3];
bool g_installed[3] = {false, false, false};

extern "C" void on_stop_signal(int sig) {
  if (g_in_setup.load()) exit_in_setup(sig);
  int none = 0;
  if (g_signal.compare_exchange_strong(none, sig)) return;
  static const char msg[] =
      "\nclfdtd: interrupted again: exiting at once (exit 6); the previous output is untouched "
      "and the next run on this output.dir removes the unfinished folder\n";
  const ssize_t ignored = ::write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)ignored;
  ::_exit(6);
}

}  // namespace

StopSignals::StopSignals() {
  g_signal.store(0);
  g_in_setup.store(true);
  for (int i = 0; i < 3; ++i) {
    struct sigaction current {};
    if (::sigaction(kSignals[i], nullptr, &current) != 0) continue;
    if (current.sa_handler == SIG_IGN) continue;  // nohup and friends: keep ignoring it
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;  // file writes and driver calls in progress carry on
    g_installed[i] = ::sigaction(kSignals[i], &sa, &g_previous[i]) == 0;
  }
}

void StopSignals::defer() { g_in_setup.store(false); }

StopSignals::~StopSignals() {
  g_in_setup.store(false);
  for (int i = 0; i < 3; ++i)
    if (g_installed[i]) {
      ::sigaction(kSignals[i], &g_previous[i], nullptr);
      g_installed[i] = false;
    }
}

int stop_signal() { return g_signal.load(); }

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "signal";
  }
}

}  // namespace clfdtd::cli
