#!/usr/bin/env python3
"""Mie scattering by a homogeneous sphere (Bohren and Huffman, "Absorption and Scattering of Light
by Small Particles", Wiley 1983, chapter 4 and the BHMIE program of its appendix A), in numpy.

x = k a = 2 pi a / lambda (lambda in the surrounding medium), m the sphere's refractive index
relative to that medium: real for a lossless dielectric (m = sqrt(eps_r) in vacuum), complex for
an absorbing or dispersive one, m = sqrt(eps(f)) with Im m >= 0 in the time convention
exp(-i omega t) (BH's; refractive_index(eps) takes that branch). With the
Riccati-Bessel functions psi_n(z) = z j_n(z), xi_n(z) = z h_n^(1)(z) = psi_n(z) - i chi_n(z)
(chi_n = -z y_n) and the logarithmic derivative D_n(z) = psi_n'(z) / psi_n(z) (BH 4.88-4.89):

    a_n = ((D_n(mx)/m + n/x) psi_n(x) - psi_(n-1)(x)) / ((D_n(mx)/m + n/x) xi_n(x) - xi_(n-1)(x))
    b_n = ((m D_n(mx) + n/x) psi_n(x) - psi_(n-1)(x)) / ((m D_n(mx) + n/x) xi_n(x) - xi_(n-1)(x))

    Q_sca = 2/x^2 sum_n (2n+1) (|a_n|^2 + |b_n|^2)            (BH 4.61)
    Q_ext = 2/x^2 sum_n (2n+1) Re(a_n + b_n)                   (BH 4.62)
    S1(theta) = sum_n (2n+1)/(n(n+1)) (a_n pi_n + b_n tau_n)   (BH 4.74)
    S2(theta) = sum_n (2n+1)/(n(n+1)) (a_n tau_n + b_n pi_n)

summed to n_max = x + 4 x^(1/3) + 2 (BH appendix A). D_n by downward recurrence
D_(n-1) = n/z - 1/(D_n + n/z) from well above n_max (stable for any z), psi_n and chi_n by upward
recurrence f_n = (2n-1)/x f_(n-1) - f_(n-2) (BH 4.89; psi_n upward is good to n_max). The
cross-section is sigma_sca = Q_sca pi a^2, the absorption one sigma_abs = (Q_ext - Q_sca) pi a^2.
A real m runs in real arithmetic (as before complex m was added); a complex m runs the same
formulas in complex arithmetic (D_n(mx) downward is stable for complex mx too, BH appendix A).

`python3 tools/validation/mie.py` runs self_test(): the small-x (Rayleigh) limit, the m -> 1
(Rayleigh-Gans-Debye) limit, Q_ext = Q_sca for real m, BHMIE's own printed example, the
large-x extinction limit, and (with scipy) the coefficients against scipy's spherical Bessel
functions; for complex m: the Rayleigh limits of Q_sca and Q_abs (also at eps = -2 + i eps'',
the Froehlich resonance), Wiscombe's published MIEV0 test cases for m = 1.5 + 1i, 10 + 10i and
1.33 + 1e-5 i, scipy's spherical Bessel functions of complex argument, Q_ext > Q_sca, the limit
Im m -> 0 against the real path, and a lossless negative eps (m = i |m|: Q_abs = 0).
"""

import numpy as np


def n_max(x):
    """Number of terms BHMIE sums: x + 4 x^(1/3) + 2."""
    return int(np.round(x + 4.0 * x ** (1.0 / 3.0) + 2.0))


def refractive_index(eps):
    """m = sqrt(eps) on the branch with Im m >= 0 (exp(-i omega t): a passive medium has
    Im eps >= 0, and so Re m >= 0, Im m >= 0); eps real, complex, or an array of either."""
    return np.sqrt(np.asarray(eps, dtype=complex))


def _check_index(x, m):
    """(x, m) as float and float (real m > 0: the lossless path) or complex (Im m > 0, or
    Re m <= 0: an absorbing sphere, or a lossless one of negative eps, m = i |m|)."""
    x = float(x)
    if np.iscomplexobj(m) and np.imag(m) != 0 or np.real(m) <= 0:
        m = complex(m)
        if not (x > 0 and m.imag >= 0 and m.real >= 0 and m != 0):
            raise ValueError(f"mie: need x > 0 and a passive index, Re m >= 0, Im m >= 0, m != 0 "
                             f"(exp(-i omega t); got x = {x}, m = {m})")
        return x, m
    m = float(np.real(m))
    if not (x > 0 and m > 0):
        raise ValueError(f"mie: need x > 0 and m > 0 (got x = {x}, m = {m})")
    return x, m


def mie_coefficients(x, m):
    """a_n, b_n for n = 1 .. n_max(x) (complex arrays) of a sphere of size parameter x > 0 and
    relative index m: real m > 0 (lossless), or complex with Im m >= 0 and Re m >= 0 (absorbing
    with the time factor exp(-i omega t), as Bohren and Huffman: m = sqrt(eps), refractive_index;
    a complex m with Im m = 0 and Re m > 0 takes the real path)."""
    x, m = _check_index(x, m)
    nstop = n_max(x)
    mx = m * x
    # Logarithmic derivative D_n(mx), n = 0 .. nmx, downward from D_nmx = 0 (BH appendix A: the
    # same recurrence for complex mx, stable downward whatever Im mx). The start's error dies
    # out over the turning region n ~ |mx| .. |mx| + O(|mx|^(1/3)); BHMIE's |mx| + 15 leaves
    # ~1e-5 in Q_sca at x = 100 (Wiscombe's m = 1.33 case), so start 4 |mx|^(1/3) higher.
    nmx = int(max(nstop, abs(mx)) + 4 * abs(mx) ** (1.0 / 3.0)) + 16
    d = np.zeros(nmx + 1, dtype=complex if isinstance(m, complex) else float)
    for n in range(nmx, 0, -1):
        d[n - 1] = n / mx - 1.0 / (d[n] + n / mx)
    n = np.arange(1, nstop + 1)
    psi = np.empty(nstop + 1)   # psi_0 .. psi_nstop
    chi = np.empty(nstop + 1)
    psi[0], chi[0] = np.sin(x), np.cos(x)
    psi_m1, chi_m1 = np.cos(x), -np.sin(x)   # psi_(-1), chi_(-1)
    prev_psi, prev_chi = psi_m1, chi_m1
    for k in range(1, nstop + 1):
        psi[k] = (2 * k - 1) / x * psi[k - 1] - prev_psi
        chi[k] = (2 * k - 1) / x * chi[k - 1] - prev_chi
        prev_psi, prev_chi = psi[k - 1], chi[k - 1]
    xi = psi - 1j * chi
    dn = d[1:nstop + 1]
    ta = dn / m + n / x
    tb = m * dn + n / x
    a = (ta * psi[1:] - psi[:-1]) / (ta * xi[1:] - xi[:-1])
    b = (tb * psi[1:] - psi[:-1]) / (tb * xi[1:] - xi[:-1])
    return a, b


def _efficiencies(x, m):
    a, b = mie_coefficients(x, m)
    n = np.arange(1, a.size + 1)
    w = 2 * n + 1
    q_sca = 2.0 / x ** 2 * np.sum(w * (np.abs(a) ** 2 + np.abs(b) ** 2))
    q_ext = 2.0 / x ** 2 * np.sum(w * (a + b).real)
    # Backscattering (BH 4.82): Q_back = 1/x^2 |sum (2n+1) (-1)^n (a_n - b_n)|^2.
    q_back = np.abs(np.sum(w * (-1.0) ** n * (a - b))) ** 2 / x ** 2
    return q_sca, q_ext, q_back


def _per_x(x, m, which):
    """One efficiency per size parameter: x scalar or array, m a scalar or an array of x's
    shape (a dispersive sphere: its index at each x's frequency)."""
    xs = np.asarray(x, dtype=float)
    if np.ndim(m) == 0:
        out = np.array([_efficiencies(v, m)[which] for v in xs.ravel()]).reshape(xs.shape)
    else:
        ms = np.broadcast_to(np.asarray(m), xs.shape)
        out = np.array([_efficiencies(v, w)[which]
                        for v, w in zip(xs.ravel(), ms.ravel())]).reshape(xs.shape)
    return out if xs.shape else float(out)


def q_sca(x, m):
    """Scattering efficiency Q_sca = sigma_sca / (pi a^2); x scalar or array, m real or complex
    (scalar, or an array of x's shape)."""
    return _per_x(x, m, 0)


def q_ext(x, m):
    """Extinction efficiency (equals Q_sca for real m; above it for Im m > 0)."""
    return _per_x(x, m, 1)


def q_abs(x, m):
    """Absorption efficiency Q_ext - Q_sca (0 for real m)."""
    return _per_x(x, m, 1) - _per_x(x, m, 0)


def q_back(x, m):
    """Backscattering efficiency (BH 4.82)."""
    return _per_x(x, m, 2)


def amplitude_functions(x, m, theta):
    """S1(theta), S2(theta) (BH 4.74; theta in radians, array): for an incident field polarised
    along x travelling along +z, E_s,perp ~ S1 (plane phi = 90 deg), E_s,par ~ S2 (phi = 0), and
    d sigma / d Omega = (|S1|^2 sin^2 phi + |S2|^2 cos^2 phi) / k^2."""
    a, b = mie_coefficients(x, m)
    mu = np.cos(np.asarray(theta, dtype=float))
    s1 = np.zeros(mu.shape, complex)
    s2 = np.zeros(mu.shape, complex)
    pi_prev = np.zeros_like(mu)   # pi_0
    pi_n = np.ones_like(mu)       # pi_1
    for k in range(1, a.size + 1):
        tau_n = k * mu * pi_n - (k + 1) * pi_prev
        f = (2 * k + 1) / (k * (k + 1))
        s1 += f * (a[k - 1] * pi_n + b[k - 1] * tau_n)
        s2 += f * (a[k - 1] * tau_n + b[k - 1] * pi_n)
        pi_prev, pi_n = pi_n, ((2 * k + 1) * mu * pi_n - (k + 1) * pi_prev) / k
    return s1, s2


def rayleigh_q_sca(x, m):
    """Small-sphere limit 8/3 x^4 |(m^2 - 1)/(m^2 + 2)|^2 (BH 5.8; m real or complex)."""
    k = (m * m - 1) / (m * m + 2)
    return 8.0 / 3.0 * np.asarray(x, float) ** 4 * (k * k if np.isrealobj(k) else np.abs(k) ** 2)


def rayleigh_q_abs(x, m):
    """Small-sphere absorption 4 x Im((m^2 - 1)/(m^2 + 2)) (BH 5.11; exp(-i omega t), Im m > 0);
    the next order is O(x^2 |m|^2) relative."""
    k = (m * m - 1) / (m * m + 2)
    return 4.0 * np.asarray(x, float) * np.imag(k)


def rgd_q_sca(x, m, samples=20001):
    """Rayleigh-Gans-Debye (|m - 1| << 1, 2 x |m - 1| << 1) scattering efficiency: the sphere as
    a volume of dipoles of polarisation (m^2 - 1) eps0 E_inc (no self-field, no phase change
    inside), dsigma/dOmega = k^4 (m^2-1)^2 V^2 / (16 pi^2) G(u)^2 sin^2(chi), u = 2 x sin(theta/2),
    G(u) = 3 (sin u - u cos u) / u^3; the azimuthal mean of sin^2(chi) is (1 + cos^2 theta)/2, so
    Q = sigma / (pi a^2) = (m^2-1)^2 x^4 / 9 int_0^pi (1 + cos^2 t) G(2 x sin(t/2))^2 sin t dt.
    Its x -> 0 limit, (m^2-1)^2 x^4 8/27, is Rayleigh's with m^2 + 2 -> 3."""
    t = np.linspace(0.0, np.pi, samples)
    u = 2.0 * x * np.sin(t / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        g = np.where(u > 1e-3, 3 * (np.sin(u) - u * np.cos(u)) / u ** 3, 1 - u * u / 10)
    f = (1 + np.cos(t) ** 2) * g * g * np.sin(t)
    integral = np.sum((f[1:] + f[:-1]) / 2) * (t[1] - t[0])
    return (m * m - 1) ** 2 * x ** 4 / 9.0 * integral


def _scipy_efficiencies(x, m):
    """Q_sca and Q_ext from the same series with scipy's spherical Bessel functions (of complex
    argument for complex m), straight from BH 4.53 (no logarithmic derivative): an independent
    check of the recurrences (fine for moderate x and |Im m x|)."""
    from scipy.special import spherical_jn, spherical_yn
    n = np.arange(1, n_max(x) + 1)
    mx = m * x

    def psi(z):
        return z * spherical_jn(n, z)

    def dpsi(z):
        return spherical_jn(n, z) + z * spherical_jn(n, z, derivative=True)

    def xi(z):
        return z * (spherical_jn(n, z) + 1j * spherical_yn(n, z))

    def dxi(z):
        h = spherical_jn(n, z) + 1j * spherical_yn(n, z)
        dh = spherical_jn(n, z, derivative=True) + 1j * spherical_yn(n, z, derivative=True)
        return h + z * dh

    a = (m * psi(mx) * dpsi(x) - psi(x) * dpsi(mx)) / (m * psi(mx) * dxi(x) - xi(x) * dpsi(mx))
    b = (psi(mx) * dpsi(x) - m * psi(x) * dpsi(mx)) / (psi(mx) * dxi(x) - m * xi(x) * dpsi(mx))
    w = 2 * n + 1
    return (2.0 / x ** 2 * np.sum(w * (np.abs(a) ** 2 + np.abs(b) ** 2)),
            2.0 / x ** 2 * np.sum(w * (a + b).real))


def _scipy_q_sca(x, m):
    return _scipy_efficiencies(x, m)[0]


def self_test(verbose=True):
    """Checks q_sca against limits and values it must meet; returns [(name, measured, bound,
    passed)] and raises AssertionError on a failure."""
    rows = []

    def check(name, measured, bound):
        rows.append((name, measured, bound, measured <= bound))
        if verbose:
            print(f"  {'PASS' if measured <= bound else 'FAIL'}  {name}: {measured:.3e} "
                  f"(bound {bound:.1e})")

    # 1. Rayleigh: Q = 8/3 x^4 K^2 (1 + 6/5 x^2 (m^2 - 2)/(m^2 + 2) + O(x^4)) (BH 5.7-5.8, van
    #    de Hulst 10.3): at x = 1e-3 the x^2 term is ~1e-6, so the ratio is 1 to ~1e-6; the
    #    next-order term itself is checked at x = 0.05 (its x^4 remainder ~1e-5 there).
    for m in (1.33, 1.5, 2.0, 3.0):
        x = 1e-3
        check(f"Rayleigh limit, m = {m:g}, x = {x:g}: |Q / (8/3 x^4 K^2) - 1|",
              abs(q_sca(x, m) / rayleigh_q_sca(x, m) - 1), 1e-5)
        x = 0.05
        second = 1 + 6.0 / 5.0 * x * x * (m * m - 2) / (m * m + 2)
        check(f"Rayleigh next order, m = {m:g}, x = {x:g}: |Q / (8/3 x^4 K^2 (1 + 6/5 x^2 "
              "(m^2-2)/(m^2+2))) - 1|", abs(q_sca(x, m) / (rayleigh_q_sca(x, m) * second) - 1),
              1e-4)
    # 2. m -> 1: Rayleigh-Gans-Debye. Its error is first order in m - 1 at fixed x (1.3 (m - 1)
    #    at small x alone: 9/(m^2+2)^2 against 1/3^2), so |Q / Q_RGD - 1| <= 2 (m - 1) at
    #    m - 1 = 1e-4, and it falls 10x from m - 1 = 1e-3 to 1e-4.
    for x in (0.5, 1.0, 3.0, 6.0):
        e = [abs(q_sca(x, 1 + d) / rgd_q_sca(x, 1 + d) - 1) for d in (1e-3, 1e-4)]
        check(f"m -> 1 (RGD), x = {x:g}, m = 1.0001: |Q / Q_RGD - 1|", e[1], 2e-4)
        check(f"m -> 1 (RGD), x = {x:g}: |error ratio (m-1 = 1e-4) / (m-1 = 1e-3) - 0.1|, first "
              "order", abs(e[1] / e[0] - 0.1), 0.02)
    # 3. Lossless sphere: extinction = scattering (optical theorem, BH 4.62 vs 4.61).
    for m in (1.5, 2.0):
        for x in (0.3, 1.0, 3.0, 10.0, 30.0):
            check(f"Q_ext = Q_sca for real m, m = {m:g}, x = {x:g}: |Q_ext / Q_sca - 1|",
                  abs(q_ext(x, m) / q_sca(x, m) - 1), 1e-10)
    # 4. BHMIE's printed example (BH appendix A: m = 1.55, radius 0.525 um, wavelength 0.6328 um,
    #    x = 5.213): QSCA = 3.1054 (ext the same), QBACK = 2.9253 (printed to 5 digits).
    x = 2 * np.pi * 0.525 / 0.6328
    check("BH appendix A example (m = 1.55, x = 5.213): |Q_sca - 3.1054|",
          abs(q_sca(x, 1.55) - 3.1054), 1e-4)
    check("BH appendix A example: |Q_back - 2.9253|", abs(q_back(x, 1.55) - 2.9253), 1e-3)
    # 5. Large spheres: Q_ext -> 2 (extinction paradox), approached as x^(-2/3) with ripple.
    check("x = 2000, m = 1.5: |Q_sca - 2|", abs(q_sca(2000.0, 1.5) - 2.0), 0.02)
    # 6. The phase functions: integrating dsigma/dOmega over the sphere gives sigma_sca.
    for x in (0.5, 3.0):
        th = np.linspace(0, np.pi, 4001)
        s1, s2 = amplitude_functions(x, 2.0, th)
        f = (np.abs(s1) ** 2 + np.abs(s2) ** 2) / 2 * np.sin(th)  # azimuthal mean
        integral = 2 * np.pi * np.sum((f[1:] + f[:-1]) / 2) * (th[1] - th[0])
        q_int = integral / x ** 2 / np.pi    # sigma k^2 / (pi x^2)
        check(f"integral of |S1|^2, |S2|^2 over the sphere = Q_sca, m = 2, x = {x:g}",
              abs(q_int / q_sca(x, 2.0) - 1), 1e-6)
    # 7. scipy's spherical Bessel functions in the textbook form (BH 4.53).
    try:
        import scipy  # noqa: F401  (the check needs it)
        for m in (1.5, 2.0):
            for x in (0.3, 1.0, 2.0, 3.0, 8.0):
                check(f"vs scipy spherical_jn/yn (BH 4.53), m = {m:g}, x = {x:g}: |ratio - 1|",
                      abs(q_sca(x, m) / _scipy_q_sca(x, m) - 1), 1e-10)
    except ImportError:
        if verbose:
            print("  (no scipy: the cross-check against scipy.special is skipped)")
    # 8. Complex m (absorbing; exp(-i omega t), Im m > 0).
    # 8a. Rayleigh: Q_sca = 8/3 x^4 |K|^2, Q_abs = 4 x Im K (BH 5.8, 5.11), K = (m^2-1)/(m^2+2);
    #     at x = 1e-3 the next order is ~x^2 |m|^2 <= 1e-4 for these m. eps = -2 + 0.2i is the
    #     Froehlich resonance of a small sphere, where K = 1 + 15i and Q_abs = 60 x.
    for eps in (2.25 + 0.1j, 4 + 3j, -5 + 2j, -2 + 0.2j, 80 + 20j):
        m = complex(refractive_index(eps))
        x = 1e-3
        check(f"complex m, Rayleigh Q_sca, eps = {eps:g}, x = {x:g}: |Q / (8/3 x^4 |K|^2) - 1|",
              abs(q_sca(x, m) / rayleigh_q_sca(x, m) - 1), 1e-3)
        check(f"complex m, Rayleigh Q_abs, eps = {eps:g}, x = {x:g}: |Q_abs / (4 x Im K) - 1|",
              abs(q_abs(x, m) / rayleigh_q_abs(x, m) - 1), 1e-3)
    # 8b. Wiscombe's MIEV0 test cases (W. J. Wiscombe, "Mie scattering calculations: advances in
    #     technique and fast, vector-speed computer codes", NCAR/TN-140+STR, 1979, rev. 1996; his
    #     m = 1.5 - 1i etc. with exp(+i omega t), here conjugated), printed to 6-7 digits.
    for m, x, name, value, fn in (
            (1.5 + 1j, 0.055, "Q_ext", 0.101491, q_ext),
            (1.5 + 1j, 0.056, "Q_ext", 0.1033467, q_ext),
            (1.5 + 1j, 1.0, "Q_ext", 2.336321, q_ext),
            (1.5 + 1j, 1.0, "Q_sca", 0.6634538, q_sca),
            (1.5 + 1j, 100.0, "Q_ext", 2.097502, q_ext),
            (1.5 + 1j, 100.0, "Q_sca", 1.283697, q_sca),
            (10 + 10j, 1.0, "Q_sca", 2.049405, q_sca),
            (10 + 10j, 100.0, "Q_sca", 1.836785, q_sca),
            (1.33 + 1e-5j, 1.0, "Q_sca", 0.093923, q_sca),
            (1.33 + 1e-5j, 100.0, "Q_sca", 2.096594, q_sca)):
        check(f"MIEV0 test case m = {m:g}, x = {x:g}: |{name} - {value}|", abs(fn(x, m) - value),
              1.5e-6)
    # 8c. Absorption is positive and extinction exceeds scattering for Im m > 0.
    worst = np.inf
    for eps in (2.25 + 0.1j, 4 + 3j, -5 + 2j, -2 + 0.2j, 80 + 20j, 1 + 1e-3j):
        for x in (0.1, 0.5, 1.0, 3.0, 10.0):
            m = complex(refractive_index(eps))
            worst = min(worst, q_abs(x, m) / q_ext(x, m))
    check("Q_ext > Q_sca for Im m > 0 (6 eps x 5 x): -min (Q_ext - Q_sca) / Q_ext", -worst, -1e-9)
    # 8d. Im m -> 0: the complex path meets the real one (first order in Im m).
    for m in (1.5, 3.0):
        for x in (0.5, 3.0):
            check(f"complex path at m = {m:g} + 1e-9i vs the real path, x = {x:g}: |ratio - 1|",
                  abs(q_sca(x, m + 1e-9j) / q_sca(x, m) - 1), 1e-7)
    # 8e. A lossless negative eps (m = i |m|, a lossless plasma below its plasma frequency):
    #     no absorption, Q_ext = Q_sca.
    for eps in (-0.5, -2.5, -20.0):
        for x in (0.3, 2.0):
            m = complex(refractive_index(eps))
            check(f"eps = {eps:g} (m = {m.imag:.3f}i), x = {x:g}: |Q_ext / Q_sca - 1|",
                  abs(q_ext(x, m) / q_sca(x, m) - 1), 1e-10)
    # 8f. scipy's spherical Bessel functions of complex argument (BH 4.53).
    import importlib.util
    if importlib.util.find_spec("scipy") is not None:
        for eps in (2.25 + 0.1j, 4 + 3j, -5 + 2j, -2 + 0.2j, 80 + 20j, -30 + 60j):
            m = complex(refractive_index(eps))
            for x in (0.3, 1.0, 3.0, 8.0):
                ref = _scipy_efficiencies(x, m)
                check(f"vs scipy, complex argument, eps = {eps:g}, x = {x:g}: |Q_sca ratio - 1|, "
                      "|Q_ext ratio - 1| (max)", max(abs(q_sca(x, m) / ref[0] - 1),
                                                      abs(q_ext(x, m) / ref[1] - 1)), 1e-9)
    failed = [r for r in rows if not r[3]]
    if failed:
        raise AssertionError(f"mie self-test: {len(failed)} of {len(rows)} checks failed: "
                             + "; ".join(r[0] for r in failed))
    return rows


if __name__ == "__main__":
    rows = self_test()
    print(f"mie self-test: all {len(rows)} checks passed")
