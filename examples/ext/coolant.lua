-- coolant.lua: a model with a plugin's medium and component (tfext.so, tfext.c): hot
-- water-glycol coolant (the plugin's medium glycol30) flows through the plugin's
-- LossyPipe, which loses heat to its surroundings, and through lied's own Heater, which
-- takes the plugin's medium by name as any medium of lied's.
--   LIED_PATH=<build dir> lied run coolant.lua --stop 200
local lied = require "lied"
local tf = require "lied.thermofluid"
local tfext = require "tfext" -- the plugin: LossyPipe and the medium glycol30
local glycol = tf.medium "glycol30"

return lied.model "Coolant" {
  src = tf.MassFlowSource { m_flow = 0.1, T0 = 353.15, p0 = 2e5, medium = glycol },
  pipe = tfext.LossyPipe { V = 2e-3, UA = 40, T_amb = 293.15, T0 = 353.15, p0 = 2e5,
                           medium = glycol },
  cooler = tf.Heater { Q = -3000, V = 1e-3, T0 = 353.15, p0 = 2e5, medium = glycol },
  snk = tf.Sink { p0 = 2e5, medium = glycol },
  connect = { { "src.outlet", "pipe.inlet" }, { "pipe.outlet", "cooler.inlet" },
              { "cooler.outlet", "snk.inlet" } },
  experiment = { stop = 200, solver = "rk4", dt = 0.05, vars = "pipe.T,pipe.Q_loss,cooler.T" },
}
