-- Linear sections that are badly scaled but solvable (rows of coefficients
-- 1e9 beside rows of 1e-9, a mass of 1e16 kg beside one of 0.5 kg) are solved
-- with equilibrated rows and columns (src/linsys/lu.c,
-- lied_lu_factor_equilibrated; src/sched/probe.c), against values derived by
-- hand, on the 2x2 path, the dense LU, the sparse one (KLU, which scales its
-- rows itself) and the check at build; they were 'singular' before. Truly
-- singular sections are reported as before: tests/errors/test_singular_sections.lua
-- and test_check.
local lied = require "lied"
local el = require "lied.electrical"
local rot = require "lied.rotational"
local pm = require "lied.mechanics"
local T = require "tests.testing"

local function rel(a, b, tol, what)
  T.near(a / b, 1, tol, what .. string.format(" (%.17g against %.17g)", a, b))
end

-- A voltage source of 1 V through R1 = 1 nOhm into a ladder of n junctions,
-- each with a resistor of RB = 1 GOhm to the next (the last to ground): the
-- junctions' Kirchhoff rows carry 1e9 S beside 1e-9 S. By hand: the current
-- i = 1 / (R1 + n RB), the junction k at v_k = i (n - k + 1) RB (to n^2 1e-15: the
-- ladder's condition grows as n^2).
local R1, RB = 1e-9, 1e9
local function ladder(n)
  local def = { g = el.Ground {}, src = el.VoltageSource { V = 1 }, r1 = el.Resistor { R = R1 },
    connect = { { "g.p", "src.n" }, { "src.p", "r1.p" } } }
  local c = def.connect
  for k = 1, n do
    def["n" .. k], def["r" .. (k + 1)] = el.Node {}, el.Resistor { R = RB }
    c[#c + 1] = { "n" .. k .. ".p", (k == 1 and "r1" or ("r" .. k)) .. ".n" }
    c[#c + 1] = { "n" .. k .. ".p", "r" .. (k + 1) .. ".p" }
  end
  c[#c + 1] = { "g.p", "r" .. (n + 1) .. ".n" }
  return lied.model("Ladder" .. n)(def)
end

local function check_ladder(n, sparse, what)
  local b = lied.build(ladder(n), nil, nil, sparse ~= nil and { sparse = sparse } or nil)
  T.eq(b:info().sparse_sections, sparse and 1 or 0, what .. ": solved sparsely or not")
  local res = b:run { stop = 0.01, dt = 0.01, solver = "rk4", vars = "n*.p.v" }
  local i = 1 / (R1 + n * RB)
  for k = 1, n do
    rel(T.column(res, "n" .. k .. ".p.v")[2], i * (n - k + 1) * RB, n * n * 1e-15,
      string.format("%s: v of junction %d", what, k))
  end
end
check_ladder(2, nil, "ladder of 2 (2x2)")
check_ladder(3, nil, "ladder of 3 (dense LU)")
check_ladder(6, nil, "ladder of 6 (dense LU)")
check_ladder(3, "always", "ladder of 3, forced sparse")
check_ladder(60, true, "ladder of 60 (sparse: large)")
check_ladder(60, false, "ladder of 60, dense LU")

-- A torque of 1 N.m on a heavy inertia J2 = 1e16 kg.m2, geared (ratio 2) to
-- a light one J1 = 1 kg.m2: the section's rows are 1e16 and 1 (dense, 3x3,
-- constant: checked at build). By hand: a2 = 1 / (J2 + ratio^2 J1), a1 =
-- ratio a2, gear.tau = ratio J1 a1; the speeds at t from rest a t.
local J1, J2, ratio = 1, 1e16, 2
local Gear = lied.model "Gear" {
  drive = rot.Torque { tau = 1 }, j1 = rot.Inertia { J = J1 },
  gear = rot.IdealGear { ratio = ratio }, j2 = rot.Inertia { J = J2 },
  connect = { { "j2.flange_b", "drive.flange" }, { "j1.flange_b", "gear.flange_a" },
              { "j2.flange_a", "gear.flange_b" } },
}
for _, sparse in ipairs { false, "always" } do
  local what = sparse and "gear, forced sparse" or "gear (dense)"
  local res = lied.build(Gear, nil, nil, sparse and { sparse = sparse } or nil):run {
    stop = 0.5, dt = 0.5, solver = "rk4", vars = "j1.w,j2.w,gear.tau" }
  local a2 = 1 / (J2 + ratio * ratio * J1)
  rel(T.column(res, "j2.w")[2], 0.5 * a2, 1e-14, what .. ": j2.w at 0.5 s")
  rel(T.column(res, "j1.w")[2], 0.5 * ratio * a2, 1e-14, what .. ": j1.w at 0.5 s")
  rel(T.column(res, "gear.tau")[1], ratio * J1 * ratio * a2, 1e-14, what .. ": gear.tau")
end

-- The crane crab with a cart of m1 = 1e16 kg (a 2x2 section, not constant:
-- solved at run time). At rest at t = 0 (Lagrange, tests/validation/
-- test_cranecrab.lua, with X = a, Y = b):
--   (m1 + m2) s'' - m2 b w' = 0,  -m2 b s'' + (m2 (a^2 + b^2) + I2) w' = -m2 g a
local m1, m2, I2, a, b, g = 1e16, 0.5, 0.05, 0.5, 1.5, 9.81
local function crab(mass)
  return lied.model "HeavyCrab" {
    fixed = pm.Fixed {}, prismatic1 = pm.Prismatic { e = { 1, 0 } },
    body1 = pm.Body { m = mass, I = 0.1 }, revolute2 = pm.Revolute {},
    rod2 = pm.FixedTranslation { r = { a, b } }, body2 = pm.Body { m = m2, I = I2 },
    connect = {
      { "fixed.frame_b", "prismatic1.frame_a" }, { "prismatic1.frame_b", "body1.frame_a" },
      { "prismatic1.frame_b", "revolute2.frame_a" }, { "revolute2.frame_b", "rod2.frame_a" },
      { "rod2.frame_b", "body2.frame_a" },
    },
  }
end
local J = m2 * (a * a + b * b) + I2
local M11, M12 = m1 + m2, -m2 * b
local det = M11 * J - M12 * M12
local s2, w2 = -M12 * (-m2 * g * a) / det, M11 * (-m2 * g * a) / det
for _, sparse in ipairs { false, "always" } do
  local what = sparse and "heavy crab, forced sparse" or "heavy crab (2x2)"
  local res = lied.build(crab(m1), nil, nil, sparse and { sparse = sparse } or nil):run {
    stop = 0.01, dt = 1e-3, solver = "rk4", vars = "revolute2.a,prismatic1.a" }
  rel(T.column(res, "revolute2.a")[1], w2, 1e-14, what .. ": the joint's acceleration")
  rel(T.column(res, "prismatic1.a")[1], s2, 1e-14, what .. ": the cart's acceleration")
end
-- an array of crabs in lane groups, one of them heavy: the others solved as before
local Crabs = lied.model "Crabs" { parameters = { n = 8 },
  c = lied.array(crab(1.0), lied.param "n", {
    ["body1.m"] = function(i) return i == 3 and m1 or 1.0 end }) }
local res = lied.build(Crabs):run { stop = 0.01, dt = 1e-3, solver = "rk4",
  vars = "c[*].revolute2.a" }
rel(T.column(res, "c[3].revolute2.a")[1], w2, 1e-14, "crab array: the heavy copy's joint")
local light = lied.build(crab(1.0)):run { stop = 0.01, dt = 1e-3, solver = "rk4",
  vars = "revolute2.a" }
for _, i in ipairs { 1, 2, 4, 8 } do
  T.eq(T.column(res, "c[" .. i .. "].revolute2.a")[2], T.column(light, "revolute2.a")[2],
    "crab array: light copy " .. i .. " as the crab alone, bit for bit")
end

T.done()
