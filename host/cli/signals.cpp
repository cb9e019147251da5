// StopSignals: see signals.hpp. std::atomic<int> is lock-free here (static_assert below), which
// makes it safe to store from a signal handler and to read from the time loop's thread.
#include "cli/signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <string>

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
  static const char sigpipe[] = "\nclfdtd: interrupted by SIGPIPE during setup: nothing was written (exit 6)\n";
  const char* msg = sig == SIGINT ? sigint : sig == SIGTERM ? sigterm : sig == SIGHUP ? sighup : sigpipe;
  const std::size_t len = sig == SIGINT    ? sizeof sigint
                          : sig == SIGTERM ? sizeof sigterm
                          : sig == SIGHUP  ? sizeof sighup
                                           : sizeof sigpipe;
  const ssize_t ignored = ::write(STDERR_FILENO, msg, len - 1);
  (void)ignored;
  ::_exit(6);
}

// SIGPIPE: the reader of stdout or stderr went away (`clfdtd run ... | head`). It stops the run as
// the others do; the writes that follow fail with EPIPE instead of ending the process.
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
constexpr int kCount = sizeof kSignals / sizeof kSignals[0];
struct sigaction g_previous[kCount];
bool g_installed[kCount] = {};

// What a second signal prints: set_unfinished_output's line once the output folder exists.
char g_again[1024] =
    "\nclfdtd: interrupted again: exiting at once (exit 6); nothing was written\n";

extern "C" void on_stop_signal(int sig) {
  if (g_in_setup.load()) exit_in_setup(sig);
  int none = 0;
  if (g_signal.compare_exchange_strong(none, sig)) return;
  if (sig == SIGPIPE) return;  // every write to the closed pipe raises it again: not a second ask
  std::size_t len = 0;
  while (len < sizeof g_again && g_again[len] != 0) ++len;
  const ssize_t ignored = ::write(STDERR_FILENO, g_again, len);
  (void)ignored;
  ::_exit(6);
}

}  // namespace

StopSignals::StopSignals() {
  g_signal.store(0);
  g_in_setup.store(true);
  for (int i = 0; i < kCount; ++i) {
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

void StopSignals::set_unfinished_output(const std::string& where, const std::string& dir) {
  const std::string line = "\nclfdtd: interrupted again: exiting at once (exit 6); the previous "
                           "output is untouched; what this run wrote is in '" + where +
                           "', which the next run on '" + dir + "' moves to '" + dir +
                           ".partial' (or removes, where that name is taken)\n";
  if (line.size() >= sizeof g_again) return;  // a path that long: the line without it stays
  // Written while no signal is being handled (the run has not started its loop): the handler
  // reads a complete line either way, as the terminating zero is written last.
  std::memcpy(g_again, line.data(), line.size());
  g_again[line.size()] = 0;
}

StopSignals::~StopSignals() {
  g_in_setup.store(false);
  for (int i = 0; i < kCount; ++i)
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
    case SIGPIPE: return "SIGPIPE";
    default: return "signal";
  }
}

}  // namespace clfdtd::cli
