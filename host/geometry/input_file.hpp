// Files a model names besides itself (mesh and voxel files): whether one can be read at all.
#pragma once
#include <string>

namespace clfdtd {

// Why `path` cannot be read ("no such file (looked for /abs/path: ...)", "not a regular file",
// "cannot open it: ..."), or "" where it can.
std::string unreadable_reason(const std::string& path);

}  // namespace clfdtd
