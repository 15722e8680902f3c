-- Error kinds (docs/lua-api.md, "Errors"): the binding raises error objects
-- of kind "usage" (a bad option or argument: nothing was done) or "model";
-- lied.error_kind tells them apart (plain Lua errors are "model"). The run
-- options are one list, lied.core.run_options.
local T = require "tests.testing"
local osc = dofile("tests/models/osc.lua")
local b = lied.build(osc)

-- usage errors: bad options and values
local usage = {
  { { stpo = 2 }, "run: unknown option 'stpo' (did you mean 'stop'?); options: start, stop" },
  { { solver = "rk9" }, "unknown solver 'rk9' (available: euler," },
  { { out = ".csv" }, "output '.csv': use a .csv or .mat file, tcp:PORT, '-' (CSV on stdout) or 'none'" },
  { { out = { "-", 3 } }, "out[2] must be a string" },
  { { stop = -1 }, "stop time -1 must be after start time 0" },
  { { stop = math.huge }, "run: option stop must be a finite number, got inf" },
  { { tol = 0 }, "run: tolerance must be positive and finite, got 0" },
  { { dt = -1 }, "run: step size must be positive and finite, got -1" },
  { { interval = "often" }, "run: option interval must be a positive number or \"step\", got string" },
  { { clients = 2.5 }, "run: clients must be from 0 to 1024 and whole, got 2.5" },
  { { fuse = 1 }, "run: option fuse must be a boolean, got number" },
  { { memory = "no" }, "run: option memory must be a boolean, got string" },
  { { progress = "yes" }, "run: option progress must be a boolean or \"auto\", got string" },
  { { start = "0" }, "run: option start must be a number, got string" },
  { { set = 1 }, "run: option set must be a table, got number" },
}
for _, u in ipairs(usage) do
  T.raises(function() b:run(u[1]) end, u[2], "usage: " .. u[2], "usage")
end
T.raises(function() lied.simulate(osc, { stpo = 2 }):run() end, "run: unknown option 'stpo'",
  "lied.simulate: unknown option", "usage")
local res = b:run { stop = 0.1 }
T.raises(function() res:save("x.txt") end, "save: use a .csv or .mat file name, got 'x.txt'",
  "save: bad file name", "usage")

-- the error object
local ok, err = pcall(b.run, b, { stpo = 2 })
T.check(not ok, "unknown option raises")
T.eq(type(err), "table", "an error object")
T.eq(getmetatable(err).__name, "lied.Error", "its __name")
T.eq(err.kind, "usage", "err.kind")
T.eq(err.status, "LIED_E_USAGE", "err.status")
T.eq(tostring(err), err.msg, "tostring(err) is the message")
T.eq("lied: " .. err, "lied: " .. err.msg, "concatenation gives the message")
T.eq(err .. "!", err.msg .. "!", "concatenation on the right")
T.eq(lied.error_kind(err), "usage", "lied.error_kind")
T.eq(lied.core.error("usage", "m").kind, "usage", "lied.core.error makes an object")
T.raises(function() error(lied.core.error("model", "deliberate"), 0) end, "deliberate", "raised", "model")

-- model errors: the model, its parameters, variables; plain Lua errors
T.raises(function() lied.build(osc, { k = -1 }) end, "j: parameter k = -1 [N/m] must be >= 0",
  "bad parameter value", "model")
T.raises(function() lied.build(osc, { nope = 1 }) end, "--set nope: no such parameter in model Osc",
  "unknown parameter", "model")
T.raises(function() b:value("nope") end, "nope", "unknown variable", "model")
T.raises(function() b:run { vars = "j.q" } end, "no variable 'q'", "unknown recorded variable", "model")
T.eq(lied.error_kind("a message"), "model", "a string is a model error")
T.eq(lied.error_kind(nil), "model", "nil too")
-- a simulation failure: the rows so far, the stats and the message (a string)
local r, st, msg = lied.build(dofile("tests/models/errors/nan_derivative.lua")):run { stop = 1 }
T.check(r and st and type(msg) == "string" and msg:find("became", 1, true), "run failure returns its message")
T.raises(function() lied.simulate(dofile("tests/models/errors/nan_derivative.lua")):run() end,
  "became", "sim:run raises a simulation failure", "model")

-- the run options: one list, each checked by model:run
local opts = lied.core.run_options
T.check(#opts >= 18, "run_options lists the options")
local names = {}
for _, o in ipairs(opts) do
  T.check(type(o.name) == "string" and type(o.type) == "string" and type(o.doc) == "string" and o.doc ~= "",
    "option " .. tostring(o.name) .. " has a name, type and doc")
  names[#names + 1] = o.name
end
local valid = { start = 0, stop = 0.5, dt = 0.01, tol = 1e-6, rtol = 1e-6, atol = 1e-6, hmax = 0.1,
  interval = "step", solver = "rk4", vars = "j.*", out = "none", clients = 0, progress = false,
  progress_delay = 1, memory = true, fuse = true, lanes = true, set = {}, params = true, threads = 2,
  threads_any = true, steady = "none" }
for _, n in ipairs(names) do
  T.check(valid[n] ~= nil, "a valid value for option " .. n .. " in this test")
  T.check(pcall(b.run, b, { [n] = valid[n] }), "option " .. n .. " = " .. tostring(valid[n]) .. " is accepted")
end
for n in pairs(valid) do
  local listed = false
  for _, m in ipairs(names) do listed = listed or m == n end
  T.check(listed, "option " .. n .. " is in lied.core.run_options")
end
T.eq(lied.core.suggest("stpo", names), "stop", "lied.core.suggest")
T.eq(select(2, lied.core.suggest("stpo", names)), " (did you mean 'stop'?)", "the message part")
T.eq(lied.core.suggest("zzzzzz", names), nil, "no suggestion when nothing is close")

T.done()
