-- The hand-written district network of bench/ (bench/district/flat_district.c:
-- the equations of examples/district_heating.lua written out, its network
-- solved by a tridiagonal sweep, its own RK4) must compute the same
-- trajectories as lied, or the benchmark's ratios compare different work:
--  1. 12 houses from 06:14 (the setpoint's morning ramp: the thermostats
--     open from their lower limit, the valves run through their
--     equal-percentage characteristic; the flows start from rest, where the
--     junctions mix with their regularised weights) for 900 s,
--     rk4 at dt 2e-3 (4e-3 with lied's assertions on): the plant's heat, pump flow, vol.T, vol.p and every
--     house's room temperature, valve flow, controller output and radiator
--     temperature, every 10 s, to 1e-9 of the column's largest magnitude;
--  2. 200 houses (the per-house spread and the mains' segments over a long
--     street; 50 with lied's assertions on) for 12 s from rest at dt 1e-3,
--     long enough for the far end's flow to build up: the same columns for
--     the first, middle and last houses.
-- The binary: $FLAT_DISTRICT_BIN, else <dir of $LIED_BIN>/bench/flat_district.
local T = require "tests.testing"

local dir = T.lied:match("^(.*)/[^/]*$") or "."
local flat = os.getenv("FLAT_DISTRICT_BIN")
if not flat or flat == "" then flat = dir .. "/bench/flat_district" end
local probe = io.open(flat, "r")
if not T.check(probe ~= nil, "flat_district binary " .. flat ..
    " exists (build the flat_district target, or set FLAT_DISTRICT_BIN)") then
  T.done()
end
probe:close()

local tol = 1e-9

-- lied and flat_district over the same steps; compares every column of the
-- flat program's CSV that lied recorded too. Returns lied's rows by name.
local function compare(label, n, start, stop, dt, every, houses)
  local steps = math.floor((stop - start) / dt + 0.5)
  local interval = every * dt
  local vars = { "burner.Q_flow", "pump.m_flow", "vol.T", "vol.p" }
  for _, i in ipairs(houses) do
    for _, v in ipairs { "room.T", "valve.m_flow", "pi.y", "rad.T" } do
      vars[#vars + 1] = string.format("house[%d].%s", i, v)
    end
  end
  local lcsv, fcsv = os.tmpname() .. ".csv", os.tmpname() .. ".csv"
  local code, _, err = T.sh(string.format(
    "%q run examples/district_heating.lua --set n=%d --solver rk4 --dt %.17g --start %.17g " ..
    "--stop %.17g --interval %.17g --vars %s --out %q --threads 1 --stats",
    T.lied, n, dt, start, stop, interval, table.concat(vars, ","), lcsv))
  T.eq(code, 0, label .. ": lied run exit status (" .. err .. ")")
  T.check(err:find("steps " .. steps .. ",", 1, true), label .. ": lied took " .. steps ..
    " steps: " .. err)
  local out
  code, out, err = T.sh(string.format("%q %d %d %.17g --start %.17g --every %d --csv %q",
    flat, n, steps, dt, start, every, fcsv))
  T.eq(code, 0, label .. ": flat_district exit status (" .. err .. ")")
  T.check(out:find("houses " .. n .. " components " .. (14 * n + 8) .. " steps " .. steps ..
    " evaluations " .. 4 * steps, 1, true), label .. ": flat_district's summary: " .. out)
  local _, lrows = T.take_csv(lcsv)
  local fnames, frows = T.take_csv(fcsv)
  T.check(lrows and frows, label .. ": both CSV files were written")
  if not (lrows and frows) then return {} end
  T.eq(#lrows, steps // every + 1, label .. ": lied's rows")
  T.eq(#frows, #lrows, label .. ": flat_district's rows")
  local compared = 0
  for _, v in ipairs(vars) do
    local scale, maxerr, at = 0, 0, nil
    for r = 1, math.min(#lrows, #frows) do
      local a, b = lrows[r][v], frows[r][v]
      if a == nil or b == nil then
        maxerr = math.huge
        break
      end
      scale = math.max(scale, math.abs(a), math.abs(b))
      local e = math.abs(a - b)
      if e ~= e then e = math.huge end -- NaN counts as a mismatch
      if e > maxerr then maxerr, at = e, lrows[r].time end
    end
    local rel = scale > 0 and maxerr / scale or maxerr
    T.check(rel <= tol, string.format("%s %s: max |lied - flat| = %.3g of %.6g (%.2g relative, " ..
      "at t = %s; tol %g)", label, v, maxerr, scale, rel, tostring(at), tol))
    io.stdout:write(string.format("%-8s %-24s max |lied - flat| / max |value| = %.2g\n", label, v,
      rel))
    compared = compared + 1
  end
  local seen = {}
  for _, name in ipairs(fnames) do seen[name] = true end
  for _, v in ipairs(vars) do T.check(seen[v], label .. ": flat_district writes " .. v) end
  T.eq(compared, #vars, label .. ": every column compared")
  return lrows
end

local houses12 = {}
for i = 1, 12 do houses12[i] = i end
-- with lied's assertions on (T.checked: sanitizer builds) rk4 at dt 4e-3
-- (stable: 8e-3 is not), half the steps over the same 900 s
local dt12 = T.checked and 4e-3 or 2e-3
local rows = compare("n = 12", 12, 22440, 23340, dt12, math.floor(10 / dt12 + 0.5), houses12)

-- not a trivial stretch: the thermostats leave their lower limit and open
-- the valves far, the flows grow, the rooms turn from cooling to warming
if #rows > 0 then
  local first, last = rows[1], rows[#rows]
  T.eq(first["house[1].pi.y"], 0.02, "the thermostats start at their lower limit")
  T.check(last["house[1].pi.y"] > 0.8, "house 1's thermostat opens: " .. last["house[1].pi.y"])
  T.check(last["pump.m_flow"] > 2 * rows[2]["pump.m_flow"],
    string.format("the pump's flow grows: %g -> %g", rows[2]["pump.m_flow"], last["pump.m_flow"]))
  -- the hot radiators warm the room first, then it cools until the opening
  -- valves warm it again
  local hi, k = -math.huge, 1
  for r = 1, #rows // 2 do
    if rows[r]["house[1].room.T"] > hi then hi, k = rows[r]["house[1].room.T"], r end
  end
  local lo = math.huge
  for r = k, #rows do lo = math.min(lo, rows[r]["house[1].room.T"]) end
  T.check(hi - lo > 0.01 and last["house[1].room.T"] > lo + 0.01,
    string.format("house 1's room warms, cools (%.4f -> %.4f K), warms again (%.4f K)", hi, lo,
      last["house[1].room.T"]))
end

-- with lied's assertions on (T.checked: sanitizer builds, 10 to 30 times
-- slower) 50 houses: the same street of many mains' segments, the same
-- code, a quarter of the houses
local nf = T.checked and 50 or 200
local far = compare("n = " .. nf, nf, 0, 12, 1e-3, 500, { 1, nf // 2, nf })
local at_end = string.format("house[%d].valve.m_flow", nf)
if #far > 0 then
  T.check(far[#far][at_end] > 1e-3, "the far end's flow has built up: " .. far[#far][at_end])
end
T.done()
