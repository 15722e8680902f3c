-- lied.signals: real signals for every domain (C classes, see docs/signals.md).
-- Their outputs feed the signal inputs of any library (a Revolute's drive u,
-- a Pump's omega_in), and each other.
--
--   local signals = require "lied.signals"
--   src = signals.Sine { amplitude = 2, f = 0.5 }
--   tab = signals.TimeTable { table = { { 0, 0 }, { 1, 2 }, { 3, 2 } } }
--   map = signals.Table2D { table = lied.table { file = "map.csv", x1 = "n", x2 = "p", z = "eta" } }
--
-- Sources Constant, Step, Ramp, Sine, Pulse, TimeTable; Table1D, Table2D; math Gain, Add,
-- Product, Division, Min, Max, Limiter; FirstOrder, Integrator; PI, PID.
-- print(lied.describe(signals.PI)) lists a class's parameters.
local lied = require "lied"
local signals = lied.library("signals")

if rawget(signals, "renamed") then return signals end -- already extended (cached table)

-- The table parameter of TimeTable, Table1D and Table2D: a lied.table, or
-- what lied.table takes (rows {{x, y}, ...}, {x = ..., y = ...}, a file,
-- a map) with the block's interpolation and extrapolation; events = true
-- for 1. A table that lied.table refuses is reported when the model is
-- built, with the component's path (the parameter evaluates to the error).
local function table_param(p)
  local q = {}
  for k, v in pairs(p) do q[k] = v end
  if type(p.events) == "boolean" then q.events = p.events and 1 or 0 end
  local tab = p.table
  if type(tab) == "table" and getmetatable(tab) == nil then
    local spec = {}
    for k, v in pairs(tab) do spec[k] = v end
    spec.interpolation = spec.interpolation or p.interpolation
    spec.extrapolation = spec.extrapolation or p.extrapolation
    -- named by the site of the block's declaration: new's caller is pcall,
    -- then this function, the alias's __call, the model file
    local ok, t = pcall(require("lied.table").new, spec, 4)
    q.table = ok and t or function() error(t, 0) end
  elseif p.interpolation ~= nil or p.extrapolation ~= nil then
    q.table = function()
      error("interpolation and extrapolation belong to lied.table {...} (or go with rows)", 0)
    end
  end
  q.interpolation, q.extrapolation = nil, nil
  return q
end
for _, name in ipairs { "TimeTable", "Table1D", "Table2D" } do
  signals[name] = lied.alias(signals[name], nil, table_param)
end
-- the same for another library's classes with a table parameter (lied.electrical's
-- table sources)
signals.table_param = table_param

-- Booleans for the Boolean parameters (k = true, y_start = false).
local function booleans(p)
  local q = {}
  for k, v in pairs(p) do q[k] = type(v) == "boolean" and (v and 1 or 0) or v end
  return q
end
for _, name in ipairs { "BooleanConstant", "BooleanSampleHold" } do
  signals[name] = lied.alias(signals[name], nil, booleans)
end

-- StateMachine { states = {"off", "heat", "cool"}, initial = "off",
--   transitions = {{"off", "heat", "c1"}, {"heat", "off", "not c1"}, ...},
--   values = {off = 0, heat = 1, cool = -1} }: states by name (or number),
-- conditions "cj" / "not cj" (or j / -j) over the Boolean inputs c1..cm (m:
-- the highest used, or inputs = m), values of the output y per state. A
-- malformed machine is reported when the model is built, with its path.
local function machine(p)
  if p.states == nil and p.transitions == nil then return booleans(p) end
  local q = {}
  for k, v in pairs(p) do
    if k ~= "states" and k ~= "transitions" and k ~= "values" and k ~= "inputs" then q[k] = v end
  end
  local function bad(msg)
    q.n = function() error("StateMachine: " .. msg, 0) end
    return q
  end
  local states, index = p.states, {}
  if type(states) ~= "table" or #states < 1 then return bad("states must be a list of names") end
  for i, nm in ipairs(states) do
    if type(nm) ~= "string" or index[nm] then return bad("state " .. i .. " must be a new name") end
    index[nm] = i
  end
  local function state(v, what)
    local i = index[v] or (math.type(v) == "integer" and v >= 1 and v <= #states and v)
    if not i then error(string.format("%s: no state %s (states: %s)", what, tostring(v), table.concat(states, ", ")), 0) end
    return i
  end
  local ok, err = pcall(function()
    q.n = #states
    q.initial = state(p.initial or states[1], "initial")
    local from, to, cond, m = {}, {}, {}, 0
    for k, tr in ipairs(p.transitions or {}) do
      local what = "transition " .. k
      if type(tr) ~= "table" or #tr ~= 3 then error(what .. " must be {from, to, condition}", 0) end
      from[k], to[k] = state(tr[1], what), state(tr[2], what)
      local c = tr[3]
      if type(c) == "string" then
        local neg, j = c:match("^%s*(n?o?t?)%s*c(%d+)%s*$")
        if not j or (neg ~= "" and neg ~= "not") then error(what .. ": condition " .. c .. " is not cj or not cj", 0) end
        c = (neg == "not" and -1 or 1) * tonumber(j)
      end
      if math.type(c) ~= "integer" or c == 0 then error(what .. ": condition must be cj, not cj, j or -j", 0) end
      cond[k], m = c, math.max(m, math.abs(c))
    end
    if #from > 32 then error(#from .. " transitions (at most 32)", 0) end
    for k = #from + 1, 32 do from[k], to[k], cond[k] = 1, 1, 1 end
    q.from, q.to, q.cond, q.nt = from, to, cond, #(p.transitions or {})
    q.m = p.inputs or math.max(m, 1)
    local values = {}
    for i = 1, 16 do values[i] = 0 end
    for nm, v in pairs(p.values or {}) do values[state(nm, "values")] = v end
    q.value = values
  end)
  if not ok then return bad(err) end
  return q
end
signals.StateMachine = lied.alias(signals.StateMachine, nil, machine)

-- Parameters under other names (the old libraries' sources).
function signals.renamed(names)
  return function(p)
    local q = {}
    for k, v in pairs(p) do q[names[k] or k] = v end
    return q
  end
end

return signals
