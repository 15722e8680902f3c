#!/usr/bin/python3
"""ice_gen.py - reference values of ice for tests/unit/test_moist_ice.c, from
an independent implementation of the IAPWS releases, Debian's python3-iapws
(J. J. Gomez Romera's iapws package; apt-get install python3-iapws):

  - IAPWS R14-08 (2011), the sublimation pressure of ice Ih, at T;
  - IAPWS R10-06 (2009), the equation of state of ice Ih: h and cp at
    (T, 611.657 Pa), h relative to liquid water at the triple point
    (IAPWS-95's convention: u = s = 0 for the liquid there, h = 0.612 J/kg);
  - the least-squares slope of cp(T) with cp fixed at its triple-point value,
    over 200 K .. 273.16 K: the ice law of src/lib/thermofluid/moist_air.h.

Run from the repository root; paste the printed table into the test:

    /usr/bin/python3 tests/validation/data/ice_gen.py
"""
from iapws import _Ice, IAPWS95
from iapws._iapws import _Sublimation_Pressure

TT, PT = 273.16, 611.657e-6  # K, MPa
h_liq = IAPWS95(T=TT, x=0).h * 1e3  # J/kg
cp0 = _Ice(TT, PT)["cp"] * 1e3
Ts = [200 + (TT - 200) * k / 400 for k in range(401)]
num = sum((_Ice(T, PT)["cp"] * 1e3 - cp0) * (T - TT) for T in Ts)
den = sum((T - TT) ** 2 for T in Ts)
print(f"/* liquid h at the triple point {h_liq!r} J/kg; melting enthalpy "
      f"{h_liq - _Ice(TT, PT)['h'] * 1e3!r} J/kg; cp {cp0!r}, slope {num / den!r} */")
print("/* T [K], p_subl [Pa], h_ice - h_liq(triple point) [J/kg], cp_ice [J/(kg K)] */")
for T in [200.0, 210.0, 230.0, 250.0, 253.15, 263.15, 270.0, 273.15, 273.16]:
    d = _Ice(T, PT)
    print(f"    {{{T!r}, {_Sublimation_Pressure(T) * 1e6!r}, {d['h'] * 1e3 - h_liq!r}, "
          f"{d['cp'] * 1e3!r}}},")
