-- Validation of the thermofluid valves, fan, sensors, reservoir and mass-flow
-- source (docs/thermofluid.md): steady flows through a Valve (linear and
-- equal-percentage characteristics, Kv and reference-point laws, clamped
-- opening, leakage), a CheckValve in both directions, a Fan against a
-- pressure drop, the sensors' outputs, a ConductionElement heated through a
-- conductor, a Reservoir in a closed loop.
local lied = require "lied"
local tf = require "lied.thermofluid"
local air_cp = tf.gas {} -- air of constant cp (the tests' laws assume it)
local th = require "lied.thermal"
local S = require "lied.signals"
local T = require "tests.testing"

local function steady(M, stop)
  local sim = lied.simulate(M, { stop = stop or 20, solver = "dopri45", tol = 1e-10,
    interval = stop or 20 })
  sim:run()
  return sim.model
end

-- 1. Source 2 bar -> valve -> sensors -> sink 1 bar: dp = 1e5 at steady state
local function valve_line(valve, opening)
  return lied.model "Line" {
    src = tf.Source { p0 = 2e5, T0 = 330, L = 1e4 },
    v = valve,
    y = S.Constant { k = opening or 1 },
    ts = tf.TemperatureSensor {}, ps = tf.PressureSensor {}, ms = tf.MassFlowSensor {},
    hs = tf.EnthalpySensor {},
    snk = tf.Sink { p0 = 1e5 },
    connect = { { "src.outlet", "v.inlet" }, { "v.outlet", "ts.inlet" }, { "ts.outlet", "ps.inlet" },
                { "ps.outlet", "ms.inlet" }, { "ms.outlet", "hs.inlet" }, { "hs.outlet", "snk.inlet" },
                opening and { "y.y", "v.opening" } or nil },
  }
end
local leak = 1e-4
for _, c in ipairs { { 1, 0.5 }, { 1, 1 }, { 2, 0.7 }, { 2, 0.005 }, { 1, 1.5 }, { 1, -0.2 } } do
  local ch, y = c[1], c[2]
  local m = steady(valve_line(tf.Valve { dp_ref = 1e5, m_flow_ref = 2, characteristic = ch, R = 50 }, y))
  local yc = math.min(math.max(y, 0), 1)
  local phi = ch == 1 and yc or (yc >= 0.01 and 50 ^ (yc - 1) or yc / 0.01 * 50 ^ (0.01 - 1))
  local f = leak + (1 - leak) * phi
  local what = string.format("valve characteristic %d, opening %g", ch, y)
  T.near(m:value("v.m_flow"), 2 * f, 1e-7 * f, what .. ": m = m_ref * f at dp_ref")
  T.near(m:value("v.dp"), 1e5, 1e-2, what .. ": dp")
  T.eq(m:value("v.y"), yc, what .. ": opening clamped to [0, 1]")
  T.eq(m:value("ms.y"), m:value("v.m_flow"), what .. ": mass flow sensor")
end
local m = steady(valve_line(tf.Valve { dp_ref = 1e5, m_flow_ref = 2 }, 0))
T.near(m:value("v.m_flow"), 2 * leak, 1e-7 * leak, "closed valve: the leakage flows")
T.near(m:value("ts.y"), 330, 1e-9, "temperature sensor")
T.near(m:value("ps.y"), 1e5, 1e-2, "pressure sensor downstream of the valve")
T.near(m:value("hs.y"), 4184 * (330 - 293.15), 1e-6, "enthalpy sensor")
T.eq(m:value("ts.T"), m:value("ts.y"), "sensor variable T")
-- Kv: volume flow Kv sqrt(dp/1 bar * 1000/rho) in m3/h
m = steady(valve_line(tf.Valve { Kv = 10 }, 1))
local rho = 995.586 * (1 + 4.5e-10 * 1e5)
T.near(m:value("v.m_flow") / rho * 3600, (1 - 0) * 10 * math.sqrt(1 * 1000 / rho), 1e-6,
  "Kv law at full opening")

-- the opening's clamps at 1 and 0 are kinks of the law (LIED_ZC_KINK): the
-- adaptive solvers end a step where the opening signal crosses them (a
-- Ramp from 1.2 down to -0.5 over 10 s: 1 at t = 0.2/1.7*10, 0 at t =
-- 1.2/1.7*10), and write no rows there (nothing jumps); the equal-
-- percentage characteristic kinks at y = 0.01 too (t = 1.19/1.7*10)
for _, ch in ipairs { 1, 2 } do
  local M = lied.model "Kinks" {
    y = S.Ramp { offset = 1.2, height = -1.7, duration = 10 },
    src = tf.Source { p0 = 2e5, L = 1e4 },
    v = tf.Valve { dp_ref = 1e5, m_flow_ref = 2, characteristic = ch },
    snk = tf.Sink { p0 = 1e5 },
    connect = { { "y.y", "v.opening" }, { "src.outlet", "v.inlet" }, { "v.outlet", "snk.inlet" } },
  }
  local res, st = lied.build(M):run { solver = "dopri45", tol = 1e-10, stop = 12, vars = "v.y",
                                      interval = "step" }
  local t, twice = T.column(res, "time"), 0
  for i = 2, #t do if t[i] == t[i - 1] and t[i] ~= 10 then twice = twice + 1 end end
  local kinks = ch == 1 and { 0.2 / 1.7 * 10, 1.2 / 1.7 * 10 }
      or { 0.2 / 1.7 * 10, 1.19 / 1.7 * 10, 1.2 / 1.7 * 10 }
  T.eq(st.kinks, #kinks, "characteristic " .. ch .. ": kinks located")
  T.eq(twice, 0, "characteristic " .. ch .. ": no rows at the kinks")
  for k, tk in ipairs(kinks) do
    local near = math.huge
    for i = 1, #t do near = math.min(near, math.abs(t[i] - tk)) end
    T.check(near < 1e-9, string.format("characteristic %d: a step ends at kink %d (t = %.10g, %.3g off)",
      ch, k, tk, near))
  end
end

-- 2. check valve: forward nearly the nominal flow, reverse the leakage's
local function check(p_in, p_out)
  return lied.model "Check" {
    src = tf.Source { p0 = p_in, L = 1e4 }, v = tf.CheckValve { dp_ref = 1e5, m_flow_ref = 1 },
    snk = tf.Sink { p0 = p_out },
    connect = { { "src.outlet", "v.inlet" }, { "v.outlet", "snk.inlet" } },
  }
end
m = steady(check(2e5, 1e5))
T.near(m:value("v.m_flow"), 1, 1e-6, "check valve forward: open")
m = steady(check(1e5, 2e5), 200)
local mr = m:value("v.m_flow")
T.near(mr, -1e-3, 1e-9, "check valve reverse: the leakage flows")
T.eq(m:value("v.open"), 0, "check valve reverse: closed")
-- the closure is a state event (docs/events.md): the inlet pressure steps
-- from 2 bar to 0.5 bar at t = 5 against 1 bar downstream; the flow slows
-- through the source's inertance, crosses zero, the valve closes there (two
-- rows, v.open 1 -> 0) and the leakage flows backwards:
-- m = -leakage m_ref sqrt(dp/dp_ref) = -1e-3 sqrt(0.5)
do
  local M = lied.model "Closing" {
    p = S.Step { offset = 2e5, height = -1.5e5, t0 = 5 },
    src = tf.Source { p0_from_input = 1, L = 1e4 }, v = tf.CheckValve { dp_ref = 1e5, m_flow_ref = 1 },
    snk = tf.Sink { p0 = 1e5 },
    connect = { { "p.y", "src.p0_in" }, { "src.outlet", "v.inlet" }, { "v.outlet", "snk.inlet" } },
  }
  for _, solver in ipairs { "dopri45", "esdirk23" } do
    local res = lied.build(M):run { solver = solver, tol = 1e-9, stop = 60, vars = "v.m_flow,v.open" }
    local t, mf, open = T.column(res, "time"), T.column(res, "v.m_flow"), T.column(res, "v.open")
    local closes, opens, at = 0, 0, nil
    for i = 2, #t do
      if t[i] == t[i - 1] and open[i - 1] == 1 and open[i] == 0 then closes, at = closes + 1, i end
      if t[i] == t[i - 1] and open[i - 1] == 0 and open[i] == 1 then opens = opens + 1 end
    end
    T.eq(closes, 1, solver .. ": the check valve closes once")
    T.eq(opens, 1, solver .. ": and opens once, at the start (zero flow counts as closed)")
    if at then
      T.check(t[at] > 5 and math.abs(mf[at]) < 1e-9, string.format(
        "%s: it closes where the flow crosses zero (t = %.6g, m = %.3g)", solver, t[at], mf[at]))
    end
    T.near(mf[#mf], -1e-3 * math.sqrt(0.5), 1e-9, solver .. ": the leakage flows backwards")
  end
end

-- the smooth law (smooth = 1): increasing through zero, dp at small flows
local prev = -math.huge
for _, mf in ipairs { -1e-2, -1e-3, -1e-4, -1e-5, 0, 1e-5, 1e-4, 1e-3, 1e-2 } do
  local b = lied.build(lied.model "C" {
    src = tf.Source { m_flow = mf, L = 1 }, v = tf.CheckValve { smooth = 1 }, snk = tf.Sink {},
    connect = { { "src.outlet", "v.inlet" }, { "v.outlet", "snk.inlet" } } })
  b:derivatives()
  local dp = b:value("v.dp")
  T.check(dp > prev, "check valve: dp increases with the flow at m = " .. mf)
  prev = dp
end

-- 3. fan against a pressure drop: dp_fan(m) = dp_drop(m)
m = steady(lied.model "Air" {
  src = tf.Source { p0 = 1e5, T0 = 300, medium = air_cp, L = 1e3 },
  fan = tf.Fan { dp_max = 400, V_flow_max = 2, omega_from_input = 1, w_ref = 100 },
  w = S.Constant { k = 80 },
  drop = tf.LinearQuadraticDrop { k1 = 0, k2 = 100, medium = air_cp },
  snk = tf.Sink { p0 = 1e5, medium = air_cp },
  connect = { { "src.outlet", "fan.inlet" }, { "w.y", "fan.omega_in" }, { "fan.outlet", "drop.inlet" },
              { "drop.outlet", "snk.inlet" } },
}, 50)
local mf, rho_air = m:value("fan.m_flow"), 1e5 / (287.05 * 300)
local v = mf / rho_air / 2
T.near(m:value("fan.dp"), 400 * (0.8 ^ 2 - v * v), 1e-6, "fan law (affinity)")
T.near(m:value("fan.dp"), 100 * mf * mf, 1e-6, "fan head = drop at steady state")
T.near(m:value("fan.P"), m:value("fan.dp") * m:value("fan.V_flow"), 1e-9, "fan power")
T.eq(m:value("fan.w"), 80, "the fan's speed in use, from its input (as the pump's w)")

-- 4. mass-flow source -> ConductionElement heated by a fixed temperature
-- through a conductor -> sink: T_out = (m cp T_in + G T_w) / (m cp + G)
m = steady(lied.model "Heated" {
  src = tf.MassFlowSource { m_flow = 0.05, T0 = 300 },
  ce = tf.ConductionElement { V = 1e-4, T0 = 300 },
  g = th.ThermalConductor { G = 100 }, wall = th.FixedTemperature { T = 400 },
  snk = tf.Sink {},
  connect = { { "src.outlet", "ce.inlet" }, { "ce.outlet", "snk.inlet" },
              { "wall.port", "g.port_a" }, { "ce.heatPort", "g.port_b" } },
}, 30)
local C = 0.05 * 4184
T.near(m:value("snk.T"), (C * 300 + 100 * 400) / (C + 100), 1e-7, "conduction element: steady T")
T.near(m:value("ce.Q"), C * (m:value("snk.T") - 300), 1e-5, "conduction element: Q = m cp dT")
T.near(m:value("wall.Q_flow"), m:value("ce.Q"), 1e-5, "the wall delivers the element's heat")

-- 5. a Reservoir closes a pumped loop: pressure at its outlet, temperature fixed
m = steady(lied.model "Loop" {
  res = tf.Reservoir { p0 = 1.5e5, T0 = 310, L = 1e3 },
  pump = tf.Pump { k_p = 4e7, V_r = 1e-4, omega = 100 },
  drop = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-3 },
  hs = tf.Heater { Q = 1000, V = 1e-4 },
  connect = { { "res.outlet", "pump.inlet" }, { "pump.outlet", "drop.inlet" },
              { "drop.outlet", "hs.inlet" }, { "hs.outlet", "res.inlet" } },
}, 100)
T.near(m:value("res.m_in"), m:value("res.m_flow"), 1e-9, "reservoir: inflow = outflow in the loop")
T.near(m:value("res.T_in") - 310, 1000 / (m:value("res.m_flow") * 4184), 1e-6,
  "reservoir: the heater's rise arrives, the outlet leaves at T0")
T.near(m:value("pump.dp"), m:value("drop.dp"), 1e-3, "pump head = drop")

T.done()
