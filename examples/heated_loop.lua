-- examples/heated_loop.lua: a closed water loop. A pump (speed ramped up by a
-- signal) drives water from a volume through a splitter into a heated branch
-- and a bypass; a junction mixes them again, a cooler takes the heat back out
-- and the water returns to the volume. From t = 30 s the heater puts 50 kW
-- into its branch: the heated branch runs hot, the bypass stays cold, and the
-- junction's temperature lies in between (weighted by the two flows).
--   lied run examples/heated_loop.lua        CSV of flows and temperatures
--   lied examples/heated_loop.lua [plot.png] simulate and plot
local lied = require "lied"
local tf = require "lied.thermofluid"
local pipes = require "thermofluid.pipes"

local HeatedLoop = lied.model "HeatedLoop" {
  doc = "pump, volume, heated branch and bypass joined by a junction, cooler",
  vol = tf.Volume { V = 0.05, p0 = 2e5, T0 = 293.15 },
  speed = tf.Ramp { offset = 0, height = 2 * math.pi * 25, t0 = 0, duration = 10 }, -- 1500 rpm
  pump = tf.Pump { k_p = 4e7, V_r = 1e-4, omega_from_input = 1, L = 1e3 },
  split = tf.Splitter { N = 2 },
  heated = pipes.HeatedPipe { l = 5, d = 0.02, dp_ref = 2e4, v_ref = 1e-3, Q_from_input = 1 },
  heat = tf.Step { offset = 0, height = 5e4, t0 = 30 },
  bypass = pipes.Pipe { l = 2, d = 0.02, dp_ref = 6e4, v_ref = 1e-3 },
  mix = tf.Junction { N = 2 },
  cooler = tf.Heater { Q_from_input = 1, V = 2e-3 },
  cooling = tf.Step { offset = 0, height = -5e4, t0 = 30 },
  ret = pipes.Pipe { l = 3, d = 0.03, dp_ref = 1e4, v_ref = 1e-3 },
  connect = {
    { "vol.outlet", "pump.inlet" },
    { "speed.y", "pump.omega_in" },
    { "pump.outlet", "split.inlet" },
    { "split.outlet1", "heated.inlet" },
    { "heat.y", "heated.Q_in" },
    { "heated.outlet", "mix.inlet1" },
    { "split.outlet2", "bypass.inlet" },
    { "bypass.outlet", "mix.inlet2" },
    { "mix.outlet", "cooler.inlet" },
    { "cooling.y", "cooler.Q_in" },
    { "cooler.outlet", "ret.inlet" },
    { "ret.outlet", "vol.inlet" },
  },
  experiment = { stop = 120, solver = "rk4", dt = 0.01,
                 vars = "pump.m_flow,heated.drop.m_flow,bypass.drop.m_flow,heated.heater.T," ..
                        "mix.T,cooler.T,vol.T,vol.p" },
}

lied.main(HeatedLoop, { plot = { "heated.heater.T", "mix.T", "cooler.T", "vol.T" } })
return HeatedLoop
