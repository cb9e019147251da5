// SIGINT, SIGTERM, SIGHUP and SIGPIPE (a closed pipe on stdout or stderr) ask a run to stop. During setup (the model build, the device and
// kernel setup: minutes for a large model) nothing has been written yet, so a signal ends the
// process at once (exit 6) with one line saying so. Once the run has started writing (defer()),
// the handler only records the signal (all it may safely do); the time loop asks stop_signal()
// after every step and ends there, so the outputs are flushed and kept. After the loop the
// analyses (resonances, mode solves) ask it before each task (model/parallel_tasks.hpp): those not
// yet started are skipped, and the run ends interrupted if any was. A second signal then ends
// the process at once (exit 6), printing where what the run wrote is (set_second_signal_line):
// the next run on that folder moves it to "<dir>.partial" (output_dir.hpp). SIGPIPE never ends
// the process at once: each write to the closed pipe raises it again.
//
// The line must name where the output is at the moment the process ends, and the output moves
// (to "<dir>.partial", in place of "<dir>") while the first signal's cleanup goes on. So every
// move and the line that describes its result are made under a SecondSignalHold: a second signal
// that comes meanwhile, in whichever thread the kernel delivers it (the OpenCL runtime has threads
// of its own), ends the process when the hold ends, with the new line. A hold lasts a rename or
// two and a run.json write, never a removal of files.
#pragma once
#include <string>

namespace clfdtd::cli {

// Installs the handlers for its lifetime and puts the previous ones back after. A signal that was
// ignored when the program started (nohup ignores SIGHUP) stays ignored.
class StopSignals {
public:
  StopSignals();  // in setup: a signal exits at once
  ~StopSignals();
  // From here a signal is recorded for stop_signal() instead: called before anything is written.
  void defer();

  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
};

// What a second signal's line says after "exiting at once (exit 6); ": where the run's output is
// at that moment (the temporary folder, the committed or the partial output). Not for a handler.
void set_second_signal_line(const std::string& what);

// Keeps a second signal from ending the process while it lives; one that came meanwhile ends it
// (exit 6, the line then set) when the outermost hold ends. Only the main thread holds; holds
// nest. Where a second signal is already ending the process in another thread, the constructor
// waits for that end.
class SecondSignalHold {
public:
  SecondSignalHold();
  ~SecondSignalHold();
  SecondSignalHold(const SecondSignalHold&) = delete;
  SecondSignalHold& operator=(const SecondSignalHold&) = delete;
};

// Test hook: CLFDTD_TEST_SIGNAL_AT=<stage>[,<stage>...] raises SIGINT in this thread at each named
// stage of a run's end (the stages: run_command.cpp and OutputDir::MoveObserver), so the tests
// put a second signal at a chosen point of the first one's cleanup instead of at a chance moment.
void signal_stage(const char* stage);

int stop_signal();                 // 0, or the first signal received while StopSignals was alive
const char* signal_name(int sig);  // "SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE", else "signal"

}  // namespace clfdtd::cli
