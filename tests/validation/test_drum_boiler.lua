-- Validation of examples/drum_boiler.lua (a two-phase steam drum, IAPWS-IF97):
-- with the steam valve closed and no heat, no feed, the drum's mass and
-- energy stay put to 1e-8 relative; with heat on and the valve closed
-- (leakage 1e-9; before the Jacobian's steps were scaled to the tolerances,
-- esdirk23 crawled after the firing step's time event) the energy grows by
-- Q t and the mass stays, to 1e-8, and
-- the pressure rises along the saturation line, T = Tsat(p) at every output;
-- a drum at 18 MPa heated the same way boils up to the critical point and
-- goes on as supercritical fluid (region 3), conserving mass and energy;
-- the controlled run holds
-- 3 MPa after the firing step, on the saturation line throughout.
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"

local Drum = dofile("examples/drum_boiler.lua")
local function run(set, opts)
  opts = opts or {}
  opts.set = set
  local res = lied.simulate(Drum, opts):run()
  local cols = {}
  for _, n in ipairs { "time", "drum.p", "drum.T", "drum.M", "drum.U", "valve.y" } do
    cols[n] = assert(T.column(res, n))
  end
  return cols
end
-- the valve closed: the controller's output held at 0 (no gain, no integral),
-- a leakage of 1e-9 of the open flow; no feed
local closed = { ["pi.k"] = 0, ["pi.x"] = 0, ["valve.leakage"] = 1e-9, ["feed.m_flow"] = 0,
                 ["drum.m_flow"] = 0 }

-- 1. closed and unheated: mass and energy conserved
local set = {}
for k, v in pairs(closed) do set[k] = v end
set["firing.offset"], set["firing.height"] = 0, 0
local c = run(set)
local n = #c.time
T.near(c.time[n], 400, 0, "run to the end")
local M0, U0 = c["drum.M"][1], c["drum.U"][1]
local dM, dU = 0, 0
for i = 1, n do
  dM = math.max(dM, math.abs(c["drum.M"][i] - M0) / M0)
  dU = math.max(dU, math.abs(c["drum.U"][i] - U0) / math.abs(U0))
  T.eq(c["valve.y"][i], 0, "valve closed")
end
T.check(dM <= 1e-8, string.format("closed, unheated: mass conserved (max rel. change %.2e)", dM))
T.check(dU <= 1e-8, string.format("closed, unheated: energy conserved (max rel. change %.2e)", dU))
T.near(c["drum.p"][n], 3e6, 1e-6 * 3e6, "pressure unchanged")

-- A closed drum heated by 8.2 MW, then 10 MW from t = 100 s: at every
-- output U = U0 + int Q and M = M0 to 1e-8; each(i) for the case's own
-- checks; true when the pressure rises at every output.
local function heated(c, what, each)
  local M0, U0, rising = c["drum.M"][1], c["drum.U"][1], true
  for i = 1, #c.time do
    local t = c.time[i]
    local E = 8.2e6 * t + (t > 100 and 1.8e6 * (t - 100) or 0)
    T.near(c["drum.M"][i], M0, 1e-8 * M0, what .. ": mass at t = " .. t)
    T.near(c["drum.U"][i], U0 + E, 1e-8 * (U0 + E), what .. ": energy at t = " .. t)
    each(i)
    -- (the firing step is a time event: two rows at t = 100)
    if i > 1 and (c["drum.p"][i] < c["drum.p"][i - 1] or
                  (c["drum.p"][i] == c["drum.p"][i - 1] and c.time[i] ~= c.time[i - 1])) then
      rising = false
    end
  end
  return rising
end

-- 2. closed and heated: U = U0 + int Q, M constant, p rises, T = Tsat(p)
set = {}
for k, v in pairs(closed) do set[k] = v end
c = run(set)
n = #c.time
local worstT = 0
local rising = heated(c, "heated, closed", function(i)
  worstT = math.max(worstT, math.abs(c["drum.T"][i] - tf.steam:Tsat(c["drum.p"][i])))
end)
T.check(rising, "heated, closed: the pressure rises at every output")
T.check(c["drum.p"][n] > 4e6, "heated, closed: more than 4 MPa after 400 s: " .. c["drum.p"][n])
T.check(worstT <= 1e-9 * 600, string.format("heated, closed: T = Tsat(p) (worst %.2e K)", worstT))
T.check(tf.steam:x_ph(c["drum.p"][n], tf.steam:h_pT(c["drum.p"][n], c["drum.T"][n] - 1)) == 0,
  "the drum's T is the saturation temperature (1 K below it is liquid)")

-- 3. a high-pressure drum through the critical point (region 3 of IF97):
-- closed, unheated at first 18 MPa with 30 % steam, heated as in 2: the
-- content boils on region 3's saturation line up to 22.064 MPa, leaves the
-- dome near the critical point and goes on as supercritical fluid; the
-- energy grows by Q t, the mass stays, the pressure rises at every output,
-- T = Tsat(p) while two-phase
set = {}
for k, v in pairs(closed) do set[k] = v end
set["drum.p0"], set["drum.x0"] = 18e6, 0.3
c = run(set)
n = #c.time
local two, super
worstT = 0
rising = heated(c, "high pressure", function(i)
  local st = tf.steam:state_rhou(c["drum.M"][i] / 20, c["drum.U"][i] / c["drum.M"][i])
  if st.region == 4 then
    two = (two or 0) + 1
    worstT = math.max(worstT, math.abs(c["drum.T"][i] - tf.steam:Tsat(c["drum.p"][i])))
  elseif st.region == 3 and c["drum.p"][i] > 22.064e6 then
    super = (super or 0) + 1
  end
end)
T.check(rising, "high pressure: the pressure rises at every output")
T.check((two or 0) > 50 and (super or 0) > 50,
  string.format("high pressure: two-phase at %s outputs, then supercritical at %s", two, super))
T.check(worstT <= 1e-9 * 650, string.format("high pressure: T = Tsat(p) while two-phase (worst %.2e K)", worstT))
T.near(c["drum.p"][1], 18e6, 1e-6 * 18e6, "high pressure: starts at 18 MPa")
T.check(c["drum.p"][n] > 50e6, "high pressure: over 50 MPa after 400 s: " .. c["drum.p"][n])

-- 4. the controlled run: the pressure peaks after the step and returns to 3 MPa
c = run({})
n = #c.time
local peak = 0
for i = 1, n do
  peak = math.max(peak, c["drum.p"][i])
  T.near(c["drum.T"][i], tf.steam:Tsat(c["drum.p"][i]), 1e-9 * 600, "controlled: T = Tsat(p)")
  if c.time[i] <= 100 then T.near(c["drum.p"][i], 3e6, 1e3, "controlled: 3 MPa before the step") end
end
T.check(peak > 3.03e6 and peak < 3.1e6, "controlled: the step raises the pressure by 1 to 3 %: " .. peak)
T.near(c["drum.p"][n], 3e6, 5e3, "controlled: back at 3 MPa")
T.check(c["valve.y"][n] > 0.45, "controlled: the valve opened to pass the extra steam")
T.done()
