-- Two-phase water and steam (medium = tf.steam, IAPWS-IF97) in the
-- components that hold a medium: a Heater that boils its stream, a
-- counter-flow heat exchanger evaporating water on one side, and the
-- refusals of start states outside the range of validity (docs/media.md).
local lied = require "lied"
local tf = require "lied.thermofluid"
local air_cp = tf.gas {} -- air of constant cp (the tests' laws assume it)
local T = require "tests.testing"
local steam = tf.steam

-- a Heater boils 0.1 kg/s of water at 1 bar: h_out = h_in + Q/m, a mixture
-- of quality 0.4 at Tsat(1 bar)
local h_in = steam:h_pT(1e5, 350)
local hl, hv = steam:h_pT(1e5, steam:Tsat(1e5) - 1e-9), steam:h_pT(1e5, steam:Tsat(1e5) + 1e-9)
local Q = 0.1 * (hl + 0.4 * (hv - hl) - h_in)
local Boil = lied.model "Boil" {
  src = tf.MassFlowSource { m_flow = 0.1, T0 = 350, p0 = 1e5, medium = tf.steam },
  heater = tf.Heater { Q = Q, V = 1e-3, T0 = 350, medium = tf.steam },
  snk = tf.Sink { p0 = 1e5, medium = tf.steam },
  connect = { { "src.outlet", "heater.inlet" }, { "heater.outlet", "snk.inlet" } },
}
local m = lied.build(Boil)
m:run { stop = 300, solver = "esdirk23", tol = 1e-9 }
local h = m:value("heater.h")
T.near(h, h_in + Q / 0.1, 1e-6 * h, "heater: steady h_out = h_in + Q/m")
T.near(steam:x_ph(1e5, h), 0.4, 1e-6, "heater: quality 0.4 at the outlet")
T.near(m:value("heater.T"), steam:Tsat(1e5), 1e-9, "heater: boiling at Tsat(1 bar)")

-- a supercritical once-through heater (region 3): 0.1 kg/s of water at
-- 25 MPa from 600 K heated across the pseudo-critical temperature to 700 K:
-- the steady outlet is h_in + Q/m at T(25 MPa, h) = 700 K
local h_sc_in, h_sc_out = steam:h_pT(25e6, 600), steam:h_pT(25e6, 700)
T.eq(steam:state_pT(25e6, 650).region, 3, "25 MPa, 650 K is region 3")
local Super = lied.model "Super" {
  src = tf.MassFlowSource { m_flow = 0.1, T0 = 600, p0 = 25e6, medium = tf.steam },
  heater = tf.Heater { Q = 0.1 * (h_sc_out - h_sc_in), V = 1e-3, T0 = 600, p0 = 25e6, medium = tf.steam },
  snk = tf.Sink { p0 = 25e6, medium = tf.steam },
  connect = { { "src.outlet", "heater.inlet" }, { "heater.outlet", "snk.inlet" } },
}
m = lied.build(Super)
m:run { stop = 200, solver = "esdirk23", tol = 1e-9 }
T.near(m:value("heater.h"), h_sc_out, 1e-6 * h_sc_out, "supercritical heater: steady h_out = h_in + Q/m")
T.near(m:value("heater.T"), 700, 1e-4, "supercritical heater: 700 K at the outlet, through region 3")

-- the start state at the line's pressure: liquid at 3 MPa, 450 K (at the
-- default 1 bar the same T0 would be vapour)
local Line = lied.model "Line" {
  src = tf.MassFlowSource { m_flow = 1, T0 = 450, p0 = 3e6, medium = tf.steam },
  heater = tf.Heater { Q = 0, T0 = 450, p0 = 3e6, medium = tf.steam },
  snk = tf.Sink { p0 = 3e6, medium = tf.steam },
  connect = { { "src.outlet", "heater.inlet" }, { "heater.outlet", "snk.inlet" } },
}
m = lied.build(Line)
T.near(m:value("heater.h"), steam:h_pT(3e6, 450), 1e-6, "heater: start state h(p0, T0)")
T.eq(steam:x_ph(3e6, m:value("heater.h")), 0, "heater: starts liquid")
m:run { stop = 1, solver = "rk4", dt = 0.01 }
T.near(m:value("heater.T"), 450, 1e-9, "heater: stays at 450 K without heat")

-- a counter-flow exchanger: hot air (stream a) evaporates and superheats water
-- (stream b, 2 bar); at steady state the heat out of a is the heat into b.
-- Each water cell keeps the mass of its liquid start state (0.97 kg, a
-- flow-through cell: docs/thermofluid.md), so the vapour cells settle on the
-- liquid's time scale M/m = 19 s per cell: steady within 1e-13 by 2000 s.
local Evap = lied.model "Evap" {
  air = tf.MassFlowSource { m_flow = 1, T0 = 800, p0 = 1e5, medium = air_cp },
  water = tf.MassFlowSource { m_flow = 0.05, T0 = 350, p0 = 2e5, medium = tf.steam },
  hx = tf.CounterFlowHX { N = 10, UA = 2000, V_a = 1e-2, V_b = 1e-2, T0_a = 350, T0_b = 350,
                          medium_a = air_cp, medium_b = tf.steam },
  out_a = tf.Sink { p0 = 1e5, medium = air_cp },
  out_b = tf.Sink { p0 = 2e5, medium = tf.steam },
  connect = { { "air.outlet", "hx.inlet_a" }, { "hx.outlet_a", "out_a.inlet" },
              { "water.outlet", "hx.inlet_b" }, { "hx.outlet_b", "out_b.inlet" } },
}
m = lied.build(Evap)
T.near(m:value("hx.M_b"), steam:rho_ph(1e5, steam:h_pT(1e5, 350)) * 1e-3, 1e-12,
  "exchanger: a water cell's fixed mass rho(p0_b, T0_b) V_b/N (p0_b = 1 bar by default)")
m:run { stop = 2000, solver = "esdirk23", tol = 1e-6 }
local Qa = 1 * 1005.45 * (800 - m:value("hx.T_a"))
local hb = steam:h_pT(2e5, m:value("hx.T_b"))
local Qb = 0.05 * (hb - steam:h_pT(2e5, 350))
T.check(m:value("hx.T_b") > steam:Tsat(2e5) + 1, "exchanger: the water leaves as superheated steam")
T.near(m:value("hx.Q_flow"), Qa, 1e-6 * Qa, "exchanger: Q_flow = heat out of the air")
T.near(Qb, Qa, 1e-6 * Qa, "exchanger: the heat into the water = the heat out of the air")

-- refusals at build time name the component and the state
local function build(comp)
  return function()
    lied.build(lied.model "Bad" {
      c = comp,
      src = tf.MassFlowSource { m_flow = 0, T0 = 300, p0 = 1e5, medium = tf.steam },
      snk = tf.Sink { p0 = 1e5, medium = tf.steam },
      connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" } },
    })
  end
end
T.raises(build(tf.Volume { medium = tf.steam, p0 = 1e5, T0 = 250 }),
  { "c", "start state (p0, T0): IF97: p = 100000 Pa, T = 250 K: T is outside [273.15 K, 2273.15 K]" },
  "Volume below 273.15 K")
T.raises(build(tf.Volume { medium = tf.steam, p0 = 1.5e8, T0 = 650 }), { "p is outside (0, 100 MPa]" },
  "Volume above 100 MPa")
T.raises(build(tf.Volume { x0 = 0.5 }), { "x0 = 0.5 needs a medium with two phases (tf.steam), not liquid" },
  "x0 of a liquid")
T.raises(build(tf.Volume { medium = tf.steam, x0 = 0.5, p0 = 3e7 }),
  { "x0 = 0.5: p0 = 3e+07 Pa has no two-phase states in water and steam (IAPWS-IF97)" },
  "x0 above the critical pressure")
T.raises(build(tf.Heater { medium = tf.steam, T0 = 2500 }),
  { "start state (p0, T0): IF97: p = 100000 Pa, T = 2500 K" }, "Heater above 2273.15 K")
T.raises(build(tf.Heater { medium = { 9, 0, 0, 0, 0, 0 } }),
  { "medium kind 9 is unknown (1 = liquid, 2 = ideal gas, 3 = water and steam, 4 = moist air" },
  "unknown kind")
T.raises(function()
  lied.build(lied.model "BadSrc" {
    src = tf.Source { p0 = 1e5, T0 = 200, medium = tf.steam, L = 1 },
    snk = tf.Sink { p0 = 1e5, medium = tf.steam },
    connect = { { "src.outlet", "snk.inlet" } },
  })
end, { "src", "state (p0, T0): IF97: p = 100000 Pa, T = 200 K" }, "Source below 273.15 K")
T.raises(function()
  lied.build(lied.model "BadHX" {
    a = tf.MassFlowSource { m_flow = 0, medium = air_cp },
    b = tf.MassFlowSource { m_flow = 0, medium = tf.steam },
    hx = tf.CounterFlowHX { medium_b = tf.steam, medium_a = air_cp, T0_b = 100 },
    sa = tf.Sink { medium = air_cp }, sb = tf.Sink { medium = tf.steam },
    connect = { { "a.outlet", "hx.inlet_a" }, { "hx.outlet_a", "sa.inlet" },
                { "b.outlet", "hx.inlet_b" }, { "hx.outlet_b", "sb.inlet" } },
  })
end, { "hx", "stream b: start state (p0_b, T0_b): IF97: p = 100000 Pa, T = 100 K" }, "HX stream b")

-- during a run a state leaving the range is a fault of the component that
-- meets it (lied_block_fault): the solver stops, naming the component, what
-- left the range with the medium's reason, and the time (docs/media.md)
local S = require "lied.signals"
local function fails(M, opts, want, what)
  T.raises(function() lied.simulate(M, opts):run() end, want, what)
end
fails(lied.model "Over" {
  src = tf.MassFlowSource { m_flow = 1e-3, T0 = 300, p0 = 1e5, medium = tf.steam },
  heater = tf.Heater { Q = 1e5, V = 1e-3, T0 = 300, medium = tf.steam },
  snk = tf.Sink { p0 = 1e5, medium = tf.steam },
  connect = { { "src.outlet", "heater.inlet" }, { "heater.outlet", "snk.inlet" } },
}, { stop = 200, solver = "rk4", dt = 0.01 },
  { "at t = 75.2", "heater: content: IF97: p = 100000 Pa, h = 73", "above 2273.15 K (the highest T of IF97)" },
  "runaway heater")
fails(lied.model "Hot" {
  src = tf.MassFlowSource { m_flow = 0, T0 = 400, p0 = 1e5, medium = tf.steam },
  v = tf.Volume { V = 1, p0 = 1e5, T0 = 400, medium = tf.steam, Q = 1e6 },
  snk = tf.Sink { p0 = 1e5, medium = tf.steam, L = 1e9 },
  connect = { { "src.outlet", "v.inlet" }, { "v.outlet", "snk.inlet" } },
}, { stop = 10, solver = "rk4", dt = 0.01 },
  { "v: content (M/V, U/M): IF97: rho = 0.547195393 kg/m3, u = 63", "above 2273.15 K" },
  "overheated volume")
fails(lied.model "Cold" {
  r = S.Ramp { offset = 300, height = -100, t0 = 0, duration = 10 },
  src = tf.MassFlowSource { m_flow = 0.1, T0 = 300, p0 = 1e5, medium = tf.steam, T0_from_input = 1 },
  snk = tf.Sink { p0 = 1e5, medium = tf.steam },
  connect = { { "r.y", "src.T0_in" }, { "src.outlet", "snk.inlet" } },
}, { stop = 10, solver = "rk4", dt = 0.01 },
  { "src: state (p0, T0_in): IF97: p = 100000 Pa, T = 273 K: T is outside [273.15 K, 2273.15 K]" },
  "source temperature from a signal")
fails(lied.model "HXcold" {
  a = tf.MassFlowSource { m_flow = 0.01, T0 = 300, p0 = 1e5, medium = tf.steam },
  b = tf.MassFlowSource { m_flow = 1, T0 = 100, p0 = 1e5, medium = air_cp },
  hx = tf.CounterFlowHX { N = 4, UA = 1e4, medium_a = tf.steam, medium_b = air_cp, T0_a = 300,
                          T0_b = 100 },
  sa = tf.Sink { medium = tf.steam }, sb = tf.Sink { medium = air_cp },
  connect = { { "a.outlet", "hx.inlet_a" }, { "hx.outlet_a", "sa.inlet" },
              { "b.outlet", "hx.inlet_b" }, { "hx.outlet_b", "sb.inlet" } },
}, { stop = 100, solver = "esdirk23", tol = 1e-6 },
  { "every trial step fails", "hx: stream a cell: IF97: p = 100000 Pa", "below 273.15 K (the lowest T of IF97)" },
  "exchanger cell frozen (an adaptive solver retries smaller steps first)")
local wet = tf.moist_air { X = 0.01 }
fails(lied.model "Ice" {
  src = tf.MassFlowSource { m_flow = 0.01, T0 = 300, p0 = 1e5, medium = wet },
  c = tf.Heater { Q = -2e4, T0 = 300, medium = wet },
  snk = tf.Sink { p0 = 1e5, medium = wet },
  connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" } },
}, { stop = 100, solver = "rk4", dt = 0.01 },
  { "at t = 0.2", "c: content: moist air: p = 100000 Pa, h = -1594145.06 J/kg, X = 0.01: below 200 K" },
  "moist air below 200 K")

-- in lane form (8 copies of a heated ConductionElement, copy 5 runs away):
-- the fault names the copy, the same in lane form and copy by copy
local th = require "lied.thermal"
local Cell = lied.model "Cell" {
  parameters = { Q = 1e3 },
  src = tf.MassFlowSource { m_flow = 1e-3, T0 = 300, p0 = 1e5, medium = tf.steam },
  c = tf.ConductionElement { V = 1e-3, T0 = 300, medium = tf.steam },
  q = th.FixedHeatFlow { Q_flow = lied.param "Q" },
  snk = tf.Sink { p0 = 1e5, medium = tf.steam },
  connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" }, { "q.port", "c.heatPort" } },
}
local Cells = lied.model "Cells" {
  cell = lied.array(Cell, 8, { Q = function(i) return i == 5 and 1e5 or 1e3 end }),
}
T.check(lied.build(Cells):info().lanes, "the cells run in lane form")
for _, lanes in ipairs { true, false } do
  local _, _, msg = lied.build(Cells):run { stop = 200, solver = "rk4", dt = 0.01, lanes = lanes }
  msg = msg or ""
  T.check(msg:find("at t = 75.16", 1, true) and msg:find("cell[5].c: content: IF97: p = 100000 Pa, "
    .. "h = 7377238.24 J/kg: above 2273.15 K", 1, true), "fault of copy 5, lanes " .. tostring(lanes)
    .. ": " .. msg)
end
T.done()
