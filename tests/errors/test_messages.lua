-- Messages that say what is wrong (issue 47, item 10), by class:
-- suggestions never repeat the name given (a per-copy key naming a child,
-- body2, got "did you mean 'body2'?") nor offer something of another kind;
-- a medium's inverse outside the range names the range, whatever the
-- property and the pressure (T_ph(1e5, 1e300) said "no convergence of
-- Newton's method" where T_ps said "above 2273.15 K"); an empty time
-- interval is that, at any time (start = stop = 1e20 got a message about the
-- step size).
local lied = require "lied"
local T = require "tests.testing"
local tf = require "lied.thermofluid"
local S = require "lied.signals"
local src = os.getenv("LIED_SRC") or "."

-- ---- suggestions ----------------------------------------------------------------
T.eq(lied.core.suggest("body2", { "body2" }), nil, "the name itself is never the suggestion")
T.eq(lied.core.suggest("body2", { "body2", "body3" }), "body3", "another close name still is")
local CraneCrab = dofile(src .. "/examples/cranecrab.lua")
T.raises(function() return lied.build(lied.model "E" { crab = lied.array(CraneCrab, 3, { body2 = 3 }) }) end,
  { "crab: per-copy parameter 'body2': 'body2' is a component of CraneCrab, not a parameter" },
  "a per-copy key naming a child")
local ok, err = pcall(lied.build, lied.model "E" { crab = lied.array(CraneCrab, 3, { body22 = 3 }) })
T.check(not ok and not tostring(err):find("did you mean", 1, true),
  "a per-copy key near a child's name: no child suggested as a parameter: " .. tostring(err))
local Inner = lied.model "Inner" { parameters = { g = 1 }, c = lied.array(S.Constant, 2) }
T.raises(function() return lied.build(lied.model "O" { i = lied.array(Inner, 2, { c = 1 }) }) end,
  { "per-copy parameter 'c': 'c' is a component of Inner, not a parameter" }, "a child that is an array")
T.raises(function() return lied.build(lied.model "O" { i = lied.array(Inner, 2, { gg = 1 }) }) end,
  { "per-copy parameter 'gg': Inner has no such parameter (did you mean 'g'?)" }, "a misspelt parameter")

-- ---- a medium's range ------------------------------------------------------------
local steam = tf.steam
for _, p in ipairs { 1e-3, 1e5, 10e6, 40e6 } do
  for _, f in ipairs { "T_ph", "T_ps", "h_ps", "state_ph", "x_ph", "rho_ph" } do
    local ok2, e = pcall(steam[f], steam, p, 1e300)
    T.check(not ok2 and tostring(e):find("above 2273.15 K (the highest T of IF97)", 1, true),
      f .. "(" .. p .. ", 1e300): " .. tostring(e))
  end
end
for _, f in ipairs { "T_ph", "T_ps", "state_ps" } do
  local ok2, e = pcall(steam[f], steam, 60e6, 1e300)
  T.check(not ok2 and tostring(e):find("above 1073.15 K IF97 holds up to 50 MPa", 1, true),
    f .. "(60 MPa, 1e300): " .. tostring(e))
end
for _, rho in ipairs { 1e-3, 1, 10 } do
  for _, f in ipairs { "T_rhou", "p_rhou", "state_rhou" } do
    local ok2, e = pcall(steam[f], steam, rho, 1e300)
    T.check(not ok2 and tostring(e):find("above 2273.15 K (the highest T of IF97)", 1, true),
      f .. "(" .. rho .. ", 1e300): " .. tostring(e))
  end
end
for _, c in ipairs { { "T_ph", 1e5, -1e300 }, { "T_ps", 1e5, -1e300 }, { "T_rhou", 1, -1e300 } } do
  local ok2, e = pcall(steam[c[1]], steam, c[2], c[3])
  T.check(not ok2 and tostring(e):find("below 273.15 K (the lowest T of IF97)", 1, true),
    c[1] .. " far below: " .. tostring(e))
end

-- ---- an empty interval, at any time ------------------------------------------------
local Osc = dofile(src .. "/tests/models/osc.lua")
for _, t in ipairs { 1, 1e20, -1e20, 1e300 } do
  T.raises(function() return lied.build(Osc):run { start = t, stop = t } end,
    { string.format("stop time %.17g must be after start time %.17g", t, t) }, "start = stop = " .. t, "usage")
end
T.raises(function() return lied.build(Osc):run { start = 1e20, stop = 1e19, dt = 1 } end,
  { "must be after start time" }, "stop before start at 1e20")
local code, _, e = T.sh(string.format("%s run %s/tests/models/osc.lua --start 1e20 --stop 1e20 --out none", T.lied, src))
T.eq(code, 2, "lied run --start 1e20 --stop 1e20: status")
T.check(e:find("stop time 1e+20 must be after start time 1e+20", 1, true), "lied run: " .. e)
T.done()
