-- A recorded variable that is not finite ends the run: the solvers check the
-- states, and before this a variable computed from finite states (a power of
-- 1e308 V over 1 Ohm, a gain past the doubles) reached the results as inf
-- with exit 0. The message names the variable and the time; the rows before
-- are kept (as for a state).
local lied = require "lied"
local el = require "lied.electrical"
local S = require "lied.signals"
local T = require "tests.testing"

-- inf from the first row: r.P = V^2 / R overflows
local Big = lied.model "Big" {
  gnd = el.Ground {}, v = el.VoltageSource { V = 1e308 }, r = el.Resistor { R = 1 },
  connect = { { "v.n", "gnd.p" }, { "r.p", "v.p" }, { "r.n", "gnd.p" } },
}
local res, stats, err = lied.build(Big):run { stop = 1, vars = "r.*" }
T.check(err and err:find("at t = 0: variable r.P became inf", 1, true), "r.P: " .. tostring(err))
T.eq(res:nrows(), 0, "no row before the first")
-- not recorded: not checked (the states are finite)
res, stats, err = lied.build(Big):run { stop = 1, vars = "r.i" }
T.check(not err, "r.P not recorded: " .. tostring(err))

-- inf later in the run: the power of 1e155 sin(2 pi t) V over 1 Ohm leaves the doubles
-- where |sin| > 0.134 (a Gain past the doubles faults, naming itself: test_nonfinite.lua)
local Later = lied.model "Later" {
  gnd = el.Ground {}, s = S.Sine { amplitude = 1e155, f = 1 }, v = el.VoltageSource {},
  r = el.Resistor { R = 1 },
  connect = { { "v.n", "gnd.p" }, { "r.p", "v.p" }, { "r.n", "gnd.p" }, { "s.y", "v.u" } },
}
for _, solver in ipairs { "rk4", "dopri45", "esdirk23" } do
  res, stats, err = lied.build(Later):run { stop = 1, solver = solver, interval = 0.01, vars = "r.P" }
  local t = tonumber((err or ""):match("^at t = ([%d%.e%-]+): variable r.P became inf"))
  T.check(t and t > 0.02 and t < 0.04, solver .. ": " .. tostring(err))
  local n = res:nrows()
  T.check(n >= 2 and n <= 4, solver .. ": the rows before kept: " .. n)
  local y = T.column(res, "r.P")
  T.check(y[n] == y[n] and math.abs(y[n]) < math.huge, solver .. ": the last row finite")
end

-- the command line: the exit status of a failed run, the message on stderr (the
-- Division may name itself first)
local f = os.tmpname() .. ".lua"
local h = io.open(f, "w")
h:write([[
local lied = require "lied"
local S = require "lied.signals"
return lied.model "Nan" { c = S.Constant { k = 0 }, d = S.Division {},
  connect = { { "c.y", "d.u1" }, { "c.y", "d.u2" } } }
]])
h:close()
local code, _, e = T.sh(string.format("%s run %s --stop 1 --vars d.y --out -", T.lied, f))
T.check(code ~= 0 and e:find("at t = 0", 1, true) and
  (e:find("variable d.y became", 1, true) or e:find("d: ", 1, true)),
  "0/0 in a Division fails the run, named: " .. code .. " " .. e)
os.remove(f)
T.done()
