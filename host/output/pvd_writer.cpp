// PvdWriter: see pvd_writer.hpp. The file is tiny (one line per snapshot), so rewriting it whole is
// cheaper to reason about than appending and patching the closing tags.
#include "output/pvd_writer.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <system_error>

#include "errors.hpp"
#include "output/text_file.hpp"

namespace clfdtd {
namespace {

std::string xml_attribute(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

PvdWriter::PvdWriter(const std::string& path) : path_(path) { rewrite(); }

void PvdWriter::add(double time_s, const std::string& relative_file) {
  entries_.emplace_back(time_s, relative_file);
  try {
    rewrite();
  } catch (...) {
    entries_.pop_back();  // keep memory in step with the file that is on disk
    throw;
  }
}

void PvdWriter::rewrite() const {
  const std::string tmp = path_ + ".part";
  {
    std::ostringstream out;
    out << "<?xml version=\"1.0\"?>\n"
        << "<!-- clfdtd field snapshots; timestep in seconds (E time; H is dt/2 earlier) -->\n"
        << "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
        << "  <Collection>\n";
    char time[64];
    for (const auto& e : entries_) {
      std::snprintf(time, sizeof time, "%.17g", e.first);  // exact: ParaView matches TimeValue
      out << "    <DataSet timestep=\"" << time << "\" group=\"\" part=\"0\" file=\""
          << xml_attribute(e.second) << "\"/>\n";
    }
    out << "  </Collection>\n</VTKFile>\n";
    write_text_file(tmp, out.str());
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path_, ec);  // atomic replace: readers never see a partial file
  if (ec) throw OutputError("rename '" + tmp + "' to", path_, ec.message());
}

}  // namespace clfdtd
