#!/usr/bin/python3
"""if97_gen.py - the reference sample for tests/validation/test_if97_sample.lua:
states of water and steam computed by an independent IAPWS-IF97 implementation,
Debian's python3-iapws (J. J. Gomez Romera's iapws package; apt-get install
python3-iapws). Run from the repository root:

    /usr/bin/python3 tests/validation/data/if97_gen.py > tests/validation/data/if97_sample.csv

Columns (SI units): kind, p [Pa], T [K], h [J/kg], s [J/(kg K)], rho [kg/m3],
cp [J/(kg K)], x. kind 1, 2, 5: single-phase states of that region at (p, T);
kind 4: two-phase mixtures of quality x at p (T = Tsat(p)); kind 3: region 3
at (rho, T), x 0 for a liquid-like state; kind 6: two-phase mixtures above
623.15 K (saturated states of region 3). The points avoid
the region boundaries by a relative margin of 1e-6."""
import math
from iapws import iapws97 as I

M = 1e-6  # relative margin from the region boundaries


def grid(lo, hi, n, log=False):
    if log:
        a, b = math.log(lo), math.log(hi)
        return [math.exp(a + (b - a) * k / (n - 1)) for k in range(n)]
    return [lo + (hi - lo) * k / (n - 1) for k in range(n)]


def row(kind, p, T, d):
    v = d["v"]
    print(f"{kind},{p!r},{T!r},{d['h'] * 1e3!r},{d['s'] * 1e3!r},{1 / v!r},"
          f"{d['cp'] * 1e3!r},{d.get('x', 0)!r}")


print("kind,p,T,h,s,rho,cp,x")
# region 1: psat(T) <= p <= 100 MPa, 273.15 K <= T <= 623.15 K
for T in grid(273.15 * (1 + M), 623.15 * (1 - M), 24):
    ps = I._PSat_T(T)
    for pm in grid(ps * (1 + M), 100 * (1 - M), 20, log=True):
        row(1, pm * 1e6, T, I._Region1(T, pm))
# region 2: p <= psat(T) (T <= 623.15 K), p <= B23 (to 863.15 K), p <= 100 MPa
for T in grid(273.15 * (1 + M), 1073.15 * (1 - M), 30):
    if T <= 623.15:
        pmax = I._PSat_T(T)
    elif T <= 863.15:
        pmax = I._P23_T(T)
    else:
        pmax = 100
    for pm in grid(1e-5, pmax * (1 - M), 18, log=True):
        row(2, pm * 1e6, T, I._Region2(T, pm))
# region 5: 1073.15 K < T <= 2273.15 K, p <= 50 MPa; from 1074.15 K: regions 2
# and 5 differ by some mK at 1073.15 K, so that just above it a (p, h) of
# region 5 is also one of region 2 below it (which (p, h) reads it as)
for T in grid(1074.15, 2273.15 * (1 - M), 12):
    for pm in grid(1e-3, 50 * (1 - M), 10, log=True):
        row(5, pm * 1e6, T, I._Region5(T, pm))
# two-phase: 611.213 Pa < p <= psat(623.15 K), mixtures of quality x
for pm in grid(0.000612, 16.529, 30, log=True):
    Ts = I._TSat_P(pm)
    L, V = I._Region1(Ts, pm), I._Region2(Ts, pm)
    for x in (0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999):
        d = {k: L[k] + x * (V[k] - L[k]) for k in ("h", "s", "v")}
        d["cp"], d["x"] = 0.0, x
        row(4, pm * 1e6, Ts, d)
# region 3: 623.15 K < T <= 863.15 K, p_B23(T) <= p <= 100 MPa, from the
# basic equation at (rho, T); below the critical temperature not within 3 %
# of the saturated densities (inside the dome the equation is metastable)
TC = 647.096


def sat3(T):
    """Saturated liquid and vapour densities of region 3 at T: the roots of
    p(rho, T) = psat(T) by bisection, bracketed around the package's own
    (backward-equation) saturated densities."""
    from iapws import IAPWS97
    ps = I._PSat_T(T)
    out = []
    for x in (0, 1):
        r = IAPWS97(T=T, x=x).rho
        a, b = r * 0.97, r * 1.03
        fa = I._Region3(a, T)["P"] - ps
        for _ in range(200):
            c = 0.5 * (a + b)
            fc = I._Region3(c, T)["P"] - ps
            if (fc > 0) == (fa > 0):
                a, fa = c, fc
            else:
                b = c
        out.append(0.5 * (a + b))
    return out


def row3(kind, p, T, d, x):
    v = d["v"]
    print(f"{kind},{p!r},{T!r},{d['h'] * 1e3!r},{d['s'] * 1e3!r},{1 / v!r},"
          f"{d['cp'] * 1e3!r},{x!r}")


for T in grid(623.15 * (1 + 1e-4), 863.15 * (1 - 1e-4), 24):
    lo = None if T >= TC - 0.5 else sat3(T)
    for rho in grid(90, 780, 30):
        if lo and lo[1] * 0.97 < rho < lo[0] * 1.03:
            continue
        d = I._Region3(rho, T)
        pm = d["P"]
        if pm > 100 * (1 - 1e-6) or pm < I._P23_T(T) * (1 + 1e-4):
            continue
        x = 0 if (T < TC and pm > I._PSat_T(T)) or (T >= TC and rho > 322) else 1
        row3(3, pm * 1e6, T, d, x)
# two-phase above 623.15 K: psat(623.15 K) < p < 22 MPa, saturated states of
# region 3 (the roots above) mixed by quality x
for pm in grid(16.6, 22.0, 12):
    Ts = I._TSat_P(pm)
    rl, rv = sat3(Ts)
    L, V = I._Region3(rl, Ts), I._Region3(rv, Ts)
    for x in (0.001, 0.25, 0.5, 0.75, 0.999):
        d = {k: L[k] + x * (V[k] - L[k]) for k in ("h", "s", "v")}
        d["cp"] = 0.0
        row3(6, pm * 1e6, Ts, d, x)
