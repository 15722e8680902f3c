-- examples/district_heating.lua: a district-heating network of n houses over
-- one day. A plant heats water in a boiler exchanger and pumps it into a
-- supply main; at house i a splitter takes the house's branch off the main:
-- a valve, a radiator (water cell with a heat port), a connection pipe, and
-- back through a junction into the return main, which flows to the plant's
-- expansion volume. Each room is a heat capacity losing heat through its
-- walls to the outdoor air (a daily sine), warmed by its radiator, whose
-- valve a PI thermostat sets from the room temperature; the setpoint has a
-- night set-back (17 degC from 22:00 to 06:00, 21 degC by day) from a time
-- table. Houses differ (lied.array per-copy values): valve size, radiator,
-- room capacity and wall loss spread over the street.
--
-- The network's flows form one linear section with n + 1 tearing variables
-- (the plant's and every house's flow derivative): solved sparsely
-- (docs/architecture.md, "Sparse linear sections"), in work per house that
-- does not grow with n (its time per house does, 3.6x from 100 to 100,000
-- houses, once the network outgrows the cache: docs/performance.md).
--   lied run examples/district_heating.lua --set n=1000      one day, CSV
--   ... --steady none                                         the flows start at rest
--   lied examples/district_heating.lua [plot.png]            plot (n = 100)
local lied = require "lied"
local tf = require "lied.thermofluid"
local th = require "lied.thermal"
local S = require "lied.signals"

local day = 86400
-- a spread in [0, 1) per house: a fixed permutation of the index
local function spread(i) return ((i * 7919) % 101) / 101 end

local House = lied.model "House" {
  doc = "a house on the network: valve, radiator, connection pipe; a room heated by the " ..
        "radiator, losing heat to the outdoor air; a PI thermostat on the valve",
  parameters = { Kv = 0.35, UA = 500, C = 2e7, G = 180 },
  valve = tf.Valve { Kv = lied.param "Kv", characteristic = 2, leakage = 0.02, L = 2e4 },
  rad = tf.ConductionElement { V = 0.02, T0 = 318.15 },          -- 20 l of radiator water
  ua = th.ThermalConductor { G = lied.param "UA" },               -- radiator to room [W/K]
  room = th.HeatCapacitor { C = lied.param "C", T = 292.15 },     -- room air and walls [J/K]
  wall = th.ThermalConductor { G = lied.param "G" },              -- room to outdoors [W/K]
  outdoor = th.PrescribedTemperature {},
  sensor = th.TemperatureSensor {},
  err = S.Add { n = 2, k1 = 1, k2 = -1 },                         -- setpoint - room
  pi = S.PI { k = 0.4, Ti = 1800, yMin = 0.02, yMax = 1 },  -- never quite closed
  pipe = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-4, L = 5e4 }, -- the house connection
  connect = {
    { "valve.outlet", "rad.inlet" }, { "rad.outlet", "pipe.inlet" },
    { "rad.heatPort", "ua.port_a" }, { "ua.port_b", "room.port" },
    { "room.port", "wall.port_a" }, { "wall.port_b", "outdoor.port" },
    { "room.port", "sensor.port" }, { "sensor.y", "err.u2" }, { "err.y", "pi.u" },
    { "pi.y", "valve.opening" },
  },
  ports = { inlet = "valve.inlet", outlet = "pipe.outlet", T_outdoor = "outdoor.T_in",
            T_set = "err.u1" },
}

-- The mains' segments between two houses, 50 m each, sized for 1 m/s at the
-- design flow of the houses beyond (0.06 kg/s each) and a drop of 0.5 bar
-- along each main.
local m_house, rho = 0.06, 995.586
local function segment_flow(i, p) return m_house * (p.n - i + 1) end
local segments = {
  v_ref = function(i, p) return segment_flow(i, p) / rho end,
  dp_ref = function(i, p) return 5e4 / p.n end,
  L = function(i, p) return 50 * rho / segment_flow(i, p) end,      -- l / A with A = m / (rho v)
}

local District = lied.model "DistrictHeating" {
  doc = "a plant, a supply and a return main, n houses on splitters and junctions",
  parameters = { n = 100 },
  vol = tf.Volume { V = 50, p0 = 3e5, T0 = 353.15 },             -- expansion and storage
  boiler = tf.ConductionElement { V = 1, T0 = 353.15 },
  flame = th.FixedTemperature { T = 368.15 },
  burner = th.ThermalConductor { G = function(p) return 400 * p.n end },
  -- 3 bar at zero flow, none at 0.1 kg/s per house
  pump = tf.Pump { k_p = function(p) return 3e5 / (0.1 * p.n / rho) end, omega = 150, L = 1e3,
                   V_r = function(p) return 2 * math.pi * 0.1 * p.n / rho / 150 end },
  sup = lied.array(tf.PressureDrop {}, lied.param "n", segments),
  split = lied.array(tf.Splitter { N = 2 }, lied.param "n"),
  house = lied.array(House, lied.param "n", {
    Kv = function(i) return 0.25 + 0.2 * spread(i) end,
    UA = function(i) return 400 + 200 * spread(i + 17) end,
    C = function(i) return 1.5e7 + 1e7 * spread(i + 31) end,
    G = function(i) return 140 + 80 * spread(i + 53) end,
  }),
  join = lied.array(tf.Junction { N = 2 }, lied.param "n"),
  ret = lied.array(tf.PressureDrop {}, lied.param "n", segments),
  last = tf.PressureDrop { dp_ref = 5e4, v_ref = 1e-4, L = 1e4 }, -- bypass at the far end
  outdoor = S.Sine { offset = 273.15 + 2, amplitude = 5, f = 1 / day,
                     phase = -math.pi / 2 - 2 * math.pi * 4 / 24 },  -- coldest at 04:00
  setpoint = S.TimeTable { table = {
    { 0, 290.15 }, { 6 * 3600, 290.15 }, { 6.5 * 3600, 294.15 },
    { 22 * 3600, 294.15 }, { 22.5 * 3600, 290.15 }, { day, 290.15 } } },
  connect = {
    { "vol.outlet", "boiler.inlet" }, { "boiler.heatPort", "burner.port_a" },
    { "burner.port_b", "flame.port" }, { "boiler.outlet", "pump.inlet" },
    { "pump.outlet", "sup[1].inlet" },
    lied.each(1, lied.param "n",
      { "sup[i].outlet", "split[i].inlet" }, { "split[i].outlet1", "house[i].inlet" },
      { "house[i].outlet", "join[i].inlet1" }, { "join[i].outlet", "ret[i].inlet" },
      { "outdoor.y", "house[i].T_outdoor" }, { "setpoint.y", "house[i].T_set" }),
    lied.each(1, function(p) return p.n - 1 end,
      { "split[i].outlet2", "sup[i+1].inlet" }, { "ret[i+1].outlet", "join[i].inlet2" }),
    lied.each(lied.param "n", lied.param "n",
      { "split[i].outlet2", "last.inlet" }, { "last.outlet", "join[i].inlet2" }),
    { "ret[1].outlet", "vol.inlet" },
  },
  -- the flows start at their steady state for the start temperatures and valve
  -- settings (Modelica's initial equation der(m_flow) = 0; docs/analysis.md, "A steady
  -- start"), not at rest: no start-up flow wave down the mains. `--steady none` starts
  -- every flow at rest, as before 2026-11-28.
  experiment = { stop = day, solver = "esdirk23", tol = 1e-6, interval = 600, steady = "*m_flow*",
                 vars = "burner.Q_flow,pump.m_flow,vol.T,house[1].room.T,house[2].room.T,house[3].room.T" },
}

lied.main(District, { plot = { "house[1].room.T", "house[2].room.T", "house[3].room.T" } })
return District
