-- Soak: build and run a model 1000 times in one Lua session (as a REPL
-- session or a parameter sweep would); resident memory must not grow after
-- a warm-up. Also the error paths: 1000 failing builds and failing runs.
local lied = require "lied"
local tl = require "lied.testlib"
local T = require "tests.testing"

local function rss_kb()
  local f = io.open("/proc/self/statm", "r")
  if not f then return nil end
  local _, res = f:read("n", "n")
  f:close()
  return res * 4 -- pages of 4 KiB
end

local asan = false
do
  local f = io.open("/proc/self/maps", "r")
  if f then asan = f:read("a"):find("libasan", 1, true) ~= nil; f:close() end
end

local Osc = dofile("tests/models/osc.lua")
local Crab = dofile("examples/cranecrab.lua")
local Loop = dofile("examples/heated_loop.lua")
local Bad = lied.model "Bad" { a = tl.Constant {}, b = tl.Constant {}, g = tl.Gain {},
  connect = { { "a.y", "g.u" }, { "b.y", "g.u" } } }
local Sing = lied.model "Sing" { s = tl.Sine {}, x = tl.Solve { c = 0 }, connect = { { "s.y", "x.u" } } }

local function once(i)
  local b = lied.build(Osc, { n = 1 + i % 5 })
  local res = b:run { stop = 0.5, dt = 0.01, interval = 0.1, solver = (i % 2 == 0) and "rk4" or "dopri45" }
  assert(res:nrows() == 6)
  assert(#res:column("j.s") == 6)
  assert(not pcall(lied.build, Bad))
  local _, _, err = lied.build(Sing):run { stop = 0.1, dt = 0.01, vars = "x.y" }
  assert(err and err:find("singular", 1, true))
  if i % 10 == 0 then
    assert(lied.build(Crab):run { stop = 0.02, dt = 0.001, solver = "esdirk23" }:nrows() > 0)
    assert(lied.build(Loop):run { stop = 0.02, dt = 0.001 }:nrows() > 0)
  end
end

for i = 1, 200 do once(i) end -- warm-up: Lua heap, allocator pools
collectgarbage("collect")
local r0, lua0 = rss_kb(), collectgarbage("count")
for i = 1, 1000 do once(i) end
collectgarbage("collect")
local r1, lua1 = rss_kb(), collectgarbage("count")
print(string.format("rss %d KiB -> %d KiB (%+d), Lua heap %.0f KiB -> %.0f KiB%s", r0, r1, r1 - r0,
  lua0, lua1, asan and " (ASan: quarantine, growth not checked)" or ""))
T.check(lua1 - lua0 < 256, "Lua heap does not grow")
if r0 and not asan then
  T.check(r1 - r0 < 1024, string.format("resident memory grows by %d KiB over 1000 runs", r1 - r0))
end
T.done()
