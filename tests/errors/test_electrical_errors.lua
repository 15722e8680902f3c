-- Errors of the electrical library (lied.electrical, docs/electrical.md, "What breaks it"):
-- circuits that have no unique solution or that lied cannot solve, and bad parameters, each
-- refused with a message naming the components. All are refused when the model is built
-- (lied.build), never as a singular matrix or a wrong result during the run: loops of
-- voltage sources and capacitors (structure), cut sets of current sources, inductors and
-- capacitors (the section is singular whatever the state: found by the evaluation at build,
-- outputs included, so also when no state reads the floating potential), a nonlinear law on
-- a potential a linear section solves and an ideal diode or switch closing a loop of
-- voltage-defined elements (checks of the constant part, lied_block_fault_model).
local lied = require "lied"
local el = require "lied.electrical"
local th = require "lied.thermal"
local S = require "lied.signals"
local T = require "tests.testing"

local function fails(def, pats, what)
  T.raises(function() return lied.build(lied.model "Top"(def)) end, pats, what, "model")
  local ok, err = pcall(lied.build, lied.model "Top"(def))
  T.check(not ok and not tostring(err):find("at t =", 1, true), what .. ": refused at build, "
    .. "not by the run: " .. tostring(err))
end
-- loops of voltage sources and capacitors: two owners of one net, or a ring in series
fails({ gnd = el.Ground {}, a = el.VoltageSource { V = 1 }, b = el.VoltageSource { V = 2 },
        connect = { { "a.n", "gnd.p" }, { "b.n", "gnd.p" }, { "a.p", "b.p" } } },
  { "cannot connect a.p to b.p: both are node ports of pin (connect node to branch)" },
  "two voltage sources in parallel")
fails({ gnd = el.Ground {}, a = el.VoltageSource { V = 1 }, c = el.Capacitor { C = 1 },
        connect = { { "a.n", "gnd.p" }, { "c.n", "gnd.p" }, { "a.p", "c.p" } } },
  { "cannot connect a.p to c.p: both are node ports of pin" }, "a capacitor across a source")
fails({ gnd = el.Ground {}, a = el.VoltageSource { V = 1 }, b = el.VoltageSource { V = 2 },
        r = el.Resistor {},
        connect = { { "a.n", "b.p" }, { "b.n", "a.p" }, { "r.p", "a.p" }, { "r.n", "gnd.p" } } },
  { "loop of voltage sources and capacitors", "b -> a -> b" }, "a ring of voltage sources")
fails({ gnd = el.Ground {}, a = el.Capacitor { C = 1 }, b = el.Capacitor { C = 2 },
        s = el.VoltageSource { V = 1 }, r = el.Resistor {},
        connect = { { "a.n", "s.p" }, { "b.n", "a.p" }, { "s.n", "b.p" }, { "r.p", "b.p" },
                    { "r.n", "gnd.p" } } },
  { "loop of voltage sources and capacitors", "b -> s -> a -> b" },
  "a ring of capacitors and a source")

-- cut sets of current sources and inductors: the junction's potential is free
fails({ gnd = el.Ground {}, i = el.CurrentSource { I = 1 }, l = el.Inductor { L = 1 },
        m = el.Node {},
        connect = { { "i.n", "gnd.p" }, { "i.p", "m.p" }, { "l.p", "m.p" }, { "l.n", "gnd.p" } } },
  { "electrical network without a unique solution", "cut set of current sources, inductors",
    "the linear section of m is singular whatever the state", "tearing variables: m.v" },
  "a current source in series with an inductor")
fails({ gnd = el.Ground {}, v = el.VoltageSource { V = 1 }, r = el.Resistor {},
        a = el.Node {}, b = el.Node {}, l1 = el.Inductor {}, l2 = el.Inductor {},
        connect = { { "v.n", "gnd.p" }, { "v.p", "r.p" }, { "r.n", "a.p" }, { "l1.p", "a.p" },
                    { "l1.n", "b.p" }, { "l2.p", "b.p" }, { "l2.n", "gnd.p" } } },
  { "the linear section of b is singular whatever the state", "tearing variables: b.v" },
  "two inductors in series")
-- a capacitor between two current sources: its potential floats; no state reads it: the
-- evaluation at build includes the outputs
fails({ gnd = el.Ground {}, a = el.CurrentSource { I = 1 }, b = el.CurrentSource { I = 1 },
            m = el.Node {}, c = el.Capacitor { C = 1 },
            connect = { { "a.p", "gnd.p" }, { "a.n", "m.p" }, { "c.n", "m.p" }, { "b.p", "c.p" },
                        { "b.n", "gnd.p" } } },
  { "electrical network without a unique solution", "cut set of current sources, inductors",
    "the linear section of m is singular whatever the state", "tearing variables: m.v" },
  "a capacitor between two current sources")
-- a junction's leakage conductance regularises it
do
  local M = lied.model "Top" {
    gnd = el.Ground {}, a = el.CurrentSource { I = 1 }, b = el.CurrentSource { I = 1 },
    m = el.Node { G = 1e-3 }, c = el.Capacitor { C = 1 },
    connect = { { "a.p", "gnd.p" }, { "a.n", "m.p" }, { "c.n", "m.p" }, { "b.p", "c.p" },
                { "b.n", "gnd.p" } },
  }
  local res = lied.simulate(M, { stop = 1, interval = 0.5, vars = "m.p.v,c.v" }):run()
  T.near(res:column("m.p.v")[res:nrows()], 0, 1e-12, "leakage G: the junction at 0 V")
  T.near(res:column("c.v")[res:nrows()], -1, 1e-9, "leakage G: the capacitor charged by b")
end

-- a nonlinear law on a potential the section solves; the same with a capacitance at the node
local function diode_loop(C)
  return { gnd = el.Ground {}, src = el.VoltageSource { V = 1 }, r = el.Resistor { R = 10 },
           m = el.Node { C = C }, d = el.Diode { smooth = 1 },
           connect = { { "src.n", "gnd.p" }, { "src.p", "r.p" }, { "r.n", "m.p" }, { "d.p", "m.p" },
                       { "d.n", "gnd.p" } } }
end
fails(diode_loop(0), { "d: nonlinear law on pin p, whose potential a linear section solves",
  "a nonlinear loop lied cannot solve", "give the node a capacitance (Node {C = ...}) or use "
  .. "smooth = 0" }, "a smooth diode on a junction")
do
  local res = lied.simulate(lied.model "Top"(diode_loop(1e-6)),
    { stop = 1e-3, interval = 1e-3, solver = "esdirk23", vars = "d.v,d.i,r.i" }):run()
  local n = res:nrows()
  T.near(res:column("d.i")[n], res:column("r.i")[n], 1e-6, "node capacitance: the diode explicit")
  T.check(res:column("d.v")[n] > 0.3 and res:column("d.v")[n] < 0.6,
    "node capacitance: a forward voltage " .. res:column("d.v")[n])
end
-- through an element in series hanging from a junction
fails({ gnd = el.Ground {}, src = el.VoltageSource { V = 1 }, r = el.Resistor { R = 10 },
            m = el.Node {}, v2 = el.VoltageSource { V = 0.1 }, r2 = el.Resistor {},
            d = el.Diode { smooth = 1 },
            connect = { { "src.n", "gnd.p" }, { "src.p", "r.p" }, { "r.n", "m.p" },
                        { "r2.p", "m.p" }, { "r2.n", "gnd.p" }, { "v2.n", "m.p" },
                        { "d.p", "v2.p" }, { "d.n", "gnd.p" } } },
  { "d: nonlinear law on pin p" },
  "a smooth diode behind a source on a junction")
fails({ gnd = el.Ground {}, src = el.VoltageSource { V = 48 }, rs = el.Resistor {},
            m = el.Node {}, dc = el.DCDC { V = 12 }, load = el.Resistor {},
            connect = { { "src.n", "gnd.p" }, { "src.p", "rs.p" }, { "rs.n", "m.p" },
                        { "dc.p1", "m.p" }, { "dc.n1", "gnd.p" }, { "dc.n2", "gnd.p" },
                        { "dc.p2", "load.p" }, { "load.n", "gnd.p" } } },
  { "dc: input current P1/v1 is nonlinear and pin p1's potential is solved by a "
    .. "linear section", "give the input a DC link (Node {C = ...})" }, "a converter on a junction")
-- an ideal diode between two explicit potentials: conducting, a loop of voltage-defined
-- elements
fails({ gnd = el.Ground {}, src = el.VoltageSource { V = 1 }, d = el.Diode { Ron = 0 },
            c = el.Capacitor { C = 1 },
            connect = { { "src.n", "gnd.p" }, { "c.n", "gnd.p" }, { "d.p", "src.p" },
                        { "d.n", "c.p" } } },
  { "d: an ideal diode (Ron = 0) between two potentials known explicitly",
    "closes a loop of voltage-defined elements" }, "an ideal diode from a source to a capacitor")
fails({ gnd = el.Ground {}, src = el.VoltageSource { V = 1 }, d = el.IdealSwitch { Ron = 0 },
            k = S.BooleanConstant { k = true }, c = el.Capacitor { C = 1 },
            connect = { { "src.n", "gnd.p" }, { "c.n", "gnd.p" }, { "d.p", "src.p" },
                        { "d.n", "c.p" }, { "k.y", "d.control" } } },
  { "d: an ideal switch (Ron = 0)", "closed, it closes a loop" },
  "an ideal switch from a source to a capacitor")

-- structure: branch to branch, unconnected pins, other domains, signal inputs
fails({ gnd = el.Ground {}, a = el.Resistor {}, b = el.Resistor {},
        connect = { { "a.n", "b.p" }, { "a.p", "gnd.p" }, { "b.n", "gnd.p" } } },
  { "cannot connect a.n to b.p: both are branch ports of pin (connect node to branch)" },
  "two resistors without a node between them")
fails({ gnd = el.Ground {}, r = el.Resistor {}, connect = { { "r.p", "gnd.p" } } },
  { "r.n" }, "a resistor with a free end")
fails({ gnd = el.Ground {}, c = th.HeatCapacitor {}, connect = { { "gnd.p", "c.port" } } },
  { "incompatible ports: gnd.p is pin, c.port is heat; pins connect only to pins" },
  "a pin to a heat port")
fails({ gnd = el.Ground {}, s = el.IdealSwitch {}, connect = { { "s.p", "gnd.p" }, { "s.n", "gnd.p" } } },
  { "unconnected input: s.control" }, "a switch without its control")
fails({ gnd = el.Ground {}, k = S.Constant {}, s = el.IdealSwitch {},
        connect = { { "s.p", "gnd.p" }, { "s.n", "gnd.p" }, { "k.y", "s.control" } } },
  { "incompatible ports: k.y is real, s.control is boolean" }, "a real signal as the control")

-- parameters
fails({ r = el.Resistor { R = 0 } }, { "r: parameter R = 0 [Ohm] must be > 0" }, "R = 0")
fails({ r = el.Resistor { R = 1, alpha = -0.01, T = 500 } },
  { "r: Resistor: R (1 + alpha (T - T_ref)) = -0.9985 Ohm must be > 0" }, "negative resistance")
fails({ l = el.Inductor { L = 0 } }, { "l: parameter L = 0 [H] must be > 0" }, "L = 0")
fails({ c = el.Capacitor { C = -1 } }, { "c: parameter C = -1 [F] must be > 0" }, "C < 0")
fails({ n = el.Node { C = -1 } }, { "n: parameter C = -1 [F] must be >= 0" }, "Node C < 0")
fails({ t = el.IdealTransformer { n = 0 } }, { "t: IdealTransformer: n must not be 0" }, "n = 0")
fails({ d = el.DCDC { eta = 0 } }, { "d: parameter eta = 0 [1] must be > 0" }, "eta = 0")
fails({ d = el.DCDC { eta = 1.2 } }, { "d: parameter eta = 1.2 [1] must be > 0 and <= 1" }, "eta > 1")
fails({ s = el.IdealSwitch { smooth = 1, Goff = 0 } },
  { "s: IdealSwitch: the smooth form needs Ron > 0 and Goff > 0" }, "smooth switch, Goff = 0")
fails({ s = el.Diode { Ron = 10, Goff = 0.5 } },
  { "s: Diode: Ron Goff = 5 must be < 1" }, "a diode that conducts better when off")

-- a run failure: the converter's input voltage at 0
do
  local res, _, err = lied.build(lied.model "Top" {
    gnd = el.Ground {}, link = el.Node { C = 1e-3, v = 0 }, dc = el.DCDC { V = 12 },
    load = el.Resistor {},
    connect = { { "dc.p1", "link.p" }, { "dc.n1", "gnd.p" }, { "dc.n2", "gnd.p" },
                { "dc.p2", "load.p" }, { "load.n", "gnd.p" } } }):run { stop = 0.1, out = "none" }
  T.check(res and err and tostring(err):find(
    "at t = 0: dc: input voltage v1 = 0 V: an averaged converter needs v1 > 0", 1, true),
    "converter at 0 V: " .. tostring(err))
end

-- runs that leave a law's range (the attack round on the electrical library): the
-- component, the time and the value, never a result of negative resistance or a charge
-- the cell has not. A resistor with a negative temperature coefficient heating its own
-- capacity (R_act falls to 0 at 400 K), alone and as 40 copies (lane forms: the copy named)
local run_err = T.run_fails
local Hot = lied.model "Hot" {
  gnd = el.Ground {}, v = el.VoltageSource { V = 10 },
  r = el.Resistor { R = 10, alpha = -0.01, T_ref = 300, heat_port = 1 }, c = th.HeatCapacitor { C = 10, T = 300 },
  connect = { { "v.n", "gnd.p" }, { "v.p", "r.p" }, { "r.n", "gnd.p" }, { "r.heat", "c.port" } } }
for _, solver in ipairs { "rk4", "dopri45", "cvode" } do
  local err = run_err(Hot, { stop = 100, solver = solver, out = "none" })
  T.check(err:find("r: R_act = R (1 + alpha (T - T_ref)) = ", 1, true)
    and err:find("the resistance must stay > 0", 1, true) and err:find("at t = ", 1, true),
    solver .. ": a resistance heated past its zero: " .. err)
  local t = tonumber(err:match("at t = ([%d%.e+-]+): r:"))
  T.check(t and t > 49 and t < 50.1, solver .. ": stops where R_act reaches 0 (t = 50 s): " .. tostring(t))
end
do
  local n = 40
  local err = run_err(lied.model "Hots" { h = lied.array(Hot, n, { ["r.R"] = function(i) return i == 33 and 5 or 10 end }) },
    { stop = 100, solver = "rk4", out = "none" })
  T.check(err:find("h[33].r: R_act = R (1 + alpha (T - T_ref))", 1, true), "lanes: the copy named: " .. err)
end
-- without a heat port the one temperature is checked when the model is built (above); a
-- heat port held at the resistance's zero: an infinite current before, now the run's start
do
  local err = run_err(lied.model "Top" { gnd = el.Ground {}, v = el.VoltageSource { V = 1 },
    ft = th.FixedTemperature { T = 500 }, r = el.Resistor { R = 1, alpha = -0.01, T_ref = 400, heat_port = 1 },
    connect = { { "v.n", "gnd.p" }, { "v.p", "r.p" }, { "r.n", "gnd.p" }, { "r.heat", "ft.port" } } },
    { stop = 1, out = "none" })
  T.check(err:find("at t = 0: r: R_act = R (1 + alpha (T - T_ref)) = 0 Ohm at T = 500 K from the heat port", 1, true),
    "a heat port at the resistance's zero: " .. err)
end

-- a cell discharged below 0 % or charged above 100 %: refused as a start value, stopped in a
-- run (the OCV map's hold gave a voltage for any SoC)
local flat = lied.table { x1 = { 0, 1 }, x2 = { 250, 350 }, z = { { 3.0, 3.0 }, { 4.2, 4.2 } } }
local function cell_load(soc, R, Q)
  return lied.model "Load" {
    gnd = el.Ground {}, cell = el.Cell { ocv = flat, Q = Q or 0.001, SoC = soc }, m = el.Node {},
    r = el.Resistor { R = R }, amb = th.FixedTemperature { T = 300 },
    connect = { { "cell.n", "gnd.p" }, { "cell.p", "m.p" }, { "r.p", "m.p" }, { "r.n", "gnd.p" },
                { "cell.heat", "amb.port" } } }
end
fails({ c = el.Cell { ocv = flat, SoC = -0.1 } },
  { "c: parameter SoC = -0.1 [1] must be >= 0 and <= 1" }, "a start SoC below 0")
fails({ c = el.Cell { ocv = flat, SoC = 1.5 } }, { "c: parameter SoC = 1.5 [1] must be >= 0 and <= 1" },
  "a start SoC above 1")
for _, solver in ipairs { "rk4", "dopri45" } do
  -- 1 ohm across 3 .. 3.6 V from SoC 0.5 of 3.6 A.s: empty after about 0.55 s
  local err = run_err(cell_load(0.5, 1), { stop = 10, solver = solver, out = "none" })
  T.check(err:find("cell: SoC = -", 1, true) and err:find("the cell is discharged below 0 % (SoC must stay in [0, 1])", 1, true),
    solver .. ": a cell discharged past empty: " .. err)
  local t = tonumber(err:match("at t = ([%d%.e+-]+): cell:"))
  T.check(t and t > 0.5 and t < 0.6, solver .. ": stops when it is empty: " .. tostring(t))
end
do -- charged past full by a source through a resistor, 33 copies (lane forms)
  local Charge = lied.model "Charge" {
    gnd = el.Ground {}, cell = el.Cell { ocv = flat, Q = 0.001, SoC = 0.9 }, m = el.Node {},
    r = el.Resistor { R = 1 }, v = el.VoltageSource { V = 6 }, amb = th.FixedTemperature { T = 300 },
    connect = { { "cell.n", "gnd.p" }, { "cell.p", "m.p" }, { "r.n", "m.p" }, { "v.p", "r.p" }, { "v.n", "gnd.p" },
                { "cell.heat", "amb.port" } } }
  local err = run_err(lied.model "Pack" { c = lied.array(Charge, 33, { ["cell.SoC"] = function(i) return i == 17 and 0.95 or 0.5 end }) },
    { stop = 10, solver = "rk4", out = "none" })
  T.check(err:find("c[17].cell: SoC = 1.", 1, true) and err:find("the cell is charged above 100 %", 1, true),
    "a cell charged past full, the copy named: " .. err)
end

-- the table sources take rows {{t, V}, ...}, as their description says (they were refused:
-- "v.table[1] must be a number, got table"), with interpolation and events beside them;
-- bad rows are named with the component
local function tsrc(cls, tab, extra)
  local p = { table = tab }
  for k, v in pairs(extra or {}) do p[k] = v end
  return lied.model "Src" { gnd = el.Ground {}, v = cls(p), r = el.Resistor { R = 2 },
    m = cls == el.TableCurrentSource and el.Node {} or nil,
    connect = cls == el.TableVoltageSource and { { "v.n", "gnd.p" }, { "v.p", "r.p" }, { "r.n", "gnd.p" } }
      or { { "v.p", "gnd.p" }, { "v.n", "m.p" }, { "r.p", "m.p" }, { "r.n", "gnd.p" } } }
end
for _, cls in ipairs { el.TableVoltageSource, el.TableCurrentSource } do
  local what = cls == el.TableVoltageSource and "voltage" or "current"
  local res = lied.simulate(tsrc(cls, { { 0, 0 }, { 1, 4 } }), { stop = 1, interval = 0.25, vars = "r.v" }):run()
  T.near(res:column("r.v")[3], what == "voltage" and 2 or 4, 1e-12, what .. " source: rows, linear")
  res = lied.simulate(tsrc(cls, { { 0, 1 }, { 0.5, 3 } }, { interpolation = "constant", events = true }),
    { stop = 1, interval = 0.25, vars = "r.v" }):run()
  T.near(res:column("r.v")[4], what == "voltage" and 3 or 6, 1e-12, what .. " source: rows, a staircase")
  fails({ s = tsrc(cls, { { 0, 1 }, { 0, 2 } }) }, { "s.v: parameter table: ", "breakpoints must increase: x[2] = 0 after x[1] = 0" },
    what .. " source: rows out of order")
  fails({ s = tsrc(cls, { { 0, 1, 5 }, { 1, 2 } }) }, { "s.v.table: ", "row 1 must be a pair of numbers {x, y}, got 3 values" },
    what .. " source: a ragged row")
  fails({ s = tsrc(cls, {}) }, { "s.v.table: ", "lied.table: no breakpoints" }, what .. " source: no rows")
end

-- rows given to a map parameter (Cell's ocv takes lied.table {x1, x2, z} only): the hint, not
-- only "must be a number"
T.raises(function() return lied.build(lied.model "Top" { c = el.Cell { ocv = { { 0, 3 }, { 1, 4 } } } }) end,
  { "c.ocv[1] must be a number, got table (rows of a table or map parameter: give them to lied.table {...})" },
  "rows for the OCV map", "model")

-- steady: a cell drained by a resistor has no equilibrium; the pseudo-time steps end at the
-- cell's range, and the answer says so (it said only "the model is strongly nonlinear")
T.raises(function() return lied.steady(cell_load(0.5, 1)) end,
  { "steady: no steady state found", "the last trial point: at t = 0: cell: SoC = ",
    "the cell is discharged below 0 %" }, "steady says why the trial points were refused")
T.done()
