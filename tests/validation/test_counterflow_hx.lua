-- Validation of the heat exchangers (examples/counterflow_hx.lua, docs/
-- thermofluid.md "Heat exchangers") against the effectiveness-NTU solution:
--   counter flow   eps = (1 - exp(-NTU (1 - Cr))) / (1 - Cr exp(-NTU (1 - Cr)))
--   parallel flow  eps = (1 - exp(-NTU (1 + Cr))) / (1 + Cr)
--   cross flow, both unmixed: the exact series below
-- with NTU = UA/C_min, Cr = C_min/C_max, C = m cp. At steady state the
-- discretised exchanger's effectiveness approaches eps as N grows (first
-- order in 1/N: every cell is a well-mixed volume), is within 0.5% at
-- N = 200, and both streams carry the same heat flow.
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"

local HX = dofile("examples/counterflow_hx.lua")
local cp, Thi, Tci, mh, mc, UA = 4184, 353.15, 293.15, 0.1, 0.15, 2000
local Ch, Cc = mh * cp, mc * cp
local Cmin, Cmax = math.min(Ch, Cc), math.max(Ch, Cc)
local NTU, Cr = UA / Cmin, Cmin / Cmax
local e = math.exp(-NTU * (1 - Cr))
local eps_counter = (1 - e) / (1 - Cr * e)
local eps_parallel = (1 - math.exp(-NTU * (1 + Cr))) / (1 + Cr)

-- steady state of model `M` with N cells: effectiveness and the heat flows
local function steady(M, N, stop)
  local sim = lied.simulate(M, { set = { N = N }, interval = 10, vars = "hot_out.T,cold_out.T",
    stop = stop })
  local res = sim:run()
  local n = res:nrows()
  local Th, Tc = T.column(res, "hot_out.T")[n], T.column(res, "cold_out.T")[n]
  local Qh, Qc = Ch * (Thi - Th), Cc * (Tc - Tci)
  -- steady: the last two outputs agree
  T.near(T.column(res, "hot_out.T")[n - 1], Th, 1e-6, "steady at N = " .. N)
  return Qh / (Cmin * (Thi - Tci)), Qh, Qc, sim.model:value("hx.Q_flow")
end

local last = math.huge
for _, N in ipairs { 10, 25, 50, 100, 200 } do
  local eps, Qh, Qc, Qx = steady(HX, N)
  local err = math.abs(eps - eps_counter) / eps_counter
  print(string.format("counter flow N = %3d: eps = %.6f (NTU solution %.6f), relative error %.3e, " ..
    "Q_hot = %.4f W, Q_cold = %.4f W (rel. diff %.1e)", N, eps, eps_counter, err, Qh, Qc,
    math.abs(Qh - Qc) / Qh))
  T.check(err < last, "the error falls as N grows (N = " .. N .. ")")
  last = err
  T.check(math.abs(Qh - Qc) <= 1e-6 * Qh, "both sides' heat flows agree to 1e-6 at N = " .. N)
  T.check(math.abs(Qx - Qh) <= 1e-6 * Qh, "the exchanger's Q_flow is the stream's at N = " .. N)
  if N == 200 then T.check(err < 5e-3, "below 0.5% at N = 200: " .. err) end
  if N == 50 then T.check(err < 1.5e-2, "below 1.5% at N = 50: " .. err) end
end

-- parallel flow: the same model with the other exchanger
local Parallel = lied.model "Parallel" {
  parameters = { N = 50 },
  hot_in = tf.MassFlowSource { m_flow = mh, T0 = Thi },
  cold_in = tf.MassFlowSource { m_flow = mc, T0 = Tci },
  hx = tf.ParallelFlowHX { UA = UA, N = lied.param "N", T0_a = Tci, T0_b = Tci },
  hot_out = tf.Sink {}, cold_out = tf.Sink {},
  connect = { { "hot_in.outlet", "hx.inlet_a" }, { "hx.outlet_a", "hot_out.inlet" },
              { "cold_in.outlet", "hx.inlet_b" }, { "hx.outlet_b", "cold_out.inlet" } },
  experiment = { stop = 300, solver = "dopri45", tol = 1e-8 },
}
last = math.huge
for _, N in ipairs { 10, 50, 200 } do
  local eps, Qh, Qc = steady(Parallel, N)
  local err = math.abs(eps - eps_parallel) / eps_parallel
  print(string.format("parallel flow N = %3d: eps = %.6f (NTU solution %.6f), relative error %.3e",
    N, eps, eps_parallel, err))
  T.check(err < last, "parallel: the error falls as N grows (N = " .. N .. ")")
  last = err
  T.check(math.abs(Qh - Qc) <= 1e-6 * Qh, "parallel: heat flows agree at N = " .. N)
  if N == 200 then T.check(err < 5e-3, "parallel: below 0.5% at N = 200: " .. err) end
end

-- cross flow, both streams unmixed, against the exact series solution
-- (Mason 1954): eps = 1/(Cr NTU) sum_n (1 - P(n, NTU)) (1 - P(n, Cr NTU)),
-- P(n, x) = exp(-x) sum_{m <= n} x^m/m!, the Poisson distribution function
local function poisson(x, n)
  local s, term = 0, 1
  for m = 0, n do
    if m > 0 then term = term * x / m end
    s = s + term
  end
  return math.exp(-x) * s
end
local eps_cross = 0
for n = 0, 200 do eps_cross = eps_cross + (1 - poisson(NTU, n)) * (1 - poisson(Cr * NTU, n)) end
eps_cross = eps_cross / (Cr * NTU)
local Cross = lied.model "Cross" {
  parameters = { N = 5 },
  hot_in = tf.MassFlowSource { m_flow = mh, T0 = Thi },
  cold_in = tf.MassFlowSource { m_flow = mc, T0 = Tci },
  hx = tf.CrossFlowHX { UA = UA, N = lied.param "N", T0_a = Tci, T0_b = Tci },
  hot_out = tf.Sink {}, cold_out = tf.Sink {},
  connect = { { "hot_in.outlet", "hx.inlet_a" }, { "hx.outlet_a", "hot_out.inlet" },
              { "cold_in.outlet", "hx.inlet_b" }, { "hx.outlet_b", "cold_out.inlet" } },
  experiment = { stop = 300, solver = "dopri45", tol = 1e-8 },
}
last = math.huge
for _, N in ipairs { 2, 4, 8, 16, 22 } do
  local eps, Qh, Qc = steady(Cross, N)
  local err = math.abs(eps - eps_cross) / eps_cross
  print(string.format("cross flow N = %2d (%3d elements): eps = %.6f (exact %.6f), relative error %.3e",
    N, N * N, eps, eps_cross, err))
  T.check(err < last, "cross: the error falls as N grows (N = " .. N .. ")")
  last = err
  T.check(math.abs(Qh - Qc) <= 1e-6 * Qh, "cross: heat flows agree at N = " .. N)
  if N == 22 then T.check(err < 0.035, "cross: below 3.5% at N = 22: " .. err) end
end
-- the series against the usual approximation (within 0.5%)
local approx = 1 - math.exp(NTU ^ 0.22 / Cr * (math.exp(-Cr * NTU ^ 0.78) - 1))
T.near(eps_cross, approx, 5e-3, "exact cross-flow series vs the usual approximation")

-- a wall heat capacity changes the transient, not the steady state
do
  local eps0, Qh0 = steady(HX, 50)
  local Wall = HX { hx = { C_w = 2e4 } }
  local eps, Qh, Qc = steady(Wall, 50, 1500)
  T.near(eps, eps0, 1e-6 * eps0, "wall: the same steady effectiveness")
  T.check(math.abs(Qh - Qc) <= 1e-6 * Qh, "wall: heat flows agree at steady state")
  -- the wall's balance at the start: (C_w/N) der(T_w) = 2G (T_a - T_w) - 2G (T_w - T_b)
  for _, cls in ipairs { "CounterFlowHX", "ParallelFlowHX", "CrossFlowHX" } do
    local b = lied.build(lied.model "W" {
      a = tf.MassFlowSource { m_flow = 0 }, c = tf.MassFlowSource { m_flow = 0 },
      x = tf[cls] { N = 2, UA = 400, C_w = 1000, T0_a = 350, T0_b = 300, T0_w = 320 },
      ka = tf.Sink {}, kb = tf.Sink {},
      connect = { { "a.outlet", "x.inlet_a" }, { "x.outlet_a", "ka.inlet" },
                  { "c.outlet", "x.inlet_b" }, { "x.outlet_b", "kb.inlet" } } })
    local d = b:derivatives()
    local n = cls == "CrossFlowHX" and 4 or 2
    local G = 400 / n
    T.near(d["x.T_w[1]"], (2 * G * 30 - 2 * G * 20) / (1000 / n), 1e-9, cls .. ": wall balance")
    T.near(b:value("x.Q_flow"), n * 2 * G * 30, 1e-6, cls .. ": heat out of a into the wall")
    T.near(b:value("x.Q_b"), n * 2 * G * 20, 1e-6, cls .. ": heat from the wall into b")
  end
end

-- the exchanger is symmetric: swapping the streams gives the same heat flow
local sim = lied.simulate(lied.model "Swapped" {
  hot_in = tf.MassFlowSource { m_flow = mh, T0 = Thi },
  cold_in = tf.MassFlowSource { m_flow = mc, T0 = Tci },
  hx = tf.CounterFlowHX { UA = UA, N = 50, T0_a = Tci, T0_b = Tci },
  hot_out = tf.Sink {}, cold_out = tf.Sink {},
  connect = { { "hot_in.outlet", "hx.inlet_b" }, { "hx.outlet_b", "hot_out.inlet" },
              { "cold_in.outlet", "hx.inlet_a" }, { "hx.outlet_a", "cold_out.inlet" } },
  experiment = { stop = 300, solver = "dopri45", tol = 1e-8 },
})
sim:run()
local _, Qh50 = steady(HX, 50)
T.near(-sim.model:value("hx.Q_flow"), Qh50, 1e-5 * Qh50, "streams swapped: the same heat flow")

T.done()
