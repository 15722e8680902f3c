-- A kink and a state event at one instant (docs/events.md, "Kinks"): a
-- Limiter clamping a ramp at 1 (a kink) and a GreaterThreshold on the same
-- ramp at 1 (a state event with a handler) cross together at t = 1. The
-- adaptive solvers located the crossing at the end of the step taken again
-- to the kink and took that step again, for ever (dopri45 and esdirk23 made
-- no progress past t = 0.9993; so did a turbo CompressorMap whose choke
-- margin and efficiency switch meet at a ratio of 1). Reference, written
-- out: y = t^2/2 up to t = 1, 1/2 + (t - 1) after; the comparison switches
-- once, at t = 1.
local lied = require "lied"
local T = require "tests.testing"
local S = require "lied.signals"

local M = lied.model "KinkEvent" {
  one = S.Constant { k = 1 }, clock = S.Integrator {},
  lim = S.Limiter { uMax = 1, uMin = -1 }, int = S.Integrator {},
  cmp = S.GreaterThreshold { threshold = 1 },
  connect = { { "one.y", "clock.u" }, { "clock.y", "lim.u" }, { "lim.y", "int.u" },
              { "clock.y", "cmp.u" } },
}
local b = lied.build(M)
local function ref(t) return t <= 1 and t * t / 2 or 0.5 + (t - 1) end
for _, sv in ipairs { "dopri45", "esdirk23", "cvode" } do
  for _, tol in ipairs { 1e-6, 1e-9 } do
    local r, st, err = b:run { stop = 3, solver = sv, tol = tol, interval = 0.25, vars = "int.y,cmp.y" }
    local what = string.format("%s at tol %g", sv, tol)
    T.check(not err and st.t_end == 3 and not st.interrupted, what .. ": runs to t = 3: " .. tostring(err))
    local t, y, c = r:column("time"), r:column("int.y"), r:column("cmp.y")
    local worst = 0
    for i = 1, #t do worst = math.max(worst, math.abs(y[i] - ref(t[i]))) end
    -- cvode's error through a kink: docs/events.md (up to 100 x tol)
    T.check(worst <= (sv == "cvode" and 100 or 10) * tol * 3,
      string.format("%s: y against the closed form, worst %.3g", what, worst))
    T.eq(st.events, 1, what .. ": one event, the comparison's")
    local switched = 0
    for i = 2, #t do if c[i] ~= c[i - 1] then switched = switched + 1 end end
    T.eq(switched, 1, what .. ": the comparison switches once")
    T.eq(c[#t], 1, what .. ": u > 1 at the end")
  end
end
T.done()
