-- thermofluid.pipes: pipes described by their geometry, composites of the C
-- thermofluid components (require "thermofluid.pipes").
--
--   local pipes = require "thermofluid.pipes"
--   heated = pipes.HeatedPipe { l = 5, d = 0.02, Q = 2e4 }
--
-- Pipe (ports inlet, outlet): a PressureDrop whose inertance is the pipe's
--   L = l / (pi*d^2/4). Parameters: l [m] length, d [m] inner diameter,
--   dp_ref [Pa] pressure drop at the reference volume flow v_ref [m3/s],
--   medium (tf.liquid{...} / tf.gas{...}, default tf.water).
-- HeatedPipe (ports inlet, outlet, and Q_in when Q_from_input = 1): a Pipe
--   followed by a Heater holding the pipe's fluid volume V = l*pi*d^2/4.
--   More parameters: Q [W] heat flow into the fluid (unless Q_from_input),
--   Q_from_input (0/1), T0 [K] start temperature of the fluid.
local lied = require "lied"
local tf = require "lied.thermofluid"

local pipes = {}

local function area(p) return math.pi * p.d ^ 2 / 4 end

pipes.Pipe = lied.model "Pipe" {
  doc = "pipe of length l and diameter d: a PressureDrop with inertance l/(pi*d^2/4)",
  parameters = { l = 1, d = 0.02, dp_ref = 1e4, v_ref = 1e-3, medium = tf.water },
  drop = tf.PressureDrop {
    dp_ref = lied.param "dp_ref", v_ref = lied.param "v_ref", medium = lied.param "medium",
    L = function(p) return p.l / area(p) end,
  },
  ports = { inlet = "drop.inlet", outlet = "drop.outlet" },
}

pipes.HeatedPipe = lied.model "HeatedPipe" {
  doc = "pipe of length l and diameter d whose fluid receives the heat flow Q",
  parameters = { l = 1, d = 0.02, dp_ref = 1e4, v_ref = 1e-3, Q = 0, Q_from_input = 0,
                 T0 = 293.15, medium = tf.water },
  drop = tf.PressureDrop {
    dp_ref = lied.param "dp_ref", v_ref = lied.param "v_ref", medium = lied.param "medium",
    L = function(p) return p.l / area(p) end,
  },
  heater = tf.Heater {
    Q = lied.param "Q", Q_from_input = lied.param "Q_from_input", T0 = lied.param "T0",
    medium = lied.param "medium", V = function(p) return p.l * area(p) end,
  },
  connect = { { "drop.outlet", "heater.inlet" } },
  ports = { inlet = "drop.inlet", outlet = "heater.outlet", Q_in = "heater.Q_in" },
}

return pipes
