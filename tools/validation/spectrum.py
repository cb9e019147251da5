"""Spectral estimators of the cavity cases (documented in docs/VALIDATION.md).

A lossless cavity rung by a pulse that has ended rings as an exact sum of undamped sinusoids (each
discrete eigenmode of the Yee scheme advances by a constant phase per step). A plain FFT of a
record of T seconds resolves frequencies only to 1/T, about 0.7% of the lowest mode here, far
coarser than the 0.05% asked for. So:

1. window the record with a 4-term Blackman-Harris window (side lobes below -92 dB, so a
   neighbouring mode 5 or more bins away leaks less than 3e-5 of its amplitude into a peak);
2. take the zero-padded FFT (numpy.fft.rfft, 16x padding) to locate the peaks to 1/16 bin;
3. refine each peak by maximising the magnitude of the windowed discrete-time Fourier transform
   X(f) = sum_n w_n x_n exp(-2 pi i f n dt), evaluated directly at any f, with a golden-section
   search over +-1 bin of the padded FFT. For an undamped sinusoid the maximum of |X| is its
   frequency up to the leakage of the other components (case 1 finds the five resonances within
   about 1e-7 of the Yee dispersion relation, i.e. ~1e-5 of a bin, leakage and float32 included).

Decay rates (lossy cavity): complex demodulation. For each mode frequency f_k the windowed DTFT
over a sliding window starting at t_c is X_k(t_c) = sum w(t - t_c) x(t) exp(-2 pi i f_k t). For a
mode decaying as exp(-alpha t), |X_k(t_c)| = C exp(-alpha t_c) exactly (C depends on the window
only), so a least-squares line through ln|X_k(t_c)| has slope -alpha; the other modes (which decay
at the same rate in a uniformly lossy fill) only add a small ripple.
"""

import numpy as np

GOLDEN = (np.sqrt(5.0) - 1) / 2


def blackman_harris(n):
    k = np.arange(n)
    a = (0.35875, 0.48829, 0.14128, 0.01168)
    x = 2 * np.pi * k / (n - 1)
    return a[0] - a[1] * np.cos(x) + a[2] * np.cos(2 * x) - a[3] * np.cos(3 * x)


def windowed(x):
    x = np.asarray(x, dtype=float)
    return (x - x.mean()) * blackman_harris(len(x))


def padded_spectrum(xw, dt, pad=16):
    """Frequencies (Hz) and |X| of the zero-padded FFT of an already windowed record."""
    nfft = int(2 ** np.ceil(np.log2(len(xw) * pad)))
    mag = np.abs(np.fft.rfft(xw, n=nfft))
    freqs = np.fft.rfftfreq(nfft, dt)
    return freqs, mag


def dtft_mag(xw, dt, f):
    n = np.arange(len(xw))
    return np.abs(np.dot(xw, np.exp(-2j * np.pi * f * dt * n)))


def refine_peak(xw, dt, f0, half_width):
    """Golden-section search for the maximum of |X(f)| in [f0 - half_width, f0 + half_width]."""
    lo, hi = f0 - half_width, f0 + half_width
    a = hi - GOLDEN * (hi - lo)
    b = lo + GOLDEN * (hi - lo)
    fa, fb = dtft_mag(xw, dt, a), dtft_mag(xw, dt, b)
    for _ in range(60):
        if fa > fb:
            hi, b, fb = b, a, fa
            a = hi - GOLDEN * (hi - lo)
            fa = dtft_mag(xw, dt, a)
        else:
            lo, a, fa = a, b, fb
            b = lo + GOLDEN * (hi - lo)
            fb = dtft_mag(xw, dt, b)
        if hi - lo < 1e-12 * f0:
            break
    return 0.5 * (lo + hi)


def find_peaks(freqs, mag, fmin, fmax, rel_sep, floor):
    """Indices of local maxima in [fmin, fmax] that are the largest value within +-rel_sep * f
    (which rejects window side lobes and splits nothing closer) and above floor * max."""
    band = (freqs >= fmin) & (freqs <= fmax)
    top = mag[band].max()
    peaks = []
    idx = np.nonzero(band)[0]
    for i in idx[1:-1]:
        if mag[i] < mag[i - 1] or mag[i] < mag[i + 1] or mag[i] < floor * top:
            continue
        near = (freqs >= freqs[i] * (1 - rel_sep)) & (freqs <= freqs[i] * (1 + rel_sep))
        if mag[i] >= mag[near].max():
            peaks.append(i)
    return peaks


def mode_frequencies(signals, dt, count, fmin, fmax, rel_sep=0.03, floor=1e-3):
    """The `count` lowest resonances seen by any of `signals` (equal-length records).
    Returns (frequencies, combined normalised spectrum (freqs, mag), per-peak signal index)."""
    xws = [windowed(s) for s in signals]
    spectra = [padded_spectrum(xw, dt) for xw in xws]
    freqs = spectra[0][0]
    norm = [m / m[(freqs >= fmin) & (freqs <= fmax)].max() for _, m in spectra]
    combined = np.sqrt(np.sum(np.square(norm), axis=0))
    peaks = find_peaks(freqs, combined, fmin, fmax, rel_sep, floor)[:count]
    bin_hz = freqs[1] - freqs[0]
    found, which = [], []
    for i in peaks:
        k = int(np.argmax([nm[i] for nm in norm]))
        found.append(refine_peak(xws[k], dt, freqs[i], bin_hz))
        which.append(k)
    return np.array(found), (freqs, combined), which


def decay_rate(x, dt, f, window):
    """Decay rate alpha (1/s) of the component at frequency f: slope of ln|X_f(t_c)| over
    sliding windows of `window` samples (hop window / 8)."""
    x = np.asarray(x, dtype=float)
    w = blackman_harris(window)
    hop = max(1, window // 8)
    starts = np.arange(0, len(x) - window + 1, hop)
    n = np.arange(window)
    logs = []
    for s in starts:
        ph = np.exp(-2j * np.pi * f * dt * (s + n))
        logs.append(np.log(np.abs(np.dot(w * x[s:s + window], ph))))
    t = starts * dt
    slope, _ = np.polyfit(t, np.array(logs), 1)
    return -slope, t, np.array(logs)
