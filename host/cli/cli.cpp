// The command line: picks the subcommand and maps error types to exit codes, printing one clear
// message per failure (see cli.hpp for the codes).
#include "cli/cli.hpp"

#include <cstdio>
#include <filesystem>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "cli/commands.hpp"
#include "cli/error_exit.hpp"
#include "config/options.hpp"
#include "config/printable.hpp"
#include "errors.hpp"

namespace clfdtd::cli {
namespace {

const char* kUsage =
    "clfdtd " CLFDTD_VERSION " - 3D FDTD electromagnetic simulator (OpenCL; SI units throughout)\n"
    "\n"
    "usage:\n"
    "  clfdtd run <model.ini> [--section.key=value ...] [--device=X] [--backend=X] [--variant=X]\n"
    "             [--workgroup=X] [--quiet]\n"
    "      run a model; any model key can be set or overridden on the command line, before or\n"
    "      after the model file\n"
    "  clfdtd run --help      every model key, with unit and default\n"
    "  clfdtd devices         the devices this machine offers (OpenCL; CUDA in a CUDA build)\n"
    "  clfdtd bench [--tune] [--device=X] [--n=512] ...   speed of the standard problems per\n"
    "                         device, backend and kernel variant (clfdtd bench --help)\n"
    "  clfdtd sparams <run folder> ... --output=<file.sNp>   the S-matrix of a model's ports\n"
    "                         from one run per port, as a Touchstone file (docs/PORTS.md)\n"
    "  clfdtd modes <model.ini> --axis=z --position=\"X Y Z\" ...   the modes that travel along an\n"
    "                         axis of the model's mesh: n_eff, beta, fields (clfdtd modes --help)\n"
    "  clfdtd --help | --version\n"
    "\n"
    "exit codes: 0 done, 1 internal error (a bug: please report it), 2 bad input (nothing written),\n"
    "  3 fields became non-finite, 4 not enough memory or device error, 5 output could not be\n"
    "  written, 6 interrupted (SIGINT, SIGTERM, SIGHUP, SIGPIPE); 3, 6 and a 5 during the run\n"
    "  keep the partial output (README, \"Exit codes\")\n";

const char* kRunUsage =
    "usage: clfdtd run <model.ini> [--section.key=value ...] [--device=X] [--backend=X]\n"
    "                  [--variant=X] [--workgroup=X] [--quiet]\n"
    "  options may come before or after the model file; clfdtd run --help lists them all\n";

// Where the model file is among the run's arguments. The file is the first argument that is not
// an option and not an option's value: either nothing asks for a value where it stands (the first
// argument, or after --key=value or --quiet), or it looks like a model file (ends in .ini or names
// an existing file) after the first value of a spaced option (--key v1 v2 ... takes a list, so the
// file cannot be told apart by position alone). at = -1 when there is none; `extra` is then the
// first argument taken as a further value of `extra_option` (perhaps a mistyped or missing file).
struct ModelArgument {
  int at = -1;
  std::string extra, extra_option;
};

ModelArgument model_argument(const std::vector<std::string>& args) {
  ModelArgument found;
  bool awaits_value = false, after_value = false;
  std::string option;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) == 0) {
      const bool flag = a == "--quiet";
      awaits_value = !flag && a.find('=') == std::string::npos;
      after_value = false;
      option = a;
      continue;
    }
    std::error_code ec;
    const bool looks_like_model =
        (a.size() > 4 && a.compare(a.size() - 4, 4, ".ini") == 0) ||
        std::filesystem::is_regular_file(a, ec);
    if ((!awaits_value && !after_value) || (after_value && looks_like_model)) {
      found.at = static_cast<int>(i);
      return found;
    }
    if (after_value && found.extra.empty()) {
      found.extra = a;
      found.extra_option = option;
    }
    after_value = true;
    awaits_value = false;
  }
  return found;
}

bool wants_help(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

int dispatch(int argc, char** argv) {
  const std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  // Commands that take no arguments refuse any, rather than ignore a mistyped option.
  if (cmd == "devices" && wants_help(args)) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if ((cmd == "--version" || cmd == "devices") && !args.empty()) {
    std::fprintf(stderr, "clfdtd: bad input: '%s' takes no arguments, got '%s'\n\n%s", cmd.c_str(),
                 args.front().c_str(), kUsage);
    return 2;
  }
  if (cmd == "--version") {
    std::printf("clfdtd %s\n", CLFDTD_VERSION);
    return 0;
  }
  if (cmd == "devices") return devices_command();
  if (cmd == "bench") return bench_command(args);
  if (cmd == "sparams") return sparams_command(args);
  if (cmd == "modes") return modes_command(args);
  if (cmd == "run") {
    if (wants_help(args)) {
      std::printf("%s\n%s", kRunUsage, help_text().c_str());
      return 0;
    }
    const ModelArgument found = model_argument(args);
    if (found.at < 0) {
      std::string guess;
      if (!found.extra.empty()) {
        std::error_code ec;
        const bool folder = std::filesystem::is_directory(found.extra, ec);
        guess = "; '" + printable(found.extra) + "' was read as a further value of " +
                printable(found.extra_option) + (folder ? ": it is a folder" : ": no such file") +
                " (taken as the model file there: a name ending in .ini or an existing file; or give the model file first)";
      }
      std::fprintf(stderr, "clfdtd: bad input: the model file is missing%s\n\n%s", guess.c_str(),
                   kRunUsage);
      return 2;
    }
    const std::string model = args[static_cast<std::size_t>(found.at)];
    args.erase(args.begin() + found.at);
    return run_command(model, args);
  }
  std::fprintf(stderr, "clfdtd: unknown command '%s'\n\n%s", cmd.c_str(), kUsage);
  return 2;
}

}  // namespace

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  // The one place where errors become exit codes (README, "Exit codes"; error_exit.hpp).
  try {
    return dispatch(argc, argv);
  } catch (...) {
    const ErrorExit e = describe_error(std::current_exception());
    std::fprintf(stderr, "clfdtd: %s\n", e.line.c_str());
    return e.code;
  }
}

}  // namespace clfdtd::cli
