-- A zero function that jumps across zero at a time event (docs/events.md):
-- a Step feeding a Hysteresis jumps from below uLow to above uHigh at t0, a
-- second Step takes it back below uLow at t1. The Hysteresis must switch at
-- exactly those times (two rows each: before and after), with every solver;
-- before the fix (src/solve/events.c, settle) the jump was compared with
-- nothing and the output stayed low.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"

local M = lied.model "Jump" {
  up = S.Step { height = 1, t0 = 1 },
  down = S.Step { height = -1, t0 = 1.5 },
  sum = S.Add {},
  h = S.Hysteresis { uLow = 0.2, uHigh = 0.5, yLow = 0, yHigh = 7 },
  i = S.Integrator {}, -- a state (cvode needs one): 7 over [1, 1.5]
  connect = { { "up.y", "sum.u1" }, { "down.y", "sum.u2" }, { "sum.y", "h.u" },
              { "h.y", "i.u" } },
}

local function switches(res)
  local t, y = T.column(res, "time"), T.column(res, "h.y")
  local out = {}
  for i = 2, #t do
    if t[i] == t[i - 1] and y[i] ~= y[i - 1] then
      out[#out + 1] = { t = t[i], before = y[i - 1], after = y[i] }
    end
  end
  return out, y[#y], T.column(res, "i.y")[#t]
end

local solvers = {
  { solver = "rk4", dt = 0.1 }, { solver = "euler", dt = 0.03 },
  { solver = "dopri45", tol = 1e-8 }, { solver = "esdirk23", tol = 1e-6 },
}
if pcall(function() lied.build(M):run { solver = "cvode", stop = 0.1, out = "none" } end) then
  solvers[#solvers + 1] = { solver = "cvode", tol = 1e-8 }
end
for _, o in ipairs(solvers) do
  o.stop, o.vars = 2, "h.y,i.y"
  local sw, last, int = switches(lied.build(M):run(o))
  T.eq(#sw, 2, o.solver .. ": two switches")
  if #sw == 2 then
    T.eq(sw[1].t, 1, o.solver .. ": up at the first step's time")
    T.eq(sw[1].before, 0, o.solver .. ": low before")
    T.eq(sw[1].after, 7, o.solver .. ": high after")
    T.eq(sw[2].t, 1.5, o.solver .. ": down at the second step's time")
    T.eq(sw[2].after, 0, o.solver .. ": low after")
  end
  T.eq(last, 0, o.solver .. ": low at the end")
  T.near(int, 3.5, 1e-12, o.solver .. ": the integral of the output")
end

os.exit(T.done())
