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

if lied.has(signals, "renamed") then return signals end -- already extended (cached table)

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
    local spec, twice = {}, nil
    for k, v in pairs(tab) do spec[k] = v end
    for _, k in ipairs { "interpolation", "extrapolation" } do
      -- given in the rows and beside them, differently: the rows' was taken silently
      if spec[k] ~= nil and p[k] ~= nil and spec[k] ~= p[k] then
        twice = string.format("%s is given twice, %s in the table and %s beside it: give it once", k,
          string.format("%q", tostring(spec[k])), string.format("%q", tostring(p[k])))
      end
      spec[k] = spec[k] or p[k]
    end
    -- named by the site of the block's declaration: new's caller is pcall,
    -- then this function, the alias's __call, the model file
    local ok, t = pcall(require("lied.table").new, spec, 4)
    if twice then ok, t = false, twice end
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
  lied.extend(signals, name, lied.alias(signals[name], nil, table_param))
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
  lied.extend(signals, name, lied.alias(signals[name], nil, booleans))
end

-- StateMachine { states = {"off", "heat", "cool"}, initial = "off",
--   transitions = {{"off", "heat", "c1"}, {"heat", "off", "not c1"}, ...},
--   values = {off = 0, heat = 1, cool = -1} }: states by name (or number),
-- conditions "cj" / "not cj" (or j / -j) over the Boolean inputs c1..cm (m:
-- the highest used, or inputs = m), values of the output y per state. A
-- malformed machine is reported when the model is built, with its path and
-- the field at fault ("sm.transitions: StateMachine: transition 1: ...", as
-- the error of a parameter's function), in the fields' own terms: the C
-- parameters it fills (n, m, from, to, cond, nt, value) are refused beside
-- states (they were overwritten or mixed in silently), and so is a field of
-- the wrong type (transitions = "x" was a machine without transitions).
local machine_raw = { n = "states", m = "inputs", from = "transitions", to = "transitions",
                      cond = "transitions", nt = "transitions", value = "values" }
local machine_fields = { states = true, transitions = true, values = true, inputs = true,
                         initial = true }
local function machine_fail(field, msg) error({ field = field, msg = msg }, 0) end

-- The transitions into q (from, to, cond, nt); the highest condition input used.
local function machine_transitions(p, q, state)
  local trs = p.transitions or {}
  if type(trs) ~= "table" then
    machine_fail("transitions", "transitions must be a list of {from, to, condition}, got " .. type(trs))
  end
  if #trs > 32 then machine_fail("transitions", #trs .. " transitions (at most 32)") end
  local from, to, cond, m = {}, {}, {}, 0
  for k, tr in ipairs(trs) do
    local what = "transition " .. k
    if type(tr) ~= "table" or #tr ~= 3 then machine_fail("transitions", what .. " must be {from, to, condition}") end
    from[k], to[k] = state(tr[1], "transitions", what), state(tr[2], "transitions", what)
    local c = tr[3]
    if type(c) == "string" then
      local neg, j = c:match("^%s*(n?o?t?)%s*c(%d+)%s*$")
      if not j or (neg ~= "" and neg ~= "not") then
        machine_fail("transitions", what .. ": condition " .. c .. " is not cj or not cj")
      end
      c = (neg == "not" and -1 or 1) * tonumber(j)
    end
    if math.type(c) ~= "integer" or c == 0 then machine_fail("transitions", what .. ": condition must be cj, not cj, j or -j") end
    if math.abs(c) > 8 then machine_fail("transitions", what .. ": condition c" .. math.abs(c) .. ": the inputs are c1 .. c8") end
    cond[k], m = c, math.max(m, math.abs(c))
  end
  for k = #from + 1, 32 do from[k], to[k], cond[k] = 1, 1, 1 end
  q.from, q.to, q.cond, q.nt = from, to, cond, #from
  return m
end

-- The output's value per state into q.value.
local function machine_values(p, q, state)
  local values = {}
  for i = 1, 16 do values[i] = 0 end
  if p.values ~= nil and type(p.values) ~= "table" then
    machine_fail("values", "values must be a table {state = value, ...}, got " .. type(p.values))
  end
  for nm, v in pairs(p.values or {}) do
    local i = state(nm, "values")
    -- a number, or an expression (lied.param, a function) the build evaluates and checks
    local expr = type(v) == "function" or (type(v) == "table" and getmetatable(v) ~= nil)
    if not expr and (type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge) then
      machine_fail("values", string.format("the value of state %s must be a finite number, got %s", tostring(nm),
        type(v) == "number" and tostring(v) or type(v)))
    end
    values[i] = v
  end
  q.value = values
end

local function machine_check(p, q)
  local states, index = p.states, {}
  for k, field in pairs(machine_raw) do
    if p[k] ~= nil then machine_fail(k, k .. " is set from " .. field .. " (give " .. field .. ", not " .. k .. ")") end
  end
  if type(states) ~= "table" or #states < 1 then machine_fail("states", "states must be a list of names") end
  if #states > 16 then machine_fail("states", #states .. " states (at most 16)") end
  for i, nm in ipairs(states) do
    if type(nm) ~= "string" or index[nm] then machine_fail("states", "state " .. i .. " must be a new name") end
    index[nm] = i
  end
  local function state(v, field, what)
    local i = index[v] or (math.type(v) == "integer" and v >= 1 and v <= #states and v)
    if not i then
      machine_fail(field, string.format("%sno state %s (states: %s)", what and what .. ": " or "", tostring(v),
        table.concat(states, ", ")))
    end
    return i
  end
  q.n = #states
  q.initial = state(p.initial or states[1], "initial")
  local m = machine_transitions(p, q, state)
  local inputs = p.inputs
  if inputs ~= nil and (type(inputs) ~= "number" or inputs ~= math.floor(inputs) or inputs < 1 or inputs > 8) then
    machine_fail("inputs", "inputs must be a whole number from 1 to 8 (the inputs c1 .. cm), got " .. tostring(inputs))
  end
  if inputs and m > inputs then
    machine_fail("transitions", string.format("a condition reads c%d, beyond inputs = %d (the inputs c1 .. c%d)", m,
      inputs, inputs))
  end
  q.m = inputs or math.max(m, 1)
  machine_values(p, q, state)
end
-- p's parameters other than the machine's fields (those the C class takes as
-- they are), copied.
local function machine_others(p)
  local q = {}
  for k, v in pairs(p) do
    if not machine_fields[k] and not machine_raw[k] then q[k] = v end
  end
  return q
end
local function machine(p)
  if p.states == nil and p.transitions == nil then return booleans(p) end
  local q = machine_others(p)
  local ok, err = pcall(machine_check, p, q)
  if ok then return q end
  if type(err) ~= "table" then error(err, 0) end
  -- reported when the model is built, with the component's path: the error
  -- of a function given for the field at fault (the other fields left out;
  -- q holds what machine_check filled before it failed)
  local r = machine_others(p)
  r[err.field] = function() error("StateMachine: " .. err.msg, 0) end
  return r
end
lied.extend(signals, "StateMachine", lied.alias(signals.StateMachine, nil, machine))

-- Parameters under other names (the old libraries' sources).
-- A parameter given under both its names (mech.Sine { A = 1, amplitude = 2 }) is
-- refused when the model is built, with the component's path: one of the two
-- was taken, which one by the order of a hash table.
function signals.renamed(names)
  return function(p)
    local q = {}
    for k, v in pairs(p) do q[names[k] or k] = v end
    for old, new in pairs(names) do
      if p[old] ~= nil and p[new] ~= nil then
        q[new] = function()
          error(string.format("%s and %s name one parameter (%s is its old name): give one of them", old,
            new, old), 0)
        end
      end
    end
    return q
  end
end

return signals
