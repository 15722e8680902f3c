-- examples/mass_spring.lua: a body on a slider held by a spring (planar
-- mechanics, no gravity along the slider): m der(v) = -k (s - 1), so the
-- eigenvalues of the linearisation are +-i sqrt(k / m) (+-2i for m = 1, k = 4).
--   lied linearize examples/mass_spring.lua --eig     A and its eigenvalues
--   lied steady examples/mass_spring.lua              s = 1 (the unstretched spring)
--   lied examples/mass_spring.lua [plot.png]          simulate and plot
local lied = require "lied"
local pm = require "lied.mechanics"

local MassSpring = lied.model "MassSpring" {
  doc = "a mass on a slider, held by a spring of unstretched length 1 m",
  parameters = { m = 1, k = 4 },
  fixed = pm.Fixed {},
  slider = pm.Prismatic { e = { 1, 0 }, s = 1.2 },
  body = pm.Body { m = lied.param "m", g = { 0, 0 } },
  spring = pm.Spring { c = lied.param "k", s_unstretched = 1 },
  connect = {
    { "fixed.frame_b", "slider.frame_a" },
    { "slider.frame_b", "body.frame_a" },
    { "fixed.frame_b", "spring.frame_a" },
    { "slider.frame_b", "spring.frame_b" },
  },
  experiment = { stop = 10, dt = 1e-3, vars = "slider.s,slider.v" },
}

lied.main(MassSpring, { plot = { "slider.s", "slider.v" } })
return MassSpring
