-- Validation of examples/heated_loop.lua: flows add up at the junction, the
-- volume's mass is conserved in the closed loop, the steady temperatures obey
-- the energy balance (heater: Q = m*cp*dT; junction: flow-weighted mixing), the
-- steady pump head equals the pipe losses, and the constant 2x2 section of the
-- loop is factorised once.
local lied = require "lied"
local T = require "tests.testing"

local Loop = dofile("examples/heated_loop.lua")
local sim = lied.simulate(Loop, { interval = 1 })
local res, stats = sim:run()
local function col(n) return assert(T.column(res, n)) end
local function last(n) local c = col(n) return c[#c] end

local cp, Q = 4184, 5e4
local mp, mh, mb = last("pump.m_flow"), last("heated.drop.m_flow"), last("bypass.drop.m_flow")
T.check(mh > 0 and mb > 0 and mh > mb, "both branches flow forwards, the heated one more")
T.near(mh + mb, mp, 1e-12, "branch flows add up to the pump flow")

-- before the heat is switched on every temperature is the start temperature
local t = col("time")
for r = 1, #t do
  if t[r] < 30 then T.near(col("mix.T")[r], 293.15, 1e-9, "mix.T before heating at t = " .. t[r]) end
end

-- steady state: the heater raises its branch by Q/(m*cp) over the water
-- leaving the volume, the bypass keeps that temperature, the junction mixes by
-- mass flow, and the cooler takes the heat out again
local Th, Tmix, Tc, Tv = last("heated.heater.T"), last("mix.T"), last("cooler.T"), last("vol.T")
T.near(Th - Tv, Q / (mh * cp), 1e-6, "heated branch: dT = Q/(m*cp)")
T.near(Tmix, (mh * Th + mb * Tv) / (mh + mb), 1e-4, "junction: flow-weighted mixing")
T.near(Tmix - Tc, Q / (mp * cp), 1e-6, "cooler: dT = Q/(m*cp)")
T.check(Th > Tmix + 1 and Tmix > Tv + 1, "mixing is visible: heated > mixed > bypass")

-- the volume's pressure stays (closed rigid loop, one volume: its mass is constant)
local p = col("vol.p")
for r = 1, #p do T.near(p[r], 2e5, 1e-3, "vol.p constant") end

-- steady pump head = losses along each path; the return pipe's loss follows
-- the PressureDrop law with the standard liquid's density at its inlet pressure
local m = sim.model
T.near(m:value("pump.dp"), m:value("heated.drop.dp") + m:value("ret.drop.dp"), 1e-6,
  "steady pump head = losses of the heated path")
T.near(m:value("bypass.drop.dp"), m:value("heated.drop.dp"), 1e-6,
  "both branches lose the same pressure")
local p_in = m:value("vol.p") + m:value("ret.drop.dp")
local rho = 995.586 * (1 + 4.5e-10 * (p_in - 1e5))
local u = mp / (rho * 1e-3)
T.near(m:value("ret.drop.dp"), 0.5 * 1e4 * (u + u * u), 1e-6, "return pipe loss from the law")

T.eq(stats.factorisations, 1, "one factorisation per run")
T.done()
