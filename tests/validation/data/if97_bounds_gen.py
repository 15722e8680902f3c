#!/usr/bin/python3
"""if97_bounds_gen.py - the reference states ON the phase and region boundaries
for tests/validation/test_if97_bounds.lua, computed by Debian's python3-iapws
(an independent IAPWS-IF97; apt-get install python3-iapws). Run from the
repository root:

    /usr/bin/python3 tests/validation/data/if97_bounds_gen.py > tests/validation/data/if97_bounds.csv

Columns as if97_sample.csv (if97_gen.py, which keeps 1e-6 away from every
boundary): kind, p [Pa], T [K], h [J/kg], s [J/(kg K)], rho [kg/m3], cp
[J/(kg K)], x. kind 4: saturated liquid (x = 0) and vapour (x = 1) at p, T =
Tsat(p), region 1's and region 2's equations at 611.213 Pa .. psat(623.15 K);
kind 1: region 1 at exactly 623.15 K (16.53 .. 100 MPa) and at 273.15 K;
kind 2: region 2 exactly on the B23 line (623.15 .. 863.15 K), at exactly
1073.15 K and at 273.15 K; kind 5: region 5 at exactly 1073.15 K."""
import math
from iapws import iapws97 as I


def grid(lo, hi, n, log=False):
    if log:
        a, b = math.log(lo), math.log(hi)
        return [min(hi, math.exp(a + (b - a) * k / (n - 1))) for k in range(n)]
    return [lo + (hi - lo) * k / (n - 1) for k in range(n)]


def row(kind, pm, T, d, x):
    print(f"{kind},{pm * 1e6!r},{T!r},{d['h'] * 1e3!r},{d['s'] * 1e3!r},{1 / d['v']!r},"
          f"{d['cp'] * 1e3!r},{x!r}")


print("kind,p,T,h,s,rho,cp,x")
ps13 = I._PSat_T(623.15)
for pm in grid(0.000611213, ps13, 60, log=True) + [3.0, 1.0, 0.1, 10.0]:
    Ts = I._TSat_P(pm)
    row(4, pm, Ts, I._Region1(Ts, pm), 0)
    row(4, pm, Ts, I._Region2(Ts, pm), 1)
for pm in grid(ps13, 100, 25, log=True):
    row(1, pm, 623.15, I._Region1(623.15, pm), 0)
for pm in grid(0.000611213 * 1.0001, 100, 20, log=True):
    row(1, pm, 273.15, I._Region1(273.15, pm), 0)
for pm in grid(1e-5, 0.000611212, 8, log=True):
    row(2, pm, 273.15, I._Region2(273.15, pm), 1)
for T in grid(623.15, 863.15, 25):
    pm = I._P23_T(T)
    if pm <= 100:
        row(2, pm, T, I._Region2(T, pm), 1)
for pm in grid(1e-3, 50, 20, log=True):
    row(2, pm, 1073.15, I._Region2(1073.15, pm), 1)
    row(5, pm, 1073.15, I._Region5(1073.15, pm), 1)
