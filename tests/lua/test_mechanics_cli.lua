-- The mechanics examples through the command line: the scaling model has
-- one 2x2 section per crane crab; run, vars and --set work on the examples.
local T = require "tests.testing"
local L = T.lied

-- lied info examples/scaling.lua --set n=1000: 1000 sections, all of size 2
local code, out, err = T.sh(L .. " info examples/scaling.lua --set n=1000")
T.eq(code, 0, "info exit code " .. err)
T.check(out:find("crab%[1%.%.1000%]") ~= nil, "tree shows crab[1..1000]")
T.eq(tonumber(out:match("\n%s*components%s+(%d+)")), 6000, "components")
T.eq(tonumber(out:match("\n%s*states%s+(%d+)")), 4000, "states")
T.eq(tonumber(out:match("\n%s*tearing pairs%s+(%d+)")), 2000, "tearing pairs")
T.eq(tonumber(out:match("\n%s*sections%s+(%d+)")), 1000, "sections")
local sizes = out:match("sections by size:\n(.-)\n\n")
T.check(sizes ~= nil, "sections by size listed")
local count = 0
for size, n in (sizes or ""):gmatch("size%s+(%S+)%s+(%d+)") do
  T.eq(size, "2", "only sections of size 2")
  count = count + tonumber(n)
end
T.eq(count, 1000, "1000 sections of size 2")
-- column passes of a crab's 9-member section: the revolute's tearing
-- variable (read by revolute2.acc) reaches 7 members (not prismatic1.acc,
-- body1.force), the prismatic's all 9; the smaller pass goes first and the
-- second also puts the first's members back: 7 + 9 = 16 runs, not 2 x 9
local runs, all = out:match("\n%s*probing%s+(%d+) member runs in the column passes %((%d+) if")
T.eq(tonumber(runs), 16000, "column passes: 16 member runs per crab")
T.eq(tonumber(all), 18000, "column passes: 18 without skipping")
-- 1000 independent crabs are scheduled from the graph of one (14 blocks,
-- 37 dependencies per crab)
T.check(out:find("graph     14 nodes, 37 edges for one of 1000 independent copies", 1, true) ~= nil,
  "info: scheduled from one copy's graph")
T.check(out:find("(the model: 14000 block instances, 37000 dependencies;", 1, true) ~= nil,
  "info: the model's block instances and dependencies")

-- n defaults to 1; the crane crab itself is one 2x2 section
code, out = T.sh(L .. " info examples/scaling.lua")
T.eq(tonumber(out:match("\n%s*sections%s+(%d+)")), 1, "n = 1 by default")
code, out = T.sh(L .. " info examples/cranecrab.lua")
T.eq(code, 0, "info cranecrab")
T.check(out:match("size 2%s+1\n") ~= nil, "crane crab: one section of size 2")

-- lied run: CSV with the documented names; --set reaches into the array
code, out, err = T.sh(L .. " run examples/cranecrab.lua --stop 1 --interval 0.5")
T.eq(code, 0, "run cranecrab " .. err)
T.eq(out:match("^[^\n]*"), "time,prismatic1.s,prismatic1.v,revolute2.phi,revolute2.w", "CSV header")
local rows = 0
for _ in out:gmatch("\n%d") do rows = rows + 1 end
T.eq(rows, 3, "rows at t = 0, 0.5 and 1")
code, out, err = T.sh(L .. " run examples/scaling.lua --set n=3 --set crab.body2.m=2 --stop 0.5 --interval 0.5 --vars 'crab[3].revolute2.phi,crab[3].body2.frame_a.y'")
T.eq(code, 0, "run scaling n=3 " .. err)
T.eq(out:match("^[^\n]*"), "time,crab[3].revolute2.phi,crab[3].body2.frame_a.y", "array names")
code, out, err = T.sh(L .. " run examples/scaling.lua --set n=3 --stop 0.1 --out none --stats")
T.eq(code, 0, "run --out none " .. err)
T.check(err:find("evaluations") ~= nil, "--stats printed")

-- vars lists the joint states with units
code, out = T.sh(L .. " vars examples/cranecrab.lua 'revolute2.*'")
T.check(out:find("revolute2%.phi%s+rad%s+state") ~= nil, "revolute2.phi listed as a state in rad")

-- the other examples load and run
for _, f in ipairs { "examples/double_pendulum.lua", "examples/fourbar.lua" } do
  code, out, err = T.sh(L .. " run " .. f .. " --stop 0.1 --out none")
  T.eq(code, 0, f .. " runs " .. err)
end

-- a script run writes the plot (when gnuplot is there)
if os.execute("command -v gnuplot >/dev/null 2>&1") then
  local base = os.tmpname()
  os.remove(base)
  local png = base .. ".png"
  code, out, err = T.sh(L .. " examples/cranecrab.lua " .. png)
  T.eq(code, 0, "script mode " .. err)
  local f = io.open(png, "rb")
  T.check(f ~= nil and f:read(4) == "\137PNG", "png written")
  if f then f:close() end
  os.remove(png)
end
T.done()
