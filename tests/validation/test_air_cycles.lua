-- The energy of the air-cycle examples closes (docs/turbo.md, "Examples"):
-- examples/simple_air_cycle.lua and examples/gas_turbine.lua. At every
-- output the enthalpy flowing in at the sources, plus the power put in
-- (heat, a starter), less what leaves at the sinks is what the stores gain:
-- the shafts' kinetic energy, volumes' internal energy, flow-through cells'
-- M h (1e-6 of the throughput; measured to rounding); over the run the
-- integrated flows (trapezoid over the outputs) match the stored energy's
-- change to 1e-6 of the energy passed through.
local lied = require "lied"
local T = require "tests.testing"

-- an energy account: boundaries (sources in, sinks out), stores (d/dt of
-- their energy) for a model file; returns the rows' worst relative rate
-- imbalance and the integrated imbalance relative to the throughput
local function account(file, sources, sinks, shafts, volumes, opts, cells, inputs)
  cells, inputs = cells or {}, inputs or {}
  local M = dofile(file)
  local vars = {}
  for _, b in ipairs(sources) do vars[#vars + 1] = b .. ".outlet.m_flow"; vars[#vars + 1] = b .. ".outlet.h" end
  for _, b in ipairs(sinks) do vars[#vars + 1] = b .. ".inlet.m_flow"; vars[#vars + 1] = b .. ".inlet.h" end
  for _, s in ipairs(shafts) do vars[#vars + 1] = s[1] .. ".w"; vars[#vars + 1] = s[1] .. ".der(w)" end
  for _, v in ipairs(volumes) do vars[#vars + 1] = v .. ".U"; vars[#vars + 1] = v .. ".der(U)" end
  for _, v in ipairs(cells) do
    vars[#vars + 1] = v .. ".M"; vars[#vars + 1] = v .. ".h"; vars[#vars + 1] = v .. ".der(h)"
  end
  for _, v in ipairs(inputs) do vars[#vars + 1] = v end
  opts.vars = table.concat(vars, ",")
  local res, _, err = lied.build(M):run(opts)
  T.check(not err, file .. " runs: " .. tostring(err))
  local t, n = res:column("time"), res:nrows()
  local function c(v) return res:column(v) end
  local worst, integ, through, prev = 0, 0, 0, nil
  local function stored(i)
    local E = 0
    for _, s in ipairs(shafts) do E = E + 0.5 * s[2] * c(s[1] .. ".w")[i] ^ 2 end
    for _, v in ipairs(volumes) do E = E + c(v .. ".U")[i] end
    for _, v in ipairs(cells) do E = E + c(v .. ".M")[i] * c(v .. ".h")[i] end
    return E
  end
  for i = 1, n do
    local net, scale, gain = 0, 0, 0
    for _, b in ipairs(sources) do
      local H = c(b .. ".outlet.m_flow")[i] * c(b .. ".outlet.h")[i]
      net, scale = net + H, scale + math.abs(c(b .. ".outlet.m_flow")[i]) * (math.abs(c(b .. ".outlet.h")[i]) + 1e5)
    end
    for _, b in ipairs(sinks) do
      local H = c(b .. ".inlet.m_flow")[i] * c(b .. ".inlet.h")[i]
      net, scale = net - H, scale + math.abs(c(b .. ".inlet.m_flow")[i]) * (math.abs(c(b .. ".inlet.h")[i]) + 1e5)
    end
    for _, s in ipairs(shafts) do gain = gain + s[2] * c(s[1] .. ".w")[i] * c(s[1] .. ".der(w)")[i] end
    for _, v in ipairs(volumes) do gain = gain + c(v .. ".der(U)")[i] end
    for _, v in ipairs(cells) do gain = gain + c(v .. ".M")[i] * c(v .. ".der(h)")[i] end
    for _, v in ipairs(inputs) do
      net, scale = net + c(v)[i], scale + math.abs(c(v)[i])
    end
    if scale > 0 then worst = math.max(worst, math.abs(net - gain) / scale) end
    if prev and t[i] > t[i - 1] then
      local dt = t[i] - t[i - 1]
      integ = integ + 0.5 * dt * (net + prev.net)
      through = through + 0.5 * dt * (scale + prev.scale)
    end
    prev = { net = net, scale = scale }
  end
  local change = stored(n) - stored(1)
  return worst, math.abs(integ - change) / through, res
end

do
  local worst, integ = account("examples/simple_air_cycle.lua",
    { "bleed", "ram", "bleed2", "ram2" }, { "cabin", "ram_out", "cabin2", "ram_out2" },
    { { "shaft", 0.02 }, { "shaft2", 0.01 } }, { "duct" },
    { stop = 30, solver = "dopri45", tol = 1e-10, interval = 0.01 })
  print(string.format("simple_air_cycle: power balance worst %.2e of the throughput, energy over 30 s %.2e",
    worst, integ))
  T.check(worst < 1e-6, "simple_air_cycle: the power balance closes at every output: " .. worst)
  T.check(integ < 1e-6, "simple_air_cycle: the energy closes over the run: " .. integ)
end

do
  local worst, integ = account("examples/gas_turbine.lua", { "intake" }, { "exhaust" },
    { { "shaft", 0.02 } }, {}, { stop = 40, solver = "dopri45", tol = 1e-10, interval = 0.01 },
    { "combustor" }, { "combustor.Q", "starter.P" })
  print(string.format("gas_turbine: power balance worst %.2e of the throughput, energy over 40 s %.2e",
    worst, integ))
  T.check(worst < 1e-6, "gas_turbine: the power balance closes at every output: " .. worst)
  T.check(integ < 1e-6, "gas_turbine: the energy closes over the run: " .. integ)
end

os.exit(T.done())
