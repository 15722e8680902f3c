-- lied.signals: real signals for every domain (C classes, see docs/signals.md).
-- Their outputs feed the signal inputs of any library (a Revolute's drive u,
-- a Pump's omega_in), and each other.
--
--   local signals = require "lied.signals"
--   src = signals.Sine { amplitude = 2, f = 0.5 }
--   tab = signals.TimeTable { table = { { 0, 0 }, { 1, 2 }, { 3, 2 } } }
--
-- Sources Constant, Step, Ramp, Sine, Pulse, TimeTable; math Gain, Add,
-- Product, Division, Min, Max, Limiter; FirstOrder, Integrator; PI, PID.
-- print(lied.describe(signals.PI)) lists a class's parameters.
local lied = require "lied"
local signals = lied.library("signals")

if rawget(signals, "renamed") then return signals end -- already extended (cached table)

-- TimeTable { table = {{t1, y1}, {t2, y2}, ...} }: the rows become the
-- vector parameters t and y (padded to their fixed length) and n. The C
-- class checks the count (at most 64 rows) and that the times increase.
local rows = signals.TimeTable.params[2].len
-- A malformed table is reported when the model is built, with the
-- component's path (the parameter t evaluates to the error).
local function table_rows(p)
  if p.table == nil then return p end
  local tab = p.table
  local q = {}
  for k, v in pairs(p) do if k ~= "table" then q[k] = v end end
  local function bad(msg)
    q.t = function() error("TimeTable: " .. msg, 0) end
    return q
  end
  if type(tab) ~= "table" then return bad("table must be a list of rows {t, y}, got " .. type(tab)) end
  local t, y = {}, {}
  for i, r in ipairs(tab) do
    if type(r) ~= "table" or #r ~= 2 then
      return bad(string.format("row %d of table must be a pair {t, y}, got %s", i,
        type(r) == "table" and (#r .. " values") or type(r)))
    end
    if i <= rows then t[i], y[i] = r[1], r[2] end
  end
  for i = #t + 1, rows do t[i], y[i] = 0, 0 end
  q.t, q.y = t, y
  if #tab > 0 then q.n = #tab end -- none: the class says there are no rows
  return q
end
signals.TimeTable = lied.alias(signals.TimeTable, nil, table_rows)

-- Parameters under other names (the old libraries' sources).
function signals.renamed(names)
  return function(p)
    local q = {}
    for k, v in pairs(p) do q[names[k] or k] = v end
    return q
  end
end

return signals
