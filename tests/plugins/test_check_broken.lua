-- lied run --check finds a deliberately broken fast path: badlanes.Decay's
-- lane form differs from its block in lane 5 of every group
-- (tests/plugins/badlanes.c), so 40 copies in fused steps in lane form
-- drift from copy-by-copy steps at copy 6. The check must report the first
-- difference with the component, the variable and the time that comparing
-- the two runs directly gives, blame the lanes, and exit with status 1.
local lied = require "lied"
local T = require "tests.testing"
local M = dofile("tests/plugins/badlanes_model.lua")

-- the first difference, found here without lied.check: lanes on and off,
-- every column of every row, in row order then column order
local function run(lanes)
  return lied.build(M):run { stop = 0.1, dt = 1e-3, solver = "rk4", interval = 0.01,
                             vars = "*", lanes = lanes, threads = 1 }
end
local a, b = run(true), run(false)
local names, first = a:names(), nil
local ta = T.column(a, 0)
for r = 1, a:nrows() do
  for _, n in ipairs(names) do
    if T.column(a, n)[r] ~= T.column(b, n)[r] then first = { row = r, name = n, t = ta[r] }; break end
  end
  if first then break end
end
T.check(first ~= nil, "lanes on and off differ (the broken lane form is used)")
T.eq(first and first.name, "e[6].x", "the first difference is copy 6's state")

local report = lied.check(M, { stop = 0.1 })
T.check(not report.ok, "the check fails")
T.check(report.fast_differs, "the fast run differs")
T.eq(table.concat(report.culprits, ","), "lanes", "the difference goes with the lanes")
local fast = report.runs[2]
T.eq(fast.diff.name, first.name, "the check names the variable")
T.eq(fast.diff.t, first.t, "... and the time")
T.check(fast.text:find("component e[6], variable x", 1, true), "component and variable: " .. fast.text)
T.check(fast.text:find(string.format("at t = %.17g", first.t), 1, true), "the time: " .. fast.text)
for _, r in ipairs(report.runs) do
  local lanes = false
  for _, p in ipairs(r.paths) do lanes = lanes or p == "lanes" end
  T.eq(r.diff ~= nil, lanes, r.name .. ": differs exactly when it runs lane forms")
end

-- the command line: the same report, exit status 1
local bin = os.getenv("LIED_BIN")
local p = io.popen(bin .. " run tests/plugins/badlanes_model.lua --check; echo \"exit $?\"")
local out = p:read("a")
p:close()
T.check(out:find("exit 1", 1, true), "lied run --check exits with 1: " .. out)
T.check(out:find("component e[6], variable x", 1, true), "the CLI names the component and variable")
T.check(out:find("it agrees without: lanes (the path that differs)", 1, true),
  "the CLI names the path: " .. out)
T.done()
