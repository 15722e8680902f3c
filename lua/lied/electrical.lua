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
local lied = require "lied"
return lied.library("electrical")
