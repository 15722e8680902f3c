-- Dialectic mechanics, the gripper (examples/gripper.lua): a 10 g object
-- clamped by two preloaded elasto-gap jaws (c = 1e7 N/m) driven by a
-- prismatic actuator. The dialectic form (T_D = 0.01 s) runs with rk3 at
-- dt = 0.01 s; the rigid form (T_D = 0) rings at ~44.7e3 rad/s and needs
-- dt ~ 1e-5 s. Both agree on the time-averaged penetration.
local lied = require "lied"
local T = require "tests.testing"

local Gripper = dofile("examples/gripper.lua")
local preload = 1e-5

local info = lied.build(Gripper):info()
T.eq(info.max_section, 2, "dialectic: the contacts couple both joints into one 2x2 section")
info = lied.build(Gripper, { T_D = 0 }):info()
T.eq(info.max_section, 1, "rigid: the contacts are explicit, two 1x1 sections")

local vars = "gap_left.delta,gap_right.delta,gap_left.f,gap_right.f,object.s,actuator.s"
local function run(td, dt, stop, interval)
  local res = lied.simulate(Gripper, { set = { T_D = td }, dt = dt, stop = stop, solver = "rk3",
    interval = interval, vars = vars }):run()
  local c = {}
  for n in vars:gmatch("[^,]+") do c[n] = T.column(res, n) end
  c.t = T.column(res, "time")
  return c
end
local function finite(x) return x == x and x > -math.huge and x < math.huge end

local dia = run(0.01, 0.01, 1, 0.01)
local ok, minf, follow, moved = true, math.huge, 0, 0
for i = 1, #dia.t do
  for _, n in ipairs { "gap_left.delta", "gap_right.delta", "object.s" } do ok = ok and finite(dia[n][i]) end
  minf = math.min(minf, dia["gap_left.f"][i], dia["gap_right.f"][i])
  follow = math.max(follow, math.abs(dia["object.s"][i] - dia["actuator.s"][i]))
  moved = math.max(moved, math.abs(dia["actuator.s"][i]))
end
T.check(ok, "T_D = 0.01, rk3, dt = 0.01: finite")
T.check(moved > 0.1, string.format("the jaws move (%.3g m)", moved))
T.check(follow < 1e-5, string.format("the object follows the jaws (max offset %.3g m)", follow))
T.check(minf > 50, string.format("the object stays clamped (min contact force %.4g N)", minf))

-- the rigid form: ringing, but the same mean penetration
local rig = run(0, 1e-5, 1, 0.01)
local function mean(c, name, t0)
  local s, n = 0, 0
  for i = 1, #c.t do
    if c.t[i] >= t0 then s, n = s + c[name][i], n + 1 end
  end
  return s / n
end
for _, n in ipairs { "gap_left.delta", "gap_right.delta" } do
  local a, b = mean(dia, n, 0.1), mean(rig, n, 0.1)
  T.near(a, b, 1e-3 * preload, string.format("%s: time-averaged penetration %.6g (T_D = 0.01) vs %.6g (T_D = 0)", n, a, b))
  T.near(a, preload, 0.01 * preload, n .. ": mean penetration = preload")
end

-- the first 50 ms (the plot of examples/gripper.lua): the rigid form rings
-- (amplitude ~2e-6 m, decaying in ~2 ms), the dialectic form relaxes over a
-- few T_D without overshoot; after that both sit at the same penetration
local rf = run(0, 1e-6, 0.05, 5e-5)
local df = run(0.01, 1e-3, 0.05, 5e-5)
local function range(c, name)
  local lo, hi = math.huge, -math.huge
  for i = 1, #c.t do lo, hi = math.min(lo, c[name][i]), math.max(hi, c[name][i]) end
  return lo, hi
end
local rlo, rhi = range(rf, "gap_left.delta")
local dlo, dhi = range(df, "gap_left.delta")
T.check(rhi - rlo > 2e-6, string.format("rigid form rings (%.3g m peak to peak)", rhi - rlo))
T.check(dhi <= preload + 1e-9, string.format("dialectic form does not overshoot (max %.6g m)", dhi))
local rm, dm = mean(rf, "gap_left.delta", 0.03), mean(df, "gap_left.delta", 0.03)
T.near(rm, dm, 0.05 * preload, "mean penetration over 30..50 ms")
io.stdout:write(string.format("penetration 0..50 ms: rigid %.4g..%.4g, dialectic %.4g..%.4g; mean over 30..50 ms: rigid %.6g, dialectic %.6g\n",
  rlo, rhi, dlo, dhi, rm, dm))
T.done()
