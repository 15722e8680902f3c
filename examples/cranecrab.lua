-- examples/cranecrab.lua: the crane crab (a pendulum on a free cart, seed
-- 002 Listing 2), from stdlib/cranecrab.lua. The pendulum starts above its
-- pivot, tilted (rod r = (0.5, 1.5) in the joint frame), and swings through.
--   lied run examples/cranecrab.lua            CSV of the states on stdout
--   lied examples/cranecrab.lua [plot.png]     simulate and plot s and phi
local lied = require "lied"
local CraneCrab = require "cranecrab"

lied.main(CraneCrab, { plot = { "prismatic1.s", "revolute2.phi" } })
return CraneCrab
