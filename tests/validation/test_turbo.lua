-- Validation of the turbomachines (lied.turbo, docs/turbo.md):
-- 1. a Brayton cycle at a held speed, at steady state, against a hand
--    calculation with the NASA properties of tests/nasa_ref.lua (written
--    apart from the library): the flow that matches the pressure ratios,
--    the temperatures, the specific works, to 1e-6 relative;
-- 2. a free shaft carrying a compressor, a turbine and a fan: at steady
--    state compressor + fan power = turbine power to 1e-9 relative, and at
--    every output the shaft's power tau w is the stream's m dh;
-- 3. the characteristic: the pressure ratio of every machine as its law.
local lied = require "lied"
local tf = require "lied.thermofluid"
local rot = require "lied.rotational"
local turbo = require "lied.turbo"
local ref = require "tests.nasa_ref"
local T = require "tests.testing"

-- the characteristic (docs/turbo.md), written again here
local function pr_of(c, w, m)
  local n, phi = c.w_ref > 0 and w / c.w_ref or 0, m / c.m_ref
  local pr = n * math.abs(n) - c.skew * n * phi - phi * math.abs(phi) + 1
  return pr < 1 and c.k ^ (pr - 1) or pr
end

-- 1. Brayton cycle: air from 1 bar, 288.15 K through a compressor, a heater
-- (Q) and a turbine back to 1 bar, the shaft held at W by a Speed source.
do
  local W, Q, T1, p1 = 3000, 1.2e5, 288.15, 1e5
  local C = { w_ref = 2500, m_ref = 1, skew = 1, k = 2, eta = 0.84 }
  local Tb = { w_ref = 0, m_ref = 0.45, skew = 0, k = 2, eta = 0.89 }
  local M = lied.model "Brayton" {
    src = tf.Source { p0 = p1, T0 = T1, medium = tf.air, L = 200 },
    comp = turbo.Compressor { w_ref = C.w_ref, m_ref = C.m_ref, skew = C.skew, k = C.k,
                              eta = C.eta },
    burner = tf.Heater { Q = Q, V = 0.02, T0 = 700, p0 = 2e5, medium = tf.air },
    turb = turbo.Turbine { w_ref = Tb.w_ref, m_ref = Tb.m_ref, skew = Tb.skew, k = Tb.k,
                           eta = Tb.eta },
    snk = tf.Sink { p0 = p1, medium = tf.air },
    shaft = rot.Speed { w_ref = W, w = W, T = 0.01 },
    connect = { { "src.outlet", "comp.inlet" }, { "comp.outlet", "burner.inlet" },
                { "burner.outlet", "turb.inlet" }, { "turb.outlet", "snk.inlet" },
                { "shaft.flange", "comp.flange" }, { "shaft.flange", "turb.flange" } },
  }
  local res, _, err = lied.build(M):run { stop = 60, solver = "dopri45", tol = 1e-12, interval = 1,
    vars = "comp.m_flow,comp.T_out,burner.T,turb.T_out,comp.dh,turb.dh,comp.P,turb.P,shaft.P,comp.pr,turb.pr" }
  T.check(not err, "Brayton cycle runs: " .. tostring(err))
  local n = res:nrows()
  local function last(v) return T.column(res, v)[n] end
  -- the hand calculation: the flow m at which pr_c(W, m) pr_t(m) = 1 (the
  -- sink's pressure is the source's; the heater has no drop), by bisection
  local lo, hi = 1e-6, 5
  for _ = 1, 200 do
    local m = 0.5 * (lo + hi)
    if pr_of(C, W, m) * pr_of(Tb, W, m) > 1 then lo = m else hi = m end
  end
  local m = 0.5 * (lo + hi)
  local air = ref.dry_air()
  local p2 = p1 * pr_of(C, W, m)
  local h1, s1 = air.h(T1), air.s(p1, T1)
  local h2 = h1 + (air.h(air.T_ps(p2, s1)) - h1) / C.eta
  local h3 = h2 + Q / m
  local T3 = air.T_h(h3)
  local h4s = air.h(air.T_ps(p1, air.s(p2, T3)))
  local h4 = h3 - Tb.eta * (h3 - h4s)
  local checks = {
    { "mass flow", last("comp.m_flow"), m },
    { "compressor outlet T", last("comp.T_out"), air.T_h(h2) },
    { "turbine inlet T", last("burner.T"), T3 },
    { "turbine outlet T", last("turb.T_out"), air.T_h(h4) },
    { "compressor specific work", last("comp.dh"), h2 - h1 },
    { "turbine specific work", -last("turb.dh"), h3 - h4 },
    { "net power", -(last("comp.P") + last("turb.P")), m * ((h3 - h4) - (h2 - h1)) },
  }
  for _, c in ipairs(checks) do
    local e = math.abs(c[2] / c[3] - 1)
    print(string.format("Brayton %-26s %.10g  hand %.10g  rel %.2e", c[1], c[2], c[3], e))
    T.check(e < 1e-6, "Brayton: " .. c[1] .. " to 1e-6: " .. e)
  end
  T.near(last("shaft.P"), last("comp.P") + last("turb.P"), 1e-6 * last("comp.P"),
    "the speed source delivers the net shaft power")
end

-- 2. A free shaft with a compressor and a turbine in one stream (cooled
-- between them) and a fan in another.
do
  local M = lied.model "FreeShaft" {
    bleed = tf.Source { p0 = 2.5e5, T0 = 470, medium = tf.air, L = 1e3 },
    comp = turbo.Compressor { w_ref = 2500, skew = 1, m_ref = 1, eta = 0.85 },
    cool = tf.Heater { Q = -4e4, V = 0.05, T0 = 400, p0 = 3e5, medium = tf.air },
    turb = turbo.Turbine { m_ref = 0.36, skew = -0.2, k = 2, eta = 0.9 },
    out = tf.Sink { p0 = 1e5, medium = tf.air },
    ram = tf.Source { p0 = 0.95e5, T0 = 280, medium = tf.air, L = 1e3 },
    fan = turbo.Fan { w_ref = 1500, skew = 1, m_ref = 0.5, eta = 0.7 },
    ramout = tf.Sink { p0 = 1e5, medium = tf.air },
    shaft = rot.Inertia { J = 0.005, w = 1000 },
    connect = { { "bleed.outlet", "comp.inlet" }, { "comp.outlet", "cool.inlet" },
                { "cool.outlet", "turb.inlet" }, { "turb.outlet", "out.inlet" },
                { "ram.outlet", "fan.inlet" }, { "fan.outlet", "ramout.inlet" },
                { "shaft.flange_a", "comp.flange" }, { "shaft.flange_a", "turb.flange" },
                { "shaft.flange_b", "fan.flange" } },
  }
  local vars = "shaft.w"
  for _, c in ipairs { "comp", "turb", "fan" } do
    for _, v in ipairs { "P", "tau", "m_flow", "dh", "pr", "w" } do vars = vars .. "," .. c .. "." .. v end
  end
  local res, _, err = lied.build(M):run { stop = 200, solver = "dopri45", tol = 1e-11, interval = 5,
    vars = vars }
  T.check(not err, "free shaft runs: " .. tostring(err))
  local n = res:nrows()
  local function col(v) return T.column(res, v) end
  local pc, pt, pf = col("comp.P")[n], col("turb.P")[n], col("fan.P")[n]
  local bal = (pc + pf + pt) / pt
  print(string.format("free shaft at %.1f rad/s: compressor %.6g W + fan %.6g W = turbine %.6g W, rel %.2e",
    col("shaft.w")[n], pc, pf, -pt, bal))
  T.check(math.abs(bal) < 1e-9, "free shaft: compressor + fan power = turbine power to 1e-9: " .. bal)
  local worst = 0
  for _, c in ipairs { "comp", "turb", "fan" } do
    for i = 1, n do
      local P = col(c .. ".P")[i]
      worst = math.max(worst, math.abs(col(c .. ".tau")[i] * col(c .. ".w")[i] - P) / (math.abs(P) + 1))
      T.near(P, col(c .. ".m_flow")[i] * col(c .. ".dh")[i], 1e-9 * math.abs(P) + 1e-9, c .. ": P = m dh")
    end
  end
  T.check(worst < 1e-12, "tau w = m dh at every output: " .. worst)
  -- the characteristics: pr as the law at the speed and flow of the end
  local laws = { comp = { w_ref = 2500, skew = 1, m_ref = 1, k = 2 },
                 turb = { w_ref = 0, skew = -0.2, m_ref = 0.36, k = 2 },
                 fan = { w_ref = 1500, skew = 1, m_ref = 0.5, k = 2 } }
  for c, law in pairs(laws) do
    T.near(col(c .. ".pr")[n], pr_of(law, col("shaft.w")[n], col(c .. ".m_flow")[n]), 1e-14,
      c .. ": the characteristic's pressure ratio")
  end
end

os.exit(T.done())
