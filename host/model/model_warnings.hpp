// Warnings about a model that runs but may not be what its author meant: parts that do not reach
// the fields (an object between the samples, a material no object uses, a source silent for the
// whole run) and a grid that is not what the file says (rounded extent, a source band or material
// the cells resolve too coarsely). Each is a sentence for the run's `warning:` lines and
// run.json; none stops the run.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/probes.hpp"
#include "model/upml_profile.hpp"

namespace clfdtd {

// A wavelength shorter than this many cells is dispersed badly (a phase velocity error of a few
// per cent; 10 to 20 cells is the usual choice).
constexpr double kFewestCellsPerWavelength = 5;
// A source whose waveform stays below this share of its peak for the whole run drives nothing
// worth recording.
constexpr double kSilentSourceLevel = 0.01;
// grid.size and the grid's extent n * d may differ by this share of the size before it is said.
constexpr double kExtentTolerance = 0.01;

// The highest frequency a source's waveform carries: where the magnitude of its spectrum has
// fallen to a tenth of its peak (docs/MODEL_KEYS.md gives each waveform's spectrum).
double waveform_top_hz(const SourceConfig& s);

// object_samples: per object, the field samples the mesher gave it (MeshedIds::object_samples).
void add_object_warnings(const RunConfig& cfg, const std::vector<std::size_t>& object_samples,
                         std::vector<std::string>& warnings);
// The extent n * d against grid.size, per axis.
void add_extent_warnings(const RunConfig& cfg, const GridGeometry& g, std::vector<std::string>& warnings);
// No source with a non-zero amplitude; a source silent during the run; a band or a material the
// cells resolve with fewer than kFewestCellsPerWavelength cells.
void add_source_warnings(const RunConfig& cfg, const GridGeometry& g,
                         const std::vector<std::size_t>& object_samples,
                         std::vector<std::string>& warnings);
// Probes that sample inside the UPML layers (the ports' own samples are checked elsewhere).
void add_probe_warnings(const ProbeSet& probes, const UpmlProfile& upml, const GridGeometry& g,
                        std::vector<std::string>& warnings);
// Probes whose E sample lies in PEC (an object or a wall): it records zero throughout. `ids` and
// `layout` as SimulationModel's (Cartesian and plane layouts; cylindrical models are not read).
void add_probe_pec_warnings(const ProbeSet& probes, const std::array<std::vector<std::uint8_t>, 6>& ids,
                            const FieldLayout& layout, const MaterialTable& materials,
                            std::vector<std::string>& warnings);

}  // namespace clfdtd
