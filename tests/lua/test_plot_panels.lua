-- Plots with display units, a second y axis, panels and overlaid runs
-- (lua/lied/plot.lua, lua/lied/units.lua, docs/repl.md "Units, two axes and
-- panels"): a two-panel, two-axis PNG from lied.plot and from `lied FILE.lua
-- out.png` (the PNG signature and its size from the IHDR chunk), the values
-- gnuplot is given in degC, kW and rpm, a colour per run with the swept value
-- in the legend, and the errors of a bad request.
local lied = require "lied"
local th = require "lied.thermal"
local S = require "lied.signals"
local T = require "tests.testing"
local plot = require "lied.plot"
local units = require "lied.units"

T.check(plot.available(), "gnuplot is installed (tests/deps.sh installs gnuplot-nox)")

-- a heated mass: T [K] rising from 293.15 K, a heater of 2 kW, a speed in rad/s
local M = lied.model "Heated" {
  parameters = { P = 2000 },
  mass = th.HeatCapacitor { C = 4e4, T = 293.15 },
  heater = th.PrescribedHeatFlow {},
  q = S.Constant { k = lied.param "P" },
  loss = th.ThermalConductor { G = 20 },
  amb = th.FixedTemperature { T = 293.15 },
  connect = { { "q.y", "heater.Q_flow_in" }, { "heater.port", "mass.port" },
              { "mass.port", "loss.port_a" }, { "loss.port_b", "amb.port" } },
}
local res = lied.build(M):run { solver = "rk4", dt = 1, stop = 600, interval = 60,
  vars = "mass.T,heater.Q_flow,loss.Q_flow" }

local dir = os.tmpname()
os.remove(dir)
os.execute("mkdir -p " .. dir)

local png_size = T.png_size

-- ---- two panels, two axes, from lied.plot ---------------------------------------
local png = dir .. "/two.png"
local ok = lied.plot(res, nil, { file = png, layout = { 2, 1 },
  panels = { { "mass.T", y2 = { "heater.Q_flow" } }, { "loss.Q_flow:W" } } })
T.check(ok, "two panels drawn")
local w, h, bytes = png_size(png)
T.eq(w, 900, "PNG width")
T.eq(h, 720, "PNG height: two panels of 330 px and the margins")
T.check(bytes and bytes > 20000, "a PNG with content: " .. tostring(bytes) .. " bytes")

-- what gnuplot is given: the temperature in degC, the heat in kW on the
-- right axis, the loss in W as asked
local script = plot.figure({ { res, "run 1" } }, { file = dir .. "/d.png", dry = true, layout = { 2, 1 },
  panels = { { "mass.T", y2 = { "heater.Q_flow" } }, { "loss.Q_flow:W" } } },
  function(r, n) return r:column(n) end)
T.check(script:find("set multiplot layout 2,1", 1, true), "multiplot 2 x 1")
T.check(script:find("set ylabel 'mass.T [degC]'", 1, true), "left axis in degC")
T.check(script:find("set y2label 'heater.Q_flow [kW]'", 1, true), "right axis in kW")
T.check(script:find("set y2tics", 1, true) and script:find("axes x1y2", 1, true), "the second axis is used")
T.check(script:find("set ylabel 'loss.Q_flow [W]'", 1, true), "a unit asked in the name")
local first = script:match("%$d1 << EOD\n[^\n]*\n([^\n]*)\n")
local Tc = res:column("mass.T")[2] - 273.15
T.near(tonumber(first:match(" (%S+)$")), Tc, 1e-9, "the temperature's second row in degC")
local q = script:match("%$d2 << EOD\n([^\n]*)\n")
T.near(tonumber(q:match(" (%S+)$")), 2, 1e-12, "the heater's 2000 W as 2 kW")

-- units = false: SI; a unit per SI unit; an incompatible unit is refused
local si = plot.figure({ { res, "r" } }, { "mass.T", file = dir .. "/e.png", dry = true, units = false },
  function(r, n) return r:column(n) end)
T.check(si:find("'mass.T [K]'", 1, true), "units = false: kelvin")
local kpa = plot.figure({ { res, "r" } }, { "mass.T", file = dir .. "/e.png", dry = true, units = { K = "degF" } },
  function(r, n) return r:column(n) end)
T.check(kpa:find("'mass.T [degF]'", 1, true), "units by SI unit")
T.raises(function() plot.figure({ { res, "r" } }, { "mass.T:bar", file = dir .. "/e.png", dry = true },
  function(r, n) return r:column(n) end) end, { "mass.T: cannot show [K] in bar (it converts to K, degC, degF)" },
  "an incompatible display unit")
T.raises(function() plot.figure({ { res, "r" } }, { panels = { { "mass.T" }, { "loss.Q_flow" }, { "heater.Q_flow" } },
  layout = { 1, 2 }, file = dir .. "/e.png", dry = true }, function(r, n) return r:column(n) end) end,
  { "plot: layout {1, 2} has room for 2 panels, not 3" }, "a layout too small")

-- ---- overlays: a colour per run, the swept value in the legend ---------------------
local runs = {}
for i, P in ipairs { 1000, 2000, 3000 } do
  local b = lied.build(M, { P = P })
  runs[i] = { b:run { solver = "rk4", dt = 1, stop = 300, interval = 60, vars = "mass.T" }, "P=" .. P }
end
local over = plot.figure(runs, { "mass.T", file = dir .. "/o.png", dry = true }, function(r, n) return r:column(n) end)
local colours = {}
for c in over:gmatch("lc rgb '(#%x+)'") do colours[#colours + 1] = c end
T.eq(#colours, 3, "a colour per run")
T.check(colours[1] ~= colours[2] and colours[2] ~= colours[3] and colours[1] ~= colours[3], "three distinct colours")
T.check(over:find("'mass.T [degC] (P=3000)'", 1, true), "the legend names the swept value")

-- ---- display units from the run's vars, and the speed in rpm -------------------------
local m = lied.build(M)
local r2 = m:run { solver = "rk4", dt = 1, stop = 60, interval = 60, vars = "mass.T:K,heater.Q_flow" }
T.check(r2:column("mass.T") ~= nil, "vars = \"mass.T:K\": recorded as mass.T")
local k = plot.figure({ { r2, "r" } }, { "mass.T", file = dir .. "/k.png", dry = true }, function(r, n) return r:column(n) end)
T.check(k:find("'mass.T [K]'", 1, true), "the display unit asked in vars")
local f = units.converter("rad/s", "rpm")
T.near(f(2 * math.pi), 60, 1e-12, "2 pi rad/s is 60 rpm")
T.near(units.converter("m3/s", "L/min")(1e-3), 60, 1e-12, "1 L/s is 60 L/min")
T.near(units.converter("Pa", "bar")(2.5e5), 2.5, 1e-15, "2.5e5 Pa is 2.5 bar")

-- ---- the same from `lied FILE.lua out.png` --------------------------------------------
local model = dir .. "/heated.lua"
local fh = assert(io.open(model, "w"))
fh:write([[
local lied = require "lied"
local th = require "lied.thermal"
local M = lied.model "Heated" {
  mass = th.HeatCapacitor { C = 4e4, T = 293.15 }, heater = th.FixedHeatFlow { Q_flow = 2000 },
  loss = th.ThermalConductor { G = 20 }, amb = th.FixedTemperature { T = 293.15 },
  connect = { { "heater.port", "mass.port" }, { "mass.port", "loss.port_a" }, { "loss.port_b", "amb.port" } },
  experiment = { stop = 600, dt = 1, solver = "rk4", interval = 60, vars = "mass.T,loss.Q_flow" },
}
lied.main(M, { plot = { panels = { { "mass.T", y2 = { "loss.Q_flow" } }, { "loss.Q_flow" } } } })
return M
]])
fh:close()
local out = dir .. "/cli.png"
local code, o, e = T.sh(string.format("%s %s %s", T.lied, model, out))
T.eq(code, 0, "lied FILE.lua out.png: " .. o .. e)
local cw, ch = png_size(out)
T.eq(cw, 900, "CLI PNG width")
T.eq(ch, 720, "CLI PNG height (two panels)")
os.execute("rm -r " .. dir)
T.done()
