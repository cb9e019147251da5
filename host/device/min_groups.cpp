// Occupancy requests as defines and in PTX: see min_groups.hpp.
#include "device/min_groups.hpp"

namespace clfdtd::device {

std::vector<std::pair<std::string, int>> min_groups_requests(const Defines& defines) {
  std::vector<std::pair<std::string, int>> out;
  const std::string prefix = kMinGroupsPrefix;
  for (const auto& [name, value] : defines) {
    if (value > 0 && name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0) {
      out.emplace_back(name.substr(prefix.size()), value);
    }
  }
  return out;
}

bool add_ptx_min_groups(std::string& ptx, const std::string& kernel, int groups) {
  // An entry reads `.entry name(` params `)` directives `{`; parameters hold no parentheses.
  const std::string head = ".entry " + kernel + "(";
  const std::size_t entry = ptx.find(head);
  if (entry == std::string::npos || groups <= 0) return false;
  const std::size_t params_end = ptx.find(')', entry + head.size());
  if (params_end == std::string::npos) return false;
  const std::size_t body = ptx.find('{', params_end);
  if (body == std::string::npos) return false;
  const std::string directives = ptx.substr(params_end + 1, body - params_end - 1);
  if (directives.find(".reqntid") == std::string::npos &&
      directives.find(".maxntid") == std::string::npos) {
    return false;
  }
  if (directives.find(".minnctapersm") != std::string::npos) return false;
  ptx.insert(body, ".minnctapersm " + std::to_string(groups) + "\n");
  return true;
}

}  // namespace clfdtd::device
