-- The hand-written battery pack of bench/ (flat_battery.c) must compute the same pack as
-- lied: `flat_battery 8 3 2 300 1 --csv F` (8 groups of 3 cells in modules of 2 groups, 300
-- RK4 steps of 1 s over the WLTC's start) against `lied run examples/battery_pack.lua` with
-- the same sizes, solver and step: every cell's SoC, u1, u2, T and every plate's h to 1e-9
-- relative. The benchmark's ratio (bench/battery) means something only if both integrate
-- the same equations. The binary: $FLAT_BATTERY_BIN, else <dir of $LIED_BIN>/bench/.
local T = require "tests.testing"

local dir = T.lied:match("^(.*)/[^/]*$") or "."
local bin = os.getenv("FLAT_BATTERY_BIN")
if not bin or bin == "" then bin = dir .. "/bench/flat_battery" end
local probe = io.open(bin, "r")
if T.check(probe ~= nil, "flat_battery binary " .. bin .. " exists (build the flat_battery target)") then
  probe:close()
  local flat_csv, lied_csv = os.tmpname(), os.tmpname() .. ".csv"
  local code, _, err = T.sh(string.format("%q 8 3 2 300 1 --csv %q", bin, flat_csv))
  T.eq(code, 0, "flat_battery exit status (" .. err .. ")")
  local flat = {}
  for line in io.lines(flat_csv) do
    local name, v = line:match("^([^,]+),(.+)$")
    flat[name] = tonumber(v)
  end
  os.remove(flat_csv)
  code, _, err = T.sh(string.format("%q run examples/battery_pack.lua --set s=8 --set p=3 " ..
    "--set g=2 --stop 300 --interval 300 --vars 'module[*].group[*].cell[*].SoC," ..
    "module[*].group[*].cell[*].u1,module[*].group[*].cell[*].u2,module[*].group[*].cell[*].T," ..
    "module[*].plate.h' --out %q", T.lied, lied_csv))
  T.eq(code, 0, "lied run exit status (" .. err .. ")")
  local names, rows = T.take_csv(lied_csv)
  local last, worst, n = rows[#rows], 0, 0
  for _, name in ipairs(names) do
    if name ~= "time" then
      local f = flat[name]
      if T.check(f ~= nil, "flat_battery has " .. name) then
        worst = math.max(worst, math.abs(last[name] - f) / math.max(math.abs(f), 1e-300))
        n = n + 1
      end
    end
  end
  print(string.format("%d states, worst relative difference %.3g", n, worst))
  T.eq(n, 8 * 3 * 4 + 4, "every state compared")
  T.check(worst < 1e-9, "flat_battery and lied integrate the same pack: " .. worst)
end

T.done()
