// StopSignals: see signals.hpp. std::atomic<int> is lock-free here (static_assert below), which
// makes it safe to store from a signal handler and to read from the time loop's thread.
#include "cli/signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
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

// What a second signal prints (set_second_signal_line): one of three buffers, published through
// an atomic pointer, so the handler never reads a line being written (the next two calls write
// the other buffers).
constexpr std::size_t kLineBytes = 1024;
char g_lines[3][kLineBytes];
int g_next_line = 0;
const char kAgainPlain[] = "\nclfdtd: interrupted again: exiting at once (exit 6)\n";
std::atomic<const char*> g_again{kAgainPlain};
static_assert(std::atomic<const char*>::is_always_lock_free, "the line pointer must be lock-free");

// SecondSignalHold's state: whether the main thread is moving the output (held), a second signal
// came meanwhile (pending), or a second signal is ending the process (exiting). Handler and main
// thread change it by compare-exchange only, so exactly one of them decides what happens to a
// second signal: the handler ends the process at once (free), or leaves that to the hold's end.
enum HoldState : int { kFree = 0, kHeld = 1, kPending = 2, kExiting = 3 };
std::atomic<int> g_hold{kFree};
int g_hold_depth = 0;  // the main thread's nesting; only it reads or writes this
static_assert(std::atomic<int>::is_always_lock_free, "the hold state must be lock-free");

[[noreturn]] void exit_again() {
  const char* line = g_again.load();
  std::size_t len = 0;
  while (len < kLineBytes && line[len] != 0) ++len;
  const ssize_t ignored = ::write(STDERR_FILENO, line, len);
  (void)ignored;
  ::_exit(6);
}

extern "C" void on_stop_signal(int sig) {
  if (g_in_setup.load()) exit_in_setup(sig);
  int none = 0;
  if (g_signal.compare_exchange_strong(none, sig)) return;
  if (sig == SIGPIPE) return;  // every write to the closed pipe raises it again: not a second ask
  for (;;) {
    int state = g_hold.load();
    if (state == kPending || state == kExiting) return;  // already decided
    const int next = state == kFree ? kExiting : kPending;
    if (!g_hold.compare_exchange_strong(state, next)) continue;  // the main thread moved: again
    if (next == kPending) return;  // the hold's end exits, with the line of what it moved
    exit_again();
  }
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

SecondSignalHold::SecondSignalHold() {
  if (g_hold_depth++ > 0) return;
  int state = kFree;
  while (!g_hold.compare_exchange_strong(state, kHeld)) {
    // kExiting: a handler in another thread is ending the process with the current line; moving
    // now would make that line wrong. Wait for the end.
    if (state == kExiting)
      for (;;) ::pause();
    state = kFree;
  }
}

SecondSignalHold::~SecondSignalHold() {
  if (--g_hold_depth > 0) return;
  int state = kHeld;
  if (g_hold.compare_exchange_strong(state, kFree)) return;
  g_hold.store(kExiting);  // kPending: a second signal came while the output moved
  exit_again();
}

void signal_stage(const char* stage) {
  const char* wanted = std::getenv("CLFDTD_TEST_SIGNAL_AT");
  if (!wanted) return;
  const std::string list = std::string(",") + wanted + ",";
  if (list.find(std::string(",") + stage + ",") != std::string::npos) ::raise(SIGINT);
}

void set_second_signal_line(const std::string& what) {
  std::string line = "\nclfdtd: interrupted again: exiting at once (exit 6); " + what + "\n";
  if (line.size() >= kLineBytes) line = line.substr(0, kLineBytes - 5) + "...\n";
  char* buf = g_lines[g_next_line];
  g_next_line = (g_next_line + 1) % 3;
  std::memcpy(buf, line.data(), line.size());
  buf[line.size()] = 0;
  g_again.store(buf);
}

StopSignals::~StopSignals() {
  g_in_setup.store(false);
  g_hold.store(kFree);
  g_hold_depth = 0;
  g_again.store(kAgainPlain);
  for (int i = 0; i < kCount; ++i)
    if (g_installed[i]) {
      // After a closed pipe the writes still to come (the error line, stdout's buffer at exit)
      // would raise SIGPIPE again and end the process with 141 instead of its exit code.
      if (kSignals[i] == SIGPIPE && g_signal.load() == SIGPIPE) {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        ::sigaction(SIGPIPE, &ignore, nullptr);
      } else {
        ::sigaction(kSignals[i], &g_previous[i], nullptr);
      }
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
