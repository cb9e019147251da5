"""The validation cases by name, in report order."""

import time
import traceback

from . import (cavity, cyl_cavity, cyl_dipole, cyl_mode_selection, cyl_vs_3d, cylinder_2d, dipole,
               energy, modes, monitors, plane_cavity, plane_line, plane_upml, plane_wave,
               scattering, scattering_dispersive, symmetry, upml)
from .common import CaseResult

CASES = {
    "cavity": cavity.case_cavity,
    "convergence": cavity.case_convergence,
    "dielectric": cavity.case_dielectric,
    "dipole": dipole.case_dipole,
    "upml": upml.case_upml,
    "energy": energy.case_energy,
    "symmetry": symmetry.case_symmetry,
    "dipole_flux": monitors.case_dipole_flux,
    "dipole_farfield": monitors.case_dipole_farfield,
    "sphere_flux": monitors.case_sphere_flux,
    "modes": modes.case_modes,
    "plane_cavity": plane_cavity.case_plane_cavity,
    "plane_line": plane_line.case_plane_line,
    "plane_upml": plane_upml.case_plane_upml,
    "plane_wave_equiv": plane_wave.case_plane_wave_equiv,
    "plane_wave_absorber": plane_upml.case_plane_wave_absorber,
    "cyl_cavity": cyl_cavity.case_cyl_cavity,
    "cyl_mode_selection": cyl_mode_selection.case_cyl_mode_selection,
    "cyl_vs_3d": cyl_vs_3d.case_cyl_vs_3d,
    "cyl_dipole": cyl_dipole.case_cyl_dipole,
    "mie": scattering.case_mie,
    "mie_dispersive": scattering_dispersive.case_mie_dispersive,
    "cylinder_2d": cylinder_2d.case_cylinder_2d,
}


def run_case(name, ctx):
    t0 = time.time()
    try:
        result = CASES[name](ctx)
    except Exception as e:  # a crash is a failure with its reason, not a silent pass
        traceback.print_exc()
        result = CaseResult(name, name)
        result.check("case ran", "runs to completion", f"error: {e}".splitlines()[0], False)
    result.seconds = time.time() - t0
    return result
