-- Structural and parameter errors of the heat-port domain (lied.thermal) and
-- of the thermofluid heat-transfer components, valves and sensors: each is
-- refused when the model is built, with the ports or the component's path.
local lied = require "lied"
local th = require "lied.thermal"
local tf = require "lied.thermofluid"
local S = require "lied.signals"
local T = require "tests.testing"

local function fails(def, pats, what)
  T.raises(function() return lied.build(lied.model "Top"(def)) end, pats, what, "model")
end
local function builds(def, what)
  local ok, err = pcall(lied.build, lied.model "Top"(def))
  T.check(ok, what .. (ok and "" or (": " .. tostring(err))))
end

-- unconnected heat ports: a branch must be connected, a node may stay alone
fails({ c = th.HeatCapacitor {}, g = th.ThermalConductor {}, connect = { { "c.port", "g.port_a" } } },
  { "unconnected branch: g.port_b (every heat branch needs a connection)" }, "unconnected conductor end")
fails({ s = th.TemperatureSensor {} }, { "unconnected branch: s.port" }, "unconnected sensor")
fails({ q = th.FixedHeatFlow {} }, { "unconnected branch: q.port" }, "unconnected heat flow")
fails({ w = th.Convection {}, c = th.HeatCapacitor {}, connect = { { "c.port", "w.solid" } } },
  { "unconnected branch: w.fluid" }, "unconnected convection fluid side")
fails({ s = th.HeatFlowSensor {}, g = th.ThermalConductor {}, c = th.HeatCapacitor {},
        connect = { { "s.port_b", "g.port_a" }, { "c.port", "g.port_b" } } },
  { "unconnected branch: s.port_a" }, "unconnected heat flow sensor")
builds({ c = th.HeatCapacitor {} }, "an insulated capacitor (node without branches)")
builds({ a = tf.MassFlowSource {}, x = tf.ConductionElement {}, b = tf.Sink {},
         connect = { { "a.outlet", "x.inlet" }, { "x.outlet", "b.inlet" } } },
  "a ConductionElement with its heat port free (adiabatic)")

-- node to node, branch to branch (two conductors need a capacitor between them)
fails({ c = th.HeatCapacitor {}, d = th.FixedTemperature {}, connect = { { "c.port", "d.port" } } },
  { "cannot connect c.port to d.port: both are node ports of heat (connect node to branch)" },
  "two nodes")
fails({ g = th.ThermalConductor {}, h = th.ThermalConductor {}, connect = { { "g.port_b", "h.port_a" } } },
  { "cannot connect g.port_b to h.port_a: both are branch ports of heat" }, "two branches")

-- signal type mismatches: heat ports connect only to heat ports
fails({ q = S.Constant {}, c = th.HeatCapacitor {}, connect = { { "c.port", "q.y" } } },
  { "incompatible ports: c.port is heat, q.y is real; heat ports connect only to heat ports" },
  "heat port to a signal output")
fails({ q = S.Constant {}, c = th.HeatCapacitor {}, connect = { { "q.y", "c.port" } } },
  { "incompatible ports: q.y is real, c.port is heat; real signal ports connect only to real signal ports" },
  "signal output to a heat port")
fails({ a = tf.ConductionElement {}, g = S.Gain {}, connect = { { "a.heatPort", "g.u" } } },
  { "incompatible ports: a.heatPort is heat, g.u is real" }, "heat port to a signal input")
fails({ s = tf.Source {}, c = th.HeatCapacitor {}, connect = { { "c.port", "s.outlet" } } },
  { "incompatible ports: c.port is heat, s.outlet is thermofluid" }, "heat port to a stream")
fails({ t = th.TemperatureSensor {}, c = th.HeatCapacitor {}, f = th.FixedTemperature {},
        connect = { { "c.port", "t.port" }, { "t.y", "f.port" } } },
  { "incompatible ports: t.y is real, f.port is heat" }, "sensor output to a heat port")

-- a loop of heat-flow sensors has no temperature
fails({ s = th.HeatFlowSensor {}, s2 = th.HeatFlowSensor {},
        connect = { { "s.port_b", "s2.port_a" }, { "s2.port_b", "s.port_a" } } },
  { "heat-port loop without a temperature node: ", "s2 -> s -> s2" }, "heat-flow sensor loop")

-- signal inputs switched on and left unconnected
fails({ c = th.HeatCapacitor {}, h = th.PrescribedHeatFlow {}, connect = { { "c.port", "h.port" } } },
  { "unconnected input: h.Q_flow_in" }, "prescribed heat flow without a signal")
fails({ p = th.PrescribedTemperature {}, g = th.ThermalConductor {}, c = th.HeatCapacitor {},
        connect = { { "p.port", "g.port_a" }, { "c.port", "g.port_b" } } },
  { "unconnected input: p.T_in" }, "prescribed temperature without a signal")
fails({ c = th.HeatCapacitor {}, d = th.HeatCapacitor {}, w = th.Convection { Gc_from_input = 1 },
        connect = { { "c.port", "w.solid" }, { "d.port", "w.fluid" } } },
  { "unconnected input: w.Gc_in" }, "convection without its conductance")
local line = { { "a.outlet", "x.inlet" }, { "x.outlet", "b.inlet" } }
fails({ a = tf.Source {}, x = tf.Valve {}, b = tf.Sink {}, connect = line },
  { "unconnected input: x.opening" }, "valve without an opening")
fails({ a = tf.MassFlowSource { m_flow_from_input = 1 }, b = tf.Sink {},
        connect = { { "a.outlet", "b.inlet" } } },
  { "unconnected input: a.m_flow_in" }, "mass-flow source without its signal")
fails({ a = tf.Source { medium = tf.air }, x = tf.Fan { omega_from_input = 1, medium = tf.air }, b = tf.Sink { medium = tf.air },
        connect = line }, { "unconnected input: x.omega_in" }, "fan without its speed")
fails({ a = tf.Source {}, x = tf.CounterFlowHX { UA_from_input = 1 }, b = tf.Sink {},
        c = tf.Source {}, d = tf.Sink {},
        connect = { { "a.outlet", "x.inlet_a" }, { "x.outlet_a", "b.inlet" },
                    { "c.outlet", "x.inlet_b" }, { "x.outlet_b", "d.inlet" } } },
  { "unconnected input: x.UA_in" }, "exchanger without its UA signal")
fails({ a = tf.Source {}, x = tf.CounterFlowHX {}, b = tf.Sink {},
        connect = { { "a.outlet", "x.inlet_a" }, { "x.outlet_a", "b.inlet" } } },
  { "unconnected inlet: x.inlet_b" }, "exchanger with one stream")

-- parameter ranges
fails({ c = th.HeatCapacitor { C = 0 } }, { "c: parameter C = 0 [J/K] must be > 0" }, "C = 0")
fails({ c = th.ThermalConductor { G = -1 } }, { "c: parameter G = -1 [W/K] must be >= 0" }, "G < 0")
fails({ c = th.FixedTemperature { T = 0 } }, { "c: parameter T = 0 [K] must be > 0" }, "T = 0")
fails({ r = th.BodyRadiation { sigma = 0 } }, { "r: parameter sigma = 0" }, "sigma = 0")
fails({ x = tf.CounterFlowHX { N = 0 } }, { "x: parameter N = 0 [1] must be >= 1 and <= 500" }, "N = 0")
fails({ x = tf.ParallelFlowHX { N = 501 } }, { "x: parameter N = 501 [1] must be >= 1 and <= 500" },
  "N = 501")
fails({ x = tf.CrossFlowHX { N = 23 } }, { "x: parameter N = 23 [1] must be >= 1 and <= 22" },
  "cross-flow grid too fine")
fails({ x = tf.CounterFlowHX { V_a = 0 } }, { "x: parameter V_a = 0 [m3] must be > 0" }, "V_a = 0")
fails({ x = tf.CounterFlowHX { medium_b = { 7, 0, 0, 0, 0, 0 } } }, { "x: medium kind 7 is unknown" },
  "exchanger medium")
fails({ x = tf.ConductionElement { V = 0 } }, { "x: parameter V = 0 [m3] must be > 0" }, "element V = 0")
fails({ v = tf.Valve { characteristic = 3 } }, { "v: parameter characteristic = 3 [1] must be >= 1 and <= 2" },
  "valve characteristic")
fails({ v = tf.Valve { leakage = 0 } }, { "v: parameter leakage = 0 [1] must be > 0" }, "valve leakage 0")
fails({ v = tf.Valve { R = 1 } }, { "v: parameter R = 1 [1] must be > 1" }, "rangeability 1")
fails({ v = tf.CheckValve { m_flow_small = 0 } }, { "v: parameter m_flow_small = 0" }, "check valve width")
fails({ v = tf.Fan { V_flow_max = 0 } }, { "v: parameter V_flow_max = 0 [m3/s] must be > 0" }, "fan")
fails({ v = tf.Fan { medium = { 2, 300, 200, 0, 0, 0 } } }, { "v: medium: gas cp = 200 must be > R = 300" },
  "fan medium")

-- temperatures at or below 0 K during a run (the third attack round): a capacitor drained of
-- more heat than it holds ran on to -406 K and a prescribed temperature of -100 K was taken,
-- both with exit 0. Now a fault names the component and the time. 10 J/K at 300 K losing
-- 100 W reaches 0 K at t = 30 s.
local run_err = T.run_fails
local Drain = lied.model "Drain" {
  c = th.HeatCapacitor { C = 10, T = 300 }, q = th.FixedHeatFlow { Q_flow = -100 },
  r = th.BodyRadiation { Gr = 1e-3 }, amb = th.FixedTemperature { T = 1 },
  connect = { { "c.port", "q.port" }, { "c.port", "r.port_a" }, { "amb.port", "r.port_b" } } }
for _, solver in ipairs { "rk4", "dopri45", "cvode" } do
  local err = run_err(Drain, { stop = 100, solver = solver, out = "none" })
  T.check(err:find("c: the temperature T = ", 1, true)
    and err:find("K fell to 0 K or below (more heat was drawn than the capacitor holds)", 1, true),
    solver .. ": a capacitor drained below 0 K: " .. err)
  local t = tonumber(err:match("at t = ([%d%.e+-]+): c: the temperature"))
  T.check(t and t > 29.9 and t < 30.1, solver .. ": stops where T reaches 0 K (t = 30 s): " .. err)
end
do -- 40 copies in lane forms: copy 33 loses 200 W, reaching 0 K at 15 s
  local err = run_err(lied.model "Drains" { d = lied.array(Drain, 40,
    { ["q.Q_flow"] = function(i) return i == 33 and -200 or -100 end }) },
    { stop = 100, solver = "rk4", out = "none" })
  T.check(err:find("d[33].c: the temperature T = ", 1, true), "lanes: the copy named: " .. err)
end
for _, k in ipairs { -100, 0 } do
  local err = run_err(lied.model "P" { s = S.Constant { k = k }, p = th.PrescribedTemperature {},
      c = th.HeatCapacitor {}, g = th.ThermalConductor {},
      connect = { { "s.y", "p.T_in" }, { "p.port", "g.port_a" }, { "c.port", "g.port_b" } } },
    { stop = 1, out = "none" })
  T.check(err:find(string.format("at t = 0: p: T_in = %g K from the signal input: an absolute "
    .. "temperature must be > 0 K", k), 1, true), "a prescribed temperature of " .. k .. " K: " .. err)
end
do -- a prescribed temperature falling through 0 K (300 - 100 t), 40 copies: lane forms
  local P = lied.model "P" { s = S.Ramp { offset = 300, height = -400, duration = 4 },
    p = th.PrescribedTemperature {}, c = th.HeatCapacitor {}, g = th.ThermalConductor {},
    connect = { { "s.y", "p.T_in" }, { "p.port", "g.port_a" }, { "c.port", "g.port_b" } } }
  local err = run_err(lied.model "Ps" { p = lied.array(P, 40) }, { stop = 10, dt = 0.01, out = "none" })
  local t = tonumber(err:match("at t = ([%d%.e+-]+): p%[1%]%.p: T_in = "))
  T.check(t and t > 2.9 and t <= 3.01, "a ramp through 0 K, the first copy named at t = 3: " .. err)
end

T.done()
