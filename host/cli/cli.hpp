// Subcommands: run <model.ini> [--section.key=value ...], devices, --help. Returns the exit code
// of the README's table: 0 done, 1 internal error, 2 bad input, 3 non-finite fields, 4 out of
// memory or device error, 5 output could not be written, 6 interrupted (SIGINT, SIGTERM, SIGHUP).
#pragma once

namespace clfdtd::cli {

int run(int argc, char** argv);

}  // namespace clfdtd::cli
