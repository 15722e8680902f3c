-- bench/media_air.lua - n independent cooling coils with moist air, for
-- the lane forms of the media's property routines (bench/media_lanes,
-- bench/README.md, docs/media.md "Lane forms"): humid air cooled below its
-- dew point in a 3 x 3 CrossFlowHX against glycol (fog in the cold cells).
-- Copy i has its own air flow. T_cold = 300 (K) keeps the air above its dew
-- point (no fog: every cell on moist air's explicit path).
--   lied run bench/media_air.lua --set n=256 --out none --stats [--no-lanes]
local lied = require "lied"
local tf = require "lied.thermofluid"

local humid = tf.moist_air { X = tf.moist_air:X_phi(101325, 303.15, 0.6) }
local glycol = tf.liquid { rho = 1060, cp = 3500 }
local Coil = lied.model "Coil" {
  parameters = { m_air = 0.2, T_cold = 280.15 },
  air = tf.MassFlowSource { m_flow = lied.param "m_air", T0 = 303.15, p0 = 101325, medium = humid },
  coil = tf.CrossFlowHX { N = 3, UA = 2000, V_a = 0.02, V_b = 0.002, T0_a = 303.15,
                          T0_b = lied.param "T_cold", p0_a = 101325, medium_a = humid,
                          medium_b = glycol },
  cold = tf.MassFlowSource { m_flow = 0.5, T0 = lied.param "T_cold", medium = glycol },
  out_a = tf.Sink { p0 = 101325, medium = humid },
  out_b = tf.Sink { medium = glycol },
  connect = { { "air.outlet", "coil.inlet_a" }, { "coil.outlet_a", "out_a.inlet" },
              { "cold.outlet", "coil.inlet_b" }, { "coil.outlet_b", "out_b.inlet" } },
}

local Bench = lied.model "MediaAir" {
  doc = "n cooling coils with moist air",
  parameters = { n = 64, T_cold = 280.15 },
  e = lied.array(Coil, lied.param "n", {
    m_air = function(i) return 0.1 + 5e-3 * (i % 40) end,
    T_cold = lied.param "T_cold",
  }),
  experiment = { stop = 2, dt = 0.005, solver = "rk4" },
}

lied.main(Bench)
return Bench
