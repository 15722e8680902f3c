-- test_vapor_cycle.lua: examples/vapor_cycle.lua (docs/refrigeration.md, "The vapour
-- cycle example"): over its 1,500 s run with the steps, the charge of the closed circuit
-- (evaporator, condenser, receiver) is kept to 1e-9 and the controllers hold the
-- superheat; at a steady state (the steps moved past the run) compressor power + heat
-- absorbed = heat rejected to 1e-6; the log(p)-h plot's axis is logarithmic.
local T = require "tests.testing"
local lied = require "lied"
local VC = dofile("examples/vapor_cycle.lua")

-- the experiment as the example runs it
local sim = lied.simulate(VC, { vars = "evap.M,cond.M,rcv.M,sh.superheat,evap_air_T.T,comp.w,valve.y,rcv.level" })
local res = sim:run()
local c = {}
for _, n in ipairs(res:names()) do c[n] = res:column(n) end
local t = res:column("time")
T.near(t[#t], 1500, 0, "the run reaches 1,500 s")
local M0 = c["evap.M"][1] + c["cond.M"][1] + c["rcv.M"][1]
local worst, moved = 0, 0
for r = 1, #t do
  worst = math.max(worst, math.abs(c["evap.M"][r] + c["cond.M"][r] + c["rcv.M"][r] - M0) / M0)
  moved = math.max(moved, math.abs(c["rcv.M"][r] - c["rcv.M"][1]))
end
T.check(worst <= 1e-9, "the circuit's charge kept to 1e-9 over the run (worst " .. worst .. ")")
T.check(moved > 0.1 * c["rcv.M"][1], "charge moves between the receiver and the exchangers (" .. moved .. " kg)")
local function at(name, time)
  local r = 1
  while r < #t and t[r + 1] <= time do r = r + 1 end
  return c[name][r]
end
-- before each step and at the end: the superheat held at 5 K, the air outlet at its setpoint
for _, p in ipairs { { 499.5, 285.15 }, { 1198.5, 282.15 }, { 1500, 282.15 } } do
  T.near(at("sh.superheat", p[1]), 5, 0.01, "t = " .. p[1] .. " s: the valve's PI holds 5 K superheat")
  T.near(at("evap_air_T.T", p[1]), p[2], 0.01, "t = " .. p[1] .. " s: the speed's PI holds the air outlet")
  T.check(at("valve.y", p[1]) > 0.05 and at("valve.y", p[1]) < 0.95, "t = " .. p[1] .. " s: the valve controls")
  T.check(at("rcv.level", p[1]) > 0.05, "t = " .. p[1] .. " s: the receiver holds liquid")
end
T.check(at("comp.w", 899) < at("comp.w", 499), "a colder condenser needs less speed for the same duty")

-- a steady state: the steps past the end, 3,000 s at tol 1e-8
local ss = lied.simulate(VC, { set = { t_air = 1e9, t_set = 1e9, t_flow = 1e9 }, stop = 3000, tol = 1e-8,
  interval = 1500, vars = "comp.P,evap.Q_flow,cond.Q_flow" }):run()
local n = ss:nrows()
local P, Qe, Qc = ss:column("comp.P")[n], ss:column("evap.Q_flow")[n], -ss:column("cond.Q_flow")[n]
T.check(P > 1e3 and Qe > 1e4 and Qc > Qe, "steady state: the compressor works, the evaporator absorbs, the condenser rejects")
T.near(P + Qe, Qc, 1e-6 * Qc, "steady state: compressor power + heat absorbed = heat rejected")

-- linearised at its start and after 50 s: the compressor's stiff law (outlet pressure over
-- the displaced mass, k = 1e11) left its range at linearize's first steps (a cell's mass
-- moved by 5e-5 of it gave a negative outlet pressure); the steps are taken smaller then
for _, at in ipairs { false, 50 } do
  local lin = lied.linearize(VC, { at = at or nil })
  local worst = -math.huge
  for _, ev in ipairs(lin.eigenvalues) do worst = math.max(worst, ev[1]) end
  T.eq(#lin.A, #lin.states, "linearize (at " .. tostring(at) .. "): A is n x n")
  T.check(#lin.states > 50 and worst < 1e-6,
    "linearize (at " .. tostring(at) .. "): no eigenvalue in the right half-plane: " .. worst)
end

-- the plot's logarithmic axis
local plot = require "lied.plot"
local tmp = os.tmpname()
os.remove(tmp)
local script = plot.draw({ { x = { 200, 400 }, y = { 3, 12 } } }, { logy = true, dry = true, file = tmp .. ".png" })
T.check(type(script) == "string" and script:find("set logscale y", 1, true), "plot.draw: logy sets a logarithmic y axis")
script = plot.draw({ { x = { 200, 400 }, y = { 3, 12 } } }, { dry = true, file = tmp .. ".png" })
T.check(type(script) == "string" and script:find("unset logscale y", 1, true), "plot.draw: linear y axis by default")
T.done()
