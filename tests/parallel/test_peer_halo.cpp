// The device-to-device halo path (parallel/peer_halo.hpp, docs/MPI.md "Device-to-device") without
// a GPU: the byte trade of its setup over RankLink; device.halo_path on OpenCL devices (auto takes
// the host path, device is refused on every rank naming the key); and the transport itself (per
// face and group receive buffers, the copy into the neighbour's, tokens, unpack) on ranks as
// threads of one process with a stand-in PeerDevice that copies between the ranks' OpenCL
// buffers through the host: the split model gives the one-process outputs.
#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include "device/test_apis.hpp"
#include "engine/gpu_engine.hpp"
#include "errors.hpp"
#include "parallel/distributed_backend.hpp"
#include "parallel/parallel_model.hpp"
#include "parallel/peer_bytes.hpp"
#include "parallel/peer_halo.hpp"
#include "parallel/split_outputs.hpp"
#include "parallel/thread_link.hpp"

using namespace clfdtd;
using namespace clfdtd::parallel;
using namespace clfdtd::test;

namespace {

bool have_opencl() {
  if (has_device(device::Api::OpenCL)) return true;
  MESSAGE("no OpenCL device: device-to-device halo cases skipped");
  return false;
}

// Rank r's message to rank p: its length differs per pair (0 included) and its bytes cover every
// value, NaN patterns of floats among them.
std::vector<unsigned char> message(int r, int p) {
  std::vector<unsigned char> m(static_cast<std::size_t>(r == 0 && p == 1 ? 0 : 37 * r + 5 * p + 3));
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<unsigned char>(255 - (i * 7 + r) % 256);
  return m;
}

// A stand-in for CUDA IPC between thread ranks: an export names a (device, buffer) of the
// process; a copy reads the packed plane to the host and writes it into the neighbour's buffer
// through the neighbour's queue, so it lands after the neighbour's earlier work.
struct StandInRegistry {
  std::mutex mu;
  std::vector<std::pair<device::Device*, device::Buffer>> buffers;
  std::atomic<long> copies{0};
};

class StandInPeer final : public PeerDevice {
public:
  StandInPeer(device::Device& dev, StandInRegistry& reg) : dev_(dev), reg_(reg) {}
  std::vector<unsigned char> export_buffer(const device::Buffer& buffer) override {
    std::lock_guard<std::mutex> lock(reg_.mu);
    reg_.buffers.emplace_back(&dev_, buffer);
    const std::uint64_t id = reg_.buffers.size() - 1;
    std::vector<unsigned char> out(sizeof id);
    std::memcpy(out.data(), &id, sizeof id);
    return out;
  }
  std::size_t open(const std::vector<unsigned char>& exported) override {
    REQUIRE(exported.size() == sizeof(std::uint64_t));
    std::uint64_t id = 0;
    std::memcpy(&id, exported.data(), sizeof id);
    std::lock_guard<std::mutex> lock(reg_.mu);
    opened_.push_back(reg_.buffers.at(id));
    return opened_.size() - 1;
  }
  void copy(std::size_t target, const device::Buffer& src, std::size_t bytes) override {
    std::vector<unsigned char> plane(bytes);
    dev_.read(src, plane.data(), bytes);
    auto& [to, buf] = opened_.at(target);
    to->upload(buf, plane.data(), bytes);
    ++reg_.copies;
  }
  void mark() override {}         // copy() returns when the plane has landed
  void wait_marked() override {}

private:
  device::Device& dev_;
  StandInRegistry& reg_;
  std::vector<std::pair<device::Device*, device::Buffer>> opened_;
};

}  // namespace

TEST_CASE("exchange_bytes: each neighbour gets the other's bytes exactly, any length") {
  for (int ranks : {2, 3}) {
    ThreadGroup group(ranks);
    std::vector<std::vector<BytesTransfer>> got(static_cast<std::size_t>(ranks));
    group.run([&](int r) {
      ThreadLink link(group, r);
      std::vector<BytesTransfer> t;
      for (int p = 0; p < ranks; ++p) {
        if (p == r) continue;
        BytesTransfer b;
        b.peer = p;
        b.send_tag = 100 + p;  // the tag names the receiver: each pair has one message each way
        b.recv_tag = 100 + r;
        b.send = message(r, p);
        t.push_back(b);
      }
      exchange_bytes(link, t);
      got[static_cast<std::size_t>(r)] = t;
    });
    for (int r = 0; r < ranks; ++r)
      for (const BytesTransfer& t : got[static_cast<std::size_t>(r)]) {
        INFO("ranks " << ranks << ", " << t.peer << " -> " << r);
        CHECK(t.received == message(t.peer, r));
      }
  }
}

TEST_CASE("device.halo_path on OpenCL: auto takes the host path, device exits 2 naming the key") {
  if (!have_opencl()) return;
  const SimulationModel m = split_model(2);
  const Decomposition d = decompose(m.grid.n, 2, {2, 1, 1});
  ThreadGroup group(2);
  std::vector<std::string> paths(2), errors(2);
  group.run([&](int r) {
    DeviceConfig dev;
    dev.variant = KernelVariant::Rows;
    dev.halo_path = HaloPath::Device;
    try {
      DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
    } catch (const ConfigError& e) {
      errors[static_cast<std::size_t>(r)] = e.key() + "|" + e.what();
    }
    dev.halo_path = HaloPath::Auto;
    DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
    paths[static_cast<std::size_t>(r)] = b.halo_path();
  });
  for (int r = 0; r < 2; ++r) {
    INFO("rank " << r << ": " << errors[static_cast<std::size_t>(r)]);
    CHECK(paths[static_cast<std::size_t>(r)] == "host");
    CHECK(errors[static_cast<std::size_t>(r)].rfind("device.halo_path|", 0) == 0);
    CHECK(errors[static_cast<std::size_t>(r)].find(
              "rank 0 cannot exchange halos device to device") != std::string::npos);
    CHECK(errors[static_cast<std::size_t>(r)].find("device.backend = opencl") != std::string::npos);
  }
}

TEST_CASE("the device-to-device transport gives the one-process outputs (stand-in copies)") {
  // device and auto take the stand-in's path, host the host's: all three give the same outputs.
  if (!have_opencl()) return;
  const SimulationModel m = split_model(24);  // energy on: the received planes are read back too
  DeviceConfig dev;
  dev.variant = KernelVariant::Rows;
  OutputRecorder one;
  {
    auto engine = engine::make_gpu_engine(device::Api::OpenCL, m, dev);
    record_run(m, *engine, one);
  }
  for (const auto& [ranks, parts] : split_cases()) {
    INFO("split " << parts[0] << " " << parts[1] << " " << parts[2]);
    const Decomposition d = decompose(m.grid.n, ranks, parts);
    for (HaloPath path : {HaloPath::Device, HaloPath::Auto, HaloPath::Host}) {
      INFO("device.halo_path " << static_cast<int>(path));
      const bool direct = path != HaloPath::Host;  // host: the stand-in is never asked
      ThreadGroup group(ranks);
      StandInRegistry registry;
      std::vector<OutputRecorder> rec(static_cast<std::size_t>(ranks));
      std::vector<std::string> used(static_cast<std::size_t>(ranks));
      const PeerDeviceFactory stand_in = [&](device::Device& device, std::string&) {
        return std::make_unique<StandInPeer>(device, registry);
      };
      group.run([&](int r) {
        DeviceConfig cfg = dev;
        cfg.halo_path = path;
        DistributedBackend b(m, cfg, d, std::make_unique<ThreadLink>(group, r), stand_in);
        used[static_cast<std::size_t>(r)] = b.halo_path();
        record_run(m, b, rec[static_cast<std::size_t>(r)]);
      });
      CHECK((registry.copies.load() > 0) == direct);
      for (int r = 0; r < ranks; ++r) {
        INFO("rank " << r);
        CHECK(used[static_cast<std::size_t>(r)] == (direct ? "device" : "host"));
        const std::string err = compare_outputs(rec[static_cast<std::size_t>(r)], one, r == 0);
        CHECK_MESSAGE(err.empty(), err);
      }
    }
  }
}
