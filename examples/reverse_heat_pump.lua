-- examples/reverse_heat_pump.lua: a reversible air-to-air heat pump of R134a in the shape of
-- ThermoFluid Stream's ReverseHeatPump example (the papers' Figure 1): the refrigerant flow
-- through the two exchangers reverses when the mode switches, so they are undirected
-- (lied.undirected TwoPhaseCounterFlowHX: condenser in one mode, evaporator in the other).
--
--   compressor -> splitter -> valve vdc (cooling) -> jo ---- hx_o (outdoor) ---- tev_o
--                          -> valve vdh (heating) -> ji ---- hx_i (indoor) ----- tev_i
--   tev_o -- rcv (receiver volume) -- tev_i ; jo -> valve vsh (heating) -> suction junction
--   ji -> valve vsc (cooling) -> suction junction -> accumulator -> compressor
--
-- The compressor, the splitter, the four valves of the 4-way valve set and the suction side
-- are directed (the flow through them never reverses); ConnectInletFore and ConnectRearOutlet
-- join them to the undirected chain jo - hx_o - tev_o - rcv - tev_i - hx_i - ji, whose flow
-- runs forwards (jo to ji) while cooling and rearwards while heating:
--   cooling: discharge -> vdc -> hx_o (condenser) -> tev_o (open) -> rcv -> tev_i (throttles)
--            -> hx_i (evaporator) -> vsc -> accumulator
--   heating: discharge -> vdh -> hx_i (condenser, rearwards) -> tev_i (open) -> rcv -> tev_o
--            (throttles) -> hx_o (evaporator, rearwards) -> vsh -> accumulator
-- The mode switches at t_switch (a time event): `signals.Ramp`s close vdc and vsc and open vdh
-- and vsh over ramp seconds, and swap the roles of the two expansion valves. The accumulator
-- at the suction passes saturated vapour and stores what the flooded evaporator sends beyond
-- it, so the cycle settles without a superheat controller; the receiver between the two
-- expansion valves buffers the charge that moves between the exchangers.
-- Indoor air at 22 degC and outdoor air at 10 degC (1 kg/s through each exchanger).
--   lied run examples/reverse_heat_pump.lua        CSV of pressures, flows, powers, charges
--   lied examples/reverse_heat_pump.lua [plot.png] simulate, print each mode's steady figures
--                                                  (capacity, power, COP, energy balance,
--                                                  charge), plot capacities and COP, pressures,
--                                                  and the cycle on log(p)-h in each mode
local lied = require "lied"
local tf = require "lied.thermofluid"
local tfu = require "lied.undirected"
local rf = require "lied.refrigeration"
local sig = require "lied.signals"
local R, air = tf.R134a, tf.air

-- start (cooling): the outdoor exchanger condensing at 9 bar, the indoor one evaporating at
-- 3.5 bar, the receiver at 6 bar; the flow starts at the compressor's displacement flow
local pc0, pe0, pr0, w0, Vd, eta_v = 9e5, 3.5e5, 6e5, 250, 1e-4, 0.9
local rho1 = R:rho_ph(pe0, R:h_vap(pe0))
local m0 = eta_v * Vd * w0 / (2 * math.pi) * rho1
local N = 8 -- cells per exchanger
local t_switch0 = 600 -- the switch from cooling to heating [s]
local y_c, y_h = 0.3, 0.3 -- the throttling expansion valve's opening, cooling and heating
local function hx(p0, x0)
  return tfu.TwoPhaseCounterFlowHX { N = N, V_a = 3.5e-3, A_a = 4, UA_b = 1500, C_w = 4000,
                                     p0_a = p0, x0_a = x0, m_flow = m0, L_fore = 1e4,
                                     medium_a = R, medium_b = air }
end
local function valve() return tf.Valve { Kv = 4, leakage = 1e-4, medium = R } end
local function tev() return tfu.Valve { Kv = 1, leakage = 1e-4, L = 1e4, medium = R } end
-- the air through an exchanger: from a boundary at 1.002 bar through the exchanger and a
-- drop of 200 Pa at 1 kg/s to 1 bar
local function air_in(T) return tfu.BoundaryRear { p0 = 1.002e5, T0 = T, L = 1e3, medium = air } end
local function air_drop() return tfu.LinearQuadraticDrop { k2 = 200, medium = air } end
local function air_out() return tfu.BoundaryFore { p0 = 1e5, T0 = 293.15, medium = air } end

local ReverseHeatPump = lied.model "ReverseHeatPump" {
  doc = "reversible R134a air-to-air heat pump: compressor, 4-way valve set of four valves, two "
    .. "undirected two-phase exchangers, two expansion valves around a receiver, accumulator; "
    .. "switches from cooling to heating at t_switch",
  parameters = { t_switch = t_switch0, ramp = 5, T_in = 295.15, T_out = 283.15 },
  -- the directed part: suction, compressor, the 4-way valve set
  acc = rf.Accumulator { V = 3e-3, p0 = pe0, level0 = 0.2, L = 1e4, m_flow = m0, medium = R },
  comp = rf.Compressor { V_d = Vd, eta_s = 0.75, eta_v = eta_v, k = 1e11, medium = R },
  speed = sig.Constant { k = w0 },
  split = tf.Splitter { N = 2, L = 1e4, m_flow1 = m0, medium = R },
  vdc = valve(), vdh = valve(), vsc = valve(), vsh = valve(),
  suction = tf.Junction { N = 2, L = 1e4, medium = R },
  cif_o = tfu.ConnectInletFore { medium = R },
  cif_i = tfu.ConnectInletFore { medium = R },
  cro_o = tfu.ConnectRearOutlet { medium = R },
  cro_i = tfu.ConnectRearOutlet { medium = R },
  -- the undirected chain
  jo = tfu.Junction { n_rear = 1, n_fore = 2, L = 1e4, m_flow1 = m0 },
  hx_o = hx(pc0, 0.2),
  tev_o = tev(),
  rcv = tfu.Volume { V = 2e-3, p0 = pr0, x0 = 0.2, L_fore = 1e4, m_flow = m0, medium = R },
  tev_i = tev(),
  hx_i = hx(pe0, 0.7),
  ji = tfu.Junction { n_rear = 2, n_fore = 1, L = 1e4 },
  -- the air
  air_o = air_in(lied.param "T_out"), drop_o = air_drop(), out_o = air_out(),
  air_i = air_in(lied.param "T_in"), drop_i = air_drop(), out_i = air_out(),
  -- the mode: 0 cooling, 1 heating; the valves' openings ramp at t_switch
  cool = sig.Ramp { offset = 1, height = -1, t0 = lied.param "t_switch", duration = lied.param "ramp" },
  heat = sig.Ramp { offset = 0, height = 1, t0 = lied.param "t_switch", duration = lied.param "ramp" },
  y_tev_o = sig.Ramp { offset = 1, height = y_h - 1, t0 = lied.param "t_switch",
                       duration = lied.param "ramp" },
  y_tev_i = sig.Ramp { offset = y_c, height = 1 - y_c,
                       t0 = lied.param "t_switch", duration = lied.param "ramp" },
  connect = {
    { "acc.outlet", "comp.inlet" }, { "speed.y", "comp.speed" }, { "comp.outlet", "split.inlet" },
    { "split.outlet1", "vdc.inlet" }, { "vdc.outlet", "cif_o.inlet" }, { "cif_o.fore", "jo.rear[1]" },
    { "split.outlet2", "vdh.inlet" }, { "vdh.outlet", "cif_i.inlet" }, { "cif_i.fore", "ji.rear[2]" },
    { "jo.fore[1]", "hx_o.rear_a" }, { "hx_o.fore_a", "tev_o.rear" }, { "tev_o.fore", "rcv.rear" },
    { "rcv.fore", "tev_i.rear" }, { "tev_i.fore", "hx_i.rear_a" }, { "hx_i.fore_a", "ji.rear[1]" },
    { "jo.fore[2]", "cro_o.rear" }, { "cro_o.outlet", "vsh.inlet" }, { "vsh.outlet", "suction.inlet2" },
    { "ji.fore[1]", "cro_i.rear" }, { "cro_i.outlet", "vsc.inlet" }, { "vsc.outlet", "suction.inlet1" },
    { "suction.outlet", "acc.inlet" },
    { "air_o.fore", "hx_o.rear_b" }, { "hx_o.fore_b", "drop_o.rear" }, { "drop_o.fore", "out_o.rear" },
    { "air_i.fore", "hx_i.rear_b" }, { "hx_i.fore_b", "drop_i.rear" }, { "drop_i.fore", "out_i.rear" },
    { "cool.y", "vdc.opening" }, { "cool.y", "vsc.opening" }, { "heat.y", "vdh.opening" },
    { "heat.y", "vsh.opening" }, { "y_tev_o.y", "tev_o.opening" }, { "y_tev_i.y", "tev_i.opening" },
  },
  experiment = { stop = 1200, solver = "cvode", tol = 1e-8, interval = 2,
                 vars = "hx_o.p,hx_i.p,rcv.p,acc.p,comp.m_flow,hx_o.m_flow,hx_i.m_flow,comp.P,"
                   .. "hx_o.Q_flow,hx_i.Q_flow,hx_o.M,hx_i.M,rcv.M,acc.M,acc.level,hx_o.T_b,hx_i.T_b" },
}
-- The figures of one mode at row r of the columns col: the heat into the indoor air Q_air
-- (positive heating, negative cooling), the exchangers' heat into the refrigerant, the
-- compressor's power, COP (the useful heat over the power) and the energy balance of the
-- refrigerant (compressor power plus heat in, over the power: 0 at a steady state).
local function mode_figures(col, r)
  local Qi, Qo, P = col["hx_i.Q_flow"][r], col["hx_o.Q_flow"][r], col["comp.P"][r]
  return { Q_air = -Qi, Q_i = Qi, Q_o = Qo, P = P, COP = math.abs(Qi) / P,
           balance = (P + Qi + Qo) / P,
           M = col["hx_o.M"][r] + col["hx_i.M"][r] + col["rcv.M"][r] + col["acc.M"][r] }
end
ReverseHeatPump.mode_figures = mode_figures

-- As the main script: simulate, print each mode's steady figures, plot capacities and COP,
-- pressures, and the cycle on a log(p)-h diagram in each mode.
if lied.script and debug.getinfo(1, "S").source == "@" .. lied.script then
  local plot = require "lied.plot"
  local cells = {}
  for i = 1, N do cells[#cells + 1] = "hx_o.h[" .. i .. "],hx_i.h[" .. i .. "]" end
  local sim = lied.simulate(ReverseHeatPump, { vars = ReverseHeatPump.experiment.vars
    .. ",comp.outlet.h,comp.outlet.p,acc.outlet.h,acc.outlet.p,rcv.h," .. table.concat(cells, ",") })
  local c0 = os.clock()
  local res, stats = sim:run()
  local cpu = os.clock() - c0
  local col = {}
  for _, n in ipairs(res:names()) do col[n] = res:column(n) end
  local t = res:column("time")
  local ts = t_switch0
  local function row_at(time) -- the last row at or before time
    local r = 1
    while r < #t and t[r + 1] <= time + 1e-9 do r = r + 1 end
    return r
  end
  local M0 = mode_figures(col, 1).M
  local dM = 0
  for r = 1, #t do dM = math.max(dM, math.abs(mode_figures(col, r).M - M0) / M0) end
  io.write(string.format("ReverseHeatPump: %d s of R134a in %.3f s of CPU, %d steps; charge %.4f kg "
    .. "kept to %.1e through the switch at t = %g s\n", math.floor(t[#t] + 0.5), cpu, stats.steps, M0, dM, ts))
  io.write(string.format("%-8s %8s %9s %9s %10s %9s %7s %10s\n", "mode", "t [s]", "p_o [bar]", "p_i [bar]",
    "Q_air [kW]", "P [kW]", "COP", "balance"))
  local rows = { cooling = row_at(ts - 1e-6), heating = #t }
  local series = {}
  for _, mode in ipairs { "cooling", "heating" } do
    local r = rows[mode]
    local f = mode_figures(col, r)
    io.write(string.format("%-8s %8.1f %9.4f %9.4f %10.4f %9.4f %7.4f %10.2e\n", mode, t[r],
      col["hx_o.p"][r] / 1e5, col["hx_i.p"][r] / 1e5, f.Q_air / 1e3, f.P / 1e3, f.COP, f.balance))
    -- the cycle: compressor outlet, the condenser's cells in the flow's order, the receiver,
    -- the evaporator's cells, the accumulator's outlet, back to the compressor's outlet
    local hs, ps = {}, {}
    local function pt(h, p) hs[#hs + 1], ps[#ps + 1] = h / 1e3, p / 1e5 end
    local cond, evap = mode == "cooling" and "hx_o" or "hx_i", mode == "cooling" and "hx_i" or "hx_o"
    local function cells_of(hx)
      for k = 1, N do
        local i = mode == "cooling" and k or N + 1 - k
        pt(col[hx .. ".h[" .. i .. "]"][r], col[hx .. ".p"][r])
      end
    end
    pt(col["comp.outlet.h"][r], col["comp.outlet.p"][r])
    cells_of(cond)
    pt(col["rcv.h"][r], col["rcv.p"][r])
    cells_of(evap)
    pt(col["acc.outlet.h"][r], col["acc.outlet.p"][r])
    pt(col["comp.outlet.h"][r], col["comp.outlet.p"][r])
    series[mode] = { x = hs, y = ps, label = string.format("%s (t = %g s)", mode, t[r]) }
  end
  -- the saturation dome
  local pc = R:range().pc
  local dh, dp, pl = {}, {}, {}
  for i = 0, 60 do pl[#pl + 1] = 1e5 * (0.999 * pc / 1e5) ^ (i / 60) end
  for _, p in ipairs(pl) do dh[#dh + 1], dp[#dp + 1] = R:h_liq(p) / 1e3, p / 1e5 end
  for i = #pl, 1, -1 do dh[#dh + 1], dp[#dp + 1] = R:h_vap(pl[i]) / 1e3, pl[i] / 1e5 end
  local dome = { x = dh, y = dp, label = "saturation", rgb = "#000000" }
  local tk, Qa, P, cop, po, pi, pr = {}, {}, {}, {}, {}, {}, {}
  for r = 1, #t do
    local f = mode_figures(col, r)
    tk[r], Qa[r], P[r] = t[r], f.Q_air / 1e3, f.P / 1e3
    cop[r] = f.P > 1 and f.COP or 0
    po[r], pi[r], pr[r] = col["hx_o.p"][r] / 1e5, col["hx_i.p"][r] / 1e5, col["rcv.p"][r] / 1e5
  end
  series.cooling.rgb, series.heating.rgb = plot.palette[1], plot.palette[2]
  local ok, err = plot.draw(nil, { file = arg and arg[1], layout = { 2, 2 }, panels = {
    { title = "heat into the indoor air and compressor power", xlabel = "t [s]", ylabel = "[kW]",
      series = { { x = tk, y = Qa, label = "Q air (heating > 0)" }, { x = tk, y = P, label = "P compressor" } } },
    { title = "COP", xlabel = "t [s]", ylabel = "[1]", series = { { x = tk, y = cop, label = "COP" } } },
    { title = "pressures", xlabel = "t [s]", ylabel = "[bar]",
      series = { { x = tk, y = po, label = "outdoor exchanger" }, { x = tk, y = pi, label = "indoor exchanger" },
                 { x = tk, y = pr, label = "receiver" } } },
    { title = "the cycle on log(p)-h", xlabel = "h [kJ/kg]", ylabel = "p [bar]", logy = true,
      series = { dome, series.cooling, series.heating } },
  } })
  if not ok then io.stderr:write(tostring(err), "\n") end
end
return ReverseHeatPump
