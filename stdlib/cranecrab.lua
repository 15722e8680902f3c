-- cranecrab: the crane crab of Zimmer's LIED scaling paper (seed 002,
-- Listing 2): a pendulum (revolute2, rod2, body2) hanging from a cart
-- (prismatic1, body1) that slides freely along x. Returns the model class.
local lied = require "lied"
local mech = require "lied.mechanics"

return lied.model "CraneCrab" {
  doc = "pendulum on a free cart: 2 degrees of freedom, one 2x2 linear section",
  fixed = mech.Fixed {},
  prismatic1 = mech.Prismatic { e = { 1, 0 } },
  body1 = mech.Body { m = 1.0, I = 0.1 },
  revolute2 = mech.Revolute {},
  rod2 = mech.FixedTranslation { r = { 0.5, 1.5 } },
  body2 = mech.Body { m = 0.5, I = 0.05 },
  connect = {
    { "fixed.frame_b", "prismatic1.frame_a" },
    { "prismatic1.frame_b", "body1.frame_a" },
    { "prismatic1.frame_b", "revolute2.frame_a" },
    { "revolute2.frame_b", "rod2.frame_a" },
    { "rod2.frame_b", "body2.frame_a" },
  },
  experiment = { stop = 10, dt = 1e-3, solver = "rk4" },
}
