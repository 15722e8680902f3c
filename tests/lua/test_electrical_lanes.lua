-- Lane forms of the electrical library (docs/components.md, "Lane forms"): an array of 40
-- copies (a full group of 32 and a partial one) of a circuit with every class that has one
-- (Ground, Node as a junction and with a capacitance, Resistor with and without a heat port,
-- Capacitor, Inductor, VoltageSource and CurrentSource with signal inputs, the table sources,
-- the sensors, IdealTransformer, DCMachine with and without inductance, Cell) takes fused
-- steps in lane form; every recorded value must be the same bits with lanes on and off. The
-- copies differ (per-copy resistances, capacities, start states).
local lied = require "lied"
local el = require "lied.electrical"
local th = require "lied.thermal"
local rot = require "lied.rotational"
local S = require "lied.signals"
local T = require "tests.testing"

local ocv = lied.table { x1 = { 0, 0.2, 0.5, 0.8, 1 }, x2 = { 263.15, 298.15, 333.15 },
  z = { { 3.00, 3.02, 3.03 }, { 3.45, 3.47, 3.48 }, { 3.65, 3.66, 3.68 }, { 3.90, 3.92, 3.93 },
        { 4.15, 4.16, 4.18 } } }
local wave = lied.table { { 0, 0 }, { 0.01, 3 }, { 0.02, -2 }, { 0.05, 1 } }

local Bench = lied.model "Bench" {
  parameters = { R = 2, Q = 3 },
  gnd = el.Ground {}, gnd2 = el.Ground {},
  sine = S.Sine { amplitude = 2, f = 40 },
  src = el.VoltageSource { V = 10 }, r1 = el.Resistor { R = lied.param "R" }, a = el.Node {},
  l = el.Inductor { L = 0.01, R = 0.1, i = 0.2 }, c = el.Capacitor { C = 1e-3, v = 1 },
  rc = el.Resistor { R = 30, heat_port = 1, alpha = 4e-3 }, hc = th.HeatCapacitor { C = 0.5 },
  isrc = el.CurrentSource { I = 0.1 }, cn = el.Node { C = 2e-3, G = 0.01, v = 0.5 },
  tv = el.TableVoltageSource { table = wave }, rt = el.Resistor { R = 7 },
  ti = el.TableCurrentSource { table = wave },
  vs = el.VoltageSensor {}, cs = el.CurrentSensor {}, ps = el.PowerSensor {},
  tr = el.IdealTransformer { n = 3 }, load = el.Resistor { R = 4 },
  dcm = el.DCMachine { Ra = 0.5, La = 2e-3, k = 0.05, heat_port = 1 },
  rotor = rot.Inertia { J = 1e-4 },
  dcs = el.DCMachine { Ra = 1, La = 0, k = 0.05 }, rotor2 = rot.Inertia { J = 2e-4 },
  cell = el.Cell { ocv = ocv, Q = lied.param "Q", SoC = 0.6, Cth = 20, Gth = 0.5, R0 = 0.05,
                   R1 = 0.02, C1 = 5, R2 = 0.03, C2 = 50, energy = 1 },
  amb = th.FixedTemperature { T = 300 },
  connect = {
    { "src.n", "gnd.p" }, { "sine.y", "src.u" }, { "src.p", "cs.p" }, { "cs.n", "r1.p" },
    { "r1.n", "a.p" }, { "l.p", "a.p" }, { "l.n", "c.p" }, { "c.n", "gnd.p" },
    { "rc.p", "a.p" }, { "rc.n", "cn.p" }, { "rc.heat", "hc.port" }, { "isrc.p", "gnd.p" },
    { "isrc.n", "cn.p" }, { "sine.y", "isrc.u" }, { "tv.n", "gnd.p" }, { "tv.p", "rt.p" },
    { "rt.n", "cn.p" }, { "ti.p", "cn.p" }, { "ti.n", "gnd.p" }, { "vs.p", "a.p" },
    { "vs.n", "gnd.p" },
    { "tr.p1", "c.p" }, { "tr.n1", "gnd.p" }, { "tr.n2", "gnd2.p" }, { "tr.p2", "ps.pc" },
    { "ps.nc", "load.p" }, { "load.n", "gnd2.p" }, { "ps.pv", "tr.p2" }, { "ps.nv", "gnd2.p" },
    { "dcm.p", "cs.n" }, { "dcm.n", "gnd.p" }, { "dcm.flange", "rotor.flange_a" },
    { "dcm.heat", "hc.port" },
    { "dcs.p", "c.p" }, { "dcs.n", "gnd.p" }, { "dcs.flange", "rotor2.flange_a" },
    { "cell.p", "a.p" }, { "cell.n", "gnd.p" }, { "cell.heat", "amb.port" },
  },
}
local M = lied.model "Lanes" {
  b = lied.array(Bench, 40, { R = function(i) return 1 + 0.1 * i end,
                              Q = function(i) return 2 + 0.05 * i end,
                              ["c.v"] = function(i) return 0.02 * i end }),
}

local built = lied.build(M)
T.check(built:info().lanes, "the copies run in lane form: " .. tostring(built:info().no_lanes))
local function run(lanes)
  return lied.build(M):run { solver = "rk4", dt = 1e-4, stop = 0.03, interval = 0.005,
                             lanes = lanes, progress = false, vars = "*" }
end
local a, sa = run(true)
local b, sb = run(false)
T.check(sa.fused and sa.lanes, "fused steps in lane form")
T.check(sb.fused and not sb.lanes, "lanes = false: copy by copy")
local diff, cols, moved = 0, 0, 0
for _, name in ipairs(a:names()) do
  local ca, cb = a:column(name), b:column(name)
  cols = cols + 1
  for i = 1, #ca do
    if ca[i] ~= cb[i] and not (ca[i] ~= ca[i] and cb[i] ~= cb[i]) then diff = diff + 1 end
  end
  if ca[#ca] ~= ca[1] then moved = moved + 1 end
end
T.eq(diff, 0, "lanes on and off give the same bits (" .. cols .. " columns)")

T.check(moved > 1000, "the copies moved (" .. moved .. " columns)")

T.done()
