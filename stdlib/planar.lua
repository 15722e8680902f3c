-- planar: composite planar-mechanics parts built from lied.mechanics.
--   Link: a rigid bar from frame_a to frame_b (vector r, in frame_a) with its
--   mass m and inertia I (about the centre) at the midpoint.
local lied = require "lied"
local mech = require "lied.mechanics"

local M = {}

local function half(p) return { p.r[1] / 2, p.r[2] / 2 } end

M.Link = lied.model "Link" {
  doc = "rigid bar frame_a -> frame_b (r in frame_a), mass m and inertia I at its midpoint",
  parameters = { r = { 1, 0 }, m = 1, I = 0.1 },
  half1 = mech.FixedTranslation { r = half },
  half2 = mech.FixedTranslation { r = half },
  body = mech.Body { m = lied.param "m", I = lied.param "I" },
  connect = {
    { "half1.frame_b", "body.frame_a" },
    { "half1.frame_b", "half2.frame_a" },
  },
  ports = { frame_a = "half1.frame_a", frame_b = "half2.frame_b" },
}

return M
