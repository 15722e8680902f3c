-- Parameter errors of the signal library (lied.signals): every bad value is
-- refused when the model is built, with the component's path (here inside
-- a submodel: "loop.b") and what is wrong.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"

-- `block` inside the submodel loop, its input (if any) fed by a Constant
local function build(block, inputs)
  local def = { b = block, c = S.Constant {}, connect = {} }
  for _, u in ipairs(inputs or {}) do def.connect[#def.connect + 1] = { "c.y", "b." .. u } end
  return function() return lied.build(lied.model "Top" { loop = lied.model "Loop"(def) }) end
end
local function fails(block, inputs, pats, what, path)
  table.insert(pats, 1, path or "loop.b: ")
  T.raises(build(block, inputs), pats, what)
end
local u = { "u" }

-- time constants and gains
fails(S.FirstOrder { T = 0 }, u, { "parameter T = 0 [s] must be > 0" }, "FirstOrder T = 0")
fails(S.FirstOrder { T = -1 }, u, { "parameter T = -1 [s] must be > 0" }, "FirstOrder T < 0")
fails(S.PI { Ti = 0 }, u, { "parameter Ti = 0 [s] must be > 0" }, "PI Ti = 0")
fails(S.PI { Tt = 0 }, u, { "parameter Tt = 0 [s] must be > 0" }, "PI Tt = 0")
fails(S.PID { Ti = -1 }, u, { "parameter Ti = -1 [s] must be > 0" }, "PID Ti < 0")
fails(S.PID { Td = 0 }, u, { "parameter Td = 0 [s] must be > 0" }, "PID Td = 0")
fails(S.PID { Nd = 0 }, u, { "parameter Nd = 0 [1] must be > 0" }, "PID Nd = 0")
fails(S.PID { Tt = -2 }, u, { "parameter Tt = -2 [s] must be > 0" }, "PID Tt < 0")

-- limits in order
fails(S.Limiter { uMin = 2, uMax = 1 }, u,
  { "Limiter: the limits are not ordered: uMin = 2 > uMax = 1" }, "Limiter limits")
fails(S.PI { yMin = 1, yMax = -1 }, u,
  { "PI: the output limits are not ordered: yMin = 1 > yMax = -1" }, "PI limits")
fails(S.PID { yMin = 0.5, yMax = 0.25 }, u,
  { "PID: the output limits are not ordered: yMin = 0.5 > yMax = 0.25" }, "PID limits")
fails(S.PI { yMax = 1 / 0 }, u, { "yMax", "must be finite" }, "PI infinite limit")

-- discrete blocks (docs/events.md)
fails(S.Hysteresis { uLow = 1, uHigh = 1 }, u, { "Hysteresis: uLow = 1 must be below uHigh = 1" },
  "Hysteresis thresholds equal")
fails(S.Hysteresis { uLow = 2, uHigh = 1 }, u, { "Hysteresis: uLow = 2 must be below uHigh = 1" },
  "Hysteresis thresholds reversed")
fails(S.Hysteresis { high_start = 0.5 }, u, { "high_start", "integer" }, "Hysteresis high_start 0.5")
fails(S.Hysteresis { high_start = 2 }, u, { "high_start = 2", "must be >= 0 and <= 1" }, "Hysteresis high_start 2")
fails(S.SampleHold { period = 0 }, u, { "parameter period = 0 [s] must be > 0" }, "SampleHold period 0")
fails(S.UnitDelay { period = -1 }, u, { "parameter period = -1 [s] must be > 0" }, "UnitDelay period < 0")
fails(S.SampleHold { t0 = 1 / 0 }, u, { "t0", "must be finite" }, "SampleHold t0 infinite")
fails(S.DiscretePI { Ti = 0 }, u, { "parameter Ti = 0 [s] must be > 0" }, "DiscretePI Ti = 0")
fails(S.DiscretePI { yMin = 1, yMax = 0 }, u,
  { "DiscretePI: the output limits are not ordered: yMin = 1 > yMax = 0" }, "DiscretePI limits")
fails(S.DiscretePI { period = 0 }, u, { "parameter period = 0 [s] must be > 0" }, "DiscretePI period 0")

-- sources
fails(S.Sine { f = 1, w = 2 }, nil, { "Sine: set the frequency f or the angular frequency w, not both" },
  "Sine f and w")
fails(S.Sine { f = -1 }, nil, { "parameter f = -1 [Hz] must be >= 0" }, "Sine f < 0")
fails(S.Ramp { duration = -1 }, nil, { "parameter duration = -1 [s] must be >= 0" }, "Ramp duration < 0")
fails(S.Pulse { period = 0 }, nil, { "parameter period = 0 [s] must be > 0" }, "Pulse period = 0")
fails(S.Pulse { width = 0 }, nil, { "parameter width = 0 [%] must be > 0 and <= 100" }, "Pulse width = 0")
fails(S.Pulse { width = 120 }, nil, { "parameter width = 120 [%] must be > 0 and <= 100" }, "Pulse width > 100")

-- TimeTable, Table1D, Table2D: the table's numbers when the model is built,
-- naming the component and the parameter; its shape where it is declared
fails(S.TimeTable { table = { { 0, 1 }, { 2, 3 }, { 1, 0 } } }, nil,
  { "parameter table: ", "breakpoints must increase: x[3] = 1 after x[2] = 2" }, "TimeTable decreasing")
fails(S.TimeTable { table = { { 0, 1 }, { 0, 3 } } }, nil,
  { "parameter table: ", "breakpoints must increase: x[2] = 0 after x[1] = 0" }, "TimeTable equal times")
fails(S.TimeTable { table = { { 0, 1 }, { 1, 0 / 0 } } }, nil,
  { "parameter table: ", "value y[2] = nan is not finite" }, "TimeTable NaN")
fails(S.TimeTable {}, nil, { "parameter table: no table given (table = lied.table {...})" },
  "TimeTable without a table")
fails(S.TimeTable { table = {} }, nil, { "lied.table: no breakpoints" }, "TimeTable with an empty table",
  "loop.b.table: ")
fails(S.TimeTable { table = { { 0, 1 }, { 1 } } }, nil,
  { "lied.table: row 2 must be a pair of numbers {x, y}, got 1 value" }, "TimeTable short row", "loop.b.table: ")
fails(S.TimeTable { table = 3 }, nil, { "parameter table must be a table (lied.table {...}), got number" },
  "TimeTable table not a table")
fails(S.TimeTable { table = { { 0, "a" } } }, nil, { "row 1 must be a pair of numbers {x, y}, got {number, string}" },
  "TimeTable value not a number", "loop.b.table: ")
fails(S.TimeTable { table = { { 0, 1 }, { 1, 2 } }, interpolation = "spline" }, nil,
  { "interpolation must be \"linear\", \"cubic\" or \"constant\", got \"spline\"" },
  "TimeTable unknown interpolation", "loop.b.table: ")
-- an option in the rows and beside them, differently (the rows' was taken silently)
fails(S.TimeTable { table = { { 0, 1 }, { 1, 2 }, interpolation = "constant" }, interpolation = "linear" }, nil,
  { "interpolation is given twice, \"constant\" in the table and \"linear\" beside it: give it once" },
  "TimeTable interpolation twice", "loop.b.table: ")
fails(S.Table1D { table = { { 0, 1 }, { 1, 2 }, extrapolation = "hold" }, extrapolation = "periodic" }, { "u" },
  { "extrapolation is given twice, \"hold\" in the table and \"periodic\" beside it: give it once" },
  "Table1D extrapolation twice", "loop.b.table: ")
local el = require "lied.electrical"
T.raises(function() lied.build(lied.model "E" { v = el.TableVoltageSource { table = { { 0, 1 }, { 1, 2 },
  interpolation = "linear" }, interpolation = "constant" } }) end,
  { "v.table: interpolation is given twice, \"linear\" in the table and \"constant\" beside it" },
  "electrical table source interpolation twice")
local same = lied.build(lied.model "Same" { b = S.TimeTable { table = { { 0, 1 }, { 1, 2 }, interpolation = "constant" },
  interpolation = "constant" } }):run { stop = 0.5, dt = 0.5, vars = "b.y" }
T.eq(T.column(same, "b.y")[2], 1, "the same option twice is taken (a staircase)")
fails(S.TimeTable { table = { { 0, 1 } }, extrapolation = "periodic" }, nil,
  { "parameter table: ", "a periodic table needs at least 2 breakpoints" }, "TimeTable periodic of one row")
-- lied.table's errors name the site of the call once (it was
-- "m.lua:3: m.lua:3: unknown interpolation for a 2-D table"), a name given after it
local site = debug.getinfo(1, "S").short_src
for _, c in ipairs {
  { { x1 = { 0, 1 }, x2 = { 0, 1 }, z = { { 0, 1 }, { 2, 3 } }, interpolation = "constant" },
    "interpolation \"constant\" is for 1-D tables (a map takes \"linear\" or \"cubic\")" },
  { { x1 = { 0, 1 }, x2 = { 0 }, z = { { 0 }, { 2 } } }, "a map needs at least 2 breakpoints along x1 and along x2" },
  { { x = { 0, 1 }, y = { 0, 1 }, extrapolation = "wrap" },
    "extrapolation must be \"hold\", \"linear\", \"periodic\" or \"error\", got \"wrap\"" },
  { { x = { 0, 1 }, y = { 0, 1 }, extrapolation = "wrap", name = "eta" },
    "eta: extrapolation must be \"hold\", \"linear\", \"periodic\" or \"error\", got \"wrap\"" },
} do
  local line = debug.getinfo(1, "l").currentline + 1
  local ok, e = pcall(function() local t = lied.table(c[1]); return t end)
  T.eq(not ok and e, string.format("%s:%d: %s", site, line, c[2]), "lied.table names its site once: " .. c[2])
end
local map = lied.table { x1 = { 0, 1 }, x2 = { 0, 1 }, z = { { 0, 1 }, { 2, 3 } } }
fails(S.TimeTable { table = map }, nil, { "parameter table must be a 1-D table (lied.table {x = ..., y = ...}), got a 2-D map" },
  "TimeTable given a map")
fails(S.Table2D { table = lied.table { x = { 0, 1 }, y = { 0, 1 } } }, { "u1", "u2" },
  { "parameter table must be a 2-D map (lied.table {x1 = ..., x2 = ..., z = ...}), got a 1-D table" },
  "Table2D given a table")
fails(S.Table1D { table = lied.table { x = { 0, 1 }, y = { 0, 1 } } }, nil, { "unconnected input" },
  "Table1D without its input", "")
fails(S.Gain { k = map }, u, { "parameter k must be a number, got a table (lied.table)" }, "a table for a number")
fails(S.Table2D { table = lied.table { x1 = { 0, 2, 1 }, x2 = { 0, 1 }, z = { { 0, 1 }, { 2, 3 }, { 4, 5 } } } },
  { "u1", "u2" }, { "parameter table: ", "breakpoints must increase: x1[3] = 1 after x1[2] = 2" }, "Table2D x1 decreasing")

-- logic
fails(S.OnDelay { delay = -1 }, u, { "parameter delay = -1 [s] must be >= 0" }, "OnDelay delay < 0")
fails(S.GreaterThreshold { h = -0.1 }, u, { "parameter h = -0.1 [1] must be >= 0" }, "hysteresis < 0")
fails(S.StateMachine { states = { "a", "b" }, transitions = { { "a", "b", "maybe" } } }, nil,
  { "StateMachine: transition 1: condition maybe is not cj or not cj" }, "StateMachine condition",
  "loop.b.transitions: ")
fails(S.StateMachine { states = { "a", "a" } }, nil, { "StateMachine: state 2 must be a new name" },
  "StateMachine duplicate state", "loop.b.states: ")
-- a machine's fields in their own terms, with the field at fault (the fourth attack: a
-- bad initial hid the real error behind "b.initial must be a number, got the string";
-- the C parameters' names leaked: "parameter m = 9", "n = 17", "cond = 9", "value[1]";
-- the C parameters given beside states, and transitions = "x", were taken silently)
local tr = { { "a", "b", "c1" } }
for _, c in ipairs {
  { { states = { "a", "a" }, initial = "a" }, "states", "state 2 must be a new name" },
  { { states = { "a", "b" }, initial = "z", transitions = tr }, "initial", "no state z (states: a, b)" },
  { { states = { "a", "b" }, transitions = { { "a", "b", "c9" } } }, "transitions",
    "transition 1: condition c9: the inputs are c1 .. c8" },
  { { states = { "a", "b" }, transitions = { { "a", "b", "not c2" } }, inputs = 1 }, "transitions",
    "a condition reads c2, beyond inputs = 1 (the inputs c1 .. c1)" },
  { { states = { "a", "b" }, transitions = tr, inputs = 9 }, "inputs",
    "inputs must be a whole number from 1 to 8 (the inputs c1 .. cm), got 9" },
  { { states = { "a", "b" }, transitions = tr, inputs = "2" }, "inputs",
    "inputs must be a whole number from 1 to 8 (the inputs c1 .. cm), got 2" },
  { { states = { "a", "b" }, transitions = tr, inputs = 1.5 }, "inputs",
    "inputs must be a whole number from 1 to 8 (the inputs c1 .. cm), got 1.5" },
  { { states = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q" } },
    "states", "17 states (at most 16)" },
  { { states = { "a", "b" }, transitions = tr, values = { a = "x" } }, "values",
    "the value of state a must be a finite number, got string" },
  { { states = { "a", "b" }, transitions = tr, values = { b = 1 / 0 } }, "values",
    "the value of state b must be a finite number, got inf" },
  { { states = { "a", "b" }, transitions = tr, values = { c = 1 } }, "values", "no state c (states: a, b)" },
  { { states = { "a", "b" }, transitions = tr, values = 3 }, "values",
    "values must be a table {state = value, ...}, got number" },
  { { states = { "a", "b" }, transitions = "x" }, "transitions",
    "transitions must be a list of {from, to, condition}, got string" },
  { { states = { "a", "b" }, transitions = tr, n = 5 }, "n", "n is set from states (give states, not n)" },
  { { states = { "a", "b" }, transitions = tr, m = 2 }, "m", "m is set from inputs (give inputs, not m)" },
  { { states = { "a", "b" }, transitions = tr, value = { 1, 2 } }, "value",
    "value is set from values (give values, not value)" },
  { { states = { "a", "b" }, transitions = tr, from = { 2 } }, "from",
    "from is set from transitions (give transitions, not from)" },
} do
  fails(S.StateMachine(c[1]), nil, { "StateMachine: " .. c[3] }, "StateMachine " .. c[3], "loop.b." .. c[2] .. ": ")
end
fails(S.StateMachine { n = 2, m = 1, initial = 3 }, nil, { "StateMachine: initial state 3 of 2 states" },
  "StateMachine initial out of range")

-- a parameter under its old and its new name (mech.Sine's A is amplitude): one of the
-- two was taken silently, by the order of a hash table
local mech = require "lied.mechanics"
fails(mech.Sine { A = 1, amplitude = 2 }, nil, { "A and amplitude name one parameter (A is its old name): "
  .. "give one of them" }, "mech.Sine A and amplitude", "loop.b.amplitude: ")
T.eq(lied.build(lied.model "S" { s = mech.Sine { A = 3, w = 1 } }):value("s.amplitude"), 3, "A alone is amplitude")

-- input counts
fails(S.Add { n = 0 }, nil, { "parameter n = 0 [1] must be >= 1 and <= 8" }, "Add n = 0")
fails(S.Add { n = 9 }, nil, { "parameter n = 9 [1] must be >= 1 and <= 8" }, "Add n = 9")
fails(S.Product { n = 2.5 }, nil, { "parameter n = 2.5" }, "Product n not an integer")
fails(S.Min { n = 0 }, nil, { "parameter n = 0" }, "Min n = 0")
fails(S.Max { n = 10 }, nil, { "parameter n = 10" }, "Max n = 10")
fails(S.Add { n = 2, k3 = 1 }, { "u1", "u2", "u3" }, { "Add has no port 'u3'" }, "Add: port beyond n",
  "in loop, connect {\"c.y\", \"b.u3\"}")

-- required inputs
fails(S.Division {}, { "u1" }, { "every real input needs a connection" }, "Division without a divisor",
  "unconnected input: loop.b.u2")
fails(S.Integrator {}, nil, {}, "Integrator without input", "unconnected input: loop.b.u ")
fails(S.PID {}, nil, {}, "PID without input", "unconnected input: loop.b.u ")
T.done()
