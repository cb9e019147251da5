// Checks both device implementations make before calling their API, so a wrong call reads the
// same on either (a DeviceError naming the call, kernel or define) and never reaches the driver.
#pragma once
#include <string>
#include <vector>

#include "device/device.hpp"

namespace clfdtd::device {

// Bytes [offset, offset + bytes) lie inside `b`.
void check_span(const Buffer& b, std::size_t offset, std::size_t bytes, const char* call);

// `r` with its pitches filled in (0 = tightly packed), checked to lie inside `src`.
Rect checked_rect(const Buffer& src, const Rect& r);

// "-DNAME=value" per define; DeviceError for a name that is not a C identifier.
std::vector<std::string> define_flags(const Defines& defines);

// `global` a multiple of `local` in every dimension, no local size 0.
void check_launch_ranges(const std::string& kernel, const Range& global, const Range& local);

}  // namespace clfdtd::device
