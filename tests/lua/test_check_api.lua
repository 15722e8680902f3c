-- The pieces of lied.check (lua/lied/check.lua) on their own: the schedule's
-- paths of lied.build (and their usage errors), built:component,
-- res:first_difference (bits, not values: -0 against 0; shapes), the run
-- option threads_any, and a report that passes.
local lied = require "lied"
local T = require "tests.testing"
local Chain = dofile("examples/crab_chain.lua")

-- lied.build's paths: off, and skew_any on short arrays
T.check(lied.build(Chain, { n = 40 }):info().skew_lag == 0, "40 crabs: too short to skew")
T.check(lied.build(Chain, { n = 40 }, nil, { skew_any = true }):info().skew_lag > 0,
  "skew_any: 40 crabs skewed")
T.eq(lied.build(Chain, { n = 100 }, nil, { skew = false }):info().skew_lag, 0, "skew = false")
T.check(lied.build(Chain, { n = 600 }):info().window > 0, "600 crabs: from a window")
T.eq(lied.build(Chain, { n = 600 }, nil, { window = false }):info().window, 0, "window = false")
local Crabs = dofile("examples/scaling.lua")
T.check(lied.build(Crabs, { n = 4 }):info().copies == 4, "copies replicated")
T.eq(lied.build(Crabs, { n = 4 }, nil, { replicate = false }):info().copies, 0, "replicate = false")
T.raises(function() lied.build(Crabs, nil, nil, { skew_any = 1 }) end,
  { "build: schedule option skew_any must be true or false, got number" },
  "skew_any's value must be a boolean", "usage")
T.raises(function() lied.build(Crabs, nil, nil, { skew_anny = true }) end,
  { "build: unknown schedule option skew_anny (sparse, skew, window, replicate, skew_any)" },
  "an unknown path", "usage")
T.raises(function() lied.build(Crabs, nil, nil, 5) end, { "table expected" }, "not a table")

-- built:component
local b = lied.build(Chain)
local c, rest = b:component("crab[2].body1.frame_a.x")
T.eq(c, "crab[2].body1", "component of a port variable")
T.eq(rest, "frame_a.x", "... and the rest")
c, rest = b:component("spring[1].s")
T.eq(c .. "|" .. rest, "spring[1]|s", "a variable of an array element")
c, rest = b:component("crab[9].body1.x")
T.check(c == nil and rest:find("out of range", 1, true), "no such component: " .. tostring(rest))

-- res:first_difference: the same run twice, then a shifted start, -0, other names and rows
local function run(set, o)
  local opts = { stop = 0.02, dt = 1e-3, vars = "crab[*].prismatic1.*", threads = 1 }
  for k, v in pairs(o or {}) do opts[k] = v end
  return lied.build(Chain, set):run(opts)
end
local r1, r2 = run(), run()
T.eq(r1:first_difference(r2), nil, "a run and its repetition: the same bits")
local r3 = run({ ["crab[2].prismatic1.v"] = 1e-300 })
local d = r1:first_difference(r3)
T.eq(d and d.row, 1, "the first differing row: the start")
T.check(d and d.name:find("^crab%[2%]%.prismatic1%."), "... and the first column of crab 2's velocity")
T.eq(d and d.t, 0.0, "its time")
T.eq(d and d.a, 0.0, "a: this result's value")
T.eq(d and d.b, 1e-300, "b: the other's")
local r4 = run({ ["crab[1].prismatic1.v"] = -0.0 })
d = r1:first_difference(r4)
T.check(d and d.a == 0 and d.b == 0 and 1 / d.b < 0, "0 against -0 differ in their bits")
d = r1:first_difference(run(nil, { vars = "crab[*].body1.*" }))
T.eq(d and d.what, "names", "other names")
d = r1:first_difference(run(nil, { stop = 0.01 }))
T.check(d and d.what == "rows" and d.rows_a == r1:nrows(), "other rows")

-- the words of a difference (the report's "first difference ..." line)
local describe = require("lied.check").describe
T.eq(describe({ what = "message", b = "at t = 0: internal error" }),
  'in how the runs end: plain ran to its end, this run failed: "at t = 0: internal error"',
  "one run failed")
T.eq(describe({ what = "message", a = "x", b = "y" }),
  'in how the runs end: plain failed: "x", this run failed: "y"', "both failed, differently")
T.eq(describe({ what = "rows", rows_a = 3, rows_b = 5 }), "in the rows: plain recorded 5, this run 3",
  "rows")
T.eq(describe({ what = "names" }), "in the recorded names", "names")
T.eq(describe({ col = 0, row = 2, a = 0.5, b = 0.25 }),
  "in row 2's time: 0.5 (plain) against 0.25", "time")
T.eq(describe({ col = 3, t = 0.001, name = "crab[2].body1.frame_a.x", a = 1, b = 2 }, b),
  "at t = 0.001: component crab[2].body1, variable frame_a.x: 1 (plain) against 2",
  "a variable: its component")

-- threads_any: two threads share 40 crabs (one chunk and a part) in waves
local bt = lied.build(Chain, { n = 40 }, nil, { skew_any = true })
local _, st = bt:run { stop = 0.02, dt = 1e-3, threads = 2, threads_any = true, out = "none" }
T.check(bt:info().par_runs > 0 and st.threads == 2, "threads_any: the threads share the waves")
local bo = lied.build(Chain, { n = 40 }, nil, { skew_any = true })
bo:run { stop = 0.02, dt = 1e-3, threads = 2, out = "none" }
T.eq(bo:info().par_runs, 0, "without it 40 crabs keep one thread")
T.raises(function() bo:run { threads_any = 1 } end, { "option threads_any must be a boolean" },
  "threads_any's type", "usage")

-- a report that passes
local rep = lied.check(Chain, { set = { n = 70 }, stop = 0.02, vars = "crab[*].prismatic1.s" })
T.check(rep.ok and not rep.fast_differs, "the chain of 70: every run agrees")
T.eq(#rep.runs, 2 + #require("lied.check").paths, "plain, fast, fast without each path")
T.check(table.concat(rep.runs[2].paths, ","):find("skew,waves,lanes,threads", 1, true),
  "the fast run took skew, waves, lanes and threads: " .. table.concat(rep.runs[2].paths, ","))
T.check(rep.text:find("every run gives the plain run's bits", 1, true), "the text says so")
T.done()
