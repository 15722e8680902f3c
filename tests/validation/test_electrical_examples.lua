-- The electrical examples account for their energy (docs/electrical.md, "Examples"):
--   examples/rlc.lua: delivered = the inductor's and the capacitor's energy + the
--     resistor's heat, at every output, to 1e-9 of the largest delivered;
--   examples/dc_drive.lua: delivered = kinetic (rotor, load) + magnetic (both machines) +
--     the heat of both machines and the brake resistors, to 1e-9;
--   examples/battery_pack.lua (4s x 3p in two modules, each cell integrating its heat and
--     chemical energy): the energy the load absorbed = what left the cells' chemistry, RC
--     pairs and heat, to 1e-9; the heat the cells produced = what their capacities, the
--     plates and the coolant leaving the last plate took up, to 1e-6.
-- Values: rlc.lua's capacitor voltage and current against the closed form of the step
-- response (1e-8); dc_drive.lua's steady speeds and currents against the hand calculation of
-- the brake's and the motor's circuits through the gear (1e-6: the transient of the speed
-- step at 4 s decays, the PI holds the speed); battery_pack.lua's voltage at rest (the cells'
-- OCV less the auxiliary load's current over each group's conductances, 1e-12) and the same
-- charge from every group in series (1e-9). The plots: `lied examples/X.lua out.png` writes a
-- PNG with the example's panels.
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
  -- the step response in closed form (underdamped: alpha = R/2L = 2 /s, w0^2 = 1/LC = 200,
  -- wd = 14 rad/s), from the step at 0.05 s: v_C = V (1 - e^(-alpha s) (cos wd s + alpha/wd
  -- sin wd s)), i = C dv_C/dt = V C (w0^2/wd) e^(-alpha s) sin wd s
  local t, vc, i = res:column("time"), res:column("c.v"), res:column("l.i")
  local ev, ei = 0, 0
  for k = 1, #t do
    local s = math.max(t[k] - 0.05, 0)
    local e = math.exp(-2 * s)
    ev = math.max(ev, math.abs(vc[k] - 10 * (1 - e * (math.cos(14 * s) + 2 / 14 * math.sin(14 * s)))) / 10)
    ei = math.max(ei, math.abs(i[k] - 10 * 0.01 * 200 / 14 * e * math.sin(14 * s)) / 1)
  end
  print(string.format("%-50s %.3g, current %.3g", "rlc.lua: v_C against the closed form", ev, ei))
  T.check(ev < 1e-8 and ei < 1e-8, "rlc.lua: the step response's closed form: " .. ev .. ", " .. ei)
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
  -- at the end, steady (the PI's integral holds w = 38 rad/s): the brake's emf 0.8 w drives
  -- its current through Ra + R1 || R2 = 2.2 Ohm, its torque 0.8 i_b reaches the motor through
  -- the 4:1 gear, whose current gives it with k = 0.2
  local n = #d
  local ib = 0.8 * 38 / 2.2
  local im = 0.8 * ib / 4 / 0.2
  print(string.format("%-50s %.3g, %.3g, %.3g", "dc_drive.lua: steady w, i_brake, i_motor",
    math.abs(w2[n] - 38) / 38, math.abs(-i2[n] - ib) / ib, math.abs(i1[n] - im) / im))
  T.near(w2[n], 38, 1e-6 * 38, "dc_drive.lua: the controller holds the speed")
  T.near(-i2[n], ib, 1e-6 * ib, "dc_drive.lua: the brake's current")
  T.near(i1[n], im, 1e-6 * im, "dc_drive.lua: the motor's current")
  T.near(w1[n], 4 * 38, 1e-6 * 152, "dc_drive.lua: the motor turns 4 times as fast")
end

-- battery_pack.lua, 12 cells
do
  local M = example("battery_pack.lua")
  local set = { s = 4, g = 2, p = 3, energy = 1 }
  local res = lied.simulate(M, { set = set, stop = 900, interval = 900, solver = "dopri45", tol = 1e-12,
    vars = "meter.v,meter.i,e_load.y,e_cool.y,coolant_in.outlet.h,module[*].plate.h,module[*].plate.M," ..
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
  -- the example's spread of the parameters over the cells (its function spread(k, i, j, salt))
  local function spread(k, i, j, salt)
    local x = math.sin(12.9898 * k + 78.233 * i + 37.719 * j + salt) * 43758.5453
    return 2 * (x - math.floor(x)) - 1
  end
  -- at t = 0 the car stands: the load draws the 1 kW auxiliary power over 96 x 3.7 V, times
  -- p/40; every cell at OCV(0.9, 298.15 K) = 4.06 V with its RC pairs empty, so each group
  -- is 4.06 V less I0 over its cells' conductances 1/R0 in parallel
  local I0, v0 = 1000 / (96 * 3.7) * 3 / 40, 0
  for k = 1, 2 do
    for i = 1, 2 do
      local G = 0
      for j = 1, 3 do G = G + 1 / (0.02 * (1 + 0.1 * spread(k, i, j, 2))) end
      v0 = v0 + 4.06 - I0 / G
    end
  end
  T.near(first("meter.v"), v0, 1e-12 * v0, "battery_pack.lua: the pack voltage at rest")
  T.near(first("meter.i"), I0, 1e-12 * I0, "battery_pack.lua: the auxiliary load's current")
  -- the groups are in series: the charge each group's cells gave, sum_j 3600 Q_j (0.9 -
  -- SoC_j), is the same for all four
  local q = {}
  for k = 1, 2 do
    for i = 1, 2 do
      local sum = 0
      for j = 1, 3 do
        local Q = 5 * (1 + 0.03 * spread(k, i, j, 1))
        sum = sum + 3600 * Q * (0.9 - last(string.format("module[%d].group[%d].cell[%d].SoC", k, i, j)))
      end
      q[#q + 1] = sum
    end
  end
  local dq = 0
  for g = 2, 4 do dq = math.max(dq, math.abs(q[g] - q[1]) / q[1]) end
  print(string.format("%-50s %.3g (%.6g C)", "battery_pack.lua: the charge of each group", dq, q[1]))
  T.check(q[1] > 0 and dq < 1e-9, "battery_pack.lua: every group gave the same charge: " .. dq)
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

-- the plots: `lied examples/X.lua out.png` (lied.main; the pack's plot is a function of the
-- result): a PNG of 900 px width, panels of 330 px
local dir = os.tmpname()
os.remove(dir)
os.execute("mkdir -p " .. dir)
for _, c in ipairs({ { "rlc.lua", "", 720 }, { "dc_drive.lua", " --stop 1", 720 },
                     { "battery_pack.lua", " --set s=8 --set p=2 --stop 60", 1050 } }) do
  local out = dir .. "/" .. c[1]:gsub("%.lua$", ".png")
  local code, o, e = T.sh(string.format("cd %q && %q examples/%s %s%s", root, T.lied, c[1], out, c[2]))
  T.eq(code, 0, c[1] .. " plot: " .. o .. e)
  local w, h, bytes = T.png_size(out)
  T.eq(w, 900, c[1] .. ": PNG width")
  T.eq(h, c[3], c[1] .. ": PNG height (its panels)")
  T.check(bytes and bytes > 20000, c[1] .. ": a PNG with content: " .. tostring(bytes))
end
os.execute("rm -r " .. dir)

T.done()
