-- A plugin that extends the thermofluid domain (examples/ext/tfext.c, built as tfext.so
-- against lied's public headers): its medium glycol30, registered when the library
-- loads, is found by name and works in lied's own components (a Heater, a Volume, a heat
-- exchanger, sources and sinks; lanes on and off), and its component LossyPipe takes any
-- medium. Checked against calculations by hand of the plugin's correlations
-- (coolant_check.lua) and against conservation. Runs in examples/ext.
package.path = (os.getenv("LIED_SRC") or "../..") .. "/?.lua;" .. package.path
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"

T.raises(function() return tf.medium "glycol30" end, { "no medium 'glycol30'" },
  "before the plugin loads, the medium is unknown")
local tfext = require "tfext"
local glycol = tf.medium "glycol30"
local found
for _, m in ipairs(tf.media()) do
  if m.id == "glycol30" then found = m end
end
T.check(found and found.kind == glycol[1] and found.kind > 1000 and not found.two_phase,
  "the registry lists the plugin's medium with its kind number")
T.eq(tostring(tfext.LossyPipe), "thermofluid.LossyPipe (component class)", "the plugin's component, in the thermofluid domain")

-- the example model and its check against the correlations by hand
dofile "coolant_check.lua"
T.check(true, "coolant.lua: the plugin's pipe and lied's cooler and tank at their hand-computed states")

local function h(Tk) local th = Tk - 273.15; return 3750 * th + 1.25 * th * th end
local function rho(p, Tk) local th = Tk - 273.15; return (1040 - 0.35 * th - 0.0018 * th * th) * (1 + 4e-10 * (p - 1e5)) end

-- a closed rigid volume of coolant heated by 500 W: its energy rises by Q t exactly,
-- its mass stays, and its (p, h) are the plugin's (rho, u) inverse of them
local Closed = lied.model "Closed" {
  v = tf.Volume { V = 0.01, p0 = 2e5, T0 = 300, Q = 500, medium = glycol },
  d = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-4, L = 10, medium = glycol },
  connect = { { "v.outlet", "d.inlet" }, { "d.outlet", "v.inlet" } },
}
local m = lied.build(Closed)
local M0, U0 = m:value("v.M"), m:value("v.U")
T.near(M0, rho(2e5, 300) * 0.01, 1e-12, "the start mass from the plugin's density")
local _, _, err = m:run { stop = 20, solver = "rk4", dt = 0.01 }
T.eq(err, nil, "closed volume: runs")
T.near(m:value("v.M"), M0, 1e-12 * M0, "closed volume: mass kept")
T.near(m:value("v.U"), U0 + 500 * 20, 1e-9 * U0, "closed volume: energy rises by Q t")
local p, hv = m:value("v.p"), m:value("v.h")
T.near(m:value("v.rho"), rho(p, m:value("v.T")), 1e-9, "closed volume: rho(p, T) at its state")
T.near(hv, h(m:value("v.T")), 1e-6, "closed volume: h(T) at its state")
T.check(p > 2e5, "closed volume: the warmed liquid's pressure rose (" .. p .. " Pa)")

-- a counter-flow exchanger, coolant against lied's water: the heat balance at steady state
local HX = lied.model "HX" {
  a = tf.MassFlowSource { m_flow = 0.05, T0 = 350, p0 = 2e5, medium = glycol },
  b = tf.MassFlowSource { m_flow = 0.08, T0 = 290, p0 = 2e5, medium = tf.water },
  hx = tf.CounterFlowHX { N = 6, UA = 800, medium_a = glycol, medium_b = tf.water, T0_a = 330,
                          T0_b = 300, p0_a = 2e5, p0_b = 2e5 },
  sa = tf.Sink { p0 = 2e5, medium = glycol }, sb = tf.Sink { p0 = 2e5, medium = tf.water },
  connect = { { "a.outlet", "hx.inlet_a" }, { "hx.outlet_a", "sa.inlet" },
              { "b.outlet", "hx.inlet_b" }, { "hx.outlet_b", "sb.inlet" } },
}
m = lied.build(HX)
_, _, err = m:run { stop = 300, solver = "rk4", dt = 0.01 }
T.eq(err, nil, "exchanger: runs")
local Qa = 0.05 * (h(350) - h(m:value("hx.T_a")))
local Qb = 0.08 * 4184 * (m:value("hx.T_b") - 290)
T.near(Qa, Qb, 1e-6 * Qa, "exchanger: heat out of the coolant = heat into the water")

-- 40 heaters of coolant: lied's Heater evaluates the plugin medium's lane form; the same
-- bits with lanes on and off
local One = lied.model "One" {
  parameters = { Q = 1e3 },
  src = tf.MassFlowSource { m_flow = 0.02, T0 = 300, p0 = 2e5, medium = glycol },
  c = tf.Heater { Q = lied.param "Q", V = 1e-4, T0 = 300, p0 = 2e5, medium = glycol },
  snk = tf.Sink { p0 = 2e5, medium = glycol },
  connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" } },
}
local Many = lied.model "Many" { u = lied.array(One, 40, { Q = function(i) return 100 * i end }) }
T.check(lied.build(Many):info().lanes, "heaters: lane form")
local function run(lanes)
  local r, _, e = lied.build(Many):run { stop = 5, solver = "rk4", dt = 0.01, interval = 0.5,
                                         lanes = lanes, progress = false, vars = "u[*].c.*" }
  T.eq(e, nil, "heaters: run, lanes " .. tostring(lanes))
  return r
end
local a, b = run(true), run(false)
local diff = 0
for _, n in ipairs(a:names()) do
  local ca, cb = T.column(a, n), T.column(b, n)
  for i = 1, #ca do if ca[i] ~= cb[i] then diff = diff + 1 end end
end
T.eq(diff, 0, "heaters: lanes on and off give the same bits")

-- out of the plugin medium's range: at build and during a run, its reason in lied's message
T.raises(function() lied.build(lied.model "Cold" {
    src = tf.MassFlowSource { m_flow = 0.02, T0 = 200, p0 = 2e5, medium = glycol },
    snk = tf.Sink { p0 = 2e5, medium = glycol },
    connect = { { "src.outlet", "snk.inlet" } } }) end,
  { "glycol30: p = 200000 Pa, T = 200 K: T = 200 K is outside [253.15 K, 373.15 K]" },
  "a start state outside the plugin medium's range")
T.raises(function() lied.simulate(lied.model "Boil" {
    src = tf.MassFlowSource { m_flow = 0.01, T0 = 350, p0 = 2e5, medium = glycol },
    c = tfext.LossyPipe { V = 1e-4, UA = 50, T_amb = 600, T0 = 350, p0 = 2e5, medium = glycol },
    snk = tf.Sink { p0 = 2e5, medium = glycol },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" } } },
    { stop = 100, solver = "rk4", dt = 0.01 }):run() end,
  { "c: content: glycol30: p = 200000 Pa, h = ", "is outside [253.15 K, 373.15 K]" },
  "the plugin's component leaving the range: a fault with the medium's reason")

T.done()
