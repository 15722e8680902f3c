-- compare() states the time it compares over and refuses runs that share
-- none (issue 47, item 3: [0, 1] against [2, 3], or against a run of 0.02 s,
-- reported 0 differences). Members: disjoint after and before, a second run
-- of one output point outside the first, a result without rows, a partial
-- overlap either way, full coverage; the Lua API and the REPL.
local lied = require "lied"
local T = require "tests.testing"
local M = dofile((os.getenv("LIED_SRC") or ".") .. "/tests/models/osc.lua")
local function run(opts) return lied.build(M):run(opts) end
local a = run { stop = 1 }
local early = run { start = -3, stop = -2 }
local late = run { start = 2, stop = 3 }
local short = run { stop = 0.02, interval = 0.02 }
local point = run { start = 5, stop = 5 + 1e-3, interval = 1e-3 }

T.raises(function() return lied.compare(a, late) end,
  { "compare: the runs share no output time: the first covers [0, 1], the second [2, 3]" },
  "a later run", "usage")
T.raises(function() return lied.compare(a, early) end,
  { "the runs share no output time: the first covers [0, 1], the second [-3, -2]" }, "an earlier run", "usage")
T.raises(function() return lied.compare(late, a) end, { "the first covers [2, 3], the second [0, 1]" },
  "either order")
T.raises(function() return lied.compare(a, point, "j.s") end, { "share no output time" },
  "named variables, a run of two points outside")
local none = lied.build(M):run { stop = 1, out = "none" }
T.raises(function() return lied.compare(a, none) end, { "nothing was recorded" }, "a result that kept no rows")

-- a partial overlap: compared on it, said so
local c = lied.compare(a, short)
T.eq(c.overlap[1], 0, "partial: overlap from")
T.eq(c.overlap[2], 0.02, "partial: overlap to")
T.eq(c.points, 11, "partial: the first run's points compared")
T.eq(c.of, 501, "partial: of")
T.eq(c.partial, true, "partial: flagged")
local s = tostring(c)
T.check(s:find("compared on [0, 0.02]: 11 of the first result's 501 output points", 1, true), s)
T.check(s:find("warning: the runs overlap only partly (the first covers [0, 1], the second [0, 0.02])", 1, true), s)
T.check(c[1].max > 0, "partial: a difference within the overlap")
-- the second covers the first and more: every point compared, still partial
c = lied.compare(short, a)
T.eq(c.points, c.of, "covered: every point compared")
T.eq(c.partial, true, "covered: the second's rest not compared")
-- the same span: no warning
c = lied.compare(a, a)
T.eq(c.partial, false, "same span: not partial")
T.check(not tostring(c):find("warning", 1, true), "same span: no warning")
T.eq(c[1].max, 0, "a run equals itself")

-- the REPL: a message, no traceback
local tmp = os.tmpname()
local f = assert(io.open(tmp, "w"))
f:write('load "tests/models/osc.lua"\nrun{stop = 1}\nrun{start = 2, stop = 3}\ncompare()\nprint("after")\n')
f:close()
local code, out, err = T.sh(string.format("%s <%s", T.lied, tmp))
os.remove(tmp)
T.check((out .. err):find("compare: the runs share no output time: the first covers [0, 1], the second [2, 3]", 1, true),
  "REPL: message: " .. out .. err)
T.check(not (out .. err):find("traceback", 1, true) and out:find("after", 1, true), "REPL: no traceback, carries on")
T.eq(code, 1, "REPL: a piped session with an error exits 1")
T.done()
