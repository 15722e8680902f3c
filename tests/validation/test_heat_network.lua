-- Validation of the heat-port domain (lied.thermal, docs/thermal.md) against
-- analytic solutions: a capacitor held between two fixed temperatures and fed
-- by a prescribed heat flow approaches its steady temperature exponentially;
-- two capacitors joined by a conductor through a heat-flow sensor equalise
-- exponentially while their energy is conserved; radiation and convection
-- laws at the start; branch heat flows summed at a node.
local lied = require "lied"
local th = require "lied.thermal"
local S = require "lied.signals"
local T = require "tests.testing"

-- 1. C der(T) = G1 (Ta - T) + G2 (Tb - T) + Q: T(t) = Tinf + (T0 - Tinf) exp(-(G1 + G2) t / C)
do
  local C, G1, G2, Ta, Tb, Q, T0 = 1000, 10, 30, 300, 400, 500, 350
  local M = lied.model "Net" {
    amb = th.FixedTemperature { T = Ta },
    hot = th.FixedTemperature { T = Tb },
    c = th.HeatCapacitor { C = C, T = T0 },
    g1 = th.ThermalConductor { G = G1 },
    g2 = th.ThermalConductor { G = G2 },
    heater = th.PrescribedHeatFlow {},
    q = S.Constant { k = Q },
    sens = th.TemperatureSensor {},
    connect = { { "amb.port", "g1.port_a" }, { "c.port", "g1.port_b" },
                { "hot.port", "g2.port_a" }, { "c.port", "g2.port_b" },
                { "c.port", "heater.port" }, { "q.y", "heater.Q_flow_in" },
                { "c.port", "sens.port" } },
  }
  local sim = lied.simulate(M, { stop = 200, solver = "dopri45", tol = 1e-10, interval = 1,
    vars = "c.T,heater.Q_flow,sens.y,sens.T,amb.Q_flow,hot.Q_flow,g1.Q_flow,g2.Q_flow" })
  local res = sim:run()
  local t, Tc = T.column(res, "time"), T.column(res, "c.T")
  local Tinf = (G1 * Ta + G2 * Tb + Q) / (G1 + G2)
  local maxerr = 0
  for i = 1, #t do
    local ref = Tinf + (T0 - Tinf) * math.exp(-(G1 + G2) / C * t[i])
    maxerr = math.max(maxerr, math.abs(Tc[i] - ref) / math.abs(T0 - Tinf))
  end
  print(string.format("capacitor between two temperatures: max relative error %.3g", maxerr))
  T.check(maxerr < 1e-8, "exponential approach to 1e-8 (dopri45, tol 1e-10): " .. maxerr)
  local n = #t
  T.eq(T.column(res, "sens.y")[n], Tc[n], "temperature sensor output")
  T.eq(T.column(res, "sens.T")[n], Tc[n], "temperature sensor variable")
  T.eq(T.column(res, "heater.Q_flow")[n], Q, "prescribed heat flow recorded as heater.Q_flow")
  -- the boundaries deliver what the conductors carry; the node's balance closes
  local g1q, g2q = T.column(res, "g1.Q_flow")[n], T.column(res, "g2.Q_flow")[n]
  T.near(g1q, G1 * (Ta - Tc[n]), 1e-9, "g1: Q_flow = G (T_a - T_b)")
  T.eq(T.column(res, "amb.Q_flow")[n], g1q, "amb delivers g1's heat flow")
  T.eq(T.column(res, "hot.Q_flow")[n], g2q, "hot delivers g2's heat flow")
  T.near(g1q + g2q + Q, C * (Tinf - Tc[n]) * (G1 + G2) / C, 1e-6, "heat into the node = C der(T)")
end

-- 2. Two capacitors through a heat-flow sensor and a conductor: T1 - T2 decays
-- at G (1/C1 + 1/C2); C1 T1 + C2 T2 is conserved; the sensor reads G (T1 - T2).
do
  local C1, C2, G, T1, T2 = 500, 2000, 4, 380, 290
  local M = lied.model "Pair" {
    c1 = th.HeatCapacitor { C = C1, T = T1 },
    c2 = th.HeatCapacitor { C = C2, T = T2 },
    flow = th.HeatFlowSensor {},
    g = th.ThermalConductor { G = G },
    connect = { { "c1.port", "flow.port_a" }, { "flow.port_b", "g.port_a" },
                { "c2.port", "g.port_b" } },
  }
  local res = lied.simulate(M, { stop = 500, solver = "dopri45", tol = 1e-10, interval = 5,
    vars = "c1.T,c2.T,flow.y,flow.Q_flow" }):run()
  local t, a, b, q = T.column(res, "time"), T.column(res, "c1.T"), T.column(res, "c2.T"), T.column(res, "flow.y")
  local k, E0 = G * (1 / C1 + 1 / C2), C1 * T1 + C2 * T2
  local maxerr, maxE = 0, 0
  for i = 1, #t do
    local d = (T1 - T2) * math.exp(-k * t[i])
    maxerr = math.max(maxerr, math.abs((a[i] - b[i]) - d) / (T1 - T2))
    maxE = math.max(maxE, math.abs(C1 * a[i] + C2 * b[i] - E0) / E0)
    T.near(q[i], G * (a[i] - b[i]), 1e-9, "heat flow sensor reads G (T1 - T2)")
  end
  print(string.format("two capacitors: max relative error %.3g, energy %.3g", maxerr, maxE))
  T.check(maxerr < 1e-8, "exponential equalisation to 1e-8: " .. maxerr)
  T.check(maxE < 1e-12, "energy conserved: " .. maxE)
  T.eq(T.column(res, "flow.Q_flow")[#t], q[#t], "sensor variable = output")
end

-- 3. Radiation, convection (conductance from a signal) and a fixed heat flow
-- with a temperature coefficient: the derivatives at the start.
do
  local C, T0, Tw, Gr, sigma, Gc, Q, alpha = 800, 350, 300, 0.2, 5.670374419e-8, 12, 100, 0.01
  local M = lied.model "Laws" {
    c = th.HeatCapacitor { C = C, T = T0 },
    wall = th.FixedTemperature { T = Tw },
    rad = th.BodyRadiation { Gr = Gr },
    conv = th.Convection { Gc_from_input = 1 },
    gc = S.Constant { k = Gc },
    load = th.FixedHeatFlow { Q_flow = Q, alpha = alpha, T_ref = 300 },
    connect = { { "c.port", "rad.port_a" }, { "wall.port", "rad.port_b" },
                { "c.port", "conv.solid" }, { "wall.port", "conv.fluid" },
                { "gc.y", "conv.Gc_in" }, { "c.port", "load.port" } },
  }
  local b = lied.build(M)
  local d = b:derivatives()
  local want = (-Gr * sigma * (T0 ^ 4 - Tw ^ 4) - Gc * (T0 - Tw) + Q * (1 + alpha * (T0 - 300))) / C
  T.near(d["c.T"], want, 1e-12 * math.abs(want), "radiation + convection + heat flow")
  T.near(b:value("rad.Q_flow"), Gr * sigma * (T0 ^ 4 - Tw ^ 4), 1e-9, "radiation law")
  T.near(b:value("conv.Q_flow"), Gc * (T0 - Tw), 1e-12, "convection law, Gc from a signal")
  T.near(b:value("load.Q"), Q * (1 + alpha * (T0 - 300)), 1e-12, "fixed heat flow with alpha")
  T.near(b:value("wall.Q_flow"), -(b:value("rad.Q_flow") + b:value("conv.Q_flow")), 1e-9,
    "the wall receives what radiation and convection carry")
end

T.done()
