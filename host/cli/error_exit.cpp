// describe_error: see error_exit.hpp.
#include "cli/error_exit.hpp"

#include <filesystem>
#include <new>
#include <stdexcept>

#include "errors.hpp"

namespace clfdtd::cli {

ErrorExit describe_error(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const ConfigError& e) {
    return {2, std::string("bad input: ") + e.what()};
  } catch (const OutputRefusedError& e) {
    return {2, std::string("bad input: ") + e.what()};
  } catch (const NonFiniteError& e) {
    return {3, "fields became non-finite at step " + std::to_string(e.step()) + ": " + e.what()};
  } catch (const OutOfMemoryError& e) {
    return {4, std::string("not enough memory: ") + e.what()};
  } catch (const DeviceError& e) {
    return {4, std::string("device error: ") + e.what()};
  } catch (const std::bad_alloc&) {
    return {4, "not enough host memory for this model"};
  } catch (const OutputError& e) {
    return {5, std::string("output error: ") + e.what()};
  } catch (const std::filesystem::filesystem_error& e) {
    // A file-system call made without an error_code: still a failed write, not a bug.
    return {5, "output error: cannot write '" + e.path1().string() + "': " + e.code().message()};
  } catch (const std::exception& e) {
    return {1, std::string("internal error (a bug; please report it with the model file and "
                           "command line): ") + e.what()};
  } catch (...) {
    return {1, "internal error (a bug; please report it with the model file and command line): "
               "an exception of unknown type"};
  }
}

}  // namespace clfdtd::cli
