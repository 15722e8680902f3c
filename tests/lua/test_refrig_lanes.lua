-- Lane forms of lied.refrigeration's sensors and valves (docs/refrigeration.md, "Lane forms"):
-- 40 streams of R290 boiling in Heaters from subcooled liquid to superheated vapour,
-- each through a SuperheatSensor, a SubcoolingSensor, two QualitySensors and a
-- SaturationTemperatureSensor: lanes on and off give the same bits; a copy above the
-- critical pressure faults the same way in both, naming the copy, the time and the state.
local lied = require "lied"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
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
for _, name in ipairs(a:names()) do
  local ca, cb = a:column(name), b:column(name)
  cols = cols + 1
  for i = 1, #ca do if ca[i] ~= cb[i] and (ca[i] == ca[i] or cb[i] == cb[i]) then diff = diff + 1 end end
end
T.eq(diff, 0, "sensors: lanes on and off give the same bits (" .. cols .. " columns)")
local n = a:nrows()
local phases = {}
for i = 1, 40 do
  local x = a:column("g[" .. i .. "].q.x")[n]
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
T.check(fa and fa:find("g%[7%]%.sh: stream: R744.-: p = 8000000 Pa has no saturated states"),
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
for _, name in ipairs(ra:names()) do
  local ca, cb = ra:column(name), rb:column(name)
  cols = cols + 1
  for i = 1, #ca do if ca[i] ~= cb[i] then diff = diff + 1 end end
end
T.eq(diff, 0, "valves: lanes on and off give the same bits (" .. cols .. " columns)")
local y1, y32 = ra:column("g[1].txv.y"), ra:column("g[32].txv.y")
T.check(y32[#y32] > y1[#y1], "valves: the larger heat load opens its valve wider")

T.done()
