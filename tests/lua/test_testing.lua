-- The test helpers refuse empty results (tests/testing.lua): a column of no
-- rows, a missing column, a result that is not there, a CSV file without
-- rows. Each refusal counts as a failure and stops the test, so a loop over
-- the rows of a run that recorded nothing cannot pass.
local lied = require "lied"
local tl = require "lied.testlib"
local T = require "tests.testing"

local M = lied.model "Ramp" { c = tl.Constant { k = 1 }, i = tl.Integrator {}, connect = { { "c.y", "i.u" } } }
local built = lied.build(M)

-- refused(fn, pattern): fn() raises the helper's "stopped:" error naming
-- pattern and counts one failure (taken back here, where it is expected)
local function refused(fn, pattern, what)
  local failed = T.failed
  T.silent = true
  local ok, err = pcall(fn)
  T.silent = false
  local counted = T.failed == failed + 1
  T.failed = failed
  T.check(not ok and counted and tostring(err):find("stopped:", 1, true) ~= nil
    and tostring(err):find(pattern, 1, true) ~= nil, what .. ": " .. tostring(err))
end

local two = built:run { stop = 1, dt = 0.1, out = "none", memory = true, vars = "i.x", interval = 1 }
refused(function() T.column(two, "i.x", 3) end, "column i.x: 2 rows, at least 3", "two rows where three are needed")
refused(function() T.column(nil, "i.x") end, "no result", "no result")
refused(function() T.column(two, "i.nothing") end, "column i.nothing", "a column not recorded")
refused(function() T.rows(0, "points") end, "points: 0 rows", "no rows counted")
local csv = os.tmpname()
local f = assert(io.open(csv, "w")); f:write("time,i.x\n"); f:close()
refused(function() T.take_csv(csv) end, "0 rows", "a CSV file of a header only")
refused(function() T.take_csv(csv .. ".missing") end, "cannot read", "a CSV file that is not there")

-- and what is there passes: 11 rows of x = t
local res = built:run { stop = 1, dt = 0.1, out = "none", memory = true, vars = "i.x", interval = 0.1 }
local x, t = T.column(res, "i.x"), T.column(res, "time")
T.eq(#x, 11, "rows of a run of 10 steps")
for r = 1, T.rows(#x, "rows") do T.near(x[r], t[r], 1e-12, "x = t") end
T.done()
