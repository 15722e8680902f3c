-- The flat hand-written reference (bench/flat_cranecrab.c) must compute the
-- same crane crab as lied: crab 0 of `flat_cranecrab 1 10000 1e-3 --csv F`
-- against `lied run examples/cranecrab.lua` (rk4, dt 1e-3, 0..10 s, a row at
-- every step), every state at every step to 1e-9. The benchmark's time ratio
-- lied/flat means something only if both integrate the same equations.
-- The flat binary: $FLAT_BIN, else <dir of $LIED_BIN>/bench/flat_cranecrab.
local T = require "tests.testing"

local lied_bin = T.lied
local flat_bin = os.getenv("FLAT_BIN")
if not flat_bin or flat_bin == "" then
  local dir = lied_bin:match("^(.*)/[^/]*$") or "."
  flat_bin = dir .. "/bench/flat_cranecrab"
end
local probe = io.open(flat_bin, "r")
if not T.check(probe ~= nil, "flat reference binary " .. flat_bin ..
    " exists (build the flat_cranecrab target, or set FLAT_BIN)") then
  T.done()
end
probe:close()

local dt, stop = 1e-3, 10
local steps = math.floor(stop / dt + 0.5)
local flat_csv, lied_csv = os.tmpname() .. ".csv", os.tmpname() .. ".csv"

local code, out, err = T.sh(string.format("%q %d %d %.17g --csv %q", flat_bin, 1, steps, dt, flat_csv))
T.eq(code, 0, "flat_cranecrab exit status (" .. err .. ")")
T.check(out:find("crabs 1 steps " .. steps .. " evaluations " .. 4 * steps, 1, true),
  "flat_cranecrab summary line: " .. out)

code, out, err = T.sh(string.format(
  "%q run examples/cranecrab.lua --solver rk4 --dt %.17g --start 0 --stop %g --interval %.17g " ..
  "--vars prismatic1.s,prismatic1.v,revolute2.phi,revolute2.w --out %q --stats",
  lied_bin, dt, stop, dt, lied_csv))
T.eq(code, 0, "lied run exit status (" .. err .. ")")
T.check(err:find("steps " .. steps .. ",", 1, true), "lied took " .. steps .. " steps: " .. err)

-- CSV -> header names, rows of numbers
local function read_csv(path)
  local f = assert(io.open(path, "r"))
  local names = {}
  for name in f:read("l"):gmatch("[^,]+") do names[#names + 1] = name end
  local rows = {}
  for line in f:lines() do
    local r = {}
    for v in line:gmatch("[^,]+") do r[#r + 1] = tonumber(v) end
    rows[#rows + 1] = r
  end
  f:close()
  os.remove(path)
  return names, rows
end
local fnames, frows = read_csv(flat_csv)
local lnames, lrows = read_csv(lied_csv)

T.eq(#frows, steps + 1, "flat rows (t = 0 and every step)")
T.eq(#lrows, steps + 1, "lied rows (t = 0 and every step)")

local function index(names)
  local ix = {}
  for i, n in ipairs(names) do ix[n] = i end
  return ix
end
local fi, li = index(fnames), index(lnames)
local vars = { "prismatic1.s", "prismatic1.v", "revolute2.phi", "revolute2.w" }
for _, v in ipairs(vars) do
  T.check(fi[v] and li[v], "column " .. v .. " in both CSVs")
end

local tol = 1e-9
local maxerr, at = {}, {}
local timeerr = 0
for _, v in ipairs(vars) do maxerr[v], at[v] = 0, 0 end
for r = 1, math.min(#frows, #lrows) do
  timeerr = math.max(timeerr, math.abs(frows[r][fi.time] - lrows[r][li.time]))
  for _, v in ipairs(vars) do
    local e = math.abs(frows[r][fi[v]] - lrows[r][li[v]])
    if e ~= e then e = math.huge end -- NaN counts as a mismatch
    if e > maxerr[v] then maxerr[v], at[v] = e, lrows[r][li.time] end
  end
end
T.check(timeerr < 1e-12, string.format("output times agree (max diff %.3g)", timeerr))
for _, v in ipairs(vars) do
  T.check(maxerr[v] <= tol, string.format("%s: max |lied - flat| = %.3g at t = %g (tol %g)",
    v, maxerr[v], at[v], tol))
  io.stdout:write(string.format("%-14s max |lied - flat| = %.3g (at t = %g)\n", v, maxerr[v], at[v]))
end

-- not a trivial trajectory: the pendulum swings through, the cart moves
local minphi, maxs = 0, 0
for r = 1, #lrows do
  minphi = math.min(minphi, lrows[r][li["revolute2.phi"]])
  maxs = math.max(maxs, math.abs(lrows[r][li["prismatic1.s"]]))
end
T.check(minphi < -math.pi, "the pendulum swings through the bottom")
T.check(maxs > 0.3, "the cart moves")
T.done()
