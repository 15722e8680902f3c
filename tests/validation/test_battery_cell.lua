-- Validation of the battery cell (lied.electrical Cell, docs/electrical.md, "Battery cells")
-- against closed forms written here (dopri45, tol 1e-12, limit 1e-8): a cell discharged at a
-- constant current, its open-circuit voltage linear in SoC and T (a bilinear map reproduces it
-- exactly): SoC(t) = SoC0 + i t/(3600 Q), u_k = i R_k (1 - exp(-t/(R_k C_k))), the terminal
-- voltage, the Joule heat R0 i^2 + u1^2/R1 + u2^2/R2 and the reversible heat i T dOCV/dT at a
-- held temperature; its own temperature against the heat it produces and gives its port (an
-- invariant: Cth (T - T0) + integral of Q_port = E_heat); the energy at its terminals =
-- chemical energy + RC energy + heat, to 1e-9; parallel cells whose capacities and
-- resistances differ per copy (lied.array) share the current as 1/R0 at the start.
local lied = require "lied"
local el = require "lied.electrical"
local th = require "lied.thermal"
local S = require "lied.signals"
local T = require "tests.testing"

-- OCV = 3.2 + 0.9 SoC + 2e-4 (T - 298.15): a plane, exact in a bilinear map
local function ocv_f(soc, temp) return 3.2 + 0.9 * soc + 2e-4 * (temp - 298.15) end
local socs, temps = { -0.1, 1.1 }, { 250, 350 }
local z = {}
for i, s in ipairs(socs) do
  z[i] = {}
  for j, t in ipairs(temps) do z[i][j] = ocv_f(s, t) end
end
local ocv = lied.table { x1 = socs, x2 = temps, z = z }

local P = { Q = 2.5, R0 = 0.02, R1 = 0.015, C1 = 2000, R2 = 0.01, C2 = 3e4, Cth = 40, SoC = 0.9 }
local I = 5 -- discharge current: i = -I into p
local function cell_model(Gth, energy, Cth)
  return lied.model "Discharge" {
    gnd = el.Ground {}, top = el.Node {}, load = el.CurrentSource { I = I },
    cell = el.Cell { ocv = ocv, Q = P.Q, R0 = P.R0, R1 = P.R1, C1 = P.C1, R2 = P.R2, C2 = P.C2,
                     Cth = Cth or P.Cth, Gth = Gth, SoC = P.SoC, T = 298.15, energy = energy and 1 or 0 },
    amb = th.FixedTemperature { T = 298.15 },
    pw = el.PowerSensor {}, e_term = S.Integrator {},
    connect = { { "cell.n", "gnd.p" }, { "cell.p", "top.p" }, { "top.p", "pw.pc" },
                { "pw.nc", "load.p" }, { "load.n", "gnd.p" }, { "pw.pv", "top.p" },
                { "pw.nv", "gnd.p" }, { "pw.y", "e_term.u" }, { "cell.heat", "amb.port" } },
  }
end
local function run(M, stop, vars)
  return lied.simulate(M, { stop = stop, interval = stop / 50, solver = "dopri45", tol = 1e-12,
                            vars = vars }):run()
end
local function close(res, name, f, scale, what)
  local t, y, w = res:column("time"), res:column(name), 0
  for i = 1, #t do w = math.max(w, math.abs(y[i] - f(t[i])) / scale) end
  print(string.format("%-52s %.3g", what, w))
  T.check(w < 1e-8, string.format("%s: %.3g", what, w))
end

local i = -I
local function soc(t) return P.SoC + i * t / (3600 * P.Q) end
local function u(R, C, t) return i * R * (1 - math.exp(-t / (R * C))) end

-- 1. Held at 298.15 K (a heat capacity of 1e12 J/K: it warms by 6e-10 K in 600 s).
do
  local Tc = 298.15
  local res = run(cell_model(0, false, 1e12), 600, "cell.SoC,cell.u1,cell.u2,cell.v,cell.i,cell.OCV," ..
    "cell.Q_joule,cell.Q_rev,cell.dOCV_dT,top.p.v")
  close(res, "cell.SoC", soc, 1, "discharge: state of charge")
  close(res, "cell.u1", function(t) return u(P.R1, P.C1, t) end, I * P.R1, "discharge: u1")
  close(res, "cell.u2", function(t) return u(P.R2, P.C2, t) end, I * P.R2, "discharge: u2")
  local function v(t) return ocv_f(soc(t), Tc) + u(P.R1, P.C1, t) + u(P.R2, P.C2, t) + P.R0 * i end
  close(res, "cell.v", v, 4, "discharge: terminal voltage")
  close(res, "top.p.v", v, 4, "discharge: the junction's potential")
  close(res, "cell.Q_joule", function(t)
    return P.R0 * i * i + u(P.R1, P.C1, t) ^ 2 / P.R1 + u(P.R2, P.C2, t) ^ 2 / P.R2
  end, P.R0 * I * I, "discharge: Joule heat")
  close(res, "cell.Q_rev", function() return i * Tc * 2e-4 end, I * Tc * 2e-4,
    "discharge: reversible heat i T dOCV/dT")
  T.near(res:column("cell.dOCV_dT")[2], 2e-4, 1e-13, "dOCV/dT of the map")
  T.near(res:column("cell.i")[2], i, 1e-12, "the cell's current")
end

-- 2. Its own temperature (Gth = 0.2 W/K to the ambient): the heat it produces goes into its
-- capacity and its port; and the energy at its terminals.
do
  local Gth = 0.2
  local res = run(cell_model(Gth, true), 900, "cell.T,cell.E_heat,cell.E_chem,cell.u1,cell.u2," ..
    "e_term.y,cell.Q_port")
  local n = res:nrows()
  -- the port's heat, integrated: Gth (T - T_amb) by the trapezoidal rule over a fine run
  local fine = lied.simulate(cell_model(Gth, true), { stop = 900, interval = 0.05,
    solver = "dopri45", tol = 1e-12, vars = "cell.Q_port" }):run()
  local tq, q, port = fine:column("time"), fine:column("cell.Q_port"), 0
  for k = 2, #tq do port = port + (tq[k] - tq[k - 1]) * (q[k] + q[k - 1]) / 2 end
  local heat = res:column("cell.E_heat")[n]
  local held = P.Cth * (res:column("cell.T")[n] - 298.15)
  local rel = math.abs(held + port - heat) / heat
  print(string.format("%-52s %.3g", "heat produced = capacity + port", rel))
  T.check(rel < 1e-6, "heat produced = what the capacity and the port take: " .. rel)
  -- terminals: the power into the cell is -(what the load sensor measures)
  local e_in = -res:column("e_term.y")[n]
  local e_rc = P.C1 * res:column("cell.u1")[n] ^ 2 / 2 + P.C2 * res:column("cell.u2")[n] ^ 2 / 2
  local rel2 = math.abs(e_in - (res:column("cell.E_chem")[n] + e_rc + heat)) / math.abs(e_in)
  print(string.format("%-52s %.3g (%.6g J)", "terminal energy = chemical + RC + heat", rel2, e_in))
  T.check(rel2 < 1e-9, "terminal energy = chemical + RC + heat: " .. rel2)
  T.check(res:column("cell.T")[n] > 298.2, "the cell warms up")
end

-- 3. Parallel cells whose capacities and resistances differ per copy (lied.array): at the
-- start (the RC pairs empty, the same SoC) the group current divides as 1/R0.
do
  local n, Itot = 6, 30
  local function R0(k) return 0.01 + 0.004 * k end
  local function Q(k) return 2 + 0.3 * k end
  local M = lied.model "Group" {
    gnd = el.Ground {}, top = el.Node {}, load = el.CurrentSource { I = Itot },
    amb = th.FixedTemperature { T = 298.15 },
    cell = lied.array(el.Cell { ocv = ocv, SoC = 0.5 }, n, { R0 = R0, Q = Q }),
    connect = { lied.each(1, n, { "cell[i].p", "top.p" }, { "cell[i].n", "gnd.p" },
                          { "cell[i].heat", "amb.port" }),
                { "load.p", "top.p" }, { "load.n", "gnd.p" } },
  }
  local res = lied.simulate(M, { stop = 1e-9, interval = 1e-9, vars = "cell[*].i,cell[*].SoC" }):run()
  local G = 0
  for k = 1, n do G = G + 1 / R0(k) end
  local worst = 0
  for k = 1, n do
    local want = -Itot * (1 / R0(k)) / G
    worst = math.max(worst, math.abs(res:column("cell[" .. k .. "].i")[1] - want) / Itot)
  end
  print(string.format("%-52s %.3g", "parallel cells: current divides as 1/R0", worst))
  T.check(worst < 1e-13, "parallel cells: current divides as 1/R0: " .. worst)
  local d = lied.build(M):derivatives()
  T.near(d["cell[3].SoC"], -Itot * (1 / R0(3)) / G / (3600 * Q(3)), 1e-15,
    "per-copy capacity: der(SoC) = i/(3600 Q)")
end

T.done()
