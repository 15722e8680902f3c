-- The error catalogue (design.md section 9, docs/robustness.md) through the
-- Lua API: every entry raises (or, for run-time failures, returns) an error
-- value naming the file:line or the component path, with a suggestion for
-- near misses. tests/cli/test_errors_cli.sh checks the same entries through
-- the command line (message and exit code).
local lied = require "lied"
local cli = require "lied.cli"
local tl = require "lied.testlib"
local T = require "tests.testing"

local dir = "tests/models/errors/"
local function load(name) return cli.load_model(dir .. name .. ".lua") end
local function build(name, over) return lied.build(load(name), over) end

-- Lua errors in model files: file:line
T.raises(function() cli.load_model("tests/models/syntax_error.lua") end,
  { "syntax_error.lua:1:", "unexpected symbol" }, "syntax error")
T.raises(function() cli.load_model("tests/models/runtime_error.lua") end,
  "runtime_error.lua:2: deliberate failure", "runtime error")
T.raises(function() load("returns_nothing") end,
  { "returns_nothing.lua: the file must return a model", "got nil" }, "file returns nothing")
T.raises(function() cli.load_model("tests/models/not_a_model.lua") end, "got number",
  "file returns a number")

-- unknown class / library / parameter / port, with suggestions
T.raises(function() load("unknown_class") end,
  { "unknown_class.lua:5:", "library testlib has no class 'Mas' (did you mean 'Mass'?)" }, "unknown class")
T.raises(function() return tl.Zzzzzzzz end, { "no class 'Zzzzzzzz'", "classes: Add," },
  "unknown class, no near miss: the list")
T.check(tl.not_a_class == nil, "lower-case fields still read nil")
T.raises(function() lied.library "mechanix" end, "no component library 'mechanix' (did you mean 'mechanics'?)",
  "unknown library")
T.raises(function() build("unknown_param") end,
  { "unknown_param.lua:5:", "b: Mass has no parameter 'mass' (did you mean 'm'?)" }, "unknown parameter")
T.raises(function() build("unknown_port") end,
  { "unknown_port.lua:6:", "Gain has no port 'uu' (did you mean 'u'?)" }, "unknown port")

-- bad parameter values
T.raises(function() build("bad_value") end, { "bad_value.lua:5:", "b: parameter m = -2 [kg] must be > 0" },
  "negative mass")
T.raises(function() lied.build(lied.model "V" { b = tl.Mass { m = { 1, 2 } } }) end,
  "parameter m takes 1 value, got 2", "vector for a scalar")
T.raises(function() lied.build(lied.model "V" { b = tl.Mass { [1] = 2, [2] = 3 } }) end,
  { "test_catalogue.lua:", "parameter names must be strings, got number" }, "positional parameters")
T.raises(function() lied.build(lied.model "V" { c = tl.Constant { k = 1 / 0 } }) end, "must be finite",
  "infinite parameter")
T.raises(function() lied.build(lied.model "V" { ports = { [1] = "c.y" }, c = tl.Constant {} }) end,
  "ports = {name = \"child.port\"} needs strings, got number = string", "exposed port with a number key")
T.raises(function() lied.build(lied.model "V" { ports = { p = {} }, c = tl.Constant {} }) end,
  "needs strings, got string = table", "exposed port with a table target")

-- structure
T.raises(function() build("incompatible") end,
  { "incompatible.lua:6:", "incompatible ports: c.y is real, j.flange_a is flange1d" }, "incompatible ports")
T.raises(function() build("output_output") end,
  { "output_output.lua:6:", "cannot connect a.y to b.y: both are output ports" }, "output to output")
T.raises(function() build("input_twice") end,
  { "input_twice.lua:6:", "input connected twice: g.u is fed by a.y and b.y" }, "input connected twice")
T.raises(function() build("unconnected") end,
  { "unconnected.lua:5:", "unconnected input: g.u" }, "unconnected input")
T.raises(function() build("branching") end,
  { "branching.lua:8:", "branching is not allowed for thermofluid connectors", "src.outlet", "use a Splitter" },
  "forbidden branching")
T.raises(function() build("algebraic_loop") end,
  { "algebraic loop without tearing", "add (Add.add)", "gain (Gain.gain)" }, "algebraic loop")

-- a model that is its own child; array indices
local Self = lied.model "Self" { c = tl.Constant {} }
Self.children.me = Self
T.raises(function() lied.build(Self) end, "models nested more than 100 levels deep (is a model its own child?)",
  "recursive model")
local In = lied.model "In" { g = tl.Gain {}, ports = { u = "g.u", y = "g.y" } }
local function arr(path)
  return function()
    lied.build(lied.model "A" { i = lied.array(In, 3), c = tl.Constant {}, connect = { { "c.y", path } } })
  end
end
T.raises(arr "i[-1].u", "bad index in 'i[-1].u' (indices are whole numbers from 1)", "negative index")
T.raises(arr "i[4].u", "index 4 out of range: i has 3 elements (indices from 1)", "index past the end")
T.raises(arr "i[99999999999999999999].u", "index 99999999999999999999 out of range", "huge index")
T.raises(arr "i.u", "'i' is an array of 3: write i[i]", "array without index")

-- run-time failures: built:run returns the rows so far and the message
local function run_err(name, opts, over)
  local b = build(name, over)
  local res, stats, err = b:run(opts)
  return res, stats, err or ""
end
local res, _, err = run_err("singular", { stop = 1, dt = 0.1 })
T.check(err:find("at t = 0: singular linear section", 1, true) and err:find("tearing variables: x.z", 1, true),
  "singular section names time and tearing variables: " .. err)
T.check(res and res:nrows() == 0, "singular: result kept (no rows)")
_, _, err = run_err("nan_derivative", { stop = 1, dt = 0.1 })
T.check(err:find("state i.x became inf", 1, true) and err:find("at t = ", 1, true),
  "non-finite derivative names the state and the time: " .. err)
_, _, err = run_err("stiff", { solver = "dopri45", stop = 1 }, { k = 1e6 })
T.check(err:find("step size underflow", 1, true) and err:find("i.x", 1, true),
  "step-size underflow names the state: " .. err)
_, _, err = run_err("nan_derivative", { solver = "beuler", stop = 1, dt = 0.1 })
T.check(err:find("Newton iteration of beuler does not converge", 1, true) and err:find("i.x", 1, true),
  "Newton failure names the solver and the state: " .. err)
_, _, err = run_err("nan_derivative", { solver = "esdirk23", stop = 1 })
T.check(err:find("Newton iteration does not converge", 1, true), "adaptive Newton failure: " .. err)

-- unknown solver or option
local osc = cli.load_model("tests/models/osc.lua")
local b = lied.build(osc)
T.raises(function() b:run { solver = "rk9" } end, { "unknown solver 'rk9'", "available: euler" }, "unknown solver")
T.raises(function() b:run { stpo = 2 } end, { "run: unknown option 'stpo'", "options: start, stop" },
  "unknown run option")
T.raises(function() b:run { solver = 4 } end, "option solver must be a string, got number", "solver not a string")
T.raises(function() lied.simulate(osc, { solver = "nope" }):run() end, "unknown solver 'nope'",
  "unknown solver through lied.simulate")
T.raises(function() b:run { dt = 0 / 0 } end, "step size must be positive and finite", "NaN step")
T.raises(function() b:run { interval = -1 } end, "output interval must be positive", "negative interval")
T.raises(function() b:run { out = "x.txt" } end, "use a .csv or .mat file", "bad output name")
T.raises(function() b:run { vars = "j.q" } end, "no variable 'q'", "unknown variable")
T.raises(function() b:run { dt = 1e-300 } end, "run: step size (dt) 1e-300 cannot advance time near t = 1",
  "a step that cannot advance time")
T.raises(function() b:run { interval = 1e-300 } end, "output interval 1e-300 cannot advance time", "too many outputs")
T.raises(function() b:run { start = 1e17, stop = 1.0000000001e17 } end,
  "is too short to simulate", "a span below the time resolution", "usage")
T.raises(function() b:run { stop = 1e-308, solver = "esdirk23" } end,
  "spans below 1e-100 s underflow in the solvers", "a span that underflows", "usage")
T.raises(function() b:run { start = -1e308, stop = 1e308 } end, "must be finite", "infinite span")
T.raises(function() b:run { clients = 1e300 } end, "clients must be from 0 to 1024", "absurd client count")
T.check(select(1, b:run { stop = 0.1, dt = 0.01, out = "none" }) ~= nil, "the model still runs after errors")

-- --set of a missing parameter (lied.build overrides)
T.raises(function() lied.build(osc, { kk = 1 }) end,
  "--set kk: no such parameter in model Osc (did you mean 'k'?)", "override of a missing parameter")
T.raises(function() lied.build(osc, { ["j.kk"] = 1 }) end,
  "j: Slider has no parameter 'kk' (did you mean 'k'?)", "override of a missing leaf parameter")
T.raises(function() lied.build(osc, { n = -1 }) end, "array size must be >= 0", "override with a bad value")
T.raises(function() lied.build(osc, "n=3") end, "overrides must be a table", "overrides not a table")
T.raises(function() lied.build(osc, { [1] = 3 }) end, "parameter paths must be strings", "override key a number")

-- out of memory when instantiating: a clean error, nothing allocated stays
T.raises(function()
  lied.build(lied.model "Big" { x = lied.array(tl.Constant {}, 2 ^ 40) })
end, { "test_catalogue.lua:", "lied.array: array size 1099511627776 out of range (at most 4294967295)" },
  "array larger than 2^32")
-- (2^32 - 1) x 2^20 instances: fails in malloc on any machine (under ASan
-- only with allocator_may_return_null=1, so run it as a child process)
local code, _, errtext = T.sh("ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1 "
  .. T.lied .. " run " .. dir .. "huge_array.lua --out none")
T.eq(code, 1, "out of memory: exit status")
T.check(errtext:find("out of memory instantiating y.x: 4503599626321920 x 16 bytes", 1, true),
  "out of memory message: " .. errtext)
T.done()
