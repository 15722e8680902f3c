#!/usr/bin/python3
"""kinks_gen.py - the references of tests/validation/test_kinks.lua: models whose
laws kink (an output limit, a contact, an upwind flow) integrated by SciPy's
solve_ivp (DOP853, rtol 1e-13) with the kinks located as events and each
branch of the law frozen between them, so that no step of the reference
straddles a kink and the state at a kink is that of a smooth integration
(Debian's python3-scipy). Run from the repository root:

    /usr/bin/python3 tests/validation/data/kinks_gen.py > tests/validation/data/kinks_ref.csv

Rows: case, t, then the case's states (SI units):
  pi      x (PI integral part), p (plant)
  pid     x, z (PID integral part, derivative filter), p
  gap     s, v (height and velocity of a body dropped onto an ElastoGap)
  volume  M, U, m (mass, internal energy, outlet flow of a gas Volume fed
          by a sine flow: the inlet's upwind enthalpy switches with its sign)
  boil    h (a heated cell of water boiling at 1 MPa: T(p, h) kinks at the
          saturated liquid and vapour, IAPWS-IF97 from Debian's python3-iapws)
"""
import math
import sys
import numpy as np
from scipy.integrate import solve_ivp

RTOL, ATOL = 1e-13, 1e-15


def piecewise(rhs_of, mode_of, events_of, t0, t1, y0, times, bounds=(), fn_name=""):
    """Integrate from t0 to t1 with the law of the current mode frozen,
    switching at the events of events_of(mode) (terminal, each returning the
    next mode) and at the given bounds (where an input jumps); the states at
    `times`."""
    out = {}
    cuts = sorted([b for b in bounds if t0 < b < t1]) + [t1]
    t, y = t0, np.array(y0, dtype=float)
    for cut in cuts:
        mode = mode_of(t, y)
        switched = False
        while t < cut:
            if switched:  # leave the switching point (where an event function is 0) first
                tn = min(cut, t + 1e-10)
                y = solve_ivp(rhs_of(mode), (t, tn), y, method="DOP853", rtol=RTOL,
                              atol=ATOL).y[:, -1].copy()
                t, switched = tn, False
                continue
            evs, nexts = [], []
            for fn, direction, nxt in events_of(mode):
                f = (lambda g: (lambda tt, yy: g(tt, yy)))(fn)
                f.terminal = True
                f.direction = direction
                evs.append(f)
                nexts.append(nxt)
            sol = solve_ivp(rhs_of(mode), (t, cut), y, method="DOP853", rtol=RTOL, atol=ATOL,
                            events=evs or None, dense_output=True)
            tend = sol.t[-1]
            for tt in times:
                if t <= tt <= tend and tt not in out:
                    out[tt] = sol.sol(tt)
            y = sol.y[:, -1].copy()
            if sol.status == 1:
                k = next(i for i, e in enumerate(sol.t_events) if e.size)
                mode, switched = nexts[k], True
                print("# %s: mode %s at t = %.15g" % (fn_name, mode, sol.t[-1]), file=sys.stderr)
            t = tend
    return [out[tt] for tt in times]


def emit(case, times, states):
    for tt, s in zip(times, states):
        print(case + "," + repr(float(tt)) + "," + ",".join(repr(float(v)) for v in s))


def controller(case):
    """PI or PID (k 5, Ti 0.5, Td 0.1, Nd 10, limits [-0.5, 1.5], Tt Ti or
    sqrt(Ti Td)) on a first-order plant (T 1), setpoint 0 then 1 from t = 0.5."""
    k, Ti, Td, Nd, yMax, yMin, T = 5.0, 0.5, 0.1, 10.0, 1.5, -0.5, 1.0
    pid = case == "pid"
    Tt = math.sqrt(Ti * Td) if pid else Ti
    times = [round(0.1 * i, 10) for i in range(101)]
    y = [0.0, 0.0, 0.0] if pid else [0.0, 0.0]
    states = []
    for (t0, t1, rv) in ((0.0, 0.5, 0.0), (0.5, 10.0, 1.0)):

        def v_of(t, y):
            e = rv - y[-1]
            return k * e + y[0] + (k * Nd * (e - y[1]) if pid else 0.0)

        def rhs_of(mode):
            def f(t, y):
                e = rv - y[-1]
                v = v_of(t, y)
                u = yMax if mode == 1 else yMin if mode == -1 else v
                d = [k / Ti * e + (u - v) / Tt]
                if pid:
                    d.append(Nd / Td * (e - y[1]))
                d.append((u - y[-1]) / T)
                return d
            return f

        def mode_of(t, y):
            v = v_of(t, y)
            return 1 if v > yMax else -1 if v < yMin else 0

        def events_of(mode):
            hi = lambda t, y: v_of(t, y) - yMax
            lo = lambda t, y: v_of(t, y) - yMin
            if mode == 0:
                return [(hi, 1, 1), (lo, -1, -1)]
            if mode == 1:
                return [(hi, -1, 0)]
            return [(lo, 1, 0)]

        seg = [tt for tt in times if t0 <= tt <= t1 and (tt < t1 or t1 == 10.0)]
        states += piecewise(rhs_of, mode_of, events_of, t0, t1, y, seg + [t1], (), case)[:len(seg)]
        y = piecewise(rhs_of, mode_of, events_of, t0, t1, y, [t1], (), case)[0]
    emit(case, times, states)


def gap():
    """A 1 kg body on a vertical slider dropped from 0.05 m onto an ElastoGap
    floor at s = 0 (c 1e4 N/m, d 20 N.s/m, rigid form): in contact when
    s < 0 and f = -c s - d v > 0; m v' = -m g + f. One impact and the flight
    after it (to 0.26 s: the next impact is at 0.27 s)."""
    m, g, c, d = 1.0, 9.81, 1e4, 20.0

    def rhs_of(mode):
        def f(t, y):
            force = -c * y[0] - d * y[1] if mode else 0.0
            return [y[1], -g + force / m]
        return f

    def mode_of(t, y):
        return 1 if y[0] < 0 and -c * y[0] - d * y[1] > 0 else 0

    def events_of(mode):
        if mode:
            return [(lambda t, y: -c * y[0] - d * y[1], -1, 0)]
        return [(lambda t, y: y[0], -1, 1)]

    times = [round(0.002 * i, 10) for i in range(131)]
    emit("gap", times, piecewise(rhs_of, mode_of, events_of, 0.0, 0.26, [0.05, 0.0], times))


def volume():
    """An ideal gas Volume (R 287.05, cp 1005.45; V 1e-3 m3, p0 1e5 Pa,
    T0 350 K) fed by a flow 1e-3 sin(2 t) kg/s at 300 K and emptying into a
    sink at 1e5 Pa through the inertance L = 1e6 1/m of its outlet and a
    linear resistance k1 = 1e7 Pa s/kg: M' = m_in - m, U' = m_in h_up - m h,
    L m' = p - 1e5 - k1 m, with h_up the source's enthalpy while m_in >= 0
    and the content's while it flows back."""
    R, cp, V, L, ps, k1 = 287.05, 1005.45, 1e-3, 1e6, 1e5, 1e7
    A, w, Tin = 1e-3, 2.0, 300.0

    def rhs_of(mode):
        def f(t, y):
            M, U, mo = y
            T = U / M / (cp - R)
            h, p = cp * T, M / V * R * T
            mi = A * math.sin(w * t)
            hup = cp * Tin if mode else h
            return [mi - mo, mi * hup - mo * h, (p - ps - k1 * mo) / L]
        return f

    def mode_of(t, y):
        return 1 if math.sin(w * t + 1e-12) >= 0 else 0

    T0 = 350.0
    M0 = 1e5 / (R * T0) * V
    U0 = M0 * (cp - R) * T0
    times = [round(0.1 * i, 10) for i in range(101)]
    bounds = [k * math.pi / w for k in range(1, 7)]
    emit("volume", times, piecewise(rhs_of, mode_of, lambda mode: [], 0.0, 10.0, [M0, U0, 0.0],
                                    times, bounds))


def boil():
    """A ConductionElement of water at 1 MPa (no flow; fixed mass
    M = V / v(1 MPa, 430 K), V = 1e-3 m3) heated through G = 50 W/K from a
    wall at 500 K: M h' = G (500 - T(p, h)), T from IAPWS-IF97 (Debian's
    python3-iapws: region 1 below the saturated liquid's enthalpy, the
    saturation temperature between, region 2 above), each branch's law
    frozen between the phase boundaries. The enthalpy in J/kg."""
    from iapws import iapws97 as I
    from scipy.optimize import brentq
    P, G, Tw, V = 1.0, 50.0, 500.0, 1e-3  # MPa for iapws
    M = V / I._Region1(430.0, P)["v"]
    Ts = I._TSat_P(P)
    hl, hv = I._Region1(Ts, P)["h"] * 1e3, I._Region2(Ts, P)["h"] * 1e3

    def T_of(mode, h):
        if mode == 0:
            return brentq(lambda T: I._Region1(T, P)["h"] * 1e3 - h, 273.15, 600.0, xtol=1e-14,
                          rtol=1e-15)
        if mode == 1:
            return Ts
        return brentq(lambda T: I._Region2(T, P)["h"] * 1e3 - h, Ts - 50, 800.0, xtol=1e-14,
                      rtol=1e-15)

    def rhs_of(mode):
        return lambda t, y: [G * (Tw - T_of(mode, y[0])) / M]

    def mode_of(t, y):
        return 0 if y[0] < hl else 1 if y[0] < hv else 2

    def events_of(mode):
        if mode == 0:
            return [(lambda t, y: y[0] - hl, 1, 1)]
        if mode == 1:
            return [(lambda t, y: y[0] - hv, 1, 2)]
        return []

    times = [10.0 * i for i in range(101)]
    h0 = I._Region1(430.0, P)["h"] * 1e3
    emit("boil", times, piecewise(rhs_of, mode_of, events_of, 0.0, 1000.0, [h0], times, (), "boil"))


if __name__ == "__main__":
    print("# " + " ".join(sys.argv) + ": see the docstring")
    controller("pi")
    controller("pid")
    gap()
    volume()
    boil()
