// run.json names a monitor's or port's file while the run goes on and, once it has ended, only
// the files it wrote: a run that went non-finite has no port spectra, and says so with null.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "model/simulation_model.hpp"
#include "output/run_report.hpp"

namespace fs = std::filesystem;
using namespace clfdtd;

namespace {
nlohmann::json written(const RunReport& r) {
  const fs::path path = fs::temp_directory_path() /
                        ("clfdtd_test_run_json_files_" + std::to_string(::getpid()) + ".json");
  write_run_json(path.string(), r);
  std::ifstream in(path);
  nlohmann::json j = nlohmann::json::parse(in);
  fs::remove(path);
  return j;
}

RunReport report_with_port_and_monitor() {
  SimulationModel m;
  m.grid.n = {10, 10, 10};
  RunReport r = report_from_model(m);
  PortReport p;
  p.name = "feed";
  p.field = "Ez";
  p.sole_driven = true;
  r.ports.push_back(p);
  MonitorReport mon;
  mon.name = "box";
  mon.type = "flux";
  mon.file = "monitors/box.csv";
  r.monitors.push_back(mon);
  return r;
}
}  // namespace

TEST_CASE("run.json: file names while running, and only written files once ended") {
  RunReport r = report_with_port_and_monitor();
  r.status = "running";
  const nlohmann::json running = written(r);
  CHECK(running["ports"][0]["file"] == "ports/feed.csv");
  CHECK(running["ports"][0]["time_file"] == "ports/feed.time.csv");
  CHECK(running["ports"][0]["touchstone_file"] == "ports/feed.s1p");
  CHECK(running["monitors"][0]["file"] == "monitors/box.csv");

  r.status = "non-finite";
  r.files = std::vector<std::string>{"probes.csv"};
  const nlohmann::json failed = written(r);
  CHECK(failed["ports"][0]["file"].is_null());
  CHECK(failed["ports"][0]["time_file"].is_null());
  CHECK(failed["ports"][0]["touchstone_file"].is_null());
  CHECK(failed["monitors"][0]["file"].is_null());

  r.status = "completed";
  r.files = std::vector<std::string>{"monitors/box.csv", "ports/feed.csv", "ports/feed.s1p",
                                     "ports/feed.time.csv", "probes.csv"};
  const nlohmann::json done = written(r);
  CHECK(done["ports"][0]["file"] == "ports/feed.csv");
  CHECK(done["ports"][0]["time_file"] == "ports/feed.time.csv");
  CHECK(done["ports"][0]["touchstone_file"] == "ports/feed.s1p");
  CHECK(done["monitors"][0]["file"] == "monitors/box.csv");
}
