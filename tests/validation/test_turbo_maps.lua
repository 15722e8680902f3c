-- Validation of the turbomachines with performance maps (turbo.CompressorMap,
-- turbo.TurbineMap; docs/turbo.md, "Performance maps"):
-- 1. the pressure ratio, efficiency and outflow temperature at 60 points
--    (copies of one line with their own speed and imposed flow) against an
--    interpolation written out here: on the speed lines and between them,
--    at breakpoints, beyond surge (held), beyond choke (the exponential
--    continuation), above the highest speed line (held), below the lowest
--    (the similarity laws), at standstill and turning backwards; the
--    corrections by T_ref and p_ref; the flags the handler sets at the start;
-- 2. closed-form operating points: a compressor on a held speed line into a
--    linear resistance (the flow solving p1 r(m) - k m = p2 on the line's
--    segment), a turbine between two pressures (the flow the map gives at
--    that ratio), a compressor driven into choke (the flow solving the
--    continuation); to 1e-9;
-- 3. a free shaft with a compressor and a turbine of maps: compressor power
--    = turbine power at steady state to 1e-9 relative, tau w = m dh throughout;
-- 4. surge, choke and overspeed during runs: an event at each crossing
--    (two rows at its time), the flags and the count recorded, the ratio
--    held at the surge line, never NaN; extrapolation "error" stops the run.
local lied = require "lied"
local tf = require "lied.thermofluid"
local rot = require "lied.rotational"
local turbo = require "lied.turbo"
local S = require "lied.signals"
local T = require "tests.testing"

-- the maps: corrected speed [rad/s] x pressure ratio
local SP = { 1500, 2500, 3500 }
local CR = { 1.0, 1.5, 2.0, 2.5 }                    -- a compressor's p_out/p_in
local CF = { { 0.8, 0.6, 0.3, 0.1 }, { 1.4, 1.2, 0.9, 0.5 }, { 2.0, 1.8, 1.6, 1.2 } }
local CE = { { 0.60, 0.70, 0.72, 0.65 }, { 0.65, 0.80, 0.82, 0.75 }, { 0.60, 0.78, 0.84, 0.80 } }
local TR = { 1.2, 1.6, 2.2, 3.0 }                    -- a turbine's p_in/p_out
local TF = { { 0.20, 0.32, 0.40, 0.42 }, { 0.18, 0.30, 0.39, 0.415 }, { 0.15, 0.27, 0.37, 0.41 } }
local TE = { { 0.70, 0.80, 0.82, 0.78 }, { 0.75, 0.86, 0.88, 0.85 }, { 0.72, 0.84, 0.89, 0.87 } }
local function map(x2, z) return lied.table { x1 = SP, x2 = x2, z = z } end

-- the interpolation, written out: the interval of v in the breakpoints X
-- (clamped), and bilinear z
local function locate(X, v)
  if v <= X[1] then return 1, 0 end
  if v >= X[#X] then return #X - 1, 1 end
  local i = 1
  while v >= X[i + 1] do i = i + 1 end
  return i, (v - X[i]) / (X[i + 1] - X[i])
end
local function bilinear(X1, X2, Z, a, b)
  local i, t = locate(X1, a)
  local j, u = locate(X2, b)
  return (1 - t) * ((1 - u) * Z[i][j] + u * Z[i][j + 1]) + t * ((1 - u) * Z[i + 1][j] + u * Z[i + 1][j + 1])
end
-- the speed line at w: flows at the ratios X2
local function line_at(Z, w)
  local i, t = locate(SP, w)
  local G = {}
  for j = 1, #Z[1] do G[j] = (1 - t) * Z[i][j] + t * Z[i + 1][j] end
  return G
end
-- the ratio at corrected flow m on the line G over ratios X (turbine: G
-- rises with the ratio, else falls), with the continuations; and the ratio
-- on the line where the efficiency is read
local edge -- a point at an end of its line (its flag is either, by rounding)
local function ratio_on(G, X, m, turbine)
  local n = #X
  local lo, hi = turbine and 1 or n, turbine and n or 1 -- low-flow end, high-flow end
  if math.abs(m / G[lo] - 1) < 1e-9 or math.abs(m / G[hi] - 1) < 1e-9 then edge = true end
  if m < G[lo] then return X[lo], X[lo], "low" end
  if m > G[hi] then
    local nb = turbine and hi - 1 or hi + 1
    local s = (X[hi] - X[nb]) / (G[hi] - G[nb])
    return X[hi] * math.exp(s * (m - G[hi]) / X[hi]), X[hi], "choke"
  end
  for j = 1, n - 1 do
    local a, b = G[j], G[j + 1]
    if (m - a) * (m - b) <= 0 then
      local r = X[j] + (X[j + 1] - X[j]) * (m - a) / (b - a)
      return r, r, "on"
    end
  end
end
-- a machine at shaft speed w, flow m, inflow (p, Tk): its p_out/p_in, eta
local function by_hand(turbine, w, m, p, Tk)
  local th = math.sqrt(Tk / 288.15)
  local wc, mc = w / th, m * th / (p / 101325)
  edge = math.abs(wc / SP[1] - 1) < 1e-9 or math.abs(wc / SP[#SP] - 1) < 1e-9
  local X, Z, E = turbine and TR or CR, turbine and TF or CF, turbine and TE or CE
  local ws, nu = math.min(wc, SP[#SP]), 1
  if ws < SP[1] then
    if not turbine then nu = math.max(wc, 0) / SP[1] end
    ws = SP[1]
  end
  local G = line_at(Z, ws)
  local r, re, where = ratio_on(G, X, nu < 1 and mc / math.max(nu, 1e-9) or mc, turbine)
  if nu < 1 then r = 1 + (r - 1) * nu * nu end
  local eta = bilinear(SP, X, E, ws, re)
  return turbine and 1 / r or r, eta, where, wc, mc
end

-- 1. points: copies of a line (a MassFlowSource imposing m at (p, T), the
-- machine, a sink), each with its own shaft speed and flow
local air = tf.air
local function points(turbine, list)
  local cls = turbine and turbo.TurbineMap { flow = map(TR, TF), eff = map(TR, TE) }
                       or turbo.CompressorMap { flow = map(CR, CF), eff = map(CR, CE) }
  local Line = lied.model "Line" {
    src = tf.MassFlowSource { m_flow = 0.5, T0 = 300, p0 = 1.2e5, medium = air },
    c = cls,
    snk = tf.Sink { p0 = 1e5, medium = air },
    shaft = rot.Speed { w_ref = 2000, w = 2000 },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" }, { "shaft.flange", "c.flange" } },
  }
  local n = #list
  local M = lied.model "Points" {
    l = lied.array(Line, n, {
      ["src.m_flow"] = function(i) return list[i][2] end,
      ["shaft.w_ref"] = function(i) return list[i][1] end,
      ["shaft.w"] = function(i) return list[i][1] end,
    }),
  }
  local res, _, err = lied.build(M):run { stop = 0.01, solver = "rk4", dt = 0.01, vars = "l[*].c.*" }
  T.check(not err, "points run: " .. tostring(err))
  local counts, worst, flags = {}, 0, 0
  local rows = res:nrows()
  for i, pt in ipairs(list) do
    local function v(name) return res:column(string.format("l[%d].c.%s", i, name))[rows] end
    local pr, eta, where, wc, mc = by_hand(turbine, pt[1], pt[2], 1.2e5, 300)
    counts[where] = (counts[where] or 0) + 1
    T.near(v("w_c"), wc, 1e-12 * math.abs(wc) + 1e-12, "w_c")
    T.near(v("m_c"), mc, 1e-14, "m_c")
    worst = math.max(worst, math.abs(v("pr") / pr - 1), math.abs(v("eta") / eta - 1))
    -- the outflow: the isentropic change of tf.air, then the efficiency
    -- (tanh(w/w_small) = 1 to rounding above 20 w_small)
    if pt[1] > 1000 then
      local p2, h1 = 1.2e5 * pr, air:h_T(300)
      local dhs = air:h_T(air:T_ps(p2, air:s_pT(1.2e5, 300))) - h1
      local h2 = h1 + (dhs * pt[2] > 0 and dhs / eta or eta * dhs)
      T.near(v("T_out"), air:T_h(h2), 1e-9, "T_out at " .. pt[1] .. ", " .. pt[2])
    end
    if not edge then -- (at an end the margin is 0 to rounding)
      local low = turbine and "low_flow" or "surge"
      T.eq(v(low), where == "low" and 1 or 0, low .. " flag at " .. pt[1] .. ", " .. pt[2])
      T.eq(v("choke"), where == "choke" and 1 or 0, "choke flag at " .. pt[1] .. ", " .. pt[2])
      local off = (wc < SP[1] or wc > SP[#SP]) and 1 or 0
      T.eq(v("off_speed"), off, "off_speed flag at " .. pt[1] .. ", " .. pt[2])
      T.eq(v("n_off_map"), (where ~= "on" and 1 or 0) + off, "n_off_map at " .. pt[1] .. ", " .. pt[2])
      flags = flags + 1
    end
  end
  T.check(flags > #list / 2, "flags checked at most points: " .. flags)
  return counts, worst
end
-- speeds (shaft; corrected w sqrt(288.15/300)) and flows chosen on each
-- speed line (corrected flows m sqrt(300/288.15) / (1.2e5/101325)): beyond
-- its low-flow end, at its breakpoints, between them, a little beyond choke
local th = math.sqrt(300 / 288.15)
local function point_list(turbine, speeds)
  local Z = turbine and TF or CF
  local list = {}
  for _, w in ipairs(speeds) do
    local wc = w / th
    local ws, nu = math.min(math.max(wc, SP[1]), SP[#SP]), 1
    if wc < SP[1] and not turbine then nu = math.max(wc, 0) / SP[1] end
    local G = line_at(Z, ws)
    local lo, hi = turbine and G[1] or G[#G], turbine and G[#G] or G[1]
    local gs = { 0.5 * lo, lo, 0.5 * (G[1] + G[2]), G[2], 0.3 * G[2] + 0.7 * G[3], G[3], hi, 1.02 * hi }
    if nu == 0 then gs = { 0.05, 0.4 } end
    for _, g in ipairs(gs) do
      list[#list + 1] = { w, (nu > 0 and nu or 1) * g * (1.2e5 / 101325) / th }
    end
  end
  return list
end
local list = point_list(false, { 1500 * th, 2000, 2500 * th, 3100, 3500 * th, 4000, 1200, 600, 0, -300 })
local counts, worst = points(false, list)
print(string.format("CompressorMap, %d points: worst %.2e (on %d, surge %d, choke %d)", #list, worst,
  counts.on or 0, counts.low or 0, counts.choke or 0))
T.check(worst < 1e-12, "CompressorMap: pr and eta as written out: " .. worst)
T.check((counts.on or 0) > 30 and (counts.low or 0) > 7 and (counts.choke or 0) > 7,
  "points on the lines, beyond surge, beyond choke")
list = point_list(true, { 1500 * th, 2000, 2500 * th, 3100, 4000, 1000, 0 })
counts, worst = points(true, list)
print(string.format("TurbineMap, %d points: worst %.2e (on %d, low %d, choke %d)", #list, worst,
  counts.on or 0, counts.low or 0, counts.choke or 0))
T.check(worst < 1e-12, "TurbineMap: pr and eta as written out: " .. worst)

-- 2. closed-form operating points (T_in = T_ref, p_in = p_ref: corrected
-- values are the actual ones)
local function steady(M, vars)
  local res, _, err = lied.build(M):run { stop = 20, solver = "dopri45", tol = 1e-12, interval = 1, vars = vars }
  T.check(not err, "runs: " .. tostring(err))
  local n = res:nrows()
  return function(v) return res:column(v)[n] end
end
do -- a compressor at 2000 rad/s into a linear resistance k to 1.5 bar
  local p1, p2, k, w = 101325, 1.5e5, 2e4, 2000
  local last = steady(lied.model "Resist" {
    src = tf.Source { p0 = p1, T0 = 288.15, medium = air, L = 1e3 },
    c = turbo.CompressorMap { flow = map(CR, CF), eff = map(CR, CE) },
    drop = tf.LinearQuadraticDrop { k1 = k, k2 = 0, medium = air },
    snk = tf.Sink { p0 = p2, medium = air },
    shaft = rot.Speed { w_ref = w, w = w },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "drop.inlet" }, { "drop.outlet", "snk.inlet" },
                { "shaft.flange", "c.flange" } },
  }, "c.m_flow,c.pr")
  -- on segment j of the line at w: r = R_j + a (m - G_j); p1 r - k m = p2
  local G, m = line_at(CF, w), nil
  for j = 1, #CR - 1 do
    local a = (CR[j + 1] - CR[j]) / (G[j + 1] - G[j])
    local mj = (p2 - p1 * CR[j] + p1 * a * G[j]) / (p1 * a - k)
    if (mj - G[j]) * (mj - G[j + 1]) <= 0 then m = mj end
  end
  T.near(last("c.m_flow"), m, 1e-9 * m, "compressor into a resistance: the flow of the closed form")
  T.near(last("c.pr"), (p2 + k * m) / p1, 1e-9, "its ratio")
end
do -- a turbine at 3000 rad/s between 3 and 1.2 bar, inflow at 400 K
  local p1, p2, Tk, w = 3e5, 1.2e5, 400, 3000
  local last = steady(lied.model "Expand" {
    src = tf.Source { p0 = p1, T0 = Tk, medium = air, L = 1e3 },
    t = turbo.TurbineMap { flow = map(TR, TF), eff = map(TR, TE) },
    snk = tf.Sink { p0 = p2, medium = air },
    shaft = rot.Speed { w_ref = w, w = w },
    connect = { { "src.outlet", "t.inlet" }, { "t.outlet", "snk.inlet" }, { "shaft.flange", "t.flange" } },
  }, "t.m_flow,t.eta,t.T_out")
  local thk = math.sqrt(Tk / 288.15)
  local m = bilinear(SP, TR, TF, w / thk, p1 / p2) * (p1 / 101325) / thk
  T.near(last("t.m_flow"), m, 1e-9 * m, "turbine between two pressures: the map's flow at their ratio")
  local eta = bilinear(SP, TR, TE, w / thk, p1 / p2)
  T.near(last("t.eta"), eta, 1e-9, "its efficiency")
  local h1 = air:h_T(Tk)
  local h2 = h1 + eta * (air:h_T(air:T_ps(p2, air:s_pT(p1, Tk))) - h1)
  T.near(last("t.T_out"), air:T_h(h2), 1e-7, "its outflow temperature")
end
do -- a compressor at 2500 rad/s discharging to 0.9 bar: choked
  local p1, p2, w = 101325, 0.9e5, 2500
  local last = steady(lied.model "Choke" {
    src = tf.Source { p0 = p1, T0 = 288.15, medium = air, L = 1e3 },
    c = turbo.CompressorMap { flow = map(CR, CF), eff = map(CR, CE) },
    snk = tf.Sink { p0 = p2, medium = air },
    shaft = rot.Speed { w_ref = w, w = w },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" }, { "shaft.flange", "c.flange" } },
  }, "c.m_flow,c.choke")
  -- p2/p1 = R_1 exp(s (m - G_1)/R_1), s the first segment's slope
  local G = line_at(CF, w)
  local s = (CR[1] - CR[2]) / (G[1] - G[2])
  local m = G[1] + CR[1] * math.log(p2 / (p1 * CR[1])) / s
  T.near(last("c.m_flow"), m, 1e-9 * m, "choked compressor: the flow of the continuation")
  T.eq(last("c.choke"), 1, "choked compressor: the flag")
end

-- 3. a free shaft: a compressor and a turbine of maps, a heater between
do
  local M = lied.model "Shaft" {
    src = tf.Source { p0 = 101325, T0 = 288.15, medium = air, L = 2e3 },
    c = turbo.CompressorMap { flow = map(CR, CF), eff = map(CR, CE) },
    burner = tf.Heater { Q = 1.2e5, V = 0.01, T0 = 600, p0 = 1.5e5, medium = air },
    t = turbo.TurbineMap { flow = map(TR, TF), eff = map(TR, TE) },
    snk = tf.Sink { p0 = 101325, medium = air },
    shaft = rot.Inertia { J = 0.01, w = 2500 },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "burner.inlet" }, { "burner.outlet", "t.inlet" },
                { "t.outlet", "snk.inlet" }, { "shaft.flange_a", "c.flange" }, { "shaft.flange_b", "t.flange" } },
  }
  local res, _, err = lied.build(M):run { stop = 200, solver = "dopri45", tol = 1e-11, interval = 1,
    vars = "c.P,t.P,c.tau,t.tau,shaft.w,c.m_flow,c.dh,t.dh,c.surge,c.choke,t.low_flow,t.choke,c.off_speed,t.off_speed" }
  T.check(not err, "free shaft runs: " .. tostring(err))
  local n = res:nrows()
  local function col(v) return res:column(v) end
  local Pc, Pt = col("c.P")[n], col("t.P")[n]
  print(string.format("free shaft of maps: %.2f rad/s, compressor %.1f W, turbine %.1f W, rel %.2e",
    col("shaft.w")[n], Pc, Pt, math.abs(Pc + Pt) / Pc))
  T.check(math.abs(Pc + Pt) <= 1e-9 * Pc, "compressor power = turbine power at steady state")
  local worst = 0
  for i = 1, n do
    local w, m = col("shaft.w")[i], col("c.m_flow")[i]
    worst = math.max(worst, math.abs(col("c.tau")[i] * w - m * col("c.dh")[i]) / math.abs(col("c.P")[i]),
      math.abs(col("t.tau")[i] * w - m * col("t.dh")[i]) / math.abs(col("t.P")[i]))
  end
  T.check(worst < 1e-12, "tau w = m dh at every output: " .. worst)
  for _, f in ipairs { "c.surge", "c.choke", "t.low_flow", "t.choke", "c.off_speed", "t.off_speed" } do
    T.eq(col(f)[n], 0, "on the maps at steady state: " .. f)
  end
end

-- 4. surge, choke, overspeed during runs: the sink's pressure ramps up
-- until the compressor at 2000 rad/s passes its surge line (r = 2.5), then
-- down into choke; the shaft is then driven beyond the highest speed line
do
  local w = 2000
  local M = lied.model "Surge" {
    src = tf.Source { p0 = 101325, T0 = 288.15, medium = air, L = 1e4 },
    c = turbo.CompressorMap { flow = map(CR, CF), eff = map(CR, CE) },
    snk = tf.Sink { p0_from_input = 1, medium = air },
    back = S.TimeTable { table = { { 0, 1.6e5 }, { 10, 2.6e5 }, { 20, 2.6e5 }, { 30, 0.8e5 }, { 40, 0.8e5 } } },
    shaft = rot.Speed { w_ref = w, w = w },
    up = S.TimeTable { table = { { 0, 0 }, { 40, 0 }, { 45, 2000 } } },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" }, { "back.y", "snk.p0_in" },
                { "shaft.flange", "c.flange" }, { "up.y", "shaft.u" } },
  }
  local res, _, err = lied.build(M):run { stop = 50, solver = "dopri45", tol = 1e-9, interval = 0.5,
    vars = "c.pr,c.m_flow,c.m_c,c.surge,c.choke,c.off_speed,c.n_off_map,c.surge_margin,c.choke_margin,c.speed_margin,c.T_out,c.P,c.w_c" }
  T.check(not err, "surge run: " .. tostring(err))
  local t = res:column("time")
  local n = #t
  local function col(v) return res:column(v) end
  local nan = false
  for _, v in ipairs(res:names()) do
    for i = 1, n do nan = nan or col(v)[i] ~= col(v)[i] end
  end
  T.check(not nan, "no NaN in any recorded value")
  -- the events: two rows at one time where a flag changes
  local function event(flag, to)
    for i = 2, n do
      if t[i] == t[i - 1] and col(flag)[i - 1] ~= to and col(flag)[i] == to then return i end
    end
  end
  local i = event("c.surge", 1)
  T.check(i ~= nil, "an event where the compressor enters surge")
  if i then
    T.near(col("c.surge_margin")[i], 0, 1e-9, "at the surge line: its margin 0")
    T.near(col("c.pr")[i], 2.5, 1e-8, "at the surge line: its ratio")
    print(string.format("surge at t = %.6f s", t[i]))
  end
  local held = true
  for k = 1, n do
    if col("c.surge_margin")[k] < -1e-9 then held = held and col("c.pr")[k] == 2.5 end
  end
  T.check(held, "beyond surge the ratio is held at the surge line's 2.5")
  T.check(event("c.surge", 0) ~= nil, "leaves surge when the back pressure falls")
  i = event("c.choke", 1)
  T.check(i ~= nil, "an event where the compressor chokes")
  if i then T.near(col("c.choke_margin")[i], 0, 1e-9, "at choke: its margin 0") end
  i = event("c.off_speed", 1)
  T.check(i ~= nil, "an event where the shaft passes the highest speed line")
  if i then T.near(col("c.w_c")[i], 3500, 1e-6, "at the highest speed line") end
  T.eq(col("c.surge")[1], 1, "the flow starts at rest: beyond the surge line")
  T.eq(col("c.n_off_map")[n], 4, "four times off the map: at the start, surge, choke, overspeed")
end

-- with extrapolation "error", a speed beyond the lines stops the run with
-- the component, the time and the map
do
  local flow = lied.table { x1 = SP, x2 = CR, z = CF, extrapolation = "error", name = "acm.csv" }
  local M = lied.model "Strict" {
    src = tf.Source { p0 = 101325, T0 = 288.15, medium = air, L = 1e3 },
    c = turbo.CompressorMap { flow = flow, eff = map(CR, CE) },
    snk = tf.Sink { p0 = 1.5e5, medium = air },
    shaft = rot.Speed { w_ref = 3000, w = 3000 },
    up = S.Ramp { height = 1000, t0 = 1, duration = 1 },
    connect = { { "src.outlet", "c.inlet" }, { "c.outlet", "snk.inlet" }, { "shaft.flange", "c.flange" },
                { "up.y", "shaft.u" } },
  }
  local _, _, err = lied.build(M):run { stop = 3, solver = "dopri45", tol = 1e-9 }
  T.check(err and err:find("c: corrected speed 35", 1, true) and err:find("outside the speed lines of the flow map acm.csv, [1500, 3500] rad/s", 1, true)
    and err:find("at t = ", 1, true), "extrapolation \"error\": " .. tostring(err))
end
T.done()
