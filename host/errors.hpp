// Error types shared by every part of the host program. host/cli/cli.cpp maps them to the exit
// codes of the README: ConfigError, OutputRefusedError -> 2 (bad input), NonFiniteError -> 3,
// DeviceError / OutOfMemoryError (and std::bad_alloc) -> 4, OutputError -> 5; anything else is a
// bug -> 1. Non-finite fields (3) and interrupts (6) are normally returned, not thrown.
#pragma once
#include <cstring>
#include <stdexcept>
#include <string>

namespace clfdtd {

// Bad input: names the file, line (0 = none, e.g. a command-line override), key and what was expected.
class ConfigError : public std::runtime_error {
public:
  ConfigError(std::string file, int line, std::string key, std::string expected)
      : std::runtime_error(format(file, line, key, expected)),
        file_(std::move(file)), line_(line), key_(std::move(key)), expected_(std::move(expected)) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key() const { return key_; }
  const std::string& expected() const { return expected_; }

private:
  static std::string format(const std::string& file, int line, const std::string& key,
                            const std::string& expected) {
    std::string where = file.empty() ? std::string("command line") : file;
    if (line > 0) where += ":" + std::to_string(line);
    return where + ": " + (key.empty() ? std::string() : "'" + key + "': ") + expected;
  }
  std::string file_;
  int line_;
  std::string key_;
  std::string expected_;
};

// The compute device failed (driver call, kernel build, ...): the message carries the call and
// the driver's message or build log.
class DeviceError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The model does not fit the device: bytes needed and available.
class OutOfMemoryError : public DeviceError {
public:
  using DeviceError::DeviceError;
};

// A field became NaN or infinite during the time loop.
class NonFiniteError : public std::runtime_error {
public:
  NonFiniteError(long step, std::string what) : std::runtime_error(std::move(what)), step_(step) {}
  long step() const { return step_; }

private:
  long step_;
};

// An output path that may not be replaced (a folder that is not an earlier clfdtd output, a file,
// the home folder, ...) or that another run is writing to: bad input, nothing written. The
// message names the path and, where there is one, the way to force it.
class OutputRefusedError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The file system refused a write (no space left, permission denied, name too long, read-only
// file system, ...): one line, "cannot <action> '<path>': <the system's reason>".
class OutputError : public std::runtime_error {
public:
  OutputError(const std::string& action, const std::string& path, const std::string& reason)
      : std::runtime_error("cannot " + action + " '" + path + "': " + reason), path_(path) {}
  // The reason from an errno value (0: a failure the system did not explain).
  static OutputError from_errno(const std::string& action, const std::string& path, int err) {
    return OutputError(action, path, err != 0 ? std::strerror(err) : "write failed");
  }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

}  // namespace clfdtd
