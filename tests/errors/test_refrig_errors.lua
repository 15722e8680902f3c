-- Bad input to lied.refrigeration (docs/refrigeration.md): media without two phases,
-- parameters out of range, maps that are no efficiencies, a receiver's start pressure
-- above the critical point, refused when the model is built naming the component;
-- during a run, states without saturation or outside the table reported with the
-- component, the time and the state; a valve fully closed, a compressor at zero
-- speed and an emptied receiver are defined (covered in tests/validation).
local lied = require "lied"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local S = require "lied.signals"
local T = require "tests.testing"

local R = tf.R134a
local function line(c, medium, p1, p2, speed)
  medium = medium or R
  return lied.model "Line" {
    src = tf.Source { p0 = p1 or 3e5, T0 = 280, L = 1e4, medium = medium },
    w = S.Constant { k = speed or 300 },
    c = c,
    snk = tf.Sink { p0 = p2 or 1e6, medium = medium },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" }, speed ~= false and { "w.y", "c.speed" } or nil },
  }
end
local function fails(def, pats, what)
  T.raises(function() return lied.build(def) end, pats, what, "model")
end

-- media: every class refuses a medium without two phases, naming it
for _, cls in ipairs { rf.Compressor, rf.ExpansionValve, rf.ThermostaticValve, rf.Receiver, rf.Accumulator,
                       rf.SuperheatSensor, rf.SubcoolingSensor, rf.QualitySensor, rf.SaturationTemperatureSensor } do
  T.raises(function() return lied.build(lied.model "One" { c = cls { medium = tf.water } }) end,
    { "c: the medium must be a refrigerant with two phases (tf.R134a, tf.R1234yf, tf.R290, tf.R744), not liquid" },
    lied.describe(cls):match("^%S+") .. ": a liquid refused", "model")
end
T.raises(function() return lied.build(lied.model "One" { c = rf.Receiver { medium = tf.steam } }) end,
  { "not water and steam" }, "steam (two phases, no refrigerant's calls) refused")

-- parameters
fails(line(rf.Compressor { eta_s = 0 }), { "c: parameter eta_s = 0 [1] must be > 0" }, "eta_s = 0")
fails(line(rf.Compressor { eta_v = 1.1 }), { "c: parameter eta_v = 1.1 [1] must be >= 0 and <= 1" }, "eta_v > 1")
fails(line(rf.Compressor { V_d = 0 }), { "c: parameter V_d = 0 [m3] must be > 0" }, "V_d = 0")
fails(line(rf.Compressor { k = -1 }), { "c: parameter k = -1 [Pa.s/m3] must be > 0" }, "k < 0")
local good = lied.table { x1 = { 2, 4 }, x2 = { 100, 400 }, z = { { 0.7, 0.6 }, { 0.65, 0.55 } } }
fails(line(rf.CompressorMap { eta_s_map = lied.table { x1 = { 2, 4 }, x2 = { 100, 400 }, z = { { 0.7, 0 }, { 0.65, 0.55 } } },
                              eta_v_map = good }),
  { "c: eta_s_map: value 2 = 0 is no efficiency (0 < eta <= 1)" }, "an eta_s map with a 0")
fails(line(rf.CompressorMap { eta_s_map = good,
                              eta_v_map = lied.table { x1 = { 2, 4 }, x2 = { 100, 400 }, z = { { 0.7, 0.6 }, { 1.5, 0.55 } } } }),
  { "c: eta_v_map: value 3 = 1.5 is no efficiency (0 <= eta <= 1)" }, "an eta_v map above 1")
fails(line(rf.CompressorMap { eta_s_map = good }), { "c: parameter eta_v_map: no map given" }, "a map missing")
fails(line(rf.CompressorMap { eta_s_map = { { 2, 0.7 }, { 4, 0.6 } }, eta_v_map = good }),
  { "c.eta_s_map[1] must be a number, got table (rows of a table or map parameter: give them to lied.table {...})" },
  "rows for a map")
fails(line(rf.CompressorMap { eta_s_map = lied.table { x = { 1, 2 }, y = { 0.7, 0.7 } }, eta_v_map = good }),
  { "eta_s_map" }, "a 1-D table for a map")
fails(lied.model "One" { c = rf.Receiver { p0 = 5e6 } },
  { "c: p0 = 5e+06 Pa has no saturated states in R134a", "(above the critical pressure or outside the table)" },
  "a receiver above the critical pressure")
fails(lied.model "One" { c = rf.Accumulator { level0 = 1.5 } },
  { "c: parameter level0 = 1.5 [1] must be >= 0 and <= 1" }, "level0 > 1")
fails(lied.model "One" { c = rf.ThermostaticValve { sh_range = 0 } },
  { "c: parameter sh_range = 0 [K] must be > 0" }, "sh_range = 0")
fails(lied.model "One" { c = rf.ExpansionValve { leakage = 0 } },
  { "c: parameter leakage = 0 [1] must be > 0" }, "leakage = 0")

-- during a run: a discharge beyond the table, a sensor above the critical pressure
local function run_fails(model, pats, what)
  local _, _, err = lied.build(model):run { stop = 1, solver = "cvode", tol = 1e-8 }
  T.check(err ~= nil, what .. ": the run stops")
  for _, p in ipairs(pats) do
    T.check(err and err:find(p, 1, true), what .. ": '" .. p .. "' in: " .. tostring(err))
  end
end
-- the flow started at 0: the characteristic asks for a pressure beyond the table
run_fails(line(rf.Compressor { V_d = 1e-4 }),
  { "at t = 0: c: isentropic outlet state: R134a", "is outside the table (pressure ratio" },
  "a compressor started against a still stream")
run_fails(line(rf.SuperheatSensor { medium = tf.R744 }, tf.R744, 8e6, 8e6, false),
  { "at t = 0: c: stream: R744", "p = 8000000 Pa has no saturated states (above the critical pressure" },
  "a superheat sensor above the critical pressure")
run_fails(lied.model "Hot" {
    feed = tf.MassFlowSource { m_flow = 0, T0 = 300, p0 = 1e6, medium = R },
    c = rf.Receiver { V = 1e-3, p0 = 1e6, Q = 5e5, L = 1e4, medium = R },
    snk = tf.Sink { p0 = 1e6, medium = R },
    connect = { { "feed.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" } } },
  { ": c: content (M/V, U/M): R134a: rho = ", "J/kg: below the table's lowest pressure" }, "a receiver heated until it blew its charge out")

-- a valve fully closed: the leakage's resistance, finite flow, no NaN
do
  local M = lied.model "Closed" {
    src = tf.Source { p0 = 1e6, T0 = 300, L = 1e4, medium = R },
    v = rf.ExpansionValve { A = 1e-6, leakage = 1e-4, medium = R },
    y = S.Constant { k = 0 },
    snk = tf.Sink { p0 = 3e5, medium = R },
    connect = { { "src.outlet", "v.inlet" }, { "v.outlet", "snk.inlet" }, { "y.y", "v.opening" } },
  }
  local m = lied.build(M)
  local _, _, err = m:run { stop = 1, solver = "cvode", tol = 1e-10 }
  T.check(not err, "a closed valve runs: " .. tostring(err))
  local rho = R:rho_pT(1e6, 300)
  T.near(m:value("v.m_flow"), 1e-4 * 1e-6 * math.sqrt(2 * rho * 7e5), 1e-6 * 1e-4 * 1e-6 * math.sqrt(2 * rho * 7e5),
    "a closed valve: the leakage's flow A leakage sqrt(2 rho dp)")
  T.eq(m:value("v.y"), 0, "a closed valve: opening 0 (clamped)")
end
-- an opening below 0 and above 1 is clamped
do
  local M = lied.model "Over" {
    src = tf.Source { p0 = 1e6, T0 = 300, L = 1e4, medium = R },
    v = rf.ExpansionValve { A = 1e-7, medium = R },
    y = S.Constant { k = 3 },
    snk = tf.Sink { p0 = 3e5, medium = R },
    connect = { { "src.outlet", "v.inlet" }, { "v.outlet", "snk.inlet" }, { "y.y", "v.opening" } },
  }
  local m = lied.build(M)
  m:run { stop = 1, solver = "cvode", tol = 1e-10 }
  T.eq(m:value("v.y"), 1, "an opening of 3 is clamped to 1")
  T.near(m:value("v.m_flow"), 1e-7 * math.sqrt(2 * R:rho_pT(1e6, 300) * 7e5), 1e-6 * 1e-7 * 3e4,
    "the orifice at full opening")
end

-- a map read beyond its grid with linear extrapolation gave efficiencies outside (0, 1]
-- without a word (eta_s 2.1, eta_v -1.9 at a ratio of 4 from maps over 2 .. 2.5: negative
-- power, a flow pumped backwards): a lookup is held within the least and greatest of the
-- map's values, as turbo's maps are
do
  local flat = lied.table { x1 = { 2, 2.5 }, x2 = { 100, 400 }, z = { { 0.7, 0.7 }, { 0.7, 0.7 } } }
  local rising = lied.table { x1 = { 2, 2.5 }, x2 = { 100, 400 }, z = { { 0.5, 0.5 }, { 0.9, 0.9 } }, extrapolation = "linear" }
  local falling = lied.table { x1 = { 2, 2.5 }, x2 = { 100, 400 }, z = { { 0.9, 0.9 }, { 0.2, 0.2 } }, extrapolation = "linear" }
  for _, case in ipairs { { rising, flat, 0.9, 0.7 }, { flat, falling, 0.7, 0.2 }, { falling, rising, 0.2, 0.9 } } do
    local res = lied.simulate(lied.model "Line" {
      src = tf.Source { p0 = 3e5, T0 = 280, L = 1e4, medium = R }, w = S.Constant { k = 300 },
      c = rf.CompressorMap { V_d = 1e-5, k = 1e9, eta_s_map = case[1], eta_v_map = case[2] },
      snk = tf.Sink { p0 = 1.2e6, medium = R },
      connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" }, { "w.y", "c.speed" } } },
      { stop = 0.2, interval = 0.1, solver = "cvode", tol = 1e-8, vars = "c.pr,c.eta_s_used,c.eta_v_used" }):run()
    local n = res:nrows()
    T.near(res:column("c.pr")[n], 4, 1e-3, "a ratio of 4, beyond the maps' 2 .. 2.5")
    T.eq(res:column("c.eta_s_used")[n], case[3], "eta_s held at the map's bound " .. case[3])
    T.eq(res:column("c.eta_v_used")[n], case[4], "eta_v held at the map's bound " .. case[4])
  end
end

-- linearize's inputs are real parameters, perturbed in place: a whole-number one (4 bytes)
-- was written as a double over the field beside it (the Compressor's `shaft` took `maps`
-- with it; at shaft = 0 its flange's NULL pointer was read: SIGSEGV), a state's start value
-- gave a column of zeros; both refused, naming the input
do
  local b = lied.build(lied.model "Line" {
    src = tf.Source { p0 = 3e5, T0 = 280, L = 1e4, medium = R }, w = S.Constant { k = 300 },
    c = rf.Compressor { V_d = 1e-5, k = 1e8 }, snk = tf.Sink { p0 = 3.3e5, medium = R },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" }, { "w.y", "c.speed" } } })
  T.raises(function() return b:linearize { inputs = { "c.shaft" } } end,
    { "linearize: input 'c.shaft' is a whole-number parameter (a choice of structure or mode); inputs are real parameters" },
    "a whole-number input", "usage")
  T.raises(function() return b:linearize { inputs = { "src.m_flow" } } end,
    { "linearize: input 'src.m_flow' is the start value of the state src.m_flow" }, "a start value as an input", "usage")
  local lin = b:linearize { inputs = { "c.V_d" } }
  T.check(lin.B[1][1] > 0, "a real parameter still an input: more displacement, more flow " .. lin.B[1][1])
end

T.done()
