-- The run option set on a built model: overrides take effect when a model is
-- built (lied.simulate, lied.build), so a run given any other than those it
-- was built with is refused, naming the path (before, built:run{set = ...} and
-- sim:run{set = ...} ran the model as built without a word, even for a path
-- that does not exist).
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"

local M = lied.model "M" {
  c = S.Constant { k = 2 }, g = S.Gain { k = 3 },
  connect = { { "c.y", "g.u" } },
}
local run = { stop = 1, vars = "g.y" }
local function with(t)
  local o = {}
  for k, v in pairs(run) do o[k] = v end
  for k, v in pairs(t) do o[k] = v end
  return o
end

-- a model built without overrides
local b = lied.build(M)
T.raises(function() return b:run(with { set = { ["c.k"] = 5 } }) end,
  { "run: set: 'c.k' = 5 is not an override this model was built with", "lied.build(model, overrides)" },
  "built without overrides", "usage")
T.raises(function() return b:run(with { set = { ["c.nope"] = 1 } }) end,
  { "'c.nope' = 1" }, "a path that does not exist", "usage")
local r = b:run(with { set = {} })
T.eq(lied.value(r, "g.y", 1), 6, "an empty set runs the model as built")

-- built with overrides: the same ones pass (lied.simulate passes them on), others not
local b2 = lied.build(M, { ["c.k"] = 5 })
r = b2:run(with { set = { ["c.k"] = 5 } })
T.eq(lied.value(r, "g.y", 1), 15, "the overrides it was built with")
T.raises(function() return b2:run(with { set = { ["c.k"] = 6 } }) end, { "'c.k' = 6" },
  "another value", "usage")
T.raises(function() return b2:run(with { set = { ["c.k"] = 5, ["g.k"] = 2 } }) end,
  { "'g.k' = 2" }, "one more path", "usage")

-- lied.simulate: its set applies; sim:run with another is refused
local sim = lied.simulate(M, with { set = { ["c.k"] = 7 } })
T.eq(lied.value(sim:run(), "g.y", 1), 21, "lied.simulate's set")
T.eq(lied.value(sim:run { stop = 2 }, "g.y", 2), 21, "sim:run with more options")
T.raises(function() return sim:run { set = { ["c.k"] = 8 } } end, { "'c.k' = 8" },
  "sim:run with another set", "usage")

-- a vector parameter's override: the same list passes, another not
local Crab = require "cranecrab"
local sc = lied.simulate(Crab, { stop = 0.01, dt = 1e-3, vars = "body2.frame_a.y",
                                 set = { ["rod2.r"] = { 0.5, 1.0 } } })
local y0 = lied.value(sc:run(), "body2.frame_a.y", 0)
T.near(y0, 1.0, 1e-12, "the list it was built with")
T.raises(function() return sc:run { set = { ["rod2.r"] = { 0.5, 1.5 } } } end, { "'rod2.r' = {0.5, 1.5}" },
  "another list", "usage")
T.done()
