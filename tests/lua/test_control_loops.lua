-- Control loops through thermofluid streams (docs/thermofluid.md, "What the
-- blocks read and write"): each element writes its outlet's pressure in one
-- block and its flow and enthalpy in another, and every reader declares the
-- variables it reads, so the scheduler finds no algebraic loop where the
-- physics has none.
--   1. A liquid loop: a temperature sensor downstream of a heater feeds a PI
--      that sets a valve upstream (no filter): it builds, runs and settles
--      where the energy balance, worked out below by hand, puts it.
--   2. The same loop with water and steam (IF97), whose temperature depends
--      on the pressure the valve sets: a real algebraic loop, reported with
--      its members named.
--   3. Exchangers (discretised and effectiveness-NTU): the temperature of
--      one side's outlet feeds the controller of the other side's valve.
--   4. Undirected streams (lied.undirected): the outlet temperature of an
--      exchanger's side sets the valve upstream on the same side; with steam
--      the loop is algebraic and reported.
local lied = require "lied"
local tf = require "lied.thermofluid"
local th = require "lied.thermal"
local S = require "lied.signals"
local T = require "tests.testing"

local cp = 4184 -- the standard liquid's (tf.water): h = cp (T - T_ref)

-- 1. volume -> pump -> valve -> heater (Q) -> sensor -> cooler -> drop -> volume.
-- The cooler is a flowing cell losing heat through G to the ambient T_amb;
-- the PI opens the valve when the sensor reads above T_set.
local Q, G, T_amb, T_set = 2e4, 2000, 293.15, 313.15
local function LoopOf(medium, sensor)
  local M = { medium = medium }
  return lied.model "Loop" {
    vol = tf.Volume { V = 0.01, p0 = 2e5, T0 = 303.15, medium = medium },
    pump = tf.Pump { k_p = 2e7, V_r = 1e-4, omega = 2 * math.pi * 25, L = 1e4 }(M),
    valve = tf.Valve { Kv = 4, L = 1e4 }(M),
    heater = tf.Heater { Q = Q, V = 2e-3, T0 = 303.15, L = 1e3 }(M),
    ts = sensor(M),
    cooler = tf.ConductionElement { V = 2e-3, T0 = 303.15, L = 1e3 }(M),
    g = th.ThermalConductor { G = G },
    amb = th.FixedTemperature { T = T_amb },
    ret = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-3, L = 1e4 }(M),
    sp = S.Constant { k = T_set },
    err = S.Add { n = 2, k1 = 1, k2 = -1 }, -- T - T_set
    pi = S.PI { k = 0.05, Ti = 10, yMin = 0, yMax = 1 },
    connect = {
      { "vol.outlet", "pump.inlet" }, { "pump.outlet", "valve.inlet" },
      { "valve.outlet", "heater.inlet" }, { "heater.outlet", "ts.inlet" },
      { "ts.outlet", "cooler.inlet" }, { "cooler.outlet", "ret.inlet" }, { "ret.outlet", "vol.inlet" },
      { "cooler.heatPort", "g.port_a" }, { "g.port_b", "amb.port" },
      { "ts.y", "err.u1" }, { "sp.y", "err.u2" }, { "err.y", "pi.u" }, { "pi.y", "valve.opening" },
    },
  }
end
local Loop = LoopOf(tf.water, tf.TemperatureSensor)
-- At steady state the sensor reads T_set (the PI's integral), the cooler
-- gives Q back: m cp (T_set - T_c) = Q = G (T_c - T_amb), so the cooler's
-- and the volume's temperature is T_c = T_amb + Q/G and
-- m = Q / (cp (T_set - T_c)).
local T_c = T_amb + Q / G
local m_flow = Q / (cp * (T_set - T_c))
local ok, built = pcall(lied.build, Loop)
T.check(ok, "sensor -> PI -> valve on a liquid loop builds: " .. tostring(ok or built))
if ok then
  built:run { stop = 1500, solver = "dopri45", tol = 1e-9 }
  T.near(built:value("ts.y"), T_set, 1e-6, "liquid loop: the sensor settles at the set point")
  T.near(built:value("pump.m_flow"), m_flow, 1e-7 * m_flow, "liquid loop: m = Q/(cp (T_set - T_c))")
  T.near(built:value("cooler.T"), T_c, 1e-6, "liquid loop: the cooler at T_amb + Q/G")
  T.near(built:value("vol.T"), T_c, 1e-6, "liquid loop: the volume at T_amb + Q/G")
  local y = built:value("valve.y")
  T.check(y > 0.05 and y < 0.95, "liquid loop: the valve controls, not at a limit: " .. y)
end

-- 2. The same with water and steam: T(p, h) reads the pressure the valve
-- sets, so the loop is algebraic (pi -> valve's pressure -> ... -> sensor).
T.raises(function() lied.build(LoopOf(tf.steam, tf.TemperatureSensor)) end,
  { "algebraic loop without tearing", "pi (PI.", "valve (Valve.pressure)",
    "ts (TemperatureSensor.measure)", "err (Add.add)" },
  "steam loop: the pressure closes a real algebraic loop, its members named", "model")
-- an EnthalpySensor reads h alone: on it the steam loop has no algebraic loop
T.check(pcall(lied.build, LoopOf(tf.steam, tf.EnthalpySensor)), "steam loop on h builds")

-- A thermal TemperatureSensor on a ConductionElement's heat port: the cell's
-- T reads its h, and the pressure only where the medium's T depends on it.
local function CellLoop(medium)
  local M = { medium = medium }
  return lied.model "CellLoop" {
    src = tf.Source { p0 = 3e5, T0 = 330, L = 1e4 }(M),
    valve = tf.Valve { Kv = 4 }(M),
    cell = tf.ConductionElement { V = 1e-3, T0 = 330 }(M),
    g = th.ThermalConductor { G = 500 },
    amb = th.FixedTemperature { T = T_amb },
    sens = th.TemperatureSensor {},
    snk = tf.Sink { p0 = 1e5 }(M),
    pi = S.PI { k = 0.05, Ti = 10, yMin = 0, yMax = 1 },
    connect = {
      { "src.outlet", "valve.inlet" }, { "valve.outlet", "cell.inlet" }, { "cell.outlet", "snk.inlet" },
      { "cell.heatPort", "g.port_a" }, { "g.port_b", "amb.port" }, { "cell.heatPort", "sens.port" },
      { "sens.y", "pi.u" }, { "pi.y", "valve.opening" },
    },
  }
end
T.check(pcall(lied.build, CellLoop(tf.water)), "a heat port's temperature sets the valve upstream")
T.raises(function() lied.build(CellLoop(tf.steam)) end,
  { "algebraic loop without tearing", "valve (Valve.pressure)", "cell (ConductionElement." },
  "the same with steam: the cell's T reads the pressure", "model")

-- 3. Exchangers: a hot stream of fixed flow through side a, whose outlet
-- temperature the PI holds at T_set by opening the cold side's valve.
local m_a, T_a, T_b, T_x = 0.2, 353.15, 283.15, 333.15
local function Exchanger(hx)
  return lied.model "Exchanger" {
    hot = tf.MassFlowSource { m_flow = m_a, T0 = T_a, p0 = 2e5 },
    hx = hx,
    ts = tf.TemperatureSensor {},
    drop_a = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-3, L = 1e4 },
    sink_a = tf.Sink { p0 = 1e5 },
    cold = tf.Source { p0 = 2e5, T0 = T_b, L = 1e4 },
    valve = tf.Valve { Kv = 5, L = 1e4 },
    sink_b = tf.Sink { p0 = 1e5 },
    sp = S.Constant { k = T_x },
    err = S.Add { n = 2, k1 = 1, k2 = -1 },
    pi = S.PI { k = 0.005, Ti = 10, yMin = 0, yMax = 1 },
    connect = {
      { "hot.outlet", "hx.inlet_a" }, { "hx.outlet_a", "ts.inlet" },
      { "ts.outlet", "drop_a.inlet" }, { "drop_a.outlet", "sink_a.inlet" },
      { "cold.outlet", "valve.inlet" }, { "valve.outlet", "hx.inlet_b" },
      { "hx.outlet_b", "sink_b.inlet" },
      { "ts.y", "err.u1" }, { "sp.y", "err.u2" }, { "err.y", "pi.u" }, { "pi.y", "valve.opening" },
    },
  }
end
-- at steady state side a gives Q = m_a cp (T_a - T_x), which side b takes up:
-- m_b cp (T_b,out - T_b) = Q (no wall, no storage)
local Q_x = m_a * cp * (T_a - T_x)
for _, c in ipairs { "CounterFlowHX", "ParallelFlowHX", "CrossFlowHX", "CounterFlowNTU",
                     "ParallelFlowNTU", "CrossFlowNTU" } do
  local cells = c:find("NTU") == nil -- the discretised ones start at the inlets' temperatures
  local hx = tf[c] { UA = 4000 }
  if cells then hx = hx { T0_a = T_a, T0_b = T_b } end
  local ok2, m = pcall(lied.build, Exchanger(hx))
  T.check(ok2, c .. ": side a's outlet temperature controls side b's valve: builds: " ..
    tostring(ok2 or m))
  if ok2 then
    m:run { stop = 300, solver = "esdirk23", tol = 1e-6 } -- as close at 1e-8, 8 times the time
    T.near(m:value("ts.y"), T_x, 1e-5, c .. ": side a leaves at the set point")
    T.near(m:value("hx.Q_flow"), Q_x, 1e-5 * Q_x, c .. ": Q = m_a cp (T_a - T_set)")
    T.near(m:value("cold.m_flow") * cp * (m:value("hx.T_b") - T_b), Q_x, 1e-5 * Q_x,
      c .. ": side b takes Q up")
  end
end

-- 4. Undirected: a -> valve -> exchanger side a -> sensor -> drop -> a's end; a
-- cold stream through side b. The PI opens a's valve while a leaves below
-- T_set (more flow, less cooled). An element writes its pressures apart from
-- the enthalpy it carries, the exchanger's sides pass their pressures apart
-- from their cells' enthalpies.
local tfu = require "lied.undirected"
local T_u = 318.15
local function Undirected(medium)
  local M = { medium = medium }
  return lied.model "UndirectedLoop" {
    a = tfu.BoundaryRear { p0 = 2e5, T0 = T_a, L = 1e4 }(M),
    valve = tfu.Valve { Kv = 4 }(M),
    hx = tfu.CounterFlowHX { N = 10, UA = 1000, T0_a = T_a, T0_b = T_b, medium_a = medium,
                             medium_b = medium },
    ts = tfu.TemperatureSensor {}(M),
    drop_a = tfu.PressureDrop { dp_ref = 1e4, v_ref = 1e-3, L = 1e4 }(M),
    end_a = tfu.BoundaryFore { p0 = 1e5, T0 = T_b }(M),
    b = tfu.BoundaryRear { p0 = 1.5e5, T0 = T_b, L = 1e4 }(M),
    drop_b = tfu.PressureDrop { dp_ref = 1e4, v_ref = 1e-3 }(M),
    end_b = tfu.BoundaryFore { p0 = 1e5, T0 = T_b }(M),
    sp = S.Constant { k = T_u },
    err = S.Add { n = 2, k1 = -1, k2 = 1 }, -- T_set - T
    pi = S.PI { k = 0.02, Ti = 10, yMin = 0, yMax = 1 },
    connect = {
      { "a.fore", "valve.rear" }, { "valve.fore", "hx.rear_a" }, { "hx.fore_a", "ts.rear" },
      { "ts.fore", "drop_a.rear" }, { "drop_a.fore", "end_a.rear" },
      { "b.fore", "hx.rear_b" }, { "hx.fore_b", "drop_b.rear" }, { "drop_b.fore", "end_b.rear" },
      { "ts.y", "err.u1" }, { "sp.y", "err.u2" }, { "err.y", "pi.u" }, { "pi.y", "valve.opening" },
    },
  }
end
local oku, mu = pcall(lied.build, Undirected(tfu.water))
T.check(oku, "undirected: side a's outlet temperature sets side a's valve: builds: " ..
  tostring(oku or mu))
if oku then
  mu:run { stop = 300, solver = "esdirk23", tol = 1e-6 }
  T.near(mu:value("ts.y"), T_u, 1e-5, "undirected: side a leaves at the set point")
  local ma, mb = mu:value("valve.m_flow"), mu:value("drop_b.m_flow")
  local Qu = ma * cp * (T_a - T_u)
  T.near(mu:value("hx.Q_flow"), Qu, 1e-5 * Qu, "undirected: Q = m_a cp (T_a - T_set)")
  T.near(mb * cp * (mu:value("hx.T_b") - T_b), Qu, 1e-5 * Qu, "undirected: side b takes Q up")
  local y = mu:value("valve.y")
  T.check(y > 0.05 and y < 0.95, "undirected: the valve controls, not at a limit: " .. y)
end
T.raises(function() lied.build(Undirected(tfu.steam)) end,
  { "algebraic loop without tearing", "valve (Valve.forwards)", "hx (CounterFlowHX.pressure_a)",
    "ts (TemperatureSensor.measure)" },
  "undirected with steam: the sensor's T reads the pressure the valve sets", "model")

T.done()
