-- tests/fuzz/coupled_gen.lua: valid models of coupled arrays for lied.check
-- (lua/lied/check.lua), drawn from a stream of bytes. gen(byte, maxn) ->
-- model, run options, a one-line description; byte() returns 0..255 (the
-- libFuzzer input in tests/fuzz/model_gen.lua, a PRNG in
-- tests/fuzz/check_models.lua). The models are what the fast paths must get
-- right and the examples do not show: arrays of components or of composite
-- models coupled by lied.each patterns to copy i+1 and i+2 (and periodic
-- ones), per-copy parameters and start values, and array ends of every kind:
-- a component outside the arrays that the first or the last copy reads and
-- that reads it, a source driving one end, a node every copy is wired to
-- (a sum read by every copy), a copy-to-copy signal chain; water pipes of
-- cells and drops (a section per cell coupled to the next) with tanks and
-- heated cells outside the arrays at their ends or one heat signal every
-- cell reads.
local lied = require "lied"
local th = require "lied.thermal"
local mech = require "lied.mechanics"
local sig = require "lied.signals"
local tf = require "lied.thermofluid"

local sizes = { 1, 2, 3, 5, 8, 31, 32, 33, 40, 63, 64, 65, 70, 97, 100, 130, 200, 420, 600 }
local fixed = { "rk4", "rk4", "euler", "heun", "rk3" }

return function(byte, maxn)
  local function pick(t) return t[byte() % #t + 1] end
  local function chance(k) return byte() % k == 0 end
  local function size()
    local n
    repeat n = pick(sizes) until n <= (maxn or 600)
    return n
  end
  local what = {}
  local function say(s) what[#what + 1] = s end

  -- a thermal chain: capacitors c[1..n], conductors to copy i+1 (and i+2),
  -- ends and hubs
  local function thermal()
    local n = size()
    local per = {}
    if chance(2) then per.C = function(i) return 0.5 + (i % 7) / 5 end; say("per-copy C") end
    if chance(2) then per.T = function(i) return 280 + (i * 37 % 23) end; say("per-copy T") end
    local def = { c = lied.array(th.HeatCapacitor { C = 1.5, T = 300 }, n, per), connect = {} }
    local conn = def.connect
    local linked = not chance(6) -- else independent copies with their own sources
    say((linked and "thermal chain of " or "independent thermal copies, ") .. n)
    if not linked then
      def.amb = lied.array(th.FixedTemperature { T = 330 }, n, { T = function(i) return 300 + i % 9 end })
      def.g = lied.array(th.ThermalConductor { G = 0.4 }, n)
      conn[1] = lied.each(1, n, { "amb[i].port", "g[i].port_a" }, { "g[i].port_b", "c[i].port" })
      return lied.model "Copies" (def), { dt = 0.01, steps = 5 + byte() % 40 }
    end
    local wrap = n > 2 and chance(8)
    for _, d in ipairs { 1, 2 } do
      if (d == 1 or chance(3)) and n > d then
        local m = wrap and n or n - d
        local kind = pick { "g", "g", "r", "v" }
        local name = kind .. d
        local a, b = "port_a", "port_b"
        if kind == "g" then def[name] = lied.array(th.ThermalConductor { G = 0.3 + d / 10 }, m,
            chance(2) and { G = function(i) return 0.2 + i % 5 / 10 end } or nil)
        elseif kind == "r" then def[name] = lied.array(th.BodyRadiation { Gr = 5 }, m)
        else def[name] = lied.array(th.Convection { Gc = 0.4 }, m); a, b = "solid", "fluid" end
        conn[#conn + 1] = lied.each(wrap and { i = { 1, m }, wrap = true } or { i = { 1, m } },
          { "c[i].port", name .. "[i]." .. a }, { "c[i+" .. d .. "].port", name .. "[i]." .. b })
        say((wrap and "periodic " or "") .. kind .. " to i+" .. d)
      end
    end
    local ends = { 1, n }
    for e = 1, 2 do
      local k = byte() % 6
      local at = "c[" .. ends[e] .. "].port"
      if k == 1 then -- a fixed temperature outside the arrays, through a conductor
        def["amb" .. e], def["ga" .. e] = th.FixedTemperature { T = 290 + e }, th.ThermalConductor { G = 0.7 }
        conn[#conn + 1] = { "amb" .. e .. ".port", "ga" .. e .. ".port_a" }
        conn[#conn + 1] = { "ga" .. e .. ".port_b", at }
        say("end " .. e .. ": a fixed temperature")
      elseif k == 2 then -- a capacitor outside that reads the end and is read by it
        def["tail" .. e], def["gt" .. e] = th.HeatCapacitor { C = 3, T = 320 }, th.ThermalConductor { G = 0.9 }
        conn[#conn + 1] = { "tail" .. e .. ".port", "gt" .. e .. ".port_a" }
        conn[#conn + 1] = { "gt" .. e .. ".port_b", at }
        say("end " .. e .. ": a capacitor outside")
      elseif k == 3 then -- a heat flow from a signal
        def["q" .. e], def["src" .. e] = th.PrescribedHeatFlow {}, sig.Sine { amplitude = 2, w = 30 }
        conn[#conn + 1] = { "src" .. e .. ".y", "q" .. e .. ".Q_flow_in" }
        conn[#conn + 1] = { "q" .. e .. ".port", at }
        say("end " .. e .. ": a prescribed heat flow")
      elseif k == 4 then -- the other end's temperature heats this end: a loop across the array
        local other = "c[" .. ends[3 - e] .. "].port"
        def["ts" .. e], def["k" .. e] = th.TemperatureSensor {}, sig.Gain { k = 0.01 }
        def["qs" .. e] = th.PrescribedHeatFlow {}
        conn[#conn + 1] = { other, "ts" .. e .. ".port" }
        conn[#conn + 1] = { "ts" .. e .. ".y", "k" .. e .. ".u" }
        conn[#conn + 1] = { "k" .. e .. ".y", "qs" .. e .. ".Q_flow_in" }
        conn[#conn + 1] = { "qs" .. e .. ".port", at }
        say("end " .. e .. ": heated by the other end's temperature")
      end
    end
    if chance(4) then -- every copy wired to one node: its sum reads every copy
      local hub = chance(2) and th.HeatCapacitor { C = 5, T = 295 } or th.FixedTemperature { T = 295 }
      def.hub, def.gh = hub, lied.array(th.ThermalConductor { G = 0.05 }, n)
      conn[#conn + 1] = lied.each(1, n, { "c[i].port", "gh[i].port_a" }, { "hub.port", "gh[i].port_b" })
      say("a hub every copy is wired to")
    end
    return lied.model "Thermal" (def), { dt = 0.01, steps = 5 + byte() % 40 }
  end

  -- a mechanical chain: cells (a slider on a fixed frame, or all sliders
  -- on one ground) whose carts are linked by springs to copy i+1 and
  -- dampers to copy i+2
  local function mechanical()
    local n = size()
    local shared = chance(4)
    local Cell = lied.model "Cell" {
      p = mech.Prismatic { e = { 1, 0 } }, b = mech.Body { m = 1, I = 0.1, g = { 0, 0 } },
      f = (not shared) and mech.Fixed {} or nil,
      connect = shared and { { "p.frame_b", "b.frame_a" } }
        or { { "f.frame_b", "p.frame_a" }, { "p.frame_b", "b.frame_a" } },
    }
    local per = {}
    if chance(2) then per["p.s"] = function(i) return 0.01 * (i % 5) end; say("per-copy s") end
    if chance(2) then per["b.m"] = function(i) return 1 + (i % 3) / 2 end; say("per-copy m") end
    local def = { cell = lied.array(Cell, n, per), connect = {} }
    local conn = def.connect
    say((shared and "sliders on one ground" or "sliders") .. ", chain of " .. n)
    if shared then
      def.ground = mech.Fixed {}
      conn[#conn + 1] = lied.each(1, n, { "ground.frame_b", "cell[i].p.frame_a" })
    end
    if n > 1 then
      def.s = lied.array(mech.Spring { c = 20 }, n - 1)
      conn[#conn + 1] = lied.each(1, n - 1, { "cell[i].p.frame_b", "s[i].frame_a" },
        { "cell[i+1].p.frame_b", "s[i].frame_b" })
      say("springs to i+1")
    end
    if n > 2 and chance(2) then
      def.d = lied.array(mech.Damper { d = 0.3 }, n - 2)
      conn[#conn + 1] = lied.each(1, n - 2, { "cell[i].p.frame_b", "d[i].frame_a" },
        { "cell[i+2].p.frame_b", "d[i].frame_b" })
      say("dampers to i+2")
    end
    for e, at in ipairs { 1, n } do
      if chance(2) then
        def["wall" .. e], def["ws" .. e] = mech.Fixed { x = e == 1 and -1 or n + 1 }, mech.Spring { c = 5 }
        conn[#conn + 1] = { "wall" .. e .. ".frame_b", "ws" .. e .. ".frame_a" }
        conn[#conn + 1] = { "ws" .. e .. ".frame_b", "cell[" .. at .. "].p.frame_b" }
        say("end " .. e .. ": a spring to a wall")
      end
    end
    if chance(3) then
      def.push = sig.Sine { amplitude = 3, w = 20 }
      conn[#conn + 1] = { "push.y", "cell[1].p.u" }
      say("a force on the first")
    end
    return lied.model "Mechanical" (def), { dt = 1e-3, steps = 5 + byte() % 40 }
  end

  -- integrators passing a signal along: x[i] integrates the sum of its
  -- neighbours' outputs (copy i-1 and i+1), a source and a constant at the
  -- ends
  local function signals()
    local n = math.max(size(), 2)
    local def = {
      x = lied.array(sig.Integrator { k = -0.5 }, n, chance(2) and { x = function(i) return i % 4 end } or nil),
      a = lied.array(sig.Add { n = 2, k1 = 0.3, k2 = -0.2 }, n),
      src = sig.Sine { amplitude = 1, w = 5 }, c = sig.Constant { k = 0.5 },
      connect = {
        lied.each(1, n, { "a[i].y", "x[i].u" }),
        lied.each(2, n, { "x[i-1].y", "a[i].u1" }),
        lied.each(1, n - 1, { "x[i+1].y", "a[i].u2" }),
        { "src.y", "a[1].u1" }, { "c.y", "a[" .. n .. "].u2" },
      },
    }
    say("integrators reading both neighbours, " .. n)
    return lied.model "Signals" (def), { dt = 0.01, steps = 5 + byte() % 40 }
  end

  -- a water pipe: cells vol[1..n] between drops drop[1..n+1] (each drop
  -- reads the cell before it, each cell the drop after it: a section per
  -- copy coupled to copy i+1), per-copy start pressures (a profile) and
  -- temperatures, ends of every kind: a source or a tank outside the arrays
  -- at the inlet, a sink or a tank before the sink at the outlet, heat into
  -- the first or last cell from a signal, or into every cell from one
  -- signal (a node every copy reads)
  local function fluid()
    local n = size()
    local p_in, p_out = 1.2e5 + 1e4 * (byte() % 4), 1e5
    local per = { p0 = function(i) return p_in - (p_in - p_out) * i / (n + 1) end }
    if chance(2) then per.T0 = function(i) return 290 + (i * 13 % 40) end; say("per-copy T0") end
    local heated = byte() % 4 -- 0: none, 1: the first cell, 2: the last, 3: every cell
    local def = {
      drop = lied.array(tf.PressureDrop { dp_ref = 1000, v_ref = 8e-3, L = 1e3 }, n + 1,
        chance(2) and { dp_ref = function(i) return 800 + (i % 5) * 100 end } or nil),
      vol = lied.array(tf.Volume { V = 0.08, T0 = 300, Q_from_input = heated == 3 and 1 or 0 }, n, per),
      connect = {},
    }
    local conn = def.connect
    conn[1] = lied.each(1, n, { "drop[i].outlet", "vol[i].inlet" }, { "vol[i].outlet", "drop[i+1].inlet" })
    say("water pipe of " .. n .. " cells")
    def.src = tf.Source { p0 = p_in, T0 = 330 + byte() % 30 }
    if chance(3) then -- a tank outside the arrays between the source and the pipe
      def.tank_in, def.drop_in = tf.Volume { V = 0.5, p0 = p_in, T0 = 320 },
        tf.PressureDrop { dp_ref = 500, v_ref = 8e-3, L = 1e3 }
      conn[#conn + 1] = { "src.outlet", "drop_in.inlet" }
      conn[#conn + 1] = { "drop_in.outlet", "tank_in.inlet" }
      conn[#conn + 1] = { "tank_in.outlet", "drop[1].inlet" }
      say("inlet: a tank outside")
    else
      conn[#conn + 1] = { "src.outlet", "drop[1].inlet" }
    end
    def.sink = tf.Sink { p0 = p_out }
    if chance(3) then -- a tank between the pipe and the sink
      def.tank_out, def.drop_out = tf.Volume { V = 0.5, p0 = p_out + 100, T0 = 300 },
        tf.PressureDrop { dp_ref = 500, v_ref = 8e-3, L = 1e3 }
      conn[#conn + 1] = { "drop[" .. (n + 1) .. "].outlet", "tank_out.inlet" }
      conn[#conn + 1] = { "tank_out.outlet", "drop_out.inlet" }
      conn[#conn + 1] = { "drop_out.outlet", "sink.inlet" }
      say("outlet: a tank outside")
    else
      conn[#conn + 1] = { "drop[" .. (n + 1) .. "].outlet", "sink.inlet" }
    end
    if (heated == 1 or heated == 2) and n > 1 then
      -- the heated cell is a component outside the array (cell `at`): the
      -- array's end reads it and it reads the array's end
      local at, m, o = heated == 1 and 1 or n, n - 1, heated == 1 and 1 or 0 -- vol[i]: cell i + o
      local function cell(i) return i + o end
      def.vol = lied.array(tf.Volume { V = 0.08, T0 = 300 }, m,
        { p0 = function(i) return per.p0(cell(i)) end,
          T0 = per.T0 and function(i) return per.T0(cell(i)) end or nil })
      def.qv = tf.Volume { V = 0.08, T0 = per.T0 and per.T0(at) or 300, p0 = per.p0(at), Q_from_input = 1 }
      def.heat = sig.Sine { amplitude = 2e4, w = 20, offset = 1e4 }
      conn[1] = lied.each(1, m, { "drop[" .. (o == 1 and "i+1" or "i") .. "].outlet", "vol[i].inlet" },
        { "vol[i].outlet", "drop[i+" .. (o + 1) .. "].inlet" })
      conn[#conn + 1] = { "drop[" .. at .. "].outlet", "qv.inlet" }
      conn[#conn + 1] = { "qv.outlet", "drop[" .. (at + 1) .. "].inlet" }
      conn[#conn + 1] = { "heat.y", "qv.Q_in" }
      say(heated == 1 and "the first cell heated, outside the array" or "the last cell heated, outside the array")
    elseif heated == 3 then
      def.heat = sig.Sine { amplitude = 5e3, w = 10, offset = 2e3 }
      conn[#conn + 1] = lied.each(1, n, { "heat.y", "vol[i].Q_in" })
      say("every cell heated by one signal")
    end
    return lied.model "Fluid" (def), { dt = 1e-3, steps = 5 + byte() % 40 }
  end

  local model, run = pick { thermal, thermal, mechanical, mechanical, signals, fluid } ()
  local k = byte() % 10
  run.solver = k < 8 and pick(fixed) or k == 8 and "dopri45" or "beuler"
  run.stop = run.dt * run.steps
  if chance(3) then run.interval = run.dt * (1 + byte() % 4) end
  run.steps = nil
  say("solver " .. run.solver)
  return model, run, table.concat(what, "; ")
end
