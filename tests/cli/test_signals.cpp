// SecondSignalHold (cli/signals.hpp): a second stop signal that comes while the output moves ends
// the process when the move is done, with the line that names where the output then is. Each
// case runs in a child process, since a second signal ends the process that gets it.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

#include "cli/signals.hpp"
#include "cli_helpers.hpp"

using clfdtd_test::read_text;

namespace {

struct Ended {
  int code = -1;       // exit code, -1 when a signal ended it
  std::string stderr_text;
};

// Runs `body` in a child whose stderr goes to a file; the child exits 0 if body returns.
Ended in_child(const std::function<void()>& body) {
  const std::string log = "/tmp/clfdtd_signals_" + std::to_string(::getpid()) + ".log";
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 2);
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  Ended e;
  e.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  e.stderr_text = read_text(log);
  std::filesystem::remove(log);
  return e;
}

void say(const char* text) {
  const ssize_t ignored = ::write(2, text, std::char_traits<char>::length(text));
  (void)ignored;
}

}  // namespace

TEST_CASE("a second signal ends the process at once, with the line then set") {
  const Ended e = in_child([] {
    clfdtd::cli::StopSignals signals;
    signals.defer();
    ::raise(SIGINT);  // the first: recorded
    say("first recorded\n");
    clfdtd::cli::set_second_signal_line("the output is in 'a'");
    ::raise(SIGINT);
    say("not reached\n");
  });
  CHECK(e.code == 6);
  CHECK(e.stderr_text.find("first recorded") != std::string::npos);
  CHECK(e.stderr_text.find("interrupted again: exiting at once (exit 6); the output is in 'a'") !=
        std::string::npos);
  CHECK(e.stderr_text.find("not reached") == std::string::npos);
}

TEST_CASE("a second signal during a hold waits for its end, and prints the line set in it") {
  const Ended e = in_child([] {
    clfdtd::cli::StopSignals signals;
    signals.defer();
    ::raise(SIGINT);
    clfdtd::cli::set_second_signal_line("the output is in 'a'");
    {
      clfdtd::cli::SecondSignalHold hold;
      ::raise(SIGINT);  // in this thread
      // and from another thread, as the kernel may deliver it to any thread of the process
      std::thread([] { ::pthread_kill(::pthread_self(), SIGINT); }).join();
      say("still here in the hold\n");
      clfdtd::cli::set_second_signal_line("the output is in 'b'");
    }
    say("not reached\n");
  });
  CHECK(e.code == 6);
  CHECK(e.stderr_text.find("still here in the hold") != std::string::npos);
  CHECK(e.stderr_text.find("(exit 6); the output is in 'b'") != std::string::npos);
  CHECK(e.stderr_text.find("the output is in 'a'") == std::string::npos);
  CHECK(e.stderr_text.find("not reached") == std::string::npos);
}

TEST_CASE("a hold without a second signal changes nothing; holds nest") {
  const Ended e = in_child([] {
    clfdtd::cli::StopSignals signals;
    signals.defer();
    ::raise(SIGINT);
    {
      clfdtd::cli::SecondSignalHold outer;
      {
        clfdtd::cli::SecondSignalHold inner;
      }
      ::raise(SIGINT);  // in the outer hold: waits for its end
      say("after the inner hold\n");
    }
    say("not reached\n");
  });
  CHECK(e.code == 6);
  CHECK(e.stderr_text.find("after the inner hold") != std::string::npos);
  CHECK(e.stderr_text.find("not reached") == std::string::npos);

  const Ended quiet = in_child([] {
    clfdtd::cli::StopSignals signals;
    signals.defer();
    { clfdtd::cli::SecondSignalHold hold; }
    ::raise(SIGINT);  // the first signal: recorded, no exit
    { clfdtd::cli::SecondSignalHold hold; }
    say("done\n");
  });
  CHECK(quiet.code == 0);
  CHECK(quiet.stderr_text.find("done") != std::string::npos);
}
