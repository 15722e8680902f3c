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

-- Parameters under other names (the old libraries' sources).
function signals.renamed(names)
  return function(p)
    local q = {}
    for k, v in pairs(p) do q[names[k] or k] = v end
    return q
  end
end

return signals
