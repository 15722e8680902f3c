-- Validation of the signal sources (lied.signals, docs/signals.md): Constant,
-- Step, Ramp, Sine, Pulse and TimeTable against their definitions evaluated
-- independently, at chosen times, at and between TimeTable's breakpoints.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"
local H = require "tests.models.signals"
local at = H.at

-- ---- sources ----------------------------------------------------------------
do
  local M = lied.model "Sources" {
    c = S.Constant { k = -2.5 },
    st = S.Step { offset = 1, height = 3, t0 = 0.7 },
    ra = S.Ramp { offset = -1, height = 4, t0 = 1, duration = 2 },
    r0 = S.Ramp { offset = 0, height = 2, t0 = 1, duration = 0 },
    sf = S.Sine { amplitude = 2, f = 0.5, phase = 0.3, offset = 1 },
    sw = S.Sine { amplitude = 3, w = 5 },
    sd = S.Sine {},
    pu = S.Pulse { amplitude = 2, width = 25, period = 0.4, offset = -1, t0 = 1 },
  }
  local names = { "c", "st", "ra", "r0", "sf", "sw", "sd", "pu" }
  local function pulse(t) -- independent: count whole periods
    if t < 1 then return -1 end
    local k = 0
    while 1 + (k + 1) * 0.4 <= t do k = k + 1 end
    return (t - (1 + k * 0.4) < 0.1) and 1 or -1
  end
  for _, t in ipairs { 0, 0.5, 0.7, 0.95, 1, 1.05, 1.45, 1.55, 2.2, 3, 3.5, 4.33 } do
    local v = at(M, t, names)
    local tag = string.format(" at t = %g", t)
    if t == 1 then T.eq(v.pu, 1, "Pulse high at t0") end
    T.eq(v.c, -2.5, "Constant" .. tag)
    T.eq(v.st, t >= 0.7 and 4 or 1, "Step" .. tag)
    local x = math.min(math.max((t - 1) / 2, 0), 1)
    T.near(v.ra, -1 + 4 * x, 1e-15, "Ramp" .. tag)
    T.eq(v.r0, t >= 1 and 2 or 0, "Ramp of duration 0 is a step" .. tag)
    T.near(v.sf, 1 + 2 * math.sin(math.pi * t + 0.3), 1e-14, "Sine with f" .. tag)
    T.near(v.sw, 3 * math.sin(5 * t), 1e-14, "Sine with w" .. tag)
    T.near(v.sd, math.sin(2 * math.pi * t), 1e-14, "Sine default f = 1 Hz" .. tag)
    if t ~= 1 then T.eq(v.pu, pulse(t), "Pulse" .. tag) end -- off its edges
  end
end

-- ---- TimeTable: at and between the breakpoints, held outside -----------------
do
  local rows = { { -1, 2 }, { 0, 0 }, { 0.5, 1 }, { 2, -2 }, { 2.25, -2 }, { 4, 5 } }
  local M = lied.model "Table" { tt = S.TimeTable { table = rows } }
  for _, r in ipairs(rows) do
    T.eq(at(M, r[1], { "tt" }).tt, r[2], string.format("TimeTable at its breakpoint t = %g", r[1]))
  end
  local function lin(t0, y0, t1, y1, t) return y0 + (y1 - y0) * (t - t0) / (t1 - t0) end
  for _, c in ipairs {
    { -0.25, lin(-1, 2, 0, 0, -0.25) }, { 0.1, lin(0, 0, 0.5, 1, 0.1) }, { 1.7, lin(0.5, 1, 2, -2, 1.7) },
    { 2.1, -2 }, { 3, lin(2.25, -2, 4, 5, 3) }, { -5, 2 }, { 10, 5 },
  } do
    T.near(at(M, c[1], { "tt" }).tt, c[2], 1e-14, string.format("TimeTable at t = %g", c[1]))
  end
  -- one row: a constant; 64 rows: the most
  T.eq(at(lied.model "One" { tt = S.TimeTable { table = { { 3, 7 } } } }, 0, { "tt" }).tt, 7, "one row")
  local many = {}
  for i = 1, 64 do many[i] = { i, i * i } end
  local M64 = lied.model "T64" { tt = S.TimeTable { table = many } }
  T.near(at(M64, 63.5, { "tt" }).tt, (63 * 63 + 64 * 64) / 2, 1e-12, "64 rows: between the last two")
  T.near(at(M64, 1.25, { "tt" }).tt, 1.75, 1e-14, "64 rows: between the first two")
end

T.done()
