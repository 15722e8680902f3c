-- test_heat_pump.lua: examples/heat_pump.lua (docs/refrigeration.md, "The heat pump
-- example"): over its 1,500 s run with the steps of the outdoor air and the supply set
-- point, the charge of the closed circuit (evaporator, condenser, receiver) is kept to 1e-9,
-- the controllers hold the superheat and the supply temperature, and the condensing
-- temperature lies above the water, the evaporating one below the outdoor air; at a steady
-- state (the steps moved past the run) compressor power + heat absorbed = heat rejected to
-- 1e-6, and the state points agree with R290's Lua calls (tf.R290:T_ph, h_ps, s_ph, h_liq,
-- Tsat): the discharge temperature, the isentropic discharge enthalpy, the receiver's
-- saturated liquid, the valve's isenthalpic drop, the superheat; COP below Carnot's.
local T = require "tests.testing"
local lied = require "lied"
local tf = require "lied.thermofluid"
local R = tf.R290
local HP = dofile("examples/heat_pump.lua")

local cyc = dofile("examples/lib/refrig_cycle.lua")

-- the experiment as the example runs it
local run = cyc.run(lied.simulate(HP, { vars = "evap.M,cond.M,rcv.M,sh.superheat,supply_T.T,valve.y,rcv.level,"
  .. "evap.p,cond.p,comp.P,cond.Q_flow" }), { "evap.M", "cond.M", "rcv.M" })
T.near(run.t_end, 1500, 0, "the run reaches 1,500 s")
T.check(run.dM <= 1e-9, "the circuit's charge kept to 1e-9 over the run (worst " .. run.dM .. ")")
local lo, hi = run.range("rcv.M")
T.check(hi - lo > 0.05 * hi, "charge moves between the receiver and the exchangers (" .. hi - lo .. " kg)")
local function at(name, time) return run.at(time)(name) end
-- before each step and at the end: 5 K superheat, the supply at its set point; the
-- condensing temperature above the supply water, the evaporating one below the outdoor air
local cop = {}
for i, p in ipairs { { 499.5, 308.15, 280.15 }, { 999, 308.15, 275.15 }, { 1500, 318.15, 275.15 } } do
  local time, Ts, Ta = p[1], p[2], p[3]
  T.near(at("sh.superheat", time), 5, 0.01, "t = " .. time .. " s: the valve's PI holds 5 K superheat")
  T.near(at("supply_T.T", time), Ts, 0.01, "t = " .. time .. " s: the speed's PI holds the supply temperature")
  T.check(at("valve.y", time) > 0.05 and at("valve.y", time) < 0.95, "t = " .. time .. " s: the valve controls")
  T.check(at("rcv.level", time) > 0.05 and at("rcv.level", time) < 0.95, "t = " .. time .. " s: the receiver's level")
  local Tc, Te = R:Tsat(at("cond.p", time)), R:Tsat(at("evap.p", time))
  T.check(Tc > Ts + 0.5, string.format("t = %g s: condensing at %.2f K above the supply water %.2f K", time, Tc, Ts))
  T.check(Te < Ta - 2, string.format("t = %g s: evaporating at %.2f K below the outdoor air %.2f K", time, Te, Ta))
  cop[i] = -at("cond.Q_flow", time) / at("comp.P", time)
end
T.check(cop[1] > cop[2] and cop[2] > cop[3],
  string.format("COP falls with colder air and hotter water: %.3f, %.3f, %.3f", cop[1], cop[2], cop[3]))

-- a steady state: the steps past the end, 3,000 s at tol 1e-8 (at 2,000 s the superheat's PI
-- was 2.2e-6 K from its set point since the exchangers' cells crossing the dome are kinks)
local vars = "comp.P,evap.Q_flow,cond.Q_flow,comp.T2,comp.h2s,comp.outlet.p,comp.outlet.h,evap.p,evap.h[10],"
  .. "cond.p,cond.h[10],rcv.p,rcv.outlet.h,rcv.level,evap.inlet_a.h,sh.superheat,sc.subcooling,supply_T.T"
local ss = lied.simulate(HP, { set = { t_air = 1e9, t_set = 1e9 }, stop = 3000, tol = 1e-8, interval = 1000,
  vars = vars }):run()
local n = ss:nrows()
local function v(name) return ss:column(name)[n] end
local P, Qe, Qh = v("comp.P"), v("evap.Q_flow"), -v("cond.Q_flow")
T.check(P > 500 and Qe > 2e3 and Qh > Qe, "steady state: the compressor works, the evaporator absorbs, the condenser heats")
T.near(P + Qe, Qh, 1e-6 * Qh, "steady state: compressor power + heat absorbed = heat rejected")
local p1, h1, p2, h2 = v("evap.p"), v("evap.h[10]"), v("comp.outlet.p"), v("comp.outlet.h")
T.near(v("comp.T2"), R:T_ph(p2, h2), 1e-9 * v("comp.T2"), "the discharge temperature is T(p2, h2)")
T.near(v("comp.h2s"), R:h_ps(p2, R:s_ph(p1, h1)), 1e-6 * h2, "the isentropic discharge h(p2, s(p1, h1))")
T.near(h2 - h1, (v("comp.h2s") - h1) / 0.7, 1e-9 * h2, "the discharge enthalpy from eta_s = 0.7")
T.check(v("rcv.level") > 0.05, "the receiver holds liquid")
T.near(v("rcv.outlet.h"), R:h_liq(v("rcv.p")), 1e-9 * h2, "the receiver passes saturated liquid")
T.eq(v("evap.inlet_a.h"), v("rcv.outlet.h"), "the valve is isenthalpic")
T.near(v("sh.superheat"), R:T_ph(p1, h1) - R:Tsat(p1), 1e-9, "the superheat is T(p1, h1) - Tsat(p1)")
T.near(v("sh.superheat"), 5, 1e-6, "the superheat held at its set point")
T.near(v("sc.subcooling"), R:Tsat(v("cond.p")) - R:T_ph(v("cond.p"), v("cond.h[10]")), 1e-9,
  "the subcooling is Tsat(pc) - T(pc, h_out)")
T.check(R:Tsat(v("cond.p")) > v("supply_T.T") and R:T_ph(p2, h2) > R:Tsat(v("cond.p")),
  "the discharge is superheated above the condensing temperature, which is above the supply")
-- Carnot: heat taken from air at <= 280.15 K, given to water at >= 303.15 K
T.check(Qh / P < 303.15 / (303.15 - 280.15), "COP below Carnot's between the outdoor air and the return water")
io.write(string.format("steady state: p_e = %.6g Pa, p_c = %.6g Pa, COP %.6g, energy balance %.1e\n", p1,
  v("cond.p"), Qh / P, (P + Qe - Qh) / Qh))

-- the plot's y range
local plot = require "lied.plot"
local tmp = os.tmpname()
os.remove(tmp)
local script = plot.draw({ { x = { 200, 400 }, y = { 3, 12 } } }, { logy = true, yrange = { 1, 150 }, dry = true,
                                                                   file = tmp .. ".png" })
T.check(type(script) == "string" and script:find("set yrange [1:150]", 1, true), "plot.draw: yrange sets the y axis' range")
script = plot.draw({ { x = { 200, 400 }, y = { 3, 12 } } }, { dry = true, file = tmp .. ".png" })
T.check(type(script) == "string" and script:find("set autoscale y", 1, true), "plot.draw: autoscaled y by default")
T.done()
