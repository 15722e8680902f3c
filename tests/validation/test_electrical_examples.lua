-- The electrical examples account for their energy (docs/electrical.md, "Examples"):
--   examples/rlc.lua: delivered = the inductor's and the capacitor's energy + the
--     resistor's heat, at every output, to 1e-9 of the largest delivered;
--   examples/dc_drive.lua: delivered = kinetic (rotor, load) + magnetic (both machines) +
--     the heat of both machines and the brake resistors, to 1e-9;
--   examples/battery_pack.lua (4s x 3p in two modules, each cell integrating its heat and
--     chemical energy): the energy the load absorbed = what left the cells' chemistry, RC
--     pairs and heat, to 1e-9; the heat the cells produced = what their capacities, the
--     plates and the coolant leaving the last plate took up, to 1e-6.
-- dopri45 at tol 1e-12 (the RC pairs' and the machines' energies are quadratic in the states:
-- a Runge-Kutta method keeps them to its tolerance, not to rounding; the heat balance is
-- linear and holds to rounding with any method).
local lied = require "lied"
local T = require "tests.testing"

local root = os.getenv("LIED_SRC") or "."
local function example(name) return dofile(root .. "/examples/" .. name) end

-- rlc.lua
do
  local res = lied.simulate(example("rlc.lua"), { solver = "dopri45", tol = 1e-12 }):run()
  local d, El, Ec, heat = res:column("delivered.y"), res:column("l.E"), res:column("c.E"),
      res:column("heat.T")
  local big, worst = 0, 0
  for k = 1, #d do big = math.max(big, math.abs(d[k])) end
  for k = 1, #d do worst = math.max(worst, math.abs(d[k] - El[k] - Ec[k] - (heat[k] - 293.15)) / big) end
  print(string.format("%-50s %.3g (largest %.6g J)", "rlc.lua: delivered = stored + heat", worst, big))
  T.check(worst < 1e-9, "rlc.lua energy: " .. worst)
end

-- dc_drive.lua
do
  local res = lied.simulate(example("dc_drive.lua"), { solver = "dopri45", tol = 1e-12,
    vars = "delivered.y,heat.T,rotor.w,load.w,motor.i,brake.i" }):run()
  local c = function(n) return res:column(n) end
  local d, heat, w1, w2, i1, i2 = c("delivered.y"), c("heat.T"), c("rotor.w"), c("load.w"),
      c("motor.i"), c("brake.i")
  local big, worst = 0, 0
  for k = 1, #d do big = math.max(big, math.abs(d[k])) end
  for k = 1, #d do
    local stored = 2e-3 * w1[k] ^ 2 / 2 + 0.5 * w2[k] ^ 2 / 2 + 4e-3 * i1[k] ^ 2 / 2 +
        2e-3 * i2[k] ^ 2 / 2
    worst = math.max(worst, math.abs(d[k] - stored - (heat[k] - 293.15)) / big)
  end
  print(string.format("%-50s %.3g (largest %.6g J)", "dc_drive.lua: delivered = stored + heat",
    worst, big))
  T.check(worst < 1e-9, "dc_drive.lua energy: " .. worst)
  T.near(c("load.w")[#d], 38, 1e-3, "dc_drive.lua: the controller holds the speed")
end

-- battery_pack.lua, 12 cells
do
  local M = example("battery_pack.lua")
  local set = { s = 4, g = 2, p = 3, energy = 1 }
  local res = lied.simulate(M, { set = set, stop = 900, interval = 900, solver = "dopri45", tol = 1e-12,
    vars = "e_load.y,e_cool.y,coolant_in.outlet.h,module[*].plate.h,module[*].plate.M," ..
           "module[*].group[*].cell[*].*" }):run()
  local n = res:nrows()
  local function last(name) return res:column(name)[n] end
  local function first(name) return res:column(name)[1] end
  local chem, rc, heat, held = 0, 0, 0, 0
  for k = 1, 2 do
    for i = 1, 2 do
      for j = 1, 3 do
        local c = string.format("module[%d].group[%d].cell[%d].", k, i, j)
        chem = chem + last(c .. "E_chem")
        rc = rc + 3000 * (last(c .. "u1") ^ 2 - first(c .. "u1") ^ 2) / 2
        rc = rc + 4e4 * (last(c .. "u2") ^ 2 - first(c .. "u2") ^ 2) / 2
        heat = heat + last(c .. "E_heat")
        held = held + 70 * (last(c .. "T") - first(c .. "T"))
      end
    end
  end
  -- the per-copy spread of R1 makes C1 u1^2/2 of each cell differ: C1 is one value for all
  local load = last("e_load.y")
  local rel = math.abs(load + chem + rc + heat) / load
  print(string.format("%-50s %.3g (%.6g J to the load)", "battery_pack.lua: load = -(cells)", rel, load))
  T.check(rel < 1e-9, "battery_pack.lua: the load's energy = what the cells gave: " .. rel)
  local plates = 0
  for k = 1, 2 do
    local p = string.format("module[%d].plate.", k)
    plates = plates + last(p .. "M") * (last(p .. "h") - first(p .. "h"))
  end
  local coolant = last("e_cool.y") - 0.05 * first("coolant_in.outlet.h") * 900
  local rel2 = math.abs(heat - held - plates - coolant) / math.abs(heat)
  print(string.format("%-50s %.3g (%.6g J)", "battery_pack.lua: cells' heat = capacities + coolant",
    rel2, heat))
  T.check(rel2 < 1e-6, "battery_pack.lua: the cells' heat = what the capacities and the coolant took: "
    .. rel2)
  T.check(load > 0 and heat > 0, "battery_pack.lua: the pack delivered energy and heated")
end

-- battery_pack.lua at its default size (96s x 40p, 3,840 cells) with its own solver (rk4,
-- dt = 1 s) over the first 300 s: the heat balance is a linear invariant, kept to rounding
do
  local res = lied.simulate(example("battery_pack.lua"), { set = { energy = 1 }, stop = 300,
    interval = 300, vars = "e_cool.y,coolant_in.outlet.h,module[*].plate.h,module[*].plate.M," ..
                           "module[*].group[*].cell[*].E_heat,module[*].group[*].cell[*].T" }):run()
  local n, heat, held, plates = res:nrows(), 0, 0, 0
  for _, name in ipairs(res:names()) do
    local c = res:column(name)
    if name:match("E_heat$") then heat = heat + c[n] end
    if name:match("cell%[%d+%]%.T$") then held = held + 70 * (c[n] - c[1]) end
    if name:match("plate%.h$") then
      plates = plates + res:column(name:gsub("%.h$", ".M"))[n] * (c[n] - c[1])
    end
  end
  local coolant = res:column("e_cool.y")[n] - 0.05 * res:column("coolant_in.outlet.h")[1] * 300
  local rel = math.abs(heat - held - plates - coolant) / math.abs(heat)
  print(string.format("%-50s %.3g (%.6g J)", "battery_pack.lua 96s40p: heat balance", rel, heat))
  T.check(rel < 1e-6, "battery_pack.lua 96s40p: the cells' heat = capacities + coolant: " .. rel)
end

T.done()
