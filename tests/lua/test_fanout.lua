-- How many inputs one output feeds: a real signal any number (the outdoor
-- temperature of 70,000 houses), a connector whose upstream signals are
-- summed at most 65,535 (the sum node's inputs), with a message naming the
-- limit.
local lied = require "lied"
local T = require "tests.testing"
local S = require "lied.signals"
local mech = require "lied.mechanics"

local n = 70000
local Fan = lied.model "Fan" {
  parameters = { n = n },
  c = S.Constant { k = 1.5 },
  g = lied.array(S.Gain { k = 2 }, lied.param "n"),
  connect = { lied.each(1, lied.param "n", { "c.y", "g[i].u" }) },
}
local res = lied.simulate(Fan, { stop = 1, dt = 0.5, solver = "euler", vars = "g[1].y*,g[70000].y*" }):run()
T.eq(res:nrows(), 3, "70,000 inputs on one signal: rows")
local names = res:names()
T.eq(#names, 2, "two outputs recorded")
T.eq(T.column(res, names[1])[3], 3, "the first input reads the signal")
T.eq(T.column(res, names[2])[3], 3, "the last input reads the signal")

local Branch = lied.model "Branch" {
  parameters = { n = 65536 },
  fixed = mech.Fixed {},
  b = lied.array(mech.Body { m = 1, I = 1 }, lied.param "n"),
  connect = { lied.each(1, lied.param "n", { "fixed.frame_b", "b[i].frame_a" }) },
}
T.raises(function() lied.build(Branch) end,
  { "too many connections at one port", "65,535", "summed" }, "a force branch of 65,536", "model")
T.check(lied.build(Branch, { n = 65535 }):info().components >= 65536, "a force branch of 65,535 builds")
T.done()
