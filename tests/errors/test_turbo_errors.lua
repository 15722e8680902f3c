-- Bad input to the turbomachines (lied.turbo, docs/turbo.md): media that are
-- not gases, parameters out of range, an unconnected flange refused when the
-- model is built; a shaft turning backwards or standing (energy exact, never
-- NaN); states beyond the gas's range during a run, reported with the
-- component and the time.
local lied = require "lied"
local tf = require "lied.thermofluid"
local rot = require "lied.rotational"
local turbo = require "lied.turbo"
local S = require "lied.signals"
local T = require "tests.testing"

-- a compressor between a source and a sink on a shaft driven at speed w
local function line(c, src, w, over)
  local def = {
    src = tf.Source { p0 = 1e5, T0 = src or 300, medium = c.medium or tf.air, L = 100 },
    c = c.cls or turbo.Compressor(c.params or {}),
    snk = tf.Sink { p0 = 1.2e5, medium = c.medium or tf.air },
    shaft = rot.Speed { w_ref = w or 2000, w = w or 2000 },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" }, { "shaft.flange", "c.flange" } },
  }
  for k, v in pairs(over or {}) do def[k] = v end
  return lied.model "Line" (def)
end
local function fails(def, pats, what)
  T.raises(function() return lied.build(def) end, pats, what, "model")
end

-- media and parameters
fails(line { cls = turbo.Compressor { medium = tf.water }, medium = tf.water },
  { "c: the medium of a turbomachine must be a gas", "not liquid" }, "a liquid")
fails(line { cls = turbo.Turbine { medium = tf.steam }, medium = tf.steam },
  { "must be a gas", "not water and steam" }, "steam")
fails(line { params = { eta = 0 } }, { "c: parameter eta = 0 [1] must be > 0" }, "eta = 0")
fails(line { params = { eta = 1.2 } }, { "c: parameter eta = 1.2 [1] must be > 0 and <= 1" },
  "eta > 1")
fails(line { params = { m_ref = 0 } }, { "c: parameter m_ref = 0 [kg/s] must be > 0" }, "m_ref = 0")
fails(line { params = { k = 1 } }, { "c: parameter k = 1 [1] must be > 1" }, "k = 1")
fails(line { params = { w_ref = -5 } }, { "c: parameter w_ref = -5 [rad/s] must be >= 0" }, "w_ref < 0")
fails(line({}, nil, nil, { shaft = S.Constant {}, connect = { { "src.outlet", "c.inlet" },
  { "c.outlet", "snk.inlet" } } }), { "unconnected branch: c.flange" }, "flange left free")
fails(line({}, 150), { "src: state (p0, T0): ideal gas (NASA): p = 100000 Pa, T = 150 K: T is outside" },
  "inflow below 200 K at the start")

-- a shaft turning backwards: the characteristic with n < 0 (n|n|) and the
-- work law odd in w: the energy still exact, nothing undefined
do
  local res, _, err = lied.build(line({}, 300, -800)):run { stop = 2, solver = "dopri45", tol = 1e-9,
    vars = "c.dh,c.tau,c.P,c.pr,c.m_flow,c.T_out,c.w" }
  T.check(not err, "backwards: runs: " .. tostring(err))
  local n = res:nrows()
  local function last(v) return T.column(res, v)[n] end
  T.near(last("c.tau") * last("c.w"), last("c.m_flow") * last("c.dh"), 1e-9 * math.abs(last("c.P")) + 1e-12,
    "backwards: tau w = m dh")
  local nn, phi = -800 / 2500, last("c.m_flow") -- w_ref 2500, m_ref 1, skew 1, k 2
  local pr = nn * math.abs(nn) - nn * phi - phi * math.abs(phi) + 1
  if pr < 1 then pr = 2 ^ (pr - 1) end
  T.near(last("c.pr"), pr, 1e-14, "backwards: the characteristic at n < 0")
  for _, v in ipairs { "c.dh", "c.tau", "c.P", "c.pr", "c.m_flow", "c.T_out" } do
    for i = 1, n do T.check(T.column(res, v)[i] == T.column(res, v)[i], "backwards: no NaN in " .. v) end
  end
end
-- at standstill the stream is throttled (no work) and pushes the blades
do
  local res = lied.build(line({ cls = turbo.Turbine {} }, 400, 0, {
    src = tf.Source { p0 = 2e5, T0 = 400, medium = tf.air, L = 100 },
    snk = tf.Sink { p0 = 1e5, medium = tf.air },
    shaft = rot.Speed { w_ref = 0, w = 0 } })):run { stop = 1, solver = "dopri45", tol = 1e-9,
    vars = "c.dh,c.tau,c.m_flow,c.dh_s" }
  local n = res:nrows()
  local m, dhs, tau = T.column(res, "c.m_flow")[n], T.column(res, "c.dh_s")[n], T.column(res, "c.tau")[n]
  T.eq(T.column(res, "c.dh")[n], 0, "standstill: throttled")
  T.near(tau, m * 0.93 * dhs / 50, 1e-9 * math.abs(tau), "standstill: torque m dh_e / w_small")
  T.check(tau < 0, "standstill: the turbine's stream drives its shaft")
end

-- performance maps (CompressorMap, TurbineMap): a map with a hole, a
-- non-monotone speed line, efficiencies outside (0, 1], interpolation and
-- extrapolation the inversion cannot take, speeds and ratios out of range,
-- a missing map: refused when the model is built, naming the component
local SP, CR = { 1500, 2500 }, { 1.0, 1.5, 2.0 }
local function cmap(z, o)
  local t = { x1 = SP, x2 = CR, z = z, name = "cmap" }
  for k, v in pairs(o or {}) do t[k] = v end
  return lied.table(t)
end
local good = { { 0.8, 0.5, 0.2 }, { 1.4, 1.1, 0.7 } }
local eff = cmap { { 0.7, 0.8, 0.75 }, { 0.72, 0.82, 0.78 } }
local function mapped(flow, e, cls, w)
  return line({ cls = (cls or turbo.CompressorMap) { flow = flow, eff = e or eff } }, 300, w)
end
fails(mapped(cmap { { 0.8, 0 / 0, 0.2 }, { 1.4, 1.1, 0.7 } }),
  { "c: parameter flow: cmap", "finite" }, "a map with a hole (NaN)")
fails(mapped(cmap { { 0.8, 0.5, 0.6 }, { 1.4, 1.1, 0.7 } }),
  { "c: flow map cmap: along the speed line of 1500 rad/s the corrected flow must fall as the pressure ratio rises (from choke to surge): 0.5 kg/s at 1.5, then 0.6 kg/s at 2" },
  "a speed line that rises")
fails(mapped(cmap(good), nil, turbo.TurbineMap),
  { "c: flow map cmap: along the speed line of 1500 rad/s the corrected flow must rise as the pressure ratio rises (towards choke): 0.8 kg/s at 1, then 0.5 kg/s at 1.5" },
  "a turbine's map that falls")
fails(mapped(cmap(good), cmap { { 0.7, 0.8, 1.2 }, { 0.72, 0.82, 0.78 } }),
  { "c: efficiency map cmap: eta = 1.2 at 1500 rad/s and pressure ratio 2 is outside (0, 1]" }, "eta > 1")
fails(mapped(cmap(good), cmap { { 0.7, 0.8, 0.7 }, { 0.72, 0, 0.78 } }),
  { "c: efficiency map cmap: eta = 0 at 2500 rad/s and pressure ratio 1.5 is outside (0, 1]" }, "eta = 0")
fails(mapped(cmap(good, { interpolation = "cubic" })),
  { "c: flow map cmap: its interpolation must be \"linear\"" }, "a smooth flow map")
fails(mapped(cmap(good, { extrapolation = "linear" })),
  { "c: flow map cmap: its extrapolation must be \"hold\"" }, "a flow map extrapolated linearly")
fails(mapped(lied.table { x1 = { 0, 2500 }, x2 = CR, z = good, name = "cmap" }),
  { "c: flow map cmap: the lowest speed line is at 0 rad/s: the speeds of a compressor's map must be > 0" },
  "a compressor's speed line at 0")
fails(mapped(lied.table { x1 = SP, x2 = { -1, 1.5, 2 }, z = good, name = "cmap" }),
  { "c: flow map cmap: the pressure ratios must be > 0, not -1" }, "a negative ratio")
fails(mapped(cmap { { 0.8, 0.5, -0.2 }, { 1.4, 1.1, 0.7 } }),
  { "c: flow map cmap: the corrected flow -0.2 kg/s at 1500 rad/s and pressure ratio 2 must be > 0" },
  "a negative flow")
fails(mapped(lied.table { x = { 1, 2 }, y = { 1, 2 } }), { "c: parameter flow", "map" }, "a 1-D table")
fails(line { cls = turbo.CompressorMap { eff = eff } }, { "c: parameter flow: no map given" }, "no flow map")
T.raises(function()
  return lied.table { x1 = { 1500, 2500 }, x2 = { 1, 1.5, 2 }, z = { { 0.8, 0.5, 0.2 }, { 1.4, 1.1 } } }
end, { "lied.table" }, "a grid row with a point missing")
fails(mapped(lied.table { x1 = { 1500, 1500 }, x2 = CR, z = good, name = "cmap" }),
  { "c: parameter flow: cmap", "breakpoints must increase" }, "speeds that do not increase")

-- a speed beyond the map with "hold": clamped to the highest line (and
-- flagged); below the lowest line and backwards: a compressor follows the
-- similarity laws of its lowest line, r = 1 at rest; never NaN
for _, w in ipairs { 4000, 600, 0, -800 } do
  local res, _, err = lied.build(mapped(cmap(good), nil, nil, w)):run { stop = 1, solver = "dopri45",
    tol = 1e-9, vars = "c.pr,c.m_flow,c.T_out,c.tau,c.dh,c.P,c.off_speed,c.w" }
  T.check(not err, "map at " .. w .. " rad/s: runs: " .. tostring(err))
  local n = res:nrows()
  local function last(v) return res:column(v)[n] end
  for _, v in ipairs(res:names()) do
    for i = 1, n do T.check(res:column(v)[i] == res:column(v)[i], "map at " .. w .. ": no NaN in " .. v) end
  end
  T.eq(last("c.off_speed"), 1, "map at " .. w .. " rad/s: off its speed lines")
  T.near(last("c.tau") * last("c.w"), last("c.m_flow") * last("c.dh"), 1e-9 * math.abs(last("c.P")) + 1e-12,
    "map at " .. w .. " rad/s: tau w = m dh")
  if w <= 0 then T.eq(last("c.pr"), 1, "map at " .. w .. " rad/s: no pressure rise at rest or backwards") end
end

-- beyond the gas's range during a run: the component and the time
do
  local res, _, err = lied.build(line({ params = { w_ref = 200, eta = 0.05 } }, 1000, 20000)):run {
    stop = 1, solver = "rk4", dt = 1e-3, out = "none" }
  T.check(res and err, "a compression beyond 6000 K fails the run")
  T.check(tostring(err):find("c: ", 1, true) and tostring(err):find("at t = ", 1, true)
    and tostring(err):find("isentropic outflow: p = ", 1, true)
    and tostring(err):find("its temperature is outside [200 K, 6000 K]", 1, true),
    "names the component, the time and the range: " .. tostring(err))
end

os.exit(T.done())
