-- examples/ev_thermal.lua: the PI controller holds the battery near 308 K
-- over the drive cycle, the valve pair splits the coolant by the opening,
-- flows add up, and the battery's energy balance closes. The drive cycle is
-- the 1,801 rows of examples/wltc_class3b.csv, followed exactly at the rows
-- and none of them an event: `lied run --interval 150` writes the 13 output
-- rows and the valves' events, no row at any other whole second.
local lied = require "lied"
local T = require "tests.testing"

local EV = dofile("examples/ev_thermal.lua")
local sim = lied.simulate(EV, { interval = 1 })
local res = sim:run()
local function col(n) return assert(T.column(res, n)) end
local t, Tb, y = col("time"), col("battery.T"), col("v_rad.y")
local load, contact = col("load.Q_flow"), col("contact.Q_flow")
local pump, rad, byp = col("pump.m_flow"), col("v_rad.m_flow"), col("v_byp.m_flow")

local lo, hi = math.huge, -math.huge
for i = 1, #t do
  if t[i] >= 300 then lo, hi = math.min(lo, Tb[i]), math.max(hi, Tb[i]) end
  T.check(y[i] >= 0 and y[i] <= 1, "opening within [0, 1]")
  T.near(rad[i] + byp[i], pump[i], 1e-6, "branch flows add up to the pump flow")
end
print(string.format("battery after warm-up: %.2f .. %.2f K", lo, hi))
T.check(lo > 306 and hi < 310, string.format("battery within 2 K of 308 K after 300 s: %.2f .. %.2f", lo, hi))
T.check(hi > 308, "the load drives the battery above the setpoint, the controller answers")

-- fully open radiator valve: the bypass carries only its leakage (f = 1e-4 at
-- the same pressure drop as the open radiator valve: 1e-4 of its flow)
-- (after 20 s in that position: the flows have inertia)
local function held(i, v)
  for k = math.max(1, i - 20), i do if y[k] ~= v then return false end end
  return i > 20
end
local nopen, nclosed = 0, 0
for i = 1, #t do
  if held(i, 1) then
    T.near(byp[i] / rad[i], 1e-4, 1e-6, "open radiator: bypass leaks")
    nopen = nopen + 1
  end
  if held(i, 0) then
    T.near(rad[i] / byp[i], 1e-4, 1e-6, "closed radiator: radiator leaks")
    nclosed = nclosed + 1
  end
end
T.check(nopen > 0 and nclosed > 0, "the valves go both ways over the cycle")

-- battery: C der(T) = load - heat to the plate (trapezoidal rule on 1 s steps)
local E = 0
for i = 2, #t do
  E = E + 0.5 * (t[i] - t[i - 1]) * ((load[i] - contact[i]) + (load[i - 1] - contact[i - 1]))
end
T.near(3e5 * (Tb[#t] - Tb[1]), E, 2e-3 * math.abs(E) + 1e3, "battery energy balance")

-- the cycle: at every whole second the CSV's speed (rows 1 to 1801, 0 .. 1800 s)
local speed, csv = col("cycle.y"), {}
for line in io.lines("examples/wltc_class3b.csv") do
  local a, b = line:match("^(%d+),([%d.]+)$")
  if a then csv[tonumber(a)] = tonumber(b) end
end
local n, bad = 0, 0
for i = 1, #t do
  if t[i] == math.floor(t[i]) then
    n = n + 1
    if speed[i] ~= csv[math.tointeger(t[i])] then bad = bad + 1 end
  end
end
T.eq(#csv + 1, 1801, "the drive cycle has 1,801 rows")
T.check(n >= 1801 and bad == 0, string.format("speed = the CSV's at each of %d whole seconds (%d differ)", n, bad))
-- max speed 131.3 km/h and distance 23.27 km (the published figures of WLTC class 3b)
local dist, vmax = 0, 0
for k = 1, 1800 do dist, vmax = dist + (csv[k] + csv[k - 1]) / 2 / 3.6, math.max(vmax, csv[k]) end
T.near(dist, 23266, 1, "WLTC class 3b: 23.27 km")
T.eq(vmax, 131.3, "WLTC class 3b: 131.3 km/h at most")

-- no event per row: every row the CLI writes is an output point (every 150 s)
-- or one of a pair at a valve's event, none at another whole second
local tmp = os.tmpname()
local out = tmp .. ".csv"
T.sh(string.format("%s run examples/ev_thermal.lua --interval 150 --out %s", T.lied, out))
local rows, at_output, pairs_, stray = 0, 0, 0, 0
local prev
for line in io.lines(out) do
  local tt = tonumber(line:match("^([^,]+),"))
  if tt then
    rows = rows + 1
    if tt % 150 == 0 then at_output = at_output + 1
    elseif tt == math.floor(tt) then stray = stray + 1
    elseif tt == prev then pairs_ = pairs_ + 1 end
    prev = tt
  end
end
os.remove(out)
os.remove(tmp)
print(string.format("--interval 150: %d rows (%d output points, %d event pairs)", rows, at_output, pairs_))
T.check(at_output >= 13, "the 13 output points")
T.eq(stray, 0, "no row at a drive-cycle row")
T.eq(rows, at_output + 2 * pairs_, "every other row is one of a pair at an event")
T.check(rows < 60, string.format("%d rows (3,600 with an event per row)", rows))
T.done()
