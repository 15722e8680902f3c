-- Lane forms of lied.refrigeration's sensors (docs/refrigeration.md, "Lane forms"):
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

T.done()
