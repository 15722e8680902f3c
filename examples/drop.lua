-- examples/drop.lua: a 0.1 kg body on a vertical prismatic joint (slider,
-- s = height) dropped from s = 0.1 m onto a stiff elasto-gap floor at s = 0
-- (c = 1e7 N/m, d = 100 N.s/m), gravity 9.81 m/s2. The top-level parameter
-- T_D (dialectic time constant, default 0.01 s) is passed to every joint
-- and contact: with T_D > 0 the model is in dialectic form and runs with an
-- explicit solver at 100 Hz (rk3, dt = 0.01 s); --set T_D=0 gives the rigid
-- form, which needs dt of about 1e-5 s (docs/dialectic.md).
--   lied run examples/drop.lua
--   lied run examples/drop.lua --set T_D=0 --dt 1e-5
--   lied examples/drop.lua [plot.png]
local lied = require "lied"
local mech = require "lied.mechanics"

local Drop = lied.model "Drop" {
  doc = "body dropped onto a stiff elasto-gap floor (dialectic form for T_D > 0)",
  parameters = { T_D = 0.01 },
  ground = mech.Fixed {},
  slider = mech.Prismatic { e = { 0, 1 }, s = 0.1, T_D = lied.param "T_D" },
  body = mech.Body { m = 0.1, I = 0.01, g = { 0, -9.81 } },
  floor = mech.ElastoGap { c = 1e7, d = 100, n = { 0, 1 }, s0 = 0, T_D = lied.param "T_D" },
  connect = {
    { "ground.frame_b", "slider.frame_a" },
    { "slider.frame_b", "body.frame_a" },
    { "ground.frame_b", "floor.frame_a" },
    { "slider.frame_b", "floor.frame_b" },
  },
  experiment = { stop = 5, dt = 0.01, solver = "rk3" },
}

lied.main(Drop, { plot = { "slider.s" } })
return Drop
