-- The two-phase sensors' kinks at the dome's edges (docs/events.md, "Kinks";
-- docs/refrigeration.md, "Sensors"), through the adaptive solvers at several
-- tolerances against a reference written here (tests/kinks.lua's measure).
--   crossing   R134a at rest in a Heater, heated at a constant rate: its
--              enthalpy h(t) = h0 + Q t / M rises from subcooled liquid
--              through the dome to superheated vapour, through a
--              SuperheatSensor, a SubcoolingSensor, a QualitySensor and an
--              extended QualitySensor; each output integrated. The
--              reference: int_0^t y(p, h(s)) ds by Gauss-Legendre quadrature
--              split where h crosses h'(p) and h''(p) (the sensors' laws
--              written out with R134a's T_ph, Tsat, h_liq, h_vap).
--   at rest    a Receiver's saturated-liquid outflow (h = h'(p) of its
--              content) through a SubcoolingSensor and a QualitySensor: their
--              kink function z_liquid sits at 0 by rounding; no kink is
--              counted, and the run takes the steps of the same model
--              without the sensors' kinks declared (the sensors' outputs not
--              integrated there: one run with the kinks' blocks, against
--              the Receiver alone).
local lied = require "lied"
local S = require "lied.signals"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local T = require "tests.testing"
local K = require "tests.kinks"

local R = tf.R134a
local p, T0, V, Q = 3e5, 260, 1e-3, 35e3
local STOP, DT = 10, 0.1

-- ---- crossing: a Heater's content heated through the dome ----------------------------
do
  local M = lied.model "Sensors" {
    src = tf.MassFlowSource { m_flow = 0, p0 = p, T0 = T0, medium = R },
    heat = tf.Heater { V = V, p0 = p, T0 = T0, Q = Q, medium = R },
    sh = rf.SuperheatSensor { medium = R },
    sc = rf.SubcoolingSensor { medium = R },
    q = rf.QualitySensor { medium = R },
    qe = rf.QualitySensor { extended = 1, medium = R },
    snk = tf.Sink { p0 = p, medium = R },
    i_sh = S.Integrator {}, i_sc = S.Integrator {}, i_q = S.Integrator {}, i_qe = S.Integrator {},
    connect = { { "src.outlet", "heat.inlet" }, { "heat.outlet", "sh.inlet" }, { "sh.outlet", "sc.inlet" },
                { "sc.outlet", "q.inlet" }, { "q.outlet", "qe.inlet" }, { "qe.outlet", "snk.inlet" },
                { "sh.y", "i_sh.u" }, { "sc.y", "i_sc.u" }, { "q.y", "i_q.u" }, { "qe.y", "i_qe.u" } },
  }
  local built = lied.build(M)
  local r0 = built:run { solver = "rk4", dt = 0.1, stop = 0.1, vars = "heat.h,heat.M" }
  local h0, Mass = r0:column("heat.h")[1], r0:column("heat.M")[1]
  local hl, hv, Ts = R:h_liq(p), R:h_vap(p), R:Tsat(p)
  local rate = Q / Mass
  local tl, tv = (hl - h0) / rate, (hv - h0) / rate
  T.check(tl > 0.5 and tv < STOP - 0.5, string.format("the content crosses the dome at %.3g s and %.3g s", tl, tv))
  -- the laws written out (docs/refrigeration.md, "Sensors")
  local function laws(s)
    local h = h0 + rate * s
    local Tc = (h > hl and h < hv) and Ts or R:T_ph(p, h)
    local xe = (h - hl) / (hv - hl)
    return { Tc - Ts, Ts - Tc, math.min(1, math.max(0, xe)), xe }
  end
  local gx = { 0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640, 0.9061798459386640 }
  local gw = { 0.5688888888888889, 0.4786286704993665, 0.4786286704993665, 0.2369268850561891,
               0.2369268850561891 }
  local function quad(a, b, acc) -- acc += int_a^b laws, 5-point Gauss on 8 panels
    local n = 8
    for j = 0, n - 1 do
      local lo, hi = a + (b - a) * j / n, a + (b - a) * (j + 1) / n
      for q = 1, 5 do
        local y = laws((lo + hi) / 2 + (hi - lo) / 2 * gx[q])
        for k = 1, 4 do acc[k] = acc[k] + gw[q] * y[k] * (hi - lo) / 2 end
      end
    end
  end
  local ref, acc = { { 0, 0, 0, 0 } }, { 0, 0, 0, 0 }
  for k = 1, math.floor(STOP / DT + 0.5) do
    local a, b = (k - 1) * DT, k * DT
    local pts = { a }
    for _, tk in ipairs { tl, tv } do if tk > a and tk < b then pts[#pts + 1] = tk end end
    pts[#pts + 1] = b
    for j = 1, #pts - 1 do quad(pts[j], pts[j + 1], acc) end
    ref[k + 1] = { acc[1], acc[2], acc[3], acc[4] }
  end
  -- the superheat, subcooling and quality kink at both edges (3 functions
  -- each, crossing at one instant: 2 kinks located), the extended quality
  -- and the Heater's flow at rest at none
  K.check("dome edges (Superheat-, Subcooling-, QualitySensor)", built, { stop = STOP, interval = DT },
    { "i_sh.x", "i_sc.x", "i_q.x", "i_qe.x" }, K.grid(ref, DT), 2, 2)
  -- undeclared (the same run without the sensors' kink functions) the
  -- error was above the bound: see docs/events.md for the measured rows
end

-- ---- at rest: a saturated outflow on the dome's liquid edge ----------------------------
do
  local function model(sensors)
    local parts = {
      src = tf.MassFlowSource { m_flow = 0.01, p0 = 1e6, T0 = 300, medium = R },
      rcv = rf.Receiver { V = 2e-3, p0 = 1e6, level0 = 0.5, m_flow = 0.01, L = 1e4, medium = R },
      d = tf.LinearQuadraticDrop { k1 = 1e6, k2 = 0, medium = R },
      snk = tf.Sink { p0 = 1e6 - 1e4, medium = R },
      connect = { { "src.outlet", "rcv.inlet" }, { "d.outlet", "snk.inlet" } },
    }
    if sensors then
      parts.sc = rf.SubcoolingSensor { medium = R }
      parts.q = rf.QualitySensor { medium = R }
      table.insert(parts.connect, { "rcv.outlet", "sc.inlet" })
      table.insert(parts.connect, { "sc.outlet", "q.inlet" })
      table.insert(parts.connect, { "q.outlet", "d.inlet" })
    else
      table.insert(parts.connect, { "rcv.outlet", "d.inlet" })
    end
    return lied.build(lied.model "Rest" (parts))
  end
  local with, without = model(true), model(false)
  for _, sv in ipairs(K.solvers) do
    local r1, s1, m1 = with:run { solver = sv, tol = 1e-7, stop = 20, interval = 0.5, vars = "sc.y,q.y,rcv.p" }
    local r2, s2, m2 = without:run { solver = sv, tol = 1e-7, stop = 20, interval = 0.5, vars = "rcv.p" }
    T.check(m1 == nil and m2 == nil, sv .. ": at rest: " .. tostring(m1 or m2))
    T.check(s1.kinks == s2.kinks, string.format("%s: at rest, %d kinks with the sensors, %d without", sv,
      s1.kinks, s2.kinks))
    T.check(s1.steps <= s2.steps + 5, string.format("%s: at rest, %d steps with the sensors, %d without", sv,
      s1.steps, s2.steps))
    local sc, q, pr, pr2 = r1:column("sc.y"), r1:column("q.y"), r1:column("rcv.p"), r2:column("rcv.p")
    for i = 1, #sc do
      T.check(math.abs(sc[i]) < 1e-9 and math.abs(q[i]) < 1e-12,
        string.format("%s: the saturated outflow reads subcooling %g, quality %g", sv, sc[i], q[i]))
      if math.abs(sc[i]) >= 1e-9 or math.abs(q[i]) >= 1e-12 then break end
    end
    T.near(pr[#pr], pr2[#pr2], 1e-9 * pr2[#pr2], sv .. ": at rest, the pressure the same with the sensors")
    print(string.format("at rest, %-9s steps %d (without the sensors %d), kinks %d (%d)", sv, s1.steps,
      s2.steps, s1.kinks, s2.kinks))
  end
end

K.report()
return T.done()
