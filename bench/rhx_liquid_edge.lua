-- bench/rhx_liquid_edge.lua [CLASS] [DX_EDGE] - a two-phase exchanger's cells cooled
-- through the dome's liquid edge (docs/events.md, "Kinks": "The liquid edge
-- of the two-phase exchangers"): test_kinks_refrig.lua's exchanger (2 cells
-- of R134a, the inflow m_i + A sin t reversing, a linear drop to a sink,
-- stream b of water reversing) at 1 MPa (Tsat 312.5 K), started at quality
-- 0.03, fed with liquid at 300 K and cooled by water at 290 K: both cells
-- reach the liquid edge near 2.5 s and 3.3 s. Prints R134a's compressibility
-- on both sides of the edge, then per solver and tolerance the steps,
-- kinks, restarts and the states at 10 s (they disagree: the run depends on
-- how the solver meets the edge, unless DX_EDGE > 0: the exchanger's dx_edge,
-- its compressibility blended over that much quality inside the dome).
--   build/lied bench/rhx_liquid_edge.lua [TwoPhaseCounterFlowHX] [0.01]
local lied = require "lied"
local S = require "lied.signals"
local tf = require "lied.thermofluid"
local cls = arg and arg[1] or "TwoPhaseCounterFlowHX"
local dx_edge = tonumber(arg and arg[2]) or 0
local R = tf.R134a
local p0, mi0, Ai, T_src, Ab, Tb, k1 = 1e6, 0.005, 0.01, 300, 0.05, 290, 1e6

local hl = R:h_liq(p0)
for _, d in ipairs { -1, 1 } do
  local st = R:state_ph(p0, hl + d)
  print(string.format("R134a at %g Pa, h = h' %+g J/kg: drho/dp %.4g s2/m2, drho/dh %.4g kg2/(m3 J)", p0, d,
    st.drho_dp, st.drho_dh))
end

local M = lied.model "Edge" {
  mi = S.Sine { offset = mi0, amplitude = Ai, w = 1 },
  src = tf.MassFlowSource { m_flow_from_input = 1, T0 = T_src, p0 = p0, medium = R },
  hx = tf[cls] { N = 2, V_a = 3e-4, A_a = 1, UA_b = 60, C_w = 600, tau_p = 0.1, L = 1e5,
                 alpha_liq = 1500, alpha_2ph = 3000, alpha_vap = 800, dx = 0.05, p0_a = p0, x0_a = 0.03,
                 m_flow = mi0, dx_edge = dx_edge },
  d = tf.LinearQuadraticDrop { k1 = k1, k2 = 0, medium = R },
  snk = tf.Sink { p0 = p0 - k1 * mi0, medium = R },
  mw = S.Sine { amplitude = Ab, w = 0.7, phase = 0.5 },
  w = tf.MassFlowSource { m_flow_from_input = 1, T0 = Tb, p0 = 2e5 },
  ws = tf.Sink { p0 = 2e5 },
  connect = { { "mi.y", "src.m_flow_in" }, { "src.outlet", "hx.inlet_a" }, { "hx.outlet_a", "d.inlet" },
              { "d.outlet", "snk.inlet" }, { "mw.y", "w.m_flow_in" }, { "w.outlet", "hx.inlet_b" },
              { "hx.outlet_b", "ws.inlet" } },
}
local built = lied.build(M)
print(string.format("%-9s %-6s %8s %6s %6s %9s %12s %10s %10s  %s", "solver", "tol", "steps", "kinks",
  "restarts", "cpu s", "p(10) Pa", "x1(10)", "x2(10)", "message"))
for _, sv in ipairs { "dopri45", "esdirk23", "cvode" } do
  for _, tol in ipairs { 1e-5, 1e-7, 1e-9 } do
    if not (sv == "esdirk23" and tol < 1e-7) then -- (esdirk23 at 1e-9: millions of steps)
      local c0 = os.clock()
      local res, st, msg = built:run { solver = sv, tol = tol, stop = 10, interval = 0.1, vars = "hx.p,hx.x[1],hx.x[2]" }
      local n = res:nrows()
      print(string.format("%-9s %-6g %8d %6d %6d %9.2f %12.6g %10.4g %10.4g  %s", sv, tol, st.steps, st.kinks,
        st.restarts, os.clock() - c0, res:column("hx.p")[n], res:column("hx.x[1]")[n], res:column("hx.x[2]")[n],
        msg or ""))
    end
  end
end
