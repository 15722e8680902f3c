-- examples/double_pendulum.lua: two links hanging from a fixed pivot, each a
-- revolute joint, a massless rod and a body at the rod's end.
--   lied run examples/double_pendulum.lua
--   lied examples/double_pendulum.lua [plot.png]   plot both joint angles
local lied = require "lied"
local mech = require "lied.mechanics"

local DoublePendulum = lied.model "DoublePendulum" {
  doc = "double pendulum: 2 degrees of freedom, one 2x2 linear section",
  fixed = mech.Fixed {},
  -- angles from the x axis: -pi/2 hangs straight down
  revolute1 = mech.Revolute { phi = -math.pi / 2 + 0.7 },
  rod1 = mech.FixedTranslation { r = { 1.0, 0 } },
  body1 = mech.Body { m = 1.0, I = 0.02 },
  revolute2 = mech.Revolute { phi = 0.5, w = 1.0 },
  rod2 = mech.FixedTranslation { r = { 0.8, 0 } },
  body2 = mech.Body { m = 0.5, I = 0.01 },
  connect = {
    { "fixed.frame_b", "revolute1.frame_a" },
    { "revolute1.frame_b", "rod1.frame_a" },
    { "rod1.frame_b", "body1.frame_a" },
    { "rod1.frame_b", "revolute2.frame_a" },
    { "revolute2.frame_b", "rod2.frame_a" },
    { "rod2.frame_b", "body2.frame_a" },
  },
  experiment = { stop = 10, dt = 1e-3, solver = "rk4" },
}

lied.main(DoublePendulum, { plot = { "revolute1.phi", "revolute2.phi" } })
return DoublePendulum
