-- bench/rhx_lanes.lua [COPIES] [REPEAT] - an array of independent evaporators
-- (TwoPhaseCrossFlowHX, 10 cells of R134a boiling and superheating against air, as in
-- tests/lua/test_rhx.lua) in lane form against copy by copy: fixed-step RK4 (fused steps),
-- one thread, nothing recorded; prints each run's CPU time and the ns per cell-evaluation
-- (CPU time / derivative evaluations / copies / cells), and the medians.
--   build/lied bench/rhx_lanes.lua 1000 3
local lied = require "lied"
local tf = require "lied.thermofluid"
local R = tf.R134a
local n = tonumber(arg and arg[1]) or 1000
local repeat_n = tonumber(arg and arg[2]) or 3
local N, stop, dt = 10, 2, 0.01

local Ev = lied.model "Ev" {
  parameters = { m_air = 0.3 },
  src = tf.MassFlowSource { m_flow = 0.02, T0 = 300, p0 = 1e6, medium = R },
  hx = tf.TwoPhaseCrossFlowHX { N = N, V_a = 2e-3, p0_a = 3e5, x0_a = 0.3, A_a = 2, UA_b = 800, C_w = 2000,
                                medium_b = tf.air, L = 1e5, m_flow = 0.02 },
  snk = tf.Sink { p0 = 3e5, medium = R },
  air = tf.MassFlowSource { m_flow = lied.param "m_air", T0 = 300, p0 = 1e5, medium = tf.air },
  out = tf.Sink { p0 = 1e5, medium = tf.air },
  connect = { { "src.outlet", "hx.inlet_a" }, { "hx.outlet_a", "snk.inlet" },
              { "air.outlet", "hx.inlet_b" }, { "hx.outlet_b", "out.inlet" } },
}
local Evs = lied.model "Evs" { e = lied.array(Ev, n, { m_air = function(i) return 0.1 + 0.4 * (i % 17) / 17 end }) }
local built = lied.build(Evs)
assert(built:info().lanes, "the evaporators do not run in lane form")

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local median = dofile(here .. "/realtime.lua").median
print(string.format("%d evaporators of %d cells, RK4 dt = %g s to %g s, one thread, nothing recorded", n, N, dt, stop))
print(string.format("%-8s %4s %10s %12s %16s", "form", "run", "cpu [s]", "evaluations", "ns/cell-eval"))
local med = {}
for _, lanes in ipairs { true, false } do
  local ns = {}
  for i = 1, repeat_n do
    local c0 = os.clock()
    local _, st = built:run { stop = stop, solver = "rk4", dt = dt, out = "none", threads = 1, lanes = lanes }
    local cpu = os.clock() - c0
    ns[i] = cpu / st.rhs / n / N * 1e9
    print(string.format("%-8s %4d %10.3f %12d %16.1f", lanes and "lanes" or "copies", i, cpu, st.rhs, ns[i]))
  end
  med[lanes] = median(ns)
  print(string.format("%-8s %4s %10s %12s %16.1f", lanes and "lanes" or "copies", "med", "", "", med[lanes]))
end
print(string.format("copy by copy / lanes: %.2f", med[false] / med[true]))
