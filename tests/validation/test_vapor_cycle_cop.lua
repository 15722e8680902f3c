-- test_vapor_cycle_cop.lua: at a steady state of examples/vapor_cycle.lua (its steps
-- moved past the run), the cycle computed by hand from the equation of state itself
-- (tf.R134a:eos_pT, eos_ph: Tillner-Roth and Baehr's Helmholtz equation, no table) at the
-- simulated pressures, superheat, compressor speed and the compressor's efficiencies:
--   1 suction: T1 = Tsat(p_e) + superheat, h1, s1, rho1 at (p_e, T1)
--   2 discharge: h2s = h(p_2, s1), h2 = h1 + (h2s - h1)/eta_s
--   3 receiver outlet: saturated liquid at p_r (h' from the equation's two-phase states)
--   4 valve outlet: h4 = h3
--   m = eta_v V_d w/(2 pi) rho1 - (p_2 - p_e) rho1/k  (the compressor's flow characteristic)
--   capacity = m (h1 - h4), power = m (h2 - h1), COP = (h1 - h4)/(h2 - h1)
-- against the simulated evaporator heat, compressor power and their ratio, to 1e-4.
local T = require "tests.testing"
local lied = require "lied"
local tf = require "lied.thermofluid"
local R = tf.R134a
local VC = dofile("examples/vapor_cycle.lua")
local eta_s, eta_v, Vd, k = 0.75, 0.9, 1e-4, 1e11 -- the example's compressor

local vars = "evap.p,comp.outlet.p,rcv.p,sh.superheat,sc.subcooling,comp.w,comp.P,comp.m_flow,evap.Q_flow,rcv.level"
local res = lied.simulate(VC, { set = { t_air = 1e9, t_set = 1e9, t_flow = 1e9 }, stop = 3000, tol = 1e-8,
  interval = 1500, vars = vars }):run()
local n = res:nrows()
local function v(name) return res:column(name)[n] end
local pe, p2, pr, SH, w = v("evap.p"), v("comp.outlet.p"), v("rcv.p"), v("sh.superheat"), v("comp.w")
T.check(v("rcv.level") > 0.05, "the receiver holds liquid: saturated liquid leaves it")

-- saturation from the equation: two states inside the dome give T = Tsat and, x being
-- linear in h there, h' = h_a - x_a (h_b - h_a)/(x_b - x_a)
local function sat(p)
  local ha, hb = R:h_liq(p) + 2e4, R:h_vap(p) - 2e4
  local a, b = R:eos_ph(p, ha), R:eos_ph(p, hb)
  T.check(a.x > 0 and b.x < 1, "two-phase states at p = " .. p)
  return a.T, ha - a.x * (hb - ha) / (b.x - a.x)
end
-- T at (p, s) on the equation by bisection (single phase, s rising with T)
local function T_ps(p, s, lo, hi)
  for _ = 1, 200 do
    local mid = 0.5 * (lo + hi)
    if R:eos_pT(p, mid).s < s then lo = mid else hi = mid end
  end
  return 0.5 * (lo + hi)
end

local Tsat_e = sat(pe)
local st1 = R:eos_pT(pe, Tsat_e + SH)
local h1, s1, rho1 = st1.h, st1.s, st1.rho
local Tsat_c = sat(p2)
local T2s = T_ps(p2, s1, Tsat_c + 0.01, 450)
local h2s = R:eos_pT(p2, T2s).h
local h2 = h1 + (h2s - h1) / eta_s
local _, h3 = sat(pr)
local h4 = h3
local m = eta_v * Vd * w / (2 * math.pi) * rho1 - (p2 - pe) * rho1 / k
local Qe, P = m * (h1 - h4), m * (h2 - h1)

T.near(v("comp.m_flow"), m, 1e-4 * m, "mass flow from the displacement at the suction density")
T.near(v("evap.Q_flow"), Qe, 1e-4 * Qe, "capacity m (h1 - h4)")
T.near(v("comp.P"), P, 1e-4 * P, "compressor power m (h2 - h1)")
T.near(v("evap.Q_flow") / v("comp.P"), (h1 - h4) / (h2 - h1), 1e-4 * (h1 - h4) / (h2 - h1), "COP")
T.near(SH, 5, 1e-6, "the superheat held at its setpoint")
local cop_s, cop_h = v("evap.Q_flow") / v("comp.P"), (h1 - h4) / (h2 - h1)
io.write(string.format("steady state: p_e = %.6g Pa, p_2 = %.6g Pa, p_r = %.6g Pa, m = %.6g kg/s; relative "
  .. "differences from the hand calculation: flow %.1e, capacity %.1e, power %.1e, COP %.1e\n", pe, p2, pr,
  v("comp.m_flow"), v("comp.m_flow") / m - 1, v("evap.Q_flow") / Qe - 1, v("comp.P") / P - 1, cop_s / cop_h - 1))
T.done()
