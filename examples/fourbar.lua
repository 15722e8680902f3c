-- examples/fourbar.lua: a four-bar linkage (crank-rocker) swinging under
-- gravity. The tree fixed -> crank -> coupler -> rocker is open; the loop is
-- closed by a stiff zero-length spring-damper between the rocker's end and
-- the second ground pivot (a kinematic loop is never closed by a rigid
-- joint). The links are planar.Link bars (stdlib/planar.lua) with their
-- mass at the midpoint.
--   lied run examples/fourbar.lua
--   lied examples/fourbar.lua [plot.png]     plot the joint angles
local lied = require "lied"
local mech = require "lied.mechanics"
local planar = require "planar"

-- link lengths [m]: ground (A to D), crank (A-B), coupler (B-C), rocker (C-D)
local d, a, b, c = 0.5, 0.2, 0.6, 0.5
local theta1 = math.pi / 3 -- initial crank angle (absolute)

-- Assemble: B = a e(theta1); C is where the circles |C - B| = b and
-- |C - D| = c meet (the upper solution).
local Bx, By = a * math.cos(theta1), a * math.sin(theta1)
local ex, ey = d - Bx, 0 - By
local L = math.sqrt(ex * ex + ey * ey)
local p = (b * b - c * c + L * L) / (2 * L)
local q = math.sqrt(b * b - p * p)
local Cx, Cy = Bx + (p * ex - q * ey) / L, By + (p * ey + q * ex) / L
local theta2 = math.atan(Cy - By, Cx - Bx)
local theta3 = math.atan(0 - Cy, d - Cx)

local FourBar = lied.model "FourBar" {
  doc = "four-bar linkage, loop closed by a stiff spring-damper",
  ground = mech.Fixed {},
  pivot = mech.Fixed { x = d },
  joint1 = mech.Revolute { phi = theta1 },
  crank = planar.Link { r = { a, 0 }, m = 0.2, I = 0.2 * a * a / 12 },
  joint2 = mech.Revolute { phi = theta2 - theta1 },
  coupler = planar.Link { r = { b, 0 }, m = 0.6, I = 0.6 * b * b / 12 },
  joint3 = mech.Revolute { phi = theta3 - theta2 },
  rocker = planar.Link { r = { c, 0 }, m = 0.5, I = 0.5 * c * c / 12 },
  closure = mech.SpringDamper { c = 1e6, d = 50 },
  connect = {
    { "ground.frame_b", "joint1.frame_a" },
    { "joint1.frame_b", "crank.frame_a" },
    { "crank.frame_b", "joint2.frame_a" },
    { "joint2.frame_b", "coupler.frame_a" },
    { "coupler.frame_b", "joint3.frame_a" },
    { "joint3.frame_b", "rocker.frame_a" },
    { "rocker.frame_b", "closure.frame_a" },
    { "pivot.frame_b", "closure.frame_b" },
  },
  experiment = { stop = 5, dt = 1e-4, solver = "rk4" },
}

lied.main(FourBar, { plot = { "joint1.phi", "joint2.phi", "joint3.phi" } })
return FourBar
