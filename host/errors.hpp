// Error types shared by every part of the host program. main() maps them to exit codes:
// ConfigError -> 2 (bad input), DeviceError / OutOfMemoryError -> 4, NonFiniteError -> 3.
#pragma once
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

}  // namespace clfdtd
