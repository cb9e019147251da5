#include "cli/cli.hpp"

#include <iostream>
#include <string>

namespace clfdtd::cli {

int run(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help") {
    std::cout << "usage: clfdtd run <model.ini> | devices | --help\n";
    return argc < 2 ? 2 : 0;
  }
  std::cerr << "clfdtd: not yet implemented: " << argv[1] << "\n";
  return 2;
}

}  // namespace clfdtd::cli
