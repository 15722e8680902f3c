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
  parameters = { t_switch = 600, ramp = 5, T_in = 295.15, T_out = 283.15 },
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
return ReverseHeatPump
