-- tests/energy_account.lua: the energy (and water) account of a model file
-- of streams, for the examples' closure tests (test_air_cycles.lua,
-- test_ecs_pack.lua). At every output the enthalpy flowing in at the
-- sources, plus the power put in (heat, a starter), less what leaves at the
-- sinks and drains, is what the stores gain: shafts' kinetic energy,
-- volumes' internal energy, flow-through cells' M h; over the run the
-- integrated flows (trapezoid over the outputs) match the stored energy's
-- change. With water = true the same for the water (mass fraction X1): what
-- enters at the sources less what leaves at the sinks and the drains is what
-- the volumes' water MX1 gains.
--   spec = { sources, sinks, shafts = {{name, J}}, volumes, cells,
--            inputs (W in), outputs (W out), drains (kg/s of water out), water,
--            extra (further variables to record) }
-- Returns { worst, integ, w_worst, w_integ, w_drained, res }: the worst
-- relative rate imbalance over the outputs and the integrated one relative
-- to the throughput, the same for the water, the water drained (kg).
local lied = require "lied"
local T = require "tests.testing"

local A = {}

local function list(t) return t or {} end

function A.run(file, spec, opts)
  local sources, sinks, shafts = list(spec.sources), list(spec.sinks), list(spec.shafts)
  local volumes, cells = list(spec.volumes), list(spec.cells)
  local inputs, outputs, drains = list(spec.inputs), list(spec.outputs), list(spec.drains)
  local M = dofile(file)
  local vars = {}
  local function add(...) for _, v in ipairs { ... } do vars[#vars + 1] = v end end
  for _, b in ipairs(sources) do add(b .. ".outlet.m_flow", b .. ".outlet.h") end
  for _, b in ipairs(sinks) do add(b .. ".inlet.m_flow", b .. ".inlet.h") end
  for _, s in ipairs(shafts) do add(s[1] .. ".w", s[1] .. ".der(w)") end
  for _, v in ipairs(volumes) do add(v .. ".U", v .. ".der(U)") end
  for _, v in ipairs(cells) do add(v .. ".M", v .. ".h", v .. ".der(h)") end
  for _, v in ipairs(inputs) do add(v) end
  for _, v in ipairs(outputs) do add(v) end
  if spec.water then
    for _, b in ipairs(sources) do add(b .. ".outlet.X1") end
    for _, b in ipairs(sinks) do add(b .. ".inlet.X1") end
    for _, v in ipairs(volumes) do add(v .. ".MX1", v .. ".der(MX1)") end
    for _, v in ipairs(drains) do add(v) end
  end
  for _, v in ipairs(list(spec.extra)) do add(v) end
  opts.vars = table.concat(vars, ",")
  local res, _, err = lied.build(M):run(opts)
  T.check(not err, file .. " runs: " .. tostring(err))
  local t, n = T.column(res, "time"), res:nrows()
  local col = {}
  local function c(v)
    col[v] = col[v] or T.column(res, v)
    return col[v]
  end
  local function stored(i)
    local E, W = 0, 0
    for _, s in ipairs(shafts) do E = E + 0.5 * s[2] * c(s[1] .. ".w")[i] ^ 2 end
    for _, v in ipairs(volumes) do
      E = E + c(v .. ".U")[i]
      if spec.water then W = W + c(v .. ".MX1")[i] end
    end
    for _, v in ipairs(cells) do E = E + c(v .. ".M")[i] * c(v .. ".h")[i] end
    return E, W
  end
  -- one output's rates: energy (net in, scale, gain) and water (the same)
  local function rates(i)
    local net, scale, gain, wnet, wscale, wgain = 0, 0, 0, 0, 0, 0
    local function port(b, side, sign)
      local m, h = c(b .. "." .. side .. ".m_flow")[i], c(b .. "." .. side .. ".h")[i]
      net, scale = net + sign * m * h, scale + math.abs(m) * (math.abs(h) + 1e5)
      if spec.water then
        local w = m * c(b .. "." .. side .. ".X1")[i]
        wnet, wscale = wnet + sign * w, wscale + math.abs(w)
      end
    end
    for _, b in ipairs(sources) do port(b, "outlet", 1) end
    for _, b in ipairs(sinks) do port(b, "inlet", -1) end
    for _, v in ipairs(inputs) do net, scale = net + c(v)[i], scale + math.abs(c(v)[i]) end
    for _, v in ipairs(outputs) do net, scale = net - c(v)[i], scale + math.abs(c(v)[i]) end
    for _, s in ipairs(shafts) do gain = gain + s[2] * c(s[1] .. ".w")[i] * c(s[1] .. ".der(w)")[i] end
    for _, v in ipairs(volumes) do
      gain = gain + c(v .. ".der(U)")[i]
      if spec.water then wgain = wgain + c(v .. ".der(MX1)")[i] end
    end
    for _, v in ipairs(cells) do gain = gain + c(v .. ".M")[i] * c(v .. ".der(h)")[i] end
    if spec.water then
      for _, v in ipairs(drains) do wnet, wscale = wnet - c(v)[i], wscale + math.abs(c(v)[i]) end
    end
    return net, scale, gain, wnet, wscale, wgain
  end
  local r = { worst = 0, w_worst = 0, w_drained = 0 }
  local integ, through, winteg, wthrough, prev = 0, 0, 0, 0, nil
  for i = 1, n do
    local net, scale, gain, wnet, wscale, wgain = rates(i)
    if scale > 0 then r.worst = math.max(r.worst, math.abs(net - gain) / scale) end
    if wscale > 0 then r.w_worst = math.max(r.w_worst, math.abs(wnet - wgain) / wscale) end
    local drained = 0
    for _, v in ipairs(drains) do drained = drained + c(v)[i] end
    if prev and t[i] > t[i - 1] then
      local h = 0.5 * (t[i] - t[i - 1])
      integ, through = integ + h * (net + prev.net), through + h * (scale + prev.scale)
      winteg, wthrough = winteg + h * (wnet + prev.wnet), wthrough + h * (wscale + prev.wscale)
      r.w_drained = r.w_drained + h * (drained + prev.drained)
    end
    prev = { net = net, scale = scale, wnet = wnet, wscale = wscale, drained = drained }
  end
  local E1, W1 = stored(1)
  local En, Wn = stored(n)
  r.integ = math.abs(integ - (En - E1)) / through
  r.w_integ = wthrough > 0 and math.abs(winteg - (Wn - W1)) / wthrough or 0
  r.res = res
  return r
end

return A
