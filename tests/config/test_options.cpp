// The option table and what is rendered from it: `clfdtd run --help` and docs/MODEL_KEYS.md.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "config/options.hpp"

using namespace clfdtd;

namespace {
const char* kDocPath = CLFDTD_SOURCE_DIR "/docs/MODEL_KEYS.md";
}

TEST_CASE("the table holds every section and no key twice") {
  const auto& table = option_table();
  for (const auto& spec : table) {
    INFO(spec.key);
    CHECK(find_option(spec.key) == &spec);
    CHECK(!spec.help.empty());
    CHECK(!spec.default_text.empty());
    CHECK((spec.type != ValueType::Word || !spec.words.empty()));
  }
  for (const auto& s : singleton_sections()) CHECK(find_option(s + ".x") == nullptr);
  // Every key asked for in the design is present.
  for (const char* key : {"grid.size",          "grid.max_frequency",
                          "grid.cell_size",     "grid.cells_per_wavelength",
                          "grid.courant",       "time.steps",
                          "time.duration",      "boundary.type",
                          "boundary.layers",    "boundary.grading",
                          "boundary.sigma_max", "boundary.kappa_max",
                          "material.*.eps_r",   "material.*.mu_r",
                          "material.*.sigma",   "material.*.pec",
                          "object.*.shape",     "object.*.center",
                          "object.*.size",      "object.*.radius",
                          "object.*.length",    "object.*.axis",
                          "object.*.material",  "source.*.type",
                          "source.*.axis",      "source.*.position",
                          "source.*.waveform",  "source.*.frequency",
                          "source.*.amplitude", "source.*.delay",
                          "source.*.bandwidth", "probe.*.position",
                          "probe.*.fields",     "probe.*.steps",
                          "snapshot.steps",     "snapshot.fields",
                          "output.dir",         "device.backend",
                          "device.select",      "device.workgroup"}) {
    INFO(key);
    const OptionSpec* spec = find_option(key);
    REQUIRE(spec != nullptr);
    CHECK(spec->key == key);
  }
}

TEST_CASE("named-section keys match any user name, but only with a name") {
  CHECK(display_key(*find_option("material.x.eps_r")) == "material.<name>.eps_r");
  REQUIRE(find_option("material.glass.eps_r") != nullptr);
  CHECK(find_option("material.glass.eps_r")->key == "material.*.eps_r");
  CHECK(find_option("probe.p-1.fields")->key == "probe.*.fields");
  CHECK(find_option("material.eps_r") == nullptr);
  CHECK(find_option("grid.x.size") == nullptr);
  CHECK(find_option("grid.courrant") == nullptr);
}

TEST_CASE("misspelt keys get the nearest valid key") {
  CHECK(closest_key("grid.courrant") == "grid.courant");
  CHECK(closest_key("material.glass.epsr") == "material.glass.eps_r");
  CHECK(closest_key("source.feed.postion") == "source.feed.position");
  CHECK(closest_key("device.frobnicate.everything") == "");
  CHECK(key_problem("grid.size").empty());
  CHECK(key_problem("grid.courrant").find("did you mean 'grid.courant'") != std::string::npos);
  CHECK(section_problem("boundry").find("did you mean [boundary]") != std::string::npos);
  CHECK(section_problem("material").find("[material.<name>]") != std::string::npos);
  CHECK(section_problem("grid.x").find("without a name") != std::string::npos);
  CHECK(section_problem("material.a b") != "");
}

TEST_CASE("value descriptions name type and count") {
  CHECK(describe_value(*find_option("grid.size")) == "2 or 3 numbers");
  CHECK(describe_value(*find_option("grid.cell_size")) == "1, 2 or 3 numbers");
  CHECK(describe_value(*find_option("time.steps")) == "an integer");
  CHECK(describe_value(*find_option("grid.courant")) == "a number");
  CHECK(describe_value(*find_option("boundary.layers")) == "1, 3, 4 or 6 integers");
  CHECK(describe_value(*find_option("boundary.type")) == "one of upml, pec");
  CHECK(describe_value(*find_option("probe.x.fields")) ==
        "any of Ex, Ey, Ez, Hx, Hy, Hz, Er, Ephi, Hr, Hphi");
  CHECK(describe_value(*find_option("snapshot.steps")) == "a list of integers");
}

TEST_CASE("value syntax: SI numbers, integers, words") {
  CHECK(split_value(" 1, 2 ,3 ") == std::vector<std::string>{"1", "2", "3"});
  CHECK(*parse_number("3e9", false) == 3e9);
  CHECK(*parse_number("1e3", true) == 1000);
  CHECK_FALSE(parse_number("2.5", true).has_value());
  CHECK_FALSE(parse_number("3GHz", false).has_value());
  CHECK_FALSE(parse_number("nan", false).has_value());
  CHECK_FALSE(parse_number("", false).has_value());
  CHECK(word_index(*find_option("boundary.type"), "PEC") == 1);
  CHECK(word_index(*find_option("boundary.type"), "mur") == -1);
}

TEST_CASE("help_text lists every key with its unit and default") {
  const std::string help = help_text();
  for (const auto& spec : option_table()) {
    INFO(spec.key);
    auto at = help.find("  " + display_key(spec) + "  (");
    REQUIRE(at != std::string::npos);
    std::string line = help.substr(at, help.find('\n', at) - at);
    CHECK(line.find(describe_value(spec)) != std::string::npos);
    CHECK(line.find(spec.default_text + ")") != std::string::npos);
    if (!spec.unit.empty()) CHECK(line.find(", " + spec.unit + ";") != std::string::npos);
    CHECK(help.find(spec.help.substr(0, 20)) != std::string::npos);
  }
  for (const char* header :
       {"[grid]", "[time]", "[boundary]", "[material.<name>]", "[object.<name>]", "[source.<name>]",
        "[probe.<name>]", "[snapshot]", "[output]", "[device]"})
    CHECK(help.find(std::string("\n") + header + "\n") != std::string::npos);
}

TEST_CASE("every numeric key has a range, shown in the help and the docs") {
  const std::string help = help_text(), md = keys_markdown();
  for (const auto& spec : option_table()) {
    if (spec.type != ValueType::Number && spec.type != ValueType::Integer) continue;
    INFO(spec.key);
    const std::string range = describe_range(spec.range);
    CHECK((!range.empty() || !spec.range.note.empty()));
    const auto at = help.find("  " + display_key(spec) + "  (");
    REQUIRE(at != std::string::npos);
    const std::string line = help.substr(at, help.find('\n', at) - at);
    CHECK(line.find(range + (spec.range.note.empty() ? "" : ", " + spec.range.note)) !=
          std::string::npos);
    CHECK(md.find(range) != std::string::npos);
  }
  // The forms a range takes.
  CHECK(describe_range(Range{0.01, 1, false, false, ""}) == "[0.01, 1]");
  CHECK(describe_range(Range{0, 1e9, true, false, ""}) == "(0, 1e9]");
  CHECK(describe_range(Range{1e-12, 2147483647, false, false, ""}) == "[1e-12, 2147483647]");
  CHECK(describe_range(Range{0, 1e308, false, false, ""}) == ">= 0");
  CHECK(describe_range(Range{}) == "");
  CHECK(Range{0, 1, true, false, ""}.contains(1));
  CHECK_FALSE(Range{0, 1, true, false, ""}.contains(0));
  const OptionSpec* courant = find_option("grid.courant");
  REQUIRE(courant);
  CHECK(describe_value_in_range(*courant) == "a number in [0.01, 1]");
  CHECK(describe_value_in_range(*find_option("grid.size")) == "2 or 3 numbers, each in (0, 1e9]");
  CHECK(describe_value_in_range(*find_option("material.glass.sigma")) == "1 or 3 numbers, each in [0, 1e9]");
}

// docs/MODEL_KEYS.md is generated from the table; this keeps the two equal. After changing the
// table, regenerate with: CLFDTD_WRITE_DOCS=1 build/tests/test_config
TEST_CASE("docs/MODEL_KEYS.md equals keys_markdown()") {
  const std::string md = keys_markdown();
  if (std::getenv("CLFDTD_WRITE_DOCS")) std::ofstream(kDocPath, std::ios::binary) << md;
  std::ifstream in(kDocPath, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  CHECK(text.str() == md);
  for (const auto& spec : option_table())
    CHECK(md.find("| `" + spec.key.substr(spec.key.rfind('.') + 1) + "` |") != std::string::npos);
}
