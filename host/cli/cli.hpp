// Subcommands: run <model.ini> [--section.key=value ...], devices, --help. Returns the exit code:
// 0 ok, 2 bad input, 3 non-finite fields (outputs so far kept), 4 device failure or out of memory.
#pragma once

namespace clfdtd::cli {

int run(int argc, char** argv);

}  // namespace clfdtd::cli
