-- Solver failures keep the results so far: an exponential blow-up
-- x' = 1000 x overflows near t = 0.71 (e^709); every solver stops there with
-- a message naming the time and the state, and the rows up to the failure
-- are in the result and in the (flushed) CSV file.
local lied = require "lied"
local T = require "tests.testing"

local Stiff = dofile("tests/models/errors/stiff.lua")
local built = lied.build(Stiff, { k = 1000 })
local tmp = os.tmpname()
local csv = tmp .. ".csv"

local solvers = { { "rk4", 1e-3 }, { "dopri45" }, { "beuler", 1e-4 }, { "esdirk23" } }
for _, s in ipairs(lied.core.solvers()) do
  if s.name == "cvode" then solvers[#solvers + 1] = { "cvode" } end
end
for _, c in ipairs(solvers) do
  local solver = c[1]
  local res, stats, err = built:run { solver = solver, dt = c[2], stop = 1, interval = 0.01,
                                      out = csv, vars = "i.x" }
  err = err or ""
  io.stdout:write(string.format("%-8s %s\n", solver, err))
  local t_fail = tonumber(err:match("^at t = ([%d%.e%-]+)"))
  T.check(t_fail and t_fail > 0.6 and t_fail < 0.72, solver .. ": message starts with the time: " .. err)
  T.check(err:find("i.x", 1, true), solver .. ": message names the state: " .. err)
  T.check(stats.t_end > 0.6 and stats.t_end < 0.72, solver .. ": t_end " .. stats.t_end)
  local tt = T.column(res, "time")
  T.check(#tt >= 61 and tt[#tt] <= t_fail, string.format("%s: %d rows kept, the last at %g", solver, #tt, tt[#tt]))
  local x = T.column(res, "i.x")
  if not c[2] and solver ~= "cvode" then -- ours, adaptive: the rows kept are the solution
    T.check(math.abs(x[61] / math.exp(1000 * 0.6) - 1) < 1e-3, solver .. ": the rows kept are the solution")
  end
  T.check(x[61] > x[60] and x[60] > x[2], solver .. ": growing")
  local lines = 0
  for _ in io.lines(csv) do lines = lines + 1 end
  T.eq(lines, #tt + 1, solver .. ": CSV rows (flushed)")
end
os.remove(csv)
os.remove(tmp)

-- fixed implicit step where I - h J is singular (h * 1000 = 1): a clear error
local _, _, err = built:run { solver = "beuler", dt = 1e-3, stop = 1, vars = "i.x" }
T.check(err and err:find("at t = 0", 1, true) and err:find("Newton iteration of beuler", 1, true)
  and err:find("i.x", 1, true), "beuler with h = 1 / k: " .. tostring(err))
-- a tolerance no step of doubles meets: the message says so (dopri45 said "state j.v is
-- not finite in every trial step": its error weights 1 / (atol + rtol |x|) overflowed)
local Osc = dofile("tests/models/osc.lua")
for _, solver in ipairs { "dopri45", "esdirk23" } do
  local _, _, e = lied.build(Osc):run { solver = solver, tol = 1e-300, stop = 1, out = "none" }
  e = e or ""
  T.check(e:find("step size underflow", 1, true) and not e:find("not finite", 1, true) and
    e:find("the relative tolerance 1e-300 is below what doubles resolve", 1, true),
    solver .. " at tol 1e-300: " .. e)
end
-- time events closer than the run resolves (a sampler of period 1e-15): chattering, with the
-- time events' hint, not the switching one ("give it hysteresis")
local S = require "lied.signals"
local SH = lied.model "SH" { s = S.Sine { f = 1 }, x = S.SampleHold { period = 1e-15 },
                             connect = { { "s.y", "x.u" } } }
local _, _, e = lied.build(SH):run { stop = 1, out = "none" }
e = e or ""
T.check(e:find("chattering: x triggered", 1, true) and
  e:find("its time events: a period or delay that short is below what the run resolves", 1, true) and
  not e:find("hysteresis", 1, true), "a sampler of period 1e-15: " .. e)
T.done()
