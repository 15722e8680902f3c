-- lied.electrical: electrical circuits in LIED form (C components, see
-- docs/electrical.md).
--
--   local el = require "lied.electrical"
--   gnd = el.Ground {}
--   r = el.Resistor { R = 10 }
--
-- Every net has one owner, a node port: Ground, Node (a junction whose
-- potential the linear section solves, or C > 0: a capacitance to ground),
-- or the pin p of an element in series (VoltageSource, Capacitor, ...).
-- Every other pin on the net is a branch (Resistor, Inductor,
-- CurrentSource, ...): connect a node to branches. A net feeds any number
-- of branches; their currents are summed. print(lied.describe(el.Resistor))
-- lists a class's parameters.
--
-- TableVoltageSource and TableCurrentSource take their table as lied.table {...}
-- or as what lied.table takes (rows {{t, V}, ...}, with interpolation and
-- extrapolation beside them), and events = true for 1, as lied.signals'
-- TimeTable.
local lied = require "lied"
local el = lied.library("electrical")
if lied.has(el, "table_param") then return el end -- already extended (cached table)
local table_param = require("lied.signals").table_param
for _, name in ipairs { "TableVoltageSource", "TableCurrentSource" } do
  lied.extend(el, name, lied.alias(el[name], nil, table_param))
end
el.table_param = table_param
return el
