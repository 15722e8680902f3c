-- Solvers across a discontinuity (docs/events.md): examples/heated_loop.lua
-- switches its heater on at t = 30 s by a Step, a time event every solver
-- lands on. Compared over 0..60 s (every 2 s, both rows at 30 s) with a
-- reference (dopri45 at tol 1e-13, cross-checked against cvode):
--  - rk4 converges at fourth order again (the error falls by ~16 per halving
--    of dt; before time events the last stage of the step ending at 30 s saw
--    the heater on and the error was first order);
--  - dopri45 and esdirk23 keep the global error within 10 x tol from 1e-3 to
--    1e-8 (esdirk23 failed with "step size underflow" at 1e-6..1e-8 before).
local lied = require "lied"
local T = require "tests.testing"

local Loop = dofile("examples/heated_loop.lua")
local vars = { "heated.heater.T", "vol.T", "cooler.T", "pump.m_flow" }
local function traj(opts)
  opts.vars = table.concat(vars, ",")
  opts.interval, opts.stop = 2, 60
  local r = lied.build(Loop):run(opts)
  local out = { time = T.column(r, "time") }
  for _, v in ipairs(vars) do out[v] = T.column(r, v) end
  return out
end
-- largest error relative to 1 + |reference| over every row and variable
local function err(a, b, tag)
  T.eq(#a.time, #b.time, tag .. ": rows")
  local w = 0
  for i = 1, math.min(#a.time, #b.time) do
    if a.time[i] ~= b.time[i] then T.check(false, tag .. ": row times differ at row " .. i) return math.huge end
    for _, v in ipairs(vars) do w = math.max(w, math.abs(a[v][i] - b[v][i]) / (1 + math.abs(b[v][i]))) end
  end
  return w
end

local ref = traj { solver = "dopri45", tol = 1e-13 }
local n30 = 0
for _, t in ipairs(ref.time) do if t == 30 then n30 = n30 + 1 end end
T.eq(n30, 2, "two rows at the heater's switch")
local ok, cv = pcall(traj, { solver = "cvode", tol = 1e-12 })
if ok then T.check(err(cv, ref, "cvode") < 1e-10, "reference agrees with cvode at tol 1e-12") end

local prev
for _, dt in ipairs { 0.2, 0.1, 0.05, 0.025 } do
  local e = err(traj { solver = "rk4", dt = dt }, ref, "rk4 dt " .. dt)
  if prev then
    T.check(prev / e > 12 and prev / e < 30,
      string.format("rk4: error falls by %.1f from dt %g to %g (fourth order: 16)", prev / e, 2 * dt, dt))
  end
  prev = e
end
T.check(prev < 2e-9, string.format("rk4 dt 0.025: error %.3g", prev))

for _, s in ipairs { "dopri45", "esdirk23" } do
  for _, tol in ipairs { 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8 } do
    local e = err(traj { solver = s, tol = tol }, ref, s .. " tol " .. tol)
    T.check(e <= 10 * tol, string.format("%s tol %g: global error %.3g <= 10 tol", s, tol, e))
  end
end
T.done()
