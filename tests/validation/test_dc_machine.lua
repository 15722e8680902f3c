-- Validation of the DC machine (lied.electrical, docs/electrical.md, "DC machine") against
-- closed forms written here: a motor on a constant voltage driving an inertia against a
-- viscous and a constant load torque (the transient of [i, w] by a matrix exponential, the
-- steady speed and current to 1e-9), the same without armature inductance (first order), a
-- generator driven at a held speed into a load resistance, and the energy: what the source
-- delivers = magnetic + kinetic energy + the copper losses (a heat port into a capacitor of
-- 1 J/K) + the load's work (T_L times the angle turned), to 1e-9.
local lied = require "lied"
local el = require "lied.electrical"
local rot = require "lied.rotational"
local th = require "lied.thermal"
local S = require "lied.signals"
local T = require "tests.testing"

local V, Ra, La, k, J, d, TL = 24, 0.5, 2e-3, 0.1, 0.01, 1e-3, 0.2
local function motor(over)
  over = over or {}
  local m = {
    gnd = el.Ground {}, src = el.VoltageSource { V = V },
    m = el.DCMachine { Ra = Ra, La = over.La or La, k = k, heat_port = over.energy and 1 or 0 },
    rotor = rot.Inertia { J = J }, fixed = rot.Fixed {}, damp = rot.Damper { d = over.d or d },
    load = rot.Torque { tau = -TL },
    connect = { { "src.n", "gnd.p" }, { "src.p", "m.p" }, { "m.n", "gnd.p" },
                { "m.flange", "rotor.flange_a" }, { "rotor.flange_b", "damp.flange_b" },
                { "fixed.flange", "damp.flange_a" }, { "rotor.flange_a", "load.flange" } },
  }
  if over.energy then
    m.pw, m.e_src, m.heat = el.PowerSensor {}, S.Integrator {}, th.HeatCapacitor { C = 1, T = 300 }
    m.connect[2] = { "src.p", "pw.pc" }
    local c = m.connect
    c[#c + 1] = { "pw.nc", "m.p" }
    c[#c + 1] = { "pw.pv", "src.p" }
    c[#c + 1] = { "pw.nv", "gnd.p" }
    c[#c + 1] = { "pw.y", "e_src.u" }
    c[#c + 1] = { "m.heat", "heat.port" }
  end
  return lied.model "Motor" (m)
end
local function run(M, stop, vars)
  return lied.simulate(M, { stop = stop, interval = stop / 50, solver = "dopri45", tol = 1e-12,
                            vars = vars }):run()
end
local function close(res, name, f, scale, what, tol)
  local t, y, w = res:column("time"), res:column(name), 0
  for i = 1, #t do w = math.max(w, math.abs(y[i] - f(t[i])) / scale) end
  print(string.format("%-52s %.3g", what, w))
  T.check(w < (tol or 1e-8), string.format("%s: %.3g", what, w))
end

-- the closed-form steady state: V = Ra i + k w, k i = d w + T_L
local w_ss = (V - Ra * TL / k) / (k + Ra * d / k)
local i_ss = (d * w_ss + TL) / k

-- 1. The transient of [i, w] from rest: x' = A x + b, by the matrix exponential of [A b; 0 0]
-- (scaling and squaring of the Taylor series, 2x2 plus the input).
do
  local A = { { -Ra / La, -k / La, V / La }, { k / J, -d / J, -TL / J }, { 0, 0, 0 } }
  local function mul(X, Y)
    local Z = {}
    for r = 1, 3 do
      Z[r] = {}
      for c = 1, 3 do
        local s = 0
        for q = 1, 3 do s = s + X[r][q] * Y[q][c] end
        Z[r][c] = s
      end
    end
    return Z
  end
  local function expm(t)
    local s = 0
    while 2000 * t / 2 ^ s > 0.05 do s = s + 1 end -- |A| t / 2^s small (|A| < 2000)
    local E, term = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }
    local M = {}
    for r = 1, 3 do
      M[r] = {}
      for c = 1, 3 do M[r][c] = A[r][c] * t / 2 ^ s end
    end
    for n = 1, 20 do
      term = mul(term, M)
      for r = 1, 3 do for c = 1, 3 do term[r][c] = term[r][c] / n; E[r][c] = E[r][c] + term[r][c] end end
    end
    for _ = 1, s do E = mul(E, E) end
    return E
  end
  local res = run(motor(), 1, "m.i,rotor.w,m.tau,m.emf")
  close(res, "m.i", function(t) return expm(t)[1][3] end, 50, "motor from rest: armature current")
  close(res, "rotor.w", function(t) return expm(t)[2][3] end, w_ss, "motor from rest: speed")
  close(res, "m.tau", function(t) return k * expm(t)[1][3] end, 5, "motor from rest: torque k i")
  close(res, "m.emf", function(t) return k * expm(t)[2][3] end, V, "motor from rest: back-EMF")
end

-- 2. The steady speed and current under load (30 s: the slow mode's time constant is 0.5 s).
do
  local res = run(motor(), 30, "m.i,rotor.w,m.P_el,m.P_mech,m.P_loss")
  local n = res:nrows()
  local ew = math.abs(res:column("rotor.w")[n] - w_ss) / w_ss
  local ei = math.abs(res:column("m.i")[n] - i_ss) / i_ss
  print(string.format("%-52s %.3g, %.3g", "steady speed, current (relative)", ew, ei))
  T.check(ew < 1e-9, "steady speed against the closed form: " .. ew)
  T.check(ei < 1e-9, "steady current against the closed form: " .. ei)
  local Pel, Pm, Pl = res:column("m.P_el")[n], res:column("m.P_mech")[n], res:column("m.P_loss")[n]
  T.near(Pel, Pm + Pl, 1e-12 * Pel, "electrical power = mechanical power + copper losses")
end

-- 3. Without armature inductance: J w' = k (V - k w)/Ra - d w - T_L, first order.
do
  local tau = J / (k * k / Ra + d)
  local res = run(motor { La = 0 }, 2, "rotor.w,m.i")
  close(res, "rotor.w", function(t) return w_ss * (1 - math.exp(-t / tau)) end, w_ss,
    "La = 0: speed, first order")
  close(res, "m.i", function(t) return (V - k * w_ss * (1 - math.exp(-t / tau))) / Ra end, V / Ra,
    "La = 0: current (V - k w)/Ra")
end

-- 4. A generator at a held speed into a load: i = -k w0/(Ra + RL) into p, braking k i.
do
  local w0, RL = 300, 2.5
  -- the load needs a net of its own: a junction between the machine and the resistor
  local M = lied.model "Generator" {
    gnd = el.Ground {}, m = el.DCMachine { Ra = Ra, La = La, k = k }, load = el.Resistor { R = RL },
    a = el.Node {}, drive = rot.Speed { w_ref = w0, w = w0 },
    connect = { { "m.p", "a.p" }, { "load.p", "a.p" }, { "m.n", "gnd.p" }, { "load.n", "gnd.p" },
                { "m.flange", "drive.flange" } },
  }
  local res = run(M, 0.05, "m.i,m.tau,load.P,m.P_mech,drive.tau")
  local n = res:nrows()
  local i_g = -k * w0 / (Ra + RL)
  T.near(res:column("m.i")[n], i_g, 1e-9 * math.abs(i_g), "generator: current into the load")
  T.near(res:column("m.tau")[n], k * i_g, 1e-9 * math.abs(k * i_g), "generator: braking torque")
  T.near(res:column("load.P")[n], -res:column("m.P_mech")[n] - Ra * i_g * i_g,
    1e-8 * res:column("load.P")[n], "generator: mechanical power in = load + copper losses")
end

-- 5. Energy over a start under load (no viscous damping): the source's energy = La i^2/2 +
-- J w^2/2 + the copper losses (the heat capacitor's rise) + T_L times the angle.
do
  local res = run(motor { energy = true, d = 0 }, 2, "e_src.y,heat.T,m.i,rotor.w,rotor.phi")
  local n = res:nrows()
  local e = res:column("e_src.y")[n]
  local stored = La * res:column("m.i")[n] ^ 2 / 2 + J * res:column("rotor.w")[n] ^ 2 / 2
  local rel = math.abs(e - stored - (res:column("heat.T")[n] - 300) - TL * res:column("rotor.phi")[n]) / e
  print(string.format("%-52s %.3g (delivered %.6g J)", "motor: energy balance", rel, e))
  T.check(rel < 1e-9, "motor: energy delivered = stored + losses + load work: " .. rel)
end

T.done()
