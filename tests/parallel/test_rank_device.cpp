// rank_device_select: the device each rank of a distributed run opens.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "errors.hpp"
#include "parallel/rank_device.hpp"

using clfdtd::device::DeviceInfo;
using clfdtd::parallel::rank_device_select;

namespace {

DeviceInfo dev(int index, const std::string& name, const std::string& type, unsigned units) {
  DeviceInfo d;
  d.index = index;
  d.name = name;
  d.platform = type == "gpu" ? "NVIDIA CUDA" : "Portable Computing Language";
  d.type = type;
  d.compute_units = units;
  d.clock_mhz = 1000;
  return d;
}

// A node with a CPU listed first and three GPUs, the second the fastest.
const std::vector<DeviceInfo> kNode = {dev(0, "AMD EPYC", "cpu", 64), dev(1, "NVIDIA H100", "gpu", 132),
                                       dev(2, "NVIDIA H200", "gpu", 140), dev(3, "NVIDIA H100", "gpu", 132)};

}  // namespace

TEST_CASE("a list: rank r takes entry r mod K") {
  CHECK(rank_device_select("0, 2", 0, 0, kNode) == "0");
  CHECK(rank_device_select("0, 2", 1, 1, kNode) == "2");
  CHECK(rank_device_select("0, 2", 2, 0, kNode) == "0");
  CHECK(rank_device_select("gpu,cpu,H200", 5, 1, kNode) == "H200");
}

TEST_CASE("no entry: the GPUs of the node in turn, by node-local rank") {
  CHECK(rank_device_select("", 0, 0, kNode) == "1");
  CHECK(rank_device_select("", 1, 1, kNode) == "2");
  CHECK(rank_device_select("", 2, 2, kNode) == "3");
  CHECK(rank_device_select("", 3, 3, kNode) == "1");  // more ranks than GPUs: shared in turn
  CHECK(rank_device_select("", 7, 0, kNode) == "1");  // the node-local rank decides, not the world rank
}

TEST_CASE("one entry: the devices it matches, of its best match's type, in turn") {
  CHECK(rank_device_select("h100", 0, 1, kNode) == "3");
  CHECK(rank_device_select("cpu", 0, 2, kNode) == "0");
  CHECK(rank_device_select("2", 0, 1, kNode) == "2");  // an index: every rank that device
  CHECK(rank_device_select("", 1, 1, {dev(0, "pthread", "cpu", 2)}) == "0");
  CHECK(rank_device_select("gpu", 1, 1, {}) == "gpu");  // nothing listed: the backend reports it
  CHECK_THROWS_AS(rank_device_select("mi300", 0, 0, kNode), clfdtd::ConfigError);
}
