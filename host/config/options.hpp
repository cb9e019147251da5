// The one table of model-file keys: every key load_config() accepts, with its value type, unit,
// default and help. `clfdtd run --help` and docs/MODEL_KEYS.md are both rendered from it, so the
// documentation cannot drift from the parser.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace clfdtd {

enum class ValueType {
  Number,   // a real number, SI units, e.g. 3e9
  Integer,  // a whole number (1e3 is accepted as 1000)
  Word,     // a word from OptionSpec::words (several, each once, when counts allows a list)
  Text,     // free text (a name, a directory)
};

// The values a Number or Integer key accepts (each value, for a list): from min to max, each end
// included unless open. The defaults (the whole real line) are for Word and Text keys. `note`
// names a further limit that needs the derived grid or another key; it is checked in
// SimulationModel::build() (host/model/input_limits.hpp) or by the loader's cross-key checks.
struct Range {
  double min = -1e308, max = 1e308;
  bool min_open = false, max_open = false;
  std::string note;
  bool contains(double v) const {
    return (min_open ? v > min : v >= min) && (max_open ? v < max : v <= max);
  }
};

struct OptionSpec {
  std::string key;  // "grid.size", or "material.*.eps_r" for a named section
  ValueType type;
  std::vector<int> counts;         // allowed numbers of values: {1}, {3}, {1, 3}; empty = a list
  std::vector<std::string> words;  // Word: the allowed words
  std::string unit;                // SI unit, "" when dimensionless
  std::string default_text;        // "required", a value, or a description of the derived default
  std::string help;
  Range range;                     // Number, Integer: the values accepted
};

// Sections whose name carries a user-chosen part: [material.<name>], [object.<name>], ...
const std::vector<std::string>& named_sections();
// Sections that appear at most once: [grid], [time], [boundary], [snapshot], [output], [device].
const std::vector<std::string>& singleton_sections();

// Every key, grouped by section in the order of the help text.
const std::vector<OptionSpec>& option_table();

// The spec of a concrete key ("material.glass.eps_r" matches "material.*.eps_r"), or nullptr.
const OptionSpec* find_option(const std::string& key);

// The closest known key to a misspelt one (named-section patterns filled with the user's name),
// or "" when nothing is close.
std::string closest_key(const std::string& key);

// Of `names`, the one closest to `name` within two edits (one for names of up to four letters;
// the first of equals), or "": the "did you mean" of a misspelt section or material name.
std::string closest_name(const std::string& name, const std::vector<std::string>& names);

// "" when `section` ("grid", "material.glass") is a valid section name, else what was expected.
std::string section_problem(const std::string& section);

// "" when `key` is in the table, else what was expected (the section's keys, a close match).
std::string key_problem(const std::string& key);

// Value syntax shared by the file and the command line: tokens separated by spaces or commas.
std::vector<std::string> split_value(const std::string& text);
bool count_allowed(const OptionSpec& spec, std::size_t n);  // n tokens fit spec.counts
// A finite number ("3e9"); with `integer`, also whole ("1e3" is 1000). nullopt when not one.
std::optional<double> parse_number(const std::string& token, bool integer);
// Index of `token` in spec.words (case-insensitive), or -1.
int word_index(const OptionSpec& spec, const std::string& token);

// The key as a user reads it: "material.<name>.eps_r".
std::string display_key(const OptionSpec& spec);

// What a value of this key looks like: "3 numbers", "an integer", "one of upml, pec", ...
std::string describe_value(const OptionSpec& spec);

// The range as written in messages and help: "[0.01, 1]", "(0, 1e+09]", ">= 0", "" for none.
std::string describe_range(const Range& range);

// What a value must be, range included: "a number in [0.01, 1]", "3 numbers, each in (0, 1e+09]".
std::string describe_value_in_range(const OptionSpec& spec);

// Command-line short forms of `clfdtd run`: --device=X is --device.select=X, ... (every option
// that is not --section.key; the help text and the parser both read this list).
struct CommandLineAlias {
  std::string option;  // "device"
  std::string key;     // "device.select"; "" for a flag
  std::string help;
};
const std::vector<CommandLineAlias>& command_line_aliases();

// The table as plain text for `clfdtd run --help`.
std::string help_text();

// The table as Markdown: the content of docs/MODEL_KEYS.md.
std::string keys_markdown();

}  // namespace clfdtd
