-- examples/cooling_coil.lua: humid air cooled below its dew point in a
-- cross-flow coil, the fog drained by a Separator. At steady state (120 s:
-- the coolant's ramp ends at 40 s, the cells' time constants are 0.02 s on
-- the air side, 1 s on the coolant side) checked against the psychrometric relations of tf.moist_air's
-- property calls (an independent path: x_sat from psat(T) of IF97):
-- - the air leaves saturated: x_out = x_sat(p, T_out), phi = 1;
-- - condensate = dry air flow * (x_in - x_out), with x_out computed here
--   from T_out. Tolerance 1e-9 relative: T_out comes from the Separator's
--   inversion of (p, h), solved to 1e-13 relative in T; x_sat changes by
--   about 7 % per K, so the two sides differ by ~1e-11 of x (measured below);
-- - energy: the heat out of the air (the coil's Q_flow) = the air's enthalpy
--   drop m (h_in - h_out) = the coolant's rise m cp (T_b - T_b,in), and the
--   Separator's enthalpy flows (air + condensate) add up to the inflow's.
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"
local ma = tf.moist_air

local Coil = dofile("examples/cooling_coil.lua")
local p = 101325
local X = ma:X_phi(p, 303.15, 0.6)
local x_in = X / (1 - X)

local function steady(set)
  local m = lied.build(Coil, set)
  m:run { stop = 120, solver = "esdirk23", tol = 1e-6 }
  return function(n) return m:value(n) end
end

local v = steady()
local T_out = v("sep.T")
T.check(T_out < ma:T_dew(p, X) - 5, string.format("the air is cooled below its dew point: %.3f K", T_out))
local xs = ma:x_sat(p, T_out)
T.near(v("sep.x_out"), xs, 1e-9 * xs, "the air leaves saturated at its outlet temperature")
T.check(v("sep.x_out") <= xs * (1 + 1e-12), "outlet humidity ratio at or below saturation")
T.near(v("sep.phi"), 1, 1e-12, "relative humidity 1 at the outlet")
local m_dry = 0.5 * (1 - X)
local cond = m_dry * (x_in - xs)
print(string.format("T_out %.6f K, x_in %.6f, x_out %.6f, condensate %.9g kg/s (%.2e relative to m_dry (x_in - x_sat))",
  T_out, x_in, xs, v("sep.m_cond"), math.abs(v("sep.m_cond") - cond) / cond))
T.near(v("sep.m_cond"), cond, 1e-9 * cond, "condensate = dry air flow * (x_in - x_out)")
T.near(v("sep.m_air") + v("sep.m_cond"), 0.5, 1e-15, "air out + condensate = air in")
-- the dried air goes on: its water fraction is the saturated one, X = x/(1 + x)
T.near(v("sep.outlet.X1"), xs / (1 + xs), 1e-9 * xs, "the air going on carries the saturated X")
T.near(v("sep.outlet.m_flow"), v("sep.m_air"), 1e-15, "... at the air's flow")
T.near(v("out.T"), T_out, 1e-9, "... and the Sink sees it at the Separator's temperature")

local Q = v("coil.Q_flow")
local dh = ma:h_pTX(p, 303.15, X) - ma:h_pTX(p, T_out, X)
T.near(Q, 0.5 * dh, 1e-9 * Q, "heat out of the air = its enthalpy drop")
T.near(v("coil.Q_b"), Q, 1e-12 * Q, "heat into the coolant = heat out of the air")
T.near(1.0 * 3500 * (v("coil.T_b") - 280.15), Q, 1e-9 * Q, "the coolant's enthalpy rise")
-- the Separator's split: condensate as liquid at T_out, air as dry air plus vapour
local dT = T_out - 273.15
T.near(v("sep.H_cond"), v("sep.m_cond") * 4186 * dT, 1e-12 * math.abs(v("sep.H_cond")), "condensate enthalpy flow")
T.near(v("sep.H_air"), m_dry * (1006 * dT + xs * (2501e3 + 1860 * dT)), 1e-9 * math.abs(v("sep.H_air")),
  "enthalpy flow of the air leaving")
T.near(v("sep.H_air") + v("sep.H_cond"), 0.5 * ma:h_pTX(p, T_out, X), 1e-9 * math.abs(v("sep.H_air")),
  "air and condensate carry the inflow's enthalpy")

-- a warm coolant (25 degC, above the dew point): nothing condenses
v = steady { T_cold_in = 298.15 }
T.check(v("sep.T") > ma:T_dew(p, X), "warm coil: the air stays above its dew point")
T.eq(v("sep.m_cond"), 0, "warm coil: no condensate")
T.near(v("sep.x_out"), x_in, 1e-15, "warm coil: the humidity ratio passes")
T.check(v("sep.phi") < 1, "warm coil: unsaturated")

-- refusals
T.raises(function()
  lied.build(lied.model "Dry" {
    src = tf.MassFlowSource { m_flow = 0.1 }, sep = tf.Separator {},
    connect = { { "src.outlet", "sep.inlet" } },
  })
end, { "sep", "a Separator drains the water of moist air: its medium must be tf.moist_air{...} or tf.moist_air_nasa{...}, not liquid" },
  "Separator of a liquid")
T.done()
