-- The order of an event instant (docs/events.md, "The order at an event"),
-- every block kind that acts at an instant against a sequence of outputs
-- written by hand: the start of a run and later instants where a time event
-- (Step, Pulse), a state event (a comparison, a Hysteresis, a located
-- crossing), a timer (OnDelay, OffDelay, the edges), a sampled block
-- (SampleHold, DiscretePI), a triggered block (BooleanSampleHold), a state
-- machine and a kink (Limiter) coincide. Each case runs in every solver
-- family (rk4, dopri45, esdirk23, cvode); coinciding time events at the
-- start and at t = 1 in fused steps, lane form and copy by copy against
-- their closed form, bit for bit with each other.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"

local solvers = { "rk4", "dopri45", "esdirk23" }
if pcall(function() lied.build(lied.model "C" { s = S.Constant {} }):run { solver = "cvode", stop = 1, out = "none" } end) then
  solvers[#solvers + 1] = "cvode"
end

-- The rows of column y at time `at` (within tol; 1e-12 when not given):
-- {at, v}: every such row is v; {at, before, after}: at least two, the
-- first is `before`, the last `after`. Returns the first such row's time.
local function expect(res, what, name, e)
  local t, y = res:column("time"), res:column(name)
  local tol = e[4] or 1e-12
  local first, last, n, tf
  for i = 1, #t do
    if math.abs(t[i] - e[1]) <= tol then
      first, last, n, tf = first or y[i], y[i], (n or 0) + 1, tf or t[i]
    end
  end
  local where = string.format("%s: %s at t = %g", what, name, e[1])
  if not T.check(n ~= nil, where .. ": a row") then return nil end
  if #e == 2 then
    T.eq(first, e[2], where)
    T.eq(last, e[2], where)
  else
    T.check(n >= 2, where .. ": two rows (before and after the instant)")
    T.near(first, e[2], 1e-14, where .. ", before")
    T.near(last, e[3], 1e-14, where .. ", after")
  end
  return tf
end

local function run_case(case)
  local b = lied.build(lied.model(case.name)(case.model))
  local vars = {}
  for name in pairs(case.expect) do vars[#vars + 1] = name end
  table.sort(vars)
  for _, solver in ipairs(solvers) do
    -- a run before, stopped at `prerun`, leaves its discrete state: the
    -- run checked must start as the first would
    if case.prerun then b:run { solver = solver, dt = 0.05, tol = 1e-9, stop = case.prerun, out = "none" } end
    local res = b:run { solver = solver, dt = 0.05, tol = 1e-9, stop = case.stop, interval = 0.05,
                        vars = table.concat(vars, ",") }
    for _, name in ipairs(vars) do
      for _, e in ipairs(case.expect[name]) do expect(res, case.name .. ", " .. solver, name, e) end
    end
    if case.also then case.also(res, solver) end
  end
end

-- ---- the start, timers on a comparison true at t = 0 (issue 46.1) ----------------
-- u = t on [0, 1]; lt = u < 0.5 is true from the start and falls at the
-- located 0.5. The timers read it after it settled at the start: the
-- OffDelay is true from 0 (it used to read lt before lt's initial call:
-- false, for the whole run) and falls 0.3 s after lt; the OnDelay rises at
-- 0.3 (its delay from the start) and falls with lt; the RisingEdge sees no
-- rise at the start; the FallingEdge's pulse lasts 0.2 s. Samplers of
-- period 0.3 from t = 0 read the settled instant: the one on the OffDelay
-- reads true at 0; the one on the OnDelay reads true at 0.3, the instant
-- the delay runs out (its sample and the delay's end are one instant). The
-- DiscretePI (k = 2, Ti = 0.5) on the OffDelay: e = 1, 1, 1, 0 at 0, 0.3,
-- 0.6, 0.9, x grows by 0.3 k/Ti e = 1.2 e, y = 2 e + x: 2, 3.2, 4.4, 3.6;
-- the UnitDelay on it gives the sample before: 0 (y_start), 1, 1, 1.
-- The BooleanSampleHold triggered by lt at the start holds the OffDelay's
-- settled value, true.
run_case {
  name = "StartTimers", stop = 1.2, prerun = 0.9,
  model = {
    r = S.Ramp { height = 1, duration = 1 },
    lt = S.LessThreshold { threshold = 0.5 },
    off = S.OffDelay { delay = 0.3 }, on = S.OnDelay { delay = 0.3 },
    rise = S.RisingEdge { width = 0.2 }, fall = S.FallingEdge { width = 0.2 },
    roff = S.BooleanToReal {}, ron = S.BooleanToReal {},
    shoff = S.SampleHold { period = 0.3 }, shon = S.SampleHold { period = 0.3 },
    pi = S.DiscretePI { period = 0.3, k = 2, Ti = 0.5 },
    ud = S.UnitDelay { period = 0.3 },
    bh = S.BooleanSampleHold {},
    connect = { { "r.y", "lt.u" }, { "lt.y", "off.u" }, { "lt.y", "on.u" }, { "lt.y", "rise.u" },
                { "lt.y", "fall.u" }, { "off.y", "roff.u" }, { "on.y", "ron.u" }, { "roff.y", "shoff.u" },
                { "ron.y", "shon.u" }, { "roff.y", "pi.u" }, { "roff.y", "ud.u" }, { "off.y", "bh.u" }, { "lt.y", "bh.trigger" } },
  },
  expect = {
    ["lt.y"] = { { 0, 1 }, { 0.4, 1 }, { 0.5, 1, 0, 1e-9 }, { 1, 0 } },
    ["off.y"] = { { 0, 1 }, { 0.45, 1 }, { 0.8, 1, 0, 1e-9 }, { 1.1, 0 } },
    ["on.y"] = { { 0, 0 }, { 0.2, 0 }, { 0.3, 0, 1 }, { 0.4, 1 }, { 0.5, 1, 0, 1e-9 }, { 1, 0 } },
    ["rise.y"] = { { 0, 0 }, { 0.1, 0 }, { 0.5, 0, 0, 1e-9 }, { 1, 0 } },
    ["fall.y"] = { { 0, 0 }, { 0.5, 0, 1, 1e-9 }, { 0.6, 1 }, { 0.7, 1, 0, 1e-9 }, { 1, 0 } },
    ["shoff.y"] = { { 0, 1 }, { 0.3, 1, 1 }, { 0.6, 1, 1 }, { 0.9, 1, 0 } },
    ["shon.y"] = { { 0, 0 }, { 0.3, 0, 1 }, { 0.6, 1, 0 }, { 0.9, 0, 0 } },
    ["pi.y"] = { { 0, 2 }, { 0.3, 2, 3.2 }, { 0.6, 3.2, 4.4 }, { 0.9, 4.4, 3.6 } },
    ["ud.y"] = { { 0, 0 }, { 0.3, 0, 1 }, { 0.6, 1, 1 }, { 0.9, 1, 1 }, { 1.1, 1 } },
    ["bh.y"] = { { 0, 1 }, { 1, 1 } },
  },
}

-- ---- the start, timers on timers ------------------------------------------------
-- u = t, lt = u < 0.5 as above; off1 = OffDelay 0.3 of lt is true from the
-- start to 0.8; an OffDelay (0.2) on off1 is true to 1.0, an OnDelay (0.2)
-- on off1 is true on [0.2, 0.8): each reads off1 after off1's initial
-- call (the calls of the blocks with time events read one evaluation made
-- before them, so they are made again when an input moved).
run_case {
  name = "StartChain", stop = 1.2, prerun = 0.9,
  model = {
    r = S.Ramp { height = 1, duration = 1 }, lt = S.LessThreshold { threshold = 0.5 },
    off1 = S.OffDelay { delay = 0.3 }, off2 = S.OffDelay { delay = 0.2 }, on2 = S.OnDelay { delay = 0.2 },
    connect = { { "r.y", "lt.u" }, { "lt.y", "off1.u" }, { "off1.y", "off2.u" }, { "off1.y", "on2.u" } },
  },
  expect = {
    ["off1.y"] = { { 0, 1 }, { 0.8, 1, 0, 1e-9 }, { 0.9, 0 } },
    ["off2.y"] = { { 0, 1 }, { 0.9, 1 }, { 1.0, 1, 0, 1e-9 }, { 1.1, 0 } },
    ["on2.y"] = { { 0, 0 }, { 0.1, 0 }, { 0.2, 0, 1 }, { 0.5, 1 }, { 0.8, 1, 0, 1e-9 }, { 0.9, 0 } },
  },
}

-- ---- the start, a sampler's start value read through a comparison ------------------
-- s holds its start value 1 until its first sample at 0.25 (of 0). A
-- comparison g = s > 0.5, a Hysteresis and a state machine on it take
-- their start from that value (the sampler's initial call comes before
-- they read); the OnDelay on g reads g after g settled (its initial call
-- is made again: g moved after it first read it), so it rises at 0.1 and
-- falls with g at the sample at 0.25, where every one of them switches
-- (the sample and its consequences: one instant).
run_case {
  name = "StartSampled", stop = 0.4, prerun = 0.3,
  model = {
    c = S.Constant { k = 0 },
    s = S.SampleHold { period = 0.25, t0 = 0.25, y_start = 1 },
    g = S.GreaterThreshold { threshold = 0.5 },
    d = S.OnDelay { delay = 0.1 },
    hy = S.Hysteresis { uLow = 0.2, uHigh = 0.5 },
    sm = S.StateMachine { states = { "idle", "on" }, transitions = { { "idle", "on", "c1" }, { "on", "idle", "not c1" } },
                          values = { idle = 0, on = 1 } },
    connect = { { "c.y", "s.u" }, { "s.y", "g.u" }, { "g.y", "d.u" }, { "s.y", "hy.u" }, { "g.y", "sm.c1" } },
  },
  expect = {
    ["s.y"] = { { 0, 1 }, { 0.25, 1, 0 } },
    ["g.y"] = { { 0, 1 }, { 0.2, 1 }, { 0.25, 1, 0 }, { 0.3, 0 } },
    ["d.y"] = { { 0, 0 }, { 0.1, 0, 1 }, { 0.2, 1 }, { 0.25, 1, 0 }, { 0.3, 0 } },
    ["hy.y"] = { { 0, 1 }, { 0.25, 1, 0 } },
    ["sm.y"] = { { 0, 1 }, { 0.2, 1 }, { 0.25, 1, 0 } },
  },
}

-- ---- the start: a Step at t = 0 and what reads it ---------------------------------
-- The Step has jumped at the start; a comparison on it is true, an OnDelay
-- on that runs 0.2 s from 0, an OffDelay on its negation is false from the
-- start, a sampler from t = 0 reads 1, a Hysteresis on the sampler is high,
-- a Limiter (uMax 0.6: a kink at the start) and a sampler on it read 0.6.
run_case {
  name = "StartStep", stop = 0.4, prerun = 0.25,
  model = {
    st = S.Step { height = 1, t0 = 0 },
    g = S.GreaterThreshold { threshold = 0.5 }, n = S.Not {},
    on = S.OnDelay { delay = 0.2 }, off = S.OffDelay { delay = 0.2 },
    sh = S.SampleHold { period = 0.1 }, hy = S.Hysteresis { uLow = 0.2, uHigh = 0.5 },
    lim = S.Limiter { uMax = 0.6 }, shl = S.SampleHold { period = 0.1 },
    connect = { { "st.y", "g.u" }, { "g.y", "on.u" }, { "g.y", "n.u" }, { "n.y", "off.u" }, { "st.y", "sh.u" },
                { "sh.y", "hy.u" }, { "st.y", "lim.u" }, { "lim.y", "shl.u" } },
  },
  expect = {
    ["g.y"] = { { 0, 1 }, { 0.3, 1 } },
    ["on.y"] = { { 0, 0 }, { 0.1, 0 }, { 0.2, 0, 1 }, { 0.3, 1 } },
    ["off.y"] = { { 0, 0 }, { 0.3, 0 } },
    ["sh.y"] = { { 0, 1 }, { 0.1, 1, 1 } },
    ["hy.y"] = { { 0, 1 }, { 0.3, 1 } },
    ["shl.y"] = { { 0, 0.6 }, { 0.1, 0.6, 0.6 } },
  },
}

-- ---- t = 1: time, timer, state, sampled, triggered, kink on one instant -------------
-- A Step at 0.5 makes g true (a state event at the jump); the OnDelay on
-- g runs out at 0.5 + 0.5 = 1, where a second Step and a Pulse rise (the
-- Pulse: high on [0, 0.5), [1, 1.5), [2, 2.5)). At t = 1, after every jump
-- and settle: a = on + st1 = 2 (the timer's end and the Step), read by a
-- sampler (2), a Hysteresis (uHigh 1.5: high), a sampler on the
-- Hysteresis (1) and on a Limiter at 1.5 (1.5); a state machine on the
-- OnDelay enters "on" at that instant; gp = p > 0.5 rises, so the And of
-- the OnDelay and gp is true. The BooleanSampleHold triggered by gp reads
-- the OnDelay as data: the trigger is a state event of the instant, the
-- timer's end is taken after the state events settled, so it reads the
-- value from before the end (false; a register, as a sampler reading
-- another) and true at the next rise, t = 2. The OffDelay on gp started
-- when gp fell at 0.5 and runs out at 1, the instant gp rises again: it
-- stays true, without a glitch inside the instant (the FallingEdge on it
-- never pulses); again at 2. The OnDelay on gp ran from 0 and would end at
-- 0.5, when gp falls: it stays false. A RisingEdge of no width on gp is
-- true for the rounds of the instant only: the BooleanSampleHold it
-- triggers sees it (true from 1), the sampler reading it does not (it
-- reads the settled instant, where the edge has ended: 0).
run_case {
  name = "AtOne", stop = 2.2,
  model = {
    st = S.Step { height = 1, t0 = 0.5 }, g = S.GreaterThreshold { threshold = 0.5 },
    on = S.OnDelay { delay = 0.5 }, ron = S.BooleanToReal {},
    st1 = S.Step { height = 1, t0 = 1 }, a = S.Add {},
    sh = S.SampleHold { period = 0.1 }, hy = S.Hysteresis { uLow = 1.2, uHigh = 1.5 },
    shh = S.SampleHold { period = 0.1 }, lim = S.Limiter { uMax = 1.5 }, shl = S.SampleHold { period = 0.1 },
    p = S.Pulse { amplitude = 1, width = 50, period = 1 }, gp = S.GreaterThreshold { threshold = 0.5 },
    both = S.And {}, bh = S.BooleanSampleHold {},
    offp = S.OffDelay { delay = 0.5 }, onp = S.OnDelay { delay = 0.5 }, fo = S.FallingEdge { width = 0.1 },
    sm = S.StateMachine { states = { "idle", "on" }, transitions = { { "idle", "on", "c1" } }, values = { idle = 0, on = 1 } },
    ez = S.RisingEdge {}, rez = S.BooleanToReal {}, shz = S.SampleHold { period = 0.1 },
    yes = S.BooleanConstant { k = 1 }, bhz = S.BooleanSampleHold {},
    connect = { { "st.y", "g.u" }, { "g.y", "on.u" }, { "on.y", "ron.u" }, { "ron.y", "a.u1" }, { "st1.y", "a.u2" },
                { "a.y", "sh.u" }, { "a.y", "hy.u" }, { "hy.y", "shh.u" }, { "a.y", "lim.u" }, { "lim.y", "shl.u" },
                { "p.y", "gp.u" }, { "on.y", "both.u1" }, { "gp.y", "both.u2" }, { "on.y", "bh.u" },
                { "gp.y", "bh.trigger" }, { "gp.y", "offp.u" }, { "gp.y", "onp.u" }, { "offp.y", "fo.u" },
                { "on.y", "sm.c1" }, { "gp.y", "ez.u" }, { "ez.y", "rez.u" }, { "rez.y", "shz.u" },
                { "yes.y", "bhz.u" }, { "ez.y", "bhz.trigger" } },
  },
  expect = {
    ["g.y"] = { { 0.4, 0 }, { 0.5, 0, 1 } },
    ["on.y"] = { { 0.9, 0 }, { 1, 0, 1 }, { 1.1, 1 } },
    ["a.y"] = { { 1, 0, 2 } },
    ["sh.y"] = { { 1, 0, 2 }, { 1.1, 2, 2 } },
    ["hy.y"] = { { 1, 0, 1 } },
    ["shh.y"] = { { 1, 0, 1 } },
    ["shl.y"] = { { 1, 0, 1.5 } },
    ["gp.y"] = { { 0, 1 }, { 0.5, 1, 0 }, { 1, 0, 1 } },
    ["both.y"] = { { 0.9, 0 }, { 1, 0, 1 } },
    ["bh.y"] = { { 0, 0 }, { 0.9, 0 }, { 1, 0, 0 }, { 1.9, 0 }, { 2, 0, 1 } },
    ["offp.y"] = { { 0, 1 }, { 0.5, 1, 1 }, { 0.9, 1 }, { 1, 1, 1 }, { 1.5, 1, 1 }, { 2, 1, 1 }, { 2.1, 1 } },
    ["fo.y"] = { { 0, 0 }, { 1, 0, 0 }, { 1.05, 0 }, { 2, 0, 0 }, { 2.05, 0 } },
    ["onp.y"] = { { 0, 0 }, { 0.5, 0, 0 }, { 1, 0, 0 }, { 1.1, 0 }, { 2.1, 0 } },
    ["sm.y"] = { { 0, 0 }, { 0.9, 0 }, { 1, 0, 1 }, { 1.1, 1 } },
    ["shz.y"] = { { 0, 0 }, { 1, 0, 0 }, { 1.1, 0, 0 } },
    ["bhz.y"] = { { 0, 0 }, { 0.9, 0 }, { 1, 0, 1 } },
  },
}

-- ---- timer x timer: a blinker (two on-delays in a loop through a Not) ------------
-- a = OnDelay 0.3 of not b, b = OnDelay 0.2 of a. From the start a runs
-- its delay (not b is true): a rises at 0.3, b's delay ends at 0.5, which
-- makes a fall in the rounds of that instant, and b with it (b is true
-- for the rounds of the instant only, as an edge of no width), so a runs
-- again: a is true on [0.3, 0.5), [0.8, 1.0), [1.3, 1.5). A sampler of
-- period 0.1 on a: at 0.5 = 5 x 0.1 (exactly a's fall, 0.3 + 0.2) it reads
-- the settled instant, false; the other switching times lie within a
-- rounding of a sample (3 x 0.1 = 0.30000000000000004), which the window
-- of the check (1e-12) takes as one: false before, true after. (A timer's
-- input is read by a block of its own, so the loop is no algebraic loop.)
-- The run before stops at 0.4, a true and b's delay running: the run
-- checked starts as the first.
run_case {
  name = "Blinker", stop = 1.6, prerun = 0.4,
  model = {
    n = S.Not {}, a = S.OnDelay { delay = 0.3 }, b = S.OnDelay { delay = 0.2 },
    ra = S.BooleanToReal {}, sh = S.SampleHold { period = 0.1 },
    connect = { { "b.y", "n.u" }, { "n.y", "a.u" }, { "a.y", "b.u" }, { "a.y", "ra.u" }, { "ra.y", "sh.u" } },
  },
  expect = {
    ["a.y"] = { { 0, 0 }, { 0.3, 0, 1 }, { 0.4, 1 }, { 0.5, 1, 0 }, { 0.8, 0, 1 }, { 1, 1, 0 }, { 1.3, 0, 1 }, { 1.5, 1, 0 } },
    ["b.y"] = { { 0, 0 }, { 0.5, 0, 0 }, { 1, 0, 0 }, { 1.5, 0, 0 } },
    ["sh.y"] = { { 0, 0 }, { 0.3, 0, 1 }, { 0.4, 1, 1 }, { 0.5, 1, 0 }, { 0.6, 0, 0 }, { 0.8, 0, 1 }, { 1, 1, 0 } },
  },
}

-- ---- state x timer x sampled at a located instant --------------------------------
-- u = sin(t) falls through 0.5 at 5 pi / 6 (located); the comparison g =
-- u > 0.5 falls there, the OffDelay on g runs out 0.1 s later (a time
-- event at the located time + 0.1), a RisingEdge on the Not of g pulses for
-- 0.05 s from the crossing, and a Hysteresis on u falls there too (the same
-- located instant, one event).
do
  local tc = 5 * math.pi / 6
  run_case {
    name = "Located", stop = 3,
    model = {
      u = S.Sine { amplitude = 1, w = 1 }, g = S.GreaterThreshold { threshold = 0.5 },
      off = S.OffDelay { delay = 0.1 }, n = S.Not {}, e = S.RisingEdge { width = 0.05 },
      hy = S.Hysteresis { uLow = 0.5, uHigh = 0.8 },
      connect = { { "u.y", "g.u" }, { "g.y", "off.u" }, { "g.y", "n.u" }, { "n.y", "e.u" }, { "u.y", "hy.u" } },
    },
    expect = {
      ["g.y"] = { { 1, 1 }, { tc, 1, 0, 1e-8 }, { 2.8, 0 } },
      ["off.y"] = { { 1, 1 }, { tc, 1, 1, 1e-8 }, { tc + 0.1, 1, 0, 1e-8 }, { 2.8, 0 } },
      ["e.y"] = { { 1, 0 }, { tc, 0, 1, 1e-8 }, { tc + 0.05, 1, 0, 1e-8 }, { 2.8, 0 } },
      ["hy.y"] = { { 1, 1 }, { tc, 1, 0, 1e-8 }, { 2.8, 0 } },
    },
    also = function(res, solver)
      -- the OffDelay's end is exactly its delay after the located crossing
      local t, y = res:column("time"), res:column("off.y")
      local fell, ended
      local g = res:column("g.y")
      for i = 2, #t do
        if t[i] == t[i - 1] and g[i - 1] == 1 and g[i] == 0 then fell = fell or t[i] end
        if t[i] == t[i - 1] and y[i - 1] == 1 and y[i] == 0 then ended = ended or t[i] end
      end
      T.check(fell and ended and ended == fell + 0.1, "Located, " .. solver .. ": the OffDelay ends at the crossing + 0.1 exactly")
    end,
  }
end

-- ---- fused steps, lane form: time events at the start and at t = 1 ---------------
-- n copies of a heat capacitor (C = 4) heated by a Step at t = 0 (Q0), a
-- staircase TimeTable (20 over [0, 0.5) and [1, 1.5), else 0) and a Step at
-- 1 (30): the start and t = 1 are instants of several time events. Closed
-- form of the heat put in:
-- Q0 t + 20 (min(t, 0.5) + max(0, min(t, 1.5) - 1)) + 30 max(0, t - 1).
do
  local th = require "lied.thermal"
  local Heated = lied.model "HeatedAtInstants" {
    s0 = S.Step { height = 10, t0 = 0 }, s1 = S.Step { height = 30, t0 = 1 },
    p = S.TimeTable { table = lied.table { x = { 0, 0.5, 1, 1.5 }, y = { 20, 0, 20, 0 }, interpolation = "constant" } },
    q0 = th.PrescribedHeatFlow {}, q1 = th.PrescribedHeatFlow {}, qp = th.PrescribedHeatFlow {},
    c = th.HeatCapacitor { C = 4, T = 300 },
    connect = { { "s0.y", "q0.Q_flow_in" }, { "s1.y", "q1.Q_flow_in" }, { "p.y", "qp.Q_flow_in" },
                { "q0.port", "c.port" }, { "q1.port", "c.port" }, { "qp.port", "c.port" } },
  }
  local n = 40
  local b = lied.build(lied.model "ManyAtInstants" {
    h = lied.array(Heated, n, { ["s0.height"] = function(i) return 10 + i end }),
  })
  local function exact(i, t)
    local q = (10 + i) * t + 20 * (math.min(t, 0.5) + math.max(0, math.min(t, 1.5) - 1)) + 30 * math.max(0, t - 1)
    return 300 + q / 4
  end
  -- the three paths' columns of copy i side by side, and each path's
  -- largest distance from the closed form
  local o = { solver = "rk4", dt = 0.03, stop = 1.7, interval = 0.1, vars = "h[*].c.T", progress = false }
  local lanes, st = b:run(o)
  T.check(st.fused and st.lanes, "fused steps in lane form")
  o.lanes = false
  local copies = b:run(o)
  o.lanes, o.fuse = nil, false
  local whole = b:run(o)
  local tcol, worst, same = lanes:column("time"), { 0, 0, 0 }, true
  for i = 1, n do
    local name = string.format("h[%d].c.T", i)
    local cols = { lanes:column(name), copies:column(name), whole:column(name) }
    for k = 1, #tcol do
      local e = exact(i, tcol[k])
      for p = 1, 3 do worst[p] = math.max(worst[p], math.abs(cols[p][k] - e)) end
      same = same and cols[1][k] == cols[2][k] and cols[1][k] == cols[3][k]
    end
  end
  for p, what in ipairs { "lanes", "copy by copy", "whole vector" } do
    T.check(worst[p] < 1e-11, string.format("%s: the closed form within %.3g K", what, worst[p]))
  end
  T.check(same, "lanes, copy by copy and whole-vector steps: the same bits")
end

T.done()
