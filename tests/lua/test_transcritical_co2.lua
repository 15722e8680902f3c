-- test_transcritical_co2.lua: examples/transcritical_co2.lua (docs/refrigeration.md, "The
-- transcritical CO2 example"): over its 1,500 s run with the steps of the ambient air and
-- the high-pressure set point, the charge of the closed circuit (gas cooler, evaporator,
-- accumulator) is kept to 1e-9, the gas cooler runs above the critical pressure and the
-- evaporator below it at every output point, the controllers hold the high pressure and the
-- air outlet, and at 35 degC ambient 10 MPa gives a higher COP than 9 MPa; at a steady state
-- (the steps moved past the run) compressor power + heat absorbed = heat rejected to 1e-6,
-- and the state points agree with R744's Lua calls (tf.R744:T_ph, h_ps, s_ph, h_vap, Tsat,
-- range): the gas cooler's supercritical outlet, the accumulator's saturated vapour, the
-- isentropic discharge; COP below Carnot's.
local T = require "tests.testing"
local lied = require "lied"
local tf = require "lied.thermofluid"
local R = tf.R744
local CO2 = dofile("examples/transcritical_co2.lua")
local pc = R:range().pc

local cyc = dofile("examples/lib/refrig_cycle.lua")

-- the experiment as the example runs it
local run = cyc.run(lied.simulate(CO2, { vars = "evap.M,gc.M,acc.M,gc.p,evap.p,acc.level,evap_air_T.T,hpv.y,"
  .. "comp.P,evap.Q_flow" }), { "evap.M", "gc.M", "acc.M" })
T.near(run.t_end, 1500, 0, "the run reaches 1,500 s")
T.check(run.dM <= 1e-9, "the circuit's charge kept to 1e-9 over the run (worst " .. run.dM .. ")")
local mlo, mhi = run.range("acc.M")
T.check(mhi - mlo > 0.05 * mhi, "charge moves between the accumulator and the exchangers (" .. mhi - mlo .. " kg)")
local lo_gc, hi_e = run.range("gc.p"), select(2, run.range("evap.p"))
local lmin, lmax = run.range("acc.level")
T.check(lo_gc > 1.1 * pc, string.format("the gas cooler above the critical pressure %.6g Pa (lowest %.6g)", pc, lo_gc))
T.check(hi_e < 0.5 * pc, string.format("the evaporator below it (highest %.6g Pa)", hi_e))
T.check(lmin > 0.05 and lmax < 0.95, string.format("the accumulator holds liquid and vapour (level %.3f to %.3f)",
  lmin, lmax))
local function at(name, time) return run.at(time)(name) end
for _, p in ipairs { { 499.5, 90e5 }, { 1500, 100e5 } } do
  T.near(at("gc.p", p[1]), p[2], 1e-4 * p[2], "t = " .. p[1] .. " s: the valve's PI holds the high pressure")
  T.near(at("evap_air_T.T", p[1]), 274.15, 0.01, "t = " .. p[1] .. " s: the speed's PI holds the air outlet")
  T.check(at("hpv.y", p[1]) > 0.05 and at("hpv.y", p[1]) < 0.95, "t = " .. p[1] .. " s: the valve controls")
end
local cop9, cop10 = at("evap.Q_flow", 999) / at("comp.P", 999), at("evap.Q_flow", 1500) / at("comp.P", 1500)
T.check(cop10 > 1.2 * cop9, string.format("35 degC ambient: COP %.3f at 10 MPa, %.3f at 9 MPa", cop10, cop9))

-- a steady state: the steps past the end, 1,000 s at tol 1e-8
local vars = "comp.P,evap.Q_flow,gc.Q_flow,comp.T2,comp.h2s,comp.outlet.p,comp.outlet.h,acc.p,acc.outlet.h,"
  .. "acc.level,gc.p,evap.p,evap.inlet_a.h,evap_air_T.T"
for i = 1, 10 do vars = vars .. ",gc.h[" .. i .. "],gc.T[" .. i .. "]" end
local ss = lied.simulate(CO2, { set = { t_air = 1e9, t_set = 1e9 }, stop = 1000, tol = 1e-8, interval = 500,
  vars = vars }):run()
local n = ss:nrows()
local function v(name) return ss:column(name)[n] end
local P, Qe, Qgc = v("comp.P"), v("evap.Q_flow"), -v("gc.Q_flow")
T.check(P > 500 and Qe > 2e3 and Qgc > Qe, "steady state: the compressor works, the evaporator absorbs, the gas cooler rejects")
T.near(P + Qe, Qgc, 1e-6 * Qgc, "steady state: compressor power + heat absorbed = heat rejected")
local pg, p1, h1, p2, h2 = v("gc.p"), v("acc.p"), v("acc.outlet.h"), v("comp.outlet.p"), v("comp.outlet.h")
T.check(pg > pc, "steady state: the gas cooler above the critical pressure")
T.raises(function() return R:Tsat(pg) end, { "R744", "Tsat" }, "no saturation at the gas cooler's pressure")
local Tprev = v("comp.T2")
for i = 1, 10 do
  local Ti = v("gc.T[" .. i .. "]")
  T.near(Ti, R:T_ph(pg, v("gc.h[" .. i .. "]")), 1e-9 * Ti, "gas cooler cell " .. i .. ": T(p, h)")
  T.check(Ti < Tprev and Ti > 303.15, string.format("gas cooler cell %d: %.3f K, cooler than the last, above the air", i, Ti))
  Tprev = Ti
end
T.near(v("comp.T2"), R:T_ph(p2, h2), 1e-9 * v("comp.T2"), "the discharge temperature is T(p2, h2)")
T.near(v("comp.h2s"), R:h_ps(p2, R:s_ph(p1, h1)), 1e-6 * h2, "the isentropic discharge h(p2, s(p1, h1))")
T.near(h2 - h1, (v("comp.h2s") - h1) / 0.7, 1e-9 * h2, "the discharge enthalpy from eta_s = 0.7")
T.near(h1, R:h_vap(p1), 1e-9 * h1, "the accumulator passes saturated vapour")
T.eq(v("evap.inlet_a.h"), v("gc.h[10]"), "the high-pressure valve is isenthalpic")
T.check(R:Tsat(v("evap.p")) < v("evap_air_T.T") - 2, "evaporating below the air outlet")
T.near(p1, v("evap.p") - 2e5 * ss:column("comp.P")[n] / (h2 - h1), 1e-6 * p1,
  "the accumulator below the evaporator by the suction line's drop k1 m")
-- Carnot: heat taken from air at <= 278.15 K, given to air at >= 303.15 K
T.check(Qe / P < 278.15 / (303.15 - 278.15), "COP below Carnot's between the two air streams")
io.write(string.format("steady state: p_e = %.6g Pa, p_gc = %.6g Pa, T_gc,out = %.3f K, COP %.6g, energy balance %.1e\n",
  v("evap.p"), pg, v("gc.T[10]"), Qe / P, (P + Qe - Qgc) / Qgc))
T.done()
