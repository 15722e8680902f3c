-- Four-bar linkage closed by a stiff spring-damper: the loop stays closed
-- (gap ~ force / stiffness), energy is conserved up to the closure damper,
-- and a stiffer closure converges to the same (rigid) motion.
local lied = require "lied"
local T = require "tests.testing"

local FourBar = dofile("examples/fourbar.lua")
local info = lied.build(FourBar):info()
T.eq(info.sections, 1, "one linear section (the spring does not couple it)")
T.eq(info.max_section, 3, "of size 3 (three revolute joints)")

local bodies = { crank = { 0.2, 0.2 * 0.2 ^ 2 / 12 }, coupler = { 0.6, 0.6 * 0.6 ^ 2 / 12 },
                 rocker = { 0.5, 0.5 * 0.5 ^ 2 / 12 } }
local vars = { "joint1.phi", "closure.s" }
for name in pairs(bodies) do
  for _, v in ipairs { "vx", "vy", "w", "y" } do vars[#vars + 1] = name .. ".body.frame_a." .. v end
end
local function run(model)
  local res = lied.simulate(model, { interval = 0.01, vars = table.concat(vars, ",") }):run()
  local col = {}
  for _, n in ipairs(vars) do col[n] = T.column(res, n) end
  return col, #T.column(res, "time")
end

local col, rows = run(FourBar)
local function energy(r, c)
  local e = 0.5 * c * col["closure.s"][r] ^ 2
  for name, mi in pairs(bodies) do
    local p = name .. ".body.frame_a."
    e = e + 0.5 * mi[1] * (col[p .. "vx"][r] ^ 2 + col[p .. "vy"][r] ^ 2)
      + 0.5 * mi[2] * col[p .. "w"][r] ^ 2 + mi[1] * 9.81 * col[p .. "y"][r]
  end
  return e
end
local E0, maxgap, rise, drop, moved = energy(1, 1e6), 0, 0, 0, 0
local prev = E0
for r = 1, rows do
  maxgap = math.max(maxgap, col["closure.s"][r])
  local e = energy(r, 1e6)
  rise = math.max(rise, e - prev) -- the damper only dissipates
  drop = math.max(drop, E0 - e)
  prev = e
  moved = math.max(moved, math.abs(col["joint1.phi"][r] - col["joint1.phi"][1]))
end
T.check(moved > 1, "the linkage moves")
T.check(maxgap < 1e-4, string.format("loop closure gap %.3g m", maxgap))
T.check(rise < 1e-6, string.format("energy never rises (max rise %.3g J)", rise))
T.check(drop / math.abs(E0) < 1e-3, string.format("relative energy loss %.3g", drop / math.abs(E0)))

-- a 4x stiffer closure: the gap shrinks about 4x, the motion converges
local col2 = run(FourBar { closure = { c = 4e6, d = 100 }, experiment = { dt = 5e-5 } })
local gap2, dphi = 0, 0
for r = 1, rows do
  gap2 = math.max(gap2, col2["closure.s"][r])
  dphi = math.max(dphi, math.abs(col2["joint1.phi"][r] - col["joint1.phi"][r]))
end
T.check(gap2 < maxgap / 3, string.format("stiffer closure: gap %.3g < %.3g / 3", gap2, maxgap))
T.check(dphi < 1e-2, string.format("stiffer closure: crank angle differs by %.3g rad", dphi))
io.stdout:write(string.format("gap %.3g m (c = 1e6), %.3g m (c = 4e6); crank angle difference %.3g rad\n",
  maxgap, gap2, dphi))
T.done()
