-- examples/lib/refrig_cycle.lua: what the refrigerant cycle examples (vapor_cycle.lua,
-- heat_pump.lua, transcritical_co2.lua) share when run as the main script: the run with
-- its charge check, the rows before the steps, the log(p)-h diagram over the dome.
-- Loaded by path from the examples' directory (not a model: examples/*.lua are models).
local lied = require "lied"
local plot = require "lied.plot"
local M = {}

-- run sim; masses: the names of the charges of the closed circuit. Returns t_end, cpu,
-- steps, the start charge M0, the largest relative change of the charge dM over the run,
-- at(time): a function v(name) of the last row at or before time ("time" included), and
-- range(name): the least and the largest value of a column over the run
function M.run(sim, masses)
  local c0 = os.clock()
  local res, stats = sim:run()
  local cpu = os.clock() - c0
  local col = {}
  for _, n in ipairs(res:names()) do col[n] = res:column(n) end
  local t = res:column("time")
  col.time = t
  local function total(r)
    local s = 0
    for _, n in ipairs(masses) do s = s + col[n][r] end
    return s
  end
  local M0, dM = total(1), 0
  for r = 1, #t do dM = math.max(dM, math.abs(total(r) - M0) / M0) end
  local function at(time)
    local r = 1
    while r < #t and t[r + 1] <= time + 1e-9 do r = r + 1 end
    return function(n) return col[n][r] end
  end
  local function range(n) -- the least and the largest value of column n over the run
    local lo, hi = math.huge, -math.huge
    for r = 1, #t do lo, hi = math.min(lo, col[n][r]), math.max(hi, col[n][r]) end
    return lo, hi
  end
  return { t_end = t[#t], cpu = cpu, steps = stats.steps, M0 = M0, dM = dM, at = at, range = range }
end

-- the saturation dome of refrigerant R: h' and h'' [kJ/kg] from p_lo [Pa] to just below the
-- critical pressure, as a plot series [bar]
function M.dome(R, p_lo)
  local pc = R:range().pc
  local ps, hs, pp = {}, {}, {}
  for i = 0, 60 do ps[#ps + 1] = p_lo * (0.999 * pc / p_lo) ^ (i / 60) end
  for _, p in ipairs(ps) do hs[#hs + 1], pp[#pp + 1] = R:h_liq(p) / 1e3, p / 1e5 end
  for i = #ps, 1, -1 do hs[#hs + 1], pp[#pp + 1] = R:h_vap(ps[i]) / 1e3, ps[i] / 1e5 end
  return { x = hs, y = pp, label = string.format("saturation (Tc = %.2f K, pc = %.2f bar)", R:range().Tc, pc / 1e5),
           rgb = "#000000" }
end

-- a cycle's path through the states of row v: spec a list of { h name, p name [, n] }, with
-- n cells "name[%d]" 1..n; the k-th colour of the palette
function M.path(v, spec, label, k)
  local hs, ps = {}, {}
  for _, s in ipairs(spec) do
    for i = 1, s[3] or 1 do
      hs[#hs + 1], ps[#ps + 1] = v(s[3] and s[1]:format(i) or s[1]) / 1e3, v(s[2]) / 1e5
    end
  end
  return { x = hs, y = ps, label = label, rgb = plot.palette[k] }
end

-- the log(p)-h diagram (gnuplot) into file, or on the screen; yrange {lo, hi} [bar] or nil
function M.draw(series, file, title, yrange)
  local ok, err = plot.draw(series, { file = file, logy = true, title = title, xlabel = "h [kJ/kg]",
                                      ylabel = "p [bar]", yrange = yrange })
  if not ok then io.stderr:write(tostring(err), "\n") end
end

return M
