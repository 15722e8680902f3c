-- examples/battery_pack.lua: an electric vehicle's battery pack cell by cell over the WLTC
-- class 3b drive cycle (lied.electrical, docs/electrical.md). s groups in series, each of p
-- cells in parallel (96s x 40p = 3,840 cells by default; --set s=..., p=...), in modules of
-- g groups; every cell an equivalent circuit (OCV of SoC and T, R0, two RC pairs, its own
-- heat capacity) whose capacity and resistances are spread per copy. The pack current is
-- derived here from the cycle's speed (a 2 t car: inertia, rolling and air resistance, 90 %
-- drive train, regeneration, a 1 kW auxiliary load) as a table of time, drawn by a
-- TableCurrentSource (scaled by p/40: each cell of a pack of any size carries what a cell of
-- the default pack does). Each module sits on a cold plate (a thermofluid ConductionElement); the
-- coolant (water-glycol, 0.05 kg/s, 25 degC) runs through the plates in series.
-- The pack is one sparse linear section: one unknown per series junction (96), a constant
-- matrix factorised once per run (docs/electrical.md, "Battery packs").
--   lied run examples/battery_pack.lua                pack voltage and current
--   lied examples/battery_pack.lua [plot.png]         pack voltage; the spread of SoC; the
--                                                     hottest and the coldest cell
--   lied run examples/battery_pack.lua --set p=1042 --set s=96 --stop 10    100,032 cells
local lied = require "lied"
local el = require "lied.electrical"
local th = require "lied.thermal"
local tf = require "lied.thermofluid"
local S = require "lied.signals"

-- the cell: OCV [V] of SoC and T (an NMC-like curve, about 0.1 mV/K), 5 A.h
local ocv = lied.table {
  x1 = { 0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1 },
  x2 = { 253.15, 298.15, 333.15 },
  z = { { 3.046, 3.05, 3.053 }, { 3.336, 3.34, 3.343 }, { 3.446, 3.45, 3.453 }, { 3.546, 3.55, 3.553 },
        { 3.606, 3.61, 3.613 }, { 3.656, 3.66, 3.663 }, { 3.706, 3.71, 3.713 }, { 3.776, 3.78, 3.783 },
        { 3.856, 3.86, 3.863 }, { 3.946, 3.95, 3.953 }, { 4.056, 4.06, 4.063 }, { 4.176, 4.18, 4.183 } },
  interpolation = "linear", name = "ocv" }

-- the pack current [A] over the cycle: the car's power over the 96 x 3.7 V of the default
-- pack, times p/40, so that every cell of a pack of any size carries what a cell of the
-- default pack does
local function cycle_current(p)
  local v = lied.table { file = "wltc_class3b.csv", x = "time", y = "speed" }:info()
  local t, kmh = v.x1, v.v
  local m, g, cr, cdA, rho, eta, regen, aux = 2000, 9.81, 0.01, 0.6, 1.2, 0.9, 0.6, 1000
  local I = {}
  for k = 1, #t do
    local u = kmh[k] / 3.6
    local a = (kmh[math.min(k + 1, #t)] - kmh[math.max(k - 1, 1)]) / 3.6 /
        (t[math.min(k + 1, #t)] - t[math.max(k - 1, 1)])
    local Pw = (m * a + (u > 0 and m * g * cr or 0) + 0.5 * rho * cdA * u * u) * u
    local P = (Pw > 0 and Pw / eta or Pw * eta * regen) + aux
    I[k] = P / (96 * 3.7) * p / 40
  end
  return lied.table { x = t, y = I, name = "WLTC class 3b pack current" }
end

-- a reproducible spread in [-1, 1] from the indices of a cell
local function spread(k, i, j, salt)
  local x = math.sin(12.9898 * k + 78.233 * i + 37.719 * j + salt) * 43758.5453
  return 2 * (x - math.floor(x)) - 1
end

local coolant = tf.liquid { rho = 1060, cp = 3500 } -- water-glycol 50/50

-- p cells in parallel between the junction below (their n pins, wired by the module or the
-- pack) and the group's own junction `top`
local Group = lied.model "Group" {
  parameters = { p = 40, energy = 0 },
  top = el.Node {},
  cell = lied.array(el.Cell { ocv = ocv, Q = 5, R0 = 0.02, R1 = 0.01, C1 = 3000, R2 = 0.015,
                              C2 = 4e4, Cth = 70, Gth = 0.05, SoC = 0.9, T = 298.15,
                              energy = lied.param "energy" },
    lied.param "p", {
      Q = function(k, i, j) return 5 * (1 + 0.03 * spread(k, i, j, 1)) end,
      R0 = function(k, i, j) return 0.02 * (1 + 0.1 * spread(k, i, j, 2)) end,
      R1 = function(k, i, j) return 0.01 * (1 + 0.1 * spread(k, i, j, 3)) end,
    }),
  connect = { lied.each(1, lied.param "p", { "cell[i].p", "top.p" }) },
}

-- g groups in series on one cold plate
local Module = lied.model "Module" {
  parameters = { p = 40, g = 8, energy = 0 },
  group = lied.array(Group { p = lied.param "p", energy = lied.param "energy" }, lied.param "g"),
  plate = tf.ConductionElement { V = 5e-4, T0 = 298.15, medium = coolant },
  connect = {
    lied.each({ i = { 2, lied.param "g" }, j = { 1, lied.param "p" } },
      { "group[i].cell[j].n", "group[i-1].top.p" }),
    lied.each({ i = { 1, lied.param "g" }, j = { 1, lied.param "p" } },
      { "group[i].cell[j].heat", "plate.heatPort" }),
  },
}

local function modules(q)
  if q.s % q.g ~= 0 then
    error(string.format("battery_pack: s = %d groups is not a whole number of modules of g = %d",
      q.s, q.g), 0)
  end
  return q.s // q.g
end

local Pack = lied.model "BatteryPack" {
  doc = "s x p cells in modules on cold plates, discharged over the WLTC class 3b",
  parameters = { s = 96, p = 40, g = 8, energy = 0, m_cool = 0.05 },
  gnd = el.Ground {},
  module = lied.array(Module { p = lied.param "p", g = lied.param "g", energy = lied.param "energy" },
    modules),
  load = el.TableCurrentSource { table = function(q) return cycle_current(q.p) end },
  meter = el.PowerSensor {}, e_load = S.Integrator {},
  coolant_in = tf.MassFlowSource { m_flow = lied.param "m_cool", T0 = 298.15, medium = coolant },
  h_out = tf.EnthalpySensor { medium = coolant },
  e_cool = S.Integrator { k = lied.param "m_cool" },
  coolant_out = tf.Sink { medium = coolant },
  connect = {
    -- the first group's cells on the ground, each module's first group on the last
    -- group of the module before, the load over the last group's junction
    lied.each(1, lied.param "p", { "module[1].group[1].cell[i].n", "gnd.p" }),
    lied.each({ k = { 2, modules }, j = { 1, lied.param "p" }, l = { lied.param "g", lied.param "g" } },
      { "module[k].group[1].cell[j].n", "module[k-1].group[l].top.p" }),
    lied.each({ k = { modules, modules }, l = { lied.param "g", lied.param "g" } },
      { "meter.pc", "module[k].group[l].top.p" }, { "meter.pv", "module[k].group[l].top.p" }),
    { "meter.nc", "load.p" }, { "meter.nv", "gnd.p" }, { "load.n", "gnd.p" },
    { "meter.y", "e_load.u" },
    -- the coolant through the plates in series
    { "coolant_in.outlet", "module[1].plate.inlet" },
    lied.each(2, modules, { "module[i-1].plate.outlet", "module[i].plate.inlet" }),
    lied.each({ k = { modules, modules } }, { "module[k].plate.outlet", "h_out.inlet" }),
    { "h_out.outlet", "coolant_out.inlet" }, { "h_out.y", "e_cool.u" },
  },
  experiment = { stop = 1800, solver = "rk4", dt = 1, interval = 10,
                 vars = "meter.v,meter.i,e_load.y,module[*].group[*].cell[*].SoC," ..
                        "module[*].group[*].cell[*].T,module[*].plate.T" },
}

-- the plot: pack voltage and current; the smallest, mean and largest state of charge; the
-- hottest and the coldest cell and the coolant leaving the last plate
local function spread_plot(res, opts)
  local plot = require "lied.plot"
  local t = res:column("time")
  local lo, mean, hi, cold, hot = {}, {}, {}, {}, {}
  local soc, temp = {}, {}
  for _, name in ipairs(res:names()) do
    if name:match("%.SoC$") then soc[#soc + 1] = res:column(name) end
    if name:match("cell%[%d+%]%.T$") then temp[#temp + 1] = res:column(name) end
  end
  for r = 1, #t do
    local a, b, s, c, h = math.huge, -math.huge, 0, math.huge, -math.huge
    for _, col in ipairs(soc) do
      local x = col[r]
      a, b, s = math.min(a, x), math.max(b, x), s + x
    end
    for _, col in ipairs(temp) do
      c, h = math.min(c, col[r] - 273.15), math.max(h, col[r] - 273.15)
    end
    lo[r], hi[r], mean[r], cold[r], hot[r] = a, b, s / #soc, c, h
  end
  local ok, err = plot.draw(nil, { file = opts.file, title = opts.title, layout = { 3, 1 }, panels = {
    { series = { { x = t, y = res:column("meter.v"), label = "pack voltage [V]" },
                 { x = t, y = res:column("meter.i"), label = "pack current [A]", axis = 2 } },
      ylabel = "[V]", y2label = "[A]" },
    { series = { { x = t, y = lo, label = "smallest SoC" }, { x = t, y = mean, label = "mean SoC" },
                 { x = t, y = hi, label = "largest SoC" } }, ylabel = "SoC [1]" },
    { series = { { x = t, y = hot, label = "hottest cell" }, { x = t, y = cold, label = "coldest cell" } },
      xlabel = "time [s]", ylabel = "[degC]" } } })
  if not ok then error(err, 0) end
end

lied.main(Pack, { plot = spread_plot })
return Pack
