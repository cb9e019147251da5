// Patent step 1 input: reads a model file (INI, keys in host/config/options.cpp) and command-line
// overrides into a checked RunConfig. Every problem is a ConfigError naming file, line, key and
// what was expected. Nothing is written to disk.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace clfdtd {

// Model files are a few kB; a larger one is a mistake (a data file, a log) and is refused unread.
inline constexpr std::size_t kMaxModelFileBytes = std::size_t{16} << 20;

// `path`: the model file, or "" (then every required key must come from `args`).
// `args`: command-line tokens after the model path:
//   --section.key=value or --section.key value   set or override a key (command line wins;
//                                                 a list may follow as separate tokens)
//   --device=X, --backend=X, --workgroup=X        device.select, device.backend, device.workgroup
//   --quiet                                       RunConfig::quiet
// Errors in command-line values carry file "" and line 0 (the message then says "command line").
RunConfig load_config(const std::string& path, const std::vector<std::string>& args);

// The same for model text already in memory; `file_name` is used for source_file and messages.
RunConfig load_config_text(const std::string& text, const std::string& file_name,
                           const std::vector<std::string>& args);

}  // namespace clfdtd
