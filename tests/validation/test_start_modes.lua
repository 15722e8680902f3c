-- Elements with modes start in the mode their start values give, also where
-- the mode they hold before their handler's initial call makes the model's
-- section singular (docs/events.md, "The start of a run"; docs/rotational.md,
-- "Stick and slip"; docs/electrical.md): a brake slipping on a shaft whose
-- speed is prescribed, or accelerated from rest by it; a clutch slipping
-- between two prescribed speeds; a clutch slipping between two inertias
-- until they lock (the analytic solution); an ideal switch closed from the
-- start in series with a current source and an ideal diode conducting from
-- the start, both with Goff = 0 (the open or blocking mode cannot carry the
-- current); arrays of them, whose batches mix such copies with regular ones,
-- on one thread and two. Before, each was refused when built ("the linear section of b is
-- singular whatever the state": the check and the first evaluation took the
-- stuck, open or blocking mode the elements hold when built), but the clutch
-- between two inertias, whose stuck first evaluation is regular (it ran
-- before too: the analytic check of the slip the start chooses).
local lied = require "lied"
local rot = require "lied.rotational"
local el = require "lied.electrical"
local S = require "lied.signals"
local T = require "tests.testing"

local function run(M, o)
  local opts = { solver = "dopri45", tol = 1e-12, stop = 1, interval = 0.05, vars = "*" }
  for k, v in pairs(o or {}) do opts[k] = v end
  return lied.simulate(M, opts):run()
end
-- every row of res[name] within tol of f(t)
local function follows(res, name, f, tol, what)
  local t, y = T.column(res, "time"), T.column(res, name)
  local w = 0
  for i = 1, #t do w = math.max(w, math.abs(y[i] - f(t[i]))) end
  T.check(w <= tol, string.format("%s: %s off by %.3g", what, name, w))
end
local function const(v) return function() return v end end

-- tau_k = mu cgeo fn = 0.5 * 0.2 * 100 = 10 N.m throughout
local fr = { mu = 0.5, cgeo = 0.2, fn_max = 100 }
local function brake_on_speed(speed)
  return lied.model "BrakeOnSpeed" {
    v = rot.Speed(speed), one = S.Constant { k = 1 }, b = rot.Brake(fr),
    connect = { { "v.flange", "b.flange" }, { "one.y", "b.f_normalized" } },
  }
end

-- 1. A brake on a shaft held at +-10 rad/s slips from the start: the speed
-- holds, the brake takes tau_k against the motion (its flange's torque has
-- the sign of w), which the source delivers.
if T.case("brake_speed") then for _, w in ipairs { 10, -10 } do
  local res = run(brake_on_speed { w_ref = w, w = w })
  local sense = w > 0 and 1 or -1
  follows(res, "v.w", const(w), 0, "brake on speed " .. w)
  follows(res, "b.tau", const(10 * sense), 1e-12, "brake on speed " .. w)
  follows(res, "v.tau", const(10 * sense), 1e-12, "brake on speed " .. w)
  follows(res, "b.mode", const(sense), 0, "brake on speed " .. w)
  follows(res, "b.P_loss", const(10 * math.abs(w)), 1e-10, "brake on speed " .. w)
end end

-- 2. The same shaft driven from rest (w = 0, T der(w) = 10 - w, T = 0.5):
-- no torque holds a prescribed acceleration, so the brake slips from the
-- start in its sense, w = 10 (1 - exp(-t/T)); a second run of the built
-- model (which ended slipping) starts alike.
if T.case("brake_rest") then
  local B = lied.build(brake_on_speed { w_ref = 10, w = 0, T = 0.5 })
  for k = 1, 2 do
    local res = assert(B:run { solver = "dopri45", tol = 1e-12, stop = 1, interval = 0.05, vars = "*" })
    local what = "brake from rest, run " .. k
    follows(res, "v.w", function(t) return 10 * (1 - math.exp(-t / 0.5)) end, 1e-9, what)
    follows(res, "b.tau", const(10), 1e-12, what)
    follows(res, "b.mode", const(1), 0, what)
    T.eq(#T.column(res, "time"), 21, what .. ": no event, 21 rows")
  end
end

-- 3. A clutch between two shafts held at 10 and 4 rad/s: w_rel = -6, it
-- slips backward, tau = -tau_k (flange_b takes -10: shaft b is driven, a
-- braked).
if T.case("clutch_speeds") then
  local res = run(lied.model "ClutchSpeeds" {
    a = rot.Speed { w_ref = 10, w = 10 }, b = rot.Speed { w_ref = 4, w = 4 },
    one = S.Constant { k = 1 }, c = rot.Clutch(fr),
    connect = { { "a.flange", "c.flange_a" }, { "b.flange", "c.flange_b" },
                { "one.y", "c.f_normalized" } },
  })
  follows(res, "c.tau", const(-10), 1e-12, "clutch between speeds")
  follows(res, "c.mode", const(-1), 0, "clutch between speeds")
  follows(res, "a.tau", const(10), 1e-12, "clutch between speeds")
  follows(res, "b.tau", const(-10), 1e-12, "clutch between speeds")
  follows(res, "c.P_loss", const(60), 1e-10, "clutch between speeds")
end

-- 4. A clutch slipping from the start between two inertias (J1 = 1 at 10
-- rad/s, J2 = 2 at rest): w1 = 10 - 10 t, w2 = 5 t until they lock at t =
-- 2/3 and w = 10/3 (the angular momentum 10 kept), then stuck.
if T.case("clutch_inertias") then
  local res = run(lied.model "ClutchInertias" {
    a = rot.Inertia { J = 1, w = 10 }, b = rot.Inertia { J = 2, w = 0 },
    one = S.Constant { k = 1 }, c = rot.Clutch(fr),
    connect = { { "a.flange_b", "c.flange_a" }, { "b.flange_a", "c.flange_b" },
                { "one.y", "c.f_normalized" } },
  })
  local tl = 2 / 3
  follows(res, "a.w", function(t) return t < tl and 10 - 10 * t or 10 / 3 end, 1e-9, "clutch")
  follows(res, "b.w", function(t) return t < tl and 5 * t or 10 / 3 end, 1e-9, "clutch")
  local t, m = T.column(res, "time"), T.column(res, "c.mode")
  local lock
  for i = 2, #t do if m[i] == 0 and m[i - 1] == -1 then lock = t[i] end end
  T.check(lock and math.abs(lock - tl) < 1e-9, "clutch locks at t = 2/3: " .. tostring(lock))
  T.eq(m[1], -1, "clutch slips backward from the start")
end

-- 5. An ideal switch closed by its control from the start and an ideal
-- diode conducting from the start, each with Goff = 0 in series with a
-- current source of 2 A and a resistor of 3 Ohm: v = Vknee + Ron i.
local function series(name, elem, extra)
  local def = {
    src = el.CurrentSource { I = 2 }, x = elem, r = el.Resistor { R = 3 },
    g = el.Ground {}, n1 = el.Node {}, n2 = el.Node {},
    connect = { { "g.p", "src.p" }, { "src.n", "n1.p" }, { "n1.p", "x.p" }, { "x.n", "n2.p" },
                { "n2.p", "r.p" }, { "r.n", "g.p" } },
  }
  for k, v in pairs(extra or {}) do def[k] = v end
  if extra then table.insert(def.connect, { "on.y", "x.control" }) end
  return run(lied.model(name)(def))
end
if T.case("switch") then
  local res = series("SwitchClosed", el.IdealSwitch { Goff = 0, Ron = 0.5 },
                     { on = S.BooleanConstant { k = true } })
  follows(res, "x.v", const(1), 1e-12, "switch closed from the start")
  follows(res, "x.i", const(2), 1e-12, "switch closed from the start")
  follows(res, "x.closed", const(1), 0, "switch closed from the start")
  follows(res, "r.v", const(6), 1e-12, "switch closed from the start")
end
if T.case("diode") then
  local res = series("DiodeOn", el.Diode { Goff = 0, Ron = 0.5, Vknee = 0.7 })
  follows(res, "x.v", const(1.7), 1e-12, "diode conducting from the start")
  follows(res, "x.i", const(2), 1e-12, "diode conducting from the start")
  follows(res, "x.on", const(1), 0, "diode conducting from the start")
end

-- 6. Arrays: 37 copies (more than one probing chunk) of the switch in series,
-- closed from the start, Goff = 0 in every third copy and 1e-5 in the others
-- (whose open mode is regular: their batch is probed one by one at the
-- start, and they must start as alone); and 37 brakes on shafts held at
-- speeds -18 .. 18 rad/s but 0 (each slips against its speed); on one
-- thread and on two.
if T.case("arrays") then
  local Series = lied.model "Series" {
    src = el.CurrentSource { I = 2 }, x = el.IdealSwitch { Ron = 0.5 }, r = el.Resistor { R = 3 },
    g = el.Ground {}, n1 = el.Node {}, n2 = el.Node {}, on = S.BooleanConstant { k = true },
    connect = { { "g.p", "src.p" }, { "src.n", "n1.p" }, { "n1.p", "x.p" }, { "x.n", "n2.p" },
                { "n2.p", "r.p" }, { "r.n", "g.p" }, { "on.y", "x.control" } },
  }
  local function speed(i) return i == 19 and 0.5 or i - 19 end
  local M = lied.model "Arrays" {
    s = lied.array(Series, 37, { ["x.Goff"] = function(i) return i % 3 == 0 and 0 or 1e-5 end }),
    b = lied.array(brake_on_speed { w_ref = 1, w = 1 }, 37, {
      ["v.w_ref"] = speed, ["v.w"] = speed }),
  }
  for _, threads in ipairs { 1, 2 } do
    local res = run(M, { threads = threads, stop = 0.2 })
    for i = 1, 37 do
      local what = string.format("copy %d, %d threads", i, threads)
      -- closed: v = Ron s, i = s = 2 (Goff Vknee = 0)
      follows(res, "s[" .. i .. "].x.v", const(1), 1e-12, what)
      follows(res, "s[" .. i .. "].x.closed", const(1), 0, what)
      follows(res, "s[" .. i .. "].r.v", const(6), 1e-12, what)
      local w = speed(i)
      follows(res, "b[" .. i .. "].b.tau", const(w > 0 and 10 or -10), 1e-12, what)
      follows(res, "b[" .. i .. "].v.w", const(w), 0, what)
    end
  end
end

T.done()
