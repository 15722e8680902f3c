-- examples/sweep.lua: a design study of the thermostat (examples/thermostat.lua)
-- with lied.sweep: 8 heater powers x 8 switch-on temperatures, 64 runs; of
-- each run only three numbers are kept (its switches, the mean heater power
-- and the final temperature). Under mpirun the 64 points are split over the
-- ranks and rank 0 prints the table (docs/distributed.md, "Sweeps").
--   lied examples/sweep.lua [stop]              one process (stop: 20000 s)
--   mpirun -np 2 lied examples/sweep.lua 1e6    2 processes, 32 points each
-- Like the other examples it is also a model file (the thermostat): the
-- sweep runs only when the file is the main script, as lied.main does.
local lied = require "lied"
local Thermostat = require "thermostat"
local source = debug.getinfo(1, "S").source
if not (lied.script and source == "@" .. lied.script) then return Thermostat end

local stop = tonumber(arg and arg[1]) or 20000
local powers, t_on = {}, {}
for i = 1, 8 do
  powers[i] = 1000 + 250 * i   -- 1250 .. 3000 W
  t_on[i] = 309.15 + i         -- 310.15 .. 317.15 K (off at 318.15 K)
end

local s = lied.sweep(Thermostat, {
  P = powers, T_on = t_on,
  run = { stop = stop, threads = 1 },
  each = function(res)
    local t, q, high = res:column("time"), res:column("heater.Q_flow"), res:column("switch.high")
    local switches, energy = 0, 0
    for r = 2, #t do
      if high[r] ~= high[r - 1] then switches = switches + 1 end
      energy = energy + 0.5 * (q[r] + q[r - 1]) * (t[r] - t[r - 1])
    end
    return { switches = switches, mean_Q = energy / (t[#t] - t[1]), T = res:column("mass.T")[#t] }
  end,
})
if s then -- rank 0 (or one process)
  io.write(string.format("%-28s %8s %10s %10s\n", "point", "switches", "mean Q [W]", "T end [K]"))
  for i, v in ipairs(s) do
    io.write(string.format("%-28s %8d %10.2f %10.4f\n", s.labels[i], v.switches, v.mean_Q, v.T))
  end
end
return Thermostat
