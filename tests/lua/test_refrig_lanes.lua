-- Lane forms of lied.refrigeration's sensors and valves (docs/refrigeration.md, "Lane forms"):
-- 40 streams of R290 boiling in Heaters from subcooled liquid to superheated vapour,
-- each through a SuperheatSensor, a SubcoolingSensor, two QualitySensors and a
-- SaturationTemperatureSensor: lanes on and off give the same bits; a copy above the
-- critical pressure faults the same way in both, naming the copy, the time and the state.
local lied = require "lied"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local S = require "lied.signals"
local T = require "tests.testing"

local P = tf.R290
local function line(medium)
  return lied.model "Line" {
    parameters = { Q = 1e3, p = 5e5 },
    src = tf.MassFlowSource { m_flow = 0.01, T0 = 260, p0 = lied.param "p", medium = medium },
    c = tf.Heater { Q = lied.param "Q", V = 1e-4, T0 = 260, p0 = lied.param "p", medium = medium },
    sh = rf.SuperheatSensor { medium = medium }, sc = rf.SubcoolingSensor { medium = medium },
    q = rf.QualitySensor { medium = medium }, qe = rf.QualitySensor { extended = 1, medium = medium },
    ts = rf.SaturationTemperatureSensor { medium = medium },
    snk = tf.Sink { p0 = lied.param "p", medium = medium },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "sh.inlet" }, { "sh.outlet", "sc.inlet" },
                { "sc.outlet", "q.inlet" }, { "q.outlet", "qe.inlet" }, { "qe.outlet", "ts.inlet" },
                { "ts.outlet", "snk.inlet" } },
  }
end
local Lines = lied.model "Lines" {
  g = lied.array(line(P), 40, { Q = function(i) return 200 * i - 600 end,
                                p = function(i) return 3e5 + 2e4 * i end }),
}
local function run(model, lanes, stop)
  return lied.build(model):run { stop = stop, solver = "rk4", dt = 0.01, interval = 0.5, lanes = lanes,
                                 progress = false, vars = "g[*].*" }
end
T.check(lied.build(Lines):info().lanes, "sensors: the copies run in lane form")
local a, _, ea = run(Lines, true, 10)
local b, _, eb = run(Lines, false, 10)
T.eq(ea, nil, "sensors: lanes on, no fault")
T.eq(eb, nil, "sensors: lanes off, no fault")
local diff, cols = 0, 0
for _, name in ipairs(T.names(a)) do
  local ca, cb = T.column(a, name), T.column(b, name)
  cols = cols + 1
  for i = 1, #ca do if ca[i] ~= cb[i] and (ca[i] == ca[i] or cb[i] == cb[i]) then diff = diff + 1 end end
end
T.eq(diff, 0, "sensors: lanes on and off give the same bits (" .. cols .. " columns)")
local n = a:nrows()
local phases = {}
for i = 1, 40 do
  local x = T.column(a, "g[" .. i .. "].q.x")[n]
  phases[x == 0 and "liquid" or x == 1 and "vapour" or "two-phase"] = true
end
T.check(phases.liquid and phases["two-phase"] and phases.vapour, "sensors: copies liquid, two-phase and vapour")

-- a fault in lanes and copy by copy: R744 streams, copy 7 above the critical pressure
local Co2 = lied.model "Co2" {
  g = lied.array(line(tf.R744), 20, { Q = function() return 100 end,
                                      p = function(i) return i == 7 and 8e6 or 3e6 + 5e4 * i end }),
}
local _, _, fa = run(Co2, true, 1)
local _, _, fb = run(Co2, false, 1)
-- (the SaturationTemperatureSensor reports it: it reads p alone, so it runs before the
-- sensors that wait for the Heater's h)
T.check(fa and fa:find("g%[7%]%.ts: stream: R744.-: p = 8000000 Pa has no saturated states"),
  "a copy above pc: the fault names the copy and the state, lanes on (" .. tostring(fa) .. ")")
T.eq(fa, fb, "a copy above pc: the same fault with lanes off")
T.check(fa and fa:find("at t = 0"), "a copy above pc: the fault names the time")

-- thermostatic valves on the bulbs of heated cells: 32 copies, each its own heat load, the
-- flow imposed (the sources with lane forms impose it; in a cycle an exchanger owns it),
-- the valve's opening from the cell's superheat through the bulb; with events = 0 the
-- copies run in lane form, lanes on and off the same bits
local R = tf.R134a
local function evaporator(events)
  return lied.model "Evaporator" {
    parameters = { Q = 1500 },
    src = tf.MassFlowSource { m_flow = 0.01, p0 = 1e6, T0 = 300, medium = R },
    txv = rf.ThermostaticValve { A = 2e-6, sh_static = -20, sh_range = 40, T_bulb = 2, events = events, medium = R },
    evap = tf.Heater { Q = lied.param "Q", V = 1e-4, T0 = 300, p0 = 1e6, medium = R },
    sh = rf.SuperheatSensor { medium = R },
    snk = tf.Sink { p0 = 3e5, medium = R },
    connect = { { "src.outlet", "txv.inlet" }, { "txv.outlet", "evap.inlet" }, { "evap.outlet", "sh.inlet" },
                { "sh.outlet", "snk.inlet" }, { "sh.y", "txv.superheat" } },
  }
end
local function evaporators(events)
  return lied.model "Evaporators" { g = lied.array(evaporator(events), 32, { Q = function(i) return 1200 + 30 * i end }) }
end
T.check(lied.build(evaporators(0)):info().lanes, "valves: with events = 0 the copies run in lane form")
local function run_evap(lanes)
  return lied.build(evaporators(0)):run { stop = 20, solver = "rk4", dt = 0.01, interval = 1, lanes = lanes,
                                          progress = false, vars = "g[*].txv.*,g[*].sh.y,g[*].evap.h" }
end
local ra, _, xa = run_evap(true)
local rb, _, xb = run_evap(false)
T.eq(xa, nil, "valves: lanes on, no fault")
T.eq(xb, nil, "valves: lanes off, no fault")
diff, cols = 0, 0
for _, name in ipairs(T.names(ra)) do
  local ca, cb = T.column(ra, name), T.column(rb, name)
  cols = cols + 1
  for i = 1, #ca do if ca[i] ~= cb[i] then diff = diff + 1 end end
end
T.eq(diff, 0, "valves: lanes on and off give the same bits (" .. cols .. " columns)")
local y1, y32 = T.column(ra, "g[1].txv.y"), T.column(ra, "g[32].txv.y")
T.check(y32[#y32] > y1[#y1], "valves: the larger heat load opens its valve wider")

-- receivers and accumulators fed at their own rates, drained through valves (events = 0):
-- 24 copies of each in lane form, lanes on and off the same bits
local function vessel(cls, m0) -- m0: the valve's flow at the start (liquid, vapour)
  return lied.model "Vessel" {
    parameters = { m = 0.01 },
    src = tf.MassFlowSource { m_flow = lied.param "m", p0 = 1e6, T0 = 300, medium = R },
    v = cls { V = 1e-3, p0 = 1e6, level0 = 0.3, L = 1e7, m_flow = m0, medium = R },
    valve = rf.ExpansionValve { A = 2e-7, events = 0, medium = R },
    opening = S.Constant { k = 0.8 },
    snk = tf.Sink { p0 = 3e5, medium = R },
    connect = { { "src.outlet", "v.inlet" }, { "v.outlet", "valve.inlet" }, { "valve.outlet", "snk.inlet" },
                { "opening.y", "valve.opening" } },
  }
end
local Vessels = lied.model "Vessels" {
  r = lied.array(vessel(rf.Receiver, 0.0064), 24, { m = function(i) return 0.0005 * i end }),
  a = lied.array(vessel(rf.Accumulator, 0.0013), 24, { m = function(i) return 0.0001 * i end }),
}
T.check(lied.build(Vessels):info().lanes, "vessels: the copies run in lane form")
local function run_vessels(lanes)
  return lied.build(Vessels):run { stop = 5, solver = "rk4", dt = 0.002, interval = 0.5, lanes = lanes,
                                   progress = false, vars = "r[*].v.*,a[*].v.*,r[*].valve.dp,a[*].valve.dp" }
end
local va, _, wa = run_vessels(true)
local vb, _, wb = run_vessels(false)
T.eq(wa, nil, "vessels: lanes on, no fault")
T.eq(wb, nil, "vessels: lanes off, no fault")
diff, cols = 0, 0
for _, name in ipairs(T.names(va)) do
  local ca, cb = T.column(va, name), T.column(vb, name)
  cols = cols + 1
  for i = 1, #ca do if ca[i] ~= cb[i] then diff = diff + 1 end end
end
T.eq(diff, 0, "vessels: lanes on and off give the same bits (" .. cols .. " columns)")
local l1, l24 = T.column(va, "r[1].v.level"), T.column(va, "r[24].v.level")
T.check(l24[#l24] > l1[#l1], "vessels: the receiver fed most fills highest")

-- whole circuits (compressor, receiver, expansion valve with events = 0, accumulator), 8
-- copies each with its own condenser duty: every component in lane form, lanes on and off
-- the same bits (a softer flow characteristic k and larger inertances so that rk4 holds it)
local Circuit = lied.model "Circuit" {
  parameters = { Qc = -2800 },
  comp = rf.Compressor { V_d = 2e-5, k = 1e8, medium = R },
  w = S.Constant { k = 300 },
  rcv = rf.Receiver { V = 2e-3, p0 = 1e6, level0 = 0.5, Q = lied.param "Qc", L = 1e6, m_flow = 0.0126, medium = R },
  valve = rf.ExpansionValve { A = 6.3e-7, events = 0, medium = R },
  opening = S.Constant { k = 0.5 },
  acc = rf.Accumulator { V = 5e-3, p0 = 3e5, level0 = 0.2, Q = 1800, L = 1e6, m_flow = 0.0126, medium = R },
  connect = { { "acc.outlet", "comp.inlet" }, { "comp.outlet", "rcv.inlet" }, { "rcv.outlet", "valve.inlet" },
              { "valve.outlet", "acc.inlet" }, { "w.y", "comp.speed" }, { "opening.y", "valve.opening" } },
}
local Circuits = lied.model "Circuits" { c = lied.array(Circuit, 8, { Qc = function(i) return -2000 - 200 * i end }) }
T.check(lied.build(Circuits):info().lanes, "circuits: the copies run in lane form")
local function run_circuits(lanes)
  return lied.build(Circuits):run { stop = 5, solver = "rk4", dt = 1e-3, interval = 0.5, lanes = lanes,
                                    progress = false, vars = "c[*].comp.*,c[*].rcv.*,c[*].acc.*,c[*].valve.*" }
end
local ca_, _, ea_ = run_circuits(true)
local cb_, _, eb_ = run_circuits(false)
T.eq(ea_, nil, "circuits: lanes on, no fault")
T.eq(eb_, nil, "circuits: lanes off, no fault")
diff, cols = 0, 0
for _, name in ipairs(T.names(ca_)) do
  local ca, cb = T.column(ca_, name), T.column(cb_, name)
  cols = cols + 1
  for i = 1, #ca do if ca[i] ~= cb[i] then diff = diff + 1 end end
end
T.eq(diff, 0, "circuits: lanes on and off give the same bits (" .. cols .. " columns)")
local p1, p8 = T.column(ca_, "c[1].rcv.p"), T.column(ca_, "c[8].rcv.p")
T.check(p8[#p8] < p1[#p1], "circuits: the copy cooled most condenses at the lowest pressure")

T.done()
