-- Logic on Boolean signals (docs/signals.md, "Logic"): a state machine driven
-- by comparisons of sin t and an on-delay, its transition times against their
-- closed form; hysteresis, off-delay, edges (with a width, and of no width
-- seen by the block they trigger), a triggered sample-and-hold; the truth
-- tables of And, Or, Xor, Not, the switches and BooleanToReal; Boolean ports
-- refused on real ones.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"

local pi = math.pi

-- The times at which column `name` changes (the second row of each pair of
-- rows of an event), and its values after them.
local function changes(res, name)
  local t, v = T.column(res, "time"), T.column(res, name)
  local at, to = {}, {}
  for i = 2, #t do
    if v[i] ~= v[i - 1] then at[#at + 1], to[#to + 1] = t[i], v[i] end
  end
  return at, to
end

local function same_times(got, want, tol, what)
  T.eq(#got, #want, what .. ": the number of switches")
  local worst = 0
  for i = 1, math.min(#got, #want) do worst = math.max(worst, math.abs(got[i] - want[i])) end
  T.check(worst <= tol, string.format("%s: switching times within %g of the closed form (worst %.3g)", what, tol, worst))
end

local Modes = lied.model "Modes" {
  src = S.Sine { amplitude = 1, w = 1 },
  hot = S.GreaterThreshold { threshold = 0.5 },
  cold = S.LessThreshold { threshold = -0.5 },
  late = S.OnDelay { delay = 0.3 },
  band = S.GreaterThreshold { threshold = 0.5, h = 0.2 },
  keep = S.OffDelay { delay = 1.5 },
  rise = S.RisingEdge { width = 0.1 },
  fall = S.FallingEdge {},
  hold = S.BooleanSampleHold {},
  sm = S.StateMachine {
    states = { "idle", "heat", "cool" },
    transitions = { { "idle", "heat", "c1" }, { "heat", "idle", "not c2" }, { "idle", "cool", "c3" },
                    { "cool", "idle", "not c3" } },
    values = { idle = 0, heat = 1, cool = -1 },
  },
  -- a machine that moves on a pulse of no width: seen by the block it drives
  once = S.StateMachine { states = { "before", "after" }, transitions = { { "before", "after", "c1" } } },
  connect = {
    { "src.y", "hot.u" }, { "src.y", "cold.u" }, { "src.y", "band.u" }, { "hot.y", "late.u" },
    { "late.y", "sm.c1" }, { "hot.y", "sm.c2" }, { "cold.y", "sm.c3" },
    { "hot.y", "keep.u" }, { "hot.y", "rise.u" }, { "hot.y", "fall.u" },
    { "keep.y", "hold.u" }, { "cold.y", "hold.trigger" }, { "fall.y", "once.c1" },
  },
}
local res = lied.build(Modes):run { solver = "dopri45", tol = 1e-10, stop = 4 * pi - 0.1, interval = 0.5,
  vars = "sm.state,hot.y,band.y,keep.y,rise.y,fall.y,hold.y,once.state,late.y" }

-- sin t > 0.5 on (pi/6, 5pi/6), < -0.5 on (7pi/6, 11pi/6), every 2 pi
local want, wstate = {}, {}
for k = 0, 1 do
  local o = 2 * pi * k
  for _, p in ipairs { { pi / 6 + 0.3, 2 }, { 5 * pi / 6, 1 }, { 7 * pi / 6, 3 }, { 11 * pi / 6, 1 } } do
    want[#want + 1], wstate[#wstate + 1] = o + p[1], p[2]
  end
end
local at, to = changes(res, "sm.state")
same_times(at, want, 1e-9, "state machine")
for i = 1, math.min(#to, #wstate) do T.eq(to[i], wstate[i], "state machine: the state entered at switch " .. i) end

-- hysteresis band 0.2 around 0.5: on above 0.6, off below 0.4
local a1, a2 = math.asin(0.6), pi - math.asin(0.4)
same_times((changes(res, "band.y")), { a1, a2, a1 + 2 * pi, a2 + 2 * pi }, 1e-9, "hysteresis")
-- off-delay 1.5 s: on at pi/6, off 1.5 s after 5pi/6
same_times((changes(res, "keep.y")), { pi / 6, 5 * pi / 6 + 1.5, pi / 6 + 2 * pi, 5 * pi / 6 + 1.5 + 2 * pi },
  1e-9, "off-delay")
-- rising edge of width 0.1
same_times((changes(res, "rise.y")), { pi / 6, pi / 6 + 0.1, pi / 6 + 2 * pi, pi / 6 + 2 * pi + 0.1 }, 1e-9,
  "rising edge, width 0.1")
-- a falling edge of no width: no row shows it, the machine it drives moved at 5pi/6
T.eq(#(changes(res, "fall.y")), 0, "a pulse of no width is in no recorded row")
same_times((changes(res, "once.state")), { 5 * pi / 6 }, 1e-9, "the pulse of no width is seen by its consumer")
-- sample-and-hold: at 7pi/6 (cold rises) keep is still true (off at 5pi/6 + 1.5 = 4.118 > 3.665)
local ht, hv = changes(res, "hold.y")
same_times(ht, { 7 * pi / 6 }, 1e-9, "sample-and-hold")
T.eq(hv[1], 1, "sample-and-hold: keep was true at the trigger")

-- ---- static logic: truth tables ---------------------------------------------------
do
  local parts = { connect = {} }
  for i, b in ipairs { false, true } do parts["b" .. i] = S.BooleanConstant { k = b } end
  local cases = { { 1, 1 }, { 1, 2 }, { 2, 1 }, { 2, 2 } } -- b1 = false, b2 = true
  for i, c in ipairs(cases) do
    for _, op in ipairs { "And", "Or", "Xor" } do
      local nm = op:lower() .. i
      parts[nm] = S[op] {}
      table.insert(parts.connect, { "b" .. c[1] .. ".y", nm .. ".u1" })
      table.insert(parts.connect, { "b" .. c[2] .. ".y", nm .. ".u2" })
    end
    parts["sw" .. i] = S.Switch {}
    parts["ls" .. i] = S.LogicalSwitch {}
    table.insert(parts.connect, { "b" .. c[1] .. ".y", "sw" .. i .. ".u2" })
    table.insert(parts.connect, { "one.y", "sw" .. i .. ".u1" })
    table.insert(parts.connect, { "two.y", "sw" .. i .. ".u3" })
    table.insert(parts.connect, { "b" .. c[1] .. ".y", "ls" .. i .. ".u2" })
    table.insert(parts.connect, { "b" .. c[2] .. ".y", "ls" .. i .. ".u1" })
    table.insert(parts.connect, { "b1.y", "ls" .. i .. ".u3" })
  end
  parts.one, parts.two = S.Constant { k = 1 }, S.Constant { k = 2 }
  parts.all3 = S.And { n = 3 }
  for k = 1, 3 do table.insert(parts.connect, { "b2.y", "all3.u" .. k }) end
  parts.n1, parts.r1 = S.Not {}, S.BooleanToReal { realTrue = 5, realFalse = -5 }
  table.insert(parts.connect, { "b1.y", "n1.u" })
  table.insert(parts.connect, { "n1.y", "r1.u" })
  local m = lied.build(lied.model "Truth"(parts))
  m:derivatives(0)
  for i, c in ipairs(cases) do
    local a, b = c[1] == 2, c[2] == 2
    local function v(n) return m:value(n .. i .. ".y") end
    T.eq(v("and"), (a and b) and 1 or 0, string.format("%s and %s", a, b))
    T.eq(v("or"), (a or b) and 1 or 0, string.format("%s or %s", a, b))
    T.eq(v("xor"), (a ~= b) and 1 or 0, string.format("%s xor %s", a, b))
    T.eq(v("sw"), a and 1 or 2, "Switch on " .. tostring(a))
    T.eq(v("ls"), a and (b and 1 or 0) or 0, "LogicalSwitch on " .. tostring(a))
  end
  T.eq(m:value("all3.y"), 1, "And of three")
  T.eq(m:value("r1.y"), 5, "Not false, as a real")
end

-- ---- Boolean and real ports do not connect ----------------------------------------
T.raises(function()
  lied.build(lied.model "Mixed" { b = S.BooleanConstant { k = true }, g = S.Gain {}, connect = { { "b.y", "g.u" } } })
end, { "Boolean signal ports connect only to Boolean signal ports (signals.BooleanToReal converts)" },
  "a Boolean output into a real input")
T.raises(function()
  lied.build(lied.model "Bad" { c = S.BooleanConstant {}, sm = S.StateMachine { states = { "a" },
    transitions = { { "a", "b", "c1" } } }, connect = { { "c.y", "sm.c1" } } })
end, { "StateMachine: transition 1: no state b (states: a)" }, "a transition to an unknown state")
T.done()
