-- The hand-written crane crabs of bench/ must compute the same crane crab as
-- lied: crab 0 of `PROG 1 10000 1e-3 --csv F` against
-- `lied run examples/cranecrab.lua` (rk4, dt 1e-3, 0..10 s, a row at every
-- step), every state at every step to 1e-9, for PROG = flat_cranecrab (the
-- flat reference) and lanes_cranecrab (the lane-block experiment). The
-- benchmark's time ratios mean something only if all integrate the same
-- equations. The binaries: $FLAT_BIN / $LANES_BIN, else
-- <dir of $LIED_BIN>/bench/<name>.
local T = require "tests.testing"

local lied_bin = T.lied
local dir = lied_bin:match("^(.*)/[^/]*$") or "."
local progs = {}
for _, p in ipairs { { "flat_cranecrab", "FLAT_BIN" }, { "lanes_cranecrab", "LANES_BIN" } } do
  local bin = os.getenv(p[2])
  if not bin or bin == "" then bin = dir .. "/bench/" .. p[1] end
  local probe = io.open(bin, "r")
  if T.check(probe ~= nil, p[1] .. " binary " .. bin ..
      " exists (build the " .. p[1] .. " target, or set " .. p[2] .. ")") then
    probe:close()
    progs[#progs + 1] = { name = p[1], bin = bin }
  end
end

local dt, stop = 1e-3, 10
local steps = math.floor(stop / dt + 0.5)
local lied_csv = os.tmpname() .. ".csv"

local code, out, err = T.sh(string.format(
  "%q run examples/cranecrab.lua --solver rk4 --dt %.17g --start 0 --stop %g --interval %.17g " ..
  "--vars prismatic1.s,prismatic1.v,revolute2.phi,revolute2.w --out %q --stats",
  lied_bin, dt, stop, dt, lied_csv))
T.eq(code, 0, "lied run exit status (" .. err .. ")")
T.check(err:find("steps " .. steps .. ",", 1, true), "lied took " .. steps .. " steps: " .. err)

local lnames, lrows = T.take_csv(lied_csv)
T.eq(#lrows, steps + 1, "lied rows (t = 0 and every step)")

local function index(names)
  local ix = {}
  for i, n in ipairs(names) do ix[n] = i end
  return ix
end
local li = index(lnames)
local vars = { "prismatic1.s", "prismatic1.v", "revolute2.phi", "revolute2.w" }

for _, prog in ipairs(progs) do
  local csv = os.tmpname() .. ".csv"
  code, out, err = T.sh(string.format("%q %d %d %.17g --csv %q", prog.bin, 1, steps, dt, csv))
  T.eq(code, 0, prog.name .. " exit status (" .. err .. ")")
  T.check(out:find("crabs 1 steps " .. steps .. " evaluations " .. 4 * steps, 1, true),
    prog.name .. " summary line: " .. out)
  local fnames, frows = T.take_csv(csv)
  T.eq(#frows, steps + 1, prog.name .. " rows (t = 0 and every step)")
  local fi = index(fnames)
  for _, v in ipairs(vars) do
    T.check(fi[v] and li[v], "column " .. v .. " in both CSVs (" .. prog.name .. ")")
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
  T.check(timeerr < 1e-12, string.format("%s: output times agree (max diff %.3g)", prog.name, timeerr))
  for _, v in ipairs(vars) do
    T.check(maxerr[v] <= tol, string.format("%s %s: max |lied - it| = %.3g at t = %g (tol %g)",
      prog.name, v, maxerr[v], at[v], tol))
    io.stdout:write(string.format("%-15s %-14s max |lied - it| = %.3g (at t = %g)\n", prog.name, v,
      maxerr[v], at[v]))
  end
end

-- every copy: 37 crabs (a full group of 32 lanes and a partial one) starting
-- at different angles (--vary): the sum of all final states agrees
local sums = {}
for _, prog in ipairs(progs) do
  code, out, err = T.sh(string.format("%q 37 2000 1e-3 --vary", prog.bin))
  T.eq(code, 0, prog.name .. " 37 crabs --vary (" .. err .. ")")
  sums[#sums + 1] = tonumber(out:match("state_sum (%S+)"))
  T.check(sums[#sums] ~= nil, prog.name .. " prints state_sum: " .. out)
  -- blocks of 64 steps per call (lanes: each group through all 64) and a
  -- shorter last one: the same bits as one step per call
  local c2, o2, e2 = T.sh(string.format("%q 37 2000 1e-3 --vary --block 64", prog.bin))
  T.eq(c2, 0, prog.name .. " --block 64 (" .. e2 .. ")")
  T.eq(o2:match("state_sum (%S+)"), out:match("state_sum (%S+)"),
    prog.name .. ": --block 64 gives the same state sum")
end
if #sums == 2 and sums[1] and sums[2] then
  T.check(math.abs(sums[1] - sums[2]) <= 1e-9 * math.abs(sums[1]),
    string.format("37 varied crabs: state sums %.17g and %.17g agree", sums[1], sums[2]))
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
